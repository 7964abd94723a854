"""One voice at the table (issue 40): every screen gives the same numbers for the same fact, every screen fits
the terminal, and long work says so."""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from conftest import at_the_table, in_process
from typer.testing import CliRunner

from foursquare_cli.app.opening import GameChoice, open_session
from foursquare_cli.cli import app
from foursquare_cli.store.history import History

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
LOST_MOVES = [line.strip()[2:] for line in (SAMPLES / "lost.yaml").read_text().splitlines() if line.startswith("  - ")]


def test_one_game_gives_the_same_numbers_on_every_screen(tmp_path, monkeypatch):
    """A lost game with two shifts, played at the prompt and kept: the prompt, the end screen, history, the
    share block, replay (text and JSON) and analyze all count its moves the same way, shifts included, and say
    the shifts are free where they count them."""
    from foursquare_cli.ui.history_text import share_block

    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    shifts = sum(move.startswith("shift") for move in LOST_MOVES)
    assert shifts == 2 and len(LOST_MOVES) == 20, "the sample the test was written for"
    session, _ = open_session(**GameChoice(seed=1)._asdict(), history=History())
    with session:
        _, said = at_the_table(session, *LOST_MOVES, "quit", width=200)
        record = session.record.path
    game = session.game
    prompts = [int(number) for number in re.findall(r"Move (\d+), place", said)]
    assert prompts == list(range(1, 21)), "the prompt numbers every move, a shift as well"
    headings = re.findall(r"^Move (\d+): (\S+(?: \S+)?)", said, re.M)
    assert [int(number) for number, _ in headings] == list(range(1, 21))
    assert [move for _, move in headings if move.startswith("shift")] == ["shift up", "shift right"]
    assert re.findall(r"^Move \d+: shift \w+ (.*)$", said, re.M) == ["(free: no card drawn)"] * 2
    assert "; 20 moves (2 of them free shifts)." in said, "the end screen"
    kept = json.loads(in_process("history", "-f", "json").stdout)["games"][0]
    assert kept["moves"] == 20, "history"
    assert "20 moves (2 free)" in share_block("2026-12-03", game.state, game.ply, game.undos, game.hints)
    replayed = in_process("replay", record).stdout
    assert re.findall(r"^Move (\d+):", replayed, re.M)[-1] == "20" and replayed.count("(free: no card drawn)") == 2
    states = [json.loads(line) for line in in_process("replay", record, "-f", "json").stdout.splitlines()]
    assert states[-1]["ply"] == 20
    analysed = [
        json.loads(line)
        for line in in_process(
            "analyze", record, "--playouts", "100", "--solve-budget", "2000", "-f", "json"
        ).stdout.splitlines()
    ]
    assert [line["ply"] for line in analysed if line["type"] == "move"] == list(range(1, 21))
    assert analysed[-1]["moves"] == 20
    checked = in_process("check", record).stdout
    assert checked.endswith(": lost after 20 moves (more than 4 face-down cards)\n")


def test_the_stock_and_the_cards_to_come_are_told_apart_the_same_way(tmp_path):
    from foursquare_cli.app.session import Session
    from foursquare_cli.rules.game import Game

    _, said = at_the_table(Session(Game.from_seed(42)), "B2", "C2", "left", "quit", cards_to_come=True, width=200)
    stock = int(re.findall(r"Stock: (\d+)", said)[-1])
    hand, to_come = re.findall(r"To come after (\S+) \((\d+)\)", said)[-1]
    assert hand == "6C" and stock == int(to_come) + 1, "the stock is the card in hand and the cards to come"


# -- every screen fits the terminal ---------------------------------------------------------------------


FOR_PROGRAMS = ("deal", "schema state", "schema-state")  # the stock, one line; a schema, a JSON document


def _cases() -> list[tuple[str, list[str], str]]:
    import test_golden

    cases, seen = [], set()
    for name, (arguments, stdin) in sorted(test_golden.CASES.items()):
        if name.startswith(("help", "completion")) or "json" in arguments or "csv" in arguments:
            continue
        kind = re.sub(r"-\d+$", "", name)  # twenty deals are one kind of text: the first of them stands for all
        if kind in seen:
            continue
        seen.add(kind)
        cases.append((name, arguments, stdin))
        cases += [
            (f"{name}+{i}", follow_up, "")
            for i, follow_up in enumerate(test_golden.FOLLOW_UPS.get(name, []))
            if "json" not in follow_up and "csv" not in follow_up
        ]
    return cases


