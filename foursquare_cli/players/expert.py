"""The expert: Monte Carlo over what it cannot see, with successive halving of the candidates.

A player sees what a person at the table sees: the grid (every card was seen when
it was placed, so a face-down card may be remembered), the card in hand
(`state.next_card`) and, by elimination, which cards are still unseen
(`state.unseen_cards()`). It must not read the order of the stock; when it needs
futures, it shuffles the unseen cards anew. Its rating of a position is the position's
one `Evaluation` (`evaluation`): every screen that shows a figure reads it.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from typing import NamedTuple

from ..errors import UsageError
from ..rules import playout
from ..rules.engine import State, state_after
from ..rules.moves import Move
from .evaluation import Evaluation, Rating, features_of, figures_of, held_in_order
from .futures import (
    EXPERTS_VALUATION,
    WORTH_UNITS,
    Candidate,
    Futures,
    Valuation,
    after_key,
    candidates_of,
    playout_threads,
    position_key,
    tail_arguments,
    worth_tables,
)
from .registry import DEFAULT_PLAYOUTS, PYTHON_PLAYOUTS, PlayerSpec

LONE_FUTURES = 1000  # a position with one move only is still rated (for its figures), on this many futures
SECOND_PLY = 10  # the best moves looked at again over the next card (`ExpertPlayer`; 0: not at all)
REPLY_SHARE_IN_C = 20  # each reply a second ply rates gets playouts / REPLY_SHARE (200 of the default 4,000)
REPLY_SHARE_IN_PYTHON = 5  # without C, 200 of 1,000: the replies' futures are what the small budget buys most
REPLY_SHARE = REPLY_SHARE_IN_C if playout.ACCELERATED else REPLY_SHARE_IN_PYTHON
REPLY_SECOND_PLY_IN_C = 2  # a reply's own best looked at again over the card after (at 50 futures)
REPLY_SECOND_PLY_IN_PYTHON = 0  # without C, a reply looks no further (in Python it would cost 9 s a move)
REPLY_SECOND_PLY = REPLY_SECOND_PLY_IN_C if playout.ACCELERATED else REPLY_SECOND_PLY_IN_PYTHON
REPLY_LOOK_AGAIN_FUTURES = 10  # a reply looks again only if those replies get this many futures (fewer say nothing)
REPLY_TABLE_IN_C = 0  # in C, the replies' futures are played to the end
REPLY_TABLE_IN_PYTHON = 1  # without C, six cards, then the tail table's figures (`tail_table`): 4 x quicker, stronger
REPLY_TABLE = REPLY_TABLE_IN_C if playout.ACCELERATED else REPLY_TABLE_IN_PYTHON
THINK_BATCH = 16  # futures played at a time under a time cap, the clock looked at between
KEPT_EVALUATIONS = 4096  # evaluations remembered in a process (a game's positions, its replies, many times over)
WAIT_SLICE = 0.05  # seconds between looks at an evaluation another thread is working out


class ExpertPlayer:
    """Monte Carlo over what it cannot see, with successive halving of the candidates.

    Its candidates are every placement, and every shift with a placement on the edge it
    opens; candidates that lead to the same position up to a shift (the first card's
    sixteen cells, a placement reached by two shifts) are one, as shifts are free. For
    each it deals futures: the unseen cards shuffled anew (as a player would picture them),
    the same futures for every candidate of a round, seeded by the position itself, so a
    position has the same figures in every game, at every screen and on every machine.
    Each future is played out by the greedy policy filling first (`playout.finish_from`
    with `fill_first`: an empty cell whenever one is safe; `fill_first=False` plays the
    plain greedy policy). Candidates are ranked by the mean worth of their futures
    (`future_worth`: a win by its score, a loss by how soon it came). The budget of
    `playouts` is spent in rounds: each round gives every surviving candidate an equal
    share, then the better half goes on; so the moves that decide something get the most
    futures. `think` caps the seconds a move may take (then the rounds not reached are
    skipped; a cap makes moves depend on the machine's speed, the budget alone does not).

    Then its best `second_ply` moves (10; 0: none) are looked at again over the next card
    (`_over_next_card`): for each rank the next card may have, what a second expert
    (`reply_playouts`, a twentieth of the budget unless given) makes of the position with a
    card of that rank in hand. Their figures are that look's (the replies' best, weighted by
    how many unseen cards have each rank); they lead, by that worth, and down the order no
    move shows more than one above it (`held_in_order`). With `reply_table` (the default without
    C) each reply's futures are played six cards only, then count what the tail table
    (`tail_table`) says such positions were worth: quicker, and less noisy.

    It knows the grid (face-down cards included: it saw them placed), the card in hand
    and the cards drawn so far; never the order of the stock. `seed` is taken for the
    players' common form; the expert's moves depend on the position alone. Choosing a
    shift, it remembers the placement it was played for.
    """

    name = "expert"
    summary = "Monte Carlo over the unseen cards; the hint and the meter are its"
    SETTINGS = {
        "playouts": int,
        "think": float,
        "second_ply": int,
        "reply_playouts": int,
        "reply_second_ply": int,
        "reply_table": int,
    }

    def __init__(
        self,
        seed: int = 0,
        playouts: int = DEFAULT_PLAYOUTS,
        think: float | None = None,
        valuation: Valuation = Valuation(),
        fill_first: bool = True,
        second_ply: int = SECOND_PLY,
        reply_playouts: int | None = None,
        reply_second_ply: int = REPLY_SECOND_PLY,
        reply_table: int = REPLY_TABLE,
    ) -> None:
        if not 1 <= playouts <= playout.MAX_PLAYOUTS:
            raise ValueError(f"playouts {playouts}: the expert takes 1 to {playout.MAX_PLAYOUTS:,} futures a move")
        if think is not None and not (math.isfinite(think) and think > 0):
            raise ValueError(f"think {think}: the seconds a move may take are a number above 0")
        if min(second_ply, reply_second_ply) < 0:
            raise ValueError("second_ply and reply_second_ply are 0 or more")
        if reply_table not in (0, 1):
            raise ValueError(f"reply_table {reply_table}: 1 (the replies' futures end in the tail table) or 0")
        if reply_table and (reply_second_ply or valuation != EXPERTS_VALUATION):
            raise ValueError("reply_table=1 is for replies of one ply (reply_second_ply=0) at the expert's valuation")
        if reply_playouts is not None and not 1 <= reply_playouts <= playout.MAX_PLAYOUTS:
            raise ValueError(f"reply_playouts {reply_playouts}: 1 to {playout.MAX_PLAYOUTS:,} futures a reply")
        self.seed = seed
        self.playouts = playouts
        self.think = think
        self.valuation = valuation
        self.fill_first = fill_first
        self.second_ply = second_ply
        self.reply_playouts = reply_playouts if reply_playouts is not None else max(1, playouts // REPLY_SHARE)
        self.reply_second_ply = reply_second_ply
        self.reply_table = reply_table
        self._plan: tuple[object, Move] | None = None

    @property
    def settings(self) -> tuple[object, ...]:
        """What decides its evaluations besides the position: the key of its cache."""
        return (
            self.playouts,
            self.think,
            self.valuation,
            self.fill_first,
            self.second_ply,
            self.reply_playouts,
            self.reply_second_ply,
            self.reply_table,
        )

    def choose(self, state: State) -> Move:
        key = position_key(state)
        if self._plan is not None and self._plan[0] == key:
            move = self._plan[1]
            self._plan = None
            return move
        candidates = candidates_of(state)
        if len({after_key(state, candidate) for candidate in candidates}) == 1:  # a lone move is played unweighed
            best = Rating(
                candidates[0].move, candidates[0].placement if candidates[0].move.is_shift else None, 0, 0, None
            )
        else:
            best = self.evaluate(state).best
        if best.then is not None:
            self._plan = (position_key(state_after(state, best.move)), best.then)
        return best.move

    def rate(self, state: State) -> list[Rating]:
        """Every candidate's rating, in the order of the position's evaluation (`evaluate`)."""
        return list(self.evaluate(state).ratings)

    def evaluate(self, state: State) -> Evaluation:
        """The position's one evaluation at this expert's strength: worked out once a process, then remembered,
        whatever frame the layout is in (its moves named in the frame of `state`)."""
        key = (position_key(state), self.settings)
        while True:
            with _KEPT_LOCK:  # the meter looks ahead on a thread of its own (`Session.look_ahead`)
                found = _EVALUATIONS.get(key)
                if found is not None:
                    _EVALUATIONS.move_to_end(key)
                    return _framed(state, found)
                under_way = _UNDER_WAY.get(key)
                if under_way is None:
                    under_way = _UNDER_WAY[key] = threading.Event()
                    break
            while not under_way.wait(WAIT_SLICE):  # another thread works it out: its answer, not a second search
                pass  # (in slices, so that Ctrl-C is heard on every system)
        try:
            found = self._search(state)
            with _KEPT_LOCK:
                _EVALUATIONS[key] = found
                if len(_EVALUATIONS) > KEPT_EVALUATIONS:
                    _EVALUATIONS.popitem(last=False)
        finally:
            with _KEPT_LOCK:
                del _UNDER_WAY[key]
            under_way.set()
        return _framed(state, found)

    def _search(self, state: State) -> _Ranked:
        """Successive halving over the positions the candidates lead to, then the second ply over the best."""
        futures = Futures(state, self.fill_first, self.valuation)
        count = len(futures.groups)
        deadline = None if self.think is None else time.perf_counter() + self.think
        order, wins, scores, samples, value, out_of_time = self._halving(futures, deadline)
        rated = {i: futures.rated(i, wins[i], samples[i], scores[i], value[i]) for i in range(count)}
        looked: list[int] = []
        if self.second_ply > 1 and count > 1 and not out_of_time:
            looked = order[: self.second_ply]
            if deadline is None and playout.reply_in_c is not None:  # every reply at once, two threads, in C
                replies = list(playout_threads().map(lambda task: self._reply(*task), futures.replies(looked)))
            elif deadline is None:  # in Python, one after the other (a reply's own replies are too)
                replies = [self._reply(*task) for task in futures.replies(looked)]
            else:  # under a time cap, move by move, until the time runs out
                replies = []
                for index in looked:
                    if time.perf_counter() > deadline:
                        looked = []  # two scales are never mixed: all as they were
                        break
                    replies += [self._reply(*task) for task in futures.replies([index])]
            for index in looked:
                rated[index] = self._over_next_card(futures, index, rated[index], replies)
            looked.sort(key=lambda i: -rated[i].value)  # stable: a tie keeps the first ranking's order
        # the choice, the others looked at again, the rest, each by worth; none shown above one ranked higher
        choice = looked[0] if looked else order[0]
        rest = sorted((i for i in order if i != choice and i not in looked), key=lambda i: -value[i])
        order = [choice, *looked[1:], *rest]
        keys = [futures.positions[index].key() for index in order]
        return tuple(zip(keys, held_in_order([rated[index] for index in order]), strict=True))

    def _halving(self, futures: Futures, deadline: float | None) -> _Halved:
        """The first ply: the budget spent in rounds, each giving every candidate alive an equal share of new
        futures, then the better half going on; the groups ordered survivors of the halving first."""
        count = len(futures.groups)
        wins, scores, samples, worth = [0] * count, [0] * count, [0] * count, [0] * count
        alive = list(range(count))
        rounds = max(1, (count - 1).bit_length())
        per_round = self.playouts / rounds if count > 1 else min(self.playouts, LONE_FUTURES)
        out_of_time = False
        played = 0  # the futures dealt so far: each round deals new ones, the same for every candidate alive
        for _ in range(rounds):
            wanted = max(1, int(per_round / len(alive)))
            while wanted and not out_of_time:  # under a time cap, a few futures at a time, every candidate even
                batch = wanted if deadline is None else min(wanted, THINK_BATCH)
                for index, (won, score, total) in zip(alive, futures.play(alive, played, batch), strict=True):
                    wins[index] += won
                    scores[index] += score
                    worth[index] += total
                    samples[index] += batch
                played += batch
                wanted -= batch
                out_of_time = deadline is not None and time.perf_counter() > deadline
            value = _means(worth, samples)
            alive.sort(key=lambda i: -value[i])
            alive = alive[: max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1 or out_of_time:
                break
        value = _means(worth, samples)
        order = sorted(range(count), key=lambda i: (-samples[i], -value[i]))  # the survivors of the halving first
        if alive[0] != order[0]:  # a time cap stopped the halving: the best estimate so far leads
            order.remove(alive[0])
            order.insert(0, alive[0])
        return _Halved(order, wins, scores, samples, value, out_of_time)

    def _over_next_card(self, futures: Futures, index: int, rating: Rating, replies: list[_Reply]) -> Rating:
        """`rating` looked at again over the next card: for each rank the next card may have, weighted by how many
        unseen cards have it, what a second expert (one ply, `reply_playouts`) makes of the position with a card of
        that rank in hand (`replies`, those of every group looked at, in `futures.replies`' order): its best move's
        worth, and the share won and the score of its futures, from which the figures are made."""
        if futures.positions[index].is_over:
            return rating  # every future of a move that ends the game is the same
        unseen = len(futures.unseen)
        worth = won = scored = 0.0
        for rank, reply in zip(sorted(futures.to_come), (r for r in replies if r.group == index), strict=True):
            share = futures.to_come[rank] / unseen
            worth += share * reply.value
            won += share * reply.won
            scored += share * reply.scored
        features = features_of(futures.positions[index], won, scored, futures.to_come, looked_again=True)
        chance, expected = figures_of(features)
        return rating._replace(value=worth, chance=chance, expected=expected, looked_again=True, features=features)

    def _reply(self, group: int, supposed: State) -> _Reply:
        """What the expert of the replies (`reply_playouts`, its own best `reply_second_ply` looked at again over
        the card after, their replies on one ply) makes of `supposed` (a looked-at move's position with a card of a
        rank in hand): its best move's worth, share of futures won and their score (a loss counting 0). In C when
        it was built (`playout.reply_in_c`, the interpreter's lock let go), else by `evaluate`: the same figures."""
        looks_again = max(1, self.reply_playouts // REPLY_SHARE) >= REPLY_LOOK_AGAIN_FUTURES  # scales with the budget
        reply = ExpertPlayer(
            playouts=self.reply_playouts,
            valuation=self.valuation,
            fill_first=self.fill_first,
            second_ply=self.reply_second_ply if looks_again else 0,
            reply_second_ply=0,
        )
        if playout.reply_in_c is None and reply.second_ply > 1:
            best = reply.evaluate(supposed).best
            if best.looked_again and best.features is not None:
                return _Reply(group, best.value, best.features.share, best.features.expected)
            scores = round((best.mean_score or 0.0) * best.wins)
            return _Reply(group, best.value, best.wins / best.samples, scores / best.samples)
        if playout.reply_in_c is None:  # one ply: its best alone, not every candidate's figures, nor kept
            halved = reply._halving(Futures(supposed, self.fill_first, self.valuation, bool(self.reply_table)), None)
            best_group = halved.order[0]
            tried, unit = halved.samples[best_group], WORTH_UNITS if self.reply_table else 1  # the tail's millionths
            won_share = halved.wins[best_group] / tried / unit  # divided as C divides: the same figures
            return _Reply(group, halved.value[best_group], won_share, halved.scores[best_group] / tried / unit)
        _, occupied, down, ranks, heights = playout.start_of(supposed)
        card = supposed.next_card
        assert card is not None
        unseen = bytes(sorted(other.rank for other in supposed.unseen_cards()))
        value, won, scored = playout.reply_in_c(
            occupied,
            down,
            supposed.drawn,
            ranks,
            heights,
            card.rank,
            unseen,
            self.reply_playouts,
            self.fill_first,
            *worth_tables(self.valuation),
            reply.second_ply,
            reply.reply_playouts,
            *(tail_arguments() if self.reply_table else ()),
        )
        return _Reply(group, value, won, scored)


class _Halved(NamedTuple):
    """The first ply's figures, by group: their order (best first), futures won, scores summed, futures played,
    mean worth; and whether a time cap cut it short."""

    order: list[int]
    wins: list[int]
    scores: list[int]
    samples: list[int]
    value: list[float]
    out_of_time: bool


class _Reply(NamedTuple):
    """A reply's figures for the second ply: its best move's mean worth, share won, and score (a loss 0)."""

    group: int
    value: float
    won: float
    scored: float


_Ranked = tuple[tuple[tuple[object, ...], Rating], ...]
"""A position's evaluation whatever its frame: for each position its moves lead to (the engine's key of the grid
slid to its corner), best first, the figures of the moves that lead there."""

_EVALUATIONS: OrderedDict[tuple[object, ...], _Ranked] = OrderedDict()
_UNDER_WAY: dict[tuple[object, ...], threading.Event] = {}  # evaluations a thread is working out now
_KEPT_LOCK = threading.Lock()


def _framed(state: State, ranked: _Ranked) -> Evaluation:
    """`ranked` as the evaluation of `state`: every candidate of `state`, named in its frame, with the figures
    of the position it leads to, in the order of those positions (moves alike side by side, their first first)."""
    grouped: dict[tuple[object, ...], list[Candidate]] = {}
    for candidate in candidates_of(state):
        grouped.setdefault(after_key(state, candidate), []).append(candidate)
    ratings = []
    for index, (key, rating) in enumerate(ranked):
        group = grouped[key]
        ratings += [
            rating._replace(move=c.move, then=c.placement if c.move.is_shift else None, alike=len(group), group=index)
            for c in group
        ]
    return Evaluation(tuple(ratings), tuple(key for key, _ in ranked))


def _means(totals: list[int], samples: list[int]) -> list[float]:
    """The mean worth of each candidate's futures (their worth counted in millionths)."""
    return [total / n / WORTH_UNITS if n else 0.0 for total, n in zip(totals, samples, strict=True)]


def expert_without_c(seed: int = 0) -> ExpertPlayer:
    """The expert an install without a compiler plays by default (its budget and its replies' settings), whichever
    playouts were built: where they are in C, the same moves thirty times sooner (for its runs and tests)."""
    return ExpertPlayer(
        seed,
        PYTHON_PLAYOUTS,
        reply_playouts=PYTHON_PLAYOUTS // REPLY_SHARE_IN_PYTHON,
        reply_second_ply=REPLY_SECOND_PLY_IN_PYTHON,
        reply_table=REPLY_TABLE_IN_PYTHON,
    )


def evaluator_of(spec: PlayerSpec) -> ExpertPlayer:
    """The expert `spec` names (its settings, its run-wide defaults): the player whose evaluations the meter,
    `hint` and `analyze` show. UsageError for a player that does not rate its moves."""
    built = spec.build()
    if not isinstance(built, ExpertPlayer):
        raise UsageError(f"{spec.text} does not rate its moves; the figures are an expert's (expert:playouts=N)")
    return built
