"""The signals that stop kitgen (Ctrl-C, SIGTERM, SIGHUP), and holding them back for a moment."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOPS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back until the block ends, then acted on: for a write
    that must commit and clean up after itself, or a fork whose child must set its own handlers
    before any arrives (it starts with the parent's mask, so with them still held)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # only read: a handler run as it returns blocks nothing
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def let_through() -> None:
    """This thread acts on the stop signals again (a forked worker, its handlers set)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
