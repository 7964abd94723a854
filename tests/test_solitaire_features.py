"""What solitaire players ask for most (issue 22): graded deals, a daily streak and a result to share, hints and
time counted, a live estimate, settings and shell completion, history as CSV."""

from __future__ import annotations

import csv
import datetime
import io
import json
import os
import pathlib
import random
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from foursquare_cli.app.session import Session
from foursquare_cli.cli import app
from foursquare_cli.formats.records import check_record, format_record
from foursquare_cli.formats.source import read_source
from foursquare_cli.players import expert as expert_module
from foursquare_cli.players import grade as grading
from foursquare_cli.players.expert import ExpertPlayer
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State
from foursquare_cli.rules.game import Game
from foursquare_cli.rules.moves import Move
from foursquare_cli.store.history import History
from foursquare_cli.store.kept import KeptGame
from foursquare_cli.store.totals import totals
from foursquare_cli.ui.history_text import share_block

runner = CliRunner()
SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(tmp_path / "no-config.toml"))
    return tmp_path / "home"


def _game_score(player: ExpertPlayer, seed: int) -> int:
    state = State(deal(seed))
    while not state.is_over:
        state.apply(player.choose(state))
    return state.outcome.score or 0


def at_prompt(session: Session, *lines: str, **options) -> str:
    """What the prompt printed for `lines` (test_table's `table`, its exit code left aside)."""
    from test_table import table

    return table(session, *lines, **options)[1]


# -- 1. graded deals ------------------------------------------------------------------------------------------


def test_a_grade_is_a_deterministic_measure_of_the_deal_cut_at_documented_thresholds():
    assert grading.share_won(3, False, 40) == grading.share_won(3, False, 40)
    assert grading.share_won(3, True, 40) == grading.share_won(3, True, 40)
    assert grading.quick_score(3, 10) == grading.quick_score(3, 10)
    # the quick expert is pinned as the cuts were measured with it (its own copy of the one-ply search, so no
    # change to the expert regrades a deal): the scores its games made when the grades were measured
    assert expert_module.SECOND_PLY > 0
    assert [grading.quick_score(seed) for seed in range(12)] == [12, 10, 2, 21, 5, 9, 11, 7, 15, 15, 12, 8]
    assert (grading.HARD_EASE, grading.EASY_EASE, grading.QUICK_SCALE) == (1.16, 1.68, 16)
    # the ease is greedy won + filling won + quick score / 16, worked out by hand:
    cases = {
        (0.0, 0.0, 0): "hard",
        (1.0, 1.0, 24): "easy",
        (0.68, 1.0, 0): "easy",  # 1.68: easy from there on
        (0.67, 1.0, 0): "medium",
        (0.16, 1.0, 0): "medium",  # 1.16: not below
        (0.15, 1.0, 0): "hard",
        (0.0, 0.0, 16): "hard",  # 1.0
        (0.0, 0.25, 16): "medium",  # 1.25
        (0.25, 0.25, 24): "easy",  # 0.25 + 0.25 + 1.5 = 2.0
    }
    assert {case: grading.level_of(*case) for case in cases} == cases
    import time

    started = time.process_time()
    found = grading.grade(5)
    assert time.process_time() - started < 0.5, "a grade takes at most half a second"
    assert 0.0 <= found.greedy_won <= 1.0 and 0.0 <= found.filling_won <= 1.0 and 0 <= found.quick_score <= 24
    assert found.level == grading.level_of(found.greedy_won, found.filling_won, found.quick_score)


def test_the_quick_expert_of_a_grade_is_pinned_so_tuning_the_expert_does_not_regrade_deals():
    from foursquare_cli.players.futures import Valuation

    assert tuple(grading.QUICK_VALUATION) == (0.01, 0.8, 0.0, 2)  # spelled out: the expert's own may move
    assert isinstance(grading.QUICK_VALUATION, Valuation)
    assert (grading.GAMES, grading.OPENING_PLACEMENTS, grading.QUICK_PLAYOUTS) == (200, 4, 30)


