"""The expert: Monte Carlo over what it cannot see, with successive halving of the candidates.

A player sees what a person at the table sees: the grid (every card was seen when
it was placed, so a face-down card may be remembered), the card in hand
(`state.next_card`) and, by elimination, which cards are still unseen
(`state.unseen_cards()`). It must not read the order of the stock; when it needs
futures, it shuffles the unseen cards anew.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from ..rules import playout
from ..rules.cards import Card
from ..rules.engine import State, state_after
from ..rules.moves import Move
from .calibration import calibrated_chance, calibrated_score
from .registry import DEFAULT_PLAYOUTS, PlayerSpec


class Rating(NamedTuple):
    """The expert's estimate for one move, from `samples` futures of the unseen cards played out."""

    move: Move
    then: Move | None  # the placement a shift is played for
    wins: int
    samples: int
    mean_score: float | None  # over the won futures
    value: float = 0.0  # what the expert ranks by: the mean `future_worth`
    drawn: int = 0  # cards placed in the position rated: the stage its figures are calibrated for
    final: bool = False  # the move itself ends the game: every future is the same, its figures are certain
    looked_again: bool = False  # one of the best, looked at again over the next card: `value` is that look's

    @property
    def win_rate(self) -> float:
        """The share of this move's futures that were won (the playout's chance, not the expert's: `chance`)."""
        return self.wins / self.samples if self.samples else 0.0

    @property
    def expected_score(self) -> float:
        """The mean score over the futures, a lost one counting 0 (the playout's: `expected`)."""
        return self.win_rate * (self.mean_score or 0.0)

    @property
    def chance(self) -> float:
        """The chance that the expert wins after this move: the futures' share mapped by the measured table
        (`calibration`); what the meter, `hint` and `analyze` show. A move that ends the game is no estimate:
        won or lost, 1 or 0."""
        if self.final:
            return 1.0 if self.wins else 0.0
        return calibrated_chance(self.win_rate, self.drawn)

    @property
    def expected(self) -> float:
        """The score the expert can expect after this move, a loss counting 0 (calibrated likewise; the very
        score when the move ends the game)."""
        if self.final:
            return self.expected_score
        return calibrated_score(self.expected_score, self.drawn)


class Candidate(NamedTuple):
    """A move the expert weighs: `move` now, and `placement`, the card's cell (after a shift: the next move)."""

    move: Move
    placement: Move


SCORE_WEIGHT = 0.12  # a won future is worth 1 + 0.12 x score (`future_worth`)
LOSS_DECAY = 0.8  # a lost future is worth 1 - 0.8 ** (cards placed until the loss)...
NEAR_LOSS_PENALTY = 2.0  # ...less 2 when the loss comes within NEAR_CARDS cards
NEAR_CARDS = 2
LONE_FUTURES = 1000  # a position with one move only is still rated (for its figures), on this many futures
SECOND_PLY = 3  # the best moves looked at again over the next card (`ExpertPlayer`; 0: not at all)
REPLY_SHARE = 20  # each reply a second ply rates gets playouts / REPLY_SHARE (1,000 of the default 20,000)


class Valuation(NamedTuple):
    """What a future is worth (`future_worth`): the expert's, unless a caller pins its own (a deal's grade
    must not move when the expert is tuned).

    `near_loss_penalty` is taken off a loss within `near_cards` cards, so that the score weight, large
    enough to make the score count, cannot buy such a danger (docs/figures.md: what each bought)."""

    score_weight: float = SCORE_WEIGHT
    loss_decay: float = LOSS_DECAY
    near_loss_penalty: float = NEAR_LOSS_PENALTY
    near_cards: int = NEAR_CARDS

    def worth(self, score: int, placed: int) -> float:
        if score >= 0:
            return 1.0 + self.score_weight * score
        lost = 1.0 - self.loss_decay**placed
        return lost - self.near_loss_penalty if placed <= self.near_cards else lost


