"""Deprecated: the Gymnasium environment is `foursquare_cli.agents.environment` now.

This old path keeps working for one release (it warns with a DeprecationWarning
and gives the same objects); the architecture test counts this shim in the
`agents` layer, whose module it re-exports.
"""

from __future__ import annotations

import warnings

from ..agents.environment import (
    ACTION_OF,
    ACTIONS,
    ENV_ID,
    ILLEGAL_PENALTY,
    FoursquareEnv,
    Observation,
    action_index,
    action_mask,
    observation,
    policy_player,
    register_envs,
)

__all__ = [
    "ACTIONS",
    "ACTION_OF",
    "ENV_ID",
    "ILLEGAL_PENALTY",
    "FoursquareEnv",
    "Observation",
    "action_index",
    "action_mask",
    "observation",
    "policy_player",
    "register_envs",
]

warnings.warn(
    "foursquare_cli.ui.environment moved to foursquare_cli.agents.environment; the old path goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
