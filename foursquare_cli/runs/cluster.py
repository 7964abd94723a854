"""Runs on a Dask distributed cluster (`--cluster ADDRESS`, or `FOURSQUARE_CLUSTER`): the optional extra
`pip install -e '.[cluster]'`, imported only when a cluster is asked for.

The tasks go in batches (`BATCH` games a task) through a bounded window (two
batches a worker thread in flight), and the results come back in task order, so the
figures are those of `--jobs 1` on the same seeds. A worker lost mid-run has its
batches played elsewhere (Dask reschedules them); Ctrl-C cancels every task not
finished. Before anything is played the workers' version of the tool is checked
against this one's, and an outside player is looked for on every worker: a `cmd:`
program on its PATH, a `module:` on its import path.
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from .. import __version__
from ..errors import UsageError

Task = TypeVar("Task")
Result = TypeVar("Result")
BATCH = 50


class ClusterError(UsageError):
    """The cluster cannot be used: the extra is missing, it cannot be reached, its workers differ."""


def _batch(function: Callable[[Task], Result], tasks: Sequence[Task]) -> list[Result]:
    return [function(task) for task in tasks]


def _version() -> str:
    import foursquare_cli

    return foursquare_cli.__version__


def _has_player(name: str) -> bool:
    import importlib.util

    from ..players.processes import find_program, split_command

    if name.startswith("cmd:"):
        return find_program(split_command(name[4:])[0]) is not None
    module = name.partition(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


class ClusterExecutor:
    """Tasks on a Dask cluster, in order (see the module's docstring)."""

    def __init__(self, address: str, players: Sequence[str] = (), batch: int = BATCH) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--cluster needs Dask distributed: pip install -e '.[cluster]'") from None
        try:
            self.client: Any = Client(address, timeout=10, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterError(f"cannot reach the cluster at {address}: {error}") from None
        self.batch = batch
        try:
            self._check(players)
        except BaseException:
            self.close()
            raise

    def _check(self, players: Sequence[str]) -> None:
        versions = self.client.run(_version)
        if not versions:
            raise ClusterError("the cluster has no worker yet; start one with: dask worker ADDRESS")
        other = {worker: version for worker, version in versions.items() if version != __version__}
        if other:
            worker, version = next(iter(other.items()))
            raise ClusterError(f"worker {worker} runs foursquare {version}, this is {__version__}; install the same")
        for name in players:
            if ":" in name:
                found = self.client.run(_has_player, name)
                missing = [worker for worker, present in found.items() if not present]
                if missing:
                    what = "program" if name.startswith("cmd:") else "module"
                    raise ClusterError(f"{name}: the {what} is not on worker {missing[0]}; install it on every worker")

    def run_in_order(self, function: Callable[[Task], Result], tasks: Sequence[Task]) -> Iterator[Result]:
        batches = [tasks[index : index + self.batch] for index in range(0, len(tasks), self.batch)]
        threads = sum(self.client.nthreads().values()) or 1
        window: collections.deque[Any] = collections.deque()
        pending = iter(batches)
        try:
            for batch in pending:
                window.append(self.client.submit(_batch, function, batch, pure=False, retries=2))
                if len(window) >= 2 * threads:
                    break
            while window:
                results = window.popleft().result()
                for batch in pending:
                    window.append(self.client.submit(_batch, function, batch, pure=False, retries=2))
                    break
                yield from results
        finally:
            if window:  # stopped early (Ctrl-C, an error): what is not finished is cancelled
                with contextlib.suppress(Exception):
                    self.client.cancel(list(window))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
