"""`play`: at a real terminal (pexpect), through real pipes (subprocess), in-process (CliRunner)."""

from __future__ import annotations

import io
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pexpect
import pytest
from conftest import examples, in_process, random_legal_play, signals_heard, spawn_play
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from foursquare_cli.app.pipe import play_from_pipe
from foursquare_cli.app.session import Session
from foursquare_cli.cli import app
from foursquare_cli.formats.records import check_record, read_source
from foursquare_cli.rules.game import Game
from foursquare_cli.store.files import RecordFile
from foursquare_cli.ui.output import OutputFormat, Screen
from foursquare_cli.ui.terminal import PipeScreen

SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"
# The won sample: deal 92, won with score 9 in 31 moves.
WON_MOVES = [line.strip()[2:] for line in (SAMPLES / "won.yaml").read_text().splitlines() if line.startswith("  - ")]
COMMAND = [sys.executable, "-m", "foursquare_cli", "play"]
# With the installed `foursquare` on the PATH, the commands the tool suggests name it so.
ENV = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
runner = CliRunner()


def test_the_won_sample_has_31_moves():
    assert len(WON_MOVES) == 31 and WON_MOVES[:2] == ["A1", "A1 top"]


# -- a real terminal -------------------------------------------------------------------


def spawn(*args: str, cwd: str | None = None) -> pexpect.spawn:
    return spawn_play(*args, cwd=cwd)


def answer_prompts(child: pexpect.spawn, moves: list[str]) -> None:
    for move in moves:
        child.expect_exact("> ")
        child.sendline(move)


@pytest.mark.posix
def test_terminal_game_refuses_bad_input_with_reasons_and_plays_to_the_end(tmp_path):
    # the hint at a small budget: its words are the same at any (the end screen's solver keeps its whole budget)
    child = spawn("--seed", "92", "--record", "game.yaml", "--playouts", "2000", cwd=str(tmp_path))
    child.expect_exact("Move 1, place ")
    child.sendline("E5")
    child.expect_exact("'E5': no such cell; cells are A1 to D4")
    child.expect_exact("Move 1, place ")
    child.sendline("A1")
    child.expect_exact("Move 2, place ")
    child.sendline("C4")
    child.expect_exact("'C4': C4 shares no edge with a pile")
    child.sendline("A1")
    child.expect_exact("'A1': A1 holds a pile; to place on it, write 'A1 top'")
    child.sendline("help")
    child.expect_exact("Win: all 16 cells filled and face up")
    child.sendline("moves")
    child.expect_exact("Legal moves for 5S:")
    child.expect(r"B1[^\r]*: turn [^\r]*; 1 face down")
    child.expect(r"shift right, then A\d")
    child.sendline("hint")
    child.expect(r"Hint: \S+")
    child.expect(r"move +win  score")  # the column as wide as its widest chance (`99.9%`)
    for move in WON_MOVES[1:]:
        child.sendline(move)
    child.expect_exact("You won! Score 9 (cards left in the stock); 31 moves, 1 hint.")
    child.expect_exact("A player who knew the stock could have scored")
    child.expect_exact("Check it: foursquare check game.yaml")
    child.expect_exact("The game is over: undo takes the last move back")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    verdict = check_record(read_source(str(tmp_path / "game.yaml")))
    assert verdict.valid and verdict.outcome_words() == "won, score 9, 31 moves"


