"""The player's table (issue 21): the cards to come, a move tried first, the cells a move turns, a way back
from one slip, starting again, Ctrl-C that clears the line. Played through
the prompt loop (`app.table`) with typed lines."""

from __future__ import annotations

import pathlib
import re
import time

import pytest
import yaml
from conftest import at_the_table, deck_starting
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from foursquare_cli.app.hint import ExpertHint
from foursquare_cli.app.opening import open_session
from foursquare_cli.app.session import Session
from foursquare_cli.cli import app
from foursquare_cli.formats.records import check_record
from foursquare_cli.formats.source import read_source
from foursquare_cli.players import PlayerSpec, Strength
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.game import Game
from foursquare_cli.rules.moves import Move
from foursquare_cli.store.files import RecordFile
from foursquare_cli.ui.board import Style

SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"
LOST_SEED = 1  # samples/lost.yaml
LOST_MOVES = [line.strip()[2:] for line in (SAMPLES / "lost.yaml").read_text().splitlines() if line.startswith("  - ")]


def table(session: Session, *lines: str | type[BaseException], **options) -> tuple[int, str]:
    """Play `lines` at the prompt (an exception class is raised there, as Ctrl-C is); then end of input."""
    return at_the_table(session, *lines, **options)


def test_left_counts_the_cards_still_to_come_by_rank():
    session = Session(Game.from_seed(42))
    code, said = table(session, "B2", "left", "quit")
    assert code == 0
    stock = deal(42)
    seen = set(stock[:2])  # the card placed and the card in hand
    unseen = [card for card in stock if card not in seen]
    ranks = [sum(1 for card in unseen if card.rank == rank) for rank in range(1, 11)]
    names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    expected = ", ".join(f"{name} x{count}" for name, count in zip(names, ranks, strict=True))
    assert f"To come after 7H ({len(unseen)}): {expected}" in said  # the stock: the 7H in hand and these
    assert "Out already (of 4 each): " + ", ".join(f"{n} {4 - c}" for n, c in zip(names, ranks, strict=True)) in said


def test_count_shows_the_cards_to_come_under_each_board_and_only_when_asked():
    _, counted = table(Session(Game.from_seed(42)), "B2", "quit", cards_to_come=True)
    assert counted.count("To come after ") == 2  # under the first board and the one after B2
    _, plain = table(Session(Game.from_seed(42)), "B2", "quit")
    assert "To come" not in plain
    piped = CliRunner().invoke(app, ["play", "--seed", "42", "--count", "--no-record"], input="B2\n")
    assert "To come" not in piped.stdout  # never in pipes
    _, left = table(Session(Game.from_seed(42)), "B2", "left", "quit", cards_to_come=True, width=200)
    under, said = (line.split("> ")[-1] for line in left.splitlines() if "To come after 7H" in line)
    assert under == said, "the count under the board and `left` say the same, the same way (issue 40)"


def test_try_shows_the_board_a_move_would_leave_without_playing_it():
    game = Game(deck_starting("5S", "7H", "5D"))
    code, said = table(Session(game), "B2", "try C2", "try Z9", "quit")
    assert "If you played C2: the board would be (nothing is played" in said
    assert "##*x1" in said.split("If you played C2")[1]  # B2 would turn face down
    assert "'Z9': no such cell" in said
    code, said = table(Session(Game(deck_starting("5S", "7H", "5D"))), "try " + "x" * 150, "quit")
    assert "(150 characters)" in said and "x" * 60 not in said, "a long text clipped, as every refusal quotes it"
    assert game.moves == [game.moves[0]] and len(game.moves) == 1  # only B2 was played


def test_undo_at_the_end_takes_back_the_move_that_lost_and_the_record_follows(tmp_path):
    path = tmp_path / "g.yaml"
    session = Session(Game.from_seed(1), RecordFile(str(path)))
    code, said = table(session, *LOST_MOVES, "undo", "quit")
    session.record.close()
    assert "You lost: more than 4 face-down cards" in said
    assert "The game is over: undo takes the last move back" in said
    assert "Undone (undos so far: 1)" in said
    assert f"The game is saved in {path}" in said.split("Undone")[1]
    verdict = check_record(read_source(str(path)))
    assert verdict.valid and verdict.outcome_words() == f"playing, {len(LOST_MOVES) - 1} moves, 1 undo"


def test_the_end_screen_takes_only_its_commands():
    code, said = table(Session(Game.from_seed(1)), *LOST_MOVES, "B2", "hint", "quit")
    assert said.count("The game is over: type undo, restart, new or quit") == 2
    assert code == 0


