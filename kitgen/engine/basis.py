"""What a turn's packets are made from: the state its players write orders against, the states
before it, and its log if the orders are in already; and which turn is the one being played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kitgen.engine.history import History, TurnPlayed
from kitgen.engine.state import CampaignState
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import Problem

if TYPE_CHECKING:
    from collections.abc import Sequence

    from kitgen.campaign import Campaign
    from kitgen.engine.context import LogSource
    from kitgen.engine.turn import TurnRecord


@dataclass(frozen=True)
class TurnBasis:
    """What a turn's packets are made from: the state its players write orders against."""

    campaign: Campaign
    turn: int
    start: CampaignState
    """The state at the start of the turn: last turn's returning stands back, supply judged (B.2)."""
    after: CampaignState
    """The state after the last turn played."""
    before: CampaignState | None
    """The state a turn earlier, for what changed (None before turn 2)."""
    setup_wrecked: tuple[str, ...] = ()
    """The track wrecked at the set-up: every faction knows it (the set-up chart prints it)."""
    log: TurnLog | None = None
    """The turn's own log, when its orders are in already: the contacts they make."""
    source: LogSource | None = None
    history: History | None = None
    """The turns before it, each with its start and end, and this turn's start: what each
    faction saw and remembers (`History.memories`)."""


def turn_basis(campaign: Campaign, turn: int | None = None) -> TurnBasis:
    """The basis of turn `turn`, from one replay. By default the turn being played: the last
    log's while that turn is not finished (`kitgen.engine.unfinished`), else the one after it."""
    from kitgen import messages as msg
    from kitgen.engine.replay import Read, played, turn_logs
    from kitgen.engine.setup import initial_state
    from kitgen.engine.turn import opening, read_log
    from kitgen.errors import KitgenError

    logs = turn_logs(campaign)
    last = logs[-1][0] if logs else 0
    number = last + 1 if turn is None else turn
    if not 1 <= number <= last + 1:
        raise KitgenError.at(campaign.folder / "turns", 1, 1, msg.packet_no_such_turn(number, last))
    read: Read = {}  # each log read once: by the replay, the turn-being-played check and the basis
    if turn is None and logs:
        read[logs[-1][1]] = read_log(logs[-1][1])
    states = [initial_state(campaign)]
    records = []
    for _, record in played(campaign, number - 1, read=read) if number > 1 else ():
        states.append(record.state)
        records.append(record)
    if turn is None and logs and _in_progress(campaign, *read[logs[-1][1]], records):
        number, states = last, states[:last]
    after = states[number - 1]
    before = states[number - 2] if number > 1 else None
    log, source = None, None
    own = [p for n, p in logs if n == number]
    if own:
        log, source = read[own[0]] if own[0] in read else read_log(own[0])
    start = opening(campaign, after)
    played_turns = tuple(
        TurnPlayed(t, r.start or r.state, r.state) for t, r in enumerate(records[: number - 1], start=1)
    )
    history = History(states[0], played_turns, start)
    return TurnBasis(campaign, number, start, after, before, states[0].wrecked_track, log, source, history)


def playable_basis(campaign: Campaign, turn: int | None = None) -> TurnBasis:
    """`turn_basis`, refused for a turn past the scenario's end (unless the club plays on): what
    the packets, the forms and the scans of a turn are made from, so that all say the same."""
    from kitgen.errors import KitgenError

    basis = turn_basis(campaign, turn)
    refused = past_the_end(campaign, basis.after)
    if refused is not None:
        raise KitgenError([refused])
    return basis


STARTED = "# kitgen next started this log"
"""The line `kitgen next` puts at the top of a log it writes: the turn is the one being played
until its battles are reported, or `kitgen next` starts the following turn."""


@dataclass(frozen=True)
class Playing:
    """The turn being played, the last log's turn, and the state before the last log."""

    turn: int
    last: int
    before_last: CampaignState


def turn_being_played(campaign: Campaign) -> Playing:
    """The turn being played: the last log's while that turn is not finished, else the one
    after it (which `kitgen next` starts), from one replay."""
    from kitgen.engine.replay import played, read_logs, turn_logs
    from kitgen.engine.setup import initial_state
    from kitgen.engine.turn import play_turn
    from kitgen.errors import KitgenError

    logs = turn_logs(campaign)
    before = initial_state(campaign)
    if not logs:
        return Playing(1, 0, before)
    last = logs[-1][0]
    read = read_logs(campaign)
    for _, record in played(campaign, last - 1, read=read):
        before = record.state
    log, source = read[logs[-1][1]]
    try:  # a last log that does not play is not finished: it is the one being played
        record = play_turn(campaign, before, log, source=source)
    except KitgenError:
        return Playing(last, last, before)
    return Playing(last if _in_progress(campaign, log, source, [record]) else last + 1, last, before)


def _in_progress(campaign: Campaign, log: TurnLog, source: LogSource, records: Sequence[TurnRecord] = ()) -> bool:
    """The log (read already) is of the turn being played while that turn is not
    finished: it still owes something that can change its contacts or battles (a faction's
    orders, a roll, a battle report, a breakout: `kitgen.engine.unfinished`). Whatever its
    comments say: a person may delete them."""
    from kitgen.engine.unfinished import turn_owes

    played = [r for r in records if r.state.turn == log.turn]
    return not played or not turn_owes(played[0], log, source, campaign.meta.dice).finished


def past_the_end(campaign: Campaign, state: CampaignState, *, finished: bool = True) -> Problem | None:
    """Why the turn after `state` may not be played: the scenario ended with `state`'s turn or
    before it (its last turn, or an early end) and campaign.yaml does not say the club plays on
    (RULES-NOTES, 2026-12-02); or `state`'s turn, not `finished`, is the last, whose result still
    waits (2026-12-05). None when it may. The problem stands at campaign.yaml's `play_on`, or at
    its top."""
    from kitgen import messages as msg
    from kitgen.campaign import CAMPAIGN_FILE
    from kitgen.rules.ending import ending, result_text
    from kitgen.yamlsource import load_yaml

    if campaign.meta.play_on:
        return None
    end = ending(campaign.scenario, state, finished=finished)
    if not end.over and not end.pending:
        return None
    ended = end.ended_after or state.turn
    how = result_text(campaign.scenario, end).removesuffix(".") if end.over else msg.WAITS
    located = load_yaml(campaign.folder / CAMPAIGN_FILE, what="campaign.yaml, the file that makes a folder a campaign")
    return located.problem(("play_on",), msg.campaign_past_the_end(state.turn + 1, ended, how), key=True)
