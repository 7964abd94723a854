"""The rules (protocol.md section 1) and move notation (section 2), one test per rule.

Expected positions here are written out by hand from the rule text, not taken from
the engine's output.
"""

from __future__ import annotations

import pytest
from conftest import deck_starting, grid_rows, played, position

from foursquare_cli.rules.cards import CARDS as CARDS_ALL
from foursquare_cli.rules.cards import Card
from foursquare_cli.rules.engine import State, state_after
from foursquare_cli.rules.moves import CELLS as CELLS_ALL
from foursquare_cli.rules.moves import MOVES, Cell, IllegalMoveError, InvalidMoveError, Move
from foursquare_cli.rules.outcomes import LOST, LOST_FACE_DOWN, LOST_STOCK, PLAYING, WON, Outcome

# -- protocol.md section 6, move by move ------------------------------------------------

WORKED_EXAMPLE = [
    # move, card placed, row 1 after, row 2 after, face-down count
    ("B2", "5S", ". . . .", ". 5S . .", 0),
    ("C2", "7H", ". . . .", ". #5S 7H .", 1),
    ("D2", "5D", ". . . .", ". 5S #7H 5D", 1),
    ("A2", "5H", ". . . .", "5H 5S #7H 5D", 1),
    ("B1", "2C", ". 2C . .", "5H #5S #7H 5D", 2),
    ("C1", "8C", ". #2C 8C .", "5H #5S 7H 5D", 2),
    ("B2 top", "AD", ". 2C 8C .", "#5H AD #7H #5D", 3),
]


def test_worked_example_state_by_state(worked_deck):
    state = State(worked_deck)
    for number, (move, card, row1, row2, face_down) in enumerate(WORKED_EXAMPLE, start=1):
        assert str(state.next_card) == card, f"move {number}"
        state.apply(Move.from_str(move))
        assert grid_rows(state) == [row1, row2, ". . . .", ". . . ."], f"after move {number} {move}"
        assert state.face_down == face_down
        assert state.stock == 40 - number
        assert state.status == PLAYING
    assert state.piles[Cell.from_str("B2")] == (Card.from_str("5S"), Card.from_str("AD"))

    state.apply(Move.from_str("shift down"))
    assert grid_rows(state) == [". . . .", ". 2C 8C .", "#5H AD #7H #5D", ". . . ."]
    assert (state.face_down, state.stock, str(state.next_card)) == (3, 33, "9S")

    with pytest.raises(IllegalMoveError) as caught:
        state.apply(Move.from_str("A1"))
    assert str(caught.value) == "'A1': A1 shares no edge with a pile"


# -- the decisions of protocol.md's "where the rule text is open" table -----------------


def test_placed_card_is_not_turned_with_its_line():
    # A1 5S, B1 7H: 7 > 5 triggers row 1; A1 turns down, the placed B1 stays up.
    state = played(deck_starting("5S", "7H", "6D"), "A1", "B1")
    assert grid_rows(state)[0] == "#5S 7H . ."
    # B1 top 6D: row 1 has no face-up other (A1 is down): it triggers, and "all of
    # the top cards are flipped up" only if the placed card is left alone.
    state.apply(Move.from_str("B1 top"))
    assert grid_rows(state)[0] == "5S 6D . ."
    assert state.face_down == 0


def test_face_down_cards_are_not_compared():
    # A1 9S; B1 3H (3 < 9: A1 down); C1 5D: compared only with face-up B1 (5 > 3), it
    # triggers. Were the hidden 9 compared, 5 would be neither highest nor lowest.
    state = played(deck_starting("9S", "3H", "5D"), "A1", "B1", "C1")
    assert grid_rows(state)[0] == "9S #3H 5D ."


def test_covered_face_down_cards_do_not_count():
    # A1 5S; B1 7H turns A1 down; A1 top 9C covers it (9 > 7 turns B1 down).
    state = played(deck_starting("5S", "7H", "9C"), "A1", "B1")
    assert state.face_down == 1
    state.apply(Move.from_str("A1 top"))
    assert grid_rows(state)[0] == "9C #7H . ."
    assert state.face_down == 1  # B1 only; the covered 5S is not on the grid