class ExpertPlayer:
    """Monte Carlo over what it cannot see, with successive halving of the candidates.

    For each candidate (every placement, and every shift with a placement on the edge
    it opens) it deals futures: the unseen cards shuffled anew (as a player would picture them
    deals them), the same futures for every candidate of a round. Each future is played out by the
    greedy policy filling first (`playout.finish_from` with `fill_first`: an empty
    cell whenever one is safe; `fill_first=False` plays the plain greedy policy, as
    a deal's grade does). Candidates are ranked by the mean worth
    of their futures (`future_worth`: a win by its score, a loss by how soon it
    came). The budget of `playouts` is spent in rounds: each round gives every
    surviving candidate an equal share, then the better half goes on; so the moves
    that decide something get the most futures.
    `think` caps the seconds a move may take (then the rounds not reached are
    skipped; a cap makes moves depend on the machine's speed, the budget alone does
    not).

    It knows the grid (face-down cards included: it saw them placed), the card in
    hand and the cards drawn so far; never the order of the stock. Its futures are
    seeded by its own seed and the visible position, so with no time cap its moves
    are deterministic. Choosing a shift, it remembers the placement it was played for.

    Then its best `second_ply` moves (3) are looked at again over the next card
    (`worth_over_next_card`): what a second expert (`reply_playouts`, a twentieth of
    the budget unless given) makes of each rank the next card may have, not what the
    greedy playout would; they are ranked by that, ahead of the rest. With ten ranks
    that costs about one and a half budgets more. The figures (`chance`, `expected`) stay those
    of the futures. `second_ply=0` turns it off (docs/figures.md: what it bought).
    """

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        playouts: int = DEFAULT_PLAYOUTS,
        think: float | None = None,
        valuation: Valuation = Valuation(),
        fill_first: bool = True,
        second_ply: int = SECOND_PLY,
        reply_playouts: int | None = None,
    ) -> None:
        if playouts < 1:
            raise ValueError(f"{playouts}: the expert needs at least one playout a move")
        self.seed = seed
        self.playouts = playouts
        self.think = think
        self.valuation = valuation
        self.fill_first = fill_first
        self.second_ply = second_ply
        self.reply_playouts = reply_playouts if reply_playouts is not None else max(1, playouts // REPLY_SHARE)
        self._plan: tuple[object, Move] | None = None

    @classmethod
    def from_spec(cls, spec: PlayerSpec) -> ExpertPlayer:
        """The expert of `spec`: its seed, and its strength (playouts a move, a time cap)."""
        return cls(spec.seed, spec.strength.playouts, spec.strength.think)

    def choose(self, state: State) -> Move:
        key = _visible_key(state)
        if self._plan is not None and self._plan[0] == key:
            move = self._plan[1]
            self._plan = None
            return move
        candidates = candidates_of(state)
        if len(candidates) == 1:  # a lone move is played unweighed
            only = candidates[0]
            best = Rating(only.move, only.placement if only.move.is_shift else None, 0, 0, None)
        else:
            best = self.rate(state)[0]
        if best.then is not None:
            self._plan = (_visible_key(state_after(state, best.move)), best.then)
        return best.move

    def rate(self, state: State) -> list[Rating]:
        """Every candidate, best first: the survivors of the halving first (most futures), then by value."""
        candidates = candidates_of(state)
        count = len(candidates)
        import time

        deadline = None if self.think is None else time.perf_counter() + self.think
        rng = random.Random(f"{self.seed}:{_visible_key(state)}")
        wins = [0] * count
        scores = [0] * count
        samples = [0] * count
        worth = [0.0] * count
        alive = list(range(count))
        rounds = max(1, (count - 1).bit_length())
        per_round = self.playouts / rounds if count > 1 else min(self.playouts, LONE_FUTURES)
        out_of_time = False
        future_worth = self.valuation.worth
        futures_of = _Futures(state, candidates, self.fill_first)
        for _ in range(rounds):
            futures = max(1, int(per_round / len(alive)))
            for _ in range(futures):  # a future at a time for every candidate, so a time cap leaves them even
                stock = futures_of.stock(rng)
                for index in alive:
                    score, placed = futures_of.play(index, stock)
                    if score >= 0:
                        wins[index] += 1
                        scores[index] += score
                    worth[index] += future_worth(score, placed)
                    samples[index] += 1
                if deadline is not None and time.perf_counter() > deadline:
                    out_of_time = True
                    break
            value = _means(worth, samples)
            alive.sort(key=lambda i: -value[i])
            alive = alive[: max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1 or out_of_time:
                break
        value = _means(worth, samples)
        order = sorted(range(count), key=lambda i: (-samples[i], -value[i]))
        if alive[0] != order[0]:  # a time cap stopped the halving: the best estimate so far leads
            order.remove(alive[0])
            order.insert(0, alive[0])
        ratings = [
            Rating(
                candidates[i].move,
                candidates[i].placement if candidates[i].move.is_shift else None,
                wins[i],
                samples[i],
                scores[i] / wins[i] if wins[i] else None,
                value[i],
                state.drawn,
                futures_of.ends_game(i),
            )
            for i in order
        ]
        if self.second_ply > 1 and count > 1 and not out_of_time:
            return self._looked_at_over_next_card(state, ratings, deadline)
        return ratings

    def _looked_at_over_next_card(self, state: State, ratings: list[Rating], deadline: float | None) -> list[Rating]:
        """The best `second_ply` ratings ranked by their worth over the next card (as their `value`), then the
        rest as they were; all as they were if the time cap comes first (two scales are never mixed)."""
        import time

        reply = ExpertPlayer(
            self.seed, self.reply_playouts, valuation=self.valuation, fill_first=self.fill_first, second_ply=0
        )  # one ply: a reply's reply is the greedy playout's
        looked = []
        for rating in ratings[: self.second_ply]:
            if deadline is not None and time.perf_counter() > deadline:
                return ratings
            looked.append(rating._replace(value=worth_over_next_card(state, rating, reply), looked_again=True))
        looked.sort(key=lambda rating: -rating.value)  # stable: a tie keeps the first ranking's order
        return looked + ratings[len(looked) :]

    def compare(self, state: State, candidates: list[Candidate], futures: int) -> list[Rating]:
        """The given candidates measured on the same `futures` futures each, in the order given."""
        rng = random.Random(f"{self.seed}:compare:{_visible_key(state)}")
        futures_of = _Futures(state, candidates, self.fill_first)
        sampled = [futures_of.stock(rng) for _ in range(futures)]
        wins = [0] * len(candidates)
        scores = [0] * len(candidates)
        worth = [0.0] * len(candidates)
        future_worth = self.valuation.worth
        for index in range(len(candidates)):
            for stock in sampled:
                score, placed = futures_of.play(index, stock)
                if score >= 0:
                    wins[index] += 1
                    scores[index] += score
                worth[index] += future_worth(score, placed)
        return [
            Rating(
                candidate.move,
                candidate.placement if candidate.move.is_shift else None,
                wins[index],
                futures,
                scores[index] / wins[index] if wins[index] else None,
                worth[index] / futures,
                state.drawn,
                futures_of.ends_game(index),
            )
            for index, candidate in enumerate(candidates)
        ]


def worth_over_next_card(state: State, rating: Rating, reply: ExpertPlayer) -> float:
    """What `rating`'s move is worth to a player who rates the next card's move again: for each rank the next
    card may have, weighted by how many unseen cards have it, the worth of `reply`'s best move with a card of
    that rank in hand. The position supposed for a rank is the real one with its unseen cards put in another
    order (the supposed card first): only what a player sees is used, never the stock's order."""
    after = state_after(state, rating.move)
    if rating.then is not None:
        after.apply(rating.then)
    if after.is_over:
        return rating.value  # every future of a move that ends the game is the same
    unseen = state.unseen_cards()  # after the move, the card drawn next is one of these: in the deck's order,
    # never the stock's (which card of a rank stands for it, and so the reply's futures, must not tell)
    counts = Counter(card.rank for card in unseen)
    by_rank: dict[int, Card] = {}
    for card in unseen:
        by_rank.setdefault(card.rank, card)  # the first unseen card of each rank stands for it
    placed = after.deck[: after.drawn]
    worth = 0.0
    for rank, card in by_rank.items():
        supposed = after.copy()
        supposed.deck = (*placed, card, *(other for other in unseen if other != card))
        worth += counts[rank] / len(unseen) * reply.rate(supposed)[0].value
    return worth


def _means(totals: list[float], samples: list[int]) -> list[float]:
    return [total / n if n else 0.0 for total, n in zip(totals, samples, strict=True)]


def future_worth(score: int, placed: int) -> float:
    """What one future is worth to the expert: 1 + SCORE_WEIGHT x score when won; when lost,
    1 - LOSS_DECAY ** placed, less NEAR_LOSS_PENALTY when `placed` is at most NEAR_CARDS.

    `placed` counts the cards the playout placed after the move, the one it could
    not place included. A won future is worth at least 1 and a lost one less, so
    among equal chances the better score leads; the score weight is large enough
    for a few points of score to outweigh a loss far ahead. A loss counts more the
    later it comes: a playout loses games the expert would win (filling first, it
    wins about 69% of new deals; the expert nearly all), so a loss far ahead says
    more about the playout than about the position, while a card that cannot be
    placed one or two draws away is a danger the expert cannot play around either,
    and no score may pay for it: that is the penalty (docs/figures.md: what each
    part bought).
    """
    return _EXPERTS.worth(score, placed)


_EXPERTS = Valuation()


class _Futures:
    """The futures of a position for its candidates: each candidate's position after it is worked out
    once, and each future is only a new order of the unseen cards (the ranks of a stock, `playout.future_stock`)
    to play them on, as a player would picture them (suits never matter to a playout).
    """

    def __init__(self, state: State, candidates: list[Candidate], fill_first: bool = True) -> None:
        self._fill_first = fill_first
        self._prefix = playout.stock_of(state)[: state.drawn + 1]
        self._unseen = playout.stock_of_cards(state.unseen_cards())
        self._starts: list[playout.Start | None] = []
        self._ends: list[tuple[int, int]] = []
        for candidate in candidates:
            after = state_after(state, candidate.move)
            if candidate.move.is_shift:
                after.apply(candidate.placement)
            ended = playout.finish(after) if after.is_over else None  # the candidate itself ends the game
            self._starts.append(None if ended is not None else playout.start_of(after))
            self._ends.append((ended.score, 0) if ended is not None else (0, 0))

    def stock(self, rng: random.Random) -> bytes:
        """A future: the ranks of the whole deck, the unseen cards shuffled anew."""
        return _future_stock(self._prefix, self._unseen, rng.getrandbits(64))

    def ends_game(self, index: int) -> bool:
        """Whether candidate `index` itself ends the game (then every future of it is the same)."""
        return self._starts[index] is None

    def play(self, index: int, stock: bytes) -> tuple[int, int]:
        """Candidate `index` played in the future `stock`, then the greedy policy to the end: (score or -1 for
        a loss, cards placed after the candidate's), the two figures `future_worth` needs."""
        start = self._starts[index]
        if start is None:
            return self._ends[index]
        score, drawn, _, _ = _finish_from(stock, *start, self._fill_first)
        return score, drawn - start[0]


# The C versions when they were built (a test plays the Python ones in their place and gets the same ratings).
_finish_from = playout.finish_from
_future_stock = playout.future_stock


def _visible_key(state: State) -> tuple[object, ...]:
    """The position as the player sees it: the engine's key and the card in hand."""
    return (state.key(), state.next_card)


def candidates_of(state: State) -> list[Candidate]:
    """Every placement, and every shift with each placement on the edge it opens."""
    placements = state.legal_placements()
    candidates = [Candidate(move, move) for move in placements]
    for shift in state.legal_moves()[len(placements) :]:
        shifted = state_after(state, shift)
        opened = shift.opened_cells
        candidates.extend(
            Candidate(shift, move) for move in shifted.legal_placements() if not move.on_top and move.cell in opened
        )
    return candidates


def unsafe_next(state: State, rating: Rating) -> tuple[int, int]:
    """After the move `rating` stands for: how many of the unseen cards would have no safe place next (every
    placement, a shift first or not, would leave more than four face down), and how many cards are unseen.

    What a hint says in words: a move that leaves 6 of 20 unseen cards no safe place risks losing at once
    on the next card.
    """
    after = state_after(state, rating.move)
    if rating.then is not None:
        after.apply(rating.then)
    if after.is_over:
        return 0, 0
    unseen = after.unseen_cards()
    in_hand = after.next_card
    assert in_hand is not None
    shifted = [state_after(after, move) for move in after.legal_moves() if move.is_shift]
    cards = unseen + [in_hand]  # the card in hand now is the next one to place; then any unseen one
    unsafe = 0
    checked: dict[int, bool] = {}
    for card in cards:
        rank = card.rank
        if rank not in checked:
            checked[rank] = all(
                min((count for count, _ in position.face_downs_after(card)), default=99) > 4
                for position in [after, *shifted]
            )
        unsafe += checked[rank]
    return unsafe, len(cards)
