"""Phase 1 (B.2-B.8): returning stands rejoin, every unit is judged in or out of supply with the
path that proves it, and units out of supply keep their loads, run out of fuel or abandon vehicles."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from kitgen.campaign import Campaign
from kitgen.engine.context import Turn, active, enemies
from kitgen.engine.phases.logistics import after_judgement, judge_depots
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.phases.postbattle import rejoin
from kitgen.engine.state import CampaignState, SupplyTrace, UnitState
from kitgen.mapping.board import Board
from kitgen.rules.supply import full_loads
from kitgen.rules.supplyfield import SupplyField, supply_field


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """Last turn's returning stands back (II.B.3), then supply judged (last turn's evaded partisans
    count as absent, II.D.1), then what being out of supply does (B.6, B.8)."""
    state = rejoin(state)
    state = judge_supply(turn.campaign, turn.board, state)
    state = replace(state, evaded=frozenset())
    state = after_judgement(turn.campaign, state, turn.log)
    return replace(state, started_out=frozenset(u.id for u in state.units if u.in_supply is False))


def supply_sources(
    campaign: Campaign, board: Board, state: CampaignState, faction: str, *, depots: bool = True
) -> set[str]:
    """The faction's source hexes now: fixed sources, towns it holds, ports with its ships, its depots."""
    found, held = _sources(campaign, board, state, faction)
    return found | held if depots else found


def _sources(campaign: Campaign, board: Board, state: CampaignState, faction: str) -> tuple[set[str], set[str]]:
    """The faction's source hexes other than depots, and its depots' hexes if they are sources."""
    found = set()
    for source in board.sources:
        if source.faction != faction:
            continue
        if source.kind == "town" and source.while_held and state.owners.get(source.town or "") != faction:
            continue
        found.add(source.hex)
    conditions = board.conditional_sources.get(faction, ())
    if "ports with_friendly_ship" in conditions:
        ports = {p for p, towns in board.ports.items() if any(state.owners.get(t) == faction for t in towns)}
        ships = {s["hex"] for s in state.ships if s["faction"] == faction}
        found |= {p for p in ports if p in ships or any(n in ships for n in board.neighbours(p))}
    held = set()
    if "depots captured" in conditions:
        held = {d["hex"] for d in state.depots if d["faction"] == faction}
    return found, held


def faction_supply(
    campaign: Campaign, board: Board, state: CampaignState, faction: str, *, enemy: Collection[str] | None = None
) -> SupplyField | None:
    """B.3 over the whole board as `judge_supply` would judge it now: where a unit of `faction`
    would be in supply, and its usable rail net; None while a card cuts its supply. `enemy`, if
    given, is the enemy-held hexes to reckon with (those a faction knows of), else every one."""
    if active(state, "supply_cut", faction):
        return None
    found, held = _sources(campaign, board, state, faction)
    return supply_field(
        board,
        found | held,
        enemy=enemies(state, faction, state.turn) if enemy is None else set(enemy),
        wrecked=set(state.wrecked_track),
        trace_hexes=campaign.scenario.supply.trace_hexes,
        crossings=friendly_pontoons(state, faction),
    )


def trace_from(
    campaign: Campaign, board: Board, state: CampaignState, faction: str, hex_id: str
) -> tuple[str, ...] | None:
    """The path proving a unit of `faction` standing in `hex_id` in supply now, or None when it
    would be out of supply."""
    supply = faction_supply(campaign, board, state, faction)
    return None if supply is None else supply.path(hex_id)


