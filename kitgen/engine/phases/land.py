"""Land movement (A, A.1) and the breakdown rolls of vehicles that moved (A.4, A.5)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, enemies, modifier
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, Result, StepCost, UnitState, Verdict
from kitgen.engine.turnlog import MoveOrder, TurnLog
from kitgen.mapping.board import Board
from kitgen.rules.movement import breakdown_roll, breaks_down, movement_row
from kitgen.rules.paths import PathVerdict, land_path


def move(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """A, A.1: each land move judged on the board; a void order leaves its unit where it stood.
    Moves are simultaneous: a move that enters a hex where enemy units stood when land movement
    began stops there (contact), the rest of its path dropped: `stopped`. A retreat order
    (II.C.2) moves by the same rules whatever the unit's command roll: a unit that lost a battle
    last turn wherever the enemy is, any other only away from enemies in or next to its hex;
    no retreat enters a hex of enemy units."""
    units = {u.id: u for u in state.units}
    verdicts = list(state.verdicts)
    file = located.name
    ordered: dict[str, int] = {}
    """Units given a move order already, and its line: a second one is void, whatever the first did."""
    ferried: dict[frozenset[str], int] = {}
    """A.1: units each ferry has taken across this turn, all factions together, in the log's order."""
    for faction in log.orders:  # in the order the log gives them
        terms = move_terms(board, state, faction)
        foes, bridged = terms.foes, terms.bridged
        for i, order in enumerate(log.orders[faction]):
            line, column = located.position(("orders", faction, i))
            said = partial(Verdict, file, line, faction, kind="land", column=column)  # the order's place
            unit = units.get(order.unit)
            route = "-".join(order.move)
            if unit is None:
                gone = f"{order.unit}: path {route}: no longer on the map: void"
                verdicts.append(said(order.unit, f"path {route}", "void", gone, "A"))
                continue
            row = f"{unit.name} ({unit.type}, {movement_row(campaign.scenario.movement, unit.type).mp} MP)"
            earlier = ordered.get(unit.id)
            ordered.setdefault(unit.id, line)
            retreating = (  # II.C.2 (ruling 2026-12-02): a loser of last turn's battle goes on retreating
                order.retreat
                and not any(h in foes for h in order.move[1:])  # a retreat never walks into the enemy
                and (unit.id in state.lost_battle or _away(board, order.move[0], order.move[-1], foes))
            )
            held = halted.get(unit.id) if not retreating else None
            refused = _refused(unit, order, row, earlier, held)
            if refused is not None:
                verdicts.append(said(unit.id, f"path {route}", *refused))
                continue
            judged = land_path(
                board,
                campaign.scenario.movement,
                unit.type,
                list(order.move),
                mp_modifier=mp_modifier(state, faction, unit.type),
                pontoons=terms.whole_move,
                enemy=foes,
            )
            kind = "retreat" if order.retreat else "path"
            text = f"{row}: {kind} {route} {judged.explain()}"
            if retreating and unit.id in halted:  # II.C.2: "Units can always continue to retreat"
                failed = next(c for c in state.commands if unit.id in c.units and not c.obeyed)
                text += f"; retreating, it is not held by its command roll ({failed.roll} over {failed.target}), II.C.2"
            result: Result = "stopped" if judged.stopped_at else "done" if judged.allowed else "void"
            rule = judged.rule
            went = list(order.move[: len(judged.steps) + 1])  # as far as it went: a contact drops the rest
            ferry = _ferry_crossing(board, went, bridged) if judged.allowed else None
            if ferry is not None:
                taken, capacity = ferried.get(ferry, 0), board.ferries[ferry]
                if taken >= capacity:
                    a, b = sorted(ferry)
                    result, rule = "void", "A.1"
                    text = (
                        f"{row}: {kind} {route}: the ferry {a}-{b} takes {capacity} units a turn, "
                        f"and {taken} have crossed by it already: void, A.1"
                    )
                else:
                    ferried[ferry] = taken + 1
                    text += f", by the ferry {'-'.join(sorted(ferry))} ({taken + 1} of its {capacity} units this turn)"
            end = (judged.stopped_at or order.move[-1]) if result != "void" else unit.hex
            numbers = path_numbers(judged, unit.hex, end)
            verdicts.append(said(unit.id, f"{kind} {route}", result, text, rule, **numbers))
            if result != "void":
                units[unit.id] = replace(unit, hex=end, moved=True)
    return replace(state, units=tuple(units[u.id] for u in state.units), verdicts=tuple(verdicts))


@dataclass(frozen=True)
class MoveTerms:
    """What a faction's land moves are judged against this turn, whatever the unit."""

    foes: set[str]
    """Hexes of enemy units as land movement begins: a move that enters one stops there (contact)."""
    bridged: set[frozenset[str]]
    """A.1: hexsides with a pontoon of the faction or an ally."""
    whole_move: set[frozenset[str]]
    """A.1: hexsides crossed by pontoon or ferry, taking the whole move."""


def move_terms(board: Board, state: CampaignState, faction: str) -> MoveTerms:
    """The terms of the faction's land moves in `state`, as the land phase finds them."""
    foes, bridged = enemies(state, faction, state.turn), friendly_pontoons(state, faction)
    return MoveTerms(foes, bridged, bridged | set(board.ferries))


