"""Valuations of the expert side by side: each plays the same deals, and each is compared with the first
deal by deal (the difference of scores, a loss counting 0, with its standard error), so a few hundred deals
tell a change of a point from noise. For tuning on deals of our own (20000 and up), never on the ranges the
figures are published for.

A variant is `key=value` pairs joined by commas: `n` playouts a move (1500), `w` the score weight (0.01),
`d` the loss decay (0.8), `P` the near-loss penalty (0), `K` the cards a near loss is within (2), `F` 1 for
futures played filling first (0); `T` the expert's best T moves looked at two plies deep (0: off; see
`ExpertPlayer`'s second_ply), with `m` playouts for each reply (n / 20), and `R` each reply's own best
moves looked at again over the card after (0), `t` 1 for each reply's futures stopped six cards on to read the
tail table (0; `reply_table`). A key left out takes the value of the expert before issue 25
(in brackets), so the commands in docs/figures.md repeat their runs. Two names stand for whole experts:
`now`, the expert as it ships (`ExpertPlayer()`), and `previous`, the expert before issue 51
(n=20000,w=0.12,P=2,F=1,T=3,R=0), so that

    python benchmarks/expert_variants.py --start 0 --count 1000 previous now --jobs 2

prints the two side by side on the same deals, each deal's difference with its standard error. Without a
compiler the expert is another: `python-previous`, `python-to-the-end` and `python-now` name it before issue 51,
before the tail table and now (played in C where it was built: the same moves, thirty times sooner).

Run: python benchmarks/expert_variants.py --start 20350 --count 200 n=1500 n=1500,w=0.05,P=1 [--jobs 2]
Prints figures (and with --save, one JSON line a game as it ends: the same command resumes a stopped run);
asserts nothing. docs/figures.md has runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from foursquare_cli.players.expert import ExpertPlayer, expert_without_c
from foursquare_cli.players.futures import Valuation
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State

KEYS = {"n": int, "w": float, "d": float, "P": float, "K": int, "F": int, "T": int, "m": int, "R": int, "t": int}
NAMED = {
    "previous": "n=20000,w=0.12,P=2,F=1,T=3,R=0",
    "python-previous": "n=1000,w=0.12,P=2,F=1,T=3,m=50,R=0",  # without C, before issue 51
    "python-to-the-end": "n=1000,w=0.12,P=2,F=1,T=10,m=100,R=0",  # without C, before the tail table
}  # and "now": the expert as it ships with this build's playouts; "python-now": as it ships without C


def parsed(variant: str) -> dict[str, float]:
    if variant in ("now", "python-now"):
        return {}
    pairs = dict(part.split("=", 1) for part in NAMED.get(variant, variant).split(",") if part)
    unknown = set(pairs) - set(KEYS)
    if unknown:
        raise SystemExit(f"{variant}: unknown keys {', '.join(sorted(unknown))}; the keys are {', '.join(KEYS)}")
    return {key: KEYS[key](value) for key, value in pairs.items()}


class Game(NamedTuple):
    variant: str
    seed: int
    score: int | None  # None when lost
    cpu: float
    moves: int = 0  # moves played (shifts too), for the CPU a move


def play(task: tuple[str, int]) -> Game:
    variant, seed = task
    p = parsed(variant)
    if variant == "now":
        return played_out(variant, seed, ExpertPlayer(seed))
    if variant == "python-now":
        return played_out(variant, seed, expert_without_c(seed))
    valuation = Valuation(p.get("w", 0.01), p.get("d", 0.8), p.get("P", 0.0), int(p.get("K", 2)))
    player = ExpertPlayer(
        seed,
        int(p.get("n", 1500)),
        valuation=valuation,
        fill_first=bool(p.get("F", 0)),
        second_ply=int(p.get("T", 0)),
        reply_playouts=int(p["m"]) if "m" in p else None,
        reply_second_ply=int(p.get("R", 0)),
        reply_table=int(p.get("t", 0)),
    )
    return played_out(variant, seed, player)


def played_out(variant: str, seed: int, player: ExpertPlayer) -> Game:
    state = State(deal(seed))
    began = time.process_time()
    moves = 0
    while not state.is_over:
        state.apply(player.choose(state))
        moves += 1
    return Game(variant, seed, state.outcome.score, time.process_time() - began, moves)


def saved_games(path: str | None) -> list[Game]:
    """The games a stopped run with the same --save file already played (a cut last line dropped)."""
    if not path or not os.path.exists(path):
        return []
    games = []
    with open(path, encoding="utf-8") as saved:
        for line in saved:
            try:
                games.append(Game(**json.loads(line)))
            except (ValueError, TypeError):
                continue
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--start", type=int, default=20000)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="a JSON Lines file, one line a game as it ends; rerun to resume")
    args = parser.parse_args()
    for variant in args.variants:
        parsed(variant)
    tasks = [(variant, seed) for seed in range(args.start, args.start + args.count) for variant in args.variants]
    done = {(game.variant, game.seed): game for game in saved_games(args.save)}
    with ProcessPoolExecutor(args.jobs) as pool, open(args.save or os.devnull, "a", encoding="utf-8") as saved:
        for game in pool.map(play, [task for task in tasks if task not in done]):
            saved.write(json.dumps(game._asdict()) + "\n")
            saved.flush()
            done[game.variant, game.seed] = game
    games = [done[task] for task in tasks]
    first = [game.score or 0 for game in games if game.variant == args.variants[0]]
    print(f"deals {args.start} to {args.start + args.count - 1}; differences against {args.variants[0]}, deal by deal")
    for variant in args.variants:
        mine = [game for game in games if game.variant == variant]
        won = [game.score for game in mine if game.score is not None]
        lost = [game.seed for game in mine if game.score is None]
        diff = [(game.score or 0) - other for game, other in zip(mine, first, strict=True)]
        mean = sum(diff) / len(diff)
        spread = math.sqrt(sum((x - mean) ** 2 for x in diff) / max(1, len(diff) - 1) / len(diff))
        print(
            f"{variant:>28}: won {len(won)} of {len(mine)}, mean score of wins {sum(won) / max(1, len(won)):.2f}, "
            f"{mean:+.2f} ± {spread:.2f} a deal, {sum(game.cpu for game in mine) / len(mine):.1f} s a game "
            f"({sum(game.cpu for game in mine) / max(1, sum(game.moves for game in mine)):.2f} s of CPU a move); "
            f"lost {lost or 'none'}"
        )


if __name__ == "__main__":
    main()
