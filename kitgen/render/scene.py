"""What a packet map can show, as values: the pieces in each hex, the stack list, the marks, the
owners known, a faction's supply overlay, and the sectors the map is cut into. `products`
decides what goes in them (`kitgen.products.packets.scene`); `sceneart` draws them."""

from __future__ import annotations

from dataclasses import dataclass, field

from kitgen.render.unitmarks import Piece

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
    depots: tuple[tuple[str, str], ...] = ()
    pontoons: tuple[tuple[str, str, str], ...] = ()
    """(hex, hex across, faction)."""
    wrecked: tuple[str, ...] = ()
    abandoned: tuple[tuple[str, str], ...] = ()
    owners: dict[str, str] = field(default_factory=dict)
    """Town -> owner, for the towns whose owner the viewer knows."""
    remembered: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Town -> (owner, turn last seen), for towns the viewer saw earlier and does not see now."""
    reach: dict[str, int] = field(default_factory=dict)
    """Hexes the viewer's units can reach by land this turn, each with the least MP any of them
    spends to end there (tinted by band on its map)."""
    rail: frozenset[str] = frozenset()
    """Hexes they can reach only by train (ringed)."""
    drawn: list[Piece] = field(default_factory=list)
    """Every piece the pages drew, in order: for the tests."""
    placed: list[tuple[str, Window]] = field(default_factory=list)
    """(hex, box in map points) of every square and badge the sector pages drew: for the tests."""
    on_pages: list[tuple[int, Window]] = field(default_factory=list)
    """(page from 1, box in page points) of every counter and marker drawn: for the layout gate."""
    windows: dict[int, Window] = field(default_factory=dict)
    """Each sector page's map window (page from 1 -> box in page points): for the tests."""

    def hexes(self) -> set[str]:
        return set(self.pieces) | {d[0] for d in self.depots} | {p[0] for p in self.pontoons} | set(self.wrecked)


@dataclass(frozen=True)
class Sector:
    """One map tile of the kit as a packet prints it: its name (the tile's), the window a sector
    page shows (the tile's, as far as the page has room) and the tile's core, the part it shows
    once the tiles are joined, both in the map's points."""

    key: str
    window: Window
    core: Window
