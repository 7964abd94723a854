"""The states of SPEC section 5 as JSON, and the lines of the move protocol (SPEC section 7).

A state's JSON is its step's own (`rules.game.Step.to_json`): what `replay --format json`,
`play --format json` and an outside program are shown. `json_line` is one object on one line.
"""

from __future__ import annotations

import json

from ..rules.game import Step


def json_line(value: object) -> str:
    """One compact JSON object on one line, with its newline."""
    return json.dumps(value, separators=(",", ":")) + "\n"


def state_line(step: Step) -> str:
    """The state after `step` as one line of the move protocol."""
    return json_line(step.to_json())
