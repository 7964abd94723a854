"""Runs on a Dask distributed cluster (`--cluster ADDRESS`, or `FOURSQUARE_CLUSTER`): the optional extra
`pip install -e '.[cluster]'`, imported only when a cluster is asked for.

The tasks go in batches sized by time (about `BATCH_SECONDS` of play each, from the
time the games so far took; the first batch is one task) through a bounded window
(two batches a worker thread in flight), and the results come back in task order, so
the figures are those of `--jobs 1` on the same seeds. A worker or a scheduler lost
mid-run loses seconds of work, not minutes, and the games finished are kept; a
worker lost has its batches played elsewhere (Dask reschedules them); Ctrl-C cancels
every task not finished.

No worker is trusted blindly. Before anything is played, every worker must have
the tool, and the same build of it: its **build identity** (a hash of the
package's own files, and whether its C playouts are built) must equal this one's,
so a worker of another commit, even of the same version number, is refused with a
line naming it; an outside player is looked for on every worker (a `cmd:` program
on its PATH, a `module:` on its import path). A worker that joins later is checked
the same way as it is seen; and each batch checks its worker's build before it plays,
so one of another build never plays a game: its batch is given again to the workers
checked. When the run ends, the outside programs its workers started are
closed. Dask's own warnings (a table of versions) are not shown: the line above says
what matters.

Every failure is one line and an exit code, within a bounded time, the games
already played kept (in `--results`): an address that is not one (exit 2), no
scheduler answering there within `CONNECT_SECONDS` (something else listening, or
nothing: exit 2), the scheduler lost mid-run, no worker left for `NO_WORKER_SECONDS`,
or a task whose workers keep dying (a player that kills its worker) (exit 75).
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import importlib.util
import itertools
import logging
import pathlib
import re
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from ..errors import RunFailed, UsageError
from ..players.outside import close_programs
from ..players.processes import find_program, split_command
from ..rules.playout import PLAYOUTS_IN_USE

_Task = TypeVar("_Task")
_Result = TypeVar("_Result")
BATCH_SECONDS = 5.0  # about how long a batch of games plays: what a lost worker or scheduler costs
MOST_IN_A_BATCH = 500
CONNECT_SECONDS = 15.0  # the longest wait for a scheduler to answer
NO_WORKER_SECONDS = 30.0  # how long a run waits with no worker at all before it gives up
_RESULT_WAIT = 0.5  # the longest single wait for a result, so a lost scheduler or worker is seen within it
_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})$")
# The code a worker runs to say whether it has the tool at all, sent as text to the builtin `eval`: a function of
# the package would not even reach a worker that lacks the package.
_HAS_THE_TOOL = "__import__('importlib.util').util.find_spec('foursquare_cli') is not None"


def next_batch_size(games: int, seconds: float) -> int:
    """How many games the next batch holds, from the last batch's `games` played in `seconds`: about
    BATCH_SECONDS of play (at least one, at most MOST_IN_A_BATCH), so a lost worker or scheduler costs seconds."""
    if games <= 0:
        return 1
    return max(1, min(MOST_IN_A_BATCH, round(BATCH_SECONDS * games / max(seconds, 1e-6))))


class ClusterError(UsageError):
    """The cluster cannot be used: the extra is missing, it cannot be reached, its workers differ."""


def build_identity() -> str:
    """What a worker must share with the tool to play its games: a hash of the package's own files (every .py
    and the C source, by their paths in the package) and whether the C playouts are built here."""

    package = pathlib.Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.c")]):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{digest.hexdigest()[:16]}-{PLAYOUTS_IN_USE.language.lower()}"


class WrongBuild(ClusterError):
    """A batch reached a worker of another build (one that joined after the check): it played nothing, and is
    given again to the workers checked. `worker` is its address."""

    def __init__(self, message: str, worker: str = "") -> None:
        super().__init__(message)
        self.worker = worker
        self.args = (message, worker)  # as it crosses back from the worker, pickled


def _batch(function: Callable[[_Task], _Result], tasks: Sequence[_Task], build: str) -> tuple[list[_Result], float]:
    """The batch's games and the seconds they took, on a worker checked once more first: one of another build
    plays none."""
    if build_identity() != build:
        from distributed import get_worker  # the [cluster] extra: imported only when used

        raise WrongBuild(f"a worker of another build ({build_identity()}) was given games", get_worker().address)
    began = time.perf_counter()
    return [function(task) for task in tasks], time.perf_counter() - began


def _close_programs_here() -> None:

    close_programs()


def _has_player(name: str) -> bool:

    if name.startswith("cmd:"):
        return find_program(split_command(name[4:])[0]) is not None
    module = name.partition(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _quiet_half_made_clients(previous: Any) -> Callable[[Any], None]:
    """A Client whose connection failed complains from its `__del__` long after (a traceback at exit): that
    complaint is dropped, every other one goes on to `previous`."""

    def hook(unraisable: Any) -> None:
        if getattr(unraisable.object, "__qualname__", "") != "Client.__del__":
            previous(unraisable)

    return hook


def _quiet_dask_logs() -> None:
    """Dask logs its own errors (a lost scheduler, a reconnection) with tracebacks on standard error; the tool
    says what went wrong in its one line, so Dask's loggers say nothing."""

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _connected(address: str) -> Any:
    """A Client of the scheduler at `address`, within CONNECT_SECONDS; ClusterError saying why not."""
    if not _ADDRESS.match(address) or not 0 < int(address.rsplit(":", 1)[1]) < 65536:
        raise ClusterError(f"{address[:80]!r}: not a cluster address; give one like tcp://10.0.0.1:8786")
    try:
        from distributed import Client  # the [cluster] extra: imported only when used
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install -e '.[cluster]'") from None
    _quiet_dask_logs()
    made: list[Any] = []
    failed: list[BaseException] = []

    def connect() -> None:

        warnings.filterwarnings("ignore", module=r"distributed(\.|$)")  # its table of versions (the build says more)
        try:
            made.append(Client(address, timeout=CONNECT_SECONDS, set_as_default=False))  # type: ignore[no-untyped-call, unused-ignore]
        except Exception as error:  # anything a half-made Client raises becomes the one line below
            failed.append(error)

    sys.unraisablehook = _quiet_half_made_clients(sys.unraisablehook)
    thread = threading.Thread(target=connect, daemon=True, name="foursquare-cluster-connect")
    thread.start()
    thread.join(CONNECT_SECONDS + 5)
    if made:
        return made[0]
    if failed:
        said = str(failed[0]).splitlines()[0][:120] if str(failed[0]) else type(failed[0]).__name__
        raise ClusterError(f"cannot reach a Dask scheduler at {address}: {said}")
    raise ClusterError(f"no Dask scheduler answered at {address} within {CONNECT_SECONDS + 5:g} s; is it one?")


