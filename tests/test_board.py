"""The printer, against whole boards written out by hand."""

from __future__ import annotations

from conftest import played, position

from foursquare_cli.rules.game import Game
from foursquare_cli.rules.moves import Move
from foursquare_cli.ui.board import Style, render, render_step, step_heading

AFTER_MOVE_7 = """\
      A        B        C        D
  +--------+--------+--------+--------+
1 |   .    |  2C x1 |  8C x1 |   .    |
  +--------+--------+--------+--------+
2 |  ## x1 |  AD x2 |  ## x1 |  ## x1 |
  +--------+--------+--------+--------+
3 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
4 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
Next card: 9S   Stock: 33   Face down: 3 of 4"""

AFTER_MOVE_7_REVEALED = """\
      A        B        C        D
  +--------+--------+--------+--------+
1 |   .    |  2C x1 |  8C x1 |   .    |
  +--------+--------+--------+--------+
2 | #5H x1 |  AD x2 | #7H x1 | #5D x1 |
  +--------+--------+--------+--------+
3 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
4 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
Next card: 9S   Stock: 33   Face down: 3 of 4
(#7H = face down, [7H] = just placed, * = just turned,
 xN = N cards in the pile, . = empty)"""

UNICODE_START = """\
      A        B        C        D
  +--------+--------+--------+--------+
1 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
2 |   .    |  5\u2660 x1 |   .    |   .    |
  +--------+--------+--------+--------+
3 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
4 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
Next card: 7\u2665   Stock: 39   Face down: 0 of 4"""

WON = """\
      A        B        C        D
  +--------+--------+--------+--------+
1 |  AS x1 |  2S x1 |  3S x1 |  2H x1 |
  +--------+--------+--------+--------+
2 |  4S x1 |  5S x1 |  6S x1 |  9H x1 |
  +--------+--------+--------+--------+
3 |  8S x1 |  9S x1 | 10S x1 |  4H x1 |
  +--------+--------+--------+--------+
4 |  2D x1 |  9D x1 |  3D x1 |  7C x1 |
  +--------+--------+--------+--------+
Next card: -   Stock: 24   Face down: 0   Won, score 24"""

MOVE_7_STEP = """\
Move 7: B2 top places AD; turns A2, C2 and D2 face down, B1 face up
      A        B        C        D
  +--------+--------+--------+--------+
1 |   .    |  2C*x1 |  8C x1 |   .    |
  +--------+--------+--------+--------+
2 |  ##*x1 | [AD]x2 |  ##*x1 |  ##*x1 |
  +--------+--------+--------+--------+
3 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
4 |   .    |   .    |   .    |   .    |
  +--------+--------+--------+--------+
Next card: 9S   Stock: 33   Face down: 3 of 4
(## = face down, [7H] = just placed, * = just turned,
 xN = N cards in the pile, . = empty)"""


def test_board_after_move_7_of_the_worked_example(worked_deck):
    moves = ["B2", "C2", "D2", "A2", "B1", "C1", "B2 top"]
    assert render(played(worked_deck, *moves)) == AFTER_MOVE_7


def test_revealed_board_names_face_down_cards(worked_deck):
    moves = ["B2", "C2", "D2", "A2", "B1", "C1", "B2 top"]
    assert render(played(worked_deck, *moves), Style(reveal=True), with_legend=True) == AFTER_MOVE_7_REVEALED


def test_unicode_suits(worked_deck):
    assert render(played(worked_deck, "B2"), Style(unicode=True)) == UNICODE_START


def test_won_board_shows_the_score():
    state = position(["AS 2S 3S 2H", "4S 5S 6S 9H", "8S 9S 10S 4H", "2D 9D 3D ."], "7C")
    state.apply(Move.from_str("D4"))
    assert render(state) == WON


def test_lost_board_gives_the_reason():
    state = position(["#AS 2S #3S #4S", "6S . . .", ". . . .", ". . . ."], "AC")
    state.apply(Move.from_str("B2"))
    assert render(state).splitlines()[-1] == "Next card: -   Stock: 34   Face down: 5, more than 4: lost"


def test_board_is_ascii_and_fits_80_columns(worked_deck):
    text = render(played(worked_deck, "B2", "C2", "B2 top"), Style(reveal=True), with_legend=True)
    assert text.isascii()
    assert max(len(line) for line in text.splitlines()) <= 80


def _worked_game(worked_deck, moves: int) -> Game:
    game = Game(worked_deck)
    game.play_all(Move.from_str(m) for m in ["B2", "C2", "D2", "A2", "B1", "C1", "B2 top", "shift down"][:moves])
    return game


