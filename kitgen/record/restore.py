"""`kitgen restore`: a backup put back as its turn log, under the campaign's lock, the log it
replaces backed up first. The backup must read as the log of its turn, leave no gap, and the
campaign must play with it, every later turn included (as `orders import --amend` requires);
else nothing is written, unless `force` (to put a log back as it was, broken or not)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file
from kitgen.limits import LOG_BYTES
from kitgen.record.backups import BACKUPS, Backup, Created, find
from kitgen.record.lock import campaign_lock
from kitgen.record.logfile import TURNS, commit, read_log_file


def restore(folder: Path, name: str, *, force: bool = False) -> tuple[Path, Path | None]:
    """Put the backup `name` back; return the log and the backup of what it replaced (None if
    there was no log)."""
    with campaign_lock(folder):
        return _restore(folder, name, force=force)


def _restore(folder: Path, name: str, *, force: bool) -> tuple[Path, Path | None]:
    from kitgen.campaign import load_campaign

    backup = find(folder, name)
    data = read_file(folder / BACKUPS / backup.name, what="a backup of a turn log", limit=LOG_BYTES)
    log = read_log_file(folder / TURNS / backup.log)
    if not force:
        _plays(load_campaign(folder), log.path, backup.turn, data)
    kept = commit(folder, log, data, f"restore {backup.name}")
    if kept is None:  # a log made where there was none: its undoing takes it away
        from kitgen.record.backups import note_created

        note_created(folder, log.path, f"restore {backup.name}")
    return log.path, kept


@dataclass(frozen=True)
class Undone:
    """What `undo` did: the write undone, the log it put back or took away, and the backup of
    what it replaced (None where there was no log)."""

    last: Backup | Created
    log: Path
    kept: Path | None


def undo(folder: Path, *, force: bool = False) -> Undone:
    """Undo the last write to a turn log, deciding which it is under the lock that the undoing
    holds, once the writes a killed run left pending are settled: the latest backup put back, or
    the log a command made where there was none taken away."""
    from kitgen.errors import UsageError
    from kitgen.record.backups import latest

    with campaign_lock(folder):
        last = latest(folder)
        if last is None:
            raise UsageError(msg.record_nothing_to_undo(str(folder)))
        if isinstance(last, Created):
            return Undone(last, folder / TURNS / last.log, _take_back(folder, last.log))
        log, kept = _restore(folder, last.name, force=force)
        return Undone(last, log, kept)


def _plays(campaign: Campaign, path: Path, turn: int, data: bytes) -> None:
    """The campaign plays with `data` as the log of `turn` at `path`: no gap before it, and
    every turn replays, each at its own lines."""
    from kitgen.engine.replay import played, read_logs
    from kitgen.record.opened import parse_log

    read = read_logs(campaign)
    if path not in read:  # the log is gone: restoring it must not leave a gap before it
        last = max((int(p.stem.split("-")[1]) for p in read), default=0)
        if turn > last + 1:
            raise KitgenError.at(path, 1, 1, msg.record_restore_gap(turn, last))
        campaign = dataclasses.replace(campaign, turns=sorted([*campaign.turns, path]))
    read[path] = parse_log(path, data)
    try:
        for _ in played(campaign, read=read):
            pass
    except KitgenError as broken:
        problems = [Problem.of(p.file, p.line, p.column, msg.record_restore_breaks(p.message)) for p in broken.problems]
        raise KitgenError(problems) from None


def take_back(folder: Path, name: str) -> Path:
    """Take away the log `name` a command made where there was none (`kitgen next`), kept first
    as a backup, so that `kitgen undo` again (or `restore`) brings it back; return the backup."""
    with campaign_lock(folder):
        return _take_back(folder, name)


def _take_back(folder: Path, name: str) -> Path:
    from kitgen.outputs import ChangedMeanwhile, remove_if_unchanged
    from kitgen.record.backups import keep

    log = read_log_file(folder / TURNS / name)
    if log.raw is None:
        raise KitgenError.at(log.path, 1, 1, msg.record_undo_gone(name))
    raw = log.raw
    try:
        return keep(folder, log.path, raw, "undo", lambda: remove_if_unchanged(log.path, raw))
    except ChangedMeanwhile:
        raise KitgenError.at(log.path, 1, 1, msg.record_changed_on_disk()) from None
