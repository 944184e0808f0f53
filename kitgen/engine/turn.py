"""One strategic turn: the phases of RULES-NOTES' turn order, played in that order over one board.

`play_turn(campaign, state, log)` needs no file: a `TurnLog` built in code plays as one read
from YAML (`read_log`), which only adds the lines its verdicts and errors name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, Turn, Unplaced
from kitgen.engine.logcheck import UnusedRoll, check_dice, check_orders
from kitgen.engine.phases import (
    arrivals,
    battles,
    command,
    contacts,
    events,
    movement,
    postbattle,
    supply,
    track,
    victory,
)
from kitgen.engine.rolls import BadRoll
from kitgen.engine.state import BreakoutOwed, CampaignState, Met, Roll, Verdict
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.validation import dotted, validate
from kitgen.yamlsource import Located, load_yaml

Phase = Callable[[Turn, CampaignState], CampaignState]

PHASES: tuple[tuple[str, Phase], ...] = (
    ("supply", supply.run),  # 1: B.2, supply judged (2, orders written, is the log itself)
    ("command", command.run),  # 3: II.C, command control
    ("events", events.run),  # 4: II.A, the random event
    ("movement", movement.run),  # 5: A-D, rail, sea, pontoons, land, breakdowns, resupply
    ("contacts", contacts.run),  # 6: II.D, partisans evade or ambush; B.8 tabletop moves
    ("battles", battles.run),  # 7-8: II.B, the battles reported and their results
    ("post-battle", postbattle.run),  # 8: II.B.2, captures, contacts left, towns changing hands
    ("track", track.run),  # 9: C.2, track wrecked and repaired
    ("victory", victory.run),  # 10: E.2-E.6 on every 3rd turn
    ("arrivals", arrivals.run),  # 10: II.E, slips drawn and placed
)
"""The turn, in order: each phase takes the state and returns the next one."""


@dataclass(frozen=True)
class TurnRecord:
    """A turn played: the state after it, and what it found."""

    state: CampaignState
    notes: tuple[Problem, ...] = ()
    """Unfinished business the log leaves, each at its line (II.B.1: a breakout owed, unreported)."""
    breakouts_owed: tuple[BreakoutOwed, ...] = ()
    """The same business as data."""
    met: tuple[Met, ...] = ()
    """The contacts phase 6 found: each needs its battle in the log, with every unit in it."""
    unused_rolls: tuple[UnusedRoll, ...] = ()
    """Rolls the log gives that the turn did not ask for: not used, a warning at each one's line."""
    start: CampaignState | None = None
    """The state at the turn's start (phase 1 played: returning stands back, supply judged): what
    its packets showed and each faction saw (`kitgen.engine.history`)."""

    @property
    def verdicts(self) -> tuple[Verdict, ...]:
        return self.state.verdicts

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return self.state.rolls

    @property
    def contacts(self) -> tuple[str, ...]:
        return self.state.contacts

    @property
    def umpire(self) -> tuple[str, ...]:
        return self.state.umpire


def read_log(path: Path) -> tuple[TurnLog, LogSource]:
    """A turn log read from its file, with where each of its values stands; a malformed file
    stops with every problem it has."""
    from kitgen.limits import LOG_BYTES

    located = load_yaml(path, what="the turn log", limit=LOG_BYTES)  # as its writers read it
    return checked_log(located), located


def checked_log(located: Located) -> TurnLog:
    """A turn log's YAML, read with its positions, checked against the log's schema."""
    log, problems = validate(located, TurnLog)
    problems = located.problems + problems
    if log is None or problems:
        raise KitgenError(problems)
    return log


def play_phases(
    campaign: Campaign,
    state: CampaignState,
    log: TurnLog,
    *,
    source: LogSource | None = None,
    through: str | None = None,
    met: list[Met] | None = None,
    opened: list[CampaignState] | None = None,
) -> tuple[Turn, CampaignState]:
    """The phases of the turn after `state` played in order from `log`, up to and including the
    phase named `through` (all of them by default), with the turn they were played in; `met`, if
    given, gets the contacts found in phase 6, and `opened` the state after phase 1 (the turn's
    start, as its players wrote orders against it)."""
    if through is not None and through not in (names := [name for name, _ in PHASES]):
        raise ValueError(f"no phase {through!r}; the phases are {names}")
    turn = Turn(campaign, campaign.board, log, source or Unplaced(f"turn {log.turn} log"))
    number = state.turn + 1
    if log.turn != number:
        raise turn.fail(("turn",), msg.log_turn_mismatch(log.turn, number))
    check_orders(turn.source, log, state, turn.board, campaign)
    state = replace(state.fresh_turn(), turn=number)
    try:
        for name, phase in PHASES:
            state = phase(turn, state)
            if name == "contacts" and met is not None:
                met.extend(contacts_met(state))
            if name == "supply" and opened is not None:
                opened.append(state)
            if name == through:
                break
    except BadRoll as bad:  # a given roll its dice cannot show, found where the turn uses it
        at = ("dice", bad.index, "value")
        message = msg.log_dice_out_of_range(bad.value, bad.dice, bad.low, bad.high)
        raise KitgenError([turn.source.problem(at, message.within(dotted(at)))]) from None
    return turn, state


def opening(campaign: Campaign, state: CampaignState) -> CampaignState:
    """The start of the turn after `state`, as its orders find it: phase 1 played (returning
    stands back, supply judged, B.2) with no orders given."""
    return play_phases(campaign, state, TurnLog(turn=state.turn + 1), through="supply")[1]


def play_turn(
    campaign: Campaign,
    state: CampaignState,
    log: TurnLog,
    *,
    source: LogSource | None = None,
) -> TurnRecord:
    """The turn after `state`, played from `log` on the campaign's board; nothing of a log that
    cannot be played is applied. `source` says where the log's values stand, if it was read."""
    met: list[Met] = []
    opened: list[CampaignState] = []
    turn, state = play_phases(campaign, state, log, source=source, met=met, opened=opened)
    unused = check_dice(turn.source, log, state)
    notes = tuple(
        turn.source.problem(at, msg.note_breakout_owed(owed.unit, owed.hex).within(dotted(at)))
        for owed in state.breakouts_owed
        for at in [("battles", owed.battle, "units", owed.part)]
    )
    done = replace(state, held={}, started_out=frozenset(), breakouts_owed=())
    return TurnRecord(done, notes, state.breakouts_owed, tuple(met), unused_rolls=unused, start=opened[0])


def contacts_met(state: CampaignState) -> list[Met]:
    """The battles to fight, each with every unit present in its hexes (evaded partisans and
    units aboard ships are not there): a hex where enemies stand together, or two hexes across
    a hexside where enemy moves met."""
    from kitgen.engine.phases.postbattle import contact_groups

    found = []
    for hexes in contact_groups(state):
        here = [
            u for u in state.units if u.hex in hexes and u.aboard is None and (u.hex, u.faction) not in state.evaded
        ]
        units, factions = tuple(sorted(u.id for u in here)), tuple(sorted({u.faction for u in here}))
        found.append(Met(hexes[0], units, factions, hexes[1:]))
    return found
