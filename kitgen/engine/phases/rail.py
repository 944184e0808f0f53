"""Rail movement (C.1): trains along intact track, with the units they carry (A.2). Each rail
order is judged alone here (`plan_rail`); the simultaneous step settles where enemies stop it
(`simultaneous`), and `finish_rail` moves the trains and their loads there."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, enemies
from kitgen.engine.phases.loads import boarding, weigh
from kitgen.engine.phases.simultaneous import Mover, Plan
from kitgen.engine.state import CampaignState, Result, StepCost, Verdict
from kitgen.engine.turnlog import RailOrder, TurnLog
from kitgen.mapping.board import Board
from kitgen.messages import plural
from kitgen.rules.paths import PathVerdict, land_path
from kitgen.rules.transport import Load


@dataclass
class RailMove:
    """A rail order that stands, judged alone: the train's run and the units it carries."""

    mover: Mover
    line: int
    column: int
    route: str
    aboard: tuple[str, ...]
    left: tuple[str, ...]
    """Named to board, but not in the start hex, moved, or held by command."""
    load: Load


RailPlan = Plan[RailMove]


def plan_rail(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> tuple[RailPlan, CampaignState]:
    """C.1: a train moves along intact track, up to its move, carrying up to its capacity in
    points; the units it carries embark where it starts (A.2: they make no other move this
    turn). Units held by command control stay behind. Returns the plan, and the state with the
    units that embark marked carried."""
    trains = {t["id"]: t for t in state.trains}
    units = {u.id: u for u in state.units}
    planned: list[Verdict | RailMove] = []
    ordered: set[str] = set()
    """Trains that run already: a second rail order for one is void."""
    for faction, orders in log.rail.items():
        for i, order in enumerate(orders):
            line, column = located.position(("rail", faction, i))
            route, start = "-".join(order.path), trains[order.train]["hex"]
            judged = _judge_alone(campaign, board, state, order, trains[order.train], ordered)
            void = partial(
                Verdict, located.name, line, faction, order.train, f"rail {route}", "void", kind="rail", column=column
            )
            if isinstance(judged, tuple):
                why, rule, numbers = judged
                planned.append(
                    void(f"train {order.train}: path {route} {why}", rule, start=start, end=start, **numbers)
                )
                continue
            aboard = boarding(order.carry, order.path[0], units, halted) if judged.steps else []
            load = weigh(campaign.scenario, aboard, units, "train")
            if not load.fits:
                why = f"load of {load.total} points is over the train's {load.capacity}: void"
                numbers = _numbers(judged) | {"load": load, "end": start}
                planned.append(void(f"train {order.train}: path {route} {why}", "C.1", start=start, **numbers))
                continue
            left = tuple(u for u in order.carry if u not in aboard)
            mover = Mover(order.train, faction, "rail", judged, tuple(aboard))
            planned.append(RailMove(mover, line, column, route, tuple(aboard), left, load))
            if judged.steps:
                ordered.add(order.train)
            for u in aboard:  # A.2: embarked, they make no map move of their own
                units[u] = replace(units[u], moved=True, carried=True, carrier=order.train)
    return RailPlan(planned), replace(state, units=tuple(units[u.id] for u in state.units))


def finish_rail(state: CampaignState, plan: RailPlan, located: LogSource) -> tuple[CampaignState, list[Verdict]]:
    """The trains and the units they carry moved to where the simultaneous step stopped them;
    returns the state and the rail verdicts, in the log's order."""
    trains = {t["id"]: dict(t) for t in state.trains}
    units = {u.id: u for u in state.units}
    verdicts: list[Verdict] = []
    for item in plan.planned:
        if isinstance(item, Verdict):
            verdicts.append(item)
            continue
        m, judged = item.mover, item.mover.judged
        result, why = _said(item)
        numbers = _numbers(judged) | {"load": item.load, "left_behind": item.left}
        end = numbers.pop("end")
        verdicts.append(
            Verdict(
                located.name,
                item.line,
                m.faction,
                m.id,
                f"rail {item.route}",
                result,
                f"train {m.id}: path {item.route} {why}",
                judged.rule if judged.stop else "C.1",
                kind="rail",
                start=judged.start,
                end=end,
                **numbers,
                column=item.column,
            )
        )
        trains[m.id]["hex"] = end
        for u in item.aboard:  # stopped where it stood, they stay on board, unmoved
            units[u] = replace(units[u], hex=end, moved=end != judged.start)
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        trains=tuple(trains[t["id"]] for t in state.trains),
    ), verdicts


def train_blocks(state: CampaignState, faction: str) -> tuple[set[str], set[str]]:
    """C.1, C.2: the hexes a train of `faction` may not enter: wrecked track, and hexes of enemy units."""
    return set(state.wrecked_track), enemies(state, faction, state.turn)


def _judge_alone(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    order: RailOrder,
    train: dict[str, Any],
    ordered: set[str],
) -> PathVerdict | tuple[str, str, dict[str, Any]]:
    """A rail order judged alone: its run along the track as far as it goes (C.1: its hexes,
    track; C.2: wrecked track), or (why, rule, numbers) when it is void."""
    s = campaign.scenario
    if order.train in ordered:
        return "a second rail order for the train this turn: void", "C.1", {}
    if order.path[0] != train["hex"]:
        return f"starts in {order.path[0]}, but the train is in {train['hex']}: void", "C.1", {}
    judged = land_path(board, s.movement, s.transport.train.unit_type, list(order.path))
    if judged.malformed:
        return judged.explain(), judged.rule, {}
    if judged.stop == "mp":  # a train's MP are its hexes (C.1)
        judged = replace(judged, rule="C.1", reason=f"its {judged.mp} hexes spent")
    wrecked = set(state.wrecked_track)
    for k, step in enumerate(judged.steps):  # C.2: it stops before wrecked track
        if step.hex in wrecked:
            return judged.cut(k, "wrecked", "C.2", f"track wrecked in {step.hex}")
    return judged


def _numbers(judged: PathVerdict) -> dict[str, Any]:
    """A run's figures for its verdict: the steps and hexes spent, why it stopped, where it ends."""
    steps = tuple(StepCost(x.hex, x.cost.mp, x.cost.parts) for x in judged.steps)
    left = max(0, judged.mp - judged.spent)
    return {
        "steps": steps,
        "spent": judged.spent,
        "allowance": judged.mp,
        "stop": judged.stop,
        "left": left,
        "end": judged.end,
    }


def _said(item: RailMove) -> tuple[Result, str]:
    """The run's result and its words: how far it went, and what it carried."""
    judged = item.mover.judged
    went = len(judged.steps)
    carried = ", ".join(item.aboard) or "nothing"
    stays = (
        f"; left behind (not in {judged.start}, moved, or held by command): {', '.join(item.left)}" if item.left else ""
    )
    cargo = f"carrying {carried} ({item.load.total} of {item.load.capacity} points){stays}"
    if judged.stop is None:
        return "done", f"{plural(went, 'hex', 'hexes')}, {cargo}"
    if not went:
        aboard = f", {carried} on board" if item.aboard else ""
        return "stopped", f"cannot leave {judged.start} ({judged.reason}): stays where it stood{aboard}"
    where = f"{plural(went, 'hex', 'hexes')} to {judged.end}, then stops before {judged.blocked_at} ({judged.reason}), the rest dropped"
    return "stopped", f"{where}, {cargo}"
