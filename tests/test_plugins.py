"""Plugins kept outside: nothing of another package is imported in the tool's process. Its settings and summary
are read, and its player built, in a process of its own with a time limit (`players.plugins`, `players.host`);
a package that hangs, raises, prints, reads or forks as it is imported is one line on standard error (exit 2),
or plays, and the tool's standard output stays its own."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import alive, installed_beside, processes_running
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.errors import ExitStatus
from foursquare_cli.players import plugins
from foursquare_cli.players.outside import close_programs
from foursquare_cli.players.registry import players_table, registered, registered_players

runner = CliRunner()

PLAYS = """
class Bot:
    \"\"\"Takes the first placement.\"\"\"

    SETTINGS = {"x": int}

    def __init__(self, seed=0, x=0):
        pass

    def choose(self, state):
        return next(move for move in state.legal_moves() if move.is_placement)
"""


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Install a package of one player, `NAME = NAME_bot:Bot`, beside the tool (on this process's import path,
    as an installed package is); what the registry read of it is forgotten after the test."""

    def install(name: str, at_import: str, body: str = PLAYS) -> str:
        folder = tmp_path / name
        folder.mkdir()
        source = textwrap.dedent(at_import) + "\n" + body
        installed_beside(
            folder, f"{name}-bots", f"[foursquare.players]\n{name} = {name}_bot:Bot\n", f"{name}_bot", source
        )
        monkeypatch.syspath_prepend(str(folder))
        registered_players.cache_clear()
        return name

    yield install
    close_programs()
    registered_players.cache_clear()
    plugins._read.cache_clear()


def one_line(text: str) -> str:
    assert text.splitlines() == [text.rstrip("\n")] and "Traceback" not in text, text
    return text


@pytest.mark.parametrize("named", ["looper", "looper:x=1"])
def test_a_package_that_loops_at_import_is_one_line_once_its_time_is_up(plugin, monkeypatch, named):
    monkeypatch.setattr(plugins, "READ_TIME", 0.3)
    plugin("looper", "import time\nwhile True:\n    time.sleep(0.05)\n")
    started = time.monotonic()
    result = runner.invoke(app, ["stats", "--games", "2", "--player", named, "--format", "json"])
    assert time.monotonic() - started < 5
    assert result.exit_code == ExitStatus.USAGE and result.stdout == ""
    assert "looper: its entry point 'looper_bot:Bot' was not read within 0.3 s" in one_line(result.stderr)
    assert alive(processes_running("--describe looper_bot:Bot")) == []


