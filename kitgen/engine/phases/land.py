"""Land movement (A, A.1) and the breakdown rolls of vehicles that moved (A.4, A.5)."""

from __future__ import annotations

from dataclasses import replace

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, enemies, modifier
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, Verdict
from kitgen.engine.turnlog import TurnLog
from kitgen.mapping.board import Board
from kitgen.rules.movement import breakdown_roll, breaks_down, movement_row
from kitgen.rules.paths import land_path


def move(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """A, A.1: each land move judged on the board; a void order leaves its unit where it stood.
    Moves are simultaneous: a move that enters a hex where enemy units stood when land movement
    began stops there (contact), the rest of its path dropped: `stopped`. A retreat order
    (II.C.2) moves by the same rules whatever the unit's command roll."""
    units = {u.id: u for u in state.units}
    verdicts = list(state.verdicts)
    file = located.name
    for faction in log.orders:  # in the order the log gives them
        foes, bridged = enemies(state, faction, state.turn), friendly_pontoons(state, faction)
        for i, order in enumerate(log.orders[faction]):
            line, _ = located.position(("orders", faction, i))
            unit = units.get(order.unit)
            route = "-".join(order.move)
            if unit is None:
                gone = f"{order.unit}: path {route}: no longer on the map: void"
                verdicts.append(Verdict(file, line, faction, order.unit, f"path {route}", "void", gone, "A"))
                continue
            row = f"{unit.name} ({unit.type}, {movement_row(campaign.scenario.movement, unit.type).mp} MP)"
            if unit.carried:
                why = f"{row}: path {route}: embarked or detrained this turn, so no map move: void, A.2"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "void", why, "A.2"))
                continue
            if unit.moved:
                verdicts.append(
                    Verdict(
                        file,
                        line,
                        faction,
                        unit.id,
                        f"path {route}",
                        "void",
                        f"{row} has moved already this turn: void",
                        "A",
                    )
                )
                continue
            if unit.id in halted and not order.retreat:
                why = f"{row}: path {route}: {halted[unit.id]}"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "held", why, "II.C"))
                continue
            if order.move[0] != unit.hex:
                why = f"{row} is in {unit.hex}, not {order.move[0]}: void"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "void", why, "A"))
                continue
            if unit.immobilised:
                why = f"{row}: path {route}: out of fuel and immobilised: void, B.8"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "void", why, "B.8"))
                continue
            mp = modifier(state, "movement", faction, unit.type)
            judged = land_path(
                board,
                campaign.scenario.movement,
                unit.type,
                list(order.move),
                mp_modifier=mp,
                pontoons=bridged,
                enemy=foes,
            )
            kind = "retreat" if order.retreat else "path"
            text = f"{row}: {kind} {route} {judged.explain()}"
            if order.retreat and unit.id in halted:  # II.C.2: "Units can always continue to retreat"
                text += f"; retreating, it is not held by its command roll ({halted[unit.id].split(':')[0]}), II.C.2"
            result = "stopped" if judged.stopped_at else "done" if judged.allowed else "void"
            verdicts.append(Verdict(file, line, faction, unit.id, f"{kind} {route}", result, text, judged.rule))
            if judged.allowed:
                units[unit.id] = replace(unit, hex=judged.stopped_at or order.move[-1], moved=True)
    return replace(state, units=tuple(units[u.id] for u in state.units), verdicts=tuple(verdicts))


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
                vehicle = f"vehicle {k}" if kind == unit.type else f"{kind} {k}"
                purpose = f"{check.source} {unit.id} {vehicle} breakdown, turn {state.turn}"
                roll = make_roll(campaign, log, purpose, check.roll)
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
