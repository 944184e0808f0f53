"""Time and the end (RULES-NOTES, 2026-12-02): the days a turn stands for, the scenario's last
turn, its win conditions judged on a state, and the VP award turns up to the end.

The results are values (`Ending`, `ConditionMet`); their sentences are made by the text
functions at the end of this module."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from kitgen.model.rules import WinCondition
from kitgen.model.scenario import Scenario


class _Piece(Protocol):
    @property
    def faction(self) -> str: ...


class Standing(Protocol):
    """What the end is judged on: the campaign state after a turn (engine.state.CampaignState)."""

    @property
    def turn(self) -> int: ...
    @property
    def owners(self) -> Mapping[str, str]: ...
    @property
    def vp(self) -> Mapping[str, int]: ...
    @property
    def units(self) -> Sequence[_Piece]: ...


@dataclass(frozen=True)
class ConditionMet:
    """A win condition of victory.yaml met, with what was found."""

    index: int
    """Its place in victory.yaml's `win` list, from 0."""
    faction: str
    """The side that wins by it."""
    kind: str
    """'hold', 'vp' or 'eliminate'."""
    when: str
    """'last_turn' or 'any_turn'."""
    towns: tuple[str, ...] = ()
    """hold: the towns held (their names in towns.yaml)."""
    vp: int | None = None
    """vp: the faction's total found, at least `at_least`."""
    at_least: int | None = None
    enemies: tuple[str, ...] = ()
    """eliminate: the factions with no unit left on the map."""


@dataclass(frozen=True)
class Ending:
    """Whether the campaign is over after `turn`, and who won."""

    turn: int
    """The turn judged: the last one played (0: the set-up)."""
    days_per_turn: int
    last_turn: int | None
    """None: the scenario has no last turn."""
    over: bool
    """The last turn has been played, or a condition judged every turn was met."""
    winners: tuple[str, ...] = ()
    """The factions that met a condition, in the scenario's order of factions."""
    met: tuple[ConditionMet, ...] = ()
    early: bool = False
    """Over before the last turn (or with no last turn), by a condition judged every turn."""
    finished: bool = True
    """The turn judged is finished: nothing still to be written can change its contacts or
    battles (RULES-NOTES, 2026-12-05). Only then is an end announced."""
    pending: bool = False
    """The turn judged is not finished, and it is the last (or, as it stands, would end the
    scenario early): the result waits for what is still to be written."""

    @property
    def draw(self) -> bool:
        """Over with no single winner: both sides met a condition, or neither did."""
        return self.over and len(self.winners) != 1

    @property
    def ended_after(self) -> int | None:
        """The turn after which the scenario ended: the last turn, or the turn an early end came."""
        if not self.over:
            return None
        if self.early or self.last_turn is None:
            return self.turn
        return min(self.turn, self.last_turn)


def ending(scenario: Scenario, state: Standing, *, finished: bool = True) -> Ending:
    """Whether the campaign is over after the state's turn, and who won (RULES-NOTES, 2026-12-02).

    At the end of the last turn every condition is judged; at the end of any other turn only
    those judged every turn (`when: any_turn`), which end the scenario at once when met. A turn
    not `finished` ends nothing yet (RULES-NOTES, 2026-12-05): what is still to be written may
    change its result, so none is announced (`pending` says one waits)."""
    turns = scenario.meta.turns
    last, turn = turns.last, state.turn
    at_end = last is not None and turn >= last
    met: list[ConditionMet] = []
    if turn >= 1:
        for index, condition in enumerate(scenario.victory.win):
            if at_end or condition.when == "any_turn":
                found = _met(scenario, condition, index, state)
                if found is not None:
                    met.append(found)
    order = [f.id for f in scenario.meta.factions]
    winners = tuple(f for f in order if any(m.faction == f for m in met))
    early = bool(met) and not at_end
    if not finished:  # past the last turn (the club plays on) the result was judged after it
        pending = (last is not None and turn == last) or early
        return Ending(turn, turns.days, last, False, finished=False, pending=pending)
    return Ending(turn, turns.days, last, at_end or early, winners, tuple(met), early)


def _met(scenario: Scenario, c: WinCondition, index: int, state: Standing) -> ConditionMet | None:
    if c.kind == "hold":
        towns = tuple(_town_name(scenario, t) for t in c.towns)
        if all(state.owners.get(t) == c.faction for t in towns):
            return ConditionMet(index, c.faction, c.kind, c.when, towns=towns)
        return None
    if c.kind == "vp":
        total = state.vp.get(c.faction, 0)
        if c.at_least is not None and total >= c.at_least:
            return ConditionMet(index, c.faction, c.kind, c.when, vp=total, at_least=c.at_least)
        return None
    present = {u.faction for u in state.units}
    if not any(e in present for e in c.enemies):
        return ConditionMet(index, c.faction, c.kind, c.when, enemies=tuple(c.enemies))
    return None


def _town_name(scenario: Scenario, name: str) -> str:
    """The town's name as the state's owners key it (a condition may use any of its names)."""
    town = scenario.find_town(name)
    return town.name if town is not None else name


