"""The meter's calibration (issue 34, point 5): what the expert's futures say against what the expert then does.

The expert rates a position by futures (the unseen cards shuffled anew, each played
out by the greedy policy filling first). Those futures win far less often than the
expert does (it plays better than the playout), so their share of wins is not the
chance to win. This script measures the relation and writes the table the tool
maps through (`foursquare_cli/players/calibration_table.py`):

    collect: deals played from positions of every kind: a prefix of moves by a weaker
             player (none, random or plain greedy; its length drawn at random, so
             positions a person reaches, good and bad, are covered), then the expert
             at its default budget to the end. Each position the expert moves from
             is one observation: the stage (cards placed), its futures' share of wins
             and expected score (the best move's), and what the expert then got: won
             or lost, and the score (a loss counting 0). One JSON line a deal, as it
             ends; the same command resumes a stopped run.
    fit:     for each stage band, an isotonic (monotone, pool-adjacent-violators) fit of
             the outcome on the futures' figure: the chance on the share of wins, the
             expected score on the futures' expected score; written as the table module.
    check:   predicted against observed by decile, on deals the fit never saw.

Run (the commands of docs/figures.md):
    python benchmarks/meter_calibration.py collect --start 4000000 --count 1000 --save fit.jsonl --jobs 2
    python benchmarks/meter_calibration.py fit fit.jsonl --out foursquare_cli/players/calibration_table.py
    python benchmarks/meter_calibration.py collect --start 4100000 --count 500 --save check.jsonl --jobs 2
    python benchmarks/meter_calibration.py check check.jsonl

The deals 4000000 and up were never used to tune anything. Asserts nothing; prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foursquare_cli.players.expert import ExpertPlayer
from foursquare_cli.players.greedy import GreedyPlayer
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State

PREFIXES = ("none", "random", "greedy")
LONGEST_PREFIX = 30


def observed_deal(seed: int) -> dict[str, Any]:
    """One deal: a weaker prefix, then the expert; every position the expert rated, with the outcome."""
    rng = random.Random(f"calibration:{seed}")
    kind = rng.choice(PREFIXES)
    length = 0 if kind == "none" else rng.randint(1, LONGEST_PREFIX)
    state = State(deal(seed))
    greedy = GreedyPlayer()
    for _ in range(length):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()) if kind == "random" else greedy.choose(state))
    expert = ExpertPlayer(seed)
    positions = []
    while not state.is_over:
        best = expert.rate(state)[0]  # what `choose` plays, rated once
        if best.samples:
            positions.append([state.drawn, round(best.win_rate, 5), round(best.expected_score, 4)])
        state.apply(best.move)
        if best.then is not None:
            state.apply(best.then)
    outcome = state.outcome
    return {"seed": seed, "prefix": kind, "length": length, "positions": positions,
            "won": outcome.score is not None, "score": outcome.score or 0}  # fmt: skip


def collect(start: int, count: int, save: str, jobs: int) -> None:
    done = set()
    if os.path.exists(save):
        with open(save, encoding="utf-8") as lines:
            done = {json.loads(line)["seed"] for line in lines if line.strip()}
    seeds = [seed for seed in range(start, start + count) if seed not in done]
    with open(save, "a", encoding="utf-8") as out, ProcessPoolExecutor(jobs) as pool:
        for number, result in enumerate(pool.map(observed_deal, seeds, chunksize=1), 1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            if number % 20 == 0:
                print(f"{number + len(done)} of {count} deals", file=sys.stderr)


def observations(path: str) -> list[tuple[int, float, float, int, int]]:
    """(stage, futures' share of wins, futures' expected score, won 0/1, score) for every position of the file."""
    rows = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                game = json.loads(line)
                rows.extend((drawn, w, es, int(game["won"]), game["score"]) for drawn, w, es in game["positions"])
    return rows


def isotonic(points: list[tuple[float, float]]) -> list[tuple[float, float, int]]:
    """Pool-adjacent-violators: the nondecreasing fit of y on x, as (x, y) knots (the mean x of each block)."""
    blocks: list[list[float]] = []  # [sum x, sum y, n]
    for x, y in sorted(points):
        blocks.append([x, y, 1.0])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            x2, y2, n2 = blocks.pop()
            blocks[-1][0] += x2
            blocks[-1][1] += y2
            blocks[-1][2] += n2
    return [(round(sx / n, 4), round(sy / n, 4), int(n)) for sx, sy, n in blocks]


def never_certain(knots: list[tuple[float, float, int]]) -> list[tuple[float, float, int]]:
    """A chance a block of n positions saw come true every time (or never) is not certainty: such a block's
    share gets half a win and half a loss added ((wins + 0.5) / (n + 1)); the others are left as fitted (so
    as not to pull the middle toward a half), and the whole kept nondecreasing."""
    out, floor = [], 0.0
    for x, y, n in knots:
        share = (y * n + 0.5) / (n + 1) if y in (0.0, 1.0) else y
        floor = max(floor, share)
        out.append((x, round(floor, 4), n))
    return out


def thinned(knots: list[tuple[float, float, int]], most: int = 60) -> list[tuple[float, float]]:
    """At most `most` knots, evenly spread, the first and last kept: a small table, the same curve."""
    if len(knots) > most:
        step = (len(knots) - 1) / (most - 1)
        knots = [knots[round(i * step)] for i in range(most)]
    return [(x, y) for x, y, _ in knots]


def fit(path: str, out: str) -> None:
    from foursquare_cli.players.calibration import BANDS

    rows = observations(path)
    chance, score = [], []
    for low, high in BANDS:
        band = [row for row in rows if low <= row[0] <= high]
        chance.append(thinned(never_certain(isotonic([(w, won) for _, w, _, won, _ in band]))))
        score.append(thinned(isotonic([(es, points) for _, _, es, _, points in band])))
        print(f"cards placed {low}-{high}: {len(band)} positions", file=sys.stderr)
    games = sum(1 for line in open(path, encoding="utf-8") if line.strip())
    text = (
        '"""The meter\'s calibration table, written by `benchmarks/meter_calibration.py fit` (do not edit by hand):\n'
        f"{len(rows)} positions of {games} deals from {os.path.basename(path)}. For each band of cards placed\n"
        "(`calibration.BANDS`), the knots (futures' figure, the expert's outcome) of an isotonic fit.\n"
        '"""\n\n'
        f"CHANCE = {table_text(chance)}\n"
        f"SCORE = {table_text(score)}\n"
    )
    with open(out, "w", encoding="utf-8") as module:
        module.write(text)
    print(f"wrote {out}", file=sys.stderr)