def judge_supply(campaign: Campaign, board: Board, state: CampaignState) -> CampaignState:
    """B.2: every unit judged in or out of supply at the start of the turn, with the path that proves it."""
    trace = campaign.scenario.supply.trace_hexes
    wrecked = set(state.wrecked_track)
    fields: dict[tuple[str, frozenset[str], frozenset[frozenset[str]]], SupplyField] = {}
    hostile: dict[str, set[str]] = {}

    def foes_of(faction: str) -> set[str]:
        if faction not in hostile:
            hostile[faction] = enemies(state, faction, state.turn)
        return hostile[faction]

    def field_of(faction: str, found: set[str], crossings: Collection[frozenset[str]]) -> SupplyField:
        """The faction's supply over the whole board; a unit's own hex is not enemy-held for its own trace."""
        key = (faction, frozenset(found), frozenset(crossings))
        if key not in fields:
            fields[key] = supply_field(
                board, found, enemy=foes_of(faction), wrecked=wrecked, trace_hexes=trace, crossings=crossings
            )
        return fields[key]

    free: dict[str, SupplyField] = {}

    def unblocked(faction: str, found: set[str]) -> SupplyField:
        """The faction's supply as if no enemy stood anywhere and the trace had no limit: where
        the nearest railhead is, for a unit out of supply."""
        if faction not in free:
            limit, bridged = board.arrays.count, friendly_pontoons(state, faction)
            free[faction] = supply_field(board, found, wrecked=wrecked, trace_hexes=limit, crossings=bridged)
        return free[faction]

    undepoted, depots = {}, {}
    for f in sorted({u.faction for u in state.units} | {d["faction"] for d in state.depots}):
        undepoted[f], depots[f] = _sources(campaign, board, state, f)
    by_faction = {
        f: field_of(f, undepoted[f] | depots[f], friendly_pontoons(state, f)) for f in {u.faction for u in state.units}
    }
    cut = {f: bool(active(state, "supply_cut", f)) for f in undepoted}
    foes = {f: foes_of(f) for f in by_faction}
    loads: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}
    judged = []
    for unit in state.units:
        path = None if cut[unit.faction] else by_faction[unit.faction].path(unit.hex)
        if path is not None:  # B.5: in supply, full loads; B.8: fuel again
            stands = tuple(unit.stands.items())
            if stands not in loads:
                loads[stands] = full_loads(campaign.scenario.supply, unit.stands)
            ammo, out, stuck = loads[stands], 0, False
        else:
            ammo, out, stuck = unit.ammo, unit.moves_out_of_supply, unit.immobilised
        if (
            unit.in_supply is (path is not None)
            and unit.supply_path == (path or ())
            and not (unit.moved or unit.carried)
            and unit.carrier is None
            and unit.moves_out_of_supply == out
            and unit.immobilised == stuck
            and (unit.ammo is ammo or list(unit.ammo.items()) == list(ammo.items()))  # in order, as the JSON lists them
        ):
            judged.append(unit)  # judged as it stood: the same unit, without the cost of a copy
            continue
        judged.append(
            replace(
                unit,
                in_supply=path is not None,
                supply_path=path or (),
                moved=False,
                carried=False,
                carrier=None,
                ammo=dict(ammo),
                moves_out_of_supply=out,
                immobilised=stuck,
            )
        )

    def nearest(faction: str) -> SupplyField:
        return unblocked(faction, undepoted[faction] | depots[faction])

    before = {t.unit: t for t in state.supply if t.in_supply}
    traces = tuple(
        before[u.id]  # judged as it stood, in supply by the same path: last turn's trace still holds
        if u is was and u.in_supply and u.id in before and before[u.id].hex == u.hex
        else _trace(u, by_faction[u.faction], cut[u.faction], nearest, foes[u.faction])
        for u, was in zip(judged, state.units, strict=True)
    )
    traced = {}
    for d in state.depots:  # B.7: is the depot itself cut off? (depots are no sources for this)
        f = d["faction"]
        path = field_of(f, undepoted[f], ()).path(d["hex"])
        traced[d["hex"] + ":" + d["faction"]] = path is not None and not cut[f]
    return judge_depots(replace(state, units=tuple(judged), supply=traces), traced)


def _trace(
    unit: UnitState, field: SupplyField, cut: bool, unblocked: Callable[[str], SupplyField], foes: set[str]
) -> SupplyTrace:
    """The unit's judgement as data: the parts of its trace, or why it has none."""
    if unit.in_supply and unit.supply_path:
        path = unit.supply_path
        i = field.railhead(path)
        return SupplyTrace(unit.id, unit.faction, unit.hex, True, path[: i + 1], i, path[i:], path[-1])
    if cut:
        return SupplyTrace(unit.id, unit.faction, unit.hex, False, why_out="card")
    free = unblocked(unit.faction)
    shortest = free.path(unit.hex)
    if shortest is None:
        return SupplyTrace(unit.id, unit.faction, unit.hex, False, why_out="no_route")
    i = free.railhead(shortest)
    blocked = tuple(h for h in shortest[1:] if h in foes)
    why = "blocked" if blocked else "too_far" if i > field.trace_hexes else "no_route"
    return SupplyTrace(
        unit.id,
        unit.faction,
        unit.hex,
        False,
        why_out=why,
        nearest_railhead=shortest[i],
        distance=i,
        blocked_by=blocked,
    )
