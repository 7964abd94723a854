"""Your games, kept: every game of `play` saved as a record in the data folder, and an index of them.

The records are the truth; the index (SQLite, the standard library's `sqlite3`) is a
cache of what they say, kept beside them as `history.sqlite`:

- The data folder is `$FOURSQUARE_HOME` if set, else the platform's place for a user's
  data: `$XDG_DATA_HOME/foursquare` or `~/.local/share/foursquare` on Linux,
  `~/Library/Application Support/foursquare` on macOS, `%APPDATA%\\foursquare` on Windows.
- A game played without `--record` is saved as `games/DATE-TIME-deal-N.yaml` there;
  one played with `--record FILE` is written to FILE and its path is remembered in
  `elsewhere.txt`, so that a rebuilt index finds it again.
- A game is indexed when its session starts (a kept game: once its first move is
  saved) and when it ends; each write is one transaction, and a busy index is
  waited for, so two terminals playing at once both get their games indexed.
- Before the history is read, every indexed file is looked at again (its size and
  time of change): a changed record is read again, a deleted one drops out, and a
  record in `games/` that is not indexed yet (its session was killed) is added.
- A missing or corrupt index is rebuilt from the record files, with a line saying so.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import ReadError, UsageError

if TYPE_CHECKING:
    import sqlite3

INDEX_NAME = "history.sqlite"
GAMES_FOLDER = "games"
ELSEWHERE = "elsewhere.txt"
_COLUMNS = "path, seed, daily, started, status, score, moves, undos, size, mtime_ns"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    path TEXT PRIMARY KEY,
    seed TEXT,
    daily INTEGER NOT NULL,
    started TEXT NOT NULL,
    status TEXT NOT NULL,
    score INTEGER,
    moves INTEGER NOT NULL,
    undos INTEGER NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_started ON games (started);
"""


class HistoryError(UsageError):
    """The data folder cannot be used; the message is one line saying where and why."""


def data_folder() -> Path:
    """Where a user's games are kept (see the module's docstring)."""
    override = os.environ.get("FOURSQUARE_HOME")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "foursquare"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "foursquare"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "foursquare"


class Game(NamedTuple):
    """One row of the history: a record file and what it says."""

    path: str
    seed: int | None
    daily: bool
    started: str
    status: str
    score: int | None
    moves: int
    undos: int

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


class Totals(NamedTuple):
    played: int
    won: int
    best_score: int | None
    mean_score_of_wins: float | None
    streak: int  # the winning streak that the most recent finished games make
    longest_streak: int
    daily_played: int
    daily_won: int

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