def table_text(bands: list[list[list[float]]]) -> str:
    """The bands' knots as Python, a knot a line, as `ruff format` leaves it (the package's line length holds)."""
    from foursquare_cli.players.calibration import BANDS

    lines = ["["]
    for (low, high), knots in zip(BANDS, bands, strict=True):
        lines.append(f"    [  # cards placed {low}-{high}")
        lines.extend(f"        {json.dumps(knot)}," for knot in knots)
        lines.append("    ],")
    return "\n".join(lines + ["]"])


def check(path: str) -> None:
    from foursquare_cli.players.calibration import calibrated_chance, calibrated_score

    rows = observations(path)
    predicted = sorted((calibrated_chance(w, drawn), won) for drawn, w, _, won, _ in rows)
    print(f"{len(rows)} positions; the chance to win, by decile of the prediction:")
    print("  decile   predicted   observed   positions")
    for decile in range(10):
        part = predicted[len(predicted) * decile // 10 : len(predicted) * (decile + 1) // 10]
        mean_p = sum(p for p, _ in part) / len(part)
        mean_o = sum(o for _, o in part) / len(part)
        print(f"  {decile + 1:>6}   {mean_p:>8.1%}   {mean_o:>8.1%}   {len(part):>9}")
    print("and by band of the chance predicted (most positions are safe, so the deciles crowd near 100%):")
    print("  predicted       mean   observed   positions")
    edges = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01)
    for low, high in zip(edges, edges[1:], strict=False):
        part = [(p, o) for p, o in predicted if low <= p < high]
        if part:
            mean_p, mean_o = sum(p for p, _ in part) / len(part), sum(o for _, o in part) / len(part)
            print(f"  {low:>4.0%} to {min(high, 1):>4.0%}   {mean_p:>6.1%}   {mean_o:>8.1%}   {len(part):>9}")
    scores = sorted((calibrated_score(es, drawn), points) for drawn, _, es, _, points in rows)
    print("the expected score (a loss counting 0), by decile of the prediction:")
    print("  decile   predicted   observed")
    for decile in range(10):
        part = scores[len(scores) * decile // 10 : len(scores) * (decile + 1) // 10]
        print(f"  {decile + 1:>6}   {sum(p for p, _ in part) / len(part):>9.2f}   "
              f"{sum(o for _, o in part) / len(part):>8.2f}")  # fmt: skip
    raw = sum(w for _, w, _, _, _ in rows) / len(rows)
    won = sum(won for _, _, _, won, _ in rows) / len(rows)
    mean = sum(p for p, _ in predicted) / len(rows)
    print(f"the futures' share of wins averages {raw:.1%}, the calibrated chance {mean:.1%};"
          f" the expert won from {won:.1%} of the positions")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("collect")
    run.add_argument("--start", type=int, required=True)
    run.add_argument("--count", type=int, required=True)
    run.add_argument("--save", required=True)
    run.add_argument("--jobs", type=int, default=1)
    fitting = commands.add_parser("fit")
    fitting.add_argument("file")
    fitting.add_argument("--out", required=True)
    checking = commands.add_parser("check")
    checking.add_argument("file")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.start, args.count, args.save, args.jobs)
    elif args.command == "fit":
        fit(args.file, args.out)
    else:
        check(args.file)


if __name__ == "__main__":
    main()
