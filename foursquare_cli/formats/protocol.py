"""The lines of the move protocol: what an outside player is sent.

A state is its step's own JSON (`rules.game.Step.to_json`: what `replay --format json`
and `play --format json` print) with one more key, `legal`: every legal move in
canonical notation, placements before shifts (`State.legal_moves`'s order), empty once
the game is over. Before each game a `module:` player's host is told the seed of its
player (`PlayerSeedLine`), a line of the tool's own between it and its host.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..rules.game import Step
from .jsonl import json_line


class ProtocolState(NamedTuple):
    """The state after a step, as an outside player is sent it."""

    step: Step

    def to_json(self) -> dict[str, Any]:
        return {**self.step.to_json(), "legal": [str(move) for move in self.step.state.legal_moves()]}


class PlayerSeedLine(NamedTuple):
    """What a `module:` player's host is told before a game: the seed to build its player with, and the settings
    (a registered player's of another package, `players.registry`)."""

    seed: int
    settings: dict[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        return {"player_seed": self.seed, "settings": self.settings}


def state_line(step: Step) -> str:
    """The state after `step` as one line of the move protocol."""
    return json_line(ProtocolState(step).to_json())
