"""The printer, against whole boards written out by hand."""

from __future__ import annotations

from conftest import played, position

from foursquare_cli.board import render
from foursquare_cli.engine import Move

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
Next card: 9S   Stock: 33   Face down: 3 of 4 allowed   Playing
(## = face down, xN = cards in the pile, . = empty)"""

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
Next card: 9S   Stock: 33   Face down: 3 of 4 allowed   Playing
(#7H = face down, xN = cards in the pile, . = empty)"""

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
Next card: 7\u2665   Stock: 39   Face down: 0 of 4 allowed   Playing
(## = face down, xN = cards in the pile, . = empty)"""

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
Next card: -   Stock: 24   Face down: 0 of 4 allowed   Won, score 24
(## = face down, xN = cards in the pile, . = empty)"""


def test_board_after_move_7_of_the_worked_example(worked_deck):
    moves = ["B2", "C2", "D2", "A2", "B1", "C1", "B2 top"]
    assert render(played(worked_deck, *moves)) == AFTER_MOVE_7


def test_revealed_board_names_face_down_cards(worked_deck):
    moves = ["B2", "C2", "D2", "A2", "B1", "C1", "B2 top"]
    assert render(played(worked_deck, *moves), reveal=True) == AFTER_MOVE_7_REVEALED


def test_unicode_suits(worked_deck):
    assert render(played(worked_deck, "B2"), unicode=True) == UNICODE_START


def test_won_board_shows_the_score():
    state = position(["AS 2S 3S 2H", "4S 5S 6S 9H", "8S 9S 10S 4H", "2D 9D 3D ."], "7C")
    state.apply(Move.from_str("D4"))
    assert render(state) == WON


def test_lost_board_gives_the_reason():
    state = position(["#AS 2S #3S #4S", "6S . . .", ". . . .", ". . . ."], "AC")
    state.apply(Move.from_str("B2"))
    last_lines = render(state).splitlines()[-2:]
    assert last_lines[0] == "Next card: -   Stock: 34   Face down: 5 of 4 allowed   Lost: more than 4 face-down cards"


def test_board_is_ascii_and_fits_80_columns(worked_deck):
    text = render(played(worked_deck, "B2", "C2", "B2 top"), reveal=True)
    assert text.isascii()
    assert max(len(line) for line in text.splitlines()) <= 80


def test_hint_text_lists_the_best_moves_first():
    from foursquare_cli.board import hint_text
    from foursquare_cli.players import Rating

    ratings = [
        Rating(Move.from_str("C2"), None, 45, 56, 14.25),
        Rating(Move.from_str("shift down"), Move.from_str("D1"), 20, 56, 9.0),
        Rating(Move.from_str("B3 top"), None, 0, 8, None),
    ]
    assert hint_text(ratings) == (
        "Hint: C2\n"
        "  move              won futures   mean score of wins\n"
        "  C2                 45/56   80%   14.2\n"
        "  shift down, D1     20/56   36%   9.0\n"
        "  B3 top              0/8     0%   -"
    )
    assert hint_text([Rating(Move.from_str("A1"), None, 0, 0, None)]) == "Hint: A1 (the only move)"