class ClusterExecutor:
    """Tasks on a Dask cluster, in order (see the module's docstring)."""

    def __init__(self, address: str, players: Sequence[str] = ()) -> None:
        self.address = address
        self.players = tuple(players)
        self.build = build_identity()
        self.checked: set[str] = set()  # the workers found fit to play: only they are given batches
        self.refused: set[str] = set()  # workers that joined later and are not (another build, a player missing)
        self.client: Any = _connected(address)
        try:
            with _no_dask_warnings():
                self._check(players)
        except BaseException:  # whatever stops the opening, the file or client is let go; it goes on up
            self.close()
            raise

    def _on_every_worker(
        self, function: Callable[..., Any], *args: Any, workers: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """`function(*args)` on every worker (or those named): {worker: what it returned, or what it raised}."""
        try:
            return dict(self.client.run(function, *args, on_error="return", workers=workers))
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"the scheduler at {self.address} stopped answering: {error}") from None

    def _fit(self, workers: Sequence[str]) -> set[str]:
        """Those of `workers` that have the tool, of this build, and every outside player of the run."""
        fit = {
            worker
            for worker, found in self._on_every_worker(eval, _HAS_THE_TOOL, workers=workers).items()
            if found is True
        }
        if fit:
            builds = self._on_every_worker(build_identity, workers=sorted(fit))
            fit = {worker for worker, build in builds.items() if build == self.build}
        for name in self.players:
            if ":" in name and fit:
                found = self._on_every_worker(_has_player, name, workers=sorted(fit))
                fit = {worker for worker, present in found.items() if present is True}
        return fit

    def _workers_now(self) -> list[str]:
        """The checked workers still there, after checking any that joined since (RunFailed when the
        scheduler does not answer)."""
        try:
            present = set(self.client.nthreads())
        except (OSError, TimeoutError):
            raise RunFailed(f"lost the scheduler at {self.address}") from None
        new = sorted(present - self.checked - self.refused)
        if new:
            with _no_dask_warnings(), contextlib.suppress(ClusterError):
                fit = self._fit(new)
                self.checked |= fit
                self.refused |= set(new) - fit
        return sorted(present & self.checked)

    def _check(self, players: Sequence[str]) -> None:
        present = self._on_every_worker(eval, _HAS_THE_TOOL)
        self.checked = set(present)
        if not present:
            raise ClusterError("the cluster has no worker yet; start one with: dask worker ADDRESS")
        lacking = [worker for worker, found in present.items() if found is not True]
        if lacking:
            raise ClusterError(f"worker {lacking[0]} has no foursquare installed; install this one on every worker")
        ours = build_identity()
        builds = self._on_every_worker(build_identity)
        other = {worker: build for worker, build in builds.items() if build != ours}
        if other:
            worker, build = next(iter(other.items()))
            said = build if isinstance(build, str) else f"none it could say ({type(build).__name__})"
            raise ClusterError(
                f"worker {worker} runs another build of foursquare ({said}, this is {ours}); "
                "install the same on every worker"
            )
        for name in players:
            if ":" in name:
                found = self._on_every_worker(_has_player, name)
                missing = [worker for worker, present in found.items() if present is not True]
                if missing:
                    what = "program" if name.startswith("cmd:") else "module"
                    raise ClusterError(f"{name}: the {what} is not on worker {missing[0]}; install it on every worker")

    def run_in_order(
        self, function: Callable[[_Task], _Result], tasks: Iterable[_Task], count: int
    ) -> Iterator[_Result]:
        pending = iter(tasks)
        size = 1  # tasks a batch: one at first (nothing is known of the games' pace), then `next_batch_size`
        window: collections.deque[Any] = collections.deque()
        done = 0

        def submit() -> bool:
            batch = list(itertools.islice(pending, size))
            if not batch:
                return False
            self._workers_now()  # a worker that joined is checked (and `_batch` checks its own worker again)
            window.append((self.client.submit(_batch, function, batch, self.build, pure=False, retries=2), batch))
            return True

        try:
            with _no_dask_warnings():
                threads = sum(self.client.nthreads().values()) or 1
                while len(window) < 2 * threads and submit():
                    pass
                while window:
                    future, batch = window[0]
                    try:
                        results, seconds = self._result(future, done, count)
                    except WrongBuild as refused:  # it played nothing: to the checked workers alone, then
                        self.refused.add(refused.worker)
                        self.checked.discard(refused.worker)
                        again = self.client.submit(
                            _batch,
                            function,
                            batch,
                            self.build,
                            pure=False,
                            retries=2,
                            workers=self._workers_now() or None,
                        )
                        window[0] = (again, batch)
                        continue
                    window.popleft()
                    if results:
                        size = next_batch_size(len(results), seconds)
                    submit()
                    done += len(results)
                    yield from results
        finally:
            if window:  # stopped early (Ctrl-C, an error): what is not finished is cancelled
                with contextlib.suppress(Exception):
                    self.client.cancel([future for future, _ in window])

    def _result(self, future: Any, done: int, total: int) -> tuple[list[Any], float]:
        """The batch's results, waiting in slices: RunFailed when the scheduler goes, no worker is left for
        NO_WORKER_SECONDS, or the batch's workers keep dying."""
        from distributed import KilledWorker  # the [cluster] extra: imported only when used
        from distributed import TimeoutError as DaskTimeout  # the [cluster] extra: imported only when used
        from distributed.utils import CancelledError as DaskCancelled  # type: ignore[attr-defined, unused-ignore]

        played = f"{done} of {total} games had finished"
        without_workers: float | None = None
        unanswered: float | None = None
        while True:
            try:
                results, seconds = future.result(timeout=_RESULT_WAIT)
                return list(results), float(seconds)
            except (DaskTimeout, TimeoutError):
                pass
            except KilledWorker:
                raise RunFailed(f"workers died playing the same games three times; {played}") from None
            except (OSError, ConnectionError, DaskCancelled) as error:
                said = str(error).splitlines()[0][:80] if str(error) else type(error).__name__
                raise RunFailed(f"lost the scheduler at {self.address} ({said}); {played}") from None
            if self.client.status != "running":
                unanswered = unanswered if unanswered is not None else time.monotonic()
                if self.client.status != "connecting" or time.monotonic() - unanswered > CONNECT_SECONDS:
                    raise RunFailed(f"lost the scheduler at {self.address}; {played}")
                continue
            unanswered = None
            try:
                workers = self._workers_now()
            except RunFailed:
                raise RunFailed(f"lost the scheduler at {self.address}; {played}") from None
            if workers:
                without_workers = None
            elif without_workers is None:
                without_workers = time.monotonic()
            elif time.monotonic() - without_workers > NO_WORKER_SECONDS:
                raise RunFailed(f"no worker left on the cluster for {NO_WORKER_SECONDS:g} s; {played}")

    def close(self) -> None:
        """The outside programs the workers started are closed, then the client."""
        with contextlib.suppress(Exception), _no_dask_warnings():
            self.client.run(_close_programs_here, on_error="return")
        with contextlib.suppress(Exception):
            self.client.close(timeout=5)


@contextlib.contextmanager
def _no_dask_warnings() -> Iterator[None]:
    """Dask's warnings (its table of mismatched versions, among others) are not shown: the tool says in its
    one line what stops a run (`ClusterError`, `RunFailed`), and a difference that matters is a build."""

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
