"""Train a small policy for Foursquare with numpy alone, then measure it with `foursquare compare`.

The policy sees only the environment's observation. For each legal placement it
works out, from the observation, what the flip rule would do, and scores the move
by a linear function of four features: the face-down cards it would add (or remove),
whether it goes on a pile, the pile's height, the piles next to the cell. It plays
the best placement. The weights are trained by the cross-entropy method on deals
50000 and up (kept apart from the published ranges), through the Gymnasium
environment, and saved beside this file.

    pip install -e '.[gym]'
    python examples/train_cem.py                          # trains; writes examples/cem_weights.json
    PYTHONPATH=examples foursquare compare train_cem:Trained random greedy -n 500

About two minutes on one core. docs/agents.md has a run's figures.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np

from foursquare_cli.agents.environment import FoursquareEnv, policy_player

WEIGHTS = pathlib.Path(__file__).with_name("cem_weights.json")
FEATURES = 4
_LINES = [[[r * 4 + c for c in range(4) if c != cell % 4] for r in [cell // 4]][0] for cell in range(16)]
_COLUMNS = [[r * 4 + cell % 4 for r in range(4) if r != cell // 4] for cell in range(16)]
_NEAR = [
    [n for n in (cell - 4, cell + 4) if 0 <= n < 16] + [n for n in (cell - 1, cell + 1) if n // 4 == cell // 4]
    for cell in range(16)
]
Observation = dict[str, Any]  # the environment's observation: arrays by name


def features(observation: Observation, action: int) -> tuple[np.ndarray, int]:
    """The features of a placement (action 0-31), and the face-down count it would leave."""
    cell, on_top = action % 16, action >= 16
    ranks, up, heights, hand = observation["ranks"], observation["face_up"], observation["heights"], observation["hand"]
    down_now = int(((heights > 0) & (up == 0)).sum())
    change = -1 if on_top and not up[cell] else 0  # a face-down top covered is no longer counted
    for others in (_LINES[cell], _COLUMNS[cell]):
        piles = [other for other in others if heights[other]]
        face_up = [int(ranks[other]) for other in piles if up[other]]
        if not face_up or hand > max(face_up) or hand < min(face_up):  # the line turns
            change += len(face_up) - (len(piles) - len(face_up))
    near = sum(1 for other in _NEAR[cell] if heights[other])
    return np.array([change, on_top, heights[cell], near], dtype=float), down_now + change


def policy(weights: np.ndarray) -> Callable[[Observation, np.ndarray], int]:
    """A policy (observation, mask) -> action: the best scoring placement that does not lose at once."""

    def act(observation: Observation, mask: np.ndarray) -> int:
        best, best_value = int(np.flatnonzero(mask)[0]), -np.inf
        for action in np.flatnonzero(mask[:32]):
            found, down = features(observation, int(action))
            value = -1e9 if down > 4 else float(weights @ found)
            if value > best_value:
                best, best_value = int(action), value
        return best

    return act


def mean_reward(weights: np.ndarray, deals: range) -> float:
    env, act = FoursquareEnv(), policy(weights)
    total = 0.0
    for deal in deals:
        seen, info = env.reset(options={"deal": deal})
        done = False
        while not done:
            seen, reward, done, _, info = env.step(act(seen, info["action_mask"]))
        total += float(reward)
    return total / len(deals)


def train(
    iterations: int = 10, population: int = 24, elites: int = 6, deals: range = range(50000, 50100)
) -> np.ndarray:
    rng = np.random.default_rng(0)
    mean, spread = np.zeros(FEATURES), np.ones(FEATURES)
    for iteration in range(iterations):
        candidates = rng.normal(mean, spread, size=(population, FEATURES))
        scores = np.array([mean_reward(candidate, deals) for candidate in candidates])
        best = candidates[np.argsort(scores)[-elites:]]
        mean, spread = best.mean(axis=0), best.std(axis=0) + 0.05
        print(f"iteration {iteration + 1}: best {scores.max():.3f}, mean {scores.mean():.3f}", flush=True)
    return mean


_trained = np.array(json.loads(WEIGHTS.read_text())) if WEIGHTS.exists() else np.array([-1.0, 0.0, 0.0, 0.0])
Trained = policy_player(policy(_trained))  # for --player train_cem:Trained

if __name__ == "__main__":
    weights = train()
    WEIGHTS.write_text(json.dumps([round(float(w), 4) for w in weights]) + "\n")
    print(f"weights {weights.round(3).tolist()} written to {WEIGHTS}")