def test_adjacent_means_sharing_an_edge():
    state = played(deck_starting("5S"), "B2")
    for diagonal in ("A1", "C1", "A3", "C3"):
        with pytest.raises(IllegalMoveError, match="shares no edge with a pile"):
            state.copy().apply(Move.from_str(diagonal))
    for beside in ("B1", "A2", "C2", "B3"):
        state.copy().apply(Move.from_str(beside))


def test_row_and_column_both_checked_and_row_flip_never_touches_the_column():
    # B1 9S, B2 8H (col B: 8 < 9, B1 down), A2 3C (row 2: 3 < 8: B2 down; col A: alone), C2 5D: row 2 others face up: 3
    # (B2 is down) -> 5 > 3 triggers: A2 down, B2 up. Column C alone: nothing to turn.
    state = played(deck_starting("9S", "8H", "3C", "5D", "AH"), "B1", "B2", "A2", "C2")
    assert grid_rows(state)[:2] == [". #9S . .", "#3C 8H 5D ."]
    # C1 AH: row 1 others face up: none (B1 down) -> triggers, B1 up. Column C others: 5 ->
    # 1 < 5 triggers, C2 down. Both lines turn, in either order the same.
    state.apply(Move.from_str("C1"))
    assert grid_rows(state)[:2] == [". 9S AH .", "#3C 8H #5D ."]


def _nearly_won_state() -> State:
    """15 face-up piles holding 39 cards, D4 empty, and the last card of the stock, 7C, in hand.

    7 lies between the others of row 4 (2, 9, 3) and of column D (2, 9, 4): it
    triggers neither line, so all 16 top cards end face up.
    """
    return position(["AS 2S 3S 2H", "4S 5S 6S 9H", "8S 9S 10S 4H", "2D 9D 3D ."], "7C", buried=24)


def test_a_win_on_the_last_card_is_a_win_with_score_0():
    state = _nearly_won_state()
    assert str(state.next_card) == "7C" and state.stock == 1
    state.apply(Move.from_str("D4"))
    assert state.outcome == Outcome(WON, 0, None)
    assert state.next_card is None and state.legal_moves() == []


# -- flipping ---------------------------------------------------------------------


def test_a_tie_is_neither_higher_nor_lower():
    state = played(deck_starting("5S", "9H", "5D"), "A1", "B1")
    # B1 9 > 5 turned A1 down; now C1 5D: others face up: 9 -> 5 < 9 triggers.
    state.apply(Move.from_str("C1"))
    assert grid_rows(state)[0] == "5S #9H 5D ."
    # A tie with the one face-up other: B1 5H against A1 5S -> no trigger.
    state = played(deck_starting("5S", "5H"), "A1", "B1")
    assert grid_rows(state)[0] == "5S 5H . ."
    assert state.face_down == 0


def test_strictly_lower_triggers_and_turns_every_other_pile_both_ways():
    # A1 5S, B1 7H (A1 down), C1 2D: others face up {7} -> lower: B1 down, A1 back up.
    state = played(deck_starting("5S", "7H", "2D"), "A1", "B1", "C1")
    assert grid_rows(state)[0] == "5S #7H 2D ."


def test_a_card_between_others_does_not_trigger():
    state = played(deck_starting("2S", "9H", "5D", "6C"), "A1", "B1", "C1")
    # B1 9 > 2 turned A1 down; C1 5 < 9 turned A1 up and B1 down.
    assert grid_rows(state)[0] == "2S #9H 5D ."
    state.apply(Move.from_str("D1"))  # 6C: face-up others 2, 5 -> 6 highest, triggers
    assert grid_rows(state)[0] == "#2S 9H #5D 6C"


# -- end of turn --------------------------------------------------------------------