def test_a_search_that_finds_no_deal_of_the_level_returns_the_true_grade_of_its_last_draw(monkeypatch):
    monkeypatch.setattr(grading, "share_won", lambda seed, fill_first: 0.5)
    monkeypatch.setattr(grading, "quick_score", lambda seed: 20)  # 0.5 + 0.5 + 20 / 16 = 2.25: easy
    drawn = random.Random(1)
    draws = [drawn.randrange(2**32) for _ in range(3)]
    expected = grading.Grade(0.5, 0.5, 20, "easy")
    assert grading.deal_of_level("hard", random.Random(1), tries=3) == (draws[-1], expected)
    assert grading.deal_of_level("easy", random.Random(1), tries=3) == (draws[0], expected)
    with pytest.raises(ValueError, match="levels are easy, medium, hard"):
        grading.deal_of_level("trivial", random.Random(1))


@pytest.mark.slow
def test_deal_shows_the_grade_and_play_level_picks_a_deal_of_that_grade(home):
    shown = runner.invoke(app, ["deal", "--seed", "3"])
    grade = grading.grade(3)
    first, second = shown.stderr.splitlines()
    assert first.startswith(f"grade: {grade.level}, ease {int(grade.ease * 100) / 100:.2f} (")
    assert second.startswith(f"ease = greedy games won {round(grade.greedy_won * 200)}/200 + ")
    assert second.endswith(f" a quick expert's score {grade.quick_score}/16") and len(shown.stdout.splitlines()) == 1
    result = runner.invoke(app, ["play", "--level", "hard", "--no-record"], input="quit\n")
    said = result.stderr.splitlines()[0]
    assert said.startswith("Deal ") and ", graded hard for simple players (to play it again" in said
    assert grading.grade(int(said.split()[1].rstrip(","))).level == "hard"
    refused = runner.invoke(app, ["play", "--level", "easy", "--seed", "3"], input="")
    assert refused.exit_code == 2 and "--level picks the deal" in refused.stderr


def test_the_end_screen_and_history_show_the_grade(home):
    from test_table import LOST_MOVES

    session = Session(Game.from_seed(1, meta={"started": "2026-12-01T00:00:00Z"}))
    said = at_prompt(session, *LOST_MOVES, "quit")
    assert f"The deal is graded {grading.grade(1).level} (for simple players" in said
    assert runner.invoke(app, ["play", "--level", "easy"], input="B2\n").exit_code == 0
    assert [game["grade"] for game in json.loads(runner.invoke(app, ["history", "-f", "json"]).stdout)["games"]] == [
        "easy"
    ]


# -- 2. a daily streak, and a result to share ------------------------------------------------------------------


def _kept(day: str | None, status: str = "won", hints: int = 0, undos: int = 0, seconds: float | None = None):
    return KeptGame(
        "p",
        1,
        day is not None,
        "2026-11-30T00:00:00Z",
        status,
        5 if status == "won" else None,
        30,
        undos,
        hints,
        seconds,
        None,
        day,
    )


def test_the_daily_streak_counts_consecutive_won_days_up_to_today_or_yesterday():
    today = datetime.date(2026, 12, 1)
    games = [
        _kept("2026-11-30"),
        _kept("2026-11-29"),
        _kept("2026-11-28", "lost"),
        _kept("2026-11-27"),
        _kept("2026-11-26"),
        _kept("2026-11-25"),
        _kept(None),
    ]
    figures = totals(games, today)
    assert (figures.daily_streak, figures.longest_daily_streak) == (2, 3)
    assert totals(games, datetime.date(2026, 12, 3)).daily_streak == 0, "a day missed ends the streak"


