"""The values of the command line's options, read as the core reads them: a deal number, a deck, a shard (a
player's name: `players.canonical_player`); each raises a plain error saying what is wrong, which `cli` turns
into typer's usage line."""

from __future__ import annotations

from ..rules.cards import parse_deck, parse_seed

__all__ = ["parse_deck", "parse_seed", "parsed_shard"]


def parsed_shard(text: str) -> tuple[int, int]:
    """`K/N`: the K-th of N parts of a run's deals."""
    from ..runs.plans import parse_shard as parsed  # start-up: the runs load only for a command that runs games

    return parsed(text)