def test_a_sequence_of_flips_over_two_rows():
    # Row 1: A1 AS, B1 2S (A1 down), C1 3S (A1 up, B1 down), D1 4S (A1 down, B1 up, C1 down).
    names = ["AS", "2S", "3S", "4S", "10H", "10D", "10C", "10S", "AH", "9S"]
    state = played(deck_starting(*names), "A1", "B1", "C1", "D1")
    assert grid_rows(state)[0] == "#AS 2S #3S 4S"
    # A2 10H: col A has no face-up other -> A1 up. B2 10D: row ties 10; col B 10 > 2 -> B1 down.
    # C2 10C: row ties; col C no face-up other -> C1 up. D2 10S: row ties; col D 10 > 4 -> D1 down.
    for move in ("A2", "B2", "C2", "D2"):
        state.apply(Move.from_str(move))
    assert grid_rows(state)[:2] == ["AS #2S 3S #4S", "10H 10D 10C 10S"]
    # A3 AH: col A others 1, 10: ties the AS, no trigger. B3 9S: row 3 {1}: 9 > 1, A3 down;
    # col B face-up others {10}: 9 < 10 -> B2 down, B1 up.
    state.apply(Move.from_str("A3"))
    state.apply(Move.from_str("B3"))
    assert grid_rows(state)[:3] == ["AS 2S 3S #4S", "10H #10D 10C 10S", "#AH 9S . ."]
    assert state.face_down == 3 and state.status == PLAYING


def test_four_face_down_cards_do_not_lose():
    state = position(["5S #7H #6D #8C", ". . . .", ". . . .", ". . . ."], "9C", "2D")
    # A2 9C: row 2 alone; col A: 9 > 5 -> A1 down: 4 down, still playing.
    state.apply(Move.from_str("A2"))
    assert (state.face_down, state.status) == (4, PLAYING)
    # B2 2D: row 2: 2 < 9 -> A2 down; col B: no face-up other -> B1 up: 4 down.
    state.apply(Move.from_str("B2"))
    assert grid_rows(state)[:2] == ["#5S 7H #6D #8C", "#9C 2D . ."]
    assert (state.face_down, state.status) == (4, PLAYING)


def test_five_face_down_cards_lose():
    state = position(["#AS 2S #3S #4S", "6S . . .", ". . . .", ". . . ."], "AC")
    # B2 AC: row 2: 1 < 6 -> A2 down; col B: 1 < 2 -> B1 down: 5 face down.
    state.apply(Move.from_str("B2"))
    assert state.face_down == 5
    assert state.outcome == Outcome(LOST, None, LOST_FACE_DOWN)
    assert state.legal_moves() == []


def test_the_last_card_placed_without_a_win_loses_on_the_empty_stock():
    state = _nearly_won_state()
    # 7C on 10S (C3): column C turns three cards down (7 > 3, 6, 3): four are not too many, but
    # the grid is not full and the stock is empty.
    state.apply(Move.from_str("C3 top"))
    assert state.face_down == 3
    assert state.outcome == Outcome(LOST, None, LOST_STOCK)
    assert state.stock == 0 and state.next_card is None


# -- placing -------------------------------------------------------------------------


def test_first_card_may_go_anywhere_and_shifts_are_not_legal_on_an_empty_grid():
    state = State(deck_starting())
    assert state.legal_moves() == list(MOVES[:16])
    for cell in ("A1", "D4", "C2"):
        state.copy().apply(Move.from_str(cell))


def test_legal_moves_of_a_small_layout():
    state = played(deck_starting("5S", "7H"), "A1")
    assert [str(m) for m in state.legal_moves()] == ["B1", "A2", "A1 top", "shift down", "shift right"]


def test_a_pile_holds_at_most_four_cards():
    state = played(deck_starting(), "B2", "B2 top", "B2 top", "B2 top")
    assert len(state.piles[Cell.from_str("B2")]) == 4
    assert Move.from_str("B2 top") not in state.legal_moves()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(Move.from_str("B2 top"))
    assert str(caught.value) == "'B2 top': the pile at B2 already holds 4 cards"


