"""`stats`: a player over many deals, summed up (its win rate with an interval, its scores, its time)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..runs.run import run_stats
from ..runs.stats import Summary
from .runs import Progress, RunRequest, plan_of, run_options


def player_stats(
    request: RunRequest, show: Callable[[object], None], progress: Progress | None = None
) -> Iterator[Summary]:
    """The summary of the run; on Ctrl-C, that of the games played so far first, then the interruption goes on."""
    plan = plan_of("stats", request)
    yield from run_stats(plan, run_options(plan, request, show, progress))
