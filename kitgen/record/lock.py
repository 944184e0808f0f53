"""One writer at a time: an OS file lock on the campaign folder, held while a command reads,
checks and writes its logs, so that concurrent runs take turns and every one of them lands."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import UsageError

LOCK_FILE = ".kitgen.lock"
"""In the campaign folder: the file whose lock the writers take (it holds nothing)."""


@contextlib.contextmanager
def campaign_lock(folder: Path) -> Iterator[None]:
    """Hold the campaign's write lock; wait while another kitgen holds it (the lock goes with
    the process, so a killed writer never leaves the campaign locked). Holding it, the
    temporary files of killed writers are cleared from turns/ and backups/."""
    from kitgen.outputs import clean_stale

    path = folder / LOCK_FILE
    flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        why = "a symbolic link" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        raise UsageError(msg.record_cannot_lock(str(path), why)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(msg.record_cannot_lock(str(path), "not a regular file"))
        fcntl.flock(fd, fcntl.LOCK_EX)
        for own in ("turns", "backups"):  # what writers killed before us left half-done
            if os.path.isdir(folder / own) and not os.path.islink(folder / own):
                clean_stale(folder / own)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
