"""`solve` over many deals: how many it wins, the mean best score, how many are proven, how many
it gave up on. The same search as `foursquare solve --seed N --timeout T`, one deal at a time.

Run: python benchmarks/solve_deals.py [--start 0] [--games 1000] [--timeout 10] [--jobs 2]
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time

from foursquare_cli.players.solver import GAVE_UP, UNWINNABLE, WINNABLE, solve
from foursquare_cli.rules.cards import deal


def solve_one(args: tuple[int, float]) -> tuple[int, str, int | None, bool, float]:
    seed, timeout = args
    solution = solve(deal(seed), timeout=timeout)
    return seed, solution.status, solution.score, solution.proven, solution.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = [(seed, args.timeout) for seed in range(args.start, args.start + args.games)]
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(solve_one, tasks, chunksize=1)
    elapsed = time.perf_counter() - started
    won = [r for r in results if r[1] == WINNABLE]
    figures = {
        "deals": len(results),
        "timeout": args.timeout,
        "winnable": len(won),
        "mean_best_score": sum(r[2] for r in won) / len(won) if won else None,
        "proven_best": sum(1 for r in won if r[3]),
        "score_24": sum(1 for r in won if r[2] == 24),
        "unwinnable": sum(1 for r in results if r[1] == UNWINNABLE),
        "gave_up": sum(1 for r in results if r[1] == GAVE_UP),
        "gave_up_deals": [r[0] for r in results if r[1] == GAVE_UP],
        "max_seconds": max(r[4] for r in results),
        "wall_seconds": elapsed,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
