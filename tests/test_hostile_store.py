"""A history that never deletes, paths and encodings, a full disk (issue 20, items 14-24). Each test names
the case it covers."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import tool_environment
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.store import history as history_module
from foursquare_cli.store.history import History
from foursquare_cli.store.index_schema import index_transaction

TOOL = [sys.executable, "-m", "foursquare_cli"]
runner = CliRunner()


@pytest.fixture
def home(tmp_path, monkeypatch) -> pathlib.Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("FOURSQUARE_HOME", str(folder))
    return folder


def play(*args: str, moves: str = "B2\nC2\n") -> object:
    return runner.invoke(app, ["play", "--seed", "42", *args], input=moves)


def kept(home: pathlib.Path) -> list[dict]:
    result = runner.invoke(app, ["history", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["games"]


def test_14_a_busy_index_is_waited_for_then_skipped_never_rebuilt(home, monkeypatch):
    assert play().exit_code == 0
    monkeypatch.setattr(history_module, "BUSY_SECONDS", 0.3)
    holder = sqlite3.connect(home / "history.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        listed = runner.invoke(app, ["history", "--wide"])  # the paths
        assert time.monotonic() - started < 5
        assert listed.exit_code == 2 and "is busy (another foursquare?)" in listed.stderr
        played = play("--seed", "43")
        assert played.exit_code == 0 and "Traceback" not in played.stderr
        assert "foursquare play: the game is saved in its record, not in the history index: " in played.stderr
        elsewhere = play("--seed", "44", "--record", str(home.parent / "elsewhere.yaml"))
        assert elsewhere.exit_code == 0 and "is busy (another foursquare?)" in elsewhere.stderr
    finally:
        holder.execute("COMMIT")
        holder.close()
    # nothing was rebuilt or lost: the games played meanwhile are found too, the one recorded elsewhere included
    assert sorted(game["seed"] for game in kept(home)) == [42, 43, 44]


def test_14_someone_elses_database_is_never_deleted_or_changed(home):
    home.mkdir(parents=True)
    theirs = sqlite3.connect(home / "history.sqlite")
    theirs.executescript(
        "CREATE TABLE games (name TEXT, hours INTEGER); CREATE TABLE browser_visits (url TEXT);"
        "INSERT INTO browser_visits VALUES ('https://example.org');"
    )
    theirs.commit()
    theirs.close()
    before = (home / "history.sqlite").read_bytes()
    listed = runner.invoke(app, ["history", "--wide"])  # the paths
    assert listed.exit_code == 2
    assert listed.stderr.endswith(
        "is not foursquare's history index (another program's database); it is left alone, "
        "and the history is not kept\n"
    )
    played = play()
    assert played.exit_code == 0 and "left alone" in played.stderr
    assert list((home / "games").glob("*.yaml")), "the game is still saved"
    assert (home / "history.sqlite").read_bytes() == before


def test_14_a_file_that_is_no_database_is_moved_aside_not_deleted(home):
    assert play().exit_code == 0
    (home / "history.sqlite").write_bytes(b"my notes, not a database" * 50)
    assert len(kept(home)) == 1
    aside = list(home.glob("history.sqlite.unreadable-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == b"my notes, not a database" * 50


def test_15_an_index_of_a_newer_version_or_a_folder_in_its_place_is_one_line(home):
    assert play().exit_code == 0
    index = sqlite3.connect(home / "history.sqlite")
    index.execute("PRAGMA user_version = 99")
    index.commit()
    index.close()
    listed = runner.invoke(app, ["history", "--wide"])  # the paths
    assert listed.exit_code == 2 and "made by a newer foursquare; it is left alone" in listed.stderr
    (home / "history.sqlite").unlink()
    (home / "history.sqlite").mkdir()
    for result in (runner.invoke(app, ["history"]), play()):
        assert "Traceback" not in result.stderr and "is not a file" in result.stderr


def test_15_a_full_disk_is_the_error_said_not_the_failed_rollback(home):
    class FullDisk:
        def execute(self, statement, *arguments):
            if statement == "ROLLBACK":
                raise sqlite3.OperationalError("cannot rollback - no transaction is active")
            if statement != "BEGIN IMMEDIATE":
                raise sqlite3.OperationalError("database or disk is full")

    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
        with index_transaction(FullDisk()):  # type: ignore[arg-type]
            FullDisk().execute("INSERT")
    assert play().exit_code == 0
    kept_games = History(home)
    kept_games._connection = FullDisk()  # type: ignore[assignment]
    record = next((home / "games").glob("*.yaml"))
    with pytest.raises(history_module.HistoryError, match="database or disk is full"):
        kept_games.remember(str(record))


def test_16_a_record_named_by_the_player_is_in_the_history_of_a_fresh_folder(home, tmp_path):
    assert play("--record", str(tmp_path / "mine.yaml")).exit_code == 0
    assert [game["path"] for game in kept(home)] == [str(tmp_path / "mine.yaml")]


def test_17_a_relative_data_folder_counts_each_game_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FOURSQUARE_HOME", "relhome")
    assert play().exit_code == 0 and play("--seed", "43").exit_code == 0
    assert len(kept(tmp_path / "relhome")) == 2


@pytest.mark.slow
def test_18_the_same_deal_started_at_once_is_kept_as_many_games(home):
    processes = [
        subprocess.Popen(
            [*TOOL, "play", "--seed", "77"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=tool_environment(FOURSQUARE_HOME=str(home)),
        )
        for _ in range(6)
    ]
    for process in processes:
        _, err = process.communicate("B2\n", timeout=60)
        assert process.returncode == 0, err
    assert len(kept(home)) == 6
    with History(home).new_record(5, "2026-01-01T00:00:00Z") as first:
        with History(home).new_record(5, "2026-01-01T00:00:00Z") as second:
            assert first.path != second.path and os.path.exists(first.path) and os.path.exists(second.path)


@pytest.mark.posix
def test_19_a_hostile_list_of_records_elsewhere_is_read_safely(home, tmp_path):
    odd = tmp_path / "two\nlines.yaml"
    assert play("--record", str(odd)).exit_code == 0
    assert [game["path"] for game in kept(home)] == [str(odd)]
    (home / "history.sqlite").unlink()
    assert [game["path"] for game in kept(home)] == [str(odd)], "one entry, after a rebuild too"
    (home / "elsewhere.txt").unlink()
    os.mkfifo(home / "elsewhere.txt")
    (home / "history.sqlite").unlink()
    started = time.monotonic()
    assert runner.invoke(app, ["history"]).exit_code == 0 and time.monotonic() - started < 10
    (home / "elsewhere.txt").unlink()
    (home / "elsewhere.txt").symlink_to("/dev/zero")
    (home / "history.sqlite").unlink()
    assert runner.invoke(app, ["history"]).exit_code == 0


@pytest.mark.slow
def test_20_paths_that_are_not_utf8_are_kept_and_shown(tmp_path):
    home = os.fsdecode(os.fsencode(str(tmp_path)) + b"/h\xff")
    environment = tool_environment(FOURSQUARE_HOME=home, NO_COLOR="1")
    record = os.fsdecode(os.fsencode(str(tmp_path)) + b"/g\xff.yaml")
    for args in (["play", "--seed", "3"], ["play", "--seed", "4", "--record", record], ["history"]):
        process = subprocess.run([*TOOL, *args], input=b"B2\n", capture_output=True, env=environment, timeout=60)
        assert process.returncode == 0 and b"Traceback" not in process.stderr, process.stderr
    (pathlib.Path(home) / "games" / os.fsdecode(b"odd\xfe.yaml")).write_text("foursquare: 1\nseed: 5\nmoves: []\n")
    listed = subprocess.run([*TOOL, "history", "-f", "json"], capture_output=True, env=environment, timeout=60)
    assert listed.returncode == 0 and len(json.loads(listed.stdout)["games"]) == 3
    assert not list(pathlib.Path(tmp_path).glob("*.lock")) and not list(pathlib.Path(tmp_path).glob(".*.lock"))


def test_20_a_player_name_that_is_not_utf8_still_makes_a_valid_record(tmp_path):
    bot = pathlib.Path(__file__).resolve().parent.parent / "examples" / "greedy_bot.py"
    player = os.fsdecode(f"cmd:{sys.executable} {bot} ".encode() + b"\xff")
    record = tmp_path / "r.yaml"
    result = runner.invoke(app, ["auto", "--seed", "3", "-p", player, "--record", str(record), "-f", "json"])
    assert "Traceback" not in result.stderr
    assert runner.invoke(app, ["check", str(record)]).exit_code == 0


def test_21_escape_sequences_in_a_path_never_reach_the_terminal(home, tmp_path):
    hostile = tmp_path / "x\x1b]0;OWNED\x07\x1b[2J.yaml"
    result = play("--record", str(hostile), moves="B2\nquit\n")
    assert result.exit_code == 0
    listed = runner.invoke(app, ["history", "--wide"])  # the paths
    for text in (result.stdout, result.stderr, listed.stdout, listed.stderr):
        assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;OWNED\\x07" in result.stderr and "\\x1b]0;OWNED\\x07" in listed.stdout


@pytest.mark.slow
def test_22_an_ascii_terminal_gets_no_unicode_error(tmp_path):
    environment = tool_environment(PYTHONIOENCODING="ascii", FOURSQUARE_HOME=str(tmp_path / "h\u00e9"))
    game = tmp_path / "\u2660\u00e9.yaml"
    game.write_text("foursquare: 1\nseed: 3\nmoves: [B2]\n")
    for args in (
        ["deal", "--seed", "3", "--unicode"],
        ["replay", str(game), "--unicode"],
        ["auto", "--seed", "3", "-p", "greedy", "--unicode"],
        ["check", str(game)],
        ["play", "--seed", "3"],
        ["history"],
    ):
        process = subprocess.run([*TOOL, *args], input="B2\n", capture_output=True, text=True, env=environment)
        assert process.returncode == 0 and "Traceback" not in process.stderr, (args, process.stderr)


def test_23_a_kept_game_on_a_full_disk_goes_on_unsaved(home, monkeypatch):
    from foursquare_cli.errors import WriteError
    from foursquare_cli.store.files import RecordFile

    def full(self, text):
        raise WriteError("cannot write: No space left on device", path=self.path)

    monkeypatch.setattr(RecordFile, "write", full)
    result = play(moves="B2\nC2\nD2\n")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("the game goes on without being saved") == 1
    assert result.stdout.count("Move 3: D2") == 1


def test_23_ctrl_c_on_a_full_disk_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    from foursquare_cli.app import pipe as play_module
    from foursquare_cli.errors import WriteError
    from foursquare_cli.store.files import RecordFile

    writes = []

    def fill(self, text):
        writes.append(text)
        if len(writes) > 2:
            raise WriteError("cannot write: No space left on device", path=self.path)

    monkeypatch.setattr(RecordFile, "write", fill)
    monkeypatch.setattr(play_module, "iter_lines", lambda stream: _interrupt_after([(1, "B2")]))
    result = runner.invoke(app, ["play", "--seed", "42", "--record", str(tmp_path / "r.yaml")], input="")
    assert result.exit_code == 130 and "Traceback" not in result.stderr
    assert "No space left on device; the record holds the game up to the move before" in result.stderr


def _interrupt_after(lines):
    yield from lines
    raise KeyboardInterrupt


def test_23_quit_right_after_resuming_says_where_the_game_is(tmp_path):
    record = tmp_path / "g.yaml"
    assert play("--record", str(record), moves="B2\nC2\n").exit_code == 0
    result = runner.invoke(app, ["play", "--resume", str(record)], input="quit\n")
    assert result.exit_code == 0
    assert "No move was played" not in result.stderr and f"The game is saved in {record}" in result.stderr


def test_24_refused_records_are_not_parsed_again(home, monkeypatch):
    assert play().exit_code == 0
    games = home / "games"
    for number in range(100):
        (games / f"broken-{number}.yaml").write_text("foursquare: 1\nseed: 3\nmoves: [Z9]\n" + "# pad\n" * 1000)
    from foursquare_cli.formats.source import read_source
    from foursquare_cli.store import kept as kept_rows

    read = []
    monkeypatch.setattr(kept_rows, "read_source", lambda path, data=None: read.append(path) or read_source(path, data))
    assert len(kept(home)) == 1
    first = len(read)
    assert first >= 100
    assert len(kept(home)) == 1
    assert len(read) == first, "the second listing parsed nothing again"
    (games / "broken-7.yaml").write_text("foursquare: 1\nseed: 3\nmoves: [B2]\n")
    assert len(kept(home)) == 2  # a refused file that changed is read again


@pytest.mark.posix
@pytest.mark.parametrize("statement", ["CREATE INDEX", "PRAGMA application_id ="])
def test_14_an_index_killed_while_it_is_made_is_still_ours(home, statement):
    """The index was made a statement at a time, each its own transaction: killed after its tables and before
    its mark (application_id), it was taken for another program's database, and the history was never kept
    again (found by the crash test, python -m fuzz.crash). Its tables and marks are now one transaction: a
    kill leaves no index, or a whole one. The process is killed as SQLite runs `statement`."""
    killer = (
        "import os, signal, sqlite3, sys\n"
        "from foursquare_cli.store.history import History\n"
        "connect = sqlite3.connect\n"
        "def killed_at(*args, **kwargs):\n"
        "    connection = connect(*args, **kwargs)\n"
        "    connection.set_trace_callback(\n"
        "        lambda sql: sql.lstrip().startswith(sys.argv[2]) and os.kill(os.getpid(), signal.SIGKILL))\n"
        "    return connection\n"
        "sqlite3.connect = killed_at\n"
        "History(sys.argv[1]).games()\n"
    )
    done = subprocess.run([sys.executable, "-c", killer, str(home), statement], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert (home / "history.sqlite").exists()
    listed = runner.invoke(app, ["history", "-f", "json"])
    assert listed.exit_code == 0, listed.stderr
    assert "not foursquare's" not in listed.stderr and "unreadable" not in listed.stderr
    assert play().exit_code == 0 and len(kept(home)) == 1


def test_14_a_game_killed_before_its_first_move_leaves_no_empty_record(home):
    """A game kept in the history reserves its record, empty, as it starts; killed before its first move, the
    empty file stayed in games/ (and `check` called it invalid), found by the crash test (python -m fuzz.crash).
    The reservation is now held from the moment it is made, and the history removes one no session holds when
    it is next read, with the temporary of a first write the kill cut short: a game waiting for its first move
    keeps its own."""
    process = subprocess.Popen(
        [*TOOL, "play", "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=tool_environment(FOURSQUARE_HOME=str(home)),
    )
    try:
        assert process.stdout is not None and process.stdout.readline()  # the first board: the game is open
        assert History(home).games() == []
        assert len(list((home / "games").glob("*.yaml"))) == 1, "a game waiting for its first move keeps its record"
    finally:
        process.kill()
        process.communicate()
    (reserved,) = (home / "games").glob("*.yaml")
    (home / "games" / f".{reserved.name}.foursquare-killed.tmp").write_text("foursquare: 1\n")  # its first write's
    assert History(home).games() == []
    assert list((home / "games").iterdir()) == [], "the empty record, its lock file and its temporary are gone"