def test_the_share_block_names_no_card():
    state = State.from_grid(["5S . . .", "7H/2C 9C . .", "#AS/2S/3S/4S . . .", ". . . ."], "8D")
    block = share_block("2026-12-01", state, 12, 1, 2)
    assert block == (
        "Foursquare daily 2026-12-01: playing\n12 moves (4 free), 1 undo, 2 hints\n"
        "\u2582\u00b7\u00b7\u00b7\n\u2584\u2582\u00b7\u00b7\n\u2588\u00b7\u00b7\u00b7\n\u00b7\u00b7\u00b7\u00b7"
    )
    assert share_block("2026-12-01", state, 12, 1, 2, unicode=False).endswith("1...\n21..\n4...\n....")
    for name in ("5S", "7H", "9C", "AS", "8D", "5", "7", "9"):
        assert name not in block.split("\n", 2)[2]


def test_history_share_gives_the_block_of_a_days_daily_game(home):
    assert runner.invoke(app, ["play", "--daily"], input="B2\nC2\n").exit_code == 0
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    shared = runner.invoke(app, ["history", "--share", today, "--no-unicode"])
    assert shared.exit_code == 0
    assert shared.stdout.splitlines()[:2] == [f"Foursquare daily {today}: playing", "2 moves, 0 undos, 0 hints"]
    assert shared.stdout.splitlines()[2:] == ["....", ".11.", "....", "...."]
    missing = runner.invoke(app, ["history", "--share", "1999-01-01"])
    assert missing.exit_code == 2 and "no daily game of '1999-01-01'" in missing.stderr


@pytest.mark.parametrize(
    ("seed", "daily"),
    [(92, False), (20261207, False), (None, False), (20261208, True)],
    ids=["another deal", "the day before's", "a deck", "the day's own"],
)
def test_a_daily_claim_holds_on_its_days_deal_alone(home, seed, daily):
    """An outside try: a won record of deal 92 given `daily: '2026-12-08'` by hand was shared as that day's
    daily deal won and counted in the daily streak; `check` calls it valid, so only the deal can tell."""
    games = home / "games"
    games.mkdir(parents=True)
    dealt = f"seed: {seed}" if seed is not None else f"deck: {' '.join(map(str, deal(92)))}"
    meta = "meta:\n  started: '2026-12-08T10:00:00Z'\n  daily: '2026-12-08'\n"
    (games / "claimed.yaml").write_text(f"foursquare: 1\n{dealt}\nmoves: [B2]\n{meta}")
    shared = runner.invoke(app, ["history", "--share", "2026-12-08"])
    assert shared.exit_code == (0 if daily else 2)
    assert daily or "no daily game of '2026-12-08'" in shared.stderr
    listed = json.loads(runner.invoke(app, ["history", "-f", "json"]).stdout)
    assert [game["daily"] for game in listed["games"]] == [daily]


# -- 3. and 4. hints and time counted ---------------------------------------------------------------------------


def test_a_hint_is_counted_in_the_record_and_check_validates_the_count(tmp_path):
    from foursquare_cli.store.files import RecordFile

    path = tmp_path / "g.yaml"
    session = Session(Game.from_seed(42), RecordFile(str(path)))
    from foursquare_cli.players import PlayerSpec, Strength

    at_prompt(session, "B2", "hint", "hint", "C2", "quit", player=PlayerSpec(strength=Strength(30)))
    session.record.close()
    assert "hints: 2" in path.read_text()
    verdict = check_record(read_source(str(path)))
    assert verdict.valid and verdict.game is not None and verdict.game.hints == 2
    for bad in ("-1", "two", "1.5"):
        text = path.read_text().replace("hints: 2", f"hints: {bad}")
        problems = check_record(read_source("bad.yaml", text.encode())).problems
        assert [p.message.split(":")[0] for p in problems] == ["hints"]


def test_time_at_the_prompt_is_counted_without_long_pauses(monkeypatch):
    from foursquare_cli.app import table

    readings = [0.0, 40.0, 50.0, 450.0, 460.0, 470.0]  # each read: when the prompt is shown, when answered

    def clock() -> float:
        return readings.pop(0) if len(readings) > 1 else readings[0]

    monkeypatch.setattr(table.time, "monotonic", clock)
    game = Game.from_seed(42, meta={"started": "2026-12-01T00:00:00Z"})
    at_prompt(Session(game), "B2", "C2", "D2")
    assert game.meta["seconds"] == 50.0  # 40 s, then a pause of 400 s not counted, then 10 s
    assert "seconds: 50.0" in format_record(game)


