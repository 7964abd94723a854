"""A run of `stats` or `compare` as a plan: its games played where asked (here, in worker processes, or on a
cluster), kept in a results file as they finish, and summed up from the games alone, so a run, a resumed run
and the merge of shards print the same figures.

A sealed plan (`--sealed`) deals each deal from a fresh secret seed (`os.urandom`), the same for every player
of that deal, drawn here, in the process that runs the engine, and handed only to the process that plays the
deal's games (never to a player: players see states), which plays them together, a card at a time
(`players.play_in_lockstep`). Its seed goes into the results only once every player has finished the deal
(`ResultsFile`); the processes that hold seeds are not dumpable on Linux (`keep_memory_private`)."""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from ..players import PlayerSpec, closing_programs
from .cluster import ClusterExecutor
from .compare import Comparison, pair
from .executor import Interrupted, run_in_order
from .plans import Plan
from .results import Merged, ResultsFile, first_missing
from .sprt import SequentialTest, SprtVerdict, decided_at
from .stats import GameResult, Summary, check_range, play_deal_together, summary_of


class PlayTask(NamedTuple):
    """What a worker is given: a deal, and who plays it (one player; for a sealed deal, every player of the plan,
    in lockstep, with the deal's secret seed)."""

    players: tuple[PlayerSpec, ...]
    deal: int
    sealed_seed: int | None = None


def play_task(task: PlayTask) -> tuple[GameResult, ...]:
    if task.sealed_seed is not None:
        keep_memory_private()
    return play_deal_together(task.players, task.deal, task.sealed_seed)


def secret_seed() -> int:
    """A deal number nobody can know in advance: 64 bits of the operating system's randomness."""
    return int.from_bytes(os.urandom(8), "little")


def keep_memory_private() -> None:
    """On Linux, this process (which holds a sealed run's secret seeds) is made not dumpable: no other process
    of the user can read its memory (`/proc/PID/mem`) or attach a debugger to it; root still can. Elsewhere,
    and where the system refuses, nothing changes (docs/protocol.md, section 9, says what sealing protects)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes  # Linux alone, in a platform guard

            ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0


def _tasks(plan: Plan, done: dict[tuple[str, int], GameResult]) -> Iterator[PlayTask]:
    """The games still to play, deal by deal, made as they are needed (a plan of 10^11 games is never listed):
    a task a game, or for a sealed plan a task a deal, every player in it, dealt from a fresh secret seed."""
    for deal in plan.deals.each_deal():
        missing = tuple(player for player in plan.players if (player.text, deal) not in done)
        if missing and plan.deals.sealed:
            yield PlayTask(missing, deal, secret_seed())
        else:
            yield from (PlayTask((player,), deal) for player in missing)


class RunOptions(NamedTuple):
    """Where and how a plan is played, besides the plan itself: in `jobs` processes (or on the Dask cluster at
    `cluster`), each game kept in the results file `results` as it ends, `progress(games done)` called as they
    do, `ready()` once the players are known to be there, before the first game, and `resuming(games in the
    file, games of the plan)` when the results file already holds some of the run's games."""

    jobs: int = 1
    cluster: str | None = None
    results: str | None = None
    progress: Callable[[int], None] | None = None
    ready: Callable[[], None] | None = None
    resuming: Callable[[int, int], None] | None = None


def play_plan(
    plan: Plan, options: RunOptions = RunOptions(), from_file: Callable[[GameResult], None] | None = None
) -> Iterator[GameResult]:
    """Every game of the plan, deal by deal, every player in turn: those already in the results file from it
    (each also handed to `from_file`), the others played where `options` says and appended to it.

    PlayerError, ResultsError, UsageError (a range past the deal numbers, a cluster that cannot be used)
    before anything is played; Interrupted on a signal.
    """
    jobs, cluster, results, progress, ready, resuming = options
    check_range(plan.deals.start, plan.deals.games)
    with closing_programs():
        for player in plan.players:
            player.build()  # a player that cannot be built fails here, in one line
    if ready is not None:
        ready()
    if plan.deals.sealed:
        keep_memory_private()
    kept = ResultsFile(results, plan) if results is not None else None
    done = kept.done if kept is not None else {}
    deals = plan.deals.deal_count()
    tasks = deals - len({deal for _, deal in done}) if plan.deals.sealed else deals * len(plan.players) - len(done)
    if done and resuming is not None:
        resuming(len(done), deals * len(plan.players))
    executor = None
    try:
        if cluster is not None and tasks:
            executor = ClusterExecutor(cluster, plan.names)  # in the try: a cluster refused closes the file
        private = keep_memory_private if plan.deals.sealed else None  # a worker is private before its first seed
        played = run_in_order(play_task, _tasks(plan, done), jobs, executor=executor, count=tasks, worker_setup=private)
        waiting: collections.deque[GameResult] = collections.deque()
        count = 0
        for deal in plan.deals.each_deal():
            for player in plan.players:
                if (player.text, deal) in done:
                    result = done[(player.text, deal)]
                    if from_file is not None:
                        from_file(result)
                else:
                    if not waiting:
                        waiting.extend(next(played))
                    result = waiting.popleft()
                    if kept is not None:
                        kept.add(result)
                count += 1
                if progress is not None:
                    progress(count)
                yield result
    finally:
        if executor is not None:
            executor.close()
        if kept is not None:
            kept.close()


