"""One evaluation of a position (issue 48): the same figures wherever the layout sits, never beyond what the cards
allow, each move's figures its position's."""

from __future__ import annotations

import random
import threading
import time

from conftest import examples, played
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare_cli.players.evaluation import Evaluation, score_ceiling
from foursquare_cli.players.expert import ExpertPlayer
from foursquare_cli.players.futures import candidates_of, position_key
from foursquare_cli.players.greedy import GreedyPlayer
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State, cornered, state_after
from foursquare_cli.rules.moves import Move
from foursquare_cli.rules.tables import FULL

QUICK = 150  # futures a move: the figures are rough, the rules they keep are not


def _quick() -> ExpertPlayer:
    return ExpertPlayer(playouts=QUICK, reply_playouts=20)


def _safe_share(after: State) -> float:
    """The share of the cards to come with a safe place next, worked out here from the rules alone: a card has
    one when some placement, the layout shifted first or not, leaves at most four face down."""
    to_come = after.unseen_cards() + ([after.next_card] if after.next_card is not None else [])
    frames = [after] + [state_after(after, move) for move in after.legal_moves() if move.is_shift]
    safe = 0
    for card in to_come:
        safe += any(
            frame.down_after(move, card).bit_count() <= 4 for frame in frames for move in frame.legal_placements()
        )
    return safe / len(to_come)


def test_the_first_card_has_sixteen_moves_alike_and_none_gives_up_anything():
    state = State.from_seed(42)
    evaluation = _quick().evaluate(state)
    assert len(evaluation.ratings) == 16 and len(evaluation.distinct()) == 1
    assert {rating.alike for rating in evaluation.ratings} == {16}
    assert all(evaluation.lost_by(rating).nothing and evaluation.is_best(rating) for rating in evaluation.ratings)


def test_a_position_is_one_wherever_its_layout_sits_and_its_moves_are_named_in_each_frame():
    """The same position in two frames: the same figures for the moves that do the same, each list named in
    its own frame (a cached evaluation is never read in another frame's names)."""
    expert = _quick()
    corner = played(deal(5), "A1", "B1", "A2")
    moved = played(deal(5), "B2", "C2", "B3")  # the same layout, one row down and one column right
    assert position_key(corner) == position_key(moved)
    first, second = expert.evaluate(corner), expert.evaluate(moved)
    assert all(corner.is_legal(r.move) for r in first.ratings) and all(moved.is_legal(r.move) for r in second.ratings)
    for rating in first.ratings:
        after = state_after(corner, rating.move)
        if rating.then is not None:
            after.apply(rating.then)
        there = next(r for r in second.ratings if r.group == rating.group)
        assert (there.chance, there.expected, there.value) == (rating.chance, rating.expected, rating.value)
        assert second.leading_to(after) is not None
    assert len(first.ratings) == len(candidates_of(corner)) and len(second.ratings) == len(candidates_of(moved))


def test_the_expert_plays_a_legal_move_in_every_frame_of_a_position_it_has_seen():
    expert = _quick()
    state = played(deal(9), "B2", "C2")
    expert.evaluate(state)
    for shift in ("shift down", "shift left"):
        shifted = state_after(state, Move.from_str(shift))
        assert shifted.is_legal(expert.choose(shifted))


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 24), st.sampled_from(["random", "greedy", "searching"]))
def test_no_figure_goes_beyond_what_the_cards_allow(seed, length, kind):
    """Issue 48, point 2: a chance is never above the share of the cards to come with a safe place next (so 0
    when none has), an expected score never above that chance times the best score the cards left allow."""
    state = State(deal(seed))
    rng, greedy, expert = random.Random(seed), GreedyPlayer(), ExpertPlayer(seed, 100, second_ply=0)
    for _ in range(length):  # a game of random moves, the greedy player or the expert (searching): any position rated
        if state.is_over:
            return
        if kind == "random":
            state.apply(rng.choice(state.legal_moves()))
        else:
            state.apply((greedy if kind == "greedy" else expert).choose(state))
    if state.is_over:
        return
    evaluation: Evaluation = _quick().evaluate(state)
    for rating in evaluation.distinct():
        after = state_after(state, rating.move)
        if rating.then is not None:
            after.apply(rating.then)
        if after.is_over:
            assert rating.final and rating.chance == float(after.outcome.score is not None)
            continue
        share = _safe_share(after)
        assert rating.chance <= share + 1e-12, (rating, share)
        assert rating.expected <= rating.chance * score_ceiling(after) + 1e-9
        assert rating.unsafe == round((1 - share) * rating.to_come)
        if share == 0:
            assert rating.chance == 0 and rating.expected == 0