def test_restart_and_new_start_again_and_the_game_left_is_kept(tmp_path, monkeypatch):
    from foursquare_cli.store.history import History

    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("foursquare_cli.app.opening.new_seed", lambda: 7)  # `new`: a deal that does not start with 6D

    def reopen(seed, game):
        return open_session(seed=seed if game else None, history=History())

    session, _ = open_session(seed=42, history=History())
    with session:
        code, said = table(session, "B2", "restart", "y", "C3", "new", "yes", "quit", reopen=reopen)
    assert "This deal again, from its start." in said and "A new deal." in said
    assert said.count("Move 1, place 6D> ") == 2  # deal 42 from its start, twice
    games = History(tmp_path / "home").games()
    assert sorted((game.seed, game.moves) for game in games if game.seed == 42) == [(42, 1), (42, 1)]
    # each game left for another is named by its file: once the new game has a move, `--resume` alone is that
    # one (an outside try); `quit` leaves the last game, which `--resume` alone names (test_play)
    left = [line.split("play --resume ")[1] for line in said.splitlines() if "play --resume " in line]
    assert sorted(left) == sorted(game.path for game in games if game.seed == 42), said


def test_ctrl_c_at_the_prompt_clears_the_line_and_the_game_goes_on():
    code, said = table(Session(Game.from_seed(42)), KeyboardInterrupt, "B2", "quit")
    assert code == 0 and "Move 2, place 7H> " in said  # the line was cleared and the game went on


def test_a_near_miss_is_answered_with_a_legal_move_only():
    code, said = table(Session(Game.from_seed(42)), "B2", "b3top", "b2top", "quit")
    assert "did you mean 'B3'? (B3 is empty)" in said
    assert "did you mean 'B2 top'?" in said


def test_board_keeps_the_marks_of_the_last_move_and_hint_draws_in_the_players_style():
    game = Game(deck_starting("5S", "7H", "5D"))
    style = Style(reveal=True, unicode=True)
    player = PlayerSpec(strength=Strength(30))
    code, said = table(Session(game), "B2", "C2", "board", "hint detail", "quit", style=style, player=player)
    _, after_board, drawn, _ = said.split("Move 3, place 5\u2666> ")  # the board, then the hint
    assert "[7\u2665]x1" in after_board and "#5\u2660*x1" in after_board
    assert "#5\u2660" in drawn and "[" not in drawn.split("Hint:")[0]


def test_moves_and_suits_in_the_players_style():
    code, said = table(Session(Game.from_seed(42)), "moves", "quit", style=Style(unicode=True))
    assert "Legal moves for 6\u2666:" in said


def test_a_command_with_words_it_takes_none_of_is_refused_with_a_guess_and_counts_nothing():
    """An outside try: `hint B1` gave the plain hint, counted, where the player wanted B1 rated; `moves please`
    and `left 3` were taken as if the word were not there."""
    session = Session(Game.from_seed(42))
    _, said = table(session, "hint B1", "moves please", "quit now", "hint detail", "quit")
    assert "unknown command 'hint B1'; did you mean 'hint'?" in said
    assert "unknown command 'moves please'; did you mean 'moves'?" in said
    assert "unknown command 'quit now'; did you mean 'quit'?" in said
    assert session.game.hints == 1, "hint detail alone is a hint"


def test_moves_with_the_meter_shows_the_hints_figures_and_counts_as_a_hint():
    """Every move's expected score is the hint's figures for every move: a player who read them took a hint,
    and the record says so (`moves` once showed them uncounted); without the meter `moves` counts nothing."""
    session = Session(Game.from_seed(42))
    _, said = table(session, "moves", "quit", meter=True)  # the quick expert of `at_the_table`
    assert "Legal moves for 6D (expected score; counted as a hint):" in said
    assert re.search(r"[A-D][1-4] \(\d+\.\d\)", said), said
    assert session.game.hints == 1
    plain = Session(Game.from_seed(42))
    _, said = table(plain, "moves", "quit")
    assert "Legal moves for 6D:" in said and plain.game.hints == 0


