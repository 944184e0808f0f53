"""After the battles (II.B.2-B.3, B.8, II.D.4): contacts listed, trains, depots and abandoned
vehicles captured, the Makhnovist gun cap, towns passing to a faction that holds them alone,
pontoons left without their unit; and at the next turn's start, returning stands rejoin."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import Turn
from kitgen.engine.phases.pontoons import orphaned_pontoons
from kitgen.engine.state import CampaignState, UnitState
from kitgen.mapping.board import Board
from kitgen.rules.supply import full_loads


def run(turn: Turn, state: CampaignState) -> CampaignState:
    return orphaned_pontoons(settle(turn.campaign, turn.board, state))


def rejoin(state: CampaignState) -> CampaignState:
    """II.B.3: stands that "return to unit strengths next turn" rejoin their unit."""
    back: dict[str, dict[str, int]] = {}
    for unit_id, kind, n in state.returning:
        back.setdefault(unit_id, {})[kind] = back.get(unit_id, {}).get(kind, 0) + n
    if not back:
        return state
    units = []
    for u in state.units:
        if u.id in back:
            stands = dict(u.stands)
            for kind, n in back[u.id].items():
                stands[kind] = stands.get(kind, 0) + n
            u = replace(u, stands=dict(sorted(stands.items())))
        units.append(u)
    return replace(state, units=tuple(units), returning=())


def present(state: CampaignState, leaving: Collection[str] = ()) -> dict[str, set[str]]:
    """Hex -> the factions whose units stand there for battle, VP and supply (but the units
    `leaving`)."""
    by_hex: dict[str, set[str]] = {}
    evaded = state.evaded
    for u in state.units:
        # II.D.1: "the nonpartisan unit is assumed to be there only"; D.1: units aboard are at sea
        if u.aboard is None and (not evaded or (u.hex, u.faction) not in evaded) and u.id not in leaving:
            by_hex.setdefault(u.hex, set()).add(u.faction)
    return by_hex


def contact_groups(state: CampaignState, by_hex: dict[str, set[str]] | None = None) -> tuple[tuple[str, ...], ...]:
    """The battles to fight: each hex where units of enemy factions stand together, joined with
    the hex across a hexside where enemy moves met this turn (ruling of 2026-12-02) while enemies
    still face each other across it. Each group's hexes in id order, the groups in order of
    their first hex. `by_hex` is `present(state)`, when the caller has it already."""
    by_hex = present(state) if by_hex is None else by_hex

    def hostile(a: Collection[str], b: Collection[str]) -> bool:
        return any(not state.allied(x, y, state.turn) for x in a for y in b)

    group = {h: {h} for h, fs in by_hex.items() if len(fs) > 1 and hostile(fs, fs)}  # one faction: no foe
    for a, b in state.across:
        if hostile(by_hex.get(a, ()), by_hex.get(b, ())):
            joined = group.get(a, {a}) | group.get(b, {b})
            for h in joined:
                group[h] = joined
    return tuple(sorted({tuple(sorted(g)) for g in group.values()}))


def contact_hexes(state: CampaignState, by_hex: dict[str, set[str]] | None = None) -> tuple[str, ...]:
    """Every hex of a battle to fight (`contact_groups`), in hex-id order."""
    return tuple(sorted(h for g in contact_groups(state, by_hex) for h in g))


def settle(campaign: Campaign, board: Board, state: CampaignState) -> CampaignState:
    """Contacts for the tabletop; trains and depots captured (II.B.2: non-armoured trains and
    depots are captured when enemy units enter their hex); towns passing to the faction that
    holds them alone."""
    by_hex = present(state)
    contacts = contact_hexes(state, by_hex)
    trains: list[dict[str, Any]] = []
    depots: list[dict[str, Any]] = []
    for items, into in ((state.trains, trains), (state.depots, depots)):
        for item in items:
            there = by_hex.get(item["hex"], set())
            takers = sorted(f for f in there if not state.allied(f, item["faction"], state.turn))
            if len(there) == 1 and takers and not item.get("armoured"):  # II.B.2: an enemy alone in the hex
                item = {**item, "faction": takers[0], **({"uses": 0} if "uses" in item else {})}
            into.append(item)
    state = replace(state, trains=tuple(trains), depots=tuple(depots))
    state = _take_abandoned(campaign, state, by_hex)
    state = _artillery_cap(campaign, state)
    owners = dict(state.owners)
    for hex_id, towns in board.towns.items():
        factions = by_hex.get(hex_id, set())
        if len(factions) == 1:
            for town in towns:
                owners[town] = next(iter(factions))
    return replace(state, contacts=contacts, owners=owners)


def _take_abandoned(campaign: Campaign, state: CampaignState, by_hex: dict[str, set[str]]) -> CampaignState:
    """B.8 (ruling out_of_fuel): an enemy unit that enters the hex of an intact abandoned vehicle
    takes it: the vehicles join the order of battle of the one faction there."""
    units, left, notes = list(state.units), [], list(state.umpire)
    for item in state.abandoned:
        takers = sorted(f for f in by_hex.get(item["hex"], set()) if not state.allied(f, item["faction"], state.turn))
        if len(takers) != 1 or len(by_hex[item["hex"]]) != 1:
            left.append(item)
            continue
        kind = next(iter(item["stands"]))
        units.append(
            UnitState(
                id=f"{item['unit']}_taken",
                name=f"Captured {kind.replace('_', ' ')}s",
                faction=takers[0],
                type=kind,
                stands=dict(item["stands"]),
                hex=item["hex"],
                moved=True,
                ammo=full_loads(campaign.scenario.supply, item["stands"]),
            )
        )
        notes.append(f"B.8 the {takers[0]} take the vehicles abandoned in {item['hex']}")
    return replace(state, units=tuple(units), abandoned=tuple(left), umpire=tuple(notes))


def _artillery_cap(campaign: Campaign, state: CampaignState) -> CampaignState:
    """II.D.4: the Makhnovists never have more than 3 batteries; guns beyond the cap are destroyed
    (RULES-NOTES), the last gained first."""
    rules = campaign.scenario.partisans
    cap, faction = rules.artillery_cap, rules.artillery_cap_faction
    total = sum(u.stands.get("artillery", 0) for u in state.units if u.faction == faction)
    if total <= cap:
        return state
    excess, units = total - cap, []
    for u in reversed(state.units):
        if u.faction == faction and excess and u.stands.get("artillery"):
            cut = min(excess, u.stands["artillery"])
            excess -= cut
            stands = {k: n - (cut if k == "artillery" else 0) for k, n in u.stands.items()}
            u = replace(u, stands={k: n for k, n in stands.items() if n > 0})
        if u.stands:
            units.append(u)
    note = f"II.D.4 the {faction} may have no more than {cap} batteries: {total - cap} destroyed"
    return replace(state, units=tuple(reversed(units)), umpire=(*state.umpire, note))
