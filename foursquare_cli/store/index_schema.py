"""The history index's schema: its tables, the marks that say the file is this tool's (SQLite's `application_id`
and `user_version`), and the one way it is made or changed, a transaction that a kill leaves whole or undone."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

APPLICATION_ID = 0x46535131  # "FSQ1": this file is foursquare's history index
SCHEMA_VERSION = 5  # 4: `piped`; 5: `daily` only on its day's deal (older rows read again)
BUSY_SECONDS = 5.0  # how long a busy index is waited for before it is skipped
INDEX_COLUMNS = "path, seed, daily, started, status, score, moves, undos, hints, seconds, grade, piped, size, mtime_ns"
INDEX_INSERT = f"INSERT OR REPLACE INTO games ({INDEX_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
INDEX_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games (
    path BLOB PRIMARY KEY,
    seed TEXT,
    daily TEXT,
    started TEXT NOT NULL,
    status TEXT NOT NULL,
    score INTEGER,
    moves INTEGER NOT NULL,
    undos INTEGER NOT NULL,
    hints INTEGER NOT NULL,
    seconds REAL,
    grade TEXT,
    piped INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_started ON games (started);
CREATE TABLE IF NOT EXISTS refused (path BLOB PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL);
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION};
"""
SCHEMA_STATEMENTS = tuple(statement.strip() for statement in INDEX_SCHEMA.split(";") if statement.strip())
OUR_TABLES = {"games", "refused"}
LEGACY_COLUMNS = ["path", "seed", "daily", "started", "status", "score", "moves", "undos", "size", "mtime_ns"]


def make_schema(connection: sqlite3.Connection, *, drop_older: bool = False) -> None:
    """The index's tables and its marks as ours, an older schema's dropped first, in one transaction: a kill
    leaves no index or a whole one (killed between its tables and its mark, it was taken for another's)."""
    with index_transaction(connection):
        drop = ("DROP TABLE IF EXISTS games", "DROP TABLE IF EXISTS refused") if drop_older else ()
        for statement in (*drop, *SCHEMA_STATEMENTS):
            connection.execute(statement)


@contextlib.contextmanager
def index_transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """One transaction; on an error, rolled back as far as SQLite still can, and the first error is the one
    raised (a full disk's, not the rollback's)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:  # any way out of the transaction (Ctrl-C too) rolls it back; the error goes on up
        with contextlib.suppress(Exception):
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