@pytest.mark.parametrize(
    "moves, bad, message",
    [
        (["B2"], "B2", "'B2': B2 holds a pile; to place on it, write 'B2 top'"),
        (["B2"], "C2 top", "'C2 top': C2 is empty; to place there, write 'C2'"),
        (["B2"], "D4", "'D4': D4 shares no edge with a pile"),
        (["A1"], "shift up", "'shift up': a pile in row 1 would leave the frame"),
        (["A1"], "shift left", "'shift left': a pile in column A would leave the frame"),
        (["D4"], "shift down", "'shift down': a pile in row 4 would leave the frame"),
        (["D4"], "shift right", "'shift right': a pile in column D would leave the frame"),
        ([], "shift up", "'shift up': the grid is empty; there is nothing to shift"),
    ],
)
def test_each_illegal_move_says_its_rule(moves, bad, message):
    state = played(deck_starting(), *moves)
    before = state.copy()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(Move.from_str(bad))
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert state == before
    assert not state.is_legal(Move.from_str(bad))


def test_no_move_after_the_game_is_over():
    state = _nearly_won_state()
    state.apply(Move.from_str("D4"))
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(Move.from_str("D4 top"))
    assert str(caught.value) == "'D4 top': the game is over (won)"


# -- shifting ------------------------------------------------------------------------


def test_shift_moves_the_layout_and_nothing_else(worked_deck):
    state = played(worked_deck, "B2", "C2")
    for direction, rows in [
        ("up", [". #5S 7H .", ". . . .", ". . . .", ". . . ."]),
        ("right", [". . #5S 7H", ". . . .", ". . . .", ". . . ."]),
        ("down", [". . . .", ". . #5S 7H", ". . . .", ". . . ."]),
        ("left", [". . . .", ". #5S 7H .", ". . . .", ". . . ."]),
        ("left", [". . . .", "#5S 7H . .", ". . . .", ". . . ."]),
    ]:
        state.apply(Move.from_str(f"shift {direction}"))
        assert grid_rows(state) == rows, direction
        assert (state.stock, state.face_down, str(state.next_card)) == (38, 1, "5D")


# -- notation ------------------------------------------------------------------------


def test_every_move_round_trips_through_its_text():
    for move in MOVES:
        assert Move.from_str(str(move)) is move
    assert [str(m) for m in MOVES[32:]] == ["shift up", "shift down", "shift left", "shift right"]


@pytest.mark.parametrize(
    "text, canonical",
    [("b3", "B3"), ("  B3   TOP ", "B3 top"), ("d4\ttop", "D4 top"), ("SHIFT   Left", "shift left"), ("a1", "A1")],
)
def test_move_input_is_case_and_space_insensitive(text, canonical):
    assert str(Move.from_str(text)) == canonical


def test_move_parts():
    move = Move.from_str("C4 top")
    assert (move.kind, str(move.cell), move.direction) == ("top", "C4", None)
    assert Move.from_str("shift up").direction == "up" and Move.from_str("shift up").cell is None
    assert Move.from_str("A1").kind == "place"
    assert Cell.from_str("c4").row == 4 and Cell.from_str("c4").column == "C"


@pytest.mark.parametrize(
    "text, message",
    [
        ("E5", "'E5': no such cell; cells are A1 to D4"),
        ("A5 top", "'A5 top': no such cell 'A5'; cells are A1 to D4"),
        ("", "'': empty move; expected a cell like 'B3', 'B3 top' or 'shift up'"),
        ("B3 onto", "'B3 onto': expected a cell, optionally followed by 'top' (like 'B3' or 'B3 top')"),
        ("B3 top now", "'B3 top now': expected a cell, optionally followed by 'top' (like 'B3' or 'B3 top')"),
        ("shift", "'shift': a shift is 'shift up', 'shift down', 'shift left' or 'shift right'"),
        ("shift sideways", "'shift sideways': a shift is 'shift up', 'shift down', 'shift left' or 'shift right'"),
        ("top B3", "'top B3': expected a cell, optionally followed by 'top' (like 'B3' or 'B3 top')"),
        # a word is no move at all (a bot's `undo` was "no such cell"), in a record, a log, a pipe or a bot's answer
        ("undo", "'undo': not a move; a move is a cell (B3), a cell and top (B3 top) or a shift (shift up)"),
        ("Hello", "'Hello': not a move; a move is a cell (B3), a cell and top (B3 top) or a shift (shift up)"),
    ],
)
def test_invalid_moves_quote_the_input_and_say_what_was_expected(text, message):
    with pytest.raises(InvalidMoveError) as caught:
        Move.from_str(text)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_cell_errors():
    with pytest.raises(InvalidMoveError) as caught:
        Cell.from_str("E5")
    assert str(caught.value) == "'E5': no such cell; cells are A1 to D4"