def test_a_step_names_and_marks_what_it_turned(worked_deck):
    assert render_step(_worked_game(worked_deck, 7).step, with_legend=True) == MOVE_7_STEP


def test_step_headings_of_the_worked_example(worked_deck):
    # Written from protocol.md section 6's table, move by move.
    expected = [
        "Start",
        "Move 1: B2 places 5S",
        "Move 2: C2 places 7H; turns B2 face down",
        "Move 3: D2 places 5D; turns C2 face down, B2 face up",
        "Move 4: A2 places 5H",
        "Move 5: B1 places 2C; turns B2 face down",
        "Move 6: C1 places 8C; turns B1 face down, C2 face up",
        "Move 7: B2 top places AD; turns A2, C2 and D2 face down, B1 face up",
        "Move 8: shift down (free: no card drawn)",
    ]
    game = _worked_game(worked_deck, 8)
    assert [step_heading(step) for step in game.steps] == expected


def test_a_lost_game_on_the_stock_says_so():
    state = position(["AS 2S 3S 2H", "4S 5S 6S 9H", "8S 9S 10S 4H", "2D 9D 3D ."], "7C", buried=24)
    state.apply(Move.from_str("C3 top"))
    status = render(state).splitlines()[-1]
    assert status == "Next card: -   Stock: 0   Face down: 3   stock empty: lost"  # as "more than 4: lost" says
    assert len(status) <= 60  # the width of the narrowest terminal the tool is made for: it once took 63


def test_colour_marks_red_suits_and_dims_face_down_cards_without_moving_the_layout(worked_deck):
    step = _worked_game(worked_deck, 7).step
    plain = render_step(step)
    coloured = render_step(step, Style(color=True))
    assert "\x1b[" not in plain
    assert "\x1b[2m  ##*x1 \x1b[0m" in coloured  # A2, face down: dim
    assert "\x1b[1;31m [AD]x2 \x1b[0m" in coloured  # the placed diamond: bold and red (as rich renders it)
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_a_hint_leads_with_its_move_and_lists_the_moves_in_the_order_the_expert_ranks_them():
    """Issue 40: the first move listed is the one named, the list in the order the expert ranks by (shown), what
    the moves share said once, at most 8 lines; --detail adds every figure. Each move's figures are its rating's
    (the position's one evaluation), the cards to come with no safe place beside them."""
    from foursquare_cli.players.evaluation import Rating
    from foursquare_cli.ui.hint_text import HINT_EXPLAINED, hint_figures, hint_text

    c2 = Move.from_str("C2")
    ratings = [
        Rating(c2, None, 45, 56, 14.25, 0.9, 0.9, 17.2, looked_again=True, to_come=21),  # the expert's move
        Rating(
            Move.from_str("shift down"),
            Move.from_str("D1"),
            50,
            56,
            9.0,
            0.4,
            0.7,
            12.1,
            looked_again=True,
            unsafe=6,
            to_come=20,
        ),
        Rating(Move.from_str("B3 top"), None, 0, 8, None, 0.0, 0.0, 0.0, unsafe=20, to_come=20),
    ]
    figures = (
        "  move                   win score played  won their worth\n"
        "  C2                     90%  17.2     56  80%  11.5  0.90*\n"
        "  shift down, then D1    70%  12.1     56  89%   8.0  0.40*\n"
        "  B3 top                  0%   0.0      8   0%   0.0  0.00\n" + HINT_EXPLAINED
    )
    assert hint_figures(ratings) == figures
    plain = (
        "Hint: C2 (90% to win, expected score 17.2)\n"
        "  move                  win  score\n"
        "  C2                    90%   17.2*\n"
        "  shift down, then D1   70%   12.1*  (6 of the 20 cards to come have no safe place next)\n"
        "  B3 top                 0%    0.0   (no card to come has a safe place next: it loses)\n"
        "  * looked at again over the next card"
    )
    assert hint_text(ratings) == plain
    assert hint_text(ratings, detail=True) == plain + "\n\n" + figures
    safe = hint_text([rating._replace(unsafe=0) for rating in ratings])
    assert safe.splitlines()[-1] == "After each, every card to come has a safe place next.", "said once"
    assert "safe" not in "".join(safe.splitlines()[:-1])
    lone = Rating(Move.from_str("A1"), None, 10, 20, 8.0, 0.5, 0.75, 6.0, to_come=30)
    assert hint_text([lone]) == "Hint: A1 (the only move): 75% to win, expected score 6.0"
    first = Rating(Move.from_str("A1"), None, 10, 20, 8.0, 0.5, 0.99, 20.5, to_come=39, alike=16)
    assert hint_text([first]).startswith("Hint: A1 or any of the 15 alike: "), "not 'the only move' (16 cells)"
    shifted = [ratings[1]._replace(chance=0.999, expected=21.3), ratings[0]]
    headline = hint_text(shifted).splitlines()[0]
    assert headline == "Hint: shift down, then D1 (99.9% to win, score 21.3)", "'to win', as the meter says"