LATE_32 = (
    "B2 B1 A1 A1_top C2 C2_top C3 C3_top shift_right A1 B2 B2_top shift_down B1 B1_top D4_top D4_top A3 A2_top A1 "
    "A1_top A3_top C4 C4_top B1_top B1_top A4 C2_top C2_top D2 D2_top D1 D1_top A4_top A4_top C1 C1_top A1_top B2_top"
)  # the greedy player's game on deal 32, two cards from its end


def test_a_move_after_which_every_card_to_come_loses_has_no_chance():
    state = played(deal(32), *(move.replace("_", " ") for move in LATE_32.split()))
    ratings = _quick().evaluate(state).distinct()
    doomed = [rating for rating in ratings if rating.to_come and rating.unsafe == rating.to_come]
    assert doomed, "B2 top leaves the two cards to come no safe place"
    assert all(rating.chance == 0 and rating.expected == 0 for rating in doomed)
    assert all(rating.chance <= 1 - rating.unsafe / rating.to_come for rating in ratings if rating.to_come)


def test_the_score_ceiling_is_a_win_with_as_few_cards_as_the_empty_cells_need():
    state = played(deal(1), "B2", "C2")
    assert score_ceiling(state) == 40 - 2 - 14
    full = State.from_grid(["AS 2S 3S 4S", "5S 6S 7S 8S", "9S 10S AH 2H", "3H 4H 5H #6H"])
    assert full.occupied == FULL and score_ceiling(full) == 40 - 16 - 1


def test_an_evaluation_is_worked_out_once_and_read_again():
    expert = _quick()
    state = played(deal(3), "B2", "C2", "B3")
    first = expert.evaluate(state)
    assert expert.evaluate(cornered(state)).ratings[0].value == first.ratings[0].value
    assert expert.evaluate(state) == first


def test_two_threads_asking_for_one_position_get_one_search(monkeypatch):
    """The meter's look-ahead and the prompt may ask for a position at once: one searches, the other waits for
    its answer."""
    expert = ExpertPlayer(playouts=QUICK + 1, reply_playouts=20)  # settings of its own: nothing remembered yet
    searched = []
    search = ExpertPlayer._search

    def counted(self, state):
        searched.append(position_key(state))
        time.sleep(0.2)  # long enough for the second to arrive while the first works
        return search(self, state)

    monkeypatch.setattr(ExpertPlayer, "_search", counted)
    state = played(deal(5), "B2", "C2")
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(expert.evaluate(state))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(searched) == 1 and answers[0] == answers[1]


def test_the_meter_works_out_the_position_at_once_and_looks_further_only_while_the_player_thinks(monkeypatch):
    from foursquare_cli.app import session as session_module
    from foursquare_cli.app.session import Session
    from foursquare_cli.players import PlayerSpec, Strength
    from foursquare_cli.rules.game import Game

    searched: list[object] = []
    search = ExpertPlayer._search
    monkeypatch.setattr(ExpertPlayer, "_search", lambda self, state: searched.append(1) or search(self, state))
    strength = PlayerSpec(strength=Strength(playouts=QUICK + 2))
    game = Game.from_seed(7)
    for move in ("B2", "C2"):
        game.play(Move.from_str(move))
    session = Session(game, expert=strength)
    session.look_ahead()
    session.stop_looking()  # answered at once, as a script does: only the position on the board is worked out
    time.sleep(session_module.PONDER_AFTER + 0.2)  # (the next meter line reads it, whatever the move)
    assert len(searched) == 1

    monkeypatch.setattr(session_module, "PONDER_AFTER", 0.0)
    session.look_ahead()
    deadline = time.monotonic() + 30
    while len(searched) < 1 + session_module.LOOK_AHEAD and time.monotonic() < deadline:
        time.sleep(0.05)
    session.stop_looking()
    time.sleep(0.5)  # an evaluation under way finishes
    evaluation = session.evaluation_of(session.game.step)
    seen = len(searched)
    for rating in evaluation.distinct()[: session_module.LOOK_AHEAD]:
        session.play(rating.move)
        if rating.then is not None:
            session.play(rating.then)
        session.meter_reading()  # the position after one of the expert's best moves: already worked out
        session.undo()
        if rating.then is not None:
            session.undo()
    assert len(searched) == seen == 1 + session_module.LOOK_AHEAD