def test_the_golden_outputs_fit_their_100_columns():
    """The golden corpus is the tool's output at 100 columns: its standard output, wherever it is not for
    programs (JSON, CSV, the deal's stock), fits them. (A message on standard error is one line, whole.)"""
    too_wide = []
    for golden in sorted((ROOT / "tests" / "golden").glob("*.txt")):
        for run in golden.read_text(encoding="utf-8").split("$ foursquare ")[1:]:  # a case and its follow-ups
            command, out = run.split("\n", 1)[0], run.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0]
            if not command.startswith(FOR_PROGRAMS) and "json" not in command and "csv" not in command:
                too_wide += [f"{golden.stem}: {line}" for line in out.splitlines() if len(line) > 100]
    assert too_wide == []


@pytest.mark.parametrize(  # 60 in the default run: the narrowest; the wider ones in the slow run
    "width", [60, pytest.param(80, marks=pytest.mark.slow), pytest.param(120, marks=pytest.mark.slow)]
)
def test_every_commands_text_fits_the_width_and_breaks_no_word(width, monkeypatch):
    """The golden corpus (every command, every text output) at 60 columns, the narrowest a screen is made for,
    and at 80 and 120 the commands whose text at 100 (above) is wider than 80, those with a layout to choose:
    no line passes the width, and every word of it is a word of the text at full width (the one wrapper breaks
    between words; a narrow table may leave a column out). A path longer than the width (a long `TMPDIR`) is a
    word no wrapper can fit: it may pass the width, alone on its line."""
    import shutil
    import tempfile

    tmp_path = pathlib.Path(tempfile.mkdtemp(prefix="w"))
    monkeypatch.chdir(ROOT)
    try:
        _fit_every_command(width, tmp_path, monkeypatch)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _wider_at_100_than(width: int, name: str) -> bool:
    golden = (ROOT / "tests" / "golden" / f"{name.split('+')[0]}.txt").read_text(encoding="utf-8")
    outs = [run.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0] for run in golden.split("$ foursquare ")[1:]]
    return any(len(line) > width for out in outs for line in out.splitlines())


_WHOLE: dict[str, str] = {}  # a case's text at full width, the same for every width tried: made once


def _words(text: str) -> set[str]:
    """A text's words, a date or a time of day as one word: a game played at width 60 and again at 80 on a
    busy machine starts in another minute, a word that is not broken."""
    import test_golden

    clock = re.compile(rf"{test_golden.DATE_AND_TIME}|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}:\d{{2}}(:\d{{2}})?")
    return {"<TIME>" if clock.fullmatch(word) else word for word in text.split()}


def _afresh(folder: pathlib.Path) -> None:
    """A case that leaves files (a run, a game, a history) starts without them: its files and its home gone."""
    import shutil

    for leftover in folder.glob("*"):
        if leftover.is_file():
            leftover.unlink()
    shutil.rmtree(folder / "home", ignore_errors=True)


