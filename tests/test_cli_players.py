"""hint, auto, solve and stats at the command line."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import pytest
from conftest import spawn_tool
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.formats.records import check_record, read_source
from foursquare_cli.players.expert import SECOND_PLY
from foursquare_cli.rules.cards import deal

ROOT = pathlib.Path(__file__).resolve().parent.parent

SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"
runner = CliRunner()


def test_hint_for_the_end_of_a_record():
    result = runner.invoke(app, ["hint", str(SAMPLES / "unfinished.yaml"), "--playouts", "2000"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Hint: ") and "+--------+" not in result.stdout, "the move first, no board"
    named = lines[0].split(" (")[0].removeprefix("Hint: ")
    assert lines[2].startswith(f"  {named} "), "the first move listed is the one named"
    listed = re.findall(r"^  \S.*?  +[<>]?[\d.]+%  +([\d.]+)(\*?)", result.stdout, re.MULTILINE)
    scores = [float(score) for score, _ in listed]
    looked = [mark == "*" for _, mark in listed]
    assert len(listed) == len(lines) - 4, "a row a move, between the head and the two lines under them"
    assert looked == sorted(looked, reverse=True), "the moves looked at again over the next card first"
    assert scores == sorted(scores, reverse=True), "no move shows more than one above it"
    assert len(lines) <= 8
    assert "Each figure is from futures" not in result.stdout  # the figures are for those who ask
    detailed = runner.invoke(app, ["hint", str(SAMPLES / "unfinished.yaml"), "--detail", "--playouts", "2000"])
    detail = detailed.stdout.splitlines()
    table = detail.index("")  # the figures follow the plain words after a blank line
    assert detail[table + 1].split() == ["move", "win", "score", "played", "won", "their", "worth"]
    assert all(len(line) <= 60 for line in detail[table:-1]), "the table within 60 columns"
    assert detail[-1].startswith("Each figure is from futures: the unseen cards shuffled anew")


def test_hint_of_a_deal_alone_is_for_its_first_card_and_a_command_given_nothing_says_what_to_give():
    """An outside try: `hint --seed 555` and `analyze --seed 137` said 'give FILE, or --last (not both)' though
    neither was given and --seed was listed. A deal alone is the hint at its start; analyze needs a game."""
    alone = runner.invoke(app, ["hint", "--seed", "555", "--playouts", "300"])
    assert alone.exit_code == 0, alone.stderr
    assert alone.stdout.startswith("Hint: A1 or any of the 15 alike: "), "the first card: every cell alike"
    by_deck = runner.invoke(app, ["hint", "--deck", " ".join(str(c) for c in deal(555)), "--playouts", "300"])
    assert by_deck.stdout == alone.stdout, "the same deal by its cards"
    both = runner.invoke(app, ["hint", "--seed", "5", "--deck", " ".join(str(c) for c in deal(5))])
    assert both.exit_code == 2 and "not both" in both.stderr
    for command in (["hint"], ["analyze", "--seed", "137"]):
        refused = runner.invoke(app, command)
        assert refused.exit_code == 2 and "--last for the game you played last" in refused.stderr
        assert "not both" not in refused.stderr, "nothing was given twice"
    twice = runner.invoke(app, ["hint", str(SAMPLES / "unfinished.yaml"), "--last"])
    assert twice.exit_code == 2 and "give one of the two" in twice.stderr


def test_hint_json_and_a_finished_game():
    # 4,000 futures: the fewest at which the replies look again, as they do at the default budget
    result = runner.invoke(app, ["hint", str(SAMPLES / "unfinished.yaml"), "--format", "json", "--playouts", "4000"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["move"] == report["ratings"][0]["move"]
    keys = {"move", "then", "wins", "samples", "win_rate", "expected_score", "worth"}
    keys |= {"futures_won", "futures_expected_score", "futures_mean_score_of_wins"}  # before calibration (issue 34)
    keys |= {"unsafe_next", "cards_to_come"}  # the risk a hint says in words (issue 21)
    assert all(set(r) == keys for r in report["ratings"])
    # the expert's best SECOND_PLY, looked at again over the next card, lead (ranked by that worth); then the
    # rest, by worth: the order the hint lists them in, none showing more than a move above it
    top, rest = report["ratings"][:SECOND_PLY], report["ratings"][SECOND_PLY:]
    assert [r["worth"] for r in top] == sorted((r["worth"] for r in top), reverse=True)
    assert min(r["samples"] for r in top) >= max(r["samples"] for r in rest)
    assert [r["worth"] for r in rest] == sorted((r["worth"] for r in rest), reverse=True)
    shown = [r["expected_score"] for r in report["ratings"]]
    assert shown == sorted(shown, reverse=True)
    # a won future is worth 1 to 1 + 0.12 x 24, a lost one -2 to under 1
    assert all(-2 <= r["worth"] <= 3.88 for r in report["ratings"])
    assert all(r["worth"] >= 1 for r in rest if r["futures_won"] == 1)  # the top's worth is over the next card
    assert all(r["futures_won"] == r["wins"] / r["samples"] for r in report["ratings"])
    result = runner.invoke(app, ["hint", str(SAMPLES / "won.yaml")])
    assert result.exit_code == 1 and "the game is over (won, score 9, 31 moves)" in result.stderr


def test_hint_at_the_play_prompt():
    from conftest import at_the_table

    from foursquare_cli.app.session import Session
    from foursquare_cli.players import PlayerSpec, Strength
    from foursquare_cli.rules.game import Game

    code, said = at_the_table(
        Session(Game.from_seed(3)), "B2", "hint", "quit", player=PlayerSpec(strength=Strength(50))
    )
    assert code == 0 and "Hint: " in said  # a game that ends well raises nothing


def test_auto_plays_a_whole_game_and_its_record_passes_check(tmp_path):
    path = tmp_path / "auto.yaml"
    # Deal 33: greedy wins with 28 placements and one shift (40 - 28 = 12 cards left).
    result = runner.invoke(app, ["auto", "--seed", "33", "--player", "greedy", "--record", str(path), "-f", "json"])
    assert result.exit_code == 0
    states = [json.loads(line) for line in result.stdout.splitlines()]
    assert states[0]["ply"] == 0 and states[-1]["status"] == "won" and states[-1]["score"] == 12
    assert sum(state["card"] is None for state in states[1:]) == 1
    verdict = check_record(read_source(str(path)))
    assert verdict.valid and verdict.outcome_words() == "won, score 12, 29 moves"
    assert read_source(str(path)).meta == "meta:\n  player: greedy\n"


def test_auto_text_and_unknown_player():
    result = runner.invoke(app, ["auto", "--seed", "1", "--player", "random"])
    assert result.exit_code == 0 and result.stdout.startswith("Start\n")
    result = runner.invoke(app, ["auto", "--seed", "1", "--player", "wizard"])
    assert result.exit_code == 2 and "no such player" in result.stderr


def test_solve_statuses_are_distinct_in_text_json_and_exit_code(tmp_path):
    path = tmp_path / "line.yaml"
    result = runner.invoke(app, ["solve", "--seed", "0", "--timeout", "120", "--record", str(path)])
    assert result.exit_code == 0
    assert result.stdout.startswith("Deal 0: winnable, best score found 24 (proven best)\n")
    assert "upper bound for any real player, not a player" in result.stdout
    assert check_record(read_source(str(path))).outcome_words() == "won, score 24, 16 moves"

    result = runner.invoke(app, ["solve", "--seed", "0", "--budget", "5", "--format", "json"])
    assert result.exit_code == 4
    report = json.loads(result.stdout)
    assert (report["status"], report["score"], report["proven"], report["moves"]) == ("gave up", None, False, [])

    result = runner.invoke(app, ["solve", "--seed", "0", "--budget", "5"])
    assert result.exit_code == 4 and result.stdout.startswith("Deal 0: gave up")


def test_solve_needs_a_deal():
    result = runner.invoke(app, ["solve"])
    assert result.exit_code == 2 and "give --seed N or --deck CARDS" in result.stderr


def test_stats_text_json_and_jobs():
    result = runner.invoke(app, ["stats", "--games", "30", "--player", "greedy"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "player greedy, deals 0 to 29"
    assert lines[1].startswith("won ") and "95% interval" in lines[1]
    assert result.stderr == "", "no progress bar when standard error is not a terminal"
    one = json.loads(runner.invoke(app, ["stats", "-n", "30", "-p", "random", "-f", "json"]).stdout)
    two = json.loads(runner.invoke(app, ["stats", "-n", "30", "-p", "random", "-f", "json", "-j", "2"]).stdout)
    for key in ("games", "wins", "win_rate", "win_rate_95", "mean_score_of_wins", "lost_deals"):
        assert one[key] == two[key]
    assert one["lost_deals"] == list(range(30)), "random wins nothing"


def test_stats_in_a_real_process_and_a_bad_player():
    process = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "stats", "-n", "5", "-p", "greedy", "-f", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 0 and json.loads(process.stdout)["games"] == 5 and process.stderr == ""
    result = runner.invoke(app, ["stats", "-n", "5", "-p", "wizard"])
    assert result.exit_code == 2 and "no such player" in result.stderr


@pytest.mark.posix
def test_stats_draws_a_progress_bar_on_a_terminal():
    import pexpect

    child = spawn_tool("stats", "-n", "4", "-p", "greedy")
    child.expect_exact("greedy playing")
    child.expect(r"4/4\S* \S*0:00:0\d\S* elapsed, \S*\d:\d\d:\d\d\S* left")
    child.expect_exact("player greedy, deals 0 to 3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
@pytest.mark.posix
def test_a_warning_goes_above_the_bar_and_a_long_label_leaves_the_count_room_at_60_columns():
    import pexpect

    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'greedy_bot.py'}"
    child = spawn_tool("stats", "-n", "4", "-p", bot, width=60)
    child.expect_exact("cmd:" + sys.executable[:10])  # the label clipped to 15 characters, the count and times kept
    child.expect_exact("foursquare stats: the deals are public numbers")
    assert child.before.endswith("\x1b[2K"), "the bar's line cleared first: the warning not after the bar's text"
    child.expect(r"4/4\S* \S*0:00:0\d\S* elapsed, \S*\d:\d\d:\d\d\S* left")
    child.expect_exact("deals 0 to 3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
@pytest.mark.posix
def test_a_long_run_at_60_columns_keeps_its_count_whole_and_ctrl_c_prints_what_was_played():
    """An outside try: `2817/…` and `elapse…`, the count cut to fit; then Ctrl-C printed no figure at all."""
    import pexpect

    child = spawn_tool("stats", "-n", "200000", "-p", "greedy", width=60)
    child.expect(r"\d+/200000\S* \S*\d:\d\d:\d\d")  # the whole count, then the time: nothing cut
    child.sendintr()
    child.expect(r"player greedy, (\d+) deals between 0 and \d+")
    played = int(child.match.group(1))
    child.expect_exact(f"Stopped early: {200000 - played:,} deals not played: {played}, {played + 1}, ")
    child.expect_exact("foursquare stats: interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


@pytest.mark.slow
@pytest.mark.posix
@pytest.mark.parametrize(
    ("arguments", "first"),
    [
        (["compare", "greedy", "random", "-n", "300"], "300 deals, 0 to 299"),
        (
            ["analyze", str(ROOT / "samples" / "won.yaml"), str(ROOT / "samples" / "lost.yaml"), "--playouts", "200"],
            "Analysis of ",
        ),
    ],
    ids=["compare", "analyze"],
)
def test_what_a_run_prints_at_a_terminal_starts_on_a_line_of_its_own_not_after_the_bar(arguments, first):
    """An outside look at the bytes: `... 0:00:01 left300 deals, 0 to 299`, the report glued to the bar's line."""
    import pexpect

    child = spawn_tool(*arguments, width=60, timeout=120, encoding=None)  # bytes: a bar cut mid-character
    child.expect(pexpect.EOF)
    child.close()
    screen = re.sub(r"\x1b\[[0-9;]*m", "", child.before.decode())  # colours aside: what the bytes put where
    at = screen.index(first)
    before = screen[:at]  # a new line, or the bar's line cleared (a carriage return, then erase the line)
    assert child.exitstatus == 0, before[-200:]
    assert before.endswith("\n") or re.search(r"\r(\x1b\[1A)?\x1b\[2K$", before), before[-80:]


