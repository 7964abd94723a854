"""How `play`'s game is opened: new (a deal given, the day's, one of a grade, a random one), resumed (a record,
or the last unfinished game kept), kept in the history or in a file named, or kept nowhere; and how `restart`
and `new` open the next one at the prompt. Values, never sentences: what is to be said as a session opens
comes back as `Opening` values."""

from __future__ import annotations

import datetime
import os
import random
from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import InvalidInput, UsageError
from ..formats.records import load
from ..formats.source import SourceKind, keepable_meta
from ..players import PlayerSpec
from ..players.grade import deal_of_level
from ..rules.cards import Card
from ..rules.game import Game
from ..store.files import RecordFile
from ..store.history import ELSEWHERE, GAMES_FOLDER, History, HistoryError
from ..store.kept import daily_deal, started_now
from .events import Opening, OpeningKind
from .session import Session


def daily_seed(today: datetime.date | None = None) -> tuple[int, datetime.date]:
    """The deal of the day: the UTC date's digits as a number (20261130 for 2026-11-30), the same for everyone."""
    day = today or datetime.datetime.now(datetime.UTC).date()
    return daily_deal(day), day


def new_seed() -> int:
    """A random deal, 0 to 2^32-1, from the system's randomness (as `secrets` draws it, without loading `secrets`
    and `hmac` at every start)."""
    return random.SystemRandom().randrange(2**32)


LAST_GAME = "\x00last"  # `--resume` given with no file: the last unfinished game (no path holds a NUL)


class GameChoice(NamedTuple):
    """What `play` is asked for: the deal, the record, resuming."""

    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    daily: bool = False
    record: str | None = None
    resume: str | None = None
    no_record: bool = False
    force: bool = False
    level: str | None = None  # a random deal of this grade (easy, medium, hard)


def open_session(
    *,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
    daily: bool = False,
    record: str | None = None,
    resume: str | None = None,
    no_record: bool = False,
    force: bool = False,
    history: History | None = None,
    mention_waiting: bool = False,
    level: str | None = None,
    piped: bool = False,
    expert: PlayerSpec = PlayerSpec(),
) -> tuple[Session, list[Opening]]:
    """A session ready to play, and what to say first (its deal, where it is kept, why not).

    With `history`, a game is kept in the data folder (unless `record` names its
    file) and indexed; `resume=LAST_GAME` is the last unfinished game there; with
    `mention_waiting`, a new game first says when an unfinished one is waiting. A game
    `piped` (its moves from a pipe) says so in its meta (`piped: true`): it is kept,
    but never offered for resume; a piped game resumed at a prompt loses the mark.
    UsageError for contradictory options, a record that cannot be read or resumed;
    InvalidInput for an invalid record to resume (its problems said before it);
    WriteError when a file cannot be opened for writing.
    """
    if no_record and record is not None:
        raise UsageError("--no-record and --record contradict each other; give one")
    if daily and (seed is not None or deck is not None or resume is not None):
        raise UsageError("--daily picks the deal; give it without --seed, --deck or --resume")
    if seed is not None and deck is not None:
        raise UsageError("give --seed or --deck, not both")
    if force and record is None:
        raise UsageError("--force replaces an existing --record FILE; give it with --record")
    if level is not None and (seed is not None or deck is not None or daily or resume is not None):
        raise UsageError("--level picks the deal; give it without --seed, --deck, --daily or --resume")
    said: list[Opening] = []
    if history is not None and mention_waiting and resume is None and record is None:
        said.extend(_waiting(history))
    if resume is None:
        session, opening = _new_session(seed, deck, daily, record, no_record, force, history, level, piped)
    else:
        session, opening = _resumed_session(resume, seed, deck, record, no_record, force, history, piped)
    session.expert = expert
    notes = [Opening(OpeningKind.NOTE, text=note) for note in history.notes] if history is not None else []
    return session, notes + said + opening


Reopen = Callable[[int | None, Game | None], tuple[Session, list[Opening]]]
"""`restart` (the game's deal again: its seed, or its game for a deck) and `new` (game None: a new deal)."""


def open_play(
    options: GameChoice, *, keep: bool, at_prompt: bool, expert: PlayerSpec = PlayerSpec()
) -> tuple[Session, list[Opening], Reopen]:
    """The session of `play` (kept in the history when `keep`, `expert` its hint and meter), what to say
    first, and how to open the sessions of `restart` and `new` at the prompt, kept like any other game (see
    `open_session`). At a prompt, a waiting game is mentioned; from a pipe, the game is marked piped."""

    history = History() if keep else None
    session, opening = open_session(
        **options._asdict(), history=history, mention_waiting=at_prompt, piped=not at_prompt, expert=expert
    )

    def reopen(seed: int | None, game: Game | None) -> tuple[Session, list[Opening]]:
        deck = game.deck if game is not None and seed is None else None
        again = GameChoice(seed=seed if game is not None else None, deck=deck)
        kept = History() if history is not None else None
        session, said = open_session(**again._asdict(), history=kept, expert=expert)
        day = game.meta.get("daily") if game is not None and isinstance(game.meta, dict) else None
        meta = session.game.meta  # a new game's: a mapping
        if isinstance(day, str) and seed is not None and isinstance(meta, dict):  # the daily deal again: practice,
            meta.update(daily=day, practice=True)  # as the day's first attempt is the one that counts (and the
            said.insert(0, Opening(OpeningKind.DAILY, seed, day=day, practice=True))  # day's, after midnight)
        return session, said

    return session, opening, reopen


def _daily_played(history: History | None, day: str) -> bool:
    """Whether the daily deal of `day` was attempted already (its first attempt is the one that counts)."""

    if history is None:
        return False
    try:
        return any(game.daily and game.day == day for game in history.games())
    except HistoryError:
        return False


