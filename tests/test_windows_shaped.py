"""The main commands in a Windows-shaped Python (tests/windows_shaped/sitecustomize.py): with the POSIX-only
modules and names taken away in every process the tool starts, each command does what it does on Linux.

These machines have no Windows runner; what this stand-in covers and what only a real Windows run would is
in docs/development.md. The first tests show that the stand-in bites: code that uses a POSIX-only name
fails under it."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest
from conftest import in_process

HERE = pathlib.Path(__file__).parent
STAND_IN = HERE / "windows_shaped"
EXAMPLES = HERE.parent / "examples"
SAMPLES = HERE.parent / "samples"
pytestmark = pytest.mark.posix  # the stand-in takes POSIX away from a POSIX Python


def _run(arguments, home, *, shaped=True, stdin="", extra_path=(), cwd=None, **env):
    path = [str(STAND_IN)] if shaped else []
    environment = dict(os.environ, FOURSQUARE_HOME=str(home), COLUMNS="100", NO_COLOR="1", **env)
    environment["PYTHONPATH"] = os.pathsep.join([*path, *map(str, extra_path)])
    return subprocess.run(
        [sys.executable, *arguments], input=stdin, capture_output=True, text=True, timeout=120, env=environment, cwd=cwd
    )


def _tool(arguments, home, **options):
    return _run(["-m", "foursquare_cli", *arguments], home, **options)


def _plain(arguments, home, stdin=""):
    """The same command run on this POSIX Python as it is (in-process: nothing of the stand-in applies)."""
    return in_process(*arguments, input=stdin, FOURSQUARE_HOME=str(home), COLUMNS="100", NO_COLOR="1")


def test_the_stand_in_takes_away_what_windows_lacks(tmp_path):
    package = tmp_path / "posixy"
    package.mkdir()
    (package / "__init__.py").write_text(
        textwrap.dedent("""
        import multiprocessing, os, select, signal, subprocess, sys

        def attempt(what, call):
            try:
                call()
            except (AttributeError, ImportError, OSError, ValueError) as error:
                print(what, type(error).__name__)
            else:
                print(what, "works")

        def fcntl():
            import fcntl as module
        attempt("fcntl", fcntl)
        attempt("killpg", lambda: os.killpg)
        attempt("O_NONBLOCK", lambda: os.O_NONBLOCK)
        attempt("SIGHUP", lambda: signal.SIGHUP)
        attempt("SIGKILL", lambda: signal.SIGKILL)
        attempt("select-pipe", lambda: select.select([os.pipe()[0]], [], [], 0))
        attempt("preexec_fn", lambda: subprocess.Popen(["true"], preexec_fn=lambda: None))
        attempt("fork-context", lambda: multiprocessing.get_context("fork"))
        attempt("msvcrt", lambda: __import__("msvcrt").locking)
        attempt("SIGINT", lambda: signal.SIGINT)
        attempt("replace", lambda: os.replace)
        """)
    )
    result = _run(["-c", "import posixy"], tmp_path, extra_path=[tmp_path], FOURSQUARE_WINDOWS_SHAPED="posixy")
    assert result.stderr == ""
    said = dict(line.split() for line in result.stdout.splitlines())
    assert said == {
        "fcntl": "ModuleNotFoundError",
        "killpg": "AttributeError",
        "O_NONBLOCK": "AttributeError",
        "SIGHUP": "AttributeError",
        "SIGKILL": "AttributeError",
        "select-pipe": "OSError",
        "preexec_fn": "ValueError",
        "fork-context": "ValueError",
        "msvcrt": "works",
        "SIGINT": "works",
        "replace": "works",
    }
    plain = _run(["-c", "import posixy"], tmp_path, shaped=False, extra_path=[tmp_path])
    unshaped = dict(line.split() for line in plain.stdout.splitlines())
    assert unshaped.pop("msvcrt") == "ModuleNotFoundError"  # Linux has none: the stand-in brings one
    assert set(unshaped.values()) == {"works"}


def test_the_tools_modules_are_narrowed_in_the_stand_in(tmp_path):
    probe = "import foursquare_cli.store.files as f, foursquare_cli.players.processes as p; "
    probe += "print(hasattr(f.os, 'fchmod'), hasattr(p.os, 'killpg'), hasattr(f.os, 'replace'))"
    assert _run(["-c", probe], tmp_path).stdout == "False False True\n"


@pytest.mark.slow  # a long multi-process run: CI's `-m slow` step
def test_play_from_a_pipe_check_replay_and_history(tmp_path):
    moves = "B2\nC2\nundo\nA2\nquit\n"
    record = tmp_path / "game.yaml"
    shaped = _tool(["play", "--seed", "42", "--record", str(record)], tmp_path / "a", stdin=moves)
    plain = _plain(["play", "--seed", "42", "--record", str(tmp_path / "plain.yaml")], tmp_path / "b", stdin=moves)
    assert shaped.returncode == 0, shaped.stderr
    assert shaped.stdout == plain.stdout.replace("plain.yaml", "game.yaml")
    assert record.read_text().splitlines()[:4] == (tmp_path / "plain.yaml").read_text().splitlines()[:4]
    assert not list(tmp_path.glob(".*.lock")), "the lock (msvcrt's, in the stand-in) is let go and removed"

    samples = sorted(str(path) for path in SAMPLES.rglob("*.yaml"))
    checked, checked_plain = _tool(["check", *samples], tmp_path / "a"), _plain(["check", *samples], tmp_path / "b")
    assert (checked.returncode, checked.stdout, checked.stderr) == (
        checked_plain.returncode,
        checked_plain.stdout,
        checked_plain.stderr,
    )
    assert checked.returncode == 1 and "move-after-end.yaml" in checked.stdout + checked.stderr

    replayed = _tool(["replay", str(SAMPLES / "won.yaml"), "--format", "json"], tmp_path / "a")
    assert replayed.returncode == 0
    assert replayed.stdout == _plain(["replay", str(SAMPLES / "won.yaml"), "--format", "json"], tmp_path / "b").stdout
    assert json.loads(replayed.stdout.splitlines()[-1])["status"] == "won"

    history = _tool(["history", "--format", "json"], tmp_path / "a")
    assert history.returncode == 0, history.stderr
    assert "game.yaml" in history.stdout


def test_hint(tmp_path):
    record = tmp_path / "game.yaml"
    record.write_text("foursquare: 1\nseed: 3\nmoves: [B2, C2]\n")
    result = _tool(["hint", str(record), "--playouts", "100"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() and result.stderr == ""


@pytest.mark.parametrize(
    "player",
    [
        "greedy",  # the default run: two worker processes started with spawn, in the stand-in
        pytest.param(f"cmd:{sys.executable} {EXAMPLES / 'greedy_bot.py'}", marks=pytest.mark.slow),
        pytest.param("greedy_player:GreedyPlayer", marks=pytest.mark.slow),
    ],
)
def test_stats_in_two_processes_with_a_program_and_a_module_player(tmp_path, player):
    arguments = ["stats", "-n", "6", "--jobs", "2", "-p", player, "--format", "json"]
    shaped = _tool(arguments, tmp_path, extra_path=[EXAMPLES])
    plain = _tool(arguments, tmp_path, shaped=False, extra_path=[EXAMPLES])
    assert shaped.returncode == 0, shaped.stderr
    figures, expected = json.loads(shaped.stdout), json.loads(plain.stdout)
    for timing in ("seconds_per_move", "median_seconds_per_move", "games_per_second", "seconds"):
        figures.pop(timing, None), expected.pop(timing, None)
    assert figures == expected
    assert figures["forfeits"] == {}
