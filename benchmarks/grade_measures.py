"""Measures a deal's grade could be made of, against what players then do on it (issue 34, point 7).

For each deal: the measures (the grade's `ease` and its `quick_score`, and the shares played in C on the
real stock: games of the greedy policy filling first, and of the plain greedy policy, each after 0 to 3 random
placements, K of each), then the results of an independent greedy player (one game, won or not) and of a
strong searcher (the expert at a small budget: the score, a loss counting 0). One JSON line a deal, as it ends;
the same command resumes. `--fit` then prints how each measure ranks the deals against each player's results
(Spearman's rank correlation), for choosing the grade's measure on deals of their own.

Run: python benchmarks/grade_measures.py --start 5000000 --count 800 --save measures.jsonl --jobs 2
     python benchmarks/grade_measures.py --fit measures.jsonl
Asserts nothing; prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foursquare_cli.players.expert import ExpertPlayer
from foursquare_cli.players.grade import grade
from foursquare_cli.players.greedy import GreedyPlayer
from foursquare_cli.rules import playout
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State

K = 200
STRONG_PLAYOUTS = 300


def c_games(seed: int, fill_first: bool, games: int = K) -> tuple[float, float]:
    """(share won, mean score with a loss 0) of `games` greedy games on the real stock, each after 0 to 3
    random placements (seeded by the deal)."""
    rng = random.Random(f"measure:{seed}:{fill_first}")
    start = State(deal(seed))
    stock = playout.stock_of(start)
    won = total = 0
    for number in range(games):
        state = start.copy()
        for _ in range(number % 4):
            if not state.is_over:
                state.apply(rng.choice(state.legal_placements()))
        if state.is_over:
            score = state.outcome.score
        else:
            score = playout.finish_from(stock, *playout.start_of(state), fill_first)[0]
            score = None if score < 0 else score
        if score is not None:
            won += 1
            total += score
    return won / games, total / games


def measured(seed: int) -> dict[str, Any]:
    fill_won, fill_mean = c_games(seed, True)
    plain_won, plain_mean = c_games(seed, False)
    greedy, strong = GreedyPlayer(), ExpertPlayer(0, STRONG_PLAYOUTS)
    results = {}
    for name, player in (("greedy", greedy), ("strong", strong)):
        state = State(deal(seed))
        while not state.is_over:
            state.apply(player.choose(state))
        results[name] = state.outcome.score
    graded = grade(seed)
    return {
        "seed": seed,
        "ease": graded.ease,
        "quick": graded.quick_score,
        "fill_won": fill_won,
        "fill_mean": fill_mean,
        "plain_won": plain_won,
        "plain_mean": plain_mean,
        "greedy_won": results["greedy"] is not None,
        "strong_score": results["strong"] or 0,
    }


def collect(start: int, count: int, save: str, jobs: int) -> None:
    done = set()
    if os.path.exists(save):
        with open(save, encoding="utf-8") as lines:
            done = {json.loads(line)["seed"] for line in lines if line.strip()}
    seeds = [seed for seed in range(start, start + count) if seed not in done]
    with open(save, "a", encoding="utf-8") as out, ProcessPoolExecutor(jobs) as pool:
        for row in pool.map(measured, seeds, chunksize=4):
            out.write(json.dumps(row) + "\n")
            out.flush()


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(x: list[float], y: list[float]) -> float:
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else 0.0


def fit(path: str) -> None:
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    greedy = [float(row["greedy_won"]) for row in rows]
    strong = [float(row["strong_score"]) for row in rows]
    print(f"{len(rows)} deals; Spearman's rank correlation of each measure with each player's result")
    for key in ("ease", "quick", "fill_won", "fill_mean", "plain_won", "plain_mean"):
        values = [float(row[key]) for row in rows]
        print(
            f"  {key:<10} greedy won {spearman(values, greedy):+.3f}   strong's score {spearman(values, strong):+.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--start", type=int)
    parser.add_argument("--count", type=int)
    parser.add_argument("--save")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--fit")
    args = parser.parse_args()
    if args.fit:
        fit(args.fit)
    else:
        collect(args.start, args.count, args.save, args.jobs)


if __name__ == "__main__":
    main()
