"""A kept record as the history's index holds it: the row its file gives (`index_row`), and the game that row
stands for (`KeptGame`). The record is the truth: a row is made from the file alone, and made again when the
file changes."""

from __future__ import annotations

import contextlib
import datetime
import os
from typing import Any, NamedTuple

from ..formats.lines import ReadError
from ..formats.records import check_record
from ..formats.source import read_source
from ..rules import Move
from ..rules.outcomes import Status


class KeptGame(NamedTuple):
    """One row of the history: a record file and what it says."""

    path: str
    seed: int | None
    daily: bool
    started: str
    status: str
    score: int | None
    moves: int
    undos: int
    hints: int = 0
    seconds: float | None = None  # time spent at the prompt (pauses of more than five minutes not counted)
    grade: str | None = None  # the deal's grade, when the game kept it
    day: str | None = None  # the date of a daily deal (2026-12-01)
    piped: bool = False  # played from a pipe (`meta: piped: true`): kept, never offered for resume
    practice: bool = False  # a daily deal played again the day it was first played (`totals.is_practice`)

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def started_now() -> str:
    """The time a game starts, as the record's `meta: started:` keeps it (UTC, to the second)."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def file_status(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


INDEX_COUNT_MAX = 2**63 - 1
"""The largest count the index holds (SQLite's largest integer): a record may say more undos or hints (any whole
number is a count), and the index, which only sums and shows them, keeps this many rather than fail."""


def index_row(path: str) -> tuple[Any, ...] | None:
    """What the index keeps of a record file, or None when it is not a valid record to keep."""

    info = file_status(path)
    if info is None:
        return None
    try:
        source = read_source(path)
    except ReadError:
        return None
    verdict = check_record(source)
    if verdict.problems or verdict.state is None:
        return None
    meta = source.meta_value if isinstance(source.meta_value, dict) else {}
    changed = datetime.datetime.fromtimestamp(info.st_mtime, datetime.UTC).replace(microsecond=0)
    started = _moment(meta.get("started")) or changed.isoformat().replace("+00:00", "Z")  # as `started_now` writes
    outcome = verdict.state.outcome
    seed = None if source.seed is None else str(source.seed)
    seconds = meta.get("seconds")
    timed = isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 <= seconds < 10**9
    grade = meta.get("grade") if meta.get("grade") in ("easy", "medium", "hard") else None
    return (
        os.fsencode(path),
        seed,
        _day(meta.get("daily"), source.seed),
        started,
        str(outcome.status),
        outcome.score,
        len(verdict.moves),
        min(source.undos, INDEX_COUNT_MAX),
        min(source.hints, INDEX_COUNT_MAX),
        float(seconds) if timed and seconds is not None else None,
        grade,
        int(meta.get("piped") is True),
        info.st_size,
        info.st_mtime_ns,
    )


def _moment(said: object) -> str | None:
    """`meta: started:` when it is a moment (ISO 8601, as the tool writes it), else None: the meta is anything a
    hand may write, and history sorts and shows by it ("yesterday" was listed as the newest game)."""
    if isinstance(said, datetime.datetime):  # YAML reads an unquoted timestamp as one
        return str(said)
    if not isinstance(said, str) or len(said) > 40:
        return None
    try:
        datetime.datetime.fromisoformat(said)
    except ValueError:
        return None
    return said


def daily_deal(day: datetime.date) -> int:
    """The deal of a day: the UTC date's digits as a number (20261130 for 2026-11-30), the same for everyone."""
    return int(day.strftime("%Y%m%d"))


def _day(said: object, seed: int | None) -> str | None:
    """`meta: daily:` when it is a date (as the tool writes it) whose deal the record is, else None: not a daily
    game. A hand's `daily:` on another deal had been shared and counted as that day's daily deal won."""
    day = said if isinstance(said, datetime.date) and not isinstance(said, datetime.datetime) else None
    if isinstance(said, str) and len(said) == 10:
        with contextlib.suppress(ValueError):
            day = datetime.date.fromisoformat(said)
    return day.isoformat() if day is not None and seed == daily_deal(day) else None


def kept_moves(path: str) -> list[Move] | None:
    """The moves of the record at `path` when it is a valid record of a game won, else None (a record changed
    or removed since it was indexed included): a line a search of its deal may start from."""
    try:
        verdict = check_record(read_source(path))
    except ReadError:
        return None
    state = verdict.state
    if verdict.problems or state is None or state.status is not Status.WON:
        return None
    return verdict.moves


def kept_game(row: tuple[Any, ...]) -> KeptGame:
    path, seed, daily, started, status, score, moves, undos, hints, seconds, grade, piped, _, _ = row
    return KeptGame(
        os.fsdecode(path),
        None if seed is None else int(seed),
        daily is not None,
        started,
        status,
        score,
        moves,
        undos,
        hints,
        seconds,
        grade,
        daily,
        bool(piped),
    )