def test_the_hint_sentence_states_the_worth_the_expert_uses():
    from foursquare_cli.players.futures import LOSS_DECAY, NEAR_CARDS, NEAR_LOSS_PENALTY, SCORE_WEIGHT
    from foursquare_cli.ui.hint_text import HINT_EXPLAINED

    # board does not import players (check's start-up), so the sentence spells the constants out
    assert f"1 + {SCORE_WEIGHT} x score for a win" in HINT_EXPLAINED
    assert f"1 - {LOSS_DECAY}^k for a loss k cards on, less {NEAR_LOSS_PENALTY:g} when k is {NEAR_CARDS} or less" in (
        HINT_EXPLAINED
    )


def test_moves_preview_counts_face_down_cards_and_names_the_losing_moves():
    from foursquare_cli.ui.board import moves_preview

    # In hand AC; A1, C1, D1 are down. B2: row 2: 1 < 6 turns A2 down; column B: 1 < 2 turns B1
    # down: 5 down, lost. A3: row 3 has no others; column A: the face-up other is 6, 1 < 6 triggers
    # and every other pile of the column turns: A1 up, A2 down: still 3 down.
    state = position(["#AS 2S #3S #4S", "6S . . .", ". . . .", ". . . ."], "AC")
    lines = moves_preview(state).splitlines()
    assert lines[0] == "Legal moves for AC:"
    assert "  B2: lose at once (more than 4 face down)" in lines[-1]
    assert "  A3: turn A2 face down, A1 face up; 3 face down" in lines
    # after shift down, the old row 1 is row 2: a card on the new row 1 turns its column there (its cells named
    # as they are after the shift), each pair as the hint names it and the prompt takes it
    assert "shift down, then A1" in moves_preview(state)
    # the moves that do the same share a line; a shift that opens no cell the card can take is left out
    beside = moves_preview(position([". . . .", ". 5S . .", ". . . .", ". . . ."], "AC")).splitlines()
    assert beside[1:] == ["  B2 top: turn nothing; 0 face down", "  B1, A2, C2, B3: turn B2 face down; 1 face down"]
    left = moves_preview(position([". . . .", "5S . . .", ". . . .", ". . . ."], "AC"))
    assert "shift right, then A2: turn B2 face down; 1 face down" in left, "the pair's effect, in the shifted frame"


def test_auto_colour_is_rich_consoles_finding(monkeypatch):
    import io
    import sys

    from foursquare_cli.ui import output

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert output.style(False, False, "auto").color
    monkeypatch.setenv("NO_COLOR", "1")
    assert not output.style(False, False, "auto").color, "NO_COLOR: no colour (nor bold)"
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not output.style(False, False, "auto").color
    assert output.style(False, False, "always").color and not output.style(False, False, "never").color
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # not a terminal
    monkeypatch.setenv("TERM", "xterm")
    assert not output.style(False, False, "auto").color
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert output.style(False, False, "auto").color, "FORCE_COLOR, as rich honours it"


def test_a_percentage_claims_certainty_only_when_it_is_certain():
    from foursquare_cli.ui.hint_text import percent

    shown = [percent(c) for c in (0.0, 0.003, 0.5, 0.994, 0.9996, 1.0)]
    assert shown == ["0%", "<1%", "50%", "99.4%", ">99.9%", "100%"]


def test_a_chance_shows_the_digits_that_tell_positions_apart():
    """The trust, round two: 0.9993 and 0.99999 were both `99%`, 0.0003 was `1%`. Above 99% a tenth (rounded
    down), `>99.9%` past that; below 1% `<1%`; 0% and 100% only for none and a certainty. No form is wider than
    analyze's column (six)."""
    from foursquare_cli.players.evaluation import shown_chance
    from foursquare_cli.ui.hint_text import percent

    checked = (0.0003, 0.0099, 0.01, 0.42, 0.985, 0.9899, 0.99, 0.9901, 0.993, 0.9993, 0.99949, 0.99999)
    said = {c: percent(c) for c in checked}
    assert said == {
        0.0003: "<1%",
        0.0099: "<1%",
        0.01: "1%",
        0.42: "42%",
        0.985: "98%",
        0.9899: "98%",
        0.99: "99.0%",
        0.9901: "99.0%",
        0.993: "99.3%",
        0.9993: "99.9%",
        0.99949: "99.9%",
        0.99999: ">99.9%",
    }
    assert shown_chance(1e-12) == "<1%" and shown_chance(1 - 1e-12) == ">99.9%", "0% and 100% only when so"
    assert all(len(shown_chance(c / 100000)) <= 6 for c in range(100001))
    assert "99%" not in {shown_chance(c / 100000) for c in range(100001)}, "99% beside 99.0% (an outside try)"


