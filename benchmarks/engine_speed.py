"""Engine speed: moves applied per second on known-legal games, and random games per second.

Run: python benchmarks/engine_speed.py [--games N]. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

from foursquare_cli.rules.engine import State


def random_game(seed: int, rng: random.Random) -> list:
    state = State.from_seed(seed)
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        state.apply(move)
        moves.append(move)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000)
    args = parser.parse_args()
    rng = random.Random(1)

    start = time.perf_counter()
    games = [(seed, random_game(seed, rng)) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    print(f"random games (legal-move generation included): {args.games / elapsed:,.0f} games/s")

    starts = [(State.from_seed(seed), moves) for seed, moves in games]
    total = sum(len(moves) for _, moves in games)
    start = time.perf_counter()
    for initial, moves in starts:
        state = initial.copy()
        for move in moves:
            state.apply(move)
    elapsed = time.perf_counter() - start
    print(f"replaying known-legal games: {total / elapsed:,.0f} moves/s ({total:,} moves)")


if __name__ == "__main__":
    main()
