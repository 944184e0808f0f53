"""The earlier versions of the logs, kept in the campaign's backups/ folder: each a file
`turn-07.yaml.3` (a new number each time, never over an earlier one) and a line of the index
saying when and by which command it was replaced."""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem, UsageError, display_path
from kitgen.inputs import Kind, kind_of, read_file
from kitgen.limits import INDEX_BYTES, LOG_BYTES

BACKUPS = "backups"
"""Beside turns/, not in it, so that no command reading the logs has to pass over them."""
INDEX = "index.json"
BACKUP_NAME = re.compile(r"(turn-([0-9]{2,3})\.yaml)\.([0-9]{1,9})")


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


def keep(
    campaign: Path,
    log: Path,
    raw: bytes,
    command: str,
    swap: Callable[[], None] = lambda: None,
    wrote: bytes | None = None,
) -> Path:
    """Keep `raw`, the log's text being replaced, as its next backup, then `swap` (the write that
    replaces it with `wrote`, if it writes one), the caller holding the campaign's lock; return
    the backup's path.

    The backup's line in the index is written first and its file under a hidden name
    (`.turn-07.yaml.3.kitgen-pending`), given its own name once `swap` is done. A swap that
    fails leaves neither, as long as the log is still `raw`; a swap interrupted after it
    replaced the log (a signal, an error in its last step) leaves the backup, since it holds
    the only copy of `raw`. A run killed in between leaves a pending file that the next holder
    of the lock settles (`settle`)."""
    from kitgen.outputs import ChangedMeanwhile, read_exactly, write_atomic

    folder = own_folder(campaign / BACKUPS, "the folder of backups")
    folder.mkdir(exist_ok=True)
    n = 1
    while any(kind_of(folder / f) is not Kind.MISSING for f in (f"{log.name}.{n}", _pending(f"{log.name}.{n}"))):
        n += 1
    name = f"{log.name}.{n}"
    entry: dict[str, object] = {"name": name, "command": command}
    if wrote is not None:
        entry["wrote"] = _digest(wrote)
    _enter(campaign, entry, _other_than(name))
    pending = folder / _pending(name)
    try:
        write_atomic(pending, raw)
        swap()
    except BaseException as exc:
        if isinstance(exc, ChangedMeanwhile) or read_exactly(log) == raw:  # not replaced: no backup
            with contextlib.suppress(OSError):
                pending.unlink()
            _enter(campaign, None, _other_than(name))
        else:
            with contextlib.suppress(OSError):
                os.rename(pending, folder / name)
        raise
    os.rename(pending, folder / name)
    return folder / name


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:16]


def _other_than(name: str) -> Callable[[dict[str, object]], bool]:
    return lambda e: e.get("name") != name


PENDING = ".kitgen-pending"


def _pending(name: str) -> str:
    return f".{name}{PENDING}"


