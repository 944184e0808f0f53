"""What a packet's maps show, as data: the pieces in each hex (units, glimpsed stacks, stack
markers), the stack list, the marks, the owners the viewer knows, a faction's supply overlay, and
the sectors the map is cut into. Made from the state and, for a player, from what his faction can
see (`kitgen.engine.intel`); the drawing (`packetmaps`) reads nothing else, so the fog-of-war
tests can check a scene and the drawn record against the state."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kitgen.engine.intel import FactionView
from kitgen.engine.state import CampaignState, UnitState
from kitgen.render.unitmarks import Piece

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
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
    reach: frozenset[str] = frozenset()
    """Hexes the viewer's units can reach by land this turn (outlined on its map)."""
    drawn: list[Piece] = field(default_factory=list)
    """Every piece the pages drew, in order: for the tests."""

    def hexes(self) -> set[str]:
        found = set(self.pieces) | {t[0] for t in self.trains} | {s[0] for s in self.ships}
        return found | {d[0] for d in self.depots} | {p[0] for p in self.pontoons} | set(self.wrecked)


def _stands(u: UnitState) -> int:
    return sum(u.stands.values())


def _unit_piece(u: UnitState) -> Piece:
    flags = ("out",) if u.in_supply is False else ()
    return Piece(u.hex, u.faction, "unit", u.id, u.type, _stands(u), flags=flags + (("aboard",) if u.aboard else ()))


def make_scene(
    campaign: Campaign,
    state: CampaignState,
    view: FactionView | None,
    *,
    reach: frozenset[str] = frozenset(),
) -> Scene:
    """The scene of the umpire's map (`view` None: every unit in full) or of a faction's."""
    shown: dict[str, list[Piece]] = {}
    units = [u for u in state.units if u.aboard is None]
    if view is None:
        for u in units:
            shown.setdefault(u.hex, []).append(_unit_piece(u))
    else:
        for u in units:
            if view.sees_in_full(u.id):
                shown.setdefault(u.hex, []).append(_unit_piece(u))
        for s in view.sightings:
            if s.grade == "sized":
                shown.setdefault(s.hex, []).append(Piece(s.hex, s.faction, "block", s.size, detail=s.arms))
    order = [f.id for f in campaign.scenario.meta.factions]
    pieces: dict[str, tuple[Piece, ...]] = {}
    stacks: list[StackEntry] = []
    for hex_id in sorted(shown):
        here = sorted(shown[hex_id], key=lambda p: (order.index(p.faction) if p.faction in order else 99, p.label))
        if len(here) <= 2:
            pieces[hex_id] = tuple(here)
            continue
        key = f"S{len(stacks) + 1}"
        lines = tuple((p.faction, _stack_line(p)) for p in here)
        stacks.append(StackEntry(key, hex_id, lines))
        factions = {p.faction for p in here}
        lead = here[0].faction if len(factions) == 1 else ""
        total = sum(p.stands or 0 for p in here if p.kind == "unit")
        seen_all = all(p.kind == "unit" for p in here)
        pieces[hex_id] = (
            Piece(hex_id, lead, "stack", key, stands=total if seen_all else None, detail=tuple(p.label for p in here)),
        )
    knows = (lambda h: True) if view is None else view.knows_hex
    mine = (lambda f: True) if view is None else (lambda f: f == view.faction)
    ships = {s["id"] for s in state.ships} if view is None else set(view.ships)
    trains = {t["id"] for t in state.trains} if view is None else set(view.trains)
    board_towns = campaign.board.towns
    owners = {}
    for names in board_towns.values():
        for name in names:
            if name in state.owners and (view is None or name in view.towns_known):
                owners[name] = state.owners[name]
    return Scene(
        viewer=None if view is None else view.faction,
        pieces=pieces,
        stacks=tuple(stacks),
        trains=tuple((t["hex"], t["faction"], bool(t.get("armoured"))) for t in state.trains if t["id"] in trains),
        ships=tuple(
            (s["hex"], s["faction"], int(s.get("gunfire", 0)) > 0, s["id"]) for s in state.ships if s["id"] in ships
        ),
        depots=tuple((d["hex"], d["faction"]) for d in state.depots if mine(d["faction"]) or knows(d["hex"])),
        pontoons=tuple(
            (p["hexes"][0], p["hexes"][1], p["faction"])
            for p in state.pontoons
            if mine(p["faction"]) or any(knows(h) for h in p["hexes"])
        ),
        wrecked=state.wrecked_track,  # a faction's scene is drawn from the state it believes
        abandoned=tuple((a["hex"], a["faction"]) for a in state.abandoned if mine(a["faction"]) or knows(a["hex"])),
        owners=owners,
        reach=reach,
    )


def _stack_line(p: Piece) -> str:
    if p.kind == "block":
        arms = ", ".join(p.detail) or "unknown arms"
        return f"a {p.label} stack seen: {arms}"
    out = ", out of supply" if "out" in p.flags else ""
    return f"{p.label} ({p.type.replace('_', ' ')}, {p.stands} stands{out})"


def overlay_of(campaign: Campaign, state: CampaignState, faction: str) -> Overlay:
    """The faction's supply overlay, from the supply field the engine judges supply by. Given the
    state a faction believes (`kitgen.engine.intel.believed`), it is the supply as the faction can
    know it: the truth would have holes where unseen enemies stand, and give them away."""
    from kitgen.engine.context import enemies
    from kitgen.engine.phases.supply import faction_supply

    board = campaign.board
    hostile = enemies(state, faction, state.turn)
    held = frozenset(h for h in hostile if board.rail_neighbours(h))
    wrecked = frozenset(state.wrecked_track)
    supply = faction_supply(campaign, board, state, faction)
    if supply is None:
        return Overlay(faction, frozenset(), frozenset(), wrecked, held, cut=True)
    ids = supply.arrays.ids
    inside = np.flatnonzero(supply.in_supply)
    net = set(np.flatnonzero(supply.net.on[:-1]).tolist())
    rail = frozenset(link for link in board.rail if all(supply.arrays.index[h] in net for h in link))
    return Overlay(faction, frozenset(ids[i] for i in inside), rail, wrecked, held)


# --- sectors ---------------------------------------------------------------------------------


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
