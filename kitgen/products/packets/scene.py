"""What a packet's maps show: the scene (`kitgen.render.scene`) of the umpire's map or of a
faction's, and a faction's supply overlay, made from the state and, for a player, from what his
faction can see (`kitgen.engine.intel`). The drawing reads nothing else, so the fog-of-war tests
can check a scene and the drawn record against the state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kitgen.engine.intel import FactionView
from kitgen.engine.memory import Memory, Remembered
from kitgen.engine.state import CampaignState, UnitState
from kitgen.render.scene import Overlay, Scene, StackEntry
from kitgen.render.unitmarks import Piece

if TYPE_CHECKING:
    from kitgen.campaign import Campaign


def _stands(u: UnitState) -> int:
    return sum(u.stands.values())


def _unit_piece(u: UnitState) -> Piece:
    from kitgen.products.counters import stands_text
    from kitgen.render.counterstyle import counter_style

    flags = ("out",) if u.in_supply is False else ()
    return Piece(
        u.hex,
        u.faction,
        "unit",
        u.id,
        u.type,
        _stands(u),
        flags=flags + (("aboard",) if u.aboard else ()),
        name=u.name,
        strength=stands_text({k: n for k, n in u.stands.items() if n}, counter_style()),
        traits=u.flags,
    )


def make_scene(
    campaign: Campaign,
    state: CampaignState,
    view: FactionView | None,
    *,
    reach: dict[str, int] | None = None,
    rail: frozenset[str] = frozenset(),
    memory: Memory | None = None,
) -> Scene:
    """The scene of the umpire's map (`view` None: every unit in full) or of a faction's, with
    what it remembers (`memory`: enemies last seen in hexes it does not see now, and the owners
    of towns as it last saw them)."""
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
        for r in memory.sightings if memory is not None else ():
            shown.setdefault(r.hex, []).append(_remembered_piece(r, memory.age(r.turn) if memory else 0))
    ships = {s["id"] for s in state.ships} if view is None else set(view.ships)
    trains = {t["id"] for t in state.trains} if view is None else set(view.trains)
    for piece in _carriers(campaign, state, trains, ships, None if view is None else view.faction):
        shown.setdefault(piece.hex, []).append(piece)
    order = [f.id for f in campaign.scenario.meta.factions]
    pieces: dict[str, tuple[Piece, ...]] = {}
    stacks: list[StackEntry] = []
    for hex_id in sorted(shown):
        here = sorted(
            shown[hex_id],
            key=lambda p: (order.index(p.faction) if p.faction in order else 99, p.kind == "carrier", p.label),
        )
        if len(here) <= 2:
            pieces[hex_id] = tuple(here)
            continue
        key = hex_id  # the same stack in every packet, and the number tells no one of stacks he cannot see
        lines = tuple((p.faction, _stack_line(p)) for p in here)
        stacks.append(StackEntry(key, hex_id, lines))
        factions = {p.faction for p in here}
        lead = here[0].faction if len(factions) == 1 else ""
        total = sum(p.stands or 0 for p in here if p.kind == "unit")
        seen_all = all(p.kind != "block" for p in here)
        pieces[hex_id] = (
            Piece(
                hex_id,
                lead,
                "stack",
                key,
                stands=total if seen_all else None,
                detail=tuple(p.label for p in here),
                top=here[0],
            ),
        )
    knows = (lambda h: True) if view is None else view.knows_hex
    mine = (lambda f: True) if view is None else (lambda f: f == view.faction)
    board_towns = campaign.board.towns
    owners = {}
    for names in board_towns.values():
        for name in names:
            if name in state.owners and (view is None or name in view.towns_known):
                owners[name] = state.owners[name]
    remembered = {m.town: (m.owner, m.turn) for m in memory.towns} if memory is not None else {}
    return Scene(
        viewer=None if view is None else view.faction,
        pieces=pieces,
        stacks=tuple(stacks),
        depots=tuple((d["hex"], d["faction"]) for d in state.depots if mine(d["faction"]) or knows(d["hex"])),
        pontoons=tuple(
            (p["hexes"][0], p["hexes"][1], p["faction"])
            for p in state.pontoons
            if mine(p["faction"]) or any(knows(h) for h in p["hexes"])
        ),
        wrecked=state.wrecked_track,  # a faction's scene is drawn from the state it believes
        abandoned=tuple((a["hex"], a["faction"]) for a in state.abandoned if mine(a["faction"]) or knows(a["hex"])),
        owners=owners,
        remembered=remembered,
        reach=dict(reach or {}),
        rail=rail,
    )


def _carriers(
    campaign: Campaign, state: CampaignState, trains: set[str], ships: set[str], viewer: str | None
) -> list[Piece]:
    """The trains and ships shown, as their counters print them (`kitgen.products.counters`); an
    enemy's by its kind alone (a warship, a transport), as a glimpse of it would tell."""
    from kitgen.engine.piecenames import train_kind
    from kitgen.products.counters import ship_face, train_face

    s = campaign.scenario
    found = []
    for t in state.trains:
        if t["id"] in trains:
            known = viewer is None or t["faction"] == viewer
            armoured = bool(t.get("armoured"))
            kind, name, load = train_face(s, armoured, str(t["name"]) if known else train_kind(armoured))
            found.append(
                Piece(t["hex"], t["faction"], "carrier", str(t["id"]), kind, name=name, strength=load if known else "")
            )
    for x in state.ships:
        if x["id"] in ships:
            kind, name, load = ship_face(s, str(x.get("name", x["id"])), int(x.get("gunfire", 0)))
            if viewer is not None and x["faction"] != viewer:
                name, load = ("Warship" if kind == "warship" else "Transport"), ""
            found.append(Piece(x["hex"], x["faction"], "carrier", str(x["id"]), kind, name=name, strength=load))
    return found


def _remembered_piece(r: Remembered, age: int) -> Piece:
    """A sighting of an earlier turn as its block: the turn, its size, its arms (a stack seen next
    to the faction's units) or its units' names (seen in full)."""
    detail = r.arms if r.grade == "sized" else tuple(u.name for u in r.units)
    return Piece(r.hex, r.faction, "memory", f"T{r.turn}", name=r.size, detail=detail, age=age)


def _stack_line(p: Piece) -> str:
    if p.kind == "memory":
        what = ", ".join(p.detail) or "unknown arms"
        return f"last seen at the start of turn {p.label.removeprefix('T')}: a {p.name} stack ({what})"
    if p.kind == "block":
        arms = ", ".join(p.detail) or "unknown arms"
        return f"a {p.label} stack seen: {arms}"
    if p.kind == "carrier":
        return f"{p.name} ({p.strength})" if p.strength else p.name
    out = ", out of supply" if "out" in p.flags else ""
    return f"{p.name or p.label} ({p.type.replace('_', ' ')}, {p.stands} stands{out})"


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
