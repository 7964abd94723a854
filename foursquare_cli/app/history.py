"""Your games, kept: what `history` shows, and the daily game a share is made of.

The values are the store's (`KeptGame`, a row of the index; `Totals`, the figures
of the games), handed on from here so that `ui` reaches the store only through
this layer.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import UsageError, display_name
from ..rules.game import Game
from ..store.history import History, KeptGame
from ..store.totals import Totals, first_dailies, totals

if TYPE_CHECKING:
    from .session import Session

__all__ = ["Cheer", "KeptGame", "KeptHistory", "Totals", "cheers", "daily_game", "kept_history", "share_day"]


class KeptHistory(NamedTuple):
    """The kept games (newest first), their figures, and what the history had to say (a rebuilt index)."""

    games: list[KeptGame]
    totals: Totals
    notes: list[str]

    def to_json(self, limit: int) -> dict[str, Any]:
        """`history --format json`: the last `limit` games and the totals of all."""
        return {"games": [game.to_json() for game in self.games[:limit]], "totals": self.totals.to_json()}


def kept_history(deal: int | None = None) -> KeptHistory:
    """The games kept in the data folder (only those of `deal` when given)."""
    history = History()
    games = history.games(seed=deal)
    return KeptHistory(games, totals(games), history.notes)


def share_day(text: str, today: datetime.date | None = None) -> str:
    """The day `history --share` names, as YYYY-MM-DD: `today`, a date (2026-12-01), or the daily deal's number
    the game prints (20261201); UsageError showing the forms for anything else."""
    day = today or datetime.datetime.now(datetime.UTC).date()
    word = text.strip().lower()
    if word == "today":
        return day.isoformat()
    if len(word) == 8 and word.isdigit():
        word = f"{word[:4]}-{word[4:6]}-{word[6:]}"
    try:
        if len(word) == 10:
            return datetime.date.fromisoformat(word).isoformat()
    except ValueError:
        pass
    forms = "give today, a date like 2026-12-01, or the daily deal's number, like 20261201"
    raise UsageError(f"--share {text[:30]!r}: not a day; {forms}")


def daily_game(games: list[KeptGame], day: str) -> Game:
    """The game of `day`'s daily deal that counts (the first attempt: `store.totals.first_dailies`), read back
    from its record; UsageError when none is kept or its record is no longer valid."""
    from ..formats.records import load

    kept = first_dailies(games).get(day)
    if kept is None:
        raise UsageError(f"no daily game of {day!r} is kept; foursquare history lists the games")
    verdict = load(kept.path)
    if verdict.game is None or verdict.problems:
        raise UsageError(f"the record of that game is no longer valid: {display_name(kept.path)}")
    return verdict.game


class Cheer(NamedTuple):
    """Something a won game earned, measured against the games kept before it (`cheers`)."""

    kind: str  # "first_win", "best_score", "first_at_grade", "streak", "daily_streak"
    value: int | str | None = None
    before: int | None = None  # the best score before (best_score); the longest streak before (streak)


def cheers(session: Session) -> list[Cheer]:
    """What the game of `session`, just won, earned among the kept games: a first win, a new best score, a
    first win at its grade, a winning streak (two or more), a daily streak (two days or more, the day's
    first attempt only). None for a lost game, or one not kept in the history."""
    from ..store.history import HistoryError

    game, history, record = session.game, session.history, session.record
    if game.state.outcome.score is None or history is None or record is None:
        return []
    session.index()
    try:
        games = history.games()
    except HistoryError:
        return []
    import os

    path = os.path.abspath(record.path)
    this = next((kept for kept in games if kept.path == path), None)
    if this is None or this.score is None:
        return []
    earlier_wins = [
        kept for kept in games if kept.path != path and kept.status == "won" and kept.started <= this.started
    ]
    said: list[Cheer] = []
    best_before = max((kept.score for kept in earlier_wins if kept.score is not None), default=None)
    if not earlier_wins:
        said.append(Cheer("first_win"))
    elif best_before is not None and this.score > best_before:
        said.append(Cheer("best_score", this.score, best_before))
    if earlier_wins and this.grade and all(kept.grade != this.grade for kept in earlier_wins):
        said.append(Cheer("first_at_grade", this.grade))
    figures = totals(games)
    if figures.streak >= 2:
        longest_before = totals([kept for kept in games if kept.path != path]).longest_streak
        said.append(Cheer("streak", figures.streak, longest_before))
    counted = this.daily and this.day is not None and first_dailies(games).get(this.day) == this
    if counted and figures.daily_streak >= 2:
        said.append(Cheer("daily_streak", figures.daily_streak))
    return said
