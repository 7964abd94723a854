"""A run of `stats` or `compare` as a plan: its games played where asked (here, in worker processes, or on a
cluster), kept in a results file as they finish, and summed up from the games alone, so a run, a resumed run
and the merge of shards print the same figures."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import NamedTuple

from ..players import Strength, closing_programs, make_player
from .compare import Comparison, pair
from .executor import Interrupted, run_in_order
from .results import Plan, ResultsFile
from .stats import GameResult, Summary, check_range, play_deal, summary_of


class Task(NamedTuple):
    player: str
    seed: int
    player_seed: int
    strength: Strength
    move_time: float


def play_task(task: Task) -> GameResult:
    return play_deal(task.player, task.player_seed, task.seed, task.strength, task.move_time)


def play_plan(
    plan: Plan,
    *,
    jobs: int = 1,
    cluster: str | None = None,
    results: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[str, GameResult]]:
    """Every game of the plan, deal by deal, every player in turn: those already in the results file from it,
    the others played (in `jobs` processes, or on the Dask cluster at `cluster`) and appended to it.

    PlayerError, RangeError, ResultsError, ClusterError before anything is played; Interrupted on a signal.
    """
    check_range(plan.start, plan.games)
    with closing_programs():
        for player in plan.players:
            make_player(player)  # a player that cannot be built fails here, in one line
    strength = Strength(plan.playouts, plan.think)
    order = [(player, deal) for deal in plan.deals() for player in plan.players]
    kept = ResultsFile(results, plan) if results is not None else None
    done = kept.done if kept is not None else {}
    todo = [Task(player, deal, plan.player_seed, strength, plan.move_time) for player, deal in order
            if (player, deal) not in done]  # fmt: skip
    executor = None
    if cluster is not None and todo:
        from .cluster import ClusterExecutor

        executor = ClusterExecutor(cluster, plan.players)
    try:
        played = run_in_order(play_task, todo, jobs, executor=executor)
        for count, (player, deal) in enumerate(order, start=1):
            if (player, deal) in done:
                result = done[(player, deal)]
            else:
                result = next(played)
                if kept is not None:
                    kept.add(player, result)
            if progress is not None:
                progress(count)
            yield player, result
    finally:
        if executor is not None:
            executor.close()
        if kept is not None:
            kept.close()


def stats_of(plan: Plan, games: dict[tuple[str, int], GameResult], elapsed: float) -> Summary:
    """The summary of the one player of a `stats` plan, over the games of the plan's deals played."""
    player = plan.players[0]
    results = [games[(player, deal)] for deal in plan.deals() if (player, deal) in games]
    summary = summary_of(player, plan.start, results, elapsed)
    return summary._replace(shard=plan.shard if plan.shard != (1, 1) else None)


def comparison_of(
    plan: Plan, games: dict[tuple[str, int], GameResult], elapsed: float, *, complete: bool = True
) -> Comparison:
    """The comparison of a `compare` plan over the deals every player has played."""
    deals = [deal for deal in plan.deals() if all((player, deal) in games for player in plan.players)]
    per_player = [[games[(player, deal)] for deal in deals] for player in plan.players]
    summaries = [
        summary_of(name, plan.start, results, elapsed / len(plan.players))
        for name, results in zip(plan.players, per_player, strict=True)
    ]
    players = plan.players
    pairs = [
        pair(players[i], players[j], per_player[i], per_player[j])
        for i in range(len(players))
        for j in range(i + 1, len(players))
    ]
    return Comparison(summaries, pairs, complete)


def run_stats(plan: Plan, *, jobs: int = 1, cluster: str | None = None, results: str | None = None,
              progress: Callable[[int], None] | None = None) -> Summary:  # fmt: skip
    """`stats`: the plan played (see `play_plan`) and summed up."""
    began = time.perf_counter()
    games = {(player, result.seed): result for player, result in play_plan(
        plan, jobs=jobs, cluster=cluster, results=results, progress=progress)}  # fmt: skip
    return stats_of(plan, games, time.perf_counter() - began)


def run_compare(plan: Plan, *, jobs: int = 1, cluster: str | None = None, results: str | None = None,
                progress: Callable[[int], None] | None = None) -> Iterator[Comparison]:  # fmt: skip
    """`compare`: the plan played, then the comparison; on Interrupted, the comparison of what was played
    so far (the deals every player finished), marked incomplete, then the exception goes on."""
    began = time.perf_counter()
    games: dict[tuple[str, int], GameResult] = {}
    try:
        for player, result in play_plan(plan, jobs=jobs, cluster=cluster, results=results, progress=progress):
            games[(player, result.seed)] = result
    except Interrupted:
        yield comparison_of(plan, games, time.perf_counter() - began, complete=False)
        raise
    yield comparison_of(plan, games, time.perf_counter() - began)


def merged_summary(plan: Plan, games: dict[tuple[str, int], GameResult]) -> Summary | Comparison:
    """What one run over the union of results files prints (`summarize`): its time is the time the games
    took, not the wall time of any run."""
    elapsed = sum(sum(result.move_seconds) for result in games.values())
    whole = plan._replace(shard=(1, 1))
    if plan.command == "stats":
        return stats_of(whole, games, elapsed)
    return comparison_of(whole, games, elapsed)
