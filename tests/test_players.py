"""The players, on their own: what each chooses, what the expert may see, and stats over many deals."""

from __future__ import annotations

import random
import re

import pytest
from conftest import deck_starting, played, redealt

from foursquare_cli.players import PlayerSpec, Strength
from foursquare_cli.players import expert as expert_module
from foursquare_cli.players.evaluation import Rating, figures_of, held_to_the_cards
from foursquare_cli.players.expert import ExpertPlayer
from foursquare_cli.players.futures import Candidate, candidates_of, future_worth
from foursquare_cli.players.greedy import GreedyPlayer, greedy_move
from foursquare_cli.players.random_player import RandomPlayer
from foursquare_cli.rules import integer_playout, playout
from foursquare_cli.rules.cards import Card, deal
from foursquare_cli.rules.engine import State, state_after
from foursquare_cli.rules.game import Game, play_out
from foursquare_cli.rules.moves import Move
from foursquare_cli.rules.outcomes import WON
from foursquare_cli.runs.plans import DealRange, Plan
from foursquare_cli.runs.run import RunOptions, play_plan, run_stats
from foursquare_cli.runs.stats import GameResult, summary_of, wilson_interval

QUICK = 60  # playouts a move: far fewer than the default, for speed


def _plan(player: str, start: int, count: int) -> Plan:
    return Plan.of("stats", [player], PlayerSpec(), DealRange(start, count))


def test_a_spec_builds_every_registered_player_named_in_any_case_and_refuses_others():
    from foursquare_cli.players.registry import players_help, registered_players

    names = [player.name for player in registered_players()]
    assert "expert" in names and len(names) == len(set(names))
    assert [PlayerSpec.parse(name.upper()).build().name for name in names] == names
    with pytest.raises(ValueError, match=f"'wizard': no such player; players are {re.escape(players_help())}"):
        PlayerSpec.parse("wizard")
    # `cmd:` is typed as it stands, so a module player's form was read as `module:mybots:Greedy` (an outside try)
    with pytest.raises(ValueError, match=r"write module:attribute \(like mybots:Greedy\) with no 'module:' before it$"):
        PlayerSpec.parse("module:mybots:Greedy")


def test_a_name_is_made_canonical_before_any_check_settings_and_short_names_included():
    """Issue 49 and 50: one spelling a player, made at the edge: case, zeros, the order of settings."""
    from foursquare_cli.app.players import canonical_player
    from foursquare_cli.errors import PlayerError

    assert canonical_player("EXPERT") == "expert"
    assert canonical_player("Expert:Think=0.50,Playouts=0500") == "expert:playouts=500,think=0.5"
    assert canonical_player("fast=expert:playouts=500") == "fast=expert:playouts=500"
    assert canonical_player("mine=cmd:./bot --fast") == "mine=cmd:./bot --fast"
    assert PlayerSpec.parse("fast=expert:playouts=500").shown == "fast"
    assert PlayerSpec.parse("expert:playouts=500", strength=Strength(7000, 0.5)).settings == {
        "playouts": 500,
        "think": 0.5,
    }
    for bad, said in [
        ("expert:bogus=1", "expert has no setting 'bogus'"),
        ("expert:playouts=many", "^'expert:playouts=many': playouts takes a whole number"),  # quoted, as every
        ("expert:playouts=0", "^'expert:playouts=0': playouts 0: the expert takes 1 to"),  # player's error is
        ("expert:think=nan", "^'expert:think=nan': think takes a finite number"),  # (an outside try)
        ("expert:playouts=1,playouts=2", "playouts is set twice"),
        ("expert:playouts", "settings are key=value"),
    ]:
        with pytest.raises(PlayerError, match=said):
            canonical_player(bad)


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


def test_greedy_places_beyond_an_edge_when_that_leaves_fewest_face_down():
    # Card 8D. Left of A1 (shift right, then A1): row 1 holds only the face-down 5S, so the row
    # triggers and turns it up: 0 face down. Every cell in the frame leaves at least one: B1 and
    # A2 top turn 9C down, A3 and A1 top turn 7H down, C2 triggers nothing (5S stays down).
    state = State.from_grid(["#5S . . .", "7H 9C . .", ". . . .", ". . . ."], "8D")
    assert min(count for count, _ in state.face_downs_after(state.next_card)) == 1
    assert [str(move) for move in playout.greedy_choice(state) if move is not None] == ["shift right", "A1"]
    player = GreedyPlayer()
    assert str(player.choose(state)) == "shift right"
    state.apply(Move.from_str("shift right"))
    assert str(player.choose(state)) == "A1"
    state.apply(Move.from_str("A1"))
    assert state.face_down == 0


