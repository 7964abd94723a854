"""The futures the expert weighs its moves in: the candidates of a position, grouped by the position each leads
to, and the orders of the unseen cards they are played on, all in C where it was built.

A future is only a new order of the unseen cards' ranks, drawn from a seed the position
gives, so the figures of a position depend on it alone (never on the stock's order,
never on the frame the grid sits in); what a future is worth is the expert's
`Valuation`. The expert (`expert`) decides which candidates get how many futures.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

from ..rules import playout
from ..rules.engine import State, cornered, state_after
from ..rules.integer_playout import TAIL_UNITS
from ..rules.moves import Move
from .evaluation import Rating, features_of, figures_of

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor


class Candidate(NamedTuple):
    """A move the expert weighs: `move` now, and `placement`, the card's cell (after a shift: the next move)."""

    move: Move
    placement: Move


SCORE_WEIGHT = 0.12  # a won future is worth 1 + 0.12 x score (`future_worth`)
LOSS_DECAY = 0.8  # a lost future is worth 1 - 0.8 ** (cards placed until the loss)...
NEAR_LOSS_PENALTY = 2.0  # ...less 2 when the loss comes within NEAR_CARDS cards
NEAR_CARDS = 2


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


def position_key(state: State) -> tuple[object, ...]:
    """The position as a player sees it, up to where the layout sits (shifts are free) and the cards' suits
    (the rules never look at them): the grid slid to its corner, the rank in hand, the unseen cards by rank."""
    card = state.next_card
    return (cornered(state).key(), 0 if card is None else card.rank, state.unseen_by_rank())


def after_key(state: State, candidate: Candidate) -> tuple[object, ...]:
    return cornered(_played(state, candidate)).key()


def _played(state: State, candidate: Candidate) -> State:
    return state_after(state, candidate.move, candidate.placement)


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
    return EXPERTS_VALUATION.worth(score, placed)


EXPERTS_VALUATION = Valuation()


class Futures:
    """The candidates of a position, grouped by the position each leads to (slid to its corner: shifts are free),
    and the futures to play them in: each future is only a new order of the unseen cards' ranks (suits never
    matter to a playout), the ranks in their own order first, drawn from a seed the position gives, so that the
    futures depend on the position alone (`playout.futures`, which plays them all in C, two threads at once).
    """

    def __init__(
        self, state: State, fill_first: bool = True, valuation: Valuation = Valuation(), tail: bool = False
    ) -> None:
        self.state = state
        self._fill_first = fill_first
        self._worth = worth_tables(valuation)
        self.unseen = state.unseen_cards()
        self.to_come = dict(Counter(card.rank for card in self.unseen))  # after the move, the cards to come
        self._prefix = playout.stock_of(state)[: state.drawn + 1]
        self._unseen = bytes(sorted(card.rank for card in self.unseen))
        self._seed = playout.position_seed(state)
        self._tail = tail_arguments() if tail else ()  # each future played a few cards, then the tail table read
        grouped: dict[tuple[object, ...], list[Candidate]] = {}
        positions: dict[tuple[object, ...], State] = {}
        for candidate in candidates_of(state):
            after = cornered(_played(state, candidate))
            grouped.setdefault(after.key(), []).append(candidate)
            positions.setdefault(after.key(), after)
        keys = sorted(grouped)  # the groups in an order of their own, whatever the frame
        self.groups = [grouped[key] for key in keys]
        self.positions = [positions[key] for key in keys]
        self._records = [playout.candidate_record(after) for after in self.positions]

    def replies(self, groups: list[int]) -> list[tuple[int, State]]:
        """The positions the second ply supposes for each of `groups` (not over): its position with a card of each
        rank to come in hand, ranks in order. The position supposed for a rank is the real one with its unseen cards
        in the deck's order, the supposed card first: only what a player sees, never the stock's order."""
        tasks = []
        for index in groups:
            after = self.positions[index]
            if after.is_over:
                continue
            placed = after.deck[: after.drawn]
            for rank in sorted(self.to_come):
                card = next(card for card in self.unseen if card.rank == rank)  # the first of a rank stands for it
                supposed = after.copy()
                supposed.deck = (*placed, card, *(other for other in self.unseen if other != card))
                tasks.append((index, supposed))
        return tasks

    def play(self, groups: list[int], first: int, count: int) -> list[tuple[int, int, int]]:
        """Futures `first` to `first + count - 1` played by each of `groups`: for each, (futures won, their scores
        summed, their worth summed in millionths; with a tail, all three in millionths). Enough work is split
        between two threads; the sums are exact, so they are the same however it is split."""
        starts = b"".join(self._records[index] for index in groups)
        won, lost = self._worth

        def totals_of(start: int, futures: int) -> list[int]:
            position = (self._prefix, self._unseen, self._seed)
            totals = playout.futures(*position, start, futures, starts, self._fill_first, won, lost, *self._tail)
            return _unpacked(totals)

        if playout.ACCELERATED and count > 1 and count * len(groups) >= PARALLEL_PLAYOUTS:
            half = count // 2
            parts = [
                playout_threads().submit(totals_of, first, half),
                playout_threads().submit(totals_of, first + half, count - half),
            ]
            totals = [a + b for a, b in zip(parts[0].result(), parts[1].result(), strict=True)]
        else:
            totals = totals_of(first, count)
        return [(totals[3 * i], totals[3 * i + 1], totals[3 * i + 2]) for i in range(len(groups))]

    def rated(self, index: int, wins: int, samples: int, scores: int, value: float) -> Rating:
        """Group `index`'s rating from its futures: the figures calibrated, then held to what the cards allow."""
        after, first = self.positions[index], self.groups[index][0]
        then = first.placement if first.move.is_shift else None
        mean = scores / wins if wins else None
        drawn = self.state.drawn
        if after.is_over:
            won = after.outcome.score is not None
            score = after.outcome.score or 0
            return Rating(first.move, then, wins, samples, mean, value, float(won), float(score), drawn, final=True)
        share = wins / samples if samples else 0.0
        features = features_of(after, share, share * (mean or 0.0), self.to_come, looked_again=False)
        chance, expected = figures_of(features)
        unsafe = round((1 - features.safe) * len(self.unseen))
        return Rating(
            first.move,
            then,
            wins,
            samples,
            mean,
            value,
            chance,
            expected,
            drawn,
            False,
            False,
            unsafe,
            len(self.unseen),
            features=features,
        )


