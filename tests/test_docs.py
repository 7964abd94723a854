"""The README and the reference in docs/, held to the code: every option of every command is in its table
(and no table names an option the command lacks), the README's first commands and examples work as
written, its board is what the printer prints, and it stays a guide a player reads."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

from foursquare_cli.cli.app import every_command

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
COMMANDS_PAGE = (ROOT / "docs" / "commands.md").read_text()
COMMANDS = every_command()


def section(command: str) -> str:
    match = re.search(rf"^### [^\n]*`foursquare {command}`\n(.*?)(?=^### |^## |\Z)", COMMANDS_PAGE, re.S | re.M)
    assert match, f"docs/commands.md has no section for {command}"
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
def test_every_option_of_every_command_is_in_its_table(command):
    params = COMMANDS[command].params
    declared = {
        name for param in params for name in [*param.opts, *getattr(param, "secondary_opts", [])] if name[0] == "-"
    }
    assert table_options(section(command)) == declared


def test_every_table_gives_the_experts_default_budget_the_code_gives():
    """An outside try: the switch to 4,000 futures left six tables at 20000 while --help said 4000."""
    from foursquare_cli.players.registry import C_PLAYOUTS, PYTHON_PLAYOUTS

    rows = [line for line in COMMANDS_PAGE.splitlines() if line.startswith(("| `--playouts", "| `playouts`"))]
    assert len(rows) >= 7
    assert all(row.endswith(f"| {C_PLAYOUTS} ({PYTHON_PLAYOUTS} without C) |") for row in rows), rows


@pytest.mark.parametrize("command", sorted(set(COMMANDS) - {"help"}))
def test_every_command_is_in_the_readme_and_the_reference(command):
    assert f"| `foursquare {command}" in README
    assert f"| `foursquare {command}" in COMMANDS_PAGE


def test_the_readme_board_is_what_the_printer_prints():
    from foursquare_cli.rules.game import Game
    from foursquare_cli.rules.moves import Move
    from foursquare_cli.ui.board import render_step

    shown = re.search(r"Move 2, place 7H> C2\n\n(.*?)```", README, re.S)
    assert shown
    game = Game.from_seed(42)
    game.play_all(Move.from_str(m) for m in ["B2", "C2"])
    assert shown.group(1) == render_step(game.step) + "\n"


def test_the_readme_starts_with_the_two_commands():
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block
    lines = [line for line in block.group(1).splitlines() if line and not line.startswith("#")]
    assert lines == [
        "python3.11 -m venv .venv && .venv/bin/pip install -e . && . .venv/bin/activate && foursquare play",
        "python3.11 -m venv .venv && .venv/bin/pip install -e '.[test,dev]' && .venv/bin/pytest",
    ]


def test_the_readme_is_a_guide_of_at_most_200_lines_and_names_every_page_of_the_reference():
    assert len(README.splitlines()) <= 200
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{page.name})" in README


def test_the_readme_examples_run_as_written_after_its_first_command(tmp_path):
    # After the first command the shell has the tool on its PATH (the activated environment): the same here.
    examples = re.findall(r"```sh\n(.*?)```", README, re.S)[1]
    environment = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    environment["FOURSQUARE_HOME"] = str(tmp_path)
    for line in examples.splitlines():
        command = line.split("  #")[0].strip()
        if command:
            done = subprocess.run(command, shell=True, cwd=ROOT, env=environment, capture_output=True, text=True)
            assert done.returncode == 0, (command, done.stderr)
            assert done.stdout and "Traceback" not in done.stderr


def test_the_readme_walkthrough_is_what_the_prompt_says():
    from conftest import at_the_table

    from foursquare_cli.app.session import Session
    from foursquare_cli.rules.game import Game

    typed = ["B2", "C2", "left", "quit"]
    _, said = at_the_table(Session(Game.from_seed(42)), *typed, width=100, echo=True)
    for block in re.findall(r"```\n(Move \d.*?)```", README, re.S):
        assert block in said


def test_the_docs_list_every_exit_code_of_the_one_table():
    import pathlib
    import re

    from foursquare_cli.errors import EXIT_CODES

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text()
    table = text.split("### Exit codes", 1)[1].split("\n\n", 2)[1]
    assert {int(code) for code in re.findall(r"^\| (\d+) \|", table, re.MULTILINE)} == set(EXIT_CODES)


GENERATED = ("docs/players.md", "docs/commands.md")  # pages with parts cog writes from the code


def test_the_pages_cog_writes_from_the_registry_have_not_drifted():
    """Issue 49: the players' table (docs/players.md) and lists (docs/commands.md) are written from the registry
    by cog (`cog -r docs/players.md docs/commands.md`), as sqlite-utils keeps its docs; this fails when they drift."""
    from cogapp import Cog

    from foursquare_cli.players.registry import players_table

    assert Cog().main(["cog", "--check", *(str(ROOT / page) for page in GENERATED)]) == 0, "run cog -r on them"
    assert players_table() in (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