@pytest.mark.slow
@pytest.mark.posix
def test_at_a_real_terminal_a_player_counts_previews_mends_a_slip_and_starts_again(tmp_path):
    import pexpect
    from conftest import spawn_play

    child = spawn_play("--seed", "1", "--count", cwd=str(tmp_path), FOURSQUARE_HOME=str(tmp_path / "home"))
    child.expect_exact("To come after ")
    child.expect_exact("Move 1, place ")
    child.sendline("left")
    child.expect(r"To come after \S+ \(39\): ")
    child.sendline(f"try {LOST_MOVES[0]}")
    child.expect_exact(f"If you played {LOST_MOVES[0]}: the board would be")
    child.expect_exact("Move 1, place ")
    child.send("B4 t")
    child.expect_exact("B4 t")  # echoed: readline has taken the keys (a Ctrl-C amid its handling of
    time.sleep(0.2)  # keys is seen only at the next key, a limit of CPython's readline loop)
    child.sendintr()  # clears the line
    child.expect_exact("Move 1, place ")
    for move in LOST_MOVES:
        child.sendline(move)
    child.expect_exact("The game is over: undo takes the last move back")
    child.expect_exact("Game over (undo, restart, new, quit)> ")
    child.sendline("undo")
    child.expect_exact("Undone (undos so far: 1).")
    child.expect_exact(f"Move {len(LOST_MOVES)}, place ")  # a shift is a move too (a free one)
    child.sendline("restart")  # an unfinished game with moves: asked first, and no (the default) keeps it
    child.expect_exact(f"Leave this game of {len(LOST_MOVES) - 1} moves and start it over? (y/N)> ")
    child.sendline("")
    child.expect_exact("Not left: the game goes on")
    child.sendline("restart")
    child.expect_exact("(y/N)> ")
    child.sendline("y")
    child.expect_exact("This deal again, from its start.")
    child.expect_exact("Move 1, place ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_second_ctrl_c_in_a_row_says_how_to_leave():
    _, once = table(Session(Game.from_seed(42)), KeyboardInterrupt, "quit")
    assert "to leave, type quit" not in once
    _, twice = table(Session(Game.from_seed(42)), KeyboardInterrupt, KeyboardInterrupt, "quit")
    assert twice.count("(Ctrl-C clears the line; to leave, type quit or press Ctrl-D: the game is kept)") == 1
    _, apart = table(Session(Game.from_seed(42)), KeyboardInterrupt, "B2", KeyboardInterrupt, "quit")
    assert "to leave, type quit" not in apart, "a line typed between two Ctrl-C starts the count again"


def test_a_finished_game_is_offered_replay_and_analyze_never_resume(tmp_path):
    path = tmp_path / "lost.yaml"
    with RecordFile(str(path)) as record:
        session = Session(Game.from_seed(1), record)
        code, said = table(session, *LOST_MOVES, "quit")
    assert code == 0 and session.game.state.is_over
    end_screen, after_quit = said.rsplit("> ", 1)
    assert "--resume" not in said and said.count("Replay it:") == 1 and "analyze" in end_screen
    assert "Replay it:" not in after_quit, "the end screen just said how to look back; quitting does not repeat it"
    from foursquare_cli.ui.play_text import how_to_review

    review = how_to_review(session.where_kept()).splitlines()  # a line each, so a narrow terminal never splits a label
    assert [line.split(" ", 2)[:2] for line in review] == [["Replay", "it:"], ["Check", "it:"], ["Where", "was"]]


def test_a_shift_is_a_free_move_numbered_as_every_screen_numbers_it_and_an_undo_reprints_all_a_move_prints(
    monkeypatch,
):
    """Issue 40: moves are counted one way on every screen: a shift is a move (the record's, replay's,
    analyze's, the JSON's ply), and is said to be free."""
    from foursquare_cli.players.evaluation import Evaluation, Rating
    from foursquare_cli.rules.moves import Move

    figures = Rating(Move.from_str("A1"), None, 3, 4, 12.0, chance=0.75, expected=9.0)
    monkeypatch.setattr(
        "foursquare_cli.app.session.expert_hint", lambda state, player: ExpertHint(state, Evaluation((figures,)))
    )
    _, said = table(Session(Game.from_seed(42)), "B2", "shift up", "C1", "undo", "quit", cards_to_come=True, meter=True)
    prompts = re.findall(r"Move (\d+), place", said)
    assert prompts == ["1", "2", "3", "4", "3"], "B2, the free shift (move 2), C1 (move 3); undone: move 3 again"
    headings = re.findall(r"^Move \d+: .*$", said, re.M)
    assert [heading.split(" places")[0] for heading in headings] == [
        "Move 1: B2",
        "Move 2: shift up (free: no card drawn)",
        "Move 3: C1",
        "Move 2: shift up (free: no card drawn)",  # undone: the position after the shift again
    ]
    after_c2, after_undo = said.split("Undone (undos so far: 1).")
    last_move = after_c2[after_c2.rindex("Move 3, place") :]
    meter = "Expected score 9.0, 75% to win"
    assert "Face down:" in last_move and meter in last_move
    assert after_undo.count("Face down:") == last_move.count("Face down:") and meter in after_undo
    assert "To come after " in after_undo, "the count, as after a move"


def test_in_60_columns_nothing_the_prompt_prints_passes_the_width(monkeypatch):
    from foursquare_cli.ui import fit, play_text

    monkeypatch.setenv("COLUMNS", "60")
    for module in (fit, play_text):  # as when installed: the commands to copy say `foursquare`
        monkeypatch.setattr(module, "program_name", lambda: "foursquare")
    _, said = table(
        Session(Game.from_seed(42)),
        "B2",
        "hint",
        "hint detail",
        "moves",
        "left",
        "help",
        "try B1",
        "B1",
        "undo",
        "nonsense",
        "quit",
        cards_to_come=True,
        meter=True,
    )
    lines = re.sub(r"(Move \d+, place \S+|Game over \([a-z, ]+\))> ", "\n", said).splitlines()  # the prompts
    too_wide = [line for line in lines if len(line) > 59]
    words = " ".join(said.split())
    assert too_wide == [] and "Hint: " in words and "Legal moves for" in words and "Expected score" in words
    assert "play --resume FILE" in said, "a command to copy is never broken"


def test_fitted_breaks_only_between_words_keeps_columns_commands_and_colours():
    from foursquare_cli.ui.fit import fitted

    assert fitted("short line", 20) == "short line"
    table_line = "  hint      the expert's best moves, in plain words (hint detail: its figures)"
    assert fitted(table_line, 40) == (
        "  hint      the expert's best moves, in\n            plain words (hint detail:\n            its figures)"
    )
    item = "  A2 (21.3): turn B2 and D2 face down, C2 face up; 2 face down"  # `moves` at 60 columns
    assert fitted(item, 60) == "  A2 (21.3): turn B2 and D2 face down, C2 face up; 2 face\n    down"
    resume = "The game is saved in g.yaml; to go on: foursquare play --resume g.yaml"
    assert fitted(resume, 40) == "The game is saved in g.yaml; to go on:\nfoursquare play --resume g.yaml"
    coloured = "\x1b[1;31m[AD]x2\x1b[0m " * 5  # 35 visible columns, 90 with the colours
    assert fitted(coloured.rstrip(), 40) == coloured.rstrip()


@given(
    st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=12), min_size=1, max_size=40),
    st.integers(min_value=20, max_value=100),
)
def test_fitted_lines_never_pass_the_width_and_keep_every_word(words, width):
    from foursquare_cli.ui.fit import fitted

    text = "  ".join(words[:2]) + " " + " ".join(words[2:])
    out = fitted(text, width)
    assert all(len(line) <= width for line in out.splitlines())
    assert out.split() == text.split()


