"""The players and the solver, on their own."""

from __future__ import annotations

import pytest
from conftest import deck_starting, played, position

from foursquare_cli.cards import Card, deal
from foursquare_cli.engine import PLAYING, WON, Move, State
from foursquare_cli.players import (
    GAVE_UP,
    UNWINNABLE,
    WINNABLE,
    ExpertPlayer,
    GreedyPlayer,
    RandomPlayer,
    _candidates,
    make_player,
    play_game,
    solve,
    unseen_cards,
)
from foursquare_cli.stats import play_deals, summarize, wilson_interval

QUICK = ((4, 2), (8, 1))  # fewer futures than the default, for speed


def test_make_player_knows_the_three_and_refuses_others():
    assert [make_player(name).name for name in ("random", "greedy", "expert")] == ["random", "greedy", "expert"]
    with pytest.raises(ValueError, match="'wizard': no such player; players are random, greedy, expert"):
        make_player("wizard")


def test_random_player_picks_uniformly_among_legal_moves():
    state = played(deck_starting("5S"), "B2")
    legal = state.legal_moves()
    player = RandomPlayer(seed=1)
    counts = {move: 0 for move in legal}
    for _ in range(2000):
        counts[player.choose(state)] += 1
    assert set(counts) == set(legal)
    assert min(counts.values()) > 2000 / len(legal) * 0.6


def test_greedy_takes_the_placement_with_fewest_face_down_cards():
    # A1 5S, B1 7H turned A1 down. Next card 9C: B2 (col B: 9 > 7 turns B1 down: 2 down) and
    # A2 (col A: no face-up other, turns A1 up: 0 down). The first with fewest: A2.
    state = played(deck_starting("5S", "7H", "9C"), "A1", "B1")
    assert str(GreedyPlayer().choose(state)) == "A2"


def test_unseen_cards_are_those_neither_placed_nor_in_hand():
    state = played(deck_starting("5S", "7H", "9C"), "A1", "B1")
    unseen = unseen_cards(state)
    assert len(unseen) == 37
    assert not {Card.from_str(name) for name in ("5S", "7H", "9C")} & set(unseen)


def test_expert_never_reads_the_order_of_the_stock():
    base = deal(11)
    state = State(base)
    for move in ("B2", "C2", "B3"):
        state.apply(Move.from_str(move))
    known, rest = base[: state.drawn + 1], list(base[state.drawn + 1 :])
    other = State(known + tuple(reversed(rest)))
    other.drawn, other.piles, other.occupied, other.down = state.drawn, list(state.piles), state.occupied, state.down
    assert other.deck != state.deck and other.deck[: state.drawn + 1] == state.deck[: state.drawn + 1]
    assert ExpertPlayer(seed=3, rounds=QUICK).choose(state) == ExpertPlayer(seed=3, rounds=QUICK).choose(other)
    assert ExpertPlayer(seed=3, rounds=QUICK).rate(state) == ExpertPlayer(seed=3, rounds=QUICK).rate(other)


def test_expert_is_deterministic_for_its_seed():
    first = State.from_seed(21)
    second = State.from_seed(21)
    assert play_game(first, ExpertPlayer(5, QUICK)) == play_game(second, ExpertPlayer(5, QUICK))


def test_expert_weighs_shifts_only_where_they_open_cells():
    centred = played(deck_starting(), "B2")
    assert all(move < 32 for move, _, _ in _candidates(centred)), "B2 touches no edge"
    corner = played(deck_starting(), "A1")
    shifted = {(str(move), str(then)) for move, then, _ in _candidates(corner) if move >= 32}
    # shift down opens row 1 above the pile (now at A2); shift right opens column A.
    assert shifted == {("shift down", "A1"), ("shift right", "A1")}


def test_expert_plays_the_placement_it_shifted_for():
    state = played(deck_starting(), "A1")
    expert = ExpertPlayer(0, QUICK)
    best = expert.rate(state)[0]
    move = expert.choose(state)
    assert move == best.move
    if move >= 32:
        state.apply(move)
        assert expert.choose(state) == best.then


