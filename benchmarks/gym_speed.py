"""Environment steps a second through `gymnasium.make` (its default wrappers: the order enforcer, the passive
checker, the time limit), beside the engine's own moves a second on the same games, in one run.

Run: python benchmarks/gym_speed.py [--episodes 500]. Needs the gym extra. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import foursquare_cli.agents.environment  # noqa: F401  (registers foursquare/Foursquare-v0)
from foursquare_cli.rules.engine import State


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=500)
    args = parser.parse_args()
    env = gymnasium.make("foursquare/Foursquare-v0")
    rng = np.random.default_rng(1)
    games = []
    steps = 0
    started = time.perf_counter()
    for episode in range(args.episodes):
        _, info = env.reset(seed=episode)
        moves, done = [], False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, truncated, info = env.step(action)
            moves.append(foursquare_cli.agents.environment.ACTIONS[action])
            steps += 1
            done = terminated or truncated
        games.append((info["deal"], moves))
    through_gym = steps / (time.perf_counter() - started)
    started = time.perf_counter()
    for deal, moves in games:
        state = State.from_seed(deal)
        for move in moves:
            state.apply(move)
    engine = steps / (time.perf_counter() - started)
    print(f"gymnasium.make, random masked actions: {through_gym:>10,.0f} steps/s ({steps:,} steps)")
    print(f"the engine alone, the same moves:      {engine:>10,.0f} moves/s")


if __name__ == "__main__":
    main()
