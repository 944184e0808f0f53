"""`kitgen next`: the next turn's log started, under the campaign's lock, only when the turn being
played is finished (RULES-NOTES 2026-12-02), or with `force`, which notes in the new log what
the turn before left unfinished."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.engine.unfinished import TurnOwes
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.record.lock import campaign_lock

TURNS = "turns"


@dataclass(frozen=True)
class Started:
    path: Path
    turn: int
    rolls: int
    units: int
    skipped: tuple[Problem, ...]
    """What the turn before left unfinished, gone past with `force` (noted in the new log)."""
    dice: str | None = None
    """Who rolls: campaign.yaml's `dice:`."""


def start_next_turn(folder: Path, *, force: bool = False) -> Started:
    """Write turns/turn-NN.yaml for the turn after the last log; refused while that turn is
    unfinished (unless `force`), after the scenario's end (unless campaign.yaml plays on), and
    never over a file or through a link."""
    from kitgen.campaign import load_campaign
    from kitgen.engine.basis import STARTED, past_the_end
    from kitgen.engine.replay import played, read_logs
    from kitgen.engine.template import log_name, next_log
    from kitgen.engine.unfinished import turn_owes
    from kitgen.outputs import write_atomic
    from kitgen.record.backups import note_created, own_folder

    with campaign_lock(folder):
        campaign = load_campaign(folder)
        turns = own_folder(campaign.folder / TURNS, "the folder of turn logs")
        read = read_logs(campaign)
        owes = TurnOwes(0, ())
        state = None
        for path, record in played(campaign, read=read):
            owes = turn_owes(record, *read[path], campaign.meta.dice)
            state = record.state
        if state is None:
            from kitgen.engine.setup import initial_state

            state = initial_state(campaign)
        problems = owes.problems()
        if problems and not force:
            note = Problem.of(problems[0].file, 1, 1, msg.record_next_refused(owes.turn, len(problems)))
            raise KitgenError([*problems, note])
        ended = past_the_end(campaign, state, finished=owes.finished)
        if ended is not None:  # the scenario is over: no --force goes past that, only play_on
            raise KitgenError([ended])
        made = next_log(campaign, state)
        path = turns / log_name(made.turn)
        if os.path.lexists(path):
            raise UsageError(msg.next_log_exists(str(path), made.turn))
        text = made.text
        if problems:
            text = _with_skipped(text, STARTED, owes.turn, problems)
        write_atomic(path, text.encode("utf-8"))
        note_created(campaign.folder, path, "next")
        return Started(path, made.turn, made.rolls, made.units, tuple(problems), campaign.meta.dice)


def _with_skipped(text: str, started: str, turn: int, skipped: list[Problem]) -> str:
    """The log with comment lines, under its first, saying what `kitgen next --force` went past."""
    lines = text.split("\n")
    at = 1 if lines and lines[0].startswith(started) else 0
    said = [f"# kitgen next --force: turn {turn} was left unfinished:"]
    said += [f"#   {_comment(str(p))}" for p in skipped]
    return "\n".join([*lines[:at], *said, *lines[at:]])


def _comment(text: str) -> str:
    """Text safe inside a YAML comment: one line, no control characters."""
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text.replace("\n", " "))
