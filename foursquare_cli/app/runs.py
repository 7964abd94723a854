"""What `stats` and `compare` share: a run of many deals asked for (`RunRequest`), its plan, its progress, and
the warning that numbered deals are public when an outside player plays them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..players import PlayerKind, PlayerSpec
from ..runs.plans import DealRange, Plan
from ..runs.sprt import SprtSettings

if TYPE_CHECKING:
    from ..runs.run import RunOptions

__all__ = ["DealRange", "Plan", "Progress", "PublicDeals", "Resuming", "RunRequest", "plan_of", "run_options"]

Progress = Callable[[int, int], None]
"""`progress(done, total)`: how far a long run has come, for a progress bar."""


class RunRequest(NamedTuple):
    """A run of many deals: its players' names, the settings they share, the deals, and where to play them
    (`jobs` processes, or the Dask cluster at `cluster`), keeping each game in `results` as it ends."""

    players: tuple[str, ...]
    settings: PlayerSpec
    deals: DealRange
    jobs: int = 1
    cluster: str | None = None
    results: str | None = None
    sprt: tuple[float, float, float] | None = None  # compare's sequential test: points, alpha, beta


class PublicDeals(NamedTuple):
    """Said once the players are ready: a program (`cmd:`) plays numbered deals, whose stocks it can know in
    advance (it can read the run's command line); `--sealed` deals them from secret seeds. Not said for a
    `module:` player: the tool hands it a copy of the position whose stock is shuffled anew, and nothing else."""

    command: str


class Resuming(NamedTuple):
    """Said as a run starts on a results file that holds some of its games already: the same command resumes a
    run, and says so (an outside try could not tell a resumed run from a new one)."""

    command: str
    path: str
    kept: int  # the run's games in the file
    games: int | None  # the games of the run (None: a sequential test, which stops when it knows)


def plan_of(command: str, request: RunRequest) -> Plan:
    """The plan of the run (each player's name checked: PlayerError)."""
    sprt = SprtSettings(*request.sprt) if request.sprt is not None else None
    return Plan.of(command, request.players, request.settings, request.deals, sprt)


def run_options(
    plan: Plan, request: RunRequest, show: Callable[[object], None], progress: Progress | None
) -> RunOptions:
    """How the run of `plan` is played, made once from the request: where, kept where, and what it says as it goes."""
    from ..runs.run import RunOptions  # start-up: `play` reads deal ranges from here, and plays no run

    def resuming(kept: int, games: int) -> None:  # a sequential test may stop anywhere: its run has no count
        show(Resuming(plan.command, request.results or "", kept, games if plan.sprt is None else None))

    return RunOptions(
        request.jobs, request.cluster, request.results, _counting(plan, progress), _when_ready(plan, show), resuming
    )


def _when_ready(plan: Plan, show: Callable[[object], None]) -> Callable[[], None]:
    """What to say once the players are known to be there: the warning of `PublicDeals` where it applies."""

    def ready() -> None:
        if not plan.deals.sealed and any(player.kind is PlayerKind.PROGRAM for player in plan.players):
            show(PublicDeals(plan.command))

    return ready


def _counting(plan: Plan, progress: Progress | None) -> Callable[[int], None] | None:
    """A run's progress in games, out of every game of the plan."""
    if progress is None:
        return None
    total = plan.deals.deal_count() * len(plan.players)
    return lambda done: progress(done, total)
