"""`play` as a terminal game (issue 9): flips named, undo, completion, unknown input, colour, the daily
deal, and the end of a game. A real terminal through pexpect, real pipes through subprocess."""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import re
import subprocess
import sys

import pexpect
import pytest
from conftest import in_process, spawn_play
from typer.testing import CliRunner

from foursquare_cli.app.opening import daily_seed
from foursquare_cli.cli import app
from foursquare_cli.formats.records import check_record, read_source
from foursquare_cli.rules.engine import State
from foursquare_cli.rules.moves import Move
from foursquare_cli.ui.prompt import suggestion

SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"
TOOL = [sys.executable, "-m", "foursquare_cli"]
ENV = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
ANSI = re.compile(r"\x1b\[[0-9;]*m")
runner = CliRunner()
# Deal 0 begins 9S 3C 5S 6C: B2 takes 9S; C2 takes 3C (row 2: 3 < 9 turns B2 down).


def spawn(*args: str, cwd: str | None = None, **env: str) -> pexpect.spawn:
    """At a terminal with colour left to the tool (`--color` and NO_COLOR decide)."""
    return spawn_play(*args, cwd=cwd, colour="NO_COLOR" not in env, **env)


@pytest.mark.posix
def test_each_move_names_what_it_turned_and_undo_takes_it_back(tmp_path):
    child = spawn("--seed", "0", "--record", "g.yaml", "--color", "never", cwd=str(tmp_path))
    child.expect_exact("Move 1, place 9S> ")
    child.sendline("B2")
    child.expect_exact("Move 1: B2 places 9S\r\n")
    child.expect_exact("Move 2, place 3C> ")
    child.sendline("C2")
    child.expect_exact("Move 2: C2 places 3C; turns B2 face down\r\n")
    child.expect_exact("|  ##*x1 | [3C]x1 |")
    child.expect_exact("Move 3, place 5S> ")
    child.sendline("undo")
    child.expect_exact("Undone (undos so far: 1).")
    child.expect_exact("Move 2, place 3C> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = (tmp_path / "g.yaml").read_text()
    assert text.startswith("foursquare: 1\nseed: 0\nmoves:\n  - B2\nresult: playing\nundos: 1\nmeta:\n  started: ")


@pytest.mark.posix
def test_tab_completes_a_move_and_a_command():
    child = spawn("--seed", "0", "--color", "never")
    child.expect_exact("Move 1, place 9S> ")
    child.sendline("B2")
    child.expect_exact("Move 2, place 3C> ")
    child.send("c2\t")  # the only completion of 'c2' is the canonical move
    child.send("\r")
    child.expect_exact("Move 2: C2 places 3C")
    child.expect_exact("Move 3, place 5S> ")
    child.send("boa\t\r")
    child.expect_exact("Next card: 5S")
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.posix
def test_unknown_input_is_answered_for_what_it_is():
    child = spawn("--seed", "0", "--color", "never")
    child.expect_exact("> ")
    child.sendline("rules")
    child.expect_exact("unknown command 'rules'; type 'help'")
    child.sendline("B2")
    child.expect_exact("Move 2, place 3C> ")
    child.sendline("B2top")
    child.expect_exact("unknown command 'B2top'; did you mean 'B2 top'?")
    child.sendline("hlep")
    child.expect_exact("unknown command 'hlep'; did you mean 'help'?")
    child.sendline("E5")
    child.expect_exact("'E5': no such cell; cells are A1 to D4")
    child.sendline("help")
    for command in ("moves", "board", "hint", "undo", "help", "quit"):
        child.expect(rf"\n  {command}\s")
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.slow  # a long multi-process run: CI's `-m slow` step
@pytest.mark.posix
def test_colour_at_a_terminal_and_none_with_no_color():
    child = spawn("--seed", "0")
    child.expect_exact("Move 1, place 9S> ")
    child.sendline("B2")
    child.expect_exact("Move 2, place 3C> ")
    seen = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "\x1b[1m [9S]x1 \x1b[0m" in seen, "the placed card is bold"

    plain = spawn("--seed", "0", NO_COLOR="1")
    plain.expect_exact("Move 1, place 9S> ")
    plain.sendline("B2")
    plain.expect_exact("Move 2, place 3C> ")
    seen = plain.before
    plain.sendline("quit")
    plain.expect(pexpect.EOF)
    assert " [9S]x1 " in seen and "\x1b[1m" not in seen and "\x1b[31m" not in seen


LOST_MOVES = [line.strip()[2:] for line in (SAMPLES / "lost.yaml").read_text().splitlines() if line.startswith("  - ")]


@pytest.mark.posix
def test_a_lost_game_ends_with_what_the_deal_allowed_and_commands_that_work(tmp_path):
    child = spawn("--seed", "1", "--record", "g.yaml", "--color", "never", cwd=str(tmp_path))
    for move in LOST_MOVES:
        child.expect(r"Move \d+, place \S+> ")
        child.sendline(move)
    shifts = sum(move.startswith("shift") for move in LOST_MOVES)  # moves too, counted as every screen does
    child.expect_exact(
        f"You lost: more than 4 face-down cards; {len(LOST_MOVES)} moves ({shifts} of them free shifts)."
    )
    child.expect("A player who knew the stock could have scored (at least )?\\d+")
    child.expect(r"Check it: (.*check g\.yaml)")
    command = child.match.group(1)
    child.expect_exact("The game is over: undo takes the last move back")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    checked = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, env=ENV)
    assert checked.returncode == 0
    assert checked.stdout == "g.yaml: lost after 20 moves (more than 4 face-down cards)\n"


