"""What a packet map can show, as values: the pieces in each hex, the stack list, the marks, the
owners known, a faction's supply overlay, and the sectors the map is cut into. `products`
decides what goes in them (`packetscene`); `sceneart` draws them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kitgen.render.unitmarks import Piece

if TYPE_CHECKING:
    from kitgen.render.mapart import MapArt

Window = tuple[float, float, float, float]
"""x0, y0, x1, y1 in the map's points."""


@dataclass(frozen=True)
class Overlay:
    """One faction's supply: the hexes a unit of it would be in supply in, its usable track
    (links between hexes of its rail net), and the track it cannot use: wrecked, or held by
    an enemy."""

    faction: str
    hexes: frozenset[str]
    rail: frozenset[frozenset[str]]
    wrecked: frozenset[str]
    held: frozenset[str]
    cut: bool = False
    """A card cuts its supply this turn: no hex is in supply."""


@dataclass(frozen=True)
class StackEntry:
    key: str
    hex: str
    lines: tuple[tuple[str, str], ...]
    """(faction, text) per unit or glimpsed stack under the marker."""


@dataclass
class Scene:
    """Everything a packet's maps show, for the umpire or one faction."""

    viewer: str | None
    """The faction whose packet it is; None for the umpire's."""
    pieces: dict[str, tuple[Piece, ...]]
    """Hex -> the pieces drawn in it (at most two; more make a stack marker)."""
    stacks: tuple[StackEntry, ...]
    trains: tuple[tuple[str, str, bool], ...] = ()
    """(hex, faction, armoured)."""
    ships: tuple[tuple[str, str, bool, str], ...] = ()
    """(hex, faction, warship, id)."""
    depots: tuple[tuple[str, str], ...] = ()
    pontoons: tuple[tuple[str, str, str], ...] = ()
    """(hex, hex across, faction)."""
    wrecked: tuple[str, ...] = ()
    abandoned: tuple[tuple[str, str], ...] = ()
    owners: dict[str, str] = field(default_factory=dict)
    """Town -> owner, for the towns whose owner the viewer knows."""
    reach: dict[str, int] = field(default_factory=dict)
    """Hexes the viewer's units can reach by land this turn, each with the least MP any of them
    spends to end there (tinted by band on its map)."""
    rail: frozenset[str] = frozenset()
    """Hexes they can reach only by train (ringed)."""
    drawn: list[Piece] = field(default_factory=list)
    """Every piece the pages drew, in order: for the tests."""

    def hexes(self) -> set[str]:
        found = set(self.pieces) | {t[0] for t in self.trains} | {s[0] for s in self.ships}
        return found | {d[0] for d in self.depots} | {p[0] for p in self.pontoons} | set(self.wrecked)


@dataclass(frozen=True)
class Sector:
    key: str
    window: Window


def sectors(art: MapArt, size: tuple[float, float], overlap: float) -> list[Sector]:
    """The map cut into windows of `size` (map points), each repeating `overlap` of its
    neighbours, spread evenly; lettered by column from the west, numbered by row from the north."""

    def starts(total: float, span: float) -> list[float]:
        if span >= total:
            return [(total - span) / 2]
        n = math.ceil((total - overlap) / (span - overlap))
        return [k * (total - span) / (n - 1) for k in range(n)] if n > 1 else [0.0]

    xs, ys = starts(art.width, size[0]), starts(art.height, size[1])
    found = []
    for j, y in enumerate(reversed(ys)):
        for i, x in enumerate(xs):
            found.append(Sector(f"{chr(65 + i)}{j + 1}", (x, y, x + size[0], y + size[1])))
    return found
