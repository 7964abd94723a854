"""The README's claims, held to the code: every option of every command is in its table, and no table
names an option the command does not have; the board example is what the printer prints."""

from __future__ import annotations

import pathlib
import re

import pytest
import typer.main

from foursquare_cli.cli import app

README = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text()
COMMANDS = typer.main.get_command(app).commands  # type: ignore[attr-defined]


def section(command: str) -> str:
    match = re.search(rf"^### [^\n]*`foursquare {command}`\n(.*?)(?=^### |^## )", README, re.S | re.M)
    assert match, f"the README has no section for {command}"
    return match.group(1)


def table_options(text: str) -> set[str]:
    """The options in the first column of the section's first table: `--seed N`, `-s N` give --seed and -s."""
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    names: set[str] = set()
    for row in rows:
        first = row.split(" | ")[0]
        names.update(re.findall(r"`(-{1,2}[a-z][a-z-]*)", first))
    return names


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_of_every_command_is_in_its_readme_table(command):
    declared = {name for param in COMMANDS[command].params for name in param.opts if name.startswith("-")}
    assert table_options(section(command)) == declared


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_is_in_the_readme_command_table(command):
    assert f"| `foursquare {command}" in README


def test_the_readme_board_is_what_the_printer_prints():
    from conftest import deck_starting

    from foursquare_cli.rules.game import Game
    from foursquare_cli.rules.moves import Move
    from foursquare_cli.ui.board import render_step

    shown = re.search(r"## The board\n\n```\n(.*?)```", README, re.S)
    assert shown
    game = Game(deck_starting("5S", "7H", "5D", "5H", "2C", "8C", "AD", "9S"))
    game.play_all(Move.from_str(m) for m in ["B2", "C2", "D2", "A2", "B1", "C1", "B2 top"])
    assert shown.group(1) == render_step(game.step, with_legend=True) + "\n"


def test_the_readme_starts_with_the_two_commands():
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block
    lines = [line for line in block.group(1).splitlines() if line and not line.startswith("#")]
    assert lines == [
        "python3.11 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/foursquare play",
        "python3.11 -m venv .venv && .venv/bin/pip install -e '.[test,dev]' && .venv/bin/pytest",
    ]
