"""The executor: a function over many tasks in worker processes, in order, stopped cleanly.

One place for what every long run (`stats`, `analyze`, `compare`) needs: at most
one worker per task; results in task order, so `--jobs` changes the speed and never
the figures; a bounded window of tasks in flight. It is the standard library's
`concurrent.futures.ProcessPoolExecutor`, so a worker that dies (`kill -9`, a
player's `os._exit`) is seen at once: `RunFailed`, one line and an exit code,
never a hang. Workers are started with `spawn` on every platform (a fresh
interpreter: no fork of a process whose threads, rich's progress among them, hold
locks). Workers ignore Ctrl-C, die quietly on SIGTERM and SIGHUP, and on
Linux die with the tool's process (and their players with them). The parent
turns SIGINT, SIGTERM and SIGHUP into `Interrupted` and ends every worker (the
caller exits 130 or 143). Python's resource tracker (POSIX: the process that keeps
the names of the workers' semaphores) is started with its standard error going
nowhere, and started again so when it is killed mid-run: what it prints then (a
warning, a traceback for each name it was never told of) is no output of the tool's.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import os
import signal
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Protocol, TypeVar

from ..errors import Interrupted, RunFailed, UsageError, interrupted_by

__all__ = ["Interrupted", "run_in_order", "workers_for"]

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a run: SIGHUP is POSIX's (a closed terminal); Windows has the other two."""


def workers_for(jobs: int, count: int) -> int:
    """Worker processes for `count` tasks: never more than the tasks (nor fewer than 1)."""
    return max(1, min(jobs, count))


def _quiet_worker(setup: Callable[[], None] | None = None) -> None:
    """A worker process starts: its standard error goes nowhere (what goes wrong in it comes back to the tool as
    an error, said in one line: never a traceback of its own on the user's screen), Ctrl-C is the tool's to
    handle, it dies with the tool, then `setup`."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stopping in _SIGNALS[1:]:
        signal.signal(stopping, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes  # Linux alone, in a platform guard

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: die with the tool
    if setup is not None:
        setup()


def _quiet_resource_tracker() -> None:
    """Python's resource tracker, whenever it is started (first, or again after it was killed), started with its
    standard error on the null device, its warning that it was started again unsaid (once a process)."""
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    start = getattr(tracker, "ensure_running", None)
    if start is None or getattr(start, "quiet", False):
        return

    def ensure_running() -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.flush()  # what was said before goes where it was going
        try:
            saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
        except OSError:
            saved = null = -1
        try:
            if null >= 0:
                os.dup2(null, 2)  # the tracker, if started now, inherits the null device as its standard error
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "process died unexpectedly, relaunching": nothing to do about it
                start()
        finally:
            if null >= 0:
                os.dup2(saved, 2)
                os.close(saved)
                os.close(null)

    ensure_running.quiet = True  # type: ignore[attr-defined]
    tracker.ensure_running = ensure_running  # type: ignore[union-attr]


def _raise_interrupted(signum: int, frame: object) -> None:
    raise interrupted_by(signum)


def _end(executor: ProcessPoolExecutor) -> None:
    """Stop every worker now: the tasks not started are cancelled, the running ones killed, and the pool's own
    thread joined (left running, it closes its pipes while Python's exit wakes it through one of them: now and
    then an 'Exception ignored' traceback, Bad file descriptor, on the user's standard error)."""
    processes = list(getattr(executor, "_processes", {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)  # shutdown forgets it
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, AttributeError):
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, AttributeError, AssertionError):
            process.join(timeout=5)
    if manager is not None:
        with contextlib.suppress(RuntimeError):
            manager.join(timeout=5)


class Executor(Protocol):
    """Somewhere else to run tasks, in order: a cluster (`runs.cluster.ClusterExecutor`)."""

    def run_in_order(
        self, function: Callable[[_Task], _Result], tasks: Iterable[_Task], count: int
    ) -> Iterator[_Result]: ...


def run_in_order(
    function: Callable[[_Task], _Result],
    tasks: Iterable[_Task],
    jobs: int = 1,
    executor: Executor | None = None,
    *,
    count: int | None = None,
    worker_setup: Callable[[], None] | None = None,
) -> Iterator[_Result]:
    """`function(task)` for each task, in task order: on `executor` when given, else in `jobs` processes (at
    most one per task). The one interface of every run, local or on a cluster. `tasks` may be made as they
    are taken (a run of 10^11 games is never listed); `count`, how many there are, when they have no `len`;
    `worker_setup`, a module-level function each worker process runs as it starts, before any task.

    UsageError when worker processes cannot be started; RunFailed when one dies;
    Interrupted on SIGINT, SIGTERM or SIGHUP.
    """
    count = len(tasks) if isinstance(tasks, Sized) else count if count is not None else jobs
    jobs = workers_for(jobs, count)
    previous = {sig: signal.getsignal(sig) for sig in _SIGNALS}
    previous = {sig: handler for sig, handler in previous.items() if handler is not signal.SIG_IGN}  # nohup
    try:
        for sig in previous:
            signal.signal(sig, _raise_interrupted)
    except ValueError:  # not the main thread: leave signals alone
        previous = {}
    try:
        if executor is not None:
            yield from executor.run_in_order(function, tasks, count)
            return
        if jobs == 1:
            for task in tasks:
                yield function(task)
            return
        yield from _in_workers(function, tasks, jobs, count, worker_setup)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _in_workers(
    function: Callable[[_Task], _Result],
    tasks: Iterable[_Task],
    jobs: int,
    count: int,
    setup: Callable[[], None] | None = None,
) -> Iterator[_Result]:

    _quiet_resource_tracker()
    try:
        executor = ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet_worker, initargs=(setup,)
        )
    except OSError as error:
        raise UsageError(f"cannot start {jobs} worker processes: {error.strerror or error}") from None
    window: collections.deque[Future[_Result]] = collections.deque()
    pending = iter(tasks)
    done = 0
    finished = False

    def submit(task: _Task) -> None:
        try:
            window.append(executor.submit(function, task))
        except OSError as error:
            raise UsageError(f"cannot start {jobs} worker processes: {error.strerror or error}") from None

    try:
        for task in pending:
            submit(task)
            if len(window) >= 2 * jobs:
                break
        while window:
            try:
                result = window.popleft().result()
            except BrokenProcessPool:
                raise RunFailed(
                    f"a worker process died in the middle of the run; {done} of {count} tasks had finished"
                ) from None
            done += 1
            for task in pending:
                submit(task)
                break
            finished = not window  # every task done: a caller that stops at the last result ends the pool cleanly
            yield result
        finished = True
    finally:
        if finished:
            executor.shutdown(wait=True)  # the workers exit on their own, closing their outside programs
        else:
            _end(executor)
