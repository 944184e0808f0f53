"""Land movement (A, A.1) and the breakdown rolls of vehicles that moved (A.4, A.5). Each land
order is judged alone here (`plan_land`); the simultaneous step settles where enemies stop it
(`simultaneous`), and `finish_land` moves the units there."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, enemies, modifier
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.phases.simultaneous import Mover, MoverKind, Plan
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, Result, StepCost, UnitState, Verdict
from kitgen.engine.turnlog import MoveOrder, TurnLog
from kitgen.mapping.board import Board
from kitgen.messages import plural
from kitgen.rules.movement import breakdown_roll, breaks_down, movement_row
from kitgen.rules.paths import PathVerdict, land_path


@dataclass
class LandMove:
    """A land order that stands, judged on the board alone; the simultaneous step settles where
    the enemy stops it, and ferries are filled in the log's order."""

    mover: Mover
    line: int
    column: int
    route: str
    row: str
    label: str
    """'retreat' or 'path', as the order says."""
    note: str = ""
    """What the verdict adds: a retreat not held by its command roll."""
    ferry: str = ""
    """The ferry it crosses by and its count this turn, said if it still crosses."""

    @property
    def unit(self) -> str:
        return self.mover.id


LandPlan = Plan[LandMove]


def plan_land(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    log: TurnLog,
    located: LogSource,
    halted: dict[str, str],
    began: CampaignState,
) -> LandPlan:
    """A, A.1: each land move goes hex by hex as far as it can pay for and may enter, and stops
    there (RULES-NOTES, ruling of 2026-12-02): `stopped`, with why; only a malformed path is void,
    and so is a refused order (a second one, a unit carried or aboard). A ferry takes its number
    a turn, in the log's order, and the rest stop on the near bank. A retreat order (II.C.2)
    moves by the same rules whatever the unit's command roll: a unit that lost a battle last
    turn wherever the enemy is, any other only away from enemies in or next to its hex as
    movement began (`began`)."""
    units = {u.id: u for u in state.units}
    file = located.name
    planned: list[Verdict | LandMove] = []
    ordered: dict[str, int] = {}
    """Units given a move order already, and its line: a second one is void, whatever the first did."""
    bridged: dict[str, set[frozenset[str]]] = {}
    for faction in log.orders:  # in the order the log gives them
        foes: set[str] | None = None  # II.C.2: the enemy a retreating unit is in touch with, when asked
        bridged[faction] = friendly_pontoons(state, faction)
        whole_move = bridged[faction] | set(board.ferries)
        for i, order in enumerate(log.orders[faction]):
            line, column = located.position(("orders", faction, i))
            said = partial(Verdict, file, line, faction, kind="land", column=column)  # the order's place
            unit = units.get(order.unit)
            route = "-".join(order.move)
            if unit is None:
                gone = f"{order.unit}: path {route}: no longer on the map: void"
                planned.append(said(order.unit, f"path {route}", "void", gone, "A"))
                continue
            row = f"{unit.name} ({unit.type}, {movement_row(campaign.scenario.movement, unit.type).mp} MP)"
            earlier = ordered.get(unit.id)
            ordered.setdefault(unit.id, line)
            judged = land_path(
                board,
                campaign.scenario.movement,
                unit.type,
                list(order.move),
                mp_modifier=mp_modifier(state, faction, unit.type),
                pontoons=whole_move,
            )
            if order.retreat and foes is None:
                foes = enemies(began, faction, began.turn)
            retreating = (  # II.C.2 (ruling 2026-12-02): a loser of last turn's battle goes on retreating
                foes is not None
                and order.retreat
                and not any(h in foes for h in order.move[1:])  # it never walks into the enemy it saw
                and (unit.id in state.lost_battle or _away(board, order.move[0], judged.end, foes))
            )  # any other retreat must end, where it stops, farther from each enemy near it; and
            # no retreat enters a hex of enemy units when movement ends (the simultaneous step)
            held = halted.get(unit.id) if not retreating else None
            refused = _refused(unit, order, row, earlier, held)
            if refused is not None:
                planned.append(said(unit.id, f"path {route}", *refused, start=unit.hex, end=unit.hex))
                continue
            note = ""
            if retreating and unit.id in halted:  # II.C.2: "Units can always continue to retreat"
                failed = next(c for c in state.commands if unit.id in c.units and not c.obeyed)
                note = f"; retreating, it is not held by its command roll ({failed.roll} over {failed.target}), II.C.2"
            kind: MoverKind = "retreat" if retreating else "land"  # else a move like any other
            mover = Mover(unit.id, faction, kind, judged, (unit.id,))
            label = "retreat" if order.retreat else "path"
            planned.append(LandMove(mover, line, column, route, row, label, note))
    moves = [m for m in planned if isinstance(m, LandMove)]
    _ferries(board, moves, bridged)  # a move past the ferry's number goes nowhere, and meets no one
    return LandPlan(planned)