def stats_of(plan: Plan, games: dict[tuple[str, int], GameResult], elapsed: float) -> Summary:
    """The summary of the one player of a `stats` plan, over the games of the plan's deals played."""
    player, deals = plan.names[0], plan.deals
    results = [games[key] for key in sorted(games, key=lambda key: key[1]) if key[0] == player and deals.holds(key[1])]
    summary = summary_of(player, deals.start, results, elapsed)
    return summary._replace(shard=deals.shard if deals.shard != (1, 1) else None, sealed=deals.sealed)


def comparison_of(
    plan: Plan, games: dict[tuple[str, int], GameResult], elapsed: float, *, complete: bool = True
) -> Comparison:
    """The comparison of a `compare` plan over the deals every player has played (with `--sprt`, over the
    plan's first deals, in order, up to where the test decided: where the run stopped)."""
    played = sorted({deal for _, deal in games if plan.deals.holds(deal)})
    deals = [deal for deal in played if all((player, deal) in games for player in plan.names)]
    test = None
    if plan.sprt is not None:  # the deals in order, up to the first not played: the test of the run never skips one
        finished = set(deals)
        deals = list(itertools.takewhile(finished.__contains__, plan.deals.each_deal()))
        test = decided_at(plan.sprt, _differences(plan, games, deals))
        deals = deals[: test.deals]
    per_player = [[games[(player, deal)] for deal in deals] for player in plan.names]
    summaries = [
        summary_of(name, plan.deals.start, results, elapsed / len(plan.players))._replace(sealed=plan.deals.sealed)
        for name, results in zip(plan.names, per_player, strict=True)
    ]
    players = plan.names
    pairs = [
        pair(players[i], players[j], per_player[i], per_player[j])
        for i in range(len(players))
        for j in range(i + 1, len(players))
    ]
    names = {player.text: (player.shown, player.name) for player in plan.players}
    return Comparison(summaries, pairs, complete, test, names)


def _differences(plan: Plan, games: dict[tuple[str, int], GameResult], deals: list[int]) -> list[float]:
    """The paired differences of score (a lost game counting 0) of a plan's two players, deal by deal."""
    first, second = plan.names
    return [float((games[(first, deal)].score or 0) - (games[(second, deal)].score or 0)) for deal in deals]


def run_stats(plan: Plan, options: RunOptions = RunOptions()) -> Iterator[Summary]:
    """`stats`: the plan played (see `play_plan`) and summed up; on Interrupted, as `run_compare`, the figures of
    the games played so far (the deals not reached named: `missing`, `stopped`), then the exception goes on."""
    began, resumed = time.perf_counter(), list[GameResult]()
    games: dict[tuple[str, int], GameResult] = {}
    try:
        for result in play_plan(plan, options, resumed.append):
            games[(result.player, result.seed)] = result
    except Interrupted:
        if games:
            summary = stats_of(plan, games, _time_taken(began, games, resumed))
            played = {deal for _, deal in games}
            yield summary._replace(
                missing=plan.deals.deal_count() - len(played),
                first_missing=first_missing(plan, played),
                span=(min(played), max(played)),
                stopped=True,
            )
        raise
    yield stats_of(plan, games, _time_taken(began, games, resumed))


def run_compare(plan: Plan, options: RunOptions = RunOptions()) -> Iterator[Comparison]:
    """`compare`: the plan played, then the comparison; on Interrupted, the comparison of what was played
    so far (the deals every player finished), marked incomplete, then the exception goes on."""
    began, resumed = time.perf_counter(), list[GameResult]()
    games: dict[tuple[str, int], GameResult] = {}
    test = SequentialTest(plan.sprt) if plan.sprt is not None else None
    try:
        for result in play_plan(plan, options, resumed.append):
            games[(result.player, result.seed)] = result
            if test is not None and result.player == plan.names[-1]:  # a deal every player has played
                (difference,) = _differences(plan, games, [result.seed])
                if test.add(difference).verdict is not SprtVerdict.UNDECIDED:
                    break  # the test knows: the deals left are not played
    except Interrupted:
        yield comparison_of(plan, games, _time_taken(began, games, resumed), complete=False)
        raise
    yield comparison_of(plan, games, _time_taken(began, games, resumed))


def _time_taken(began: float, games: dict[tuple[str, int], GameResult], resumed: list[GameResult]) -> float:
    """The time a run's games took: the wall time since `began` when it played them all; when some came from its
    results file (played by an earlier run, whose wall time is not known), the time each move took, summed,
    as `summarize` counts it, so that a rerun's speed is the run's own, not the speed of reading its file."""
    if not resumed:
        return time.perf_counter() - began
    return _moves_time(games.values())


def _moves_time(games: Iterable[GameResult]) -> float:
    return sum(sum(result.move_seconds) for result in games)


def merged_summary(union: Merged) -> Summary | Comparison:
    """What one run over the union of results files prints (`summarize`): its time is the time the games
    took, not the wall time of any run; the deals still missing are named, and a run with some missing is
    never called complete (a run its sequential test stopped misses none: the deals after are not its)."""
    plan, games = union.plan, union.games
    elapsed = _moves_time(games.values())
    missing, first = union.missing, union.first_missing
    if plan.command == "stats":
        return stats_of(plan, games, elapsed)._replace(missing=missing, first_missing=first)
    comparison = comparison_of(plan, games, elapsed, complete=missing == 0)
    if comparison.sprt is not None and comparison.sprt.verdict is not SprtVerdict.UNDECIDED:
        return comparison._replace(complete=True)  # the test stopped the run: the deals after it were never due
    summaries = [summary._replace(missing=missing, first_missing=first) for summary in comparison.summaries]
    return comparison._replace(summaries=summaries)
