"""The lines of the move protocol: what an outside player is sent.

A state is its step's own JSON (`rules.game.Step.to_json`: what `replay --format json`
and `play --format json` print) with one more key, `legal`: every legal move in
canonical notation, placements before shifts (`State.legal_moves`'s order), empty once
the game is over. Before each game a `module:` player's host is told the seed of its
player (`PlayerSeedLine`), a line of the tool's own between it and its host; and a host asked to
read another package's player (`players.plugins`) answers with its `PlayerDescription`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..rules.cards import RANK_NAMES
from ..rules.game import Step
from .jsonl import json_line

# The versions of the protocol: `api.PROTOCOL_VERSIONS` (the lowest layer that reads them, in state_from_protocol).


class ProtocolState(NamedTuple):
    """The state after a step, as an outside player is sent it (`version` 2: with `protocol`, `move_time` and
    `unseen`, the cards of each rank neither on the grid, at any depth, nor in hand, so a program that joins a
    game part-way can count the cards to come)."""

    step: Step
    version: int = 1
    move_time: float = 0.0

    def to_json(self) -> dict[str, Any]:
        state = self.step.state
        said = {**self.step.to_json(), "legal": [str(move) for move in state.legal_moves()]}
        if self.version >= 2:
            counts = state.unseen_by_rank()
            said |= {
                "protocol": self.version,
                "move_time": self.move_time,
                "unseen": {rank: count for rank, count in zip(RANK_NAMES, counts, strict=True)},
            }
        return said


class PlayerSeedLine(NamedTuple):
    """What a `module:` player's host is told before a game: the seed to build its player with, and the settings
    (a registered player's of another package, `players.registry`)."""

    seed: int
    settings: dict[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        return {"player_seed": self.seed, "settings": self.settings}


class PlayerDescription(NamedTuple):
    """What a host reads off another package's player, for the tool to name it without importing it: its
    summary, and its settings as the names of their types (`int`, `float`, `str` or `bool`)."""

    summary: str
    settings: dict[str, str] = {}

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary, "settings": self.settings}


def state_line(step: Step, version: int = 1, move_time: float = 0.0) -> str:
    """The state after `step` as one line of the move protocol (of `version`)."""
    return json_line(ProtocolState(step, version, move_time).to_json())
