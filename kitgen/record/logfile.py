"""A turn log as bytes on disk: read once, changed as text, and written back only if no one
changed it in between, its earlier version kept; its line ends (LF or CRLF) as they were."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError
from kitgen.inputs import Kind, kind_of, read_file
from kitgen.limits import LOG_BYTES
from kitgen.record.backups import keep, own_folder

_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
"""A line with its ending (the last may have none)."""
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
        """Most lines end in CRLF (as a Windows editor saves them): new lines are written so."""
        raw = self.raw or b""
        return raw.count(b"\r\n") * 2 > raw.count(b"\n")

    @property
    def text(self) -> str:
        """The text, LF line ends (a log that is not UTF-8 is stopped by the log's reader first)."""
        return (self.raw or b"").decode("utf-8", "replace").replace("\r\n", "\n")

    def encode(self, text: str) -> bytes:
        """`text` (LF line ends), a change of this log's text, as the log's bytes: every line the
        change left alone keeps its own ending (LF or CRLF, even in a log that mixes them), and
        the lines it wrote take the ending most of the log's lines have."""
        old = _LINE.findall((self.raw or b"").decode("utf-8", "replace"))
        new = _LINE.findall(text)
        ending = "\r\n" if self.crlf else "\n"
        out: list[str] = []
        matcher = difflib.SequenceMatcher(None, [line.replace("\r\n", "\n") for line in old], new, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                out += old[i1:i2]
            else:
                out += [line.removesuffix("\n") + ending if line.endswith("\n") else line for line in new[j1:j2]]
        return "".join(out).encode("utf-8")


def read_log_file(path: Path) -> LogRead:
    """A log's bytes, or none if there is no file; a folder, device or oversized file is refused."""
    own_folder(path.parent, "the folder of turn logs")
    if kind_of(path) is Kind.MISSING:
        return LogRead(path, None)
    return LogRead(path, read_file(path, what="the turn log", limit=LOG_BYTES))


def commit(campaign: Path, read: LogRead, data: bytes, command: str) -> Path | None:
    """Write `data` as the log `read` came from, the caller holding the campaign's lock: refused
    if the file on disk is no longer as read (an editor saved it meanwhile), checked in the same
    step as the swap; the version it replaces kept in backups/ and entered in the index with
    `command`. A write that fails or is cut short leaves no backup behind (`backups.keep`).
    Returns the backup, or None for a new log."""
    from kitgen.outputs import ChangedMeanwhile, replace_if_unchanged, write_atomic

    path = read.path
    if len(data) > LOG_BYTES:  # a log no command could read back, nor undo
        raise KitgenError.at(path, 1, 1, msg.record_log_too_large(len(data), LOG_BYTES))

    def swap() -> None:
        if read.raw is None:
            _unchanged(read)
            write_atomic(path, data)
        else:
            replace_if_unchanged(path, data, read.raw)

    try:
        backup = keep(campaign, path, read.raw, command, swap, wrote=data) if read.raw is not None else None
        if read.raw is None:
            swap()
    except ChangedMeanwhile:
        raise KitgenError.at(path, 1, 1, msg.record_changed_on_disk()) from None
    _verified(campaign, path, data, command)
    return backup


def _verified(campaign: Path, path: Path, data: bytes, command: str) -> None:
    """The log on disk is what was just written: an editor's save right after the swap (its
    buffer of the log as it was) would hide the write, so the write is kept as a backup of its
    own and the command ends in an error that says where, never in a silent success."""
    from kitgen.outputs import read_exactly

    if read_exactly(path) == data:
        return
    kept = keep(campaign, path, data, f"{command} (saved over just after)")
    raise KitgenError.at(path, 1, 1, msg.record_saved_over(kept.name))


def _unchanged(read: LogRead) -> None:
    """No log has appeared where there was none when it was read."""
    now = read_log_file(read.path)
    if now.raw != read.raw:
        raise KitgenError.at(read.path, 1, 1, msg.record_changed_on_disk())
