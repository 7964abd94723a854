"""`history`: your games, kept; the daily game a share is made of; what a won game earned among them.

The values are the store's (`KeptGame`, a row of the index; `Totals`, the figures
of the games), handed on from here so that `ui` reaches the store only through
this layer.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import UsageError, display_name
from ..formats.records import load
from ..rules.game import Game
from ..store.history import History, HistoryError, data_folder
from ..store.kept import KeptGame
from ..store.totals import Totals, first_dailies, is_practice, totals
from .events import Cheer, CheerKind

__all__ = [
    "Cheer",
    "HistoryNote",
    "HistoryReport",
    "HistoryRequest",
    "KeptGame",
    "SharedDay",
    "Totals",
    "cheers",
    "daily_game",
    "data_folder",
    "kept_games",
    "share_day",
]


class HistoryRequest(NamedTuple):
    """What `history` is asked: the last `limit` games (of one `deal`), each game's file too (`wide`), or the
    block to share of a day's daily game (`share`: today, a date, or the daily deal's number)."""

    limit: int = 20
    deal: int | None = None
    wide: bool = False
    share: str | None = None
    output: str = "text"  # the format asked for: a share is a block of text to paste, never JSON or CSV


class HistoryReport(NamedTuple):
    """The kept games (newest first), their figures, and how many of them to list (with their files or not)."""

    games: list[KeptGame]
    totals: Totals
    limit: int
    wide: bool = False
    deal: int | None = None  # the games of this deal alone were asked for

    def to_json(self) -> dict[str, Any]:
        """`history --format json`: the last `limit` games and the totals of all."""
        return {"games": [game.to_json() for game in self.games[: self.limit]], "totals": self.totals.to_json()}

    def to_rows(self) -> list[list[object]]:
        """`history --format csv`: a header row (the keys of a game's JSON), then a row a game."""
        games = self.games[: self.limit]
        header: list[object] = list(KeptGame._fields)
        return [header] + [["" if value is None else value for value in game] for game in games]


class SharedDay(NamedTuple):
    """`history --share`: the game of a day's daily deal that counts, to show as a block to paste."""

    day: str
    game: Game


class HistoryNote(NamedTuple):
    """What the history had to say as it was read (an index rebuilt, and why), a line on standard error."""

    text: str


def kept_games(request: HistoryRequest, show: Callable[[object], None]) -> HistoryReport | SharedDay:
    """The games kept in the data folder (only those of `deal` when given), or the day's block to share; the
    history's notes shown as they come."""
    if request.share is not None:
        given = {"--deal": request.deal is not None, "--wide": request.wide, "--limit": request.limit != 20}
        given[f"--format {request.output}"] = request.output != "text"
        if said := [name for name, set_ in given.items() if set_]:  # never ignored: the share has its own form
            raise UsageError(f"--share is a day's block of text to paste; give it without {', '.join(said)}")
    kept = History()
    games = kept.games(seed=request.deal)
    first = first_dailies(games)
    games = [game._replace(practice=is_practice(game, first)) for game in games]
    for note in kept.notes:
        show(HistoryNote(note))
    if request.share is not None:
        day = share_day(request.share)
        return SharedDay(day, daily_game(games, day))
    return HistoryReport(games, totals(games), request.limit, request.wide, request.deal)


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

    kept = first_dailies(games).get(day)
    if kept is None:
        raise UsageError(f"no daily game of {day!r} is kept; foursquare history lists the games")
    verdict = load(kept.path)
    if verdict.game is None or verdict.problems:
        raise UsageError(f"the record of that game is no longer valid: {display_name(kept.path)}")
    return verdict.game


def cheers(game: Game, history: History, path: str) -> list[Cheer]:
    """What `game`, just won and indexed in `history` as `path`, earned among the kept games: a first win, a new
    best score, a first win at its grade, a winning streak (two or more), a daily streak (two days or more, the
    day's first attempt only). None for a lost game or a practice daily (a daily deal played again the same day
    counts in no figure)."""

    if game.state.outcome.score is None:
        return []
    try:
        games = history.games()
    except HistoryError:
        return []

    path = os.path.abspath(path)
    first = first_dailies(games)
    this = next((kept for kept in games if kept.path == path), None)
    if this is None or this.score is None or is_practice(this, first):
        return []
    counting = [kept for kept in games if not is_practice(kept, first)]
    earlier_wins = [
        kept for kept in counting if kept.path != path and kept.status == "won" and kept.started <= this.started
    ]
    said: list[Cheer] = []
    best_before = max((kept.score for kept in earlier_wins if kept.score is not None), default=None)
    if not earlier_wins:
        said.append(Cheer(CheerKind.FIRST_WIN))
    elif best_before is not None and this.score > best_before:
        said.append(Cheer(CheerKind.BEST_SCORE, this.score, best_before))
    if earlier_wins and this.grade and all(kept.grade != this.grade for kept in earlier_wins):
        said.append(Cheer(CheerKind.FIRST_AT_GRADE, this.grade))
    figures = totals(games)
    if figures.streak >= 2:
        longest_before = totals([kept for kept in games if kept.path != path]).longest_streak
        said.append(Cheer(CheerKind.STREAK, figures.streak, longest_before))
    counted = this.daily and this.day is not None and first.get(this.day) == this
    if counted and figures.daily_streak >= 2:
        said.append(Cheer(CheerKind.DAILY_STREAK, figures.daily_streak))
    return said
