"""What a deal's grade means for the players: deals graded from START on until COUNT of each level are found,
then the greedy player's win rate and the expert's mean score (a lost game counting 0) on each level, with the
tests of each step (easy against medium, medium against hard).

Run: python benchmarks/grade_levels.py [--start 40000] [--count 300] [--playouts 300] [--jobs 2] [--save FILE]
Prints figures; asserts nothing. docs/figures.md has a run's figures.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor

from foursquare_cli.players.grade import LEVELS, Grade, grade
from foursquare_cli.runs.stats import play_deal, wilson_interval


def _graded(seed: int) -> tuple[int, Grade]:
    return seed, grade(seed)


def _played(args: tuple[int, int]) -> tuple[int, bool, int]:
    seed, playouts = args
    from foursquare_cli.players import PlayerSpec, Strength

    greedy = play_deal(PlayerSpec("greedy"), seed)
    expert = play_deal(PlayerSpec("expert", strength=Strength(playouts)), seed)
    return seed, greedy.won, (expert.score or 0) if expert.won else 0


def two_proportions_p(a: int, n: int, b: int, m: int) -> float:
    """The two-sided p-value of the pooled two-proportion z-test."""
    pooled = (a + b) / (n + m)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m)) or 1.0
    return math.erfc(abs(a / n - b / m) / spread / math.sqrt(2))


def welch_p(x: list[int], y: list[int]) -> float:
    """The two-sided p-value of Welch's t-test (normal approximation: hundreds of deals a level)."""
    mx, my = sum(x) / len(x), sum(y) / len(y)
    vx = sum((v - mx) ** 2 for v in x) / (len(x) - 1)
    vy = sum((v - my) ** 2 for v in y) / (len(y) - 1)
    return math.erfc(abs(mx - my) / math.sqrt(vx / len(x) + vy / len(y)) / math.sqrt(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", type=int, default=40000)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="a JSON Lines file for each played deal's measures and results")
    args = parser.parse_args()
    began = time.perf_counter()
    chosen: dict[str, list[int]] = {level: [] for level in LEVELS}
    graded: dict[str, int] = {level: 0 for level in LEVELS}  # every deal graded, for each level's share
    grades: dict[int, Grade] = {}
    seed = args.start
    with ProcessPoolExecutor(args.jobs) as pool:
        while any(len(seeds) < args.count for seeds in chosen.values()):
            batch = range(seed, seed + 200)
            seed += 200
            for number, found in pool.map(_graded, batch):
                graded[found.level] += 1
                if len(chosen[found.level]) < args.count:
                    chosen[found.level].append(number)
                    grades[number] = found
        graded_until = seed
        tasks = [(number, args.playouts) for level in LEVELS for number in chosen[level]]
        results = {number: (won, score) for number, won, score in pool.map(_played, tasks, chunksize=4)}
    if args.save:
        with open(args.save, "w", encoding="utf-8") as saved:
            for number, (won, score) in sorted(results.items()):
                found = grades[number]
                row = {
                    "seed": number,
                    "level": found.level,
                    "greedy_won": found.greedy_won,
                    "filling_won": found.filling_won,
                    "quick_score": found.quick_score,
                }
                saved.write(json.dumps(row | {"greedy_player_won": won, "expert_score": score}) + "\n")
    print(f"deals {args.start} to {graded_until - 1} graded; {args.count} of each level; expert at {args.playouts}")
    everything = sum(graded.values())
    print("of all deals graded: " + ", ".join(f"{level} {graded[level] / everything:.1%}" for level in LEVELS))
    figures = {}
    for level in LEVELS:
        wins = sum(results[number][0] for number in chosen[level])
        scores = [results[number][1] for number in chosen[level]]
        low, high = wilson_interval(wins, args.count)
        figures[level] = (wins, scores)
        print(
            f"{level:>6}: greedy won {wins} of {args.count} ({wins / args.count:.1%}, 95% {low:.1%} to {high:.1%}); "
            f"expert mean score {sum(scores) / len(scores):.2f}"
        )
    for first, second in (("easy", "medium"), ("medium", "hard")):
        (a, x), (b, y) = figures[first], figures[second]
        print(
            f"{first} against {second}: greedy win rate p = {two_proportions_p(a, args.count, b, args.count):.2g}; "
            f"expert mean score p = {welch_p(x, y):.2g}"
        )
    print(f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