def test_play_is_pure(worked_deck):
    state = played(worked_deck, "B2")
    snapshot = state.copy()
    after = state_after(state, Move.from_str("C2"))
    assert state == snapshot
    assert after != state and after.stock == 38


# -- what is not a move ----------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 0, 31, 40, "B2", None, 2.0, Cell.from_str("B2")])
def test_apply_and_is_legal_take_only_a_move(bad):
    state = State(deck_starting())
    with pytest.raises(TypeError, match="not a Move"):
        state.apply(bad)
    with pytest.raises(TypeError, match="not a Move"):
        state.is_legal(bad)
    assert state == State(deck_starting()), "nothing was played"


@pytest.mark.parametrize("code", [-1, 36, 40, True])
def test_a_move_code_out_of_range_is_refused(code):
    with pytest.raises(ValueError, match="not a move code"):
        Move(code)


def test_moves_are_interned_and_say_what_they_are():
    assert Move(3) is MOVES[3] and Move.from_str("d1") is MOVES[3]
    top, shift = Move.from_str("B2 top"), Move.from_str("shift right")
    assert (top.is_placement, top.on_top, top.is_shift, str(top.cell)) == (True, True, False, "B2")
    assert (shift.is_placement, shift.is_shift, shift.cell, shift.direction) == (False, True, None, "right")
    assert [str(cell) for cell in shift.opened_cells] == ["A1", "A2", "A3", "A4"]
    with pytest.raises(ValueError):
        Move.shift("sideways")
    with pytest.raises(ValueError):
        Move.place(16)


def test_a_position_laid_out_by_hand():
    state = State.from_grid(
        """
        .    2C     8C  .
        #5H  5S/AD  #7H #5D
        .    .      .   .
        .    .      .   .
        """,
        "9S 3D",
    )
    assert grid_rows(state)[:2] == [". 2C 8C .", "#5H AD #7H #5D"]
    assert state.piles[Cell.from_str("B2")] == (Card.from_str("5S"), Card.from_str("AD"))
    assert (state.drawn, state.face_down, str(state.next_card), state.status) == (7, 3, "9S", PLAYING)
    assert str(state.deck[8]) == "3D"
    won = State.from_grid(["AS 2S 3S 2H", "4S 5S 6S 9H", "8S 9S 10S 4H", "2D 9D 3D 7C"])
    assert won.outcome == Outcome(WON, 24, None)


@pytest.mark.parametrize(
    "rows, message",
    [
        (["AS . . ."], "a grid has 4 rows"),
        (["AS .", ". . . .", ". . . .", ". . . ."], "a row has 4 cells"),
        (["AS AS . .", ". . . .", ". . . .", ". . . ."], "appears twice"),
        (["AS/2S/3S/4S/5S . . .", ". . . .", ". . . .", ". . . ."], "at most 4 cards"),
        (["XX . . .", ". . . .", ". . . .", ". . . ."], "no such suit"),
    ],
)
def test_a_bad_layout_says_what_is_wrong(rows, message):
    with pytest.raises(ValueError, match=message):
        State.from_grid(rows)


def test_the_first_card_cell_and_move_are_true_like_the_others():
    # They are ints, and 0 would be false: `then or move` once chose a shift over the placement A1.
    assert all(bool(value) for value in (*CARDS_ALL, *CELLS_ALL, *MOVES))
    assert (Move.from_str("A1") or "nothing") == Move.from_str("A1")
