"""Invariants over random legal play from random deals (hypothesis)."""

from __future__ import annotations

from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare_cli.rules.cards import CARDS
from foursquare_cli.rules.engine import State, state_after
from foursquare_cli.rules.moves import MOVES, IllegalMoveError
from foursquare_cli.rules.outcomes import PLAYING, WON
from foursquare_cli.rules.tables import MAX_FACE_DOWN

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def check_invariants(state: State) -> None:
    cards = list(state.deck[state.drawn :])
    for pile in state.piles:
        assert len(pile) <= 4
        cards.extend(pile)
    assert sorted(cards) == list(CARDS), "every card is in the stock or in exactly one pile"
    shown_down = sum(1 for cell in range(16) if state.piles[cell] and not state.is_face_up(cell))
    assert state.face_down == shown_down
    assert state.down & ~state.occupied == 0
    assert state.occupied == sum(1 << c for c in range(16) if state.piles[c])
    if state.status == WON:
        assert all(state.piles) and state.face_down == 0
        assert state.outcome.score == state.stock
    if state.status == PLAYING:
        assert state.face_down <= MAX_FACE_DOWN and state.stock > 0
    else:
        assert state.legal_moves() == []
        assert state.next_card is None


@settings(max_examples=examples(150), deadline=None)
@given(seed=seeds, data=st.data())
def test_random_legal_play_keeps_every_invariant(seed, data):
    state = State.from_seed(seed)
    plies = 0
    while not state.is_over and plies < 200:
        moves = state.legal_moves()
        assert moves, "a game in play always has a legal move"
        move = data.draw(st.sampled_from(moves))
        before = state.copy()
        after = state_after(state, move)
        assert state == before, "play leaves the state it was given alone"
        if move.is_shift:
            assert after.drawn == state.drawn and after.down.bit_count() == state.down.bit_count()
            assert sorted(after.piles, key=repr) == sorted(state.piles, key=repr)
            assert after.status == state.status
        else:
            assert after.drawn == state.drawn + 1
            assert after.piles[move.cell][-1] == state.next_card
            assert after.is_face_up(move.cell), "the placed card is never turned by its own placement"
        state = after
        plies += 1
        check_invariants(state)


@settings(max_examples=examples(200), deadline=None)
@given(seed=seeds, data=st.data())
def test_every_legal_move_applies_and_every_other_is_refused(seed, data):
    state = State.from_seed(seed)
    for _ in range(data.draw(st.integers(0, 30))):
        if state.is_over:
            break
        state.apply(data.draw(st.sampled_from(state.legal_moves())))
    legal = set(state.legal_moves())
    for move in MOVES:
        assert state.is_legal(move) == (move in legal)
        try:
            state.copy().apply(move)
            applied = True
        except IllegalMoveError:
            applied = False
        assert applied == (move in legal), f"apply and legal_moves disagree on {move}"


@settings(max_examples=examples(100), deadline=None)
@given(seed=seeds, data=st.data())
def test_a_move_reports_exactly_the_cells_whose_top_card_changed_face(seed, data):
    state = State.from_seed(seed)
    while not state.is_over:
        move = data.draw(st.sampled_from(state.legal_moves()))
        before = state.copy()
        effect = state.apply(move)
        if move.is_shift:
            assert effect == (None, 0)
            continue
        assert effect.card == before.next_card
        changed = {
            cell
            for cell in range(16)
            if cell != move.cell and before.piles[cell] and before.is_face_up(cell) != state.is_face_up(cell)
        }
        assert set(effect.turned_cells) == changed


@settings(max_examples=examples(100), deadline=None)
@given(seed=seeds, data=st.data())
def test_every_placement_weighed_at_once_agrees_with_the_rule_played_one_by_one(seed, data):
    state = State.from_seed(seed)
    while not state.is_over:
        card = state.next_card
        assert card is not None
        assert state.face_downs_after(card) == [
            (state_after(state, move).down.bit_count(), move) for move in state.legal_placements()
        ]
        state.apply(data.draw(st.sampled_from(state.legal_moves())))