WORTH_UNITS = TAIL_UNITS  # a future's worth in the playouts' millionths: sums exact in any order, on any thread
PARALLEL_PLAYOUTS = 2_000  # a batch of at least this many playouts is split between two threads


def tail_arguments() -> tuple[int, bytes]:
    """What `playout.futures` and `playout.reply_in_c` take to stop each future `TAIL_CARDS` cards on and count
    what the tail table says of where it stopped (`tail_table`, 42 kB)."""
    from .tail_table import TAIL_CARDS, TAIL_TABLE  # read when first asked for: a C build never needs it

    return TAIL_CARDS, TAIL_TABLE


def worth_tables(valuation: Valuation) -> tuple[bytes, bytes]:
    """`valuation`'s worth of a won future by its score and of a lost one by the cards placed until the loss, in
    millionths, as `playout.futures` takes them."""
    found = _TABLES.get(valuation)
    if found is None:
        won = [round(valuation.worth(score, 0) * WORTH_UNITS) for score in range(25)]
        lost = [round(valuation.worth(-1, placed) * WORTH_UNITS) for placed in range(41)]
        found = _TABLES[valuation] = (_packed(won), _packed(lost))
    return found


def _packed(values: list[int]) -> bytes:
    return b"".join(value.to_bytes(8, "little", signed=True) for value in values)


_TABLES: dict[Valuation, tuple[bytes, bytes]] = {}


def _unpacked(totals: bytes) -> list[int]:
    return [int.from_bytes(totals[i : i + 8], "little", signed=True) for i in range(0, len(totals), 8)]


_POOL: list[ThreadPoolExecutor] = []


def playout_threads() -> ThreadPoolExecutor:
    """Two threads to play futures on (the C playouts let the interpreter's lock go), made when first needed."""
    if not _POOL:
        from concurrent.futures import ThreadPoolExecutor  # start-up: loaded by the first search, not by `play`

        _POOL.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="foursquare-futures"))
    return _POOL[0]


def abandon_playouts() -> None:
    """Drop the futures queued on the playout threads: a game left while the meter looked ahead at a large
    budget had a hundred replies queued, which the interpreter's exit waited for (18 s after `quit`). What the
    threads play now finishes; a search after this makes threads anew."""
    if _POOL:
        _POOL.pop().shutdown(wait=False, cancel_futures=True)


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