def started_now() -> str:
    """The time a game starts, as the record's `meta: started:` keeps it (UTC, to the second)."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _row_of(path: str) -> tuple[Any, ...] | None:
    """What the index keeps of a record file, or None when it is not a valid record to keep."""
    from ..formats.records import check_record
    from ..formats.source import read_source

    try:
        info = os.stat(path)
        source = read_source(path)
    except (OSError, ReadError):
        return None
    verdict = check_record(source)
    if verdict.problems or verdict.state is None:
        return None
    meta = source.meta_value if isinstance(source.meta_value, dict) else {}
    started = str(meta.get("started") or datetime.datetime.fromtimestamp(info.st_mtime, datetime.UTC).isoformat())
    outcome = verdict.state.outcome
    seed = None if source.seed is None else str(source.seed)
    return (
        path, seed, int(bool(meta.get("daily"))), started, str(outcome.status), outcome.score,
        len(verdict.moves), source.undos, info.st_size, info.st_mtime_ns,
    )  # fmt: skip


class History:
    """The games kept in a data folder, and their index."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else data_folder()
        self.notes: list[str] = []  # lines for the user: an index rebuilt, and why
        self._connection: sqlite3.Connection | None = None

    # -- the folder and the index -----------------------------------------------------

    def prepare(self) -> None:
        """Create the folder for games; HistoryError when it cannot be."""
        try:
            (self.folder / GAMES_FOLDER).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise HistoryError(f"cannot keep games in {self.folder}: {error.strerror or error}") from None

    @property
    def connection(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = self._open()
        return self._connection

    def _open(self) -> sqlite3.Connection:
        import sqlite3

        self.prepare()
        path = self.folder / INDEX_NAME
        existed = path.exists()
        try:
            connection = sqlite3.connect(path, timeout=10, isolation_level=None)
            connection.execute("PRAGMA busy_timeout = 10000")
            connection.executescript(_SCHEMA)
            connection.execute("SELECT count(*) FROM games").fetchone()
        except sqlite3.DatabaseError as error:
            with contextlib.suppress(NameError):
                connection.close()
            self.notes.append(f"The history index {path} was unreadable ({error}); it was rebuilt from the records.")
            with contextlib.suppress(OSError):
                path.unlink()
            connection = sqlite3.connect(path, timeout=10, isolation_level=None)
            connection.executescript(_SCHEMA)
            existed = False
        except OSError as error:
            raise HistoryError(f"cannot open the history index {path}: {error.strerror or error}") from None
        if not existed:
            self._rebuild(connection)
        return connection

    def _record_files(self) -> Iterator[str]:
        yield from sorted(str(p) for p in (self.folder / GAMES_FOLDER).glob("*.yaml"))
        with contextlib.suppress(OSError):
            for line in (self.folder / ELSEWHERE).read_text(encoding="utf-8").splitlines():
                if line.strip():
                    yield line.strip()

    def _rebuild(self, connection: sqlite3.Connection) -> None:
        rows = [row for row in (_row_of(path) for path in dict.fromkeys(self._record_files())) if row]
        with _transaction(connection):
            connection.execute("DELETE FROM games")
            connection.executemany(f"INSERT OR REPLACE INTO games ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
        if rows and not self.notes:
            self.notes.append(f"The history index was missing; it was rebuilt from {len(rows)} records.")

    # -- writing ----------------------------------------------------------------------

    def new_record_path(self, seed: int | None, started: str) -> str:
        """A fresh file name for a game in the games folder: `2026-11-30T15-20-00-deal-42.yaml`."""
        self.prepare()
        stem = started.replace(":", "-").rstrip("Z") + (f"-deal-{seed}" if seed is not None else "-deck")
        candidate = self.folder / GAMES_FOLDER / f"{stem}.yaml"
        number = 2
        while candidate.exists():
            candidate = self.folder / GAMES_FOLDER / f"{stem}-{number}.yaml"
            number += 1
        return str(candidate)

    def remember(self, path: str) -> None:
        """Index the record at `path` (again): its row is replaced by what the file says now."""
        path = os.path.abspath(path)
        row = _row_of(path)
        if row is None:
            return
        games = str(self.folder / GAMES_FOLDER)
        if os.path.dirname(path) != games and path not in set(self._record_files()):
            with open(self.folder / ELSEWHERE, "a", encoding="utf-8") as links:
                links.write(path + "\n")
        with _transaction(self.connection):
            self.connection.execute(f"INSERT OR REPLACE INTO games ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)", row)

    # -- reading ----------------------------------------------------------------------

    def refresh(self) -> None:
        """Read again every record that changed since it was indexed; drop the ones deleted."""
        connection = self.connection
        stale: list[str] = []
        gone: list[str] = []
        indexed = set()
        for path, size, mtime_ns in connection.execute("SELECT path, size, mtime_ns FROM games"):
            indexed.add(path)
            try:
                info = os.stat(path)
            except OSError:
                gone.append(path)
                continue
            if (info.st_size, info.st_mtime_ns) != (size, mtime_ns):
                stale.append(path)
        # A record whose session was killed before it ended may not be indexed yet.
        stale.extend(str(p) for p in (self.folder / GAMES_FOLDER).glob("*.yaml") if str(p) not in indexed)
        if not stale and not gone:
            return
        rows = [(path, _row_of(path)) for path in stale]
        with _transaction(connection):
            connection.executemany("DELETE FROM games WHERE path = ?", [(path,) for path in gone])
            for path, row in rows:
                if row is None:
                    connection.execute("DELETE FROM games WHERE path = ?", (path,))
                else:
                    connection.execute(f"INSERT OR REPLACE INTO games ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)", row)

    def games(self, seed: int | None = None) -> list[Game]:
        """Every kept game (of deal `seed`, if given), newest first."""
        self.refresh()
        query = f"SELECT {_COLUMNS} FROM games"
        arguments: tuple[Any, ...] = ()
        if seed is not None:
            query += " WHERE seed = ?"
            arguments = (str(seed),)
        query += " ORDER BY started DESC, mtime_ns DESC"
        return [
            Game(path, None if s is None else int(s), bool(daily), started, status, score, moves, undos)
            for path, s, daily, started, status, score, moves, undos, _, _ in self.connection.execute(query, arguments)
        ]

    def last_unfinished(self) -> Game | None:
        """The unfinished game played most recently (by its file's last change), if any."""
        self.refresh()
        row = self.connection.execute(
            f"SELECT {_COLUMNS} FROM games WHERE status = 'playing' ORDER BY mtime_ns DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        path, s, daily, started, status, score, moves, undos, _, _ = row
        return Game(path, None if s is None else int(s), bool(daily), started, status, score, moves, undos)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def totals(games: list[Game]) -> Totals:
    """The figures of a list of games, newest first: played, won, best and mean score, streaks, dailies."""
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
    daily = [game for game in games if game.daily]
    return Totals(
        played=len(games),
        won=len(wins),
        best_score=max(scores) if scores else None,
        mean_score_of_wins=sum(scores) / len(scores) if scores else None,
        streak=streak,
        longest_streak=longest,
        daily_played=len(daily),
        daily_won=sum(1 for game in daily if game.status == "won"),
    )


@contextlib.contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    connection.execute("BEGIN IMMEDIATE")
    committed = False
    try:
        yield
        connection.execute("COMMIT")
        committed = True
    finally:
        if not committed:
            connection.execute("ROLLBACK")
