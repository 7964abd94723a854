"""The meter's calibration (issue 48, point 3): what the expert's futures say against what the expert then does.

The expert rates a move by futures (the unseen cards shuffled anew, each played out by
the greedy policy filling first). Those futures win far less often than the expert does,
so their share of wins is not the chance to win. This script measures the relation and
writes the model the tool maps through (`foursquare_cli/players/calibration_table.py`;
`players/calibration.py` says how it is read):

    collect: deals played from positions of every kind: a prefix of moves by a weaker
             player (none, random or plain greedy; its length drawn at random, so the
             positions a person reaches, good and bad, are covered), then the expert at
             its default strength to the end. Each position the expert moves from with a
             choice is one observation: the features of the move it played, as its one
             evaluation made them (looked at again over the next card: the replies'
             figures) and as the first ply alone made them, and what the expert then got:
             won or lost, and the score. One JSON line a deal, as it ends; the same
             command resumes a stopped run.
    fit:     for each kind of figure (the first ply's, the second ply's), a logistic model
             of the win on `calibration.chance_terms` (maximum likelihood, Newton's method)
             and a linear model of the score of the won games on `score_terms` (least
             squares); written as the table module.
    check:   predicted against observed on deals the fit never saw: by decile of the chance
             and of the expected score, and by stage (the cards placed), as docs/figures.md
             shows them.

Run (the commands of docs/figures.md):
    python benchmarks/meter_calibration.py collect --start 4200000 --count 1000 --save fit.jsonl
    python benchmarks/meter_calibration.py fit fit.jsonl --out foursquare_cli/players/calibration_table.py
    python benchmarks/meter_calibration.py collect --start 4300000 --count 400 --save check.jsonl
    python benchmarks/meter_calibration.py check check.jsonl

The expert of an install without a compiler has a table of its own, from its own games: the same commands,
each with `--without-c`, `fit` writing `foursquare_cli/players/calibration_table_without_c.py`.

The deals 4200000 and up were never used to tune anything. Asserts nothing; prints figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import textwrap
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foursquare_cli.players.calibration import (
    WITH_C,
    WITHOUT_C,
    Features,
    calibrated_figures,
    chance_terms,
    score_terms,
)
from foursquare_cli.players.evaluation import held_to_the_cards
from foursquare_cli.players.expert import ExpertPlayer, expert_without_c
from foursquare_cli.players.greedy import GreedyPlayer
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State, state_after

PREFIXES = ("none", "random", "greedy", "trouble", "trouble")
LONGEST_PREFIX = 30
TROUBLE = 3  # a "trouble" prefix: the greedy player until this many cards are face down (the positions where
# the chance is in doubt, which the expert's own games rarely reach)
KINDS = ("one", "two")


def observed_deal(seed: int, without_c: bool = False) -> dict[str, Any]:
    """One deal: a weaker prefix, then the expert (`without_c`: the expert of an install without a compiler,
    played by whichever playouts were built: the same moves); the features of every move it played with a choice,
    and the outcome."""
    rng = random.Random(f"calibration:{seed}")
    kind = rng.choice(PREFIXES)
    length = {"none": 0, "random": rng.randint(1, 12), "greedy": rng.randint(1, LONGEST_PREFIX)}.get(kind, 40)
    state = State(deal(seed))
    greedy = GreedyPlayer()
    for _ in range(length):
        if state.is_over or (kind == "trouble" and state.face_down >= TROUBLE):
            break
        state.apply(rng.choice(state.legal_moves()) if kind == "random" else greedy.choose(state))
    expert = expert_without_c() if without_c else ExpertPlayer()
    first_ply = ExpertPlayer(playouts=expert.playouts, second_ply=0)
    positions = []
    while not state.is_over:
        evaluation = expert.evaluate(state)
        best = evaluation.best
        if len(evaluation.distinct()) > 1 and best.features is not None:
            after = state_after(state, best.move)
            if best.then is not None:
                after.apply(best.then)
            alone = first_ply.evaluate(state).leading_to(after)  # the same futures, without the second ply
            one = alone.features if alone is not None else None
            shown = [best.chance, best.expected]  # as every screen shows them: pooled down the expert's order
            positions.append({"one": None if one is None else list(one), "two": list(best.features), "shown": shown})
        state.apply(best.move)
        if best.then is not None:
            state.apply(best.then)
    outcome = state.outcome
    return {
        "seed": seed,
        "prefix": kind,
        "length": length,
        "positions": positions,
        "won": outcome.score is not None,
        "score": outcome.score or 0,
    }


def collect(start: int, count: int, save: str, jobs: int, without_c: bool = False) -> None:
    done = set()
    if os.path.exists(save):
        with open(save, encoding="utf-8") as lines:
            done = {json.loads(line)["seed"] for line in lines if line.strip()}
    seeds = [seed for seed in range(start, start + count) if seed not in done]
    context = multiprocessing.get_context("spawn")
    with open(save, "a", encoding="utf-8") as out, ProcessPoolExecutor(jobs, mp_context=context) as pool:
        for number, result in enumerate(pool.map(observed_deal, seeds, [without_c] * len(seeds), chunksize=1), 1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            if number % 20 == 0:
                print(f"{number + len(done)} of {count} deals", file=sys.stderr)


def observations(path: str, kind: str) -> list[tuple[Features, int, int]]:
    """(features of `kind`, won 0/1, score) for every position of the file whose move has figures of that kind:
    `one`, the first ply's of every move played; `two`, the second ply's of the moves looked at again."""
    rows = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            game = json.loads(line)
            for position in game["positions"]:
                figures = position[kind]
                if figures is not None and (kind == "one" or figures[0]):
                    rows.append((Features(*figures), int(game["won"]), game["score"]))
    return rows


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting: the x of matrix x = vector (a small, well-posed system)."""
    size = len(vector)
    rows = [row[:] + [value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(size):
            if r != column and rows[column][column]:
                factor = rows[r][column] / rows[column][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [rows[r][size] / rows[r][r] if rows[r][r] else 0.0 for r in range(size)]


RIDGE = 0.3  # a pull toward small coefficients: terms that never vary (a stage never seen) stay at 0, and where
# the data hold no loss at all (the Python-path expert won from every early position), the chance still moves with
# the futures instead of running to certainty (at 0.001, its stage terms made 2 cards placed 99.9999% whatever the
# futures said); the C expert's table barely moves (Brier score 0.0151 and 0.0152 on its check)


def logistic_fit(terms: Sequence[Sequence[float]], outcomes: Sequence[int]) -> list[float]:
    """The coefficients of the logistic model of `outcomes` (0/1) on `terms`, by Newton's method."""
    size = len(terms[0])
    beta = [0.0] * size
    for _ in range(50):
        gradient = [-RIDGE * b for b in beta]
        hessian = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for x, y in zip(terms, outcomes, strict=True):
            z = sum(b * t for b, t in zip(beta, x, strict=True))
            p = 1 / (1 + math.exp(-max(min(z, 35.0), -35.0)))
            weight = p * (1 - p)
            for i in range(size):
                gradient[i] += (y - p) * x[i]
                for j in range(i, size):
                    hessian[i][j] += weight * x[i] * x[j]
        for i in range(size):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = _solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return beta


def least_squares(terms: Sequence[Sequence[float]], values: Sequence[float]) -> list[float]:
    size = len(terms[0])
    normal = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
    right = [0.0] * size
    for x, y in zip(terms, values, strict=True):
        for i in range(size):
            right[i] += x[i] * y
            for j in range(size):
                normal[i][j] += x[i] * x[j]
    return _solve(normal, right)


def fit(path: str, out: str, without_c: bool = False) -> None:
    chance: dict[str, list[float]] = {}
    score: dict[str, list[float]] = {}
    for kind in KINDS:
        rows = observations(path, kind)
        fitted = logistic_fit([chance_terms(f) for f, _, _ in rows], [w for _, w, _ in rows])
        chance[kind] = [round(c, 6) for c in fitted]
        won = [(f, points) for f, w, points in rows if w]
        score[kind] = [round(c, 6) for c in least_squares([score_terms(f) for f, _ in won], [p for _, p in won])]
        print(f"{kind} ply: {len(rows)} positions, {len(rows) - len(won)} of them lost", file=sys.stderr)
    games = sum(1 for line in open(path, encoding="utf-8") if line.strip())
    expert = "the expert of an install without a compiler" if without_c else "the expert with its playouts in C"
    prefix = "PYTHON_" if without_c else "C_"  # a name is defined once in the package: each table its own
    about = (
        f"The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): of "
        f"{expert}, from {games} deals of {os.path.basename(path)}. For the figures of the first ply (`one`) and of "
        "the second (`two`): the coefficients of the chance's logistic model on `calibration.chance_terms`, and of "
        "the score of a win's linear model on `calibration.score_terms`."
    )
    text = (
        '"""'
        + textwrap.fill(about, 113)
        + f'\n"""\n\n{prefix}CHANCE = {_table(chance)}\n{prefix}SCORE = {_table(score)}\n'
    )
    with open(out, "w", encoding="utf-8") as module:
        module.write(text)
    print(f"wrote {out}", file=sys.stderr)


def _table(coefficients: dict[str, list[float]]) -> str:
    """The coefficients as Python, a kind a line, as `ruff format` leaves them."""
    return (
        "{\n"
        + "".join(f"    {json.dumps(kind)}: {json.dumps(values)},\n" for kind, values in coefficients.items())
        + "}"
    )


STAGES = ((1, 10), (11, 16), (17, 22), (23, 40))  # cards placed after the move, the bounds included


def check(path: str, without_c: bool = False) -> None:
    """Predicted against observed, on positions the fit never saw, in the tables docs/figures.md shows; by the
    table of the expert that played them (`without_c`: the one of an install without a compiler)."""
    model = WITHOUT_C if without_c else WITH_C
    for kind in KINDS:
        predicted = []
        for features, won, points in observations(path, kind):
            chance, expected = held_to_the_cards(*calibrated_figures(features, model), features)
            predicted.append((chance, expected, won, points, features.drawn, features.share))
        what = "the first ply (moves not looked at again)" if kind == "one" else "the second ply (the moves played)"
        _compared(what, predicted)
    shown = shown_rows(path)
    if shown:  # files collected before the figures were pooled have none
        _compared("the figures shown (the second ply's, pooled down the expert's order)", shown)


def shown_rows(path: str) -> list[tuple[float, float, int, int, int, float]]:
    """(chance, expected score, won 0/1, score, cards placed, the futures' share) of every move played, as the
    screens showed its figures (pooled down the order: `evaluation.held_in_order`)."""
    rows = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                game = json.loads(line)
                for position in game["positions"]:
                    if position.get("shown") is not None:
                        two = Features(*position["two"])
                        chance, expected = position["shown"]
                        rows.append((chance, expected, int(game["won"]), game["score"], two.drawn, two.share))
    return rows


def _compared(what: str, predicted: list[tuple[float, float, int, int, int, float]]) -> None:
    """The tables of docs/figures.md for one kind of figure: by decile, by band of chance, by stage; the Brier
    score. A row: (chance, expected score, won 0/1, score, cards placed, the futures' share)."""
    lost = sum(1 for row in predicted if not row[2])
    print(f"\n{what}: {len(predicted)} positions, {lost} of them lost")
    print("\n| decile | predicted chance | observed | predicted score | observed |")
    print("| --- | --- | --- | --- | --- |")
    ranked = sorted(predicted, key=lambda row: (row[0], row[1]))
    for decile in range(10):
        part = ranked[len(ranked) * decile // 10 : len(ranked) * (decile + 1) // 10]
        chance = sum(row[0] for row in part) / len(part)
        seen = sum(row[2] for row in part) / len(part)
        score = sum(row[1] for row in part) / len(part)
        got = sum(row[3] for row in part) / len(part)
        print(f"| {decile + 1} | {chance:.1%} | {seen:.1%} | {score:.2f} | {got:.2f} |")
    print("\n| predicted chance | mean predicted | observed | positions |\n| --- | --- | --- | --- |")
    edges = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01)
    for low, high in zip(edges, edges[1:], strict=False):
        part = [row for row in predicted if low <= row[0] < high]
        if part:
            mean, seen = sum(r[0] for r in part) / len(part), sum(r[2] for r in part) / len(part)
            print(f"| {low:.0%} to {min(high, 1):.0%} | {mean:.1%} | {seen:.1%} | {len(part)} |")
    print("\n| cards placed | positions | predicted chance | observed | predicted score | observed |")
    print("| --- | --- | --- | --- | --- | --- |")
    for low, high in STAGES:
        part = [row for row in predicted if low <= row[4] <= high]
        if part:
            n = len(part)
            chance, seen = sum(r[0] for r in part) / n, sum(r[2] for r in part) / n
            score, got = sum(r[1] for r in part) / n, sum(r[3] for r in part) / n
            print(f"| {low} to {high} | {n} | {chance:.1%} | {seen:.1%} | {score:.2f} | {got:.2f} |")
    brier = sum((row[0] - row[2]) ** 2 for row in predicted) / len(predicted)
    share = sum(row[5] for row in predicted) / len(predicted)
    print(
        f"\nBrier score {brier:.4f}; the futures' raw share averages {share:.1%}, the chance "
        f"{sum(r[0] for r in predicted) / len(predicted):.1%}, the expert won from "
        f"{sum(r[2] for r in predicted) / len(predicted):.1%} of the positions"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("collect")
    run.add_argument("--start", type=int, required=True)
    run.add_argument("--count", type=int, required=True)
    run.add_argument("--save", required=True)
    run.add_argument("--jobs", type=int, default=1)
    run.add_argument("--without-c", action="store_true", help="the expert of an install without a compiler")
    fitting = commands.add_parser("fit")
    fitting.add_argument("file")
    fitting.add_argument("--out", required=True)
    checking = commands.add_parser("check")
    checking.add_argument("file")
    for command in (fitting, checking):
        command.add_argument("--without-c", action="store_true", help="its games were collected --without-c")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.start, args.count, args.save, args.jobs, args.without_c)
    elif args.command == "fit":
        fit(args.file, args.out, args.without_c)
    else:
        check(args.file, args.without_c)


if __name__ == "__main__":
    main()
