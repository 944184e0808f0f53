"""Work forked onto other processors (`kitgen.forking`): workers that stop when told, leave
Ctrl-C to kitgen, and are never forked from a process with other threads."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

from kitgen.forking import can_fork, processors

SCRIPT = textwrap.dedent(
    """
    import signal
    from kitgen.cli import _exit_cleanly_on_signals
    from kitgen.forking import pool as forked_pool

    def handlers(_):
        return (signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, signal.getsignal(signal.SIGINT) is signal.SIG_IGN)

    if __name__ == "__main__":
        _exit_cleanly_on_signals()
        for _ in range(12):
            pool = forked_pool(2)
            found = pool.map(handlers, range(4), chunksize=1)
            pool.terminate()  # idle workers, one of them waiting on the task queue's lock
            pool.join()
        print(found)
    """
)


def test_forked_workers_stop_at_once_and_leave_ctrl_c_to_kitgen() -> None:
    """A worker forked from kitgen (whose SIGTERM handler unwinds it cleanly) ends at once on
    the SIGTERM its pool stops it with, and ignores Ctrl-C, which kitgen itself acts on: a pool
    stopped over and over, its workers idle on the queue's lock, never hangs."""
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[(True, True), (True, True), (True, True), (True, True)]"


def test_no_fork_while_another_thread_runs() -> None:
    """A fork copies only the thread that forks: with another thread alive, nothing is forked."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        other.join()


@pytest.mark.skipif(processors() < 2, reason="one processor: kitgen never forks")
def test_a_single_threaded_process_on_two_processors_forks() -> None:
    """The other side: alone in its process, on a machine of two processors or more, kitgen forks."""
    code = "from kitgen.forking import can_fork; print(can_fork())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.strip() == "True", done.stderr


HELD = textwrap.dedent(
    """
    import os, signal, tempfile
    from kitgen import forking
    from kitgen.cli import _exit_cleanly_on_signals
    from kitgen.stopsignals import STOPS

    seen = tempfile.mkdtemp()
    start = forking.start_worker

    def watched(parent, interruptible=False):
        held = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # before the worker sets its own handlers
        with open(os.path.join(seen, str(os.getpid())), "w") as f:
            f.write(repr(sorted(int(s) for s in held & STOPS)))
        start(parent, interruptible)

    def after(_):
        return sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, ()) & STOPS)

    if __name__ == "__main__":
        _exit_cleanly_on_signals()
        forking.start_worker = watched
        pool = forking.pool(2)
        later = pool.map(after, range(4), chunksize=1)
        pool.close()
        pool.join()
        print(sorted({open(os.path.join(seen, n)).read() for n in os.listdir(seen)}), sorted(set(map(repr, later))))
        print(sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, ()) & STOPS))
    """
)


def test_a_forked_worker_starts_with_the_stop_signals_held_until_its_own_handlers_are_set() -> None:
    """A worker must never meet a stop signal while it still has kitgen's handlers (inherited
    over the fork): unwound through Python's after-fork work, it once hung, and its pool with it,
    one run in eighty under load. So the pool forks with Ctrl-C, SIGTERM and SIGHUP held: each
    worker starts with them held and lets them through once its own handlers are set, and the
    parent holds none once the pool is made."""
    import signal

    done = subprocess.run([sys.executable, "-c", HELD], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    stops = sorted(int(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
    at_start, later = done.stdout.splitlines()[0], done.stdout.splitlines()[1]
    assert at_start == f"{[repr(stops)]} {['[]']}"
    assert later == "[]"