def test_history_shows_hints_time_clean_wins_and_the_fastest_win():
    games = [_kept(None, hints=1, seconds=300.0), _kept(None, seconds=125.0), _kept(None, undos=2, seconds=99.0)]
    figures = totals(games)
    assert (figures.clean_wins, figures.seconds, figures.fastest_win) == (1, 524.0, 99.0)
    from foursquare_cli.ui.history_text import history_text

    text = history_text(games, figures, 10)
    assert "Won with neither hints nor undos: 1" in text and "time played 8:44, fastest win 1:39" in text


# -- 5. the live estimate ----------------------------------------------------------------------------------------


def test_the_meter_shows_the_expected_score_and_what_each_move_gave_up_and_only_when_asked(monkeypatch):
    """Issue 40: where the win is all but certain, the chance tells moves apart no more; the meter says the
    expected score and the points a move gave up against the expert's best, on the same ratings: the move's own
    figures where it was played (issue 59: one figure a move); after a free shift, the line before it again."""
    from foursquare_cli.app.hint import ExpertHint
    from foursquare_cli.players.evaluation import Evaluation, Rating
    from foursquare_cli.rules.engine import cornered, state_after

    def rated(state, player):  # every placement rated: the first the best (50%, 8.0), the others 15%, 3.0
        moves = state.legal_placements()
        figures = [(0.5, 8.0)] + [(0.15, 3.0)] * (len(moves) - 1)
        ratings = [
            Rating(move, None, 10, 20, 8.0, chance=chance, expected=expected, group=index)
            for index, (move, (chance, expected)) in enumerate(zip(moves, figures, strict=True))
        ]
        leads_to = tuple(cornered(state_after(state, move)).key() for move in moves)
        return ExpertHint(state, Evaluation(tuple(ratings), leads_to))

    monkeypatch.setattr("foursquare_cli.app.session.expert_hint", rated)
    said = at_prompt(Session(Game.from_seed(42)), "A1", "A2", "shift down", "quit", meter=True)
    meters = [line for line in said.splitlines() if line.startswith("Expected score ")]
    assert meters == [
        "Expected score 8.0, 50% to win",  # the first card: any cell alike, no expert's move to speak of
        "Expected score 3.0, 15% to win; A2 gave up 5.0 and 35% to win against B1",  # B1, the first placement there
        "Expected score 3.0, 15% to win (a shift is free: nothing given up)",  # A2's again: the shift changed nothing
    ]
    said_once = " ".join(said.split()).count("(The meter rates your move where you played it, before the next card")
    assert said_once == 1, "the first reading says what the meter reads (an outside try read it as the hint's)"
    assert said.index("(The meter rates") > said.index("Expected score 8.0")
    assert "Expected score" not in at_prompt(Session(Game.from_seed(42)), "B2", "quit")
    piped = runner.invoke(app, ["play", "--seed", "3", "--meter", "--no-record"], input="B2\n")
    assert "Expected score" not in piped.stdout + piped.stderr


def test_the_meter_says_a_move_shown_as_high_as_the_best_was_as_good_as_it():
    """The trust, round two: `C4 gave up nothing to D3` read badly; the expert's own move is said as such, and
    two moves shown alike in a different position are as good as each other."""
    from foursquare_cli.app.events import MeterReading
    from foursquare_cli.players.evaluation import Evaluation, Rating
    from foursquare_cli.ui.hint_text import meter_line

    def rated(cell: str, chance: float, expected: float, group: int) -> Rating:
        return Rating(Move.from_str(cell), None, 1, 1, 1.0, chance=chance, expected=expected, group=group)

    d3, c4, b1 = rated("D3", 0.9996, 20.02, 0), rated("C4", 0.9997, 19.98, 1), rated("B1", 0.9993, 19.5, 2)
    before = Evaluation((d3, c4, b1))
    words = [meter_line(MeterReading(d3, played, d3, before.lost_by(played))) for played in (d3, c4, b1)]
    assert [said.split("; ")[1] for said in words] == [
        "D3 was the expert's move",
        "C4 was as good as D3",
        "B1 gave up 0.5 and 0.1% to win against D3",  # >99.9% against 99.9%: the words show the difference
    ]
    a4, d3 = rated("A4 top", 0.0004, 0.0, 0), rated("D3", 0.8904, 0.2, 1)  # an outside try: `89.0% to win`
    words = meter_line(MeterReading(a4, a4, d3, Evaluation((d3, a4)).lost_by(a4)))
    assert words.endswith("; A4 top gave up 0.2 and 89% to win against D3"), words


