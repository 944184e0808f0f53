"""`kitgen restore`: a backup put back as its turn log, under the campaign's lock, the log it
replaces backed up first."""

from __future__ import annotations

from pathlib import Path

from kitgen.inputs import read_file
from kitgen.record.backups import BACKUPS, find
from kitgen.record.lock import campaign_lock
from kitgen.record.logfile import MAX_LOG_BYTES, TURNS, commit, read_log_file


def restore(folder: Path, name: str) -> tuple[Path, Path | None]:
    """Put the backup `name` back; return the log and the backup of what it replaced (None if
    there was no log)."""
    with campaign_lock(folder):
        backup = find(folder, name)
        data = read_file(folder / BACKUPS / backup.name, what="a backup of a turn log", limit=MAX_LOG_BYTES)
        log = read_log_file(folder / TURNS / backup.log)
        kept = commit(folder, log, data, f"restore {backup.name}")
        return log.path, kept