def test_what_a_move_gave_up_in_chance_is_what_the_shown_figures_differ_by():
    """`lost_by` (the meter's `gave up`, analyze's marks) reads the figures as shown: two chances shown alike
    gave up nothing, two shown apart gave up something, in tenths above 99%."""
    import pytest

    from foursquare_cli.players.evaluation import Evaluation, Rating

    def rated(cell: str, chance: float, group: int) -> Rating:
        return Rating(Move.from_str(cell), None, 1, 1, 1.0, chance=chance, expected=20.0, group=group)

    best = rated("A1", 0.9996, 0)
    evaluation = Evaluation((best, rated("B1", 0.9993, 1), rated("C1", 0.99952, 2), rated("D1", 0.9861, 3)))
    lost = [evaluation.lost_by(rating).chance for rating in evaluation.ratings]
    assert lost[0] == 0 and lost[2] == 0, "shown alike (`>99.9%`): nothing"
    assert 0 < lost[1] < 0.1, "`>99.9%` against `99.9%`: something, if less than a tenth"
    assert lost[3] == pytest.approx(100 * 0.9996 - 98), "`98%` (0.9861: never `99%`, beside `99.0%`)"


def test_the_move_a_hint_names_shows_the_best_expected_score_of_every_move_it_lists():
    """The trust, round two: `B1 19.7` was named over `B3 top ... 20.0`; the expert ranked by a worth it did not
    show. It now ranks by the expected score every screen shows (then the chance), and a move its second look
    passed over is shown no higher: on real positions, the score column never rises down the list, the move
    named is the first listed, and the figures are the evaluation's."""
    import re

    from foursquare_cli.players.expert import ExpertPlayer
    from foursquare_cli.rules.cards import deal
    from foursquare_cli.ui.hint_text import hint_text

    expert = ExpertPlayer(playouts=400, second_ply=4, reply_playouts=40, reply_second_ply=0)
    for seed, moves in ((7, ("B2", "C2", "B3", "C3")), (880004, ("A1", "B1", "C1")), (5, ("B2", "B3"))):
        state = played(deal(seed), *moves)
        ratings = expert.rate(state)
        assert [r.expected for r in ratings] == sorted((r.expected for r in ratings), reverse=True)
        said = hint_text(ratings, limit=len(ratings)).splitlines()
        listed = [re.fullmatch(r"  (\S.*?) +(\S+%) +(\d+\.\d)[* ]", line) for line in said[2:]]
        rows = [row.groups() for row in listed if row]
        assert said[0].startswith(f"Hint: {ratings[0].name} (") and rows[0][0] == ratings[0].name
        assert [float(score) for _, _, score in rows] == sorted((float(score) for _, _, score in rows), reverse=True)
        assert len(rows) == len({r.group for r in ratings}), "a line for each position the moves lead to"
        assert "worth" not in "\n".join(said), "the hint shows the figure it ranks by, and no other"


def test_the_hints_figures_fit_60_columns_with_the_longest_name_on_a_line_of_its_own():
    """An outside try: with `shift right, then A2 top` listed, every row's worth wrapped onto a line of its own
    at 60 columns."""
    from foursquare_cli.players.evaluation import Rating
    from foursquare_cli.ui.hint_text import hint_figures

    longest = Rating(Move.from_str("shift right"), Move.from_str("A2 top"), 5, 9, 9.5, 0.75, 0.99, 20.9, to_come=20)
    c4 = Rating(Move.from_str("C4"), None, 5, 9, 9.6, 0.7, 0.999, 20.9, looked_again=True, to_come=20)
    lines = hint_figures([c4, longest]).split("\n")[:4]
    assert all(len(line) <= 60 for line in lines), lines
    assert lines[2] == "  shift right, then A2 top" and len(lines[3].split()) == 6, "its six figures below it"
    assert lines[3].index("%") == lines[1].index("%"), "in the columns of the others"
    assert lines[1].split()[0] == "C4" and lines[1].endswith("*")