def test_the_suggested_resume_command_works_without_foursquare_on_the_path(tmp_path):
    bare = dict(os.environ, PATH="/usr/bin:/bin")
    first = subprocess.run(
        [*TOOL, "play", "--seed", "0", "--record", "g.yaml", "-f", "json"],
        input="B2\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=bare,
        timeout=60,
    )
    hint = re.search(r"to go on: (.*)$", first.stderr, re.M)
    assert hint and hint.group(1).endswith("play --resume g.yaml")
    again = subprocess.run(
        hint.group(1) + " -f json",
        shell=True,
        input="C2\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=bare,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert check_record(read_source(str(tmp_path / "g.yaml"))).outcome_words() == "playing, 2 moves"


# -- pipes -----------------------------------------------------------------------------------------------


def test_undo_from_a_pipe_in_json_prints_the_state_before_again(tmp_path):
    process = in_process(
        "play", "--seed", "0", "-f", "json", "--record", "g.yaml", input="B2\nC2\nundo\nundo\nundo\n", cwd=tmp_path
    )
    assert process.returncode == 1
    assert process.stderr.splitlines()[0] == "<stdin>:5: move 1 'undo': nothing to undo: no move has been played"
    states = [json.loads(line) for line in process.stdout.splitlines()]
    assert [(s["ply"], s["move"], s["face_down"]) for s in states] == [
        (0, None, 0),
        (1, "B2", 0),
        (2, "C2", 1),
        (1, "B2", 0),
        (0, None, 0),
    ]
    assert (
        (tmp_path / "g.yaml")
        .read_text()
        .startswith("foursquare: 1\nseed: 0\nmoves: []\nresult: playing\nundos: 2\nmeta:\n  started: ")
    )


def test_undo_from_a_pipe_in_text_and_never_a_colour_code():
    process = in_process("play", "--seed", "0", "--color", "always", input="B2\nC2\nundo\n")
    assert process.returncode == 0
    headings = [line for line in process.stdout.splitlines() if line.startswith(("Start", "Move"))]
    assert headings == [
        "Start",
        "Move 1: B2 places 9S",
        "Move 2: C2 places 3C; turns B2 face down",
        "Move 1: B2 places 9S",
    ]
    assert "\x1b" not in process.stdout
    assert process.stdout.count("(## = face down") == 1, "the legend once per run"


def test_replay_names_flips_and_prints_the_legend_once():
    result = runner.invoke(app, ["replay", str(SAMPLES / "won.yaml"), "--color", "never"])
    assert result.exit_code == 0
    assert result.stdout.count("(## = face down") == 1
    assert "; turns " in result.stdout


def test_unicode_reveal_uses_suit_symbols_in_the_legend_too():
    result = runner.invoke(app, ["replay", str(SAMPLES / "won.yaml"), "--unicode", "--reveal", "--color", "never"])
    assert "(#7\u2665 = face down, [7\u2665] = just placed" in result.stdout


# -- undos in records -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, verdict",
    [
        ("", "playing, 1 move"),
        ("undos: 0\n", "playing, 1 move"),
        ("undos: 2\n", "playing, 1 move, 2 undos"),
    ],
)
def test_check_shows_undos(line, verdict):
    source = read_source("g.yaml", f"foursquare: 1\nseed: 0\nmoves: [B2]\n{line}".encode())
    assert check_record(source).outcome_words() == verdict


