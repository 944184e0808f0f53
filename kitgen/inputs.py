"""Reading inputs safely: regular files only, bounded in size, never blocking.

Every file kitgen reads goes through `read_file`. It follows symbolic links (a loop is an
error, not a hang), refuses devices, pipes, sockets and folders before opening them, opens
without blocking (a FIFO swapped in after the check cannot stall it), checks the opened file
again, and stops reading past the limit, so that nothing can stream forever.
"""

from __future__ import annotations

import errno
import os
import stat
from enum import Enum
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.limits import TEXT_BYTES

_CHUNK = 1 << 20


class Kind(Enum):
    """What a path is, as far as kitgen cares."""

    FILE = "a regular file"
    FOLDER = "a folder"
    MISSING = "nothing"
    DANGLING = "a symbolic link to nothing"
    LOOP = "a loop of symbolic links"
    FIFO = "a FIFO (named pipe)"
    DEVICE = "a device"
    SOCKET = "a socket"
    OTHER = "a special file"


def kind_of(path: Path | str) -> Kind:
    """What `path` is once symbolic links are followed (without opening it)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Kind.LOOP
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return Kind.DANGLING if os.path.islink(path) else Kind.MISSING
        return Kind.OTHER
    except ValueError:  # a NUL in the name
        return Kind.MISSING
    return _kind(mode)


def _kind(mode: int) -> Kind:
    if stat.S_ISREG(mode):
        return Kind.FILE
    if stat.S_ISDIR(mode):
        return Kind.FOLDER
    if stat.S_ISFIFO(mode):
        return Kind.FIFO
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Kind.DEVICE
    if stat.S_ISSOCK(mode):
        return Kind.SOCKET
    return Kind.OTHER


def is_file(path: Path | str) -> bool:
    return kind_of(path) is Kind.FILE


def is_folder(path: Path | str) -> bool:
    return kind_of(path) is Kind.FOLDER


def not_a_file(path: Path | str, what: str) -> Problem | None:
    """The problem with reading `path` as a file (None if it is a regular file)."""
    found = kind_of(path)
    if found is Kind.FILE:
        return None
    return Problem.of(path, 1, 1, _why(path, found, what))


def _why(path: Path | str, found: Kind, what: str) -> msg.Msg:
    match found:
        case Kind.MISSING:
            return msg.file_missing(what)
        case Kind.DANGLING:
            return msg.file_dangling_link(os.readlink(path))
        case Kind.LOOP:
            return msg.file_link_loop()
        case Kind.FOLDER:
            return msg.file_is_folder()
        case _:
            return msg.file_not_regular(found.value)


def read_file(path: Path | str, *, what: str = "a file", limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (default TEXT_BYTES); anything
    else is a KitgenError."""
    limit = TEXT_BYTES if limit is None else limit
    problem = not_a_file(path, what)
    if problem is not None:
        raise KitgenError([problem])
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise KitgenError.at(path, 1, 1, _open_failed(path, exc, what)) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # swapped for something else since the check
            raise KitgenError.at(path, 1, 1, _why(path, _kind(opened.st_mode), what))
        if opened.st_size > limit:  # refused before a byte is read
            raise KitgenError.at(path, 1, 1, msg.file_too_big(limit))
        # the file as it stands in one read, into one buffer (chunks joined would hold it twice)
        chunks = [os.read(fd, opened.st_size + 1)]
        size = len(chunks[0])
        while size <= limit and (chunk := os.read(fd, min(_CHUNK, limit + 1 - size))):  # it grew since
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise KitgenError.at(path, 1, 1, msg.file_too_big(limit))
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as exc:
        raise KitgenError.at(path, 1, 1, msg.file_unreadable(exc.strerror or str(exc))) from None
    finally:
        os.close(fd)


def _open_failed(path: Path | str, exc: OSError, what: str) -> msg.Msg:
    if exc.errno == errno.ELOOP:
        return msg.file_link_loop()
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return msg.file_missing(what)
    return msg.file_unreadable(exc.strerror or str(exc))


def list_folder(path: Path) -> list[Path]:
    """The entries of a folder, sorted by name (an unreadable folder is a KitgenError)."""
    try:
        return sorted(path.iterdir())
    except OSError as exc:
        raise KitgenError.at(path, 1, 1, msg.file_unreadable(exc.strerror or str(exc))) from None