@pytest.mark.posix
def test_terminal_quit_and_resume(tmp_path):
    child = spawn("--seed", "92", "--record", "game.yaml", cwd=str(tmp_path))
    answer_prompts(child, WON_MOVES[:5])
    child.expect_exact("Move 6, place ")
    child.sendline("quit")
    child.expect_exact("to go on: foursquare play --resume game.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    child = spawn("--resume", "game.yaml", cwd=str(tmp_path))
    child.expect_exact("Move 6, place ")
    child.sendline("board")
    child.expect_exact("Stock: 35")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.posix
def test_terminal_ctrl_c_clears_the_line_and_quit_keeps_the_game(tmp_path):
    # Ctrl-C at the prompt clears the line, as in bash (issue 21, item 4); quit leaves, the game saved.
    child = spawn("--seed", "92", "--record", "game.yaml", cwd=str(tmp_path))
    answer_prompts(child, WON_MOVES[:3])
    child.expect_exact("Move 4, place ")
    child.send("B4 to")
    child.expect_exact("B4 to")  # echoed: readline has taken the keys (a Ctrl-C amid its handling of
    time.sleep(0.2)  # keys is seen only at the next key, a limit of CPython's readline loop)
    child.sendintr()
    child.expect_exact("Move 4, place ")
    child.sendline("quit")
    child.expect_exact("The game is saved in game.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    verdict = check_record(read_source(str(tmp_path / "game.yaml")))
    assert verdict.valid and verdict.outcome_words() == "playing, 3 moves"


@pytest.mark.posix
def test_terminal_without_seed_shows_the_deal_number():
    child = pexpect.spawn(
        sys.executable, ["-m", "foursquare_cli", "play"], encoding="utf-8", timeout=30, env=ENV, dimensions=(24, 250)
    )  # wide: the long path of a kept game stays on its line
    child.expect(r"Deal (\d+) \(to play it again: foursquare play --seed (\d+)\)")
    seed = child.match.group(1)
    assert child.match.group(2) == seed
    child.sendline("B2")
    child.sendline("quit")
    child.expect_exact("The game is kept in your history; to go on: foursquare play --resume\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    listed = in_process("history", "--format", "json")
    kept = json.loads(listed.stdout)["games"][0]["path"]
    assert f"-deal-{seed}.yaml" in kept and f"seed: {seed}\n" in pathlib.Path(kept).read_text()
    quitting = pexpect.spawn(sys.executable, ["-m", "foursquare_cli", "play"], encoding="utf-8", timeout=30, env=ENV)
    quitting.sendline("quit")
    quitting.expect_exact("No move was played, so nothing was kept.")
    quitting.expect(pexpect.EOF)


# -- real pipes ------------------------------------------------------------------------


def test_a_whole_game_piped_in():
    script = "# deal 92\n\n" + "\n".join(WON_MOVES) + "\n"
    process = subprocess.run(
        [*COMMAND, "--seed", "92", "--format", "json"], input=script, capture_output=True, text=True, timeout=60
    )
    assert process.returncode == 0, process.stderr
    states = [json.loads(line) for line in process.stdout.splitlines()]
    assert [s["ply"] for s in states] == list(range(32))
    assert (states[-1]["status"], states[-1]["score"], states[-1]["next"]) == ("won", 9, None)
    assert process.stderr == ""


def test_piped_text_prints_boards_like_replay_and_no_prompt():
    process = in_process("play", "--seed", "92", input="A1\nA1 top\n")
    assert process.returncode == 0
    assert "> " not in process.stdout
    headings = [line for line in process.stdout.splitlines() if line.startswith(("Start", "Move"))]
    assert headings[0] == "Start" and headings[1].startswith("Move 1: A1 places ")
    assert len(headings) == 3


def test_an_illegal_move_midway_ends_the_run_with_its_line_number(tmp_path):
    script = "A1\n# a comment\nA1 top\n\nD4\nA1 top\n"
    process = in_process("play", "--seed", "92", "-f", "json", "--record", "g.yaml", input=script, cwd=tmp_path)
    assert process.returncode == 1
    refused, kept = process.stderr.splitlines()
    assert refused == "<stdin>:5: move 3 'D4': D4 shares no edge with a pile"
    assert kept.startswith("The game is saved in g.yaml; to go on: "), "every end of a pipe says where (issue 48)"
    assert len(process.stdout.splitlines()) == 3
    assert check_record(read_source(str(tmp_path / "g.yaml"))).outcome_words() == "playing, 2 moves"


def test_an_invalid_line_is_refused_too():
    process = in_process("play", "--seed", "92", input="A1\nplease\n")
    assert process.returncode == 1
    assert process.stderr.splitlines()[0] == (  # a word is no move at all, not a cell that does not exist
        "<stdin>:2: move 2 'please': not a move; a move is a cell (B3), a cell and top (B3 top) or a shift (shift up)"
    )


def test_bytes_that_are_not_utf8_are_refused_in_one_line():
    process = in_process("play", "--seed", "92", input=b"A1\n\xff\xfe\n")
    assert process.returncode == 1
    refused, kept = process.stderr.splitlines()
    assert refused == "<stdin>:2: not UTF-8 text" and kept.startswith("The game is saved in ")


def test_end_of_input_with_record_then_resume_finishes_the_same_game(tmp_path):
    first = in_process(
        "play",
        "--seed",
        "92",
        "--record",
        "g.yaml",
        "-f",
        "json",
        input="\n".join(WON_MOVES[:10]) + "\n",
        cwd=tmp_path,
        PATH=ENV["PATH"],
    )
    assert first.returncode == 0
    assert "foursquare play --resume g.yaml" in first.stderr
    assert check_record(read_source(str(tmp_path / "g.yaml"))).outcome_words() == "playing, 10 moves"
    second = in_process(
        "play", "--resume", "g.yaml", "-f", "json", input="\n".join(WON_MOVES[10:]) + "\n", cwd=tmp_path
    )
    assert second.returncode == 0, second.stderr
    states = [json.loads(line) for line in second.stdout.splitlines()]
    assert states[0]["ply"] == 10 and states[0]["move"] == WON_MOVES[9]
    assert states[-1]["status"] == "won"
    text = (tmp_path / "g.yaml").read_text()
    # the meta the game started with (a game from a pipe is not graded: issue 22, docs/commands.md), and the
    # mark of a game from a pipe (never offered for resume: issue 34)
    assert re.search(
        r"result: won\nscore: 9\nmeta:\n  started: '?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'?\n  piped: true\n$", text
    )
    assert check_record(read_source(str(tmp_path / "g.yaml"))).outcome_words() == "won, score 9, 31 moves"
    again = in_process("play", "--resume", "g.yaml", cwd=tmp_path)
    assert again.returncode == 2 and "this game is over" in again.stderr


def test_end_of_input_without_record_prints_a_resumable_record():
    process = in_process("play", "--seed", "92", "-f", "json", "--no-record", input="A1\nA1 top\n")
    assert process.returncode == 0
    record = process.stderr.split("\n", 1)[1]
    assert record.startswith("foursquare: 1\nseed: 92\nmoves:\n  - A1\n  - A1 top\nresult: playing\nmeta:\n  started: ")
    assert check_record(read_source("<stderr>", record.encode())).valid


@pytest.mark.posix
def test_sigint_midgame_leaves_a_valid_record(tmp_path):
    process = subprocess.Popen(
        [*COMMAND, "--seed", "92", "--record", "g.yaml", "-f", "json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=signals_heard,
    )
    assert process.stdout is not None and process.stdin is not None
    process.stdout.readline()
    for move in WON_MOVES[:4]:
        process.stdin.write(move + "\n")
        process.stdin.flush()
        process.stdout.readline()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "Interrupted. The game is saved in g.yaml" in err
    assert "Traceback" not in err
    assert check_record(read_source(str(tmp_path / "g.yaml"))).outcome_words() == "playing, 4 moves"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.yaml"]


def legal_move_from_json(state: dict) -> str:
    """The test's own reading of a JSON state: an empty cell next to a pile, else a pile to cover."""
    grid = state["grid"]
    cells = [(r, c) for r in range(4) for c in range(4)]
    if all(grid[r][c] is None for r, c in cells):
        return "B2"
    for r, c in cells:
        if grid[r][c] is None and any(
            0 <= r + dr < 4 and 0 <= c + dc < 4 and grid[r + dr][c + dc] is not None
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ):
            return "ABCD"[c] + str(r + 1)
    for r, c in cells:
        if grid[r][c]["height"] < 4:
            return "ABCD"[c] + str(r + 1) + " top"
    raise AssertionError("no legal move in a state that is being played")


@pytest.mark.parametrize("seed", [0, pytest.param(42, marks=pytest.mark.slow), 2**64 - 1])  # 42: CI's -m slow
def test_a_bot_drives_play_as_a_coprocess(seed):
    process = subprocess.Popen(
        [*COMMAND, "--seed", str(seed), "--format", "json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert process.stdout is not None and process.stdin is not None
    deadline = time.monotonic() + 60
    plies = 0
    while True:
        line = process.stdout.readline()
        assert line, "play closed its output before the game ended"
        state = json.loads(line)
        assert state["ply"] == plies
        if state["status"] != "playing":
            break
        process.stdin.write(legal_move_from_json(state) + "\n")
        process.stdin.flush()
        plies += 1
        assert time.monotonic() < deadline
    assert process.wait(timeout=30) == 0
    assert state["status"] in ("won", "lost")
    process.stdin.close()
    process.stdout.close()
    process.stderr.close()


# -- in-process ------------------------------------------------------------------------


def test_play_through_clirunner_reads_piped_moves():
    result = runner.invoke(app, ["play", "--seed", "92", "--format", "json"], input="A1\nA1 top\nquit\n")
    assert result.exit_code == 0
    assert [json.loads(line)["ply"] for line in result.stdout.splitlines()] == [0, 1, 2]
    assert "play --resume " in result.stderr and "The game is saved in" in result.stderr


def test_play_refuses_to_overwrite_an_existing_record(tmp_path):
    existing = tmp_path / "g.yaml"
    existing.write_text("foursquare: 1\nseed: 1\nmoves: [B2]\n")
    result = runner.invoke(app, ["play", "--seed", "92", "--record", str(existing)], input="")
    assert result.exit_code == 2
    assert "already exists; continue it with --resume" in result.stderr
    assert existing.read_text() == "foursquare: 1\nseed: 1\nmoves: [B2]\n"
    won = (SAMPLES / "won.yaml").read_text()
    existing.write_text(won)  # a finished game: --resume would refuse it, so it is not offered
    result = runner.invoke(app, ["play", "--seed", "92", "--record", str(existing)], input="")
    assert result.exit_code == 2 and "already holds a finished game; record to another file" in result.stderr
    assert "--resume" not in result.stderr and existing.read_text() == won
    existing.write_text("foursquare: 1\nseed: 1\nmoves: [B2]\n")  # an unfinished game, to commands without --resume
    for command in (["solve", "--seed", "1", "--budget", "10"], ["auto", "--seed", "1", "-p", "greedy"]):
        result = runner.invoke(app, [*command, "--record", str(existing)])
        assert result.exit_code == 2 and result.stderr == (
            f"{existing}: already exists; record to another file, or give --force to replace it\n"
        )


def test_resume_into_another_existing_file_is_refused_too(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text("keep me\n")
    result = runner.invoke(
        app, ["play", "--resume", str(SAMPLES / "unfinished.yaml"), "--record", str(other)], input=""
    )
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert other.read_text() == "keep me\n"


def test_resume_refuses_an_invalid_record(tmp_path):
    bad = tmp_path / "g.yaml"
    bad.write_text("foursquare: 1\nseed: 1\nmoves: [B2, B2]\n")
    result = runner.invoke(app, ["play", "--resume", str(bad)], input="")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{bad}:3: move 2 'B2': B2 holds a pile; to place on it, write 'B2 top'",
        f"{bad}: cannot resume an invalid record",
    ]


def test_resume_the_unfinished_sample_without_writing_to_it(tmp_path):
    before = (SAMPLES / "unfinished.yaml").read_text()
    result = runner.invoke(
        app, ["play", "--resume", str(SAMPLES / "unfinished.yaml"), "--no-record", "-f", "json"], input="C1 top\n"
    )
    assert result.exit_code == 0, result.stderr
    states = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["ply"] for s in states] == [12, 13]
    assert (SAMPLES / "unfinished.yaml").read_text() == before


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_check_accepts_every_record_play_writes(seed, data, tmp_path_factory):
    from foursquare_cli.rules.engine import State

    shadow = State.from_seed(seed)
    lines = [str(move) for move in random_legal_play(shadow, data, 45)]
    path = tmp_path_factory.mktemp("play") / "g.yaml"
    with RecordFile(str(path)) as record:
        session = Session(Game.from_seed(seed), record)
        session.save()
        moves = io.BytesIO(("\n".join(lines) + "\n").encode())
        screen = Screen(out=io.StringIO(), err=io.StringIO())
        play_from_pipe(session, PipeScreen(screen, OutputFormat.JSON, moves, "<moves>"))  # every move legal
    verdict = check_record(read_source(str(path)))
    assert verdict.valid, verdict.problems
    assert verdict.state == shadow
