"""Engine speed: moves applied per second on known-legal games, random games per second, and greedy
playouts per second (the expert's inner loop); the best of several rounds, so a busy machine counts less.

Run: python benchmarks/engine_speed.py [--games N] [--rounds R] [--against DIR]
With --against, the same figures for the checkout in DIR (an older version, say
`git worktree add /tmp/before HEAD~1`) are measured in the same run and printed
beside these, with their ratio. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Any


def _engine() -> tuple[Any, Any]:
    """`State`, and a function playing the greedy playout to the end: this tree's, or an older one's."""
    try:
        from foursquare_cli.rules import playout
        from foursquare_cli.rules.engine import State

        return State, playout.finish
    except ImportError:  # before the layers: the playout was a method of State
        from foursquare_cli.engine import State  # type: ignore[import-not-found, no-redef]

        return State, lambda state: state.copy().finish_greedily()


def measure(games: int, rounds: int) -> dict[str, float]:
    state_class, finish = _engine()
    rng = random.Random(1)
    played = []
    best_random = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        played = []
        for seed in range(games):
            state = state_class.from_seed(seed)
            moves = []
            while not state.is_over:
                move = rng.choice(state.legal_moves())
                state.apply(move)
                moves.append(move)
            played.append((seed, moves))
        best_random = max(best_random, games / (time.perf_counter() - start))
    starts = [(state_class.from_seed(seed), moves) for seed, moves in played]
    total = sum(len(moves) for _, moves in played)
    best_replay = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        for initial, moves in starts:
            state = initial.copy()
            for move in moves:
                state.apply(move)
        best_replay = max(best_replay, total / (time.perf_counter() - start))
    fresh = [state_class.from_seed(seed) for seed in range(games)]
    figures = {"random games/s": best_random, "replayed moves/s": best_replay}
    figures["greedy playouts/s"] = _playouts_per_second(finish, fresh, rounds)
    python = _python_playout()
    if python is not None:  # since the C playout: its Python reference, measured beside it
        figures["greedy playouts/s, Python"] = _playouts_per_second(python, fresh, rounds)
    return figures


def _playouts_per_second(finish: Any, states: list[Any], rounds: int) -> float:
    """The best of `rounds` rounds of `finish` on every one of `states`, in playouts a second."""
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        for state in states:
            finish(state)
        best = max(best, len(states) / (time.perf_counter() - start))
    return best


def _python_playout() -> Any:
    """The Python version of the playout when this tree has a C one beside it, else None."""
    try:
        from foursquare_cli.rules import playout
    except ImportError:
        return None
    reference = getattr(playout, "_finish_python", None)
    if reference is None:
        return None
    return lambda state: reference(playout.stock_of(state), *playout.start_of(state))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", metavar="DIR", help="another checkout to measure beside this one")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.games, args.rounds)))
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = [("this tree", here)] + ([("--against", os.path.abspath(args.against))] if args.against else [])
    figures = {}
    for name, tree in trees:
        command = [sys.executable, os.path.abspath(__file__), "--json", "--games", str(args.games)]
        command += ["--rounds", str(args.rounds)]
        run = subprocess.run(command, env=dict(os.environ, PYTHONPATH=tree), capture_output=True, text=True, check=True)
        figures[name] = json.loads(run.stdout)
    for key in figures["this tree"]:
        line = f"{key:>26}: {figures['this tree'][key]:>12,.0f}"
        other = figures.get("--against", {}).get(key)
        if other:
            line += f"   against {other:>12,.0f}   ratio {figures['this tree'][key] / other:.3f}"
        print(line)


if __name__ == "__main__":
    main()
