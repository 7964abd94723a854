"""Foursquare for learning agents: a Gymnasium environment (the optional extra `pip install -e '.[gym]'`).

Importing this module registers `foursquare/Foursquare-v0`; with Gymnasium 1.x,
which loads no plugins by itself, `gymnasium.make("foursquare_cli.agents.environment:
foursquare/Foursquare-v0")` imports and makes it in one call (the project also
declares the `gymnasium.envs` entry point, which older Gymnasium versions load).
The CLI never imports this module, gymnasium or numpy. It is a package of its own,
above the players, and it draws itself as Gymnasium's toy_text environments do: its
`ansi` render is a small grid of its own (`draw`), the top card of each pile and how
many cards the pile holds, face-down cards hidden, then the card in hand.

Actions, a public table independent of the engine's codes (`ACTIONS`):
`Discrete(36)`; `i` in 0-15 places the card on the empty cell `i` (cells row by
row: 0 = A1, 1 = B1, 2 = C1, 3 = D1, 4 = A2, ..., 15 = D4), `16 + i` places it on
top of the pile at cell `i`, and 32-35 are `shift up`, `shift down`, `shift left`,
`shift right`. The legal ones are `info["action_mask"]` and `env.action_masks()`
(sb3-contrib's `MaskablePPO` reads it). An illegal action does not raise: it ends
the episode with the reward `ILLEGAL_PENALTY` (-1) and `info["illegal"]` saying why.

Observations, what a player sees and never the stock (`observation_space`, a Dict):
`ranks` (each cell's top rank 1-10, 0 when empty), `face_up` (1 when the top card is
face up), `heights` (0-4), `hand` (the rank in hand 1-10, 0 once over), `unseen`
(how many of each rank, Ace to 10, are still to come).

Rewards: by default 1 + score/24 for a win and 0 for a loss, at the end;
`reward="score"` gives the score alone (0 for a loss). Shifts cost nothing, so an
episode is bounded (`max_episode_steps=200`).

Deals: `reset(seed=...)` draws the deal from the environment's generator;
`options={"deal": N}` pins one; `info["deal"]` names it, so an episode replays with
`foursquare replay`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..formats.records import format_record
from ..rules.cards import check_seed
from ..rules.engine import State
from ..rules.game import Game
from ..rules.moves import IllegalMoveError, Move

ACTIONS: tuple[Move, ...] = tuple(
    [Move.from_str(f"{'ABCD'[i % 4]}{i // 4 + 1}") for i in range(16)]
    + [Move.from_str(f"{'ABCD'[i % 4]}{i // 4 + 1} top") for i in range(16)]
    + [Move.from_str(f"shift {direction}") for direction in ("up", "down", "left", "right")]
)
ACTION_OF = {move: index for index, move in enumerate(ACTIONS)}
ILLEGAL_PENALTY = -1.0
ENV_ID = "foursquare/Foursquare-v0"


Observation = dict[str, Any]


def observation(state: State) -> Observation:
    """What a player sees of `state`, as the environment's observation."""
    ranks = np.zeros(16, dtype=np.int64)
    heights = np.zeros(16, dtype=np.int64)
    for cell, pile in enumerate(state.piles):
        if pile:
            ranks[cell] = pile[-1].rank
            heights[cell] = len(pile)
    face_up = np.array([1 if state.piles[cell] and state.is_face_up(cell) else 0 for cell in range(16)], dtype=np.int8)
    unseen = np.zeros(10, dtype=np.int64)
    for card in state.unseen_cards():
        unseen[card.rank - 1] += 1
    hand = state.next_card
    return {
        "ranks": ranks,
        "face_up": face_up,
        "heights": heights,
        "hand": np.int64(hand.rank if hand is not None else 0),
        "unseen": unseen,
    }


def draw(state: State) -> str:
    """The position as the `ansi` render shows it: a row a line (row 1 first), each cell its top card and how
    many cards its pile holds (`7Hx2`; `##x2` face down; `.` empty), then the card in hand, the stock and the
    face-down count. What a player sees: a face-down card is never named."""
    lines = ["    A     B     C     D"]
    for row in range(4):
        cells = []
        for cell in range(row * 4, row * 4 + 4):
            pile = state.piles[cell]
            top = str(pile[-1]) if pile and state.is_face_up(cell) else "##"
            cells.append(f"{top + 'x' + str(len(pile)):>5}" if pile else "    .")
        lines.append(f"{row + 1} " + " ".join(cells))
    hand = state.next_card
    lines.append(
        f"in hand {hand if hand is not None else '-'}, stock {state.stock}, face down {state.face_down}, {state.status}"
    )
    return "\n".join(lines)


