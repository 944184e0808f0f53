"""Work forked onto the machine's other processors, safely: where a fork is safe, and with
workers that end with kitgen and never outlive it waiting for work."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import multiprocessing.pool

T = TypeVar("T")


def processors() -> int:
    """The processors this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


def can_fork() -> bool:
    """Linux with fork, a second processor, and this process a single thread: a fork copies only
    the thread that forks, so a lock another thread held (kitgen run inside a test runner, say)
    would stay held in the child for ever."""
    import sys
    import threading

    return sys.platform.startswith("linux") and processors() > 1 and threading.active_count() == 1


def start_worker(parent: int, interruptible: bool = False) -> None:
    """In a forked worker, first: Ctrl-C is the parent's to act on (unless `interruptible`: a
    worker whose pool is only shut down once its work is collected must stop on Ctrl-C itself);
    SIGTERM (how a pool stops its workers) ends the worker at once, not through kitgen's
    clean-exit handler, which would unwind it through the pool's queue locks; and the worker ends
    when kitgen does, even if it is killed outright (Linux's PR_SET_PDEATHSIG), so none is left
    waiting for work that will never come."""
    import contextlib
    import ctypes
    import signal

    from kitgen import stopsignals

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held over the fork is the parent's, and dropped here
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    stopsignals.let_through()  # held by the parent across the fork (`pool`), so none came early
    if interruptible:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # killed before the line above ran
        os._exit(1)


def pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool of `workers` forked workers (`start_worker`). The stop signals are held while they
    are forked: a worker must not meet one before its own handlers are set, since kitgen's,
    inherited, would unwind it through Python's after-fork work and leave it hanging there, and
    its pool waiting on it for ever."""
    import multiprocessing

    from kitgen import stopsignals

    made = None
    try:
        with stopsignals.held():  # the pool's threads start with them held too, leaving them to this one
            made = multiprocessing.get_context("fork").Pool(workers, initializer=start_worker, initargs=(os.getpid(),))
    except BaseException:  # a stop signal, acted on as the hold ends: the pool is not left behind
        if made is not None:
            made.terminate()
            made.join()
        raise
    return made


_JOBS: dict[str, Callable[[], Any]] = {}
"""The jobs of the worker being started, by name: the forked worker inherits them (a closure
cannot be pickled over to it); empty again once it has started."""


def in_worker(jobs: dict[str, Callable[[], T]]) -> dict[str, Callable[[], T]]:
    """`jobs` started now, in order, in one forked worker process; for each, a call that waits
    for its result (or raises its error). The worker ends once every result is collected."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor
    from functools import partial

    from kitgen import stopsignals

    _JOBS.update(jobs)
    pool = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("fork"), initializer=start_worker, initargs=(os.getpid(), True)
    )
    try:
        with stopsignals.held():  # see `pool`
            futures = {name: pool.submit(_run_job, name) for name in jobs}  # the first forks the worker
    except BaseException:  # a stop signal as the hold ends: kitgen must not wait for the work at exit
        _stop_now(pool)
        raise
    finally:
        _JOBS.clear()
    waiting = set(futures)

    def result(name: str, future: Future[T]) -> T:
        try:
            return future.result()
        finally:
            waiting.discard(name)
            if not waiting:
                pool.shutdown()

    return {name: partial(result, name, future) for name, future in futures.items()}


def _stop_now(pool: Any) -> None:
    """A process pool shut down at once: its queued work cancelled, its workers ended (the
    executor has no public way to end work under way)."""
    pool.shutdown(wait=False, cancel_futures=True)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _run_job(name: str) -> Any:
    """In the worker: the job named `name`."""
    return _JOBS[name]()
