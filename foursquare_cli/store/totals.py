"""The figures of the kept games: played (finished) and won, scores, streaks, daily deals, time played."""

from __future__ import annotations

import contextlib
import datetime
from typing import Any, NamedTuple

from .kept import KeptGame


class Totals(NamedTuple):
    """The figures of the kept games. Played means finished: an unfinished game is counted apart."""

    played: int
    won: int
    best_score: int | None
    mean_score_of_wins: float | None
    streak: int  # the winning streak that the most recent finished games make
    longest_streak: int
    daily_played: int
    daily_won: int
    unfinished: int = 0
    clean_wins: int = 0  # won with neither hints nor undos
    daily_streak: int = 0  # consecutive days, up to today (or yesterday), whose daily deal was won
    longest_daily_streak: int = 0
    seconds: float = 0.0  # time played, all games that count
    fastest_win: float | None = None  # the seconds of the fastest win that counted its time
    practice: int = 0  # daily deals played again the same day: kept, counted in no other figure

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def first_dailies(games: list[KeptGame]) -> dict[str, KeptGame]:
    """The game that counts for each day's daily deal: the first started that day, as Wordle counts the first
    try (a later one is practice: kept, never counted in the figures, the streaks or the share)."""
    first: dict[str, KeptGame] = {}
    for game in games:
        if game.daily and game.day and (game.day not in first or game.started <= first[game.day].started):
            first[game.day] = game
    return first


def is_practice(game: KeptGame, first: dict[str, KeptGame]) -> bool:
    """A daily deal played again the day it was first played (`first`: `first_dailies`): practice."""
    return game.daily and game.day is not None and game.day in first and first[game.day] != game


def totals(games: list[KeptGame], today: datetime.date | None = None) -> Totals:
    """The figures of a list of games, newest first: played, won, best and mean score, streaks, dailies, time.
    `today` (UTC, by default) is where the daily streak ends: today or yesterday. A daily deal counts its first
    attempt of the day only (`first_dailies`): a later one is practice, kept and counted in no figure but
    `practice`."""
    first = first_dailies(games)
    practice = [game for game in games if is_practice(game, first)]
    games = [game for game in games if not is_practice(game, first)]
    finished = [game for game in games if game.status != "playing"]
    wins = [game for game in finished if game.status == "won"]
    scores = [game.score for game in wins if game.score is not None]
    streak = 0
    for game in finished:
        if game.status != "won":
            break
        streak += 1
    longest = run = 0
    for game in reversed(finished):
        run = run + 1 if game.status == "won" else 0
        longest = max(longest, run)
    undated = [game for game in games if game.daily and not game.day]  # an index of an older tool's: each counts
    daily = [game for game in [*first.values(), *undated] if game.status != "playing"]
    day = today or datetime.datetime.now(datetime.UTC).date()
    daily_streak, longest_daily = _daily_streaks({game.day for game in daily if game.status == "won" and game.day}, day)
    if any(game.day == day.isoformat() and game.status == "lost" for game in daily):
        daily_streak = 0  # today's attempt, the one that counts, was lost
    return Totals(
        played=len(finished),
        won=len(wins),
        best_score=max(scores) if scores else None,
        mean_score_of_wins=sum(scores) / len(scores) if scores else None,
        streak=streak,
        longest_streak=longest,
        daily_played=len(daily),
        daily_won=sum(1 for game in daily if game.status == "won"),
        unfinished=len(games) - len(finished),
        clean_wins=sum(1 for game in wins if not game.hints and not game.undos),
        daily_streak=daily_streak,
        longest_daily_streak=longest_daily,
        seconds=sum(game.seconds or 0.0 for game in games),
        fastest_win=min((game.seconds for game in wins if game.seconds), default=None),
        practice=len(practice),
    )


def _daily_streaks(won_days: set[str], today: datetime.date) -> tuple[int, int]:
    """(the streak of won daily deals up to today, or to yesterday when today's is not won yet; the longest)."""
    days = set()
    for text in won_days:
        with contextlib.suppress(ValueError):
            days.add(datetime.date.fromisoformat(text))
    longest = 0
    for day in days:
        if day - datetime.timedelta(days=1) not in days:
            length = 1
            while day + datetime.timedelta(days=length) in days:
                length += 1
            longest = max(longest, length)
    end = today if today in days else today - datetime.timedelta(days=1)
    streak = 0
    while end - datetime.timedelta(days=streak) in days:
        streak += 1
    return streak, longest