@pytest.mark.slow
def test_solve_with_a_deck_finds_what_the_same_deal_by_seed_finds():
    from foursquare_cli.rules.cards import deal

    cards = " ".join(str(card) for card in deal(5))
    by_deck = json.loads(runner.invoke(app, ["solve", "--deck", cards, "--budget", "30000", "-f", "json"]).stdout)
    by_seed = json.loads(runner.invoke(app, ["solve", "--seed", "5", "--budget", "30000", "-f", "json"]).stdout)
    assert by_deck["seed"] is None and by_seed["seed"] == 5
    for key in ("status", "score", "proven", "moves", "nodes"):
        assert by_deck[key] == by_seed[key]
    result = runner.invoke(app, ["solve", "--deck", cards, "--seed", "5"])
    assert result.exit_code == 2 and "one of them" in result.stderr


@pytest.mark.parametrize(
    "named, said",
    [
        ("ñame=expert", "'ñame': a short name is 1 to 20 ASCII letters, digits, '_', '.' or '-', a letter first"),
        ("abcdefghijklmnopqrstu=greedy", "'abcdefghijklmnopqrstu': a short name is 1 to 20 ASCII letters"),
        ("1st=greedy", "'1st': a short name is 1 to 20 ASCII letters"),
        ("my bot=greedy", "'my bot': a short name is 1 to 20 ASCII letters"),
        ("fast=", "'fast=': no player after the short name (fast=expert:playouts=500)"),
    ],
)
def test_a_short_name_out_of_its_form_is_refused_with_its_rules_not_as_no_such_player(named, said):
    for command in (["stats", "-n", "1", "-p", named], ["compare", named, "random", "-n", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
        assert said in result.stderr and "no such player" not in result.stderr, result.stderr
    assert runner.invoke(app, ["stats", "-n", "1", "-p", "abcdefghijklmnopqrst=greedy"]).exit_code == 0, "20 is fine"


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_ctrl_c_in_stats_prints_the_games_played_and_the_deals_not_reached_then_exits_130(monkeypatch, output_format):
    """As compare does, and as docs/players.md says: an outside try's Ctrl-C after 2,800 games printed nothing."""
    import signal

    from foursquare_cli.errors import interrupted_by
    from foursquare_cli.runs import run as run_module

    played = run_module.play_plan

    def stopped_after_three(*arguments):
        for count, result in enumerate(played(*arguments), start=1):
            yield result
            if count == 3:
                raise interrupted_by(signal.SIGINT)

    monkeypatch.setattr(run_module, "play_plan", stopped_after_three)
    result = CliRunner().invoke(app, ["stats", "-n", "30", "-p", "greedy", "--start", "100", "-f", output_format])
    assert result.exit_code == 130 and result.stderr.count("\n") == 1, result.stderr
    if output_format == "json":
        import jsonschema

        figures = json.loads(result.stdout)
        assert (figures["games"], figures["missing"]) == (3, 27) and figures["first_missing"][:2] == [103, 104]
        schema = json.loads(CliRunner().invoke(app, ["schema", "stats", "-f", "json"]).stdout)  # as it is printed
        jsonschema.Draft202012Validator(schema).validate(figures)
        return
    assert "player greedy, 3 deals between 100 and 102" in result.stdout
    assert "Stopped early: 27 deals not played: 103, 104, " in result.stdout