def test_greedy_breaks_ties_towards_the_empty_cell_touching_most_piles():
    # Card 5H ties every face-up 5 it meets and is below the 6: C1 (row 1: 5, 6: neither higher
    # nor lower), A2 (row 2: 5; column A: 5), C2 and B3 all leave 0 face down. A2 touches two
    # piles (A1, B2), the others one: A2, though C1 comes first in cell order.
    state = State.from_grid(["5S 6H . .", ". 5D . .", ". . . .", ". . . ."], "5H")
    options = {str(move): count for count, move in state.face_downs_after(state.next_card)}
    assert options["C1"] == options["A2"] == options["C2"] == options["B3"] == 0
    assert str(greedy_move(state)) == "A2"


def test_unseen_cards_are_those_neither_placed_nor_in_hand():
    state = played(deck_starting("5S", "7H", "9C"), "A1", "B1")
    unseen = state.unseen_cards()
    assert len(unseen) == 37
    assert not {Card.from_str(name) for name in ("5S", "7H", "9C")} & set(unseen)


def test_expert_never_reads_the_order_of_the_stock():
    state = played(deal(11), "B2", "C2", "B3")
    other = redealt(state, random.Random(7))
    assert other.deck != state.deck
    assert ExpertPlayer(seed=3, playouts=QUICK).choose(state) == ExpertPlayer(seed=3, playouts=QUICK).choose(other)
    assert ExpertPlayer(seed=3, playouts=QUICK).rate(state) == ExpertPlayer(seed=3, playouts=QUICK).rate(other)


def _expert_game(seed: int, player_seed: int) -> list[Move]:
    game = Game.from_seed(seed)
    for _ in play_out(game, ExpertPlayer(player_seed, QUICK)):
        pass
    return game.moves


def test_expert_is_deterministic_for_its_seed():
    assert _expert_game(21, 5) == _expert_game(21, 5)


def test_expert_weighs_shifts_only_where_they_open_cells():
    centred = played(deck_starting(), "B2")
    assert not any(candidate.move.is_shift for candidate in candidates_of(centred)), "B2 touches no edge"
    corner = played(deck_starting(), "A1")
    shifted = {(str(c.move), str(c.placement)) for c in candidates_of(corner) if c.move.is_shift}
    # shift down opens row 1 above the pile (now at A2); shift right opens column A.
    assert shifted == {("shift down", "A1"), ("shift right", "A1")}


def test_expert_plays_the_placement_it_shifted_for():
    """Find, over a few deals, the first time the expert shifts; its next move is the placement it rated."""
    for seed in range(40):
        game = Game.from_seed(seed)
        expert = ExpertPlayer(0, QUICK)
        while not game.state.is_over:
            best = ExpertPlayer(0, QUICK).rate(game.state)[0]
            move = expert.choose(game.state)
            assert move == best.move
            game.play(move)
            if move.is_shift:
                assert best.then is not None
                assert expert.choose(game.state) == best.then
                return
    pytest.fail("the expert never shifted in 40 deals; the test needs another position")


def test_expert_rates_every_candidate_survivors_first_then_by_value():
    state = played(deal(3), "B2")
    candidates = candidates_of(state)
    ratings = ExpertPlayer(0, 120, second_ply=0).rate(state)  # the halving alone (the second ply: below)
    assert sorted(str(r.move) + str(r.then) for r in ratings) == sorted(
        str(c.move) + (str(c.placement) if c.move.is_shift else "None") for c in candidates
    )
    # the winner of the halving first (the most futures, the best worth among them), then by worth
    assert min((-r.samples, -r.value) for r in ratings) == (-ratings[0].samples, -ratings[0].value)
    assert [r.value for r in ratings[1:]] == sorted((r.value for r in ratings[1:]), reverse=True)
    assert_shown_in_order(ratings)
    # B1, A2, C2, B3, B2 top: 5 candidates, 3 rounds of 40 playouts. Round 1: 5 x 8 futures, 3 go on;
    # round 2: 3 x 13, 2 go on; round 3: 2 x 20. Totals: 8, 8, 8 + 13, 8 + 13 + 20 twice.
    assert [str(c.move) for c in candidates] == ["B1", "A2", "C2", "B3", "B2 top"]
    assert sorted(r.samples for r in ratings) == [8, 8, 21, 41, 41]
    assert all(0 <= r.win_rate <= 1 and r.expected_score <= 24 for r in ratings)
    # by default the best SECOND_PLY of them are looked at again and lead, in their new order; the rest stay
    looked = ExpertPlayer(0, 120).rate(state)
    top = expert_module.SECOND_PLY
    survivors = sorted(ratings, key=lambda r: (-r.samples, -r.value))[:top]
    assert {(r.move, r.then, r.samples) for r in looked[:top]} == {(r.move, r.then, r.samples) for r in survivors}
    assert all(r.looked_again for r in looked[:top]) and not any(r.looked_again for r in looked[top:])
    assert [r.value for r in looked[:top]] == sorted((r.value for r in looked[:top]), reverse=True)
    rest = [unheld(r) for r in ratings if (r.move, r.then) not in {(s.move, s.then) for s in survivors}]
    assert [unheld(r) for r in looked[top:]] == rest
    assert_shown_in_order(looked)