def settle(campaign: Path) -> None:
    """Settle the backups a killed run left pending: one whose log is still as it was is not
    needed; any other holds a version no longer on disk and takes its name, its entry saying if
    the log is neither version (changed by hand since the write was cut short)."""
    folder = campaign / BACKUPS
    try:
        entries = [e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
    except OSError:
        return
    for entry in sorted(entries):
        match = BACKUP_NAME.fullmatch(entry[1:].removesuffix(PENDING)) if entry.endswith(PENDING) else None
        if match is None:
            continue
        name, kept = match.group(0), folder / entry
        log = campaign / "turns" / match.group(1)
        try:
            now = read_file(log, limit=LOG_BYTES) if kind_of(log) is Kind.FILE else None
            if now is not None and now == read_file(kept, limit=LOG_BYTES):
                kept.unlink()
                _enter(campaign, None, _other_than(name))
                continue
        except (OSError, KitgenError):
            continue
        if kind_of(folder / name) is not Kind.MISSING:
            continue
        said = next((e for e in _index(campaign) if e.get("name") == name), None)
        if said is None:
            _enter(campaign, {"name": name, "command": "unknown (a write cut short)"}, lambda e: True)
        elif "wrote" in said and now is not None and _digest(now) != said["wrote"]:
            command = f"{said['command']} (cut short; the log changed by hand since)"
            _enter(campaign, {**said, "command": command}, _other_than(name))
        os.rename(kept, folder / name)


@dataclass(frozen=True)
class Created:
    """A log a command made where there was none (`kitgen next`): its undoing takes it away."""

    log: str
    """turn-07.yaml."""
    turn: int
    time: str
    command: str


LOG_NAME = re.compile(r"turn-([0-9]{2,3})\.yaml")


def note_created(campaign: Path, log: Path, command: str) -> None:
    """Enter in the index a log `command` made where there was none, so that it can be undone."""
    if LOG_NAME.fullmatch(log.name) is None:
        raise ValueError(f"not a log's name: {log.name}")
    _enter(campaign, {"created": log.name, "command": command}, lambda e: True)


def _enter(campaign: Path, entry: dict[str, object] | None, keeping: Callable[[dict[str, object]], bool]) -> None:
    """Write the index anew: its entries that `keeping` keeps, then `entry` (if any) with the time.
    An index spoilt by hand is set aside first (`index.spoilt-1.json`), never written over."""
    from kitgen.outputs import write_atomic

    own_folder(campaign / BACKUPS, "the folder of backups").mkdir(exist_ok=True)
    read = read_index(campaign / BACKUPS / INDEX)
    if read.spoilt is not None:
        _set_aside(campaign, read.spoilt)
    entries = [e for e in read.entries if keeping(e)]
    if entry is not None:
        now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        entries.append({**entry, "time": now})
    text = json.dumps({"backups": entries}, indent=1, ensure_ascii=True) + "\n"
    write_atomic(campaign / BACKUPS / INDEX, text.encode("utf-8"))


SPOILT = re.compile(r"index\.spoilt-(\d+)\.json")
"""An index spoilt by hand, set aside: kept as it was, and read again once it is mended."""


def _set_aside(campaign: Path, spoilt: Problem) -> None:
    """Move the spoilt index to the next free `index.spoilt-N.json`, and say so."""
    import warnings

    from kitgen.notices import Notice

    folder = campaign / BACKUPS
    n = 1
    while kind_of(folder / f"index.spoilt-{n}.json") is not Kind.MISSING:
        n += 1
    aside = folder / f"index.spoilt-{n}.json"
    os.rename(folder / INDEX, aside)  # the lock held: no other kitgen takes the name meanwhile
    said = msg.record_index_set_aside(spoilt.message, f"{BACKUPS}/{aside.name}")
    warnings.warn(Notice(Problem.of(folder / INDEX, spoilt.line, spoilt.column, said)), stacklevel=2)


@dataclass(frozen=True)
class IndexRead:
    """The index of backups as read: its entries, or where and why it is spoilt (then no entry
    of it is trusted); `spoilt.message` is the detail alone."""

    entries: list[dict[str, object]]
    spoilt: Problem | None = None


def read_index(path: Path) -> IndexRead:
    """The entries of an index of backups, or why it is not as kitgen writes it: JSON,
    {"backups": [...]}, each entry a backup's or a made log's name, a command and a time, all
    text. Of a spoilt index, the entries still whole are read (`_salvaged`)."""
    if kind_of(path) is Kind.MISSING:
        return IndexRead([])
    try:
        raw = read_file(path, what="the index of backups", limit=INDEX_BYTES)
    except KitgenError as exc:
        first = exc.problems[0]
        return IndexRead([], Problem(first.file, first.line, first.column, first.message, first.code))

    def spoilt(line: int, column: int, detail: str) -> IndexRead:
        return IndexRead(
            _salvaged(raw.decode("utf-8", "replace")),
            Problem(display_path(path), line, column, detail, "record.index_spoilt"),
        )

    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        return spoilt(exc.lineno, exc.colno, exc.msg)
    except (ValueError, RecursionError):
        return spoilt(1, 1, "not JSON")
    entries = data.get("backups") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return spoilt(1, 1, 'no list "backups"')
    for n, e in enumerate(entries, 1):
        if not _entry_as_written(e):
            return spoilt(1, 1, f"entry {n} is not a backup's name, a command and a time")
    return IndexRead(entries)


_FLAT_OBJECT = re.compile(r"\{[^{}]*\}")
"""An entry as kitgen writes it: one object holding no other (found in linear time)."""


def _salvaged(text: str) -> list[dict[str, object]]:
    """The entries of a spoilt index that are still whole, in their order."""
    found = []
    for match in _FLAT_OBJECT.finditer(text):
        try:
            entry = json.loads(match.group(0))
        except ValueError:
            continue
        if _entry_as_written(entry):
            found.append(entry)
    return found


def _entry_as_written(e: object) -> bool:
    if not isinstance(e, dict) or not all(isinstance(v, str) for v in e.values()):
        return False
    named = BACKUP_NAME.fullmatch(e.get("name", "")) or LOG_NAME.fullmatch(e.get("created", ""))
    return named is not None and "command" in e and "time" in e


def spoilt_indexes(campaign: Path) -> list[Problem]:
    """The index of backups if it is spoilt, then each index set aside that is still spoilt."""
    folder = campaign / BACKUPS
    now = read_index(folder / INDEX).spoilt
    said = [] if now is None else [Problem.of(now.file, now.line, now.column, msg.record_index_spoilt(now.message))]
    if kind_of(folder) is Kind.FOLDER:
        for name in sorted((n for n in os.listdir(folder) if SPOILT.fullmatch(n)), key=_aside_number):
            aside = read_index(folder / name).spoilt
            if aside is not None:
                said.append(Problem.of(aside.file, aside.line, aside.column, msg.record_index_aside(aside.message)))
    return said


def _aside_number(name: str) -> int:
    match = SPOILT.fullmatch(name)
    return int(match.group(1)) if match else 0


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
    writes) that still stands, a backup kept or a log made where there was none; unless a backup
    the index does not name is newer (an index put back by hand as it was), which then is."""
    backups = {b.name: b for b in list_backups(campaign)}
    entries = _index(campaign)
    standing: Backup | Created | None = None
    for e in reversed(entries):
        if str(e.get("name")) in backups:
            standing = backups[str(e.get("name"))]
            break
        made = LOG_NAME.fullmatch(str(e.get("created")))
        if made is not None and kind_of(campaign / "turns" / made.group(0)) is Kind.FILE:
            standing = Created(made.group(0), int(made.group(1)), str(e.get("time")), str(e.get("command")))
            break
    named = {str(e.get("name")) for e in entries}
    unnamed = max((b for b in backups.values() if b.name not in named), key=_order, default=None)
    if unnamed is None or (standing is not None and _order(unnamed) <= _order(standing)):
        return standing
    return unnamed


def _order(write: Backup | Created) -> tuple[str, str, int]:
    """When a write was made, to the second; within a second, a log's later backup is the later."""
    number = BACKUP_NAME.fullmatch(write.name) if isinstance(write, Backup) else None
    return (write.time, write.log, int(number.group(3)) if number else 0)


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
    """The index's entries (of a spoilt one, those still whole), after those of the indexes set
    aside (mended since by hand, or still whole in them) that it does not hold: in the order
    they were written."""
    folder = campaign / BACKUPS
    lists = [read_index(folder / INDEX).entries]
    if kind_of(folder) is Kind.FOLDER:
        asides = sorted((n for n in os.listdir(folder) if SPOILT.fullmatch(n)), key=_aside_number)
        lists = [read_index(folder / n).entries for n in asides] + lists
    seen: set[object] = set()
    newest_first = []
    for entries in reversed(lists):
        for e in reversed(entries):
            key = e.get("name") or (e.get("created"), e.get("time"))
            if key not in seen:
                seen.add(key)
                newest_first.append(e)
    return newest_first[::-1]
