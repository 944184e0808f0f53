"""One writer at a time: an OS lock on the campaign folder itself, held while a command reads,
checks and writes its logs, so that concurrent runs take turns and every one of them lands.

The lock is taken on the folder's own descriptor, not on a lock file: there is no file that a
tidy-up or a sync tool could remove while a writer holds it, and a killed writer's lock goes
with its process."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def campaign_lock(folder: Path) -> Iterator[None]:
    """Hold the campaign's write lock, waiting while another kitgen holds it. Holding it, the
    temporary files of killed writers are cleared from turns/ and backups/, and the backups they
    left pending are settled."""
    from kitgen.campaign import CAMPAIGN_FILE, load_campaign
    from kitgen.inputs import Kind, kind_of
    from kitgen.outputs import clean_stale
    from kitgen.record.backups import settle

    if kind_of(folder / CAMPAIGN_FILE) is Kind.MISSING:
        load_campaign(folder)  # no campaign here: said as every command says it, and nothing locked
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:  # a folder kitgen may not read: the system's refusal, said plainly
        raise OSError(exc.errno, exc.strerror or str(exc), str(folder)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        for own in ("turns", "backups"):  # what writers killed before us left half-done
            if os.path.isdir(folder / own) and not os.path.islink(folder / own):
                clean_stale(folder / own)
        if os.path.isdir(folder / "backups") and not os.path.islink(folder / "backups"):
            settle(folder)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
