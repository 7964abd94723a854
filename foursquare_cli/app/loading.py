"""Loading a record or a move log for a command (`replay`, `hint`, `analyze`): the game, and its problems as a
value to show (each `file:line: ...` on standard error), never printed here."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..errors import ExitStatus, InvalidInput, UsageError
from ..formats.records import Verdict, load
from ..rules.cards import Card
from ..rules.game import Game, Step


class DealGiven(NamedTuple):
    """The deal a command is given for a move log (`--seed` or `--deck`; a record carries its own)."""

    seed: int | None = None
    deck: tuple[Card, ...] | None = None


class Problems(NamedTuple):
    """The problems of a file, each said as `file:line: message` on standard error; the command fails (exit 1)."""

    verdict: Verdict

    @property
    def exit_status(self) -> ExitStatus:
        return ExitStatus.INVALID if self.verdict.problems else ExitStatus.SUCCESS


def last_game_path() -> str:
    """The record of the game played last (kept in the history): what `--last` names; UsageError when no game
    is kept."""

    from ..store.history import History  # start-up: the history's index loads only for --last

    last = History().last_played()
    if last is None:
        raise UsageError("--last: no game is kept yet; play one with foursquare play")
    return last


def file_or_last(file: str | None, last: bool) -> str:
    """The file a command is given, or with `--last` the last game's record (one of the two)."""

    if last and file is not None:
        raise UsageError(f"{file!r} and --last: give one of the two")
    if not last and file is None:
        raise UsageError("give FILE, or --last for the game you played last")
    return last_game_path() if last else str(file)


def files_or_last(files: list[str] | None, last: bool) -> list[str]:
    """The files a command is given, or with `--last` the last game's record alone."""

    if last and files:
        raise UsageError("FILE... and --last: give one of the two")
    if not last and not files:
        raise UsageError("give FILE..., or --last for the game you played last")
    return [last_game_path()] if last else list(files or [])


def load_game(file: str, deal: DealGiven, on_step: Callable[[Step], None] | None = None) -> Verdict:
    """Read and play a record or move log (`formats.records.load`); usage errors (a file that cannot be read,
    a deal that contradicts it) are raised."""
    return load(file, seed=deal.seed, deck=deal.deck, on_step=on_step)


def game_to_go_on(verdict: Verdict) -> Game | Problems:
    """The game of a valid record that is still being played; its problems when it has some; InvalidInput
    when the game is over (there is no move to look at)."""
    if verdict.problems or verdict.game is None:
        return Problems(verdict)
    if verdict.game.state.is_over:
        raise InvalidInput(
            f"{verdict.source.display_name}: the game is over ({verdict.outcome_words()}); there is no move to hint"
        )
    return verdict.game