def test_after_the_first_card_the_meter_names_no_expert_move(monkeypatch):
    """Any first placement is alike (the grid is slid to its corner): the meter gives the figures only."""
    from foursquare_cli.players import PlayerSpec, Strength

    player = PlayerSpec(strength=Strength(playouts=100))
    said = at_prompt(Session(Game.from_seed(42)), "C3", "quit", meter=True, player=player)
    meter = [line for line in said.splitlines() if line.startswith("Expected score ")]
    assert len(meter) == 1 and ";" not in meter[0] and "expert" not in meter[0], meter


def _placements_hinted(said: str) -> list[tuple[str, str, str]]:
    """The placements a hint lists, each with its chance and score as shown: `("C3", ">99.9%", "21.4")`."""
    import re

    return re.findall(r"^  ([A-D][1-4])\s+([<>]?[\d.]+%)\s+([\d.]+)\*?\s*$", said, re.MULTILINE)


def test_the_meter_shows_the_figures_the_hint_gives_its_move():
    """Issue 59: the meter after a move shows the figures the hint gave that move where it was played, the
    hint's own move and one it listed below it alike."""

    from foursquare_cli.players import PlayerSpec, Strength

    player = PlayerSpec(strength=Strength(playouts=300))
    said = at_prompt(Session(Game.from_seed(42)), "B2", "C2", "hint", "quit", meter=True, player=player)
    rows = _placements_hinted(said)
    assert len(rows) >= 2, said
    for move, chance, score in rows[:2]:
        again = at_prompt(Session(Game.from_seed(42)), "B2", "C2", move, "quit", meter=True, player=player)
        meter = [line for line in again.splitlines() if line.startswith("Expected score ")][-1]
        assert meter.startswith(f"Expected score {score}, {chance} to win"), (meter, rows)


def test_after_a_shift_the_meter_names_the_move_as_typed_with_the_hints_figures_there():
    """An outside try: after `shift down`, `A3`, the meter said `A2 gave up 0.2 to C1`, the cells as they were
    before the shift. The placement is judged where it was made, as the player sees the board and the hint."""
    import re

    from foursquare_cli.players import PlayerSpec, Strength

    player = PlayerSpec(strength=Strength(playouts=300))
    game = Game.from_seed(42)
    for move in ("B2", "C2"):
        game.play(Move.from_str(move))
    shift = next(str(move) for move in game.state.legal_moves() if move.is_shift)
    said = at_prompt(Session(Game.from_seed(42)), "B2", "C2", shift, "hint", "quit", meter=True, player=player)
    rows = _placements_hinted(said)
    named = re.search(r"Hint: ([A-D][1-4])", said)
    assert rows and named is not None, said
    for move, chance, score in rows[:2]:
        again = at_prompt(Session(Game.from_seed(42)), "B2", "C2", shift, move, "quit", meter=True, player=player)
        meter = [line for line in again.splitlines() if line.startswith("Expected score ")][-1]
        assert meter.startswith(f"Expected score {score}, {chance} to win; {move} "), (meter, rows)
        assert meter.endswith(f" {named[1]}") or "was the expert's move" in meter or ", by " in meter, meter


