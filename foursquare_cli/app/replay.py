"""`replay`: every state of a game record or a move log, shown as it comes; then the file's problems (at the
first invalid or illegal move the states before it have been shown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .loading import DealGiven, Problems, load_game


class ReplayRequest(NamedTuple):
    file: str
    deal: DealGiven = DealGiven()


def replayed(request: ReplayRequest, show: Callable[[object], None]) -> Problems:
    """Each step shown as the file is played (the start, then each move), and the file's problems."""
    return Problems(load_game(request.file, request.deal, on_step=show))