@pytest.mark.parametrize("value", ["-1", "1.5", "two", "true", "[1]"])
def test_a_negative_or_non_integer_undo_count_is_invalid_at_its_line(value):
    verdict = check_record(read_source("g.yaml", f"foursquare: 1\nseed: 0\nmoves: [B2]\nundos: {value}\n".encode()))
    assert [p.line for p in verdict.problems] == [4]
    assert verdict.problems[0].message.startswith("undos: ") and "whole number from 0" in verdict.problems[0].message


def test_check_text_line_of_a_won_record_with_undos(tmp_path):
    text = (SAMPLES / "won.yaml").read_text() + "undos: 2\n"
    path = tmp_path / "won.yaml"
    path.write_text(text)
    result = runner.invoke(app, ["check", str(path)])
    assert result.stdout == f"{path}: won, score 9, 31 moves, 2 undos\n"


# -- the daily deal, the deal restated -----------------------------------------------------------------------


def test_the_daily_deal_is_the_utc_date_as_a_number():
    assert daily_seed(datetime.date(2026, 11, 30)) == (20261130, datetime.date(2026, 11, 30))
    today = datetime.datetime.now(datetime.UTC).date()
    result = runner.invoke(app, ["play", "--daily", "-f", "json"], input="")
    expected = int(today.strftime("%Y%m%d"))
    assert f"Daily deal {expected} ({today.isoformat()})" in result.stderr
    first = json.loads(result.stdout.splitlines()[0])
    from foursquare_cli.rules.cards import deal

    assert first["next"] == str(deal(expected)[0])


def test_daily_with_a_seed_is_contradictory():
    result = runner.invoke(app, ["play", "--daily", "--seed", "3"], input="")
    assert result.exit_code == 2 and "--daily picks the deal" in result.stderr


def test_resume_restates_the_deal_and_auto_shows_the_one_it_played(tmp_path):
    result = runner.invoke(app, ["play", "--resume", str(SAMPLES / "unfinished.yaml"), "--no-record"], input="")
    assert "Resuming deal 7 at move 13" in result.stderr
    result = runner.invoke(app, ["auto", "--player", "greedy", "-f", "json"])
    shown = re.match(r"Deal (\d+) \(to watch it again: --seed \1\)", result.stderr)
    assert shown, result.stderr


@pytest.mark.parametrize(
    "text, said",
    [
        ("C4top", "did you mean 'C4 top'?"),
        ("c4TOP", "did you mean 'C4 top'?"),
        ("quti", "did you mean 'quit'?"),
        ("shift upp", "did you mean 'shift up'?"),
        ("shitf up", "did you mean 'shift up'?"),  # the word mistyped, not the direction
        ("shift north", "did you mean 'shift up'?"),  # an outside try: it was 'shift right', by its letters
        ("Shift West", "did you mean 'shift left'?"),
        ("shift sideways", "type 'help'"),
        ("A 2", "did you mean 'A2'?"),  # an outside try: a cell typed with a space got no guess
        ("b 3 top", "did you mean 'B3 top'?"),
        ("xyzzy", "type 'help'"),
    ],
)
def test_suggestions_for_near_misses(text, said):
    assert suggestion(text) == said


def test_a_cell_off_the_grid_typed_apart_is_answered_as_a_move_not_an_unknown_command():
    """An outside try: `A 9` was an unknown command, to be told 'help', where `A 2` got a guess."""
    from foursquare_cli.ui.prompt import is_move_attempt

    assert is_move_attempt("A 9") and is_move_attempt("a 9 top") and is_move_attempt("E5")
    assert not is_move_attempt("hint") and not is_move_attempt("a b")