def _fit_every_command(width: int, tmp_path: pathlib.Path, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    too_wide, broken = [], []
    for name, arguments, stdin in _cases():
        if width > 60 and (name.startswith(FOR_PROGRAMS) or not _wider_at_100_than(80, name)):
            continue  # a text that fits 80 columns at 100 has no layout to choose (the stock: one line always)
        folder = tmp_path / name.split("+")[0]
        folder.mkdir(exist_ok=True)
        monkeypatch.setenv("FOURSQUARE_HOME", str(folder / "home"))
        args = [argument.replace("{tmp}", str(folder)) for argument in arguments]
        if "+" not in name:  # a follow-up reads the files its case left
            _afresh(folder)
        monkeypatch.setenv("COLUMNS", str(width))
        fitted = CliRunner().invoke(app, args, input=stdin, prog_name="foursquare").stdout
        if not name.startswith(FOR_PROGRAMS):  # a line for programs as much as people: never broken
            too_wide += [f"{name}: {line}" for line in fitted.splitlines() if len(line) > width and " " in line.strip()]
        if name.startswith(("stats", "compare", "summarize", "solve")):
            continue  # their figures of time differ from one run to the next: the widths are checked above
        if name in _WHOLE:  # its files are in another folder: both named alike
            if not _words(fitted.replace(str(folder), "{tmp}")) <= _words(_WHOLE[name]):
                broken.append(name)
            continue
        monkeypatch.setenv("COLUMNS", "")
        if "+" not in name:
            _afresh(folder)
        whole = CliRunner().invoke(app, args, input=stdin, prog_name="foursquare").stdout
        _WHOLE[name] = whole.replace(str(folder), "{tmp}")
        if not _words(fitted) <= _words(whole):  # a word broken in two would be two new ones
            broken.append(name)
    assert too_wide == []
    assert broken == []


@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_help_fits_the_width(width):
    names = [
        line.split()[0]
        for line in CliRunner()
        .invoke(app, ["--help"], terminal_width=width - 2)
        .stdout.split("Commands:")[1]
        .splitlines()
        if line.startswith("  ") and line.split()
    ]
    for arguments in [["--help"], *([name, "--help"] for name in names)]:
        said = CliRunner().invoke(app, arguments, terminal_width=width - 2, prog_name="foursquare").stdout
        assert [line for line in said.splitlines() if len(line) > width] == [], arguments


@pytest.mark.parametrize("width", [60, 80])
def test_the_prompts_help_is_filled_not_ragged(width):
    """Its paragraphs flow into the width: no line is broken early where the next line's first word would
    have fitted (text written with hard line breaks for one width, then wrapped at another, is)."""
    from foursquare_cli.ui.fit import fitted
    from foursquare_cli.ui.play_text import HELP

    lines = fitted(HELP, width).splitlines()
    for line, after in itertools.pairwise(lines):
        goes_on = after.startswith(" " * 14) or after[:1].islower()  # a continuation, not a new entry
        if goes_on and after.strip():
            assert len(line) + 1 + len(after.split()[0]) > width, (line, after)


def test_help_names_every_prompt_command():
    from foursquare_cli.app.table import COMMANDS

    said = " ".join(CliRunner().invoke(app, ["play", "--help"], terminal_width=200).stdout.split())
    assert all(f" {command}" in said for command in COMMANDS)


# -- short by default -------------------------------------------------------------------------------------


def test_a_hint_is_at_most_8_lines_at_60_columns_and_names_its_move_first(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    said = in_process("hint", str(SAMPLES / "unfinished.yaml"), "--playouts", "200").stdout.splitlines()
    assert len(said) <= 8 and all(len(line) <= 60 for line in said)
    named = said[0].removeprefix("Hint: ").split(" (")[0]
    assert said[2].strip().startswith(named)


def test_restart_and_new_without_a_record_print_no_record():
    from foursquare_cli.app.session import Session
    from foursquare_cli.rules.game import Game

    def reopen(seed, game):
        return open_session(seed=seed if game else None)

    _, said = at_the_table(Session(Game.from_seed(42)), "B2", "restart", "y", "B2", "new", "y", "quit", reopen=reopen)
    before_quit = said.rsplit("> quit", 1)[0] if "> quit" in said else said.rsplit("> ", 1)[0]
    assert "foursquare: 1" not in before_quit and "as a record" not in before_quit


def test_the_share_block_explains_its_bars_and_a_practice_daily_offers_none(tmp_path, monkeypatch):
    from foursquare_cli.app.events import GameOver, WhereKept
    from foursquare_cli.rules.game import Game
    from foursquare_cli.ui.output import Screen, words

    game = Game.from_seed(20261203)
    where = WhereKept(False, False, None, "")
    shown = {
        practice: words(
            GameOver(game.state, 0, 0, 0, None, "2026-12-03", practice, game.seed, [], None, where),
            Screen(width=lambda: 200),
        ).out
        for practice in (False, True)
    }
    assert "a dot for none" in shown[False] and "Foursquare daily 2026-12-03" in shown[False]
    assert "Foursquare daily" not in shown[True] and "This was practice" in shown[True]


# -- long work says so ------------------------------------------------------------------------------------


@pytest.mark.posix
@pytest.mark.parametrize(
    "command",
    [
        pytest.param(  # analyze's bar is drawn by the same code as hint's: CI's `-m slow` step
            ["analyze", "samples/lost.yaml", "--playouts", "200", "--solve-budget", "1000"], marks=pytest.mark.slow
        ),
        ["hint", "samples/unfinished.yaml", "--playouts", "2000"],
    ],
)
def test_progress_goes_to_a_terminal_on_standard_error_whatever_standard_output_is(command):
    import pty
    import select
    import time

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare_cli", *command],
        stdout=subprocess.PIPE,
        stderr=slave,
        cwd=ROOT,
        env=dict(os.environ, COLUMNS="100"),
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    out, _ = process.communicate(timeout=60)
    os.close(master)
    assert process.returncode == 0 and out, "the result went to standard output, a pipe"
    label = b"analysing" if command[0] == "analyze" else b"thinking"
    assert label in seen, seen[:200]