def test_expert_hint_rates_every_candidate_best_first():
    state = State.from_seed(3)
    state.apply(Move.from_str("B2"))
    ratings = ExpertPlayer(0, QUICK).rate(state)
    assert len(ratings) == len(_candidates(state))
    assert ratings[0].samples == 12 and all(r.samples in (4, 12) for r in ratings)
    assert 0 <= ratings[0].win_rate <= 1


def test_expert_wins_most_deals_even_with_few_futures():
    wins = 0
    for seed in range(4):
        state = State.from_seed(seed)
        play_game(state, ExpertPlayer(0, QUICK))
        wins += state.status == WON
    assert wins >= 3


# -- solve ---------------------------------------------------------------------------


def test_solve_finds_a_perfect_win_and_it_is_proven():
    solution = solve(deal(0), timeout=120)
    assert solution.status == WINNABLE and solution.score == 24 and solution.proven
    state = State.from_seed(0)
    for move in solution.moves:
        state.apply(move)
    assert state.status == WON and state.outcome.score == 24
    assert all(move < 16 for move in solution.moves), "no card stacked, no shift"


def test_solve_gives_up_when_the_budget_runs_out_first():
    solution = solve(deal(0), budget=10, timeout=None)
    assert (solution.status, solution.score, solution.proven, solution.moves) == (GAVE_UP, None, False, [])


def test_solve_proves_a_position_unwinnable():
    # One card left (7C); A1 is face down and nothing can both fill D4 and turn A1 up.
    state = position(["#AS 2S 3S 2H", "4S 5S 6S 9H", "8S 9S 10S 4H", "2D 9D 3D ."], "7C")
    state.deck = state.deck[:15] + tuple(c for c in state.deck[15:] if str(c) != "7C") + (Card.from_str("7C"),)
    state.drawn = 39
    solution = solve(state, timeout=30)
    assert (solution.status, solution.proven, solution.moves) == (UNWINNABLE, True, [])


def test_solve_from_a_position_continues_the_game():
    state = State.from_seed(0)
    solution = solve(state, timeout=30)
    assert state.drawn == 0 and state.status == PLAYING, "solve leaves the position it was given alone"
    assert solution.status == WINNABLE


# -- stats ---------------------------------------------------------------------------


def test_wilson_interval_against_hand_computed_values():
    # 5 of 10: p=0.5, z=1.96: centre 0.5, half-width 0.2634 -> (0.2366, 0.7634).
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    # 0 of 10: (0, z^2/(n+z^2)) = (0, 3.8415/13.8415) = (0, 0.2775).
    low, high = wilson_interval(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    assert wilson_interval(10, 10)[1] == 1.0


def test_jobs_give_exactly_the_figures_of_one_job():
    for player in ("random", "greedy"):
        one = summarize(player, 100, 24, jobs=1)
        two = summarize(player, 100, 24, jobs=2)
        assert (one.games, one.wins, one.mean_score) == (two.games, two.wins, two.mean_score)
        assert [r[:3] for r in play_deals(player, 100, 24, jobs=1)] == [
            r[:3] for r in play_deals(player, 100, 24, jobs=2)
        ]


def test_stats_summary_counts():
    summary = summarize("greedy", 0, 50)
    results = list(play_deals("greedy", 0, 50))
    assert summary.games == 50 and summary.wins == sum(r.won for r in results)
    assert summary.win_low <= summary.win_rate <= summary.win_high
    assert summary.seconds_per_move > 0 and summary.games_per_second > 0


def test_solve_reports_the_score_its_winning_line_reaches():
    for seed in (5, 7):
        solution = solve(deal(seed), timeout=3)
        state = State.from_seed(seed)
        for move in solution.moves:
            state.apply(move)
        assert solution.status == WINNABLE
        assert state.status == WON and state.outcome.score == solution.score
