"""The executor: a function over many tasks in worker processes, in order, stopping cleanly on a signal.

One place for what every long run (`stats`, `analyze`, `compare`) needs: at most
one worker per task; results in task order, so `--jobs` changes the speed and never
the figures; workers that ignore Ctrl-C and die quietly on SIGTERM; and a parent
that turns either signal into `Interrupted` and ends every worker (the caller
exits 130 or 143).
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from ..errors import Interrupted, UsageError

__all__ = ["Interrupted", "run_in_order", "workers_for"]

Task = TypeVar("Task")
Result = TypeVar("Result")


class WorkersError(UsageError):
    """Worker processes could not be started."""


def workers_for(jobs: int, count: int) -> int:
    """Worker processes for `count` tasks: never more than the tasks (nor fewer than 1)."""
    return max(1, min(jobs, count))


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _raise_interrupted(signum: int, frame: object) -> None:
    raise Interrupted(signum)


def run_in_order(function: Callable[[Task], Result], tasks: Sequence[Task], jobs: int = 1) -> Iterator[Result]:
    """`function(task)` for each task, in task order, in `jobs` processes (at most one per task).

    WorkersError when worker processes cannot be started; Interrupted on SIGINT or SIGTERM.
    """
    jobs = workers_for(jobs, len(tasks))
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for sig in previous:
            signal.signal(sig, _raise_interrupted)
    except ValueError:  # not the main thread: leave signals alone
        previous = {}
    try:
        if jobs == 1:
            for task in tasks:
                yield function(task)
            return
        import multiprocessing

        try:
            pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_quiet_worker)
        except OSError as error:
            raise WorkersError(f"cannot start {jobs} worker processes: {error.strerror or error}") from None
        with pool:
            yield from pool.imap(function, tasks, chunksize=1)
            pool.close()  # let the workers exit on their own, running their finalizers (outside programs closed)
            pool.join()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