def award_turns(scenario: Scenario, start: int, count: int, *, play_on: bool = False) -> list[int]:
    """E.2: the next `count` award turns from `start` on, none after the last turn unless the
    club plays on."""
    every = scenario.victory.award_every_turns
    last = scenario.meta.turns.last
    first = max(every, -(-start // every) * every)
    turns = range(first, first + every * count, every)
    return [t for t in turns if play_on or last is None or t <= last]


def turn_days(scenario: Scenario, turn: int) -> tuple[datetime.date, datetime.date] | None:
    """The first and last day a turn stands for, when the set-up gives the day it starts."""
    start = scenario.setup.start
    if start is None or len(start) != len("1919-05-15"):
        return None
    first = datetime.date.fromisoformat(start) + datetime.timedelta(days=scenario.meta.turns.days * (turn - 1))
    return first, first + datetime.timedelta(days=scenario.meta.turns.days - 1)


# --- the words -------------------------------------------------------------------------------


def condition_text(scenario: Scenario, c: WinCondition) -> str:
    """'The Whites win if they hold Tsaritsyn at the end of turn 3.'"""
    who = scenario.faction_name(c.faction)
    last = scenario.meta.turns.last
    if c.kind == "hold":
        clause = f"they hold {_and([_shown(scenario, t) for t in c.towns])}"
    elif c.kind == "vp":
        clause = f"their VP total is {c.at_least} or more"
    else:
        clause = f"no unit of the {_and([scenario.faction_name(e) for e in c.enemies])} is left on the map"
    if c.when == "any_turn":
        return f"The {who} win at once if, at the end of any turn, {clause}."
    return f"The {who} win if {clause} at the end of turn {last}."


def ending_text(scenario: Scenario, end: Ending, *, play_on: bool = False) -> str:
    """What the ending says, in a sentence or two for the umpire and the players."""
    if end.pending:
        if end.last_turn is not None and end.turn >= end.last_turn:
            return (
                f"Turn {end.turn}, the last, is being played: its result waits for what the turn still owes "
                "(its orders, rolls and battles)."
            )
        return (
            f"Turn {end.turn} is being played: as it stands it may end the scenario; the result waits for what "
            "the turn still owes (its orders, rolls and battles)."
        )
    if not end.over:
        if end.last_turn is None:
            return "The campaign has no last turn: it goes on as long as the club plays it."
        if end.turn > end.last_turn:
            return (
                f"Turn {end.turn} being played, after the scenario's last turn ({end.last_turn}): the club plays on "
                "(campaign.yaml: play_on, a house rule)."
            )
        if not end.turn:
            return f"No turn played yet: the scenario ends after turn {end.last_turn}."
        being = "being played" if not end.finished else "played"
        return f"Turn {end.turn} of {end.last_turn} {being}: the scenario ends after turn {end.last_turn}."
    after = end.ended_after
    if end.early:
        head = f"The scenario ended after turn {after}"
    elif end.turn > (end.last_turn or 0):
        head = f"The last turn, {end.last_turn}, has been played; judged after turn {end.turn}"
    else:
        head = f"The last turn, {end.last_turn}, has been played"
    result = f"{head}: {result_text(scenario, end)}"
    if play_on:
        result += " The club plays on (campaign.yaml: play_on, a house rule)."
    return result


def result_text(scenario: Scenario, end: Ending) -> str:
    """'the Whites win (they hold Tsaritsyn).' or 'a draw (...).'"""
    why = "; ".join(_met_text(scenario, m) for m in end.met)
    if len(end.winners) == 1:
        return f"the {scenario.faction_name(end.winners[0])} win ({why})."
    if end.winners:
        return f"a draw: both sides met a condition ({why})."
    if not scenario.victory.win:
        return "no side wins: the scenario names no way to win."
    return "a draw: neither side met a condition to win."


def _met_text(scenario: Scenario, m: ConditionMet) -> str:
    who = scenario.faction_name(m.faction)
    if m.kind == "hold":
        return f"the {who} hold {_and([_shown(scenario, t) for t in m.towns])}"
    if m.kind == "vp":
        return f"the {who} have {m.vp} VP, {m.at_least} or more"
    return f"no unit of the {_and([scenario.faction_name(e) for e in m.enemies])} is left on the map"


def _shown(scenario: Scenario, name: str) -> str:
    town = scenario.find_town(name)
    return town.name if town is not None else name


def _and(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
"""Month names, not the locale's: the same inputs print the same words everywhere."""


def days_text(first: datetime.date, last: datetime.date) -> str:
    """'4–13 July 1919', '25 May–3 June 1919': the ends joined by an en dash, as printed."""
    a, b = MONTHS[first.month - 1], MONTHS[last.month - 1]
    dash = "\u2013"
    if first == last:
        return f"{first.day} {a} {first.year}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}{dash}{last.day} {b} {last.year}"
    if first.year == last.year:
        return f"{first.day} {a}{dash}{last.day} {b} {last.year}"
    return f"{first.day} {a} {first.year}{dash}{last.day} {b} {last.year}"