def test_a_cell_typed_apart_is_the_placement_the_position_allows():
    state = State.from_seed(0)
    state.apply(Move.from_str("B2"))
    assert suggestion("b 2", state.legal_moves()) == "did you mean 'B2 top'? (B2 holds a pile)"
    assert suggestion("C 2", state.legal_moves()) == "did you mean 'C2'?"
    assert suggestion("D 4", state.legal_moves()) == "neither 'D4 top' nor 'D4' can be played now; type 'moves'"


@pytest.mark.parametrize(
    "line, said",
    [
        ("moves", "'moves' is a command of the prompt; from a pipe a line is a move, undo or quit"),
        ("hint", "'hint' is a command of the prompt; from a pipe a line is a move, undo or quit"),
        ("B2top", "not a move; did you mean 'B2 top'?"),
        ("c2TOP", "not a move; did you mean 'C2'? (C2 is empty)"),  # never a guess the position forbids
        ("C4top", "not a move; neither 'C4 top' nor 'C4' can be played now"),
        ("E5", "no such cell; cells are A1 to D4"),
    ],
)
def test_a_piped_line_that_is_no_move_says_what_it_is(line, said):
    process = in_process("play", "--seed", "0", "-f", "json", input=f"B2\n{line}\n")
    assert process.returncode == 1
    refused, *kept = process.stderr.splitlines()
    assert refused == f"<stdin>:2: move 2 {line!r}: {said}"
    assert kept[0].startswith("The game is saved in"), "where the game is kept, as every end of a pipe says"


CHANCE = r"([<>]?\d+(?:\.\d)?%)"
HINT_LINE = re.compile(rf"Hint: (.+?) \({CHANCE}(?: to)? win, (?:expected )?score (\d+\.\d)\)")
HINT_ROW = re.compile(rf"^  (\S.*?)\s+{CHANCE}\s+(\d+\.\d)\*?\s*$")
METER = re.compile(rf"Expected score (\d+\.\d), {CHANCE} to win(?:; (.+))?")
NEXT_PROMPT = r"Move \d+, place \w+> "


def _as_shown(chance: float) -> set[str]:
    """The ways a chance, as analyze's JSON rounds it (to four places), may be shown (`shown_chance`): the
    chance itself may be anywhere within half of the fourth place."""
    from foursquare_cli.players.evaluation import shown_chance

    return {shown_chance(min(1.0, max(0.0, chance + off))) for off in (-0.00005, 0.0, 0.00005)}


def _near(shown: str, figure: float) -> bool:
    """A score shown to a tenth is the figure rounded."""
    return abs(float(shown) - figure) <= 0.0501


def _named(figures: dict[str, str | None]) -> str:
    return str(figures["move"]) if figures["then"] is None else f"{figures['move']}, then {figures['then']}"