def action_index(action: object) -> int:
    """The action as a Python int: a Python or numpy integer (or a numpy array holding one), nothing else.

    TypeError naming anything else (a float such as 5.9, a bool, None, a string): an
    agent that sends those has a bug that a silent `int()` would hide.
    """
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)) and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise TypeError(f"{action!r}: an action is an integer from 0 to 35 (a Python or numpy integer)")
    return int(action)


def action_mask(state: State) -> np.ndarray:
    """1 for each legal action of `state`, in the order of `ACTIONS`."""
    mask = np.zeros(36, dtype=np.int8)
    for move in state.legal_moves():
        mask[ACTION_OF[move]] = 1
    return mask


# Without the gym extra, gymnasium is Any to the type checker: the ignore is for that set-up alone.
class FoursquareEnv(gymnasium.Env[Observation, np.int64]):  # type: ignore[misc, unused-ignore]
    """One game of Foursquare an episode (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None, reward: str = "win") -> None:
        if reward not in ("win", "score"):
            raise ValueError(f"{reward!r}: the reward is 'win' (1 + score/24 for a win) or 'score'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"{render_mode!r}: the render mode is 'ansi'")
        self.render_mode = render_mode
        self.reward = reward
        self.action_space = spaces.Discrete(36)
        self.observation_space = spaces.Dict(
            {
                "ranks": spaces.MultiDiscrete([11] * 16),
                "face_up": spaces.MultiBinary(16),
                "heights": spaces.MultiDiscrete([5] * 16),
                "hand": spaces.Discrete(11),
                "unseen": spaces.MultiDiscrete([5] * 10),
            }
        )
        self.state = State.from_seed(0)
        self.deal = 0
        self.moves: list[Move] = []
        self.ended = False  # the episode has ended (the game, or an illegal action)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": action_mask(self.state), "deal": self.deal, **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        pinned = (options or {}).get("deal")
        if isinstance(pinned, np.integer):
            pinned = int(pinned)  # numpy's whole numbers are deal numbers too; 1.5, "42", True and nan are not
        self.deal = check_seed(pinned) if pinned is not None else int(self.np_random.integers(0, 2**32))
        self.state = State.from_seed(self.deal)
        self.moves = []
        self.ended = False
        return observation(self.state), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        index = action_index(action)
        if not 0 <= index < 36 or self.ended or self.state.is_over:
            reason = "the episode is over" if self.ended or self.state.is_over else f"{index}: not an action (0 to 35)"
            self.ended = True
            return observation(self.state), ILLEGAL_PENALTY, True, False, self._info(illegal=reason)
        move = ACTIONS[index]
        try:
            self.state.apply(move)
        except IllegalMoveError as error:
            self.ended = True
            return observation(self.state), ILLEGAL_PENALTY, True, False, self._info(illegal=str(error))
        self.ended = self.state.is_over
        self.moves.append(move)
        outcome = self.state.outcome
        reward = 0.0
        if outcome.score is not None:
            reward = float(outcome.score) if self.reward == "score" else 1.0 + outcome.score / 24
        return observation(self.state), reward, self.state.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        return action_mask(self.state)

    def render(self) -> str | None:
        return draw(self.state) if self.render_mode == "ansi" else None

    def record(self) -> str:
        """The episode so far as a game record (protocol.md section 4), for `foursquare check` and `replay`."""

        game = Game.from_seed(self.deal)
        game.play_all(self.moves)
        return format_record(game)


def register_envs() -> None:
    """Register `foursquare/Foursquare-v0` (importing this module does it)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:FoursquareEnv", max_episode_steps=200)


register_envs()


def policy_player(policy: Any) -> type:
    """A player class for `--player module:attribute` from a policy: a function `(observation, mask) ->
    action`, or an object with `predict(observation, action_masks=mask)` (as sb3-contrib's models have)."""

    class PolicyPlayer:
        name = "policy"

        def __init__(self, seed: int = 0) -> None:
            self.seed = seed

        def choose(self, state: State) -> Move:
            seen, mask = observation(state), action_mask(state)
            if hasattr(policy, "predict"):
                action = policy.predict(seen, action_masks=mask)[0]
            else:
                action = policy(seen, mask)
            return ACTIONS[int(action)]

    return PolicyPlayer
