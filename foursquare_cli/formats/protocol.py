"""The states of SPEC section 5 as JSON, and the lines of the move protocol (SPEC section 7).

`state_json` is what `replay --format json`, `play --format json` and an outside
program are shown: every key of section 5, in its order, face-down cards named
(programs are trusted with the whole grid). `json_line` is one object on one line.
"""

from __future__ import annotations

import json
from typing import Any

from ..rules.game import Step


def state_json(step: Step) -> dict[str, Any]:
    """The state as SPEC section 5 gives it, keys in the spec's order."""
    state = step.state
    outcome = state.outcome
    next_card = state.next_card
    grid = []
    for row in range(4):
        cells: list[dict[str, Any] | None] = []
        for cell in range(row * 4, row * 4 + 4):
            pile = state.piles[cell]
            cells.append({"card": str(pile[-1]), "up": state.is_face_up(cell), "height": len(pile)} if pile else None)
        grid.append(cells)
    return {
        "ply": step.ply,
        "move": None if step.move is None else str(step.move),
        "card": None if step.card is None else str(step.card),
        "next": None if next_card is None else str(next_card),
        "stock": state.stock,
        "face_down": state.face_down,
        "status": str(outcome.status),
        "score": outcome.score,
        "grid": grid,
    }


def json_line(value: object) -> str:
    """One compact JSON object on one line, with its newline."""
    return json.dumps(value, separators=(",", ":")) + "\n"


def state_line(step: Step) -> str:
    """The state after `step` as one line of the move protocol."""
    return json_line(state_json(step))