def test_the_end_of_a_game_counts_moves_as_every_screen_does_and_says_the_shifts_among_them_were_free():
    from foursquare_cli.ui.play_text import outcome_line

    game = Game.from_seed(42)
    for move in ("B2", "shift up", "C1"):
        game.play(Move.from_str(move))
    line = outcome_line(game.state, game.ply, 1, 0)
    assert line.endswith("; 3 moves (1 of them a free shift), 1 undo.")


@pytest.mark.parametrize(
    ("found", "proven", "said"),
    [
        (20, False, "could have scored at least your 22 (the search found no more, but did not prove it best;"),
        (23, False, "could have scored at least 23 (not proven best; solve with a larger --budget may find more)."),
        (24, True, "could have scored 24."),
    ],
)
def test_what_the_deal_allowed_is_never_less_than_the_score_just_won(found, proven, said):
    from foursquare_cli.players.solver import Solution, SolveStatus
    from foursquare_cli.ui.solve_text import deal_potential

    assert said in deal_potential(Solution(SolveStatus.WINNABLE, found, proven, [], 0, 0.0), 22)


def test_restart_and_new_ask_before_leaving_an_unfinished_game():
    """A game with moves, unfinished, is left only on a y: any other line (the next line is the answer, so
    scripted input never hangs), Ctrl-C or the end of input keep it going; a game with no move is not asked."""

    def reopen(seed, game):
        return open_session(seed=seed if game else None)

    code, said = table(
        Session(Game.from_seed(42)),
        "restart",
        "B2",
        "restart",
        "B3",
        "new",
        KeyboardInterrupt,
        "new",
        EOFError,
        reopen=reopen,
    )
    assert code == 0
    assert said.count("This deal again, from its start.") == 1  # the first, with no move: not asked
    assert said.count("Leave this game of 1 move and start it over? (y/N)> ") == 1
    assert said.count("Leave this game of 1 move for a new deal? (y/N)> ") == 2
    assert said.count("Not left: the game goes on") == 3 and "A new deal." not in said
    cut_short = "for a new deal? (y/N)> \nNot left: the game goes on"  # its own line, not after the question
    assert said.count(cut_short) == 2, "Ctrl-C and Ctrl-D: a new line first (an outside try, at 60 columns)"
    assert "Move 3, place " not in said  # the answer B3 was an answer, not a move


