"""`summarize`: what one run over the union of results files prints (shards, machines or runs of one plan)."""

from __future__ import annotations

from typing import NamedTuple

from ..runs.compare import Comparison
from ..runs.results import merged
from ..runs.run import merged_summary
from ..runs.stats import Summary


class Replayed(NamedTuple):
    """`summarize --verify`: the games replayed by the players they name, and the players that could not be asked
    again (said on standard error, in every format)."""

    games: int
    not_replayed: tuple[str, ...]


def summarized(files: list[str], verify: bool = False) -> list[Summary | Comparison | Replayed]:
    """The run's figures; with `verify`, first what was replayed (InvalidInput for a game its player would not
    have played)."""
    union = merged(files, verify)
    if union.not_replayed is None:
        return [merged_summary(union)]
    games = sum(1 for player, _ in union.games if player not in union.not_replayed)
    return [merged_summary(union), Replayed(games, union.not_replayed)]