def test_the_move_that_ends_the_game_gets_its_meter_line_too():
    """An outside try: the worst move of a game, the one that lost it, got no line."""
    from foursquare_cli.players import PlayerSpec, Strength

    moves = [line.strip()[2:] for line in (SAMPLES / "lost.yaml").read_text().splitlines() if line.startswith("  - ")]
    game = Game.from_seed(1)
    for move in moves[:-1]:
        game.play(Move.from_str(move))
    player = PlayerSpec(strength=Strength(playouts=100))
    said = at_prompt(Session(game), moves[-1], "quit", meter=True, player=player)
    meter = [line for line in said.splitlines() if line.startswith("Expected score ")]
    assert len(meter) == 1 and meter[0].startswith("Expected score 0.0, 0% to win; D3 top gave up "), said
    assert said.index("Expected score") < said.index("You lost")


def test_a_move_shown_above_the_experts_own_did_better_and_one_below_says_what_it_showed_more_of():
    """An outside try: `C1 was as good as D4` for a move shown higher (analyze marks it good), and `C2 gave up
    0.1% to win to B3` though C2 showed 0.3 more points."""
    from foursquare_cli.app.events import MeterReading
    from foursquare_cli.players.evaluation import Evaluation, Rating
    from foursquare_cli.ui.hint_text import meter_line

    def rated(cell: str, chance: float, expected: float, group: int) -> Rating:
        return Rating(Move.from_str(cell), None, 1, 1, 1.0, chance=chance, expected=expected, group=group)

    d4, c1 = rated("D4", 0.998, 17.6, 0), rated("C1", 0.998, 17.7, 1)
    b3, c2 = rated("B3", 0.9996, 21.3, 0), rated("C2", 0.999, 21.6, 1)
    said = []
    for best, played in ((d4, c1), (b3, c2)):
        before = Evaluation((best, played))
        reading = MeterReading(played, played, best, before.lost_by(played), gained=before.gained_by(played))
        said.append(meter_line(reading).split("; ")[1])
    assert said == [
        "C1 did better than D4, by 0.1 more points",
        "C2 gave up 0.1% to win against B3, for 0.3 more points",
    ]


# -- 6. settings -------------------------------------------------------------------------------------------------


def test_settings_are_defaults_the_command_line_wins_over_and_config_says_where_each_comes_from(tmp_path, monkeypatch):
    settings = tmp_path / "config.toml"
    settings.write_text('unicode = true\ncolor = "never"\nplayouts = 300\n')
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    assert "\u2660" in runner.invoke(app, ["deal", "--seed", "3"]).stdout
    said = runner.invoke(app, ["config"]).stdout.splitlines()
    assert said[0] == f"Settings file: {settings}"
    assert "  unicode = true (from the file): suit symbols instead of letters" in said
    assert "  count = false (default): play: the cards to come under each board" in said
    settings.write_text("unicode = true\nplayouts = 0\n")
    bad = runner.invoke(app, ["deal", "--seed", "3"])
    assert bad.exit_code == 2 and bad.stderr == f"foursquare deal: {settings}:2: playouts: 0 is below 1\n"
    settings.write_text("colour = 'always'\n")
    assert "1: unknown setting 'colour'; did you mean 'color'?" in runner.invoke(app, ["deal", "-s", "1"]).stderr
    settings.write_text("meter = true\n\n[colors]\nboard = 'red'\n")  # a table: its line named too
    assert f"{settings}:3: unknown setting 'colors'" in runner.invoke(app, ["deal", "-s", "1"]).stderr


def test_the_command_line_wins_over_a_setting(tmp_path, monkeypatch):
    settings = tmp_path / "config.toml"
    settings.write_text("reveal = true\n")
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    game = tmp_path / "g.yaml"
    game.write_text("foursquare: 1\nseed: 42\nmoves: [B2, C2]\n")
    assert "#6D" in runner.invoke(app, ["replay", str(game)]).stdout  # the setting: face-down cards named
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(tmp_path / "none.toml"))
    assert "#6D" not in runner.invoke(app, ["replay", str(game)]).stdout


# -- 7. and 8. completion, CSV -----------------------------------------------------------------------------------


