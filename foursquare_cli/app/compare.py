"""`compare`: which player is better, and how sure: every player on the same deals, and paired tests. Ctrl-C
gives what was played so far, marked incomplete, before the interruption goes on."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..errors import UsageError
from ..runs.compare import Comparison
from ..runs.run import run_compare
from .runs import Progress, RunRequest, counting, plan_of, when_ready


def comparisons(request: RunRequest, show: Callable[[object], None], progress: Progress | None = None
            ) -> Iterator[Comparison]:  # fmt: skip
    if len(request.players) < 2:
        raise UsageError("give at least two players to compare")
    named_twice = next((name for name in request.players if request.players.count(name) > 1), None)
    if named_twice is not None:  # a run keeps one line a player a deal: two of one name would be one player
        raise UsageError(f"{named_twice} is named twice; compare different players (each once)")
    plan = plan_of("compare", request)
    yield from run_compare(plan, jobs=request.jobs, cluster=request.cluster, results=request.results,
                           progress=counting(plan, progress), ready=when_ready(plan, show))  # fmt: skip