def test_a_package_that_raises_at_import_is_one_line_not_an_internal_error(plugin):
    plugin("raiser", "raise RuntimeError('no luck at import')")
    for arguments in (
        ["stats", "-n", "2", "-p", "raiser"],
        ["auto", "-p", "raiser:x=2"],
        ["compare", "raiser", "greedy"],
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == ExitStatus.USAGE, result.stderr
        assert "raiser: importing 'raiser_bot' raised RuntimeError: no luck at import" in one_line(result.stderr)


def test_a_package_that_exits_or_has_no_such_class_is_one_line(plugin):
    plugin("leaver", "import os\nos._exit(3)")
    plugin("nobody", "", body="")
    left = runner.invoke(app, ["stats", "-n", "2", "-p", "leaver"])
    assert left.exit_code == ExitStatus.USAGE and "its process exited with code 3" in one_line(left.stderr)
    none = runner.invoke(app, ["stats", "-n", "2", "-p", "nobody"])
    assert none.exit_code == ExitStatus.USAGE and "nobody_bot has no class or factory 'Bot'" in one_line(none.stderr)


def test_settings_of_a_type_the_tool_does_not_take_are_one_line(plugin):
    plugin("lister", "", body="class Bot:\n    SETTINGS = {'moves': list}\n")
    result = runner.invoke(app, ["stats", "-n", "2", "-p", "lister"])
    assert result.exit_code == ExitStatus.USAGE
    assert "its SETTINGS maps 'moves' to <class 'list'>; a setting is an int" in one_line(result.stderr)


def test_nothing_of_another_package_is_imported_in_the_tools_process(plugin, tmp_path):
    """Its help, its table, its name checked and its games played: the module is imported in other processes
    only, the settings read once (`--describe`), never again by the games."""
    seen = tmp_path / "imported.txt"
    plugin(
        "quiet", f"import sys\nwith open({str(seen)!r}, 'a') as log:\n    log.write(' '.join(sys.argv[1:2]) + '\\n')"
    )
    assert "quiet" in " ".join(runner.invoke(app, ["stats", "--help"], env={"COLUMNS": "200"}).stdout.split())
    assert "| `quiet` | Takes the first placement | `x` |" in players_table()
    result = runner.invoke(app, ["stats", "-n", "2", "-p", "quiet:x=1", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["forfeits"] == {}
    assert "quiet_bot" not in sys.modules
    quiet = registered("quiet")
    assert quiet is not None and not quiet.ours
    assert seen.read_text().split("\n").count("--describe") == 1


def test_the_players_table_says_settings_unknown_for_a_package_it_cannot_read(plugin):
    plugin("raiser", "raise RuntimeError('no luck')")
    row = next(line for line in players_table().splitlines() if line.startswith("| `raiser`"))
    assert row == "| `raiser` | importing 'raiser_bot' raised RuntimeError: no luck | settings unknown |"


def test_a_package_that_claims_the_tools_distribution_is_still_anothers(tmp_path, monkeypatch):
    """The tool's own players are those of its distribution that name its own modules: a dist-info that only
    takes the name `foursquare-cli` is run outside like any other package."""
    installed_beside(tmp_path, "foursquare_cli", "[foursquare.players]\nclaimer = claimer_bot:Bot\n", "claimer_bot", "")
    monkeypatch.syspath_prepend(str(tmp_path))
    registered_players.cache_clear()
    try:
        claimer = registered("claimer")
        assert claimer is not None and not claimer.ours
    finally:
        registered_players.cache_clear()


def test_a_module_that_reads_standard_input_at_import_reads_nothing_of_the_tools(plugin):
    plugin("reader", "import sys\nsys.stdin.read()")
    result = runner.invoke(app, ["stats", "-n", "2", "-p", "reader", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["forfeits"] == {}


NOISY = """
import os, sys, time
print("printed at import")
sys.stdout.flush()
os.write(1, b"written to descriptor 1 at import\\n")
sys.__stdout__.write("to sys.__stdout__\\n")
sys.__stdout__.flush()
child = os.fork()
if child == 0:  # a child of its own, in a session of its own, writing on as long as it lives
    os.setsid()
    for _ in range(100):
        os.write(1, b"still here\\n")
        time.sleep(0.1)
    os._exit(0)
with open({pids!r}, "a") as pids:
    pids.write(f"{{child}}\\n")
"""


@pytest.mark.posix
@pytest.mark.parametrize("command", [["stats", "-n", "2"], pytest.param(["auto"], marks=pytest.mark.slow)])
def test_a_package_that_prints_and_forks_at_import_leaves_the_json_clean_and_no_process(tmp_path, command):
    """In a process of its own, as a user runs it: standard output is the tool's JSON alone, at every descriptor
    the package may write to, and every process it started is gone when the tool is."""
    pids = tmp_path / "pids.txt"
    installed_beside(
        tmp_path,
        "noisy-bots",
        "[foursquare.players]\nnoisy = noisy_bot:Bot\n",
        "noisy_bot",
        NOISY.format(pids=str(pids)) + PLAYS,
    )
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    arguments = [sys.executable, "-m", "foursquare_cli", *command, "--player", "noisy", "--format", "json"]
    done = subprocess.run(arguments, capture_output=True, text=True, env=environment, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(isinstance(json.loads(line), dict) for line in lines), done.stdout
    assert "still here" not in done.stderr and "printed" not in done.stderr
    forked = [int(pid) for pid in pids.read_text().split()]
    assert len(forked) >= 2 and alive(forked) == []  # read once, then a host for the games


@pytest.mark.slow
@pytest.mark.posix
def test_a_package_that_sleeps_at_import_is_given_up_after_the_documented_time(tmp_path):
    installed_beside(
        tmp_path,
        "sleepy-bots",
        "[foursquare.players]\nsleepy = sleepy_bot:Bot\n",
        "sleepy_bot",
        "import time\ntime.sleep(100)\n",
    )
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    started = time.monotonic()
    arguments = [
        sys.executable,
        "-m",
        "foursquare_cli",
        "stats",
        "-n",
        "2",
        "--player",
        "sleepy:x=1",
        "--format",
        "json",
    ]
    done = subprocess.run(arguments, capture_output=True, text=True, env=environment, timeout=60)
    assert plugins.READ_TIME <= time.monotonic() - started < plugins.READ_TIME + 5
    assert done.returncode == ExitStatus.USAGE and done.stdout == ""
    assert f"was not read within {plugins.READ_TIME:g} s" in one_line(done.stderr)
    assert alive(processes_running("--describe sleepy_bot:Bot")) == []


def test_the_guide_gives_the_time_limit_the_tool_keeps():
    guide = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "players.md").read_text(encoding="utf-8")
    assert f"within {plugins.READ_TIME:g} seconds" in guide
