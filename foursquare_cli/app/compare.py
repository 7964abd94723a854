"""`compare`: which player is better, and how sure: every player on the same deals, and paired tests. Ctrl-C
gives what was played so far, marked incomplete, before the interruption goes on."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..errors import UsageError
from ..runs.compare import Comparison
from ..runs.run import run_compare
from .runs import Progress, RunRequest, plan_of, run_options


def comparisons(
    request: RunRequest, show: Callable[[object], None], progress: Progress | None = None
) -> Iterator[Comparison]:
    if len(request.players) < 2:
        raise UsageError("give at least two players to compare")
    plan = plan_of("compare", request)  # a player named twice, by any spelling, is refused there
    yield from run_compare(plan, run_options(plan, request, show, progress))