def unheld(rating: Rating) -> Rating:
    """A rating but for its group and the figures `held_in_order` may lower (those of the moves above it)."""
    return rating._replace(group=0, chance=0.0, expected=0.0)


def assert_shown_in_order(ratings: list[Rating]) -> None:
    """The trust, round two: `B1 19.7` was named over `B3 top ... 20.0`. Down the expert's order no move shows a
    higher expected score than one above it; each is within the cards, and within the figures the moves' own
    futures made (moves out of order share their mean); the chance is each move's own."""
    shown = [r.expected for r in ratings]
    assert shown == sorted(shown, reverse=True)
    own = [figures_of(r.features) for r in ratings if r.features is not None]
    for rating in ratings:
        if rating.features is not None:
            assert rating.chance == figures_of(rating.features)[0]
            assert held_to_the_cards(rating.chance, rating.expected, rating.features)[1] == rating.expected
            assert min(e for _, e in own) - 1e-9 <= rating.expected <= max(e for _, e in own) + 1e-9


def test_a_future_is_worth_its_score_when_won_and_more_the_later_it_is_lost():
    # docs/players.md: 1 + 0.12 x score for a win; 1 - 0.8^k for a loss k cards on, less 2 within 2 cards
    assert future_worth(0, 30) == 1.0
    assert future_worth(24, 1) == pytest.approx(3.88)
    assert future_worth(-1, 0) == pytest.approx(-2.0)  # the move itself loses
    assert future_worth(-1, 1) == pytest.approx(0.2 - 2)  # the next card cannot be placed
    assert future_worth(-1, 2) == pytest.approx(0.36 - 2)
    assert future_worth(-1, 3) == pytest.approx(1 - 0.8**3)  # no penalty from the third card on
    losses = [future_worth(-1, placed) for placed in range(40)]
    assert losses == sorted(losses) and losses[-1] < 1.0 == future_worth(0, 1)


def test_a_near_loss_penalty_prices_only_the_losses_within_its_cards():
    from foursquare_cli.players.futures import Valuation

    priced = Valuation(score_weight=0.05, loss_decay=0.8, near_loss_penalty=1.0, near_cards=2)
    assert priced.worth(10, 5) == pytest.approx(1.5)
    assert priced.worth(-1, 2) == pytest.approx(0.36 - 1.0)
    assert priced.worth(-1, 3) == pytest.approx(1 - 0.8**3)
    unpriced = Valuation(score_weight=0.01, loss_decay=0.8, near_loss_penalty=0.0, near_cards=2)
    assert unpriced.worth(-1, 1) == pytest.approx(0.2) and unpriced.worth(24, 1) == pytest.approx(1.24)
    assert tuple(Valuation()) == (0.12, 0.8, 2.0, 2)  # the expert's, as docs/players.md gives it


# Fifteen face-up cards, no 10 among them, a low and a high card in every line: a 5 on A1 turns
# nothing, and a 10 anywhere is the highest of its row and of its column, which turns six.
NO_ROOM_FOR_A_TEN = ["AS 9S 2S 8S", "9H AH 8H 2H", "3S 7S 4S 6S", "7H 3H 6H ."]


def _play_future(state: State, candidate: Candidate) -> tuple[int, int]:
    """The candidate played in a future where every card to come is a 10, then the greedy policy: (score or -1,
    the cards placed until the end, read off a worth table that counts them)."""
    after = state_after(state, candidate.move)
    if candidate.move.is_shift:
        after.apply(candidate.placement)
    seen = playout.stock_of(state)[: state.drawn + 1]
    tens = bytes([10]) * (40 - len(seen))
    won = b"".join((score + 100).to_bytes(8, "little", signed=True) for score in range(25))
    lost = b"".join((-1 - placed).to_bytes(8, "little", signed=True) for placed in range(41))
    counted = []
    for play in (integer_playout.futures_python, playout.futures):
        totals = play(seen, tens, 0, 0, 1, playout.candidate_record(after), True, won, lost)
        wins, _, worth = (int.from_bytes(totals[i : i + 8], "little", signed=True) for i in (0, 8, 16))
        counted.append((worth - 100, 0) if wins else (-1, -1 - worth))
    assert counted[0] == counted[1], "C and Python count alike"
    return counted[0]


