"""Start-up by need: a command imports what its own work needs and nothing else. Read from
`python -X importtime`, the interpreter's own list of what a start imported, for a real start of the tool (it
lists what `import` statements load, not a module loaded by `importlib.import_module`, as the commands' own
modules are; what those import is listed)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

from foursquare_cli.cli.app import CLI_COMMANDS, every_command
from foursquare_cli.ui.output import RENDERER_OF_MODULE, text_of

SAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "samples", "won.yaml")

# What `deal` may load of the players: its grade plays greedy games and a quick look of the expert's futures
# (`players.grade` and what it is made of), which is the work `deal` shows; never a whole player, the solver,
# a run or the registry's outside players.
GRADE_MODULES = {
    "foursquare_cli.players",
    "foursquare_cli.players.registry",  # the package's own import: `PlayerSpec` and the defaults
    "foursquare_cli.players.grade",
    "foursquare_cli.players.futures",
    "foursquare_cli.players.evaluation",
    "foursquare_cli.players.calibration",
    "foursquare_cli.players.calibration_table",
    "foursquare_cli.players.calibration_table_without_c",
}


def imported_by(*arguments: str, typed: str | None = None, ours: bool = True) -> set[str]:
    """The modules of the tool (with `ours=False`, every module) that one start of `foursquare ARGUMENTS`
    imported, `typed` piped in."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "foursquare_cli", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        input=typed,
        env={**os.environ, "FOURSQUARE_HOME": os.devnull},
    )
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert names, done.stderr
    return {name for name in names if name.startswith("foursquare_cli.") or not ours}


def test_a_game_reads_no_entry_point_and_makes_no_thread_pool_until_a_search_needs_them():
    """`play` builds the expert only for a hint or the meter: reading the entry points (importlib.metadata and
    the email parser under it), the thread pool and `secrets` cost a start 60 ms of a game's 220."""
    imported = imported_by("play", "--seed", "5", "--no-record", typed="B2\nquit\n", ours=False)
    assert "foursquare_cli.app.play" in imported  # the test sees the game's own imports
    assert not {"importlib.metadata", "concurrent.futures", "secrets"} & imported


@pytest.mark.parametrize(
    ("arguments", "allowed_players"),
    [
        (("check", SAMPLE), set()),
        (("replay", SAMPLE), set()),
        (("rules",), set()),
        (("deal", "--seed", "5"), GRADE_MODULES),
    ],
    ids=["check", "replay", "rules", "deal"],
)
def test_the_commands_that_read_records_load_no_player_no_run_and_no_agent(arguments, allowed_players):
    imported = imported_by(*arguments)
    assert f"foursquare_cli.app.{arguments[0]}" in imported or arguments == ("rules",)  # the test sees imports
    players = {name for name in imported if name.startswith("foursquare_cli.players")}
    assert players <= allowed_players, sorted(players - allowed_players)
    assert not {name for name in imported if name.startswith(("foursquare_cli.runs", "foursquare_cli.agents"))}


def test_help_and_completion_load_no_command():
    for arguments in (("--help",), ("completion", "bash")):
        imported = imported_by(*arguments)
        # the settings' reader (every command's options take their defaults from it) and the options' parsers
        light = {"foursquare_cli.app.defaults", "foursquare_cli.app.parsing"}
        assert not {name for name in imported if name.startswith("foursquare_cli.app.")} - light
        assert not {name for name in imported if name.startswith(("foursquare_cli.players", "foursquare_cli.runs"))}


def test_every_command_is_in_the_module_the_table_names():
    commands = every_command()
    assert list(commands) == list(CLI_COMMANDS)
    for name, command in commands.items():
        assert command.callback.__module__ == f"foursquare_cli.cli.{CLI_COMMANDS[name].module}", name
        assert command.short_help == CLI_COMMANDS[name].short_help


def test_every_value_with_words_is_rendered_by_the_module_the_table_names():
    for renderer in set(RENDERER_OF_MODULE.values()) | {"rules_text"}:
        importlib.import_module(f"foursquare_cli.ui.{renderer}")
    for value_type, render in text_of.registry.items():
        if value_type is object:
            continue
        assert RENDERER_OF_MODULE.get(value_type.__module__) == render.__module__.rsplit(".", 1)[-1], value_type
