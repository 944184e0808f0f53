"""A turn log as bytes on disk: read once, changed as text, and written back only if no one
changed it in between, its earlier version kept; its line ends (LF or CRLF) as they were."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError, UsageError
from kitgen.inputs import Kind, kind_of, read_file
from kitgen.record.backups import keep, note, own_folder

MAX_LOG_BYTES = 2 * 1024 * 1024
TURNS = "turns"


@dataclass(frozen=True)
class LogRead:
    """A log as read: its bytes (None: there is no file), and its text with LF line ends."""

    path: Path
    raw: bytes | None

    @property
    def exists(self) -> bool:
        return self.raw is not None

    @property
    def crlf(self) -> bool:
        """Every line ends in CRLF (as a Windows editor saves it)."""
        raw = self.raw or b""
        return b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")

    @property
    def text(self) -> str:
        """The text, LF line ends (a log that is not UTF-8 is stopped by the log's reader first)."""
        return (self.raw or b"").decode("utf-8", "replace").replace("\r\n", "\n")

    def encode(self, text: str) -> bytes:
        """`text` (LF line ends) as this log's bytes: CRLF again where the log had them."""
        return (text.replace("\n", "\r\n") if self.crlf else text).encode("utf-8")


def read_log_file(path: Path) -> LogRead:
    """A log's bytes, or none if there is no file; a folder, device or oversized file is refused."""
    own_folder(path.parent, "the folder of turn logs")
    if kind_of(path) is Kind.MISSING:
        return LogRead(path, None)
    return LogRead(path, read_file(path, what="the turn log", limit=MAX_LOG_BYTES))


def commit(campaign: Path, read: LogRead, data: bytes, command: str) -> Path | None:
    """Write `data` as the log `read` came from, the caller holding the campaign's lock: refused
    if the file on disk is no longer as read (an editor saved it meanwhile); the version it
    replaces kept in backups/ and entered in the index with `command`. A write that fails
    leaves no backup behind. Returns the backup, or None for a new log."""
    from kitgen.outputs import write_atomic

    path = read.path
    backup = keep(campaign, path, read.raw) if read.raw is not None else None
    try:
        _unchanged(read)
        write_atomic(path, data)
    except (KitgenError, UsageError):
        if backup is not None:
            with contextlib.suppress(OSError):
                backup.unlink()
        raise
    if backup is not None:
        note(campaign, backup, command)
    return backup


def _unchanged(read: LogRead) -> None:
    """The log on disk is still what was read: nothing saved over it since, and no new file."""
    now = read_log_file(read.path)
    if now.raw != read.raw:
        raise KitgenError.at(read.path, 1, 1, msg.record_changed_on_disk())
