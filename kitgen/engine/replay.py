"""Replaying a campaign: the set-up made into turn-0 state, then each turn log played in order."""

from __future__ import annotations

from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import TURN_NAME, Campaign
from kitgen.engine.setup import initial_state
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import play_turn, read_log
from kitgen.errors import KitgenError, Problem


def replay(campaign: Campaign, upto: int | None = None, *, notes: list[Problem] | None = None) -> CampaignState:
    """The state after turn `upto` (default: the last log); a malformed log stops with its file:line.
    `notes`, if given, gets what each log leaves unfinished (a breakout owed, II.B.1)."""
    state = initial_state(campaign)
    for number, path in turn_logs(campaign):
        if upto is not None and number > upto:
            break
        if number != state.turn + 1:
            raise KitgenError.at(path, 1, 1, msg.log_turn_out_of_order(number, state.turn))
        log, source = read_log(path)
        record = play_turn(campaign, state, log, source=source)
        state = record.state
        if notes is not None:
            notes.extend(record.notes)
    if upto is not None and upto > state.turn:
        raise KitgenError.at(campaign.folder / "turns", 1, 1, msg.log_no_such_turn(upto, state.turn))
    return state


def turn_logs(campaign: Campaign) -> list[tuple[int, Path]]:
    """(turn number, file) of each turn log, in turn order."""
    found = []
    for path in campaign.turns:
        match = TURN_NAME.fullmatch(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)
