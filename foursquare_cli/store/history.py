"""Your games, kept: every game of `play` saved as a record in the data folder, and an index of them.

The records are the truth; the index (SQLite, the standard library's `sqlite3`) is a
cache of what they say, kept beside them as `history.sqlite`:

- The data folder is `$FOURSQUARE_HOME` if set, else the platform's place for a user's data, as `platformdirs` knows
  it: `$XDG_DATA_HOME/foursquare` or `~/.local/share/foursquare` on Linux, `~/Library/Application
  Support/foursquare` on macOS, `%APPDATA%\\foursquare` on Windows.
- A game played without `--record` is saved as `games/DATE-TIME-deal-N.yaml` there; one played with `--record FILE`
  is written to FILE and its path is remembered in `elsewhere.txt`, so that a rebuilt index finds it again.
- A game is indexed when its session starts (a kept game: once its first move is saved) and when it ends; each write
  is one transaction, and a busy index is waited for, so two terminals playing at once both get their games indexed.
- Before the history is read, every indexed file is looked at again (its size and time of change): a changed record
  is read again, a deleted one drops out, and a record in `games/` that is not indexed yet (its session was killed)
  is added; the empty one reserved for a game killed before its first move, held by none, is removed.
- A missing index is rebuilt from the record files, with a line saying so. The index is marked as this tool's
  (SQLite's `application_id`, and a schema version in `user_version`): a file at its place that is not ours (another
  program's database, even one with no table yet, or any database reached through a link that is not marked as ours)
  is never deleted or changed, and the history is then not kept, with a line; a file that is no database at all, or
  an index of ours whose pages are damaged (SQLite's `quick_check`), is moved aside (`history.sqlite.
  unreadable-TIME`), never deleted, and the index rebuilt from the records. A busy index is waited for a bounded
  time, then skipped with a line, never rebuilt.
- Paths are kept as bytes (`os.fsencode`: a name that is not UTF-8 is kept as it is); `elsewhere.txt` holds one JSON
  string a line (a name with a newline stays one entry), read as a regular file only, at most 1 MiB of it. A file in
  `games/` that is no valid record is remembered as refused (by its size and time of change), not parsed again until
  it changes. A data folder that cannot be written (a read-only copy) is listed from its records, indexed in memory.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import platformdirs

from ..errors import UsageError, display_name
from ..formats.jsonl import json_line
from ..formats.lines import ReadError, read_bytes
from ..rules import Move
from .files import RecordFile, os_reason, remove_if_abandoned, reserve_record, unwritable
from .index_schema import (
    APPLICATION_ID,
    BUSY_SECONDS,
    INDEX_COLUMNS,
    INDEX_INSERT,
    LEGACY_COLUMNS,
    OUR_TABLES,
    SCHEMA_VERSION,
    index_transaction,
    make_schema,
)
from .kept import KeptGame, file_status, index_row, kept_game, kept_moves, started_now

INDEX_NAME = "history.sqlite"
GAMES_FOLDER = "games"
ELSEWHERE = "elsewhere.txt"
_RESERVED_NAME = re.compile(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-(deal-\d+|deck)(-\d+)?\.yaml")  # new_record's


class HistoryError(UsageError):
    """The data folder or its index cannot be used; the message is one line saying where and why."""


def data_folder() -> Path:
    """Where a user's games are kept (see the module's docstring), as an absolute path."""
    if override := os.environ.get("FOURSQUARE_HOME"):
        return Path(os.path.abspath(override))
    return Path(os.path.abspath(platformdirs.user_data_dir("foursquare", appauthor=False, roaming=True)))


def _shown(path: Path | str) -> str:
    return display_name(str(path))


class History:
    """The games kept in a data folder, and their index."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(os.path.abspath(folder)) if folder is not None else data_folder()
        self.notes: list[str] = []  # lines for the user: an index rebuilt, and why
        self._connection: sqlite3.Connection | None = None

    # -- the folder and the index -----------------------------------------------------

    def prepare(self) -> None:
        """Create the folder for games; HistoryError when it cannot be."""
        games = self.folder / GAMES_FOLDER
        try:
            games.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file at a folder's place: which one, not "File exists" of the data folder
            place = next((folder for folder in (games, *games.parents) if folder.is_file()), games)
            raise HistoryError(f"cannot keep games in {_shown(games)}: {_shown(place)} is not a folder") from None
        except (OSError, ValueError) as error:
            raise HistoryError(f"cannot keep games in {_shown(self.folder)}: {os_reason(error)}") from None

    @property
    def connection(self) -> sqlite3.Connection:
        if self._connection is None:
            with self._sqlite("open"):
                self._connection = self._open()
        return self._connection

    @contextlib.contextmanager
    def _sqlite(self, doing: str) -> Iterator[None]:
        """SQLite's errors, and the file system's, as one HistoryError line."""
        try:
            yield
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise HistoryError(
                    f"the history index {_shown(self.index_path)} is busy (another foursquare?); try again in a moment"
                ) from None
            raise HistoryError(f"cannot {doing} the history index {_shown(self.index_path)}: {error}") from None
        except (sqlite3.Error, OSError) as error:
            raise HistoryError(
                f"cannot {doing} the history index {_shown(self.index_path)}: {os_reason(error)}"
            ) from None

    @property
    def index_path(self) -> Path:
        return self.folder / INDEX_NAME

    def _open(self) -> sqlite3.Connection:
        self.prepare()
        path = self.index_path
        if why := unwritable(self.folder):  # a read-only mount or copy, a full disk: listed from its records
            self.notes.append(f"{_shown(self.folder)} {why}; the history is read from its records.")
            return self._rebuilt(":memory:")
        info = file_status(str(path))
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise HistoryError(f"{_shown(path)} is not a file; the history is not kept there")
        connection = sqlite3.connect(os.fsencode(path), timeout=BUSY_SECONDS, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            identity, version = (
                connection.execute(f"PRAGMA {name}").fetchone()[0] for name in ("application_id", "user_version")
            )
            objects = connection.execute("SELECT type, name FROM sqlite_master").fetchall()
            tables = {name for kind, name in objects if kind == "table"}
            sound = identity != APPLICATION_ID or connection.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        except sqlite3.DatabaseError as error:
            connection.close()
            if "locked" in str(error) or "busy" in str(error):
                raise
            return self._replace_unreadable(path, error)
        fresh = not tables
        # Ours: marked as ours; or unmarked (0) and either an earlier foursquare's index, or empty of any schema
        # object with no user_version, at a path that is not a link (a link, or a file with a view, an index or
        # a version of its own and no table yet, is another program's).
        empty = not objects and version == 0 and not path.is_symlink()
        theirs = identity != APPLICATION_ID and not (identity == 0 and (empty or self._legacy(connection, tables)))
        if theirs:
            connection.close()
            raise HistoryError(
                f"{_shown(path)} is not foursquare's history index (another program's database); "
                "it is left alone, and the history is not kept"
            )
        if not sound:  # ours, but its pages are damaged: set aside, and rebuilt from the records
            connection.close()
            return self._replace_unreadable(path, sqlite3.DatabaseError("its pages are damaged"))
        if identity == APPLICATION_ID and version > SCHEMA_VERSION:
            connection.close()
            raise HistoryError(f"{_shown(path)} was made by a newer foursquare; it is left alone")
        older = not fresh and (identity != APPLICATION_ID or version != SCHEMA_VERSION)  # ours, of an older schema
        make_schema(connection, drop_older=older)
        if fresh or older:
            self._rebuild(connection, missing=info is None or info.st_size == 0)
        return connection

    @staticmethod
    def _legacy(connection: sqlite3.Connection, tables: set[str]) -> bool:
        """An index of an earlier foursquare (no application_id yet): only its `games` table, as it made it."""
        if tables - OUR_TABLES or "games" not in tables:
            return False
        return [row[1] for row in connection.execute("PRAGMA table_info(games)")] == LEGACY_COLUMNS

    def _replace_unreadable(self, path: Path, error: Exception) -> sqlite3.Connection:
        """A file at the index's place that is no database: moved aside (never deleted: a second in the same second
        gets a name of its own, -2 on), the index rebuilt."""
        stamp = f"{INDEX_NAME}.unreadable-{started_now().replace(':', '-')}"
        names = (path.with_name(stamp + (f"-{number}" if number > 1 else "")) for number in itertools.count(1))
        aside = next(name for name in names if not name.exists())
        os.replace(path, aside)
        self.notes.append(
            f"The history index {_shown(path)} was unreadable ({error}); it was moved to {_shown(aside.name)} "
            "and rebuilt from the records."
        )
        return self._rebuilt(os.fsencode(path))

    def _rebuilt(self, path: bytes | str) -> sqlite3.Connection:
        """A new index at `path` (":memory:" for one of this run alone), made from the records."""
        connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        make_schema(connection)
        self._rebuild(connection, missing=False)
        return connection

    def _elsewhere(self) -> list[str]:
        """The record paths kept outside `games/`: `elsewhere.txt`, a JSON string a line (older lines: a path)."""
        try:
            data = read_bytes(str(self.folder / ELSEWHERE))
        except ReadError:
            return []
        paths = []
        for line in os.fsdecode(data).splitlines():
            if line.startswith('"'):
                with contextlib.suppress(ValueError):
                    paths.append(json.loads(line))
            elif line.strip():
                paths.append(line.strip())
        return paths

    def _record_files(self) -> list[str]:
        games = sorted(os.fsdecode(p) for p in (self.folder / GAMES_FOLDER).glob("*.yaml"))
        return list(dict.fromkeys(games + self._elsewhere()))

    def _rebuild(self, connection: sqlite3.Connection, *, missing: bool) -> None:
        rows = [row for row in (index_row(path) for path in self._record_files()) if row]
        with index_transaction(connection):
            connection.execute("DELETE FROM games")
            connection.executemany(INDEX_INSERT, rows)
        if rows and missing and not self.notes:
            records = "1 record" if len(rows) == 1 else f"{len(rows)} records"
            self.notes.append(f"The history index was missing; it was rebuilt from {records}.")

    # -- writing ----------------------------------------------------------------------

    def new_record(self, seed: int | None, started: str) -> RecordFile:
        """A fresh record in the games folder, reserved and held (`files.reserve_record`):
        `2026-11-30T15-20-00-deal-42.yaml` (then `-2`, `-3`, ...)."""
        self.prepare()
        stem = started.replace(":", "-").rstrip("Z") + (f"-deal-{seed}" if seed is not None else "-deck")
        try:
            record = reserve_record(str(self.folder / GAMES_FOLDER), stem)
        except OSError as error:
            raise HistoryError(f"cannot keep games in {_shown(self.folder)}: {os_reason(error)}") from None
        if record is None:
            raise HistoryError(f"cannot keep games in {_shown(self.folder)}: too many games started in one second")
        return record

    def remember(self, path: str) -> None:
        """Index the record at `path` (again): its row is replaced by what the file says now."""
        path = os.path.abspath(path)
        row = index_row(path)
        if row is None:
            return
        self.prepare()
        unopened: HistoryError | None = None
        try:
            with self._sqlite("update"):
                connection = self.connection  # opened (a missing index rebuilt) before this record is named anywhere
        except HistoryError as error:  # busy, say: the record is still named, and found by a later `refresh`
            unopened = error
        games = str(self.folder / GAMES_FOLDER)
        if os.path.dirname(path) != games and path not in set(self._record_files()):
            try:
                with open(listed := self.folder / ELSEWHERE, "a", encoding="ascii") as links:
                    links.write(json_line(path))
            except OSError as error:
                raise HistoryError(f"cannot remember {_shown(path)} in {_shown(listed)}: {os_reason(error)}") from None
        if unopened is not None:
            raise unopened
        with self._sqlite("update"), index_transaction(connection):
            connection.execute(INDEX_INSERT, row)

    # -- reading ----------------------------------------------------------------------

    def refresh(self) -> None:
        """Read again every record that changed since it was indexed; drop the ones deleted; add the records of
        `games/` and `elsewhere.txt` not indexed yet (a session killed, an index that was busy), except those
        already refused as they are."""
        if os.path.isdir(self.folder) and not unwritable(self.folder):  # a read-only folder's are left as they are
            self._remove_abandoned()
        with self._sqlite("read"):
            connection = self.connection
            stale: list[str] = []
            gone: list[bytes] = []
            known = set()
            for key, size, mtime_ns in connection.execute("SELECT path, size, mtime_ns FROM games"):
                known.add(key)
                info = file_status(os.fsdecode(key))
                if info is None:
                    gone.append(key)
                elif (info.st_size, info.st_mtime_ns) != (size, mtime_ns):
                    stale.append(os.fsdecode(key))
            refused = {key: (size, mtime) for key, size, mtime in connection.execute("SELECT * FROM refused")}
            for path in self._record_files():
                key = os.fsencode(path)
                info = file_status(path)
                if key in known or info is None or refused.get(key) == (info.st_size, info.st_mtime_ns):
                    continue
                stale.append(path)
            if not stale and not gone:
                return
            rows = [(path, index_row(path), file_status(path)) for path in stale]
            with index_transaction(connection):
                connection.executemany("DELETE FROM games WHERE path = ?", [(key,) for key in gone])
                for path, row, info in rows:
                    key = os.fsencode(path)
                    if row is not None:
                        connection.execute(INDEX_INSERT, row)
                        connection.execute("DELETE FROM refused WHERE path = ?", (key,))
                        continue
                    connection.execute("DELETE FROM games WHERE path = ?", (key,))
                    if info is not None:
                        connection.execute(
                            "INSERT OR REPLACE INTO refused VALUES (?, ?, ?)", (key, info.st_size, info.st_mtime_ns)
                        )

    def _remove_abandoned(self) -> None:
        """Remove the records `new_record` reserved for games whose sessions were killed before their first move:
        empty, and held by no session (a session that ends removes its own)."""
        for path in (self.folder / GAMES_FOLDER).glob("*.yaml"):
            info = file_status(str(path))
            if info is not None and info.st_size == 0 and _RESERVED_NAME.fullmatch(path.name):
                remove_if_abandoned(str(path))

    def games(self, seed: int | None = None) -> list[KeptGame]:
        """Every kept game (of deal `seed`, if given), newest first."""
        self.refresh()
        query = f"SELECT {INDEX_COLUMNS} FROM games"
        arguments: tuple[Any, ...] = ()
        if seed is not None:
            query += " WHERE seed = ?"
            arguments = (str(seed),)
        query += " ORDER BY started DESC, mtime_ns DESC"
        with self._sqlite("read"):
            found = [kept_game(row) for row in self.connection.execute(query, arguments)]
            refused = [os.fsdecode(key) for key, size, _ in self.connection.execute("SELECT * FROM refused") if size]
        self._note_refused([path for path in refused if file_status(path) is not None])
        return found

    def _note_refused(self, paths: list[str]) -> None:
        """A line for the files the history keeps but cannot list (a record edited by hand into no record): a
        game that vanished from the list without a word looked lost. Empty files are records being reserved."""
        if not paths:
            return
        if len(paths) == 1:
            note = f"{_shown(paths[0])} is not a valid record, so it is not listed (foursquare check says why)."
        else:
            folder = _shown(self.folder / GAMES_FOLDER)
            note = f"{len(paths)} kept files are not valid records, so they are not listed (foursquare check {folder})."
        if note not in self.notes:
            self.notes.append(note)

    def won_lines(self, seed: int) -> list[list[Move]]:
        """The moves of every kept game of deal `seed` that was won, newest first: where a search of the deal
        starts (`solve`, `analyze`), so that it never finds less than a score the player made; none when nothing
        is kept (a search makes no data folder) or the history cannot be read (the search needs no history)."""
        try:
            games = self.games(seed=seed) if self.index_path.exists() else []
        except HistoryError:
            return []
        lines = (kept_moves(game.path) for game in games if game.status == "won")
        return [line for line in lines if line is not None]

    def last_played(self) -> str | None:
        """The record of the game played most recently (by its last change), finished or not, a kept file that
        is no valid record included (`check --last` is how one finds out why); None when none is kept: what
        `--last` names. A record broken by hand had been passed over for the game before it without a word."""
        self.refresh()
        with self._sqlite("read"):
            row = self.connection.execute("SELECT path, mtime_ns FROM games ORDER BY mtime_ns DESC LIMIT 1").fetchone()
        newer = self._refused_since(row[1] if row is not None else -1)
        return newer[0] if newer else None if row is None else os.fsdecode(row[0])

    def last_unfinished(self) -> KeptGame | None:
        """The unfinished game played most recently at a prompt (by its file's last change), if any: a game
        played from a pipe was a script's, which gives its file to go on (`play --resume FILE`). A kept file
        changed since that is no valid record is noted: it may be the game meant, broken by hand."""
        self.refresh()
        with self._sqlite("read"):
            playing = f"SELECT {INDEX_COLUMNS} FROM games WHERE status = 'playing' AND piped = 0"
            row = self.connection.execute(playing + " ORDER BY mtime_ns DESC LIMIT 1").fetchone()
        game = None if row is None else kept_game(row)
        self._note_refused(self._refused_since(-1 if row is None else row[-1]))
        return game

    def _refused_since(self, mtime_ns: int) -> list[str]:
        """The kept files that are no valid record (empty ones aside: records being reserved) changed after
        `mtime_ns`, newest first, those still there."""
        with self._sqlite("read"):
            found = self.connection.execute(
                "SELECT path FROM refused WHERE size > 0 AND mtime_ns > ? ORDER BY mtime_ns DESC", (mtime_ns,)
            ).fetchall()
        return [path for (key,) in found if file_status(path := os.fsdecode(key)) is not None]

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
