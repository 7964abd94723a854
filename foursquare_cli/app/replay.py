"""`replay`: every state of a game record or a move log, shown as it comes; then the file's problems (at the
first invalid or illegal move the states before it have been shown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .loading import DealGiven, Problems, file_or_last, load_game


class ReplayRequest(NamedTuple):
    file: str | None
    deal: DealGiven = DealGiven()
    last: bool = False  # the game played last, kept in the history, instead of a file


def replayed(request: ReplayRequest, show: Callable[[object], None]) -> Problems:
    """Each step shown as the file is played (the start, then each move), and the file's problems."""
    return Problems(load_game(file_or_last(request.file, request.last), request.deal, on_step=show))
