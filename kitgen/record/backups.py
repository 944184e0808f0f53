"""The earlier versions of the logs, kept in the campaign's backups/ folder: each a file
`turn-07.yaml.3` (a new number each time, never over an earlier one) and a line of the index
saying when and by which command it was replaced."""

from __future__ import annotations

import datetime
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError, UsageError
from kitgen.inputs import Kind, kind_of, read_file

BACKUPS = "backups"
"""Beside turns/, not in it, so that no command reading the logs has to pass over them."""
INDEX = "index.json"
BACKUP_NAME = re.compile(r"(turn-(\d{2,3})\.yaml)\.(\d+)")
MAX_INDEX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class Backup:
    """One earlier version of a log."""

    name: str
    """Its file in backups/: turn-07.yaml.3."""
    log: str
    """The log it was: turn-07.yaml."""
    turn: int
    time: str
    """When it was replaced (UTC, ISO 8601); the file's time where the index does not say."""
    command: str
    """The command that replaced it ('orders import', 'restore'...); 'unknown' where the index does not say."""
    size: int


def own_folder(folder: Path, what: str) -> Path:
    """A folder of the campaign's own (turns/, backups/): a real folder or none yet, never a link."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return folder
    if stat.S_ISLNK(mode):
        raise UsageError(msg.record_folder_not_own(str(folder), what, "a symbolic link"))
    if not stat.S_ISDIR(mode):
        raise UsageError(msg.record_folder_not_own(str(folder), what, "not a folder"))
    return folder


def keep(campaign: Path, log: Path, raw: bytes) -> Path:
    """Write `raw`, the log's text being replaced, as the next backup of it; return its path."""
    from kitgen.outputs import write_atomic

    folder = own_folder(campaign / BACKUPS, "the folder of backups")
    n = 1
    while kind_of(folder / f"{log.name}.{n}") is not Kind.MISSING:
        n += 1
    backup = folder / f"{log.name}.{n}"
    write_atomic(backup, raw)
    return backup


@dataclass(frozen=True)
class Created:
    """A log a command made where there was none (`kitgen next`): its undoing takes it away."""

    log: str
    """turn-07.yaml."""
    turn: int
    time: str
    command: str


LOG_NAME = re.compile(r"turn-(\d{2,3})\.yaml")


def note(campaign: Path, backup: Path, command: str) -> None:
    """Enter a backup in the index: when, and by which command, its log was replaced."""
    match = BACKUP_NAME.fullmatch(backup.name)
    if match is None:
        raise ValueError(f"not a backup's name: {backup.name}")
    _enter(campaign, {"name": backup.name, "command": command}, lambda e: e.get("name") != backup.name)


def note_created(campaign: Path, log: Path, command: str) -> None:
    """Enter in the index a log `command` made where there was none, so that it can be undone."""
    if LOG_NAME.fullmatch(log.name) is None:
        raise ValueError(f"not a log's name: {log.name}")
    _enter(campaign, {"created": log.name, "command": command}, lambda e: True)


def _enter(campaign: Path, entry: dict[str, object], keeping: Callable[[dict[str, object]], bool]) -> None:
    from kitgen.outputs import write_atomic

    own_folder(campaign / BACKUPS, "the folder of backups").mkdir(exist_ok=True)
    entries = [e for e in _index(campaign) if keeping(e)]
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    entries.append({**entry, "time": now})
    text = json.dumps({"backups": entries}, indent=1, ensure_ascii=True) + "\n"
    write_atomic(campaign / BACKUPS / INDEX, text.encode("utf-8"))


def list_backups(campaign: Path) -> list[Backup]:
    """Every backup in backups/, by log and then number."""
    folder = own_folder(campaign / BACKUPS, "the folder of backups")
    if kind_of(folder) is Kind.MISSING:
        return []
    said = {str(e.get("name")): e for e in _index(campaign)}
    found: list[tuple[int, int, Backup]] = []
    for entry in os.scandir(folder):
        match = BACKUP_NAME.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        info = entry.stat(follow_symlinks=False)
        told = said.get(entry.name, {})
        when = told.get("time") or datetime.datetime.fromtimestamp(info.st_mtime, datetime.UTC).isoformat(
            timespec="seconds"
        )
        backup = Backup(
            entry.name,
            match.group(1),
            int(match.group(2)),
            str(when),
            str(told.get("command") or "unknown"),
            info.st_size,
        )
        found.append((backup.turn, int(match.group(3)), backup))
    return [b for _, _, b in sorted(found)]


def latest(campaign: Path) -> Backup | Created | None:
    """The last write to a log, to undo: the last entry of the index (written in the order of the
    writes) that still stands, a backup kept or a log made where there was none; else the newest
    backup file."""
    backups = {b.name: b for b in list_backups(campaign)}
    for e in reversed(_index(campaign)):
        if str(e.get("name")) in backups:
            return backups[str(e.get("name"))]
        made = LOG_NAME.fullmatch(str(e.get("created")))
        if made is not None and kind_of(campaign / "turns" / made.group(0)) is Kind.FILE:
            return Created(made.group(0), int(made.group(1)), str(e.get("time")), str(e.get("command")))
    return max(backups.values(), key=lambda b: (b.time, b.turn), default=None)


def find(campaign: Path, name: str) -> Backup:
    """The backup named (its file name in backups/, or a path to it); a usage error if none."""
    wanted = Path(name).name
    backups = list_backups(campaign)
    for backup in backups:
        if backup.name == wanted:
            return backup
    raise UsageError(msg.record_no_backup(name, [b.name for b in backups]))


def backups_json(backups: list[Backup]) -> str:
    return json.dumps({"backups": [asdict(b) for b in backups]}, indent=1, ensure_ascii=False) + "\n"


def _index(campaign: Path) -> list[dict[str, object]]:
    path = campaign / BACKUPS / INDEX
    if kind_of(path) is Kind.MISSING:
        return []
    try:
        data = json.loads(read_file(path, what="the index of backups", limit=MAX_INDEX_BYTES))
    except (KitgenError, ValueError):
        return []  # an index spoilt by hand: the backups are still listed, by their files' times
    entries = data.get("backups") if isinstance(data, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