def test_a_game_left_drops_what_the_look_ahead_queued_rather_than_keep_the_process_waiting():
    """An outside try: quit took 18 s at --playouts 1000000 --meter, the interpreter's exit waiting for a
    hundred replies the meter had queued on the playout threads. Leaving drops them: what runs now finishes."""
    from concurrent.futures import CancelledError

    from foursquare_cli.app.session import Session
    from foursquare_cli.players.futures import playout_threads
    from foursquare_cli.rules.game import Game

    queued = [playout_threads().submit(time.sleep, 0.2) for _ in range(40)]  # 4 s of work on two threads
    began = time.monotonic()
    Session(Game.from_seed(7)).stop_looking(abandon=True)
    finished = 0
    for future in queued:
        try:
            future.result(timeout=5)
            finished += 1
        except CancelledError:
            pass
    assert finished <= 4 and time.monotonic() - began < 1.5
    assert playout_threads().submit(sum, [1, 2]).result(timeout=5) == 3, "a later search gets threads anew"


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.floats(0, 24), st.integers(1, 20_000)), max_size=30))
def test_figures_out_of_the_experts_order_share_their_mean(weighted):
    """The figures a list shows fall down the expert's order: the closest falling sequence (least squares, each
    weighted by its futures), so the weighted total is kept, a list already falling is left alone, and no
    figure leaves the range of those given."""
    from foursquare_cli.players.evaluation import _falling

    figures, weights = [f for f, _ in weighted], [w for _, w in weighted]
    fitted = _falling(figures, weights)
    assert len(fitted) == len(figures) and all(a >= b - 1e-9 for a, b in zip(fitted, fitted[1:], strict=False))
    total = sum(f * w for f, w in weighted)
    assert abs(sum(f * w for f, w in zip(fitted, weights, strict=True)) - total) <= 1e-9 * max(1.0, total)
    if figures == sorted(figures, reverse=True):
        assert fitted == figures
    if figures:
        assert min(figures) - 1e-9 <= min(fitted) and max(fitted) <= max(figures) + 1e-9


def test_a_move_ranked_lower_that_shows_more_is_shown_as_good_as_the_one_above_it():
    """The trust, round two: `B1 92% 19.7` was named over `B3 top 95% 20.0`, every card with a safe place next.
    The two now show their mean score: the hint names the best score listed; the chance stays each one's own,
    so the meter says B3 top's 3% more to win."""
    from foursquare_cli.players.calibration import Features
    from foursquare_cli.players.evaluation import Evaluation, Rating, held_in_order

    def rated(cell: str, chance: float, expected: float, group: int) -> Rating:
        features = Features(True, 0.6, 12.0, 10, 1, 8, 1.0, 24)
        return Rating(
            Move.from_str(cell),
            None,
            1,
            1,
            1.0,
            1.5 - group / 10,
            chance,
            expected,
            group=group,
            looked_again=True,
            to_come=30,
            features=features,
        )

    held = held_in_order([rated("B1", 0.92, 19.7, 0), rated("B3 top", 0.95, 20.0, 1), rated("C2", 0.9, 18.0, 2)])
    shown = [(round(r.chance, 6), round(r.expected, 6)) for r in held]
    assert shown == [(0.92, 19.85), (0.95, 19.85), (0.9, 18.0)], "the score pooled, each chance its own"
    evaluation = Evaluation(tuple(held))
    assert evaluation.lost_by(held[1]).nothing and evaluation.gained_by(held[1]) == (0.0, 3.0)
    assert evaluation.lost_by(held[2]).points == 1.9
