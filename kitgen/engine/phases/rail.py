"""Rail movement (C.1): trains along intact track, with the units they carry (A.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, enemies
from kitgen.engine.phases.loads import boarding, weigh
from kitgen.engine.state import CampaignState, Result, StepCost, UnitState, Verdict
from kitgen.engine.turnlog import RailOrder, TurnLog
from kitgen.mapping.board import Board
from kitgen.messages import plural
from kitgen.rules.paths import land_path


def rail_moves(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """C.1: a train moves along intact track free of enemy units, up to its move, carrying up to
    its capacity in points; the units it carries embark where it starts and detrain where it
    stops (A.2). Units held by command control stay behind."""
    trains = {t["id"]: dict(t) for t in state.trains}
    units = {u.id: u for u in state.units}
    moved_trains: set[str] = set()
    verdicts = list(state.verdicts)
    file = located.name
    for faction, orders in log.rail.items():
        for i, order in enumerate(orders):
            line, column = located.position(("rail", faction, i))
            route = "-".join(order.path)
            result, why, rule, aboard, numbers = _judge_rail(
                campaign, board, state, order, trains, units, halted, moved_trains
            )
            start = trains[order.train]["hex"]
            end = numbers.pop("end", start)
            end = start if result == "void" else end
            verdicts.append(
                Verdict(
                    file,
                    line,
                    faction,
                    order.train,
                    f"rail {route}",
                    result,
                    f"train {order.train}: path {route} {why}",
                    rule,
                    kind="rail",
                    start=start,
                    end=end,
                    **numbers,
                    column=column,
                )
            )
            if result != "void" and end != start:
                trains[order.train]["hex"] = end
                moved_trains.add(order.train)
                for u in aboard:
                    units[u] = replace(units[u], hex=end, moved=True, carried=True, carrier=order.train)
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        trains=tuple(trains[t["id"]] for t in state.trains),
        verdicts=tuple(verdicts),
    )


def train_blocks(state: CampaignState, faction: str) -> tuple[set[str], set[str]]:
    """C.1, C.2: the hexes a train of `faction` may not enter: wrecked track, and hexes of enemy units."""
    return set(state.wrecked_track), enemies(state, faction, state.turn)


def _judge_rail(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    order: RailOrder,
    trains: dict[str, dict[str, Any]],
    units: dict[str, UnitState],
    halted: dict[str, str],
    moved_trains: set[str],
) -> tuple[Result, str, str, list[str], dict[str, Any]]:
    """(result, why, rule, units aboard, the verdict's numbers) of one rail order."""
    s = campaign.scenario
    train = trains[order.train]
    if order.train in moved_trains:
        return "void", "has moved already this turn: void", "C.1", [], {}
    if order.path[0] != train["hex"]:
        return "void", f"starts in {order.path[0]}, but the train is in {train['hex']}: void", "C.1", [], {}
    judged = land_path(board, s.movement, s.transport.train.unit_type, list(order.path))
    if judged.malformed:
        return "void", judged.explain(), judged.rule, [], {}
    if judged.stop == "mp":  # a train's MP are its hexes (C.1)
        judged = replace(judged, rule="C.1", reason=f"its {judged.mp} hexes spent")
    closed, foes = train_blocks(state, train["faction"])
    for k, step in enumerate(judged.steps):  # C.1, C.2: it stops before wrecked track or enemy units
        if step.hex in closed:
            judged = judged.cut(k, "wrecked", "C.2", f"track wrecked in {step.hex}")
        elif step.hex in foes:
            judged = judged.cut(k, "enemy", "C.1", f"enemy units in {step.hex} block the line")
        else:
            continue
        break
    steps = tuple(StepCost(x.hex, x.cost.mp, x.cost.parts) for x in judged.steps)
    numbers: dict[str, Any] = {"steps": steps, "spent": judged.spent, "allowance": judged.mp, "stop": judged.stop}
    numbers["left"] = max(0, judged.mp - judged.spent)
    numbers["end"] = judged.end
    aboard = boarding(order.carry, order.path[0], units, halted)
    left = [u for u in order.carry if u not in aboard]
    load = weigh(s, aboard, units, "train")
    numbers["load"] = load
    if not load.fits:
        return "void", f"load of {load.total} points is over the train's {load.capacity}: void", "C.1", [], numbers
    numbers["left_behind"] = tuple(left)
    stays = f"; left behind (not in {order.path[0]}, moved, or held by command): {', '.join(left)}" if left else ""
    carried = ", ".join(aboard) or "nothing"
    went = len(judged.steps)
    cargo = f"carrying {carried} ({load.total} of {load.capacity} points){stays}"
    if judged.stop is None:
        return "done", f"{plural(went, 'hex', 'hexes')}, {cargo}", "C.1", aboard, numbers
    if not went:
        return (
            "stopped",
            f"cannot leave {judged.start} ({judged.reason}): stays where it stood",
            judged.rule,
            [],
            numbers,
        )
    where = f"{plural(went, 'hex', 'hexes')} to {judged.end}, then stops before {judged.blocked_at} ({judged.reason}), the rest dropped"
    return "stopped", f"{where}, {cargo}", judged.rule, aboard, numbers
