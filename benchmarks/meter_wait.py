"""The meter's wait: the time from a move at the prompt to the meter's line, for moves off the expert's line.

Run: python benchmarks/meter_wait.py [--deals N] [--start SEED] [--think SECONDS] [--moves N]. Each deal is
played through a `Session` as the prompt plays it with `--meter` (the default expert): at every move the
look-ahead starts, the player "thinks" for `--think` seconds, then plays a move drawn at random among those
the expert does not rank in its best three (one that does not end the game at once, when there is one), and
the meter's reading is timed. It prints the median, the 90th percentile and the largest wait, with
`--think` and with none, side by side. Without a compiler: FOURSQUARE_PLAYOUTS=python. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from foursquare_cli.app.session import Session
from foursquare_cli.players.evaluation import Rating
from foursquare_cli.rules.engine import state_after
from foursquare_cli.rules.game import Game
from foursquare_cli.rules.playout import ACCELERATED


def waits(start: int, deals: int, moves: int, think: float) -> list[float]:
    """The meter's wait after each move off the expert's line (not among its best three), over `deals` deals.
    The move is drawn before anything of the expert's is read, so that no wait is spent before the clock."""
    rng = random.Random(start)
    measured: list[float] = []
    for seed in range(start, start + deals):
        session = Session(Game.from_seed(seed))
        for _ in range(moves):
            state = session.game.state
            if state.is_over:
                break
            placements = state.legal_placements()
            living = [move for move in placements if not state_after(state, move).is_over] or placements
            session.look_ahead()
            time.sleep(think)
            session.stop_looking()
            chosen = rng.choice(living)
            began = time.perf_counter()
            session.play(chosen)
            session.meter_reading()
            waited = time.perf_counter() - began
            ranked = session.evaluation_of(session.game.steps[-2]).distinct()  # worked out by now
            if session.game.state.key() not in ranked_keys(session, ranked[:3]):
                measured.append(waited)
    return measured


def ranked_keys(session: Session, ratings: list[Rating]) -> set[object]:
    """The positions the expert's best moves lead to (a move off its line leads to none of them)."""
    before = session.game.steps[-2].state
    return {state_after(before, rating.move, rating.then).key() for rating in ratings}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--start", type=int, default=9100000, help="the first deal (deals no one tuned on)")
    parser.add_argument("--moves", type=int, default=8, help="moves timed a deal")
    parser.add_argument("--think", type=float, default=1.5, help="seconds of thought before each move")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # one row, in a fresh process
    options = parser.parse_args()
    if options.one:  # the expert remembers the positions it evaluated: each row is measured in its own process
        timed = sorted(waits(options.start, options.deals, options.moves, options.think))
        ninetieth = timed[min(len(timed) - 1, int(0.9 * len(timed)))]
        think = options.think
        print(f"{think:>8.1f} {len(timed):>6} {statistics.median(timed):>9.3f} {ninetieth:>8.3f} {timed[-1]:>8.3f}")
        return
    print(f"playouts in {'C' if ACCELERATED else 'Python'}; deals {options.start} on, {options.deals} of them")
    print(f"{'thought':>8} {'moves':>6} {'median s':>9} {'90th s':>8} {'most s':>8}", flush=True)
    for think in (options.think, 0.0):
        arguments = ["--deals", str(options.deals), "--start", str(options.start), "--moves", str(options.moves)]
        subprocess.run([sys.executable, __file__, "--one", "--think", str(think), *arguments], check=True)


if __name__ == "__main__":
    main()