def _read_only() -> History | None:
    """The user's history, for `--no-record`'s daily deal: read, not written to (the game is not kept), to tell
    a first attempt from practice; None where none was ever kept, as reading it would make one."""
    history = History()
    return history if (history.folder / GAMES_FOLDER).is_dir() else None


def _waiting(history: History) -> list[Opening]:
    """An unfinished game waiting, if one is (and the history can be read)."""

    try:
        waiting = history.last_unfinished()
    except HistoryError:
        return []
    return [Opening(OpeningKind.WAITING, waiting=waiting)] if waiting is not None else []


def _new_session(
    seed: int | None,
    deck: tuple[Card, ...] | None,
    daily: bool,
    record: str | None,
    no_record: bool,
    force: bool,
    history: History | None,
    level: str | None = None,
    piped: bool = False,
) -> tuple[Session, list[Opening]]:

    said: list[Opening] = []
    started = started_now()
    meta: dict[str, Any] = {"started": started}
    if daily:
        seed, day = daily_seed()
        practice = _daily_played(history if history is not None else _read_only(), day.isoformat())
        said.append(Opening(OpeningKind.DAILY, seed, day=day.isoformat(), practice=practice))
        meta["daily"] = day.isoformat()
        if practice:
            meta["practice"] = True  # the day's first attempt is the one that counts: this one is not shared
    elif level is not None:
        seed, found = deal_of_level(level, random.Random())
        level = found.level  # the one in 10^4 when no deal of the level came up: the truth, not the wish
        said.append(Opening(OpeningKind.LEVEL, seed, level=level))
    elif seed is None and deck is None:
        seed = new_seed()
        said.append(Opening(OpeningKind.DEALT, seed))
    if level is not None:
        meta["grade"] = level
    if piped:
        meta["piped"] = True
    game = Game(deck, meta=meta) if deck is not None else Game.from_seed(seed or 0, meta=meta)
    file = RecordFile(_not_the_historys(record, history), replace=force) if record is not None else None
    if record is None and history is not None and not no_record:
        try:
            file = history.new_record(game.seed, started)
        except HistoryError as error:
            said.append(Opening(OpeningKind.UNSAVED, text=str(error)))
            history = None
    session = Session(game, file, history, kept=record is None and file is not None)
    if record is not None:  # a file the user named exists from the start; a kept game from its first move
        try:
            session.save()
        except BaseException:  # re-raised: a full disk or Ctrl-C before the session began releases its lock first
            if session.record is not None:
                session.record.close()
            raise
        session.index()
    return session, said


def _not_the_historys(record: str, history: History | None) -> str:
    """`record`, unless it is a file of the history's own (its index, its list of records kept elsewhere), which
    `--force` had let a game's record replace: the index was rebuilt and the record moved aside as unreadable."""
    if history is not None and record != "-":
        own = (history.index_path, history.folder / ELSEWHERE)
        if any(os.path.realpath(record) == os.path.realpath(path) for path in own):
            raise UsageError("is a file of the history's own; record the game to another file", path=record)
    return record


def _resumed_session(
    resume: str,
    seed: int | None,
    deck: tuple[Card, ...] | None,
    record: str | None,
    no_record: bool,
    force: bool,
    history: History | None,
    piped: bool = False,
) -> tuple[Session, list[Opening]]:

    if resume == LAST_GAME:
        waiting = None
        if history is not None:
            try:
                waiting = history.last_unfinished()
            except HistoryError as error:
                raise UsageError(f"{error}; give the record to resume: --resume FILE") from None
        if waiting is None:  # a kept record broken by hand may be the game meant: the notes say so first
            said = tuple(history.notes) if history is not None else ()
            raise UsageError("no unfinished game is waiting; start one with play, or give --resume FILE", before=said)
        resume = waiting.path
    verdict = load(resume, seed=seed, deck=deck)
    if verdict.problems:
        problems = tuple(problem.located(verdict.source.display_name) for problem in verdict.problems)
        kind = "move log" if verdict.source.kind is SourceKind.LOG else "record"
        raise InvalidInput(f"cannot resume an invalid {kind}", path=resume, before=problems)
    resumed = verdict.game
    assert resumed is not None
    if resumed.state.is_over:
        raise UsageError("this game is over; there is nothing to resume", path=resume)
    ours = isinstance(verdict.source.meta_value, dict) and "started" in verdict.source.meta_value
    if ours:  # a game this tool started: its meta is written afresh, so the time played goes on counting
        resumed.meta = dict(verdict.source.meta_value)
        resumed.meta.pop("piped", None)
        if piped:
            resumed.meta["piped"] = True
    elif verdict.source.meta_value is not None:  # someone else's meta: written back as it was
        resumed.meta = keepable_meta(verdict.source)
        if resumed.meta is None:
            raise UsageError("its meta cannot be written back as it was; resume a copy without meta", path=resume)
    elif piped:  # no meta at all: marked as any game a pipe plays, so a prompt's --resume never offers it
        resumed.meta = {"piped": True}
    target = None if no_record else (record or resume)
    if target == resume and verdict.source.kind is SourceKind.LOG:  # the user's text, never rewritten as YAML
        raise UsageError(
            "is a move log; recording to it would rewrite it as a record: give --record FILE (or --no-record)",
            path=resume,
        )
    replace = force or target == resume
    file = RecordFile(_not_the_historys(target, history), replace=replace) if target is not None else None
    session = Session(resumed, file, history if target is not None else None, resumed=target == resume)
    session.index()
    return session, [Opening(OpeningKind.RESUMING, resumed.seed, ply=resumed.ply + 1, path=resume)]
