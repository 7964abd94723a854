"""`solve` against the expert: on each deal, is the best line `solve` finds (default budget, nothing kept in a
history) ever below the score the default expert makes on it?

Run: python benchmarks/solve_against_expert.py [--start 9200000] [--games 200] [--jobs 2]. The expert's games
are a `foursquare stats --results` run (so they are the tool's own), the searches `foursquare solve --seed N
--format json` one deal at a time, each in a data folder of its own. Prints the deals where solve is below,
and the counts; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TOOL = [sys.executable, "-m", "foursquare_cli"]


def expert_scores(start: int, games: int, jobs: int, folder: Path) -> dict[int, int]:
    """Each deal's score by the default expert (0 for a loss), from the results file of a `stats` run."""
    results = folder / "expert.jsonl"
    run = [*TOOL, "stats", "-n", str(games), "--start", str(start), "-p", "expert", "--jobs", str(jobs)]
    subprocess.run([*run, "--results", str(results), "-f", "json"], check=True, stdout=subprocess.DEVNULL)
    scores: dict[int, int] = {}
    for line in results.read_text(encoding="utf-8").splitlines()[1:]:
        game = json.loads(line)
        scores[int(game["seed"])] = int(game.get("score") or 0)
    return scores


def solved(seed: int) -> tuple[int, dict[str, object]]:
    with tempfile.TemporaryDirectory() as home:
        environment = dict(os.environ, FOURSQUARE_HOME=home)
        out = subprocess.run(
            [*TOOL, "solve", "--seed", str(seed), "-f", "json"], capture_output=True, text=True, env=environment
        )
    return seed, json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=9200000, help="the first deal (deals no one tuned on)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        expert = expert_scores(options.start, options.games, options.jobs, Path(folder))
    with ThreadPoolExecutor(options.jobs) as pool:
        searches = dict(pool.map(solved, range(options.start, options.start + options.games)))
    below = [
        (seed, searches[seed].get("score"), score)
        for seed, score in sorted(expert.items())
        if score > int(searches[seed].get("score") or 0)
    ]
    proven = sum(1 for search in searches.values() if search.get("proven"))
    won = sum(1 for score in expert.values() if score > 0)
    print(f"deals {options.start} to {options.start + options.games - 1}: the expert won {won}, solve proved {proven}")
    print(f"solve below the expert's score on {len(below)} of {len(expert)} deals")
    for seed, found, score in below:
        print(f"  deal {seed}: solve {found}, the expert {score}")


if __name__ == "__main__":
    main()
