"""One evaluation of a position: the expert's figures for every move, the one source every screen reads.

A position is what a player sees: the grid (every card on it was seen as it was placed),
the card in hand, and so the cards not yet seen. The expert evaluates it once for a
given strength (`ExpertPlayer.evaluate`, cached), from futures seeded by the position
itself, and the meter, `hint`, `moves`, `analyze`, its graph and the end of a game all
read that one `Evaluation`: a move has one figure wherever it is shown, and what a move
gave up is the best move's figure less its own, from the same evaluation.

The figures of a move are the chance that the expert, playing on after it, wins, and the
score it can then expect (a loss counting 0): the futures' share and score mapped by the
measured calibration (`calibration`), then held within what the cards allow. Those
bounds are exact: the chance is never above the share of the cards to come that have a
safe place next (a placement, a shift first or not, that leaves at most four face down),
so it is 0 when none has; the expected score never above that chance times the score of
a win with as few more cards as the empty cells need.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ..rules import playout
from ..rules.engine import State, cornered
from ..rules.moves import Move
from ..rules.tables import FULL
from .calibration import Features, calibrated_figures


def shown_chance(chance: float) -> str:
    """A chance as every screen shows it (hint, the meter, analyze, the end of a game): the one function, so a
    fact reads the same everywhere. Whole percentages from 1% to 98%, but with the digits that still tell
    positions apart where nearly every game is won: from 99% to a tenth (`99.0%`, `99.3%`, rounded down: never
    more than it knows), `>99.9%` from 99.95%; below 1% `<1%`. `0%` only for none, `100%` only for a certainty.
    No `99%`: beside `99.0%` it would read as another precision of the same figure."""
    if chance <= 0:
        return "0%"
    if chance >= 1:
        return "100%"
    if chance < 0.01:
        return "<1%"
    if chance < 0.99:
        return f"{min(98, max(1, round(chance * 100)))}%"
    if chance >= 0.9995:
        return ">99.9%"
    return f"{int(round(chance * 1000, 6)) / 10:.1f}%"  # rounded down (the round: a float's dust)


def shown_percent(chance: float) -> float:
    """The chance `shown_chance` shows, as a number of percentage points: what two shown chances differ by is
    the one less the other. A bound (`<1%`, `>99.9%`) stands for the chance itself, to a hundredth."""
    said = shown_chance(chance)
    if said[0] in "<>":
        return round(chance * 100, 2)
    return float(said.rstrip("%"))


def shown_points(expected: float) -> float:
    """An expected score as every screen shows it: to a tenth of a point."""
    return round(expected, 1)


class Rating(NamedTuple):
    """The expert's figures for one move: what every screen shows of it (`chance`, `expected`), what it ranks
    by (`value`), and the futures behind them."""

    move: Move
    then: Move | None  # the placement a shift is played for
    wins: int  # futures won, of `samples`
    samples: int
    mean_score: float | None  # over the won futures
    value: float = 0.0  # what the expert ranks by: the mean worth of the futures (looked at again: of the replies)
    chance: float = 0.0  # the chance that the expert wins after this move: calibrated, never beyond the cards
    expected: float = 0.0  # the score it can expect (a loss counting 0): likewise
    drawn: int = 0  # cards placed in the position rated
    final: bool = False  # the move itself ends the game: every future is the same, its figures are certain
    looked_again: bool = False  # one of the best, looked at again over the next card: its figures are that look's
    unsafe: int = 0  # of the cards to come after the move, those with no safe place next
    to_come: int = 0  # the cards to come after the move (0 once the game is over)
    alike: int = 1  # moves that lead to this same position (shifts are free): one figure for all of them
    group: int = 0  # which position of the evaluation the move leads to: moves alike share it
    features: Features | None = None  # what `chance` and `expected` were made from (None for a move ending the game)

    @property
    def win_rate(self) -> float:
        """The share of the futures that were won (the playout's, before the calibration: `chance` is shown)."""
        return self.wins / self.samples if self.samples else 0.0

    @property
    def expected_score(self) -> float:
        """The futures' mean score, a lost one counting 0 (the playout's: `expected` is shown)."""
        return self.win_rate * (self.mean_score or 0.0)

    @property
    def name(self) -> str:
        """`C2`, or `shift down, then A1`: the move as every screen names it, and as the prompt takes it."""
        return str(self.move) + (f", then {self.then}" if self.then is not None else "")


class Loss(NamedTuple):
    """What a move gave up against the expert's best in the same evaluation, from the figures as shown (so two
    moves shown alike differ by nothing, and two shown apart by something): points of expected score, and
    percentage points of the chance to win (`shown_percent`: whole ones, tenths above 99%); never below 0 (a
    move rated as high as the best gave up nothing)."""

    points: float
    chance: float

    @property
    def nothing(self) -> bool:
        return self.points <= 0 and self.chance <= 0


def _shown_below(rating: Rating, than: Rating) -> Loss:
    """How far `rating`'s figures are shown below `than`'s: 0 at least, and 0 where they are shown alike."""
    points = round(max(0.0, shown_points(than.expected) - shown_points(rating.expected)), 1)
    if shown_chance(than.chance) == shown_chance(rating.chance):
        return Loss(points, 0.0)
    return Loss(points, round(max(0.0, shown_percent(than.chance) - shown_percent(rating.chance)), 2))


class Evaluation(NamedTuple):
    """Every move of a position rated, the expert's choice first, then in the order it ranks them; and the
    position each group of moves alike leads to (`leads_to`, by group: the engine's key of the grid slid to its
    corner), so that a move is found by where it leads however it was played (`shift right`, then a cell the
    shift did not open, is the placement beside the pile)."""

    ratings: tuple[Rating, ...]
    leads_to: tuple[tuple[object, ...], ...] = ()

    def leading_to(self, after: State) -> Rating | None:
        """The rating of the moves that lead to the position `after` (a shift's or a placement's result)."""
        key = cornered(after).key()
        if key not in self.leads_to:
            return None
        group = self.leads_to.index(key)
        return next(rating for rating in self.ratings if rating.group == group)

    @property
    def best(self) -> Rating:
        return self.ratings[0]

    def find(self, move: Move, then: Move | None = None) -> Rating | None:
        """The rating of `move` (a shift: with the placement `then` it was made for; with none, its best)."""
        for rating in self.ratings:
            if rating.move == move and (then is None or rating.then == then or not move.is_shift):
                return rating
        return None

    def lost_by(self, rating: Rating) -> Loss:
        """What `rating`'s move gave up against the best: the best's figures less its own, 0 at least."""
        return _shown_below(rating, self.best)

    def gained_by(self, rating: Rating) -> Loss:
        """What `rating`'s move shows above the best (expected scores fall down the expert's order, so this is
        a chance a lower score bought): its figures less the best's, as shown, 0 at least."""
        return _shown_below(self.best, rating)

    def is_best(self, rating: Rating) -> bool:
        """Whether `rating`'s move is the expert's choice, or leads to the same position (a free shift apart)."""
        return rating.group == self.best.group

    def distinct(self) -> list[Rating]:
        """One rating for each position the moves lead to (the first of moves alike), in order."""
        seen: set[int] = set()
        shown = []
        for rating in self.ratings:
            if rating.group not in seen:
                seen.add(rating.group)
                shown.append(rating)
        return shown


def score_ceiling(state: State) -> int:
    """The best score a game from `state` (a card just placed, none in hand yet) could still reach: a win with
    as few more cards as its empty cells need (one at least, to turn a face-down card up by covering it)."""
    empty = (FULL & ~state.occupied).bit_count()
    return max(0, 40 - state.drawn - max(1, empty))


def held_to_the_cards(chance: float, expected: float, features: Features) -> tuple[float, float]:
    """A move's chance and expected score held within what the cards allow: the chance at most the share of the
    cards to come with a safe place next, the expected score at most that chance times the best score left."""
    chance = min(max(chance, 0.0), features.safe)
    return chance, min(max(expected, 0.0), chance * features.ceiling)


def features_of(after: State, share: float, expected: float, to_come: dict[int, int], looked_again: bool) -> Features:
    """The `Features` of a move that leaves the position `after` (not over), its futures' figures given; the
    cards to come (`to_come`, by rank) have a safe place next when `playout.safe_ranks` says so."""
    unsafe = unsafe_count(playout.safe_ranks_of(after), to_come)
    empty = (FULL & ~after.occupied).bit_count()
    safe = 1 - unsafe / sum(to_come.values())
    return Features(looked_again, share, expected, after.drawn, after.face_down, empty, safe, score_ceiling(after))


def figures_of(features: Features) -> tuple[float, float]:
    """A move's chance and expected score: its features calibrated (`calibration`), then held to the cards."""
    chance, expected = calibrated_figures(features)
    return held_to_the_cards(chance, expected, features)


def unsafe_count(safe_mask: int, to_come: dict[int, int]) -> int:
    """How many of the cards to come (`to_come`, a count by rank) have no safe place (`safe_mask`: bit r for a
    rank that has one, `playout.safe_ranks`)."""
    return sum(count for rank, count in to_come.items() if not safe_mask >> rank & 1)


def held_in_order(ratings: list[Rating]) -> list[Rating]:
    """`ratings`, in the expert's order, their expected scores made to fall down that order. The expert ranks by
    worth, which also weighs how soon a loss would come, and by its deeper look where it made one; a move it ranks
    lower showing more points is the noise of fewer futures, or a risk the figures do not weigh. So, among the
    moves of one look (those looked at again over the next card, alike; the others, weighted by their futures),
    moves out of order share their mean (`_falling`: the closest falling figures, least squares); then each is
    held within the cards (`held_to_the_cards`) and at most the move above it, so a shallower look never lifts a
    deeper one. The move named shows the best expected score listed, and moves the evaluation cannot tell apart
    are shown alike (`as good as`). The chance stays each move's own: a safer move ranked below a riskier one
    shows its higher chance (the meter: `for 9% more to win`). A move that ends the game takes no part."""
    held = list(ratings)
    most = math.inf
    for deeper in (True, False):
        at = [i for i, r in enumerate(ratings) if r.looked_again == deeper and not r.final and r.features is not None]
        weights = [1 if deeper else max(1, ratings[i].samples) for i in at]  # the deeper: alike, over the replies
        for index, score in zip(at, _falling([ratings[i].expected for i in at], weights), strict=True):
            features = ratings[index].features
            assert features is not None
            _, score = held_to_the_cards(ratings[index].chance, min(score, most), features)
            most = score
            held[index] = ratings[index]._replace(expected=score)
    return held


def _falling(figures: list[float], weights: list[int]) -> list[float]:
    """The non-increasing sequence closest to `figures` (weighted least squares: pool adjacent violators): each
    run of figures out of order replaced by its weighted mean."""
    pools: list[tuple[float, int, int]] = []  # each pool's mean, weight, and figures pooled, in order
    for figure, weight in zip(figures, weights, strict=True):
        pools.append((figure, weight, 1))
        while len(pools) > 1 and pools[-2][0] < pools[-1][0]:
            (mean, weight, count), (above, above_weight, above_count) = pools.pop(), pools.pop()
            merged = (above * above_weight + mean * weight) / (above_weight + weight)
            pools.append((merged, above_weight + weight, above_count + count))
    return [mean for mean, _, count in pools for _ in range(count)]