def mp_modifier(state: CampaignState, faction: str, unit_type: str) -> int:
    """The lasting card effects on the unit type's MP this turn (II.A)."""
    return modifier(state, "movement", faction, unit_type)


def _refused(
    unit: UnitState, order: MoveOrder, row: str, earlier: int | None, held: str | None
) -> tuple[Result, str, str] | None:
    """(result, why, rule) when a move order is not carried out whatever its path: a second
    order for the unit (`earlier`: the first one's line), a unit aboard a ship, carried this
    turn or moved already; held by command control (`held`: why, unless it is retreating);
    not starting where the unit is; out of fuel."""
    said = f"{row}: path {'-'.join(order.move)}"
    if earlier is not None:
        return "void", f"{said}: a second move order for the unit this turn (line {earlier}): void", "A"
    if unit.aboard is not None:
        return (
            "void",
            f"{said}: aboard ship {unit.aboard}, so no land move (it goes ashore by a sea order): void, D.1",
            "D.1",
        )
    if unit.carried:
        return "void", f"{said}: embarked or detrained this turn, so no map move: void, A.2", "A.2"
    if unit.moved:
        return "void", f"{row} has moved already this turn: void", "A"
    if held is not None:
        # II.C.2 spares only a move that takes the unit away from the enemy
        spared = "; not a retreat, for it does not end farther from the enemy than it starts" if order.retreat else ""
        return "held", f"{said}: {held}{spared}", "II.C"
    if order.move[0] != unit.hex:
        return "void", f"{row} is in {unit.hex}, not {order.move[0]}: void", "A"
    if unit.immobilised:
        return "void", f"{said}: out of fuel and immobilised: void, B.8", "B.8"
    return None


def _away(board: Board, start: str, end: str, foes: Collection[str]) -> bool:
    """II.C.2: a retreat is a move away from the enemy the unit is in touch with: enemy units in
    its hex or next to it at the start, each of them farther from where it ends."""
    grid = board.grid
    a, b = grid.parse_id(start), grid.parse_id(end)
    if a is None or b is None:
        return False
    near = [c for c in (grid.parse_id(h) for h in foes) if c is not None and grid.distance(a, c) <= 1]
    return bool(near) and all(grid.distance(b, c) > grid.distance(a, c) for c in near)


def path_numbers(judged: PathVerdict, start: str, end: str) -> dict[str, Any]:
    """The numbers of a judged path for its verdict: each step and its cost, MP spent and left."""
    steps = tuple(StepCost(x.hex, x.cost.mp, x.cost.parts) for x in judged.steps)
    return {
        "kind": "land",
        "start": start,
        "end": end,
        "steps": steps,
        "spent": judged.spent,
        "allowance": judged.mp,
        "left": max(0, judged.mp - judged.spent),
    }


def _ferry_crossing(board: Board, path: list[str], bridged: set[frozenset[str]]) -> frozenset[str] | None:
    """A.1: the ferry a move crosses by (a one-step move over a ferry's hexside where the side
    has no pontoon of its own), or None."""
    side = frozenset(path)
    if len(path) != 2 or side not in board.ferries or side in bridged:
        return None
    found = board.side(path[0], path[1])
    return None if found is not None and found.bridge else side


def vehicle_name(kind: str, unit_type: str, k: int) -> str:
    """The k-th vehicle of a stand kind in a unit: 'vehicle 2' of its own type, else 'tank 1'."""
    return f"vehicle {k}" if kind == unit_type else f"{kind} {k}"


def breakdown_what(unit_id: str, vehicle: str, turn: int) -> str:
    """What a breakdown roll decides (A.4-A.5): its purpose after its rule."""
    return f"{unit_id} {vehicle} breakdown, turn {turn}"


def breakdowns(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """A.4, A.5: every vehicle of a unit that moved on the map rolls for breakdown; a vehicle that
    breaks down is lost for the campaign (none roll when carried by train or ship)."""
    rules = campaign.scenario.movement
    rolls, notes = list(state.rolls), list(state.umpire)
    units = []
    for unit in state.units:
        stands = dict(unit.stands)
        for kind in sorted(stands) if unit.moved else []:  # A.4-A.5: per vehicle, of whatever unit
            check = breakdown_roll(rules, kind, carried=unit.carried)
            if check is None:
                continue
            for k in range(1, stands.get(kind, 0) + 1):
                vehicle = vehicle_name(kind, unit.type, k)
                what = breakdown_what(unit.id, vehicle, state.turn)
                roll = make_roll(campaign, log, check.source, what, check.roll)
                rolls.append(roll)
                if breaks_down(check, roll.value):
                    stands[kind] -= 1
                    notes.append(
                        f"{check.source} {unit.name}: {vehicle} breaks down on a {roll.value}, lost for the campaign"
                    )
        stands = {kind: n for kind, n in stands.items() if n > 0}
        if stands == unit.stands:
            units.append(unit)
        elif stands:
            units.append(replace(unit, stands=stands))
    return replace(state, units=tuple(units), rolls=tuple(rolls), umpire=tuple(notes))