def test_completion_scripts_and_answers():
    for shell in ("bash", "zsh", "fish"):
        script = runner.invoke(app, ["completion", shell])
        assert script.exit_code == 0 and "_FOURSQUARE_COMPLETE" in script.stdout
    tool = os.path.join(os.path.dirname(sys.executable), "foursquare")
    asked = dict(
        os.environ, _FOURSQUARE_COMPLETE="complete_bash", COMP_WORDS="foursquare play --color ", COMP_CWORD="3"
    )
    answer = subprocess.run([tool], env=asked, capture_output=True, text=True, timeout=30)
    assert answer.stdout.split() == ["auto", "always", "never"]
    asked.update(COMP_WORDS="foursquare pl", COMP_CWORD="1")
    assert subprocess.run([tool], env=asked, capture_output=True, text=True, timeout=30).stdout.split() == ["play"]
    asked.update(COMP_WORDS="foursquare help ch", COMP_CWORD="2")  # help's COMMAND, from the commands' table
    assert subprocess.run([tool], env=asked, capture_output=True, text=True, timeout=30).stdout.split() == ["check"]
    for words, choices in (("completion ", ["bash", "zsh", "fish"]), ("schema st", ["state", "stats"])):
        asked.update(COMP_WORDS=f"foursquare {words}", COMP_CWORD="2")  # an outside try: nothing was offered
        assert subprocess.run([tool], env=asked, capture_output=True, text=True, timeout=30).stdout.split() == choices
    mistyped = runner.invoke(app, ["help", "chek"])
    assert mistyped.exit_code == 2 and "did you mean 'check'" in mistyped.stderr


def test_history_as_csv_has_the_columns_of_the_json(home):
    runner.invoke(app, ["play", "--seed", "5"], input="B2\n")
    runner.invoke(app, ["play", "--seed", "6"], input="B2\nC2\n")
    rows = list(csv.reader(io.StringIO(runner.invoke(app, ["history", "--format", "csv"]).stdout)))
    games = json.loads(runner.invoke(app, ["history", "-f", "json"]).stdout)["games"]
    assert rows[0] == list(games[0])
    assert [row[1] for row in rows[1:]] == [str(game["seed"]) for game in games] == ["6", "5"]
    assert History(home).games()[0].moves == 2
    said = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]  # each value as the JSON writes it
    assert [(row["daily"], row["piped"], row["practice"]) for row in said] == [("false", "true", "false")] * 2


def test_every_setting_has_its_no_form_and_help_shows_the_value_in_force(tmp_path, monkeypatch):
    settings = tmp_path / "config.toml"
    settings.write_text("meter = true\nunicode = true\ncount = true\nreveal = true\nplayouts = 300\n")
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    piped = runner.invoke(
        app,
        ["play", "--seed", "3", "--no-meter", "--no-unicode", "--no-count", "--no-reveal", "--no-record"],
        input="B2\nquit\n",
    )
    assert piped.exit_code == 0, piped.stderr
    assert "\u2660" not in piped.stdout and "\u2665" not in piped.stdout, "--no-unicode wins over the setting"
    shown = " ".join(runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout.split())
    assert "[default: (--meter, from the settings file)]" in shown
    assert "[default: (--unicode, from the settings file)]" in shown
    assert "[default: (300, from the settings file); 1<=x<=1000000]" in shown
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(tmp_path / "none.toml"))
    plain = " ".join(runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout.split())
    assert "[default: no-meter]" in plain and "from the settings file" not in plain
    for command in ("replay", "auto"):
        assert "--no-unicode" in runner.invoke(app, [command, "--help"]).stdout


# -- issue 34: the daily as players know it from Wordle ----------------------------------------------------


def _attempt(day: str, started: str, status: str) -> KeptGame:
    return KeptGame(f"p-{started}", 1, True, started, status, 5 if status == "won" else None, 30, 0, 0, None, None, day)