def test_a_future_counts_the_cards_placed_until_the_one_that_cannot_be():
    a1_top, d4 = Move.from_str("A1 top"), Move.from_str("D4")
    five_then_ten = State.from_grid(NO_ROOM_FOR_A_TEN, ["5C", "10D"])
    assert five_then_ten.down_after(a1_top, Card.from_str("5C")) == 0
    assert _play_future(five_then_ten, Candidate(a1_top, a1_top)) == (-1, 1)
    ten_now = State.from_grid(NO_ROOM_FOR_A_TEN, ["10D"])
    assert _play_future(ten_now, Candidate(d4, d4)) == (-1, 0), "the move itself loses"
    assert ten_now.down_after(d4, Card.from_str("10D")).bit_count() == 6


def test_the_time_cap_stops_the_halving_and_keeps_the_best_estimate_first():
    import time

    state = played(deal(3), "B2")
    started = time.perf_counter()
    capped = ExpertPlayer(0, 1_000_000, think=0.05).rate(state)
    assert time.perf_counter() - started < 1.0, "a cap of 0.05 s holds even with a budget of a million playouts"
    leaders = [r for r in capped if r.samples == capped[0].samples]
    assert capped[0].value == max(r.value for r in leaders)


def test_a_budget_below_one_playout_is_refused():
    with pytest.raises(ValueError, match="the expert takes 1 to"):
        ExpertPlayer(0, 0)


def test_the_fast_greedy_playout_plays_the_greedy_players_game():
    rng = random.Random(5)
    shifts = 0
    for seed in range(300):
        state = State.from_seed(seed)
        for _ in range(rng.randrange(0, 15)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_moves()))
        slow = Game(state.deck, start=state)
        for step in play_out(slow, GreedyPlayer()):
            shifts += step.move.is_shift
        before = state.copy()
        fast = playout.finish(state)
        assert state == before  # the playout leaves the position as it was
        score = fast.score
        assert (fast.drawn, fast.occupied, fast.down, fast.status) == (
            slow.state.drawn,
            slow.state.occupied,
            slow.state.down,
            slow.state.status,
        )
        assert score == (slow.state.outcome.score if slow.state.status is WON else -1)
    assert shifts >= 20, shifts  # the playout's shifts are held to the player's too


@pytest.mark.slow
def test_expert_wins_most_deals_even_with_few_futures():
    wins = 0
    for seed in range(4):
        game = Game.from_seed(seed)
        for _ in play_out(game, ExpertPlayer(0, QUICK)):
            pass
        wins += game.state.status is WON
    assert wins >= 3


# -- stats ---------------------------------------------------------------------------


