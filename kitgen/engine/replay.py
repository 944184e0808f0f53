"""Replaying a campaign: the set-up made into turn-0 state, then each turn log played in order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import TURN_NAME, Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.setup import initial_state
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import TurnRecord, play_turn, read_log
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem, display_path


def replay(campaign: Campaign, upto: int | None = None, *, notes: list[Problem] | None = None) -> CampaignState:
    """The state after turn `upto` (default: the last log); a malformed log stops with its file:line.
    `notes`, if given, gets what each log leaves unfinished (a breakout owed, II.B.1)."""
    state = initial_state(campaign)
    for _, record in played(campaign, upto):
        state = record.state
        if notes is not None:
            notes.extend(record.notes)
    if upto is not None and upto > state.turn:
        raise KitgenError.at(campaign.folder / "turns", 1, 1, msg.log_no_such_turn(upto, state.turn))
    return state


Read = dict[Path, tuple[TurnLog, LogSource]]
"""Turn logs read already, by file."""


def played(
    campaign: Campaign, upto: int | None = None, *, read: Read | None = None
) -> Iterator[tuple[Path, TurnRecord]]:
    """Each turn log up to `upto` and the record of its turn, in order (a log in `read` is not
    read again). A turn that cannot be played stops the replay with its problems, and a note
    of the later logs left unchecked."""
    read = read or {}
    state = initial_state(campaign)
    logs = [(n, p) for n, p in turn_logs(campaign) if upto is None or n <= upto]
    for k, (number, path) in enumerate(logs):
        try:
            if number != state.turn + 1:
                raise KitgenError.at(path, 1, 1, msg.log_turn_out_of_order(number, state.turn))
            log, source = read[path] if path in read else read_log(path)
            record = play_turn(campaign, state, log, source=source)
        except KitgenError as stopped:
            later = [display_path(p) for _, p in logs[k + 1 :]]
            if not later:
                raise
            raise KitgenError([*stopped.problems, Problem.of(path, 1, 1, msg.note_not_replayed(later))]) from None
        state = record.state
        yield path, record


def read_logs(campaign: Campaign) -> Read:
    """Every turn log read and checked against its schema, all of them at once: the problems of
    every file in one error."""
    problems, read = [], {}
    for _, path in turn_logs(campaign):
        try:
            read[path] = read_log(path)
        except KitgenError as bad:
            problems += bad.problems
    if problems:
        raise KitgenError(problems)
    return read


def turn_logs(campaign: Campaign) -> list[tuple[int, Path]]:
    """(turn number, file) of each turn log, in turn order."""
    found = []
    for path in campaign.turns:
        match = TURN_NAME.fullmatch(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)