def test_a_hint_or_a_meter_still_at_work_says_so_once_with_the_key_that_stops_it(monkeypatch):
    from foursquare_cli.app import table as table_module

    monkeypatch.setattr(table_module, "WORKING_AFTER", 0.05)
    session = Session(Game.from_seed(42), expert=PlayerSpec(strength=Strength(300)))
    hint, reading = session.hint, session.meter_reading

    def slowly(work):
        def slow():
            time.sleep(0.5)  # a large budget's wait, without its CPU
            return work()

        return slow

    monkeypatch.setattr(session, "hint", slowly(hint))
    monkeypatch.setattr(session, "meter_reading", slowly(reading))
    code, said = table(session, "B2", "hint", "quit", meter=True)
    assert code == 0
    assert said.count("Still working out the meter: Ctrl-C skips it.") == 1  # after B2
    assert said.index("Next card: 7H") < said.index("Still working out the meter"), "the move shown, not hidden"
    assert said.count("Still thinking (a large budget): Ctrl-C stops the hint.") == 1
    assert said.index("Ctrl-C stops the hint.") < said.index("Hint: ")  # before the hint it waited for
    monkeypatch.setattr(session, "hint", hint)
    monkeypatch.setattr(session, "meter_reading", reading)
    _, quick = table(session, "hint", "quit", meter=True)
    assert "Still" not in quick  # work done within the time says nothing


def test_a_meter_skipped_by_ctrl_c_says_so_under_the_board(monkeypatch):
    session = Session(Game.from_seed(42), expert=PlayerSpec(strength=Strength(300)))

    def interrupted():
        raise KeyboardInterrupt  # Ctrl-C while the reading is worked out

    monkeypatch.setattr(session, "meter_reading", interrupted)
    code, said = table(session, "B2", "quit", meter=True)
    assert code == 0 and said.count("(The meter skipped: Ctrl-C.)") == 1  # not a blank where the line would be
    assert said.index("Next card: 7H") < said.index("(The meter skipped") < said.index("Move 2, place 7H> ")


@pytest.mark.parametrize(("practice", "undone"), [(False, False), (True, True)])
def test_the_first_attempt_at_the_daily_deal_counts_as_it_ended_undo_refused(practice, undone):
    """An outside try: the daily deal lost at its first attempt, then `undo` and played on to a win, was shared
    as won; a practice game may be undone as any game."""
    meta = {"daily": "2026-12-07", **({"practice": True} if practice else {})}
    session = Session(Game.from_seed(LOST_SEED, meta=meta))
    code, said = table(session, *LOST_MOVES, "undo", "quit")
    assert code == 0 and "The game is over" in said
    assert ("Undone (undos so far: 1)." in said) is undone
    refused = "the daily deal's first attempt counts as it ended; restart plays it again, as practice"
    assert (refused in said) is not undone
    assert session.game.state.is_over is not undone
    offered = "The game is over: it counts as it ended; restart plays this deal again"
    assert (offered in said) is not undone and ("undo takes the last move back" in said) is undone
    prompt = "Game over (undo, restart, new, quit)> " if undone else "Game over (restart, new, quit)> "
    assert prompt in said, "an outside try: the prompt offered the undo it then refused"


def test_the_daily_deal_restarted_is_practice_kept_as_such(tmp_path, monkeypatch):
    """An outside try: `restart` of the day's first attempt kept a plain game (no `daily`, no `practice`),
    which the history then counted, though the end screen had said the deal plays again as practice."""
    from foursquare_cli.app.opening import GameChoice, open_play
    from foursquare_cli.store.history import History

    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    session, _, reopen = open_play(GameChoice(daily=True), keep=True, at_prompt=True)
    seed, day = session.game.seed, session.game.meta["daily"]
    with session:
        code, said = table(session, "B2", "restart", "y", "B2", "quit", reopen=reopen)
    assert code == 0 and "This deal again, from its start." in said
    assert f"Daily deal {seed} ({day}): you have played it today already, so this game is practice" in said
    games = History(tmp_path / "home").games()
    assert [(game.daily, game.day) for game in games] == [(True, day), (True, day)]
    metas = [yaml.safe_load(pathlib.Path(game.path).read_text(encoding="utf-8"))["meta"] for game in games]
    assert sorted(meta.get("practice", False) for meta in metas) == [False, True]