def finish_land(state: CampaignState, plan: LandPlan, located: LogSource) -> tuple[CampaignState, list[Verdict]]:
    """The units moved to where the simultaneous step stopped them; returns the state and the
    land verdicts, in the log's order."""
    units = {u.id: u for u in state.units}
    verdicts: list[Verdict] = []
    for item in plan.planned:
        if isinstance(item, Verdict):  # refused: the unit stays where it is, a train's load where the train went
            rider = units.get(item.unit)
            verdicts.append(replace(item, start=rider.hex, end=rider.hex) if rider and rider.carrier else item)
            continue
        m, judged, kind = item, item.mover.judged, item.label
        result: Result = "void" if judged.malformed else "stopped" if judged.stop else "done"
        text = f"{m.row}: {kind} {m.route} {judged.explain()}{m.ferry if judged.steps else ''}{m.note}"
        numbers = path_numbers(judged, judged.start, judged.end)
        verdicts.append(
            Verdict(
                located.name,
                m.line,
                m.mover.faction,
                m.unit,
                f"{kind} {m.route}",
                result,
                text,
                judged.rule,
                column=m.column,
                stop=judged.stop,
                **numbers,
            )
        )
        if judged.steps:  # a malformed path has none
            units[m.unit] = replace(units[m.unit], hex=judged.end, moved=True)
    return replace(state, units=tuple(units[u.id] for u in state.units)), verdicts


def _ferries(board: Board, moves: list[LandMove], bridged: dict[str, set[frozenset[str]]]) -> None:
    """A.1 (RULES-NOTES): a ferry takes its number of units a turn, all factions together, in the
    log's order; a move beyond that stops on the near bank (where it stood: a crossing is a whole
    move, so only a first step makes one)."""
    ferried: dict[frozenset[str], int] = {}
    for m in moves:
        ferry = _ferry_crossing(board, m.mover.alone, bridged[m.mover.faction])
        if ferry is None:
            continue
        taken, capacity = ferried.get(ferry, 0), board.ferries[ferry]
        a, b = sorted(ferry)
        if taken >= capacity:
            crossed = "has" if taken == 1 else "have"
            why = f"the ferry {a}-{b} takes {plural(capacity, 'unit')} a turn, and {taken} {crossed} crossed by it already"
            m.mover.alone = m.mover.judged = m.mover.alone.cut(0, "ferry_full", "A.1", why)
        else:
            ferried[ferry] = taken + 1
            m.ferry = f", by the ferry {a}-{b} ({taken + 1} of its {capacity} units this turn)"


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


def _ferry_crossing(board: Board, judged: PathVerdict, bridged: set[frozenset[str]]) -> frozenset[str] | None:
    """A.1: the ferry a move crosses by (a whole-move first step over a ferry's hexside where the
    side has no pontoon of its own), or None."""
    if judged.malformed or not judged.steps or not judged.steps[0].cost.whole_move:
        return None
    side = frozenset((judged.start, judged.steps[0].hex))
    return side if side in board.ferries and side not in bridged else None


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
        if not unit.moved and all(n > 0 for n in unit.stands.values()):
            units.append(unit)  # no roll, nothing to tidy
            continue
        stands = dict(unit.stands)
        for kind in sorted(stands) if unit.moved else []:  # A.4-A.5: per vehicle, of whatever unit
            check = breakdown_roll(rules, kind, carried=unit.carried)
            if check is None:
                continue
            for k in range(1, stands.get(kind, 0) + 1):
                vehicle = vehicle_name(kind, unit.type, k)
                what = breakdown_what(unit.id, vehicle, state.turn)
                roll = make_roll(campaign, log, check.source, what, check.roll, units=(unit.id,))
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