def test_wilson_interval_against_hand_computed_values():
    # 5 of 10: p=0.5, z=1.96: centre 0.5, half-width 0.2634 -> (0.2366, 0.7634).
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    # 0 of 10: (0, z^2/(n+z^2)) = (0, 3.8415/13.8415) = (0, 0.2775).
    low, high = wilson_interval(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    assert wilson_interval(10, 10)[1] == 1.0


@pytest.mark.slow
def test_jobs_give_exactly_the_figures_of_one_job():
    for player in ("random", "greedy"):
        (one,) = run_stats(_plan(player, 100, 24), RunOptions(jobs=1))
        (two,) = run_stats(_plan(player, 100, 24), RunOptions(jobs=2))
        assert (one.games, one.wins, one.mean_score) == (two.games, two.wins, two.mean_score)
        assert [r[:4] for r in play_plan(_plan(player, 100, 24), RunOptions(jobs=1))] == [
            r[:4] for r in play_plan(_plan(player, 100, 24), RunOptions(jobs=2))
        ]


def test_a_summary_against_hand_computed_figures():
    results = [
        GameResult("greedy", 7, True, 10, (0.1, 0.2)),
        GameResult("greedy", 8, False, None, (0.3,)),
        GameResult("greedy", 9, True, 20, (0.4, 0.5, 0.6)),
    ]
    summary = summary_of("greedy", 7, results, elapsed=2.0)
    assert (summary.games, summary.wins, summary.mean_score) == (3, 2, 15.0)
    # 2 of 3, z=1.96: centre (0.6667 + 0.6402) / 2.2805 = 0.5731; half 0.3654 -> (0.2077, 0.9385)
    assert (round(summary.win_low, 3), round(summary.win_high, 3)) == (0.208, 0.939)
    assert round(summary.seconds_per_move, 9) == 0.35 and round(summary.median_seconds_per_move, 9) == 0.35
    assert summary.games_per_second == 1.5
    assert summary.lost == (8,) and summary.to_json()["lost_deals"] == [8]
    from foursquare_cli.ui.runs_text import stats_text

    assert stats_text(summary).splitlines()[-1] == "lost deals: 8"
    many = summary_of("greedy", 0, [GameResult("greedy", seed, False, None, (0.1,)) for seed in range(21)], elapsed=1.0)
    assert "lost deals" not in stats_text(many) and many.to_json()["lost_deals"] == list(range(21))


def test_a_range_past_the_last_deal_is_refused_before_any_game():
    with pytest.raises(ValueError, match="runs past the last deal number"):
        list(play_plan(_plan("random", 2**64 - 1, 2)))
    assert [r.seed for r in play_plan(_plan("random", 2**64 - 1, 1))] == [2**64 - 1]


def test_the_settings_default_budget_is_the_experts():
    from foursquare_cli.app.config import SETTING_DEFAULTS
    from foursquare_cli.players import DEFAULT_PLAYOUTS

    assert SETTING_DEFAULTS["playouts"] == DEFAULT_PLAYOUTS


def test_a_second_ply_never_reads_the_order_of_the_stock_and_reranks_only_the_best():
    state = played(deal(11), "B2", "C2", "B3")
    other = redealt(state, random.Random(7))
    looking = ExpertPlayer(seed=3, playouts=QUICK, second_ply=3, reply_playouts=60, reply_second_ply=0)
    plain = ExpertPlayer(seed=3, playouts=QUICK, second_ply=0).rate(state)
    ratings = looking.rate(state)
    assert ratings == ExpertPlayer(seed=3, playouts=QUICK, second_ply=3, reply_playouts=60, reply_second_ply=0).rate(
        other
    )
    survivors = sorted(plain, key=lambda r: (-r.samples, -r.value))[:3]  # the halving's best three
    assert {(r.move, r.then) for r in ratings if r.looked_again} == {(r.move, r.then) for r in survivors}
    looked = {(r.move, r.then) for r in survivors}
    rest = [unheld(r) for r in plain if (r.move, r.then) not in looked]
    assert [unheld(r) for r in ratings if not r.looked_again] == rest, "the others as one ply rated them"
    assert_shown_in_order(ratings)
    reply = ExpertPlayer(3, 60, second_ply=0)  # a reply is rated on one ply
    # each of the three is worth the mean of the reply's best over the next card's ranks, by hand
    for rating in ratings[:3]:
        after = state_after(state, rating.move)
        unseen = state.unseen_cards()
        expected = 0.0
        for rank in {card.rank for card in unseen}:
            card = next(card for card in unseen if card.rank == rank)
            supposed = State([*after.deck[: after.drawn], card, *(c for c in unseen if c != card)])
            for move in [*map(Move.from_str, ("B2", "C2", "B3")), rating.move, rating.then]:
                if move is not None:
                    supposed.apply(move)  # the same game on a deck whose next card is `card`
            share = sum(c.rank == rank for c in unseen) / len(unseen)
            expected += share * reply.rate(supposed)[0].value
        assert rating.value == pytest.approx(expected)
    assert [r.value for r in ratings[:3]] == sorted((r.value for r in ratings[:3]), reverse=True)
    assert looking.choose(state) == ratings[0].move


def test_the_default_player_unread_is_the_spec_the_registry_gives():
    """`player_spec` names the default without reading the entry points (start-up); it must be that player."""
    from foursquare_cli.app.players import DEFAULT_PLAYER, player_spec
    from foursquare_cli.players.registry import registered

    player = registered(DEFAULT_PLAYER)
    assert player is not None and player.ours
    for arguments in [{}, {"seed": 7, "playouts": 300, "think": 0.5, "move_time": 2.0, "protocol": 2}]:
        unread = player_spec(**arguments)
        parsed = player_spec("Expert", **arguments)  # another spelling: parsed, as any other name is
        assert unread == parsed and (unread.text, unread.kinds, unread.label) == (parsed.text, None, None)