@pytest.mark.posix
def test_a_game_at_the_prompt_the_meter_hint_and_analyze_agree_move_by_move(tmp_path):
    """Issue 48: a game at a real prompt with the meter on. Before each move the hint, after it the meter, then
    `analyze` on the game's record: for every move, the figures the three show are the same (the meter's
    after a move are the hint's for that move before it: issue 59), and what the meter says a move gave up is
    what analyze says."""
    record = tmp_path / "game.yaml"
    child = spawn("--seed", "42", "--meter", "--playouts", "200", "--record", str(record), NO_COLOR="1")
    child.expect(NEXT_PROMPT)
    child.sendline("B2")  # the first card: every cell alike, the expert's move whichever
    hints: list[tuple[str, str, str, dict[str, tuple[str, str]]]] = [("", "", "", {})]
    meters: list[tuple[str, str, str]] = []
    played = ["B2"]
    for ply in range(2, 11):
        child.expect(NEXT_PROMPT)
        meter = METER.search(child.before)
        assert meter is not None, child.before
        meters.append((meter[1], meter[2], (meter[3] or "").strip()))
        child.sendline("hint")
        child.expect(NEXT_PROMPT)
        said = HINT_LINE.search(child.before)
        assert said is not None, child.before
        table = {m[1]: (m[2], m[3]) for m in map(HINT_ROW.match, child.before.splitlines()) if m}
        hints.append((said[1], said[2], said[3], table))
        placements = [name for name in table if "then" not in name and not name.startswith("shift")]
        # the hint's own move on even moves, another on odd ones: the meter has something given up to say
        move = placements[0] if ply % 2 == 0 or len(placements) == 1 else placements[1]
        played.append(move)
        child.sendline(move)
    child.expect(NEXT_PROMPT)
    meter = METER.search(child.before)
    assert meter is not None, child.before
    meters.append((meter[1], meter[2], (meter[3] or "").strip()))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()

    analysed = runner.invoke(app, ["analyze", str(record), "--playouts", "200", "--solve-budget", "1000", "-f", "json"])
    assert analysed.exit_code == 0, analysed.stderr
    rows = [json.loads(line) for line in analysed.stdout.splitlines()][:-1]
    assert [row["move"] for row in rows] == played
    for ply in range(2, len(played) + 1):
        row, (hinted, chance, score, table) = rows[ply - 1], hints[ply - 1]
        # the hint before the move and analyze's row for it: the same best, the same figure for the move played
        assert hinted == _named(row["best"]) or table[hinted] == table[_named(row["best"])]
        assert chance in _as_shown(row["best"]["win_rate"]) and _near(score, row["best"]["expected_score"])
        assert table[played[ply - 1]][0] in _as_shown(row["played"]["win_rate"])
        assert _near(table[played[ply - 1]][1], row["played"]["expected_score"])
    for ply, (score, chance, verdict) in enumerate(meters, 1):
        row = rows[ply - 1]
        # the meter after a move: the move's own figures where it was played, as the hint listed them there
        assert chance in _as_shown(row["played"]["win_rate"]) and _near(score, row["played"]["expected_score"])
        if ply > 1:
            assert (chance, score) == hints[ply - 1][3][played[ply - 1]]
        if ply == 1:  # the first card: every cell alike, no expert's move to speak of
            assert verdict == "", verdict
        elif row["agreed"]:
            assert verdict == f"{played[ply - 1]} was the expert's move", verdict
        elif row["given_up"] == {"expected_score": 0.0, "win_rate": 0.0}:
            if row["mark"] == "!":  # shown above the expert's own move: analyze's good move, the meter's words
                assert verdict.startswith(f"{played[ply - 1]} did better than {_named(row['best'])}, by "), verdict
            else:
                assert verdict == f"{played[ply - 1]} was as good as {_named(row['best'])}"
        else:
            given = re.fullmatch(
                r"(.+) gave up (?:(\d+\.\d)(?: and )?)?(?:([<>]?[\d.]+)% to win)? against (.+?)(?:, for .+ more .+)?",
                verdict,
            )
            assert given is not None and (given[2] or given[3]), verdict
            assert (given[1], given[4]) == (played[ply - 1], _named(row["best"]))
            assert _near(given[2] or "0.0", row["given_up"]["expected_score"])
    assert any(" gave up " in verdict for _, _, verdict in meters), "a move that cost"


@pytest.mark.slow
@pytest.mark.posix
def test_a_closed_terminal_window_ends_as_a_hang_up_and_keeps_the_game(tmp_path):
    """Its window closed, the terminal answers EIO (and SIGHUP may come after): exit 143, as a hang-up, not 74
    for an output that failed, and the game is kept."""
    import time

    child = spawn("--seed", "0", "--record", "g.yaml", "--color", "never", cwd=str(tmp_path))
    child.expect_exact("Move 1, place 9S> ")
    child.sendline("B2")
    child.expect_exact("Move 2, place 3C> ")
    os.close(child.child_fd)  # the window goes: no signal sent from here
    child.child_fd = -1
    deadline = time.monotonic() + 20
    while (ended := os.waitpid(child.pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ended[0] == child.pid and os.WIFEXITED(ended[1]) and os.WEXITSTATUS(ended[1]) == 143
    assert "moves:\n  - B2\n" in (tmp_path / "g.yaml").read_text()