def test_only_the_first_attempt_at_a_daily_counts():
    games = [  # newest first, as the history lists them
        _attempt("2026-12-01", "2026-12-01T10:00:00Z", "won"),  # practice: played after the first attempt
        _attempt("2026-12-01", "2026-12-01T09:00:00Z", "lost"),
        _attempt("2026-11-30", "2026-11-30T09:00:00Z", "won"),
    ]
    figures = totals(games, datetime.date(2026, 12, 1))
    assert (figures.daily_played, figures.daily_won, figures.daily_streak) == (2, 1, 0)
    assert (figures.played, figures.won, figures.practice) == (2, 1, 1), "practice counts in no figure (issue 40)"
    assert figures.longest_streak == 1, "the practice win makes no streak with the day before's"


def test_a_second_daily_is_practice_said_at_its_start_and_never_shared(home):
    first = runner.invoke(app, ["play", "--daily"], input="B2\nC2\nquit\n")
    assert first.exit_code == 0 and "practice" not in first.stderr
    again = runner.invoke(app, ["play", "--daily"], input="B2\nquit\n")
    assert again.exit_code == 0
    assert "you have played it today already, so this game is practice" in again.stderr
    shared = runner.invoke(app, ["history", "--share", "--no-unicode"])  # --share alone: today's
    assert shared.exit_code == 0, shared.stderr
    assert shared.stdout.splitlines()[1] == "2 moves, 0 undos, 0 hints", "the first attempt, not the practice"
    today = datetime.datetime.now(datetime.UTC).date()
    for named in ("today", today.isoformat(), today.strftime("%Y%m%d")):
        assert runner.invoke(app, ["history", "--share", named, "--no-unicode"]).stdout == shared.stdout


def test_a_second_daily_not_recorded_is_practice_too_and_reading_the_history_writes_nothing(home):
    """An outside try: with --no-record the history was not read, so a second attempt was offered as the one
    that counts (undo refused at its end, a block to share). It is read now; where none was ever kept, it is
    not made by reading it."""
    untouched = runner.invoke(app, ["play", "--daily", "--no-record"], input="B2\nquit\n")
    assert untouched.exit_code == 0 and "practice" not in untouched.stderr
    assert not (home / "games").exists(), "a history read for --no-record is never made"
    assert runner.invoke(app, ["play", "--daily"], input="B2\nC2\nquit\n").exit_code == 0
    kept = sorted((home / "games").iterdir())
    again = runner.invoke(app, ["play", "--daily", "--no-record"], input="B2\nquit\n")
    assert again.exit_code == 0 and "you have played it today already, so this game is practice" in again.stderr
    assert sorted((home / "games").iterdir()) == kept


@pytest.mark.parametrize(
    ("options", "named"),
    [(["-f", "json"], "--format json"), (["-f", "csv"], "--format csv"), (["--deal", "5"], "--deal")],
)
def test_share_with_an_option_it_cannot_honour_is_refused_not_ignored(home, options, named):
    """An outside try: `--share -f json` printed the text block, and `--share --deal 5` said no daily game was
    kept when one was (the deal filtered it out)."""
    refused = runner.invoke(app, ["history", "--share", *options])
    assert refused.exit_code == 2 and f"give it without {named}" in refused.stderr and refused.stdout == ""


def test_a_malformed_share_day_shows_the_forms():
    for wrong in ("2026-13-01", "yesterday", "2026121"):
        result = runner.invoke(app, ["history", "--share", wrong])
        assert result.exit_code == 2
        assert result.stderr == (
            f"foursquare history: --share {wrong!r}: not a day; give today, a date like 2026-12-01, "
            "or the daily deal's number, like 20261201\n"
        )


def test_the_end_of_a_daily_shows_its_number_and_the_time_to_the_next():
    from foursquare_cli.ui.play_text import next_daily_line

    moment = datetime.datetime(2026, 12, 1, 21, 30, 15, tzinfo=datetime.UTC)
    assert next_daily_line("2026-12-01", 20261201, moment) == (
        "Daily deal 20261201 (2026-12-01). The next one in 2 h 29 min, at 00:00 UTC."
    )
