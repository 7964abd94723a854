"""How hard a deal is, for a simple player and for a strong one, and its grade.

Three measures, all played on the deal's real stock (a grade is a property of the
deal, not of a position a player sees), all seeded by the deal number so a deal's
grade is the same on every machine:

- **greedy won**: the share of `GAMES` games of the plain greedy policy won, the
  k-th opening with k % `OPENING_PLACEMENTS` random placements (so the games differ). What a
  simple player finds: it ranks the deals as an independent greedy player's wins do
  (Spearman 0.58 on deals 5000000-5001999) and says nothing of a strong player's
  score (-0.03).
- **filling won**: the same with the greedy policy that fills the grid first (the
  expert's futures). Its rank is the other way about: nothing of the greedy
  player's wins (-0.01), much of a strong player's score (0.31).
- the **quick score**: the score of one game of the expert at `QUICK_PLAYOUTS`
  playouts a move, with the valuation pinned here (`QUICK_VALUATION`), the plain
  greedy playouts and one ply (no second look over the next card), so tuning the
  expert does not regrade the deals; a lost game scores 0. Also a strong player's (0.20).

The grade cuts their sum, greedy won + filling won + quick score / `QUICK_SCALE`
(`Grade.ease`): `hard` under `HARD_EASE`, `easy` from `EASY_EASE` on, `medium`
between: about 30%, 40% and 30% of the deals, each step ordering both a greedy
player's wins and a strong player's score (docs/figures.md: chosen on deals
5000000-5000999, checked on 5001000-5001999 and then on deals never used). The games
are played in C (`playout.finish_from`): a grade takes a few hundredths of a second.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..rules import playout
from ..rules.cards import deal
from ..rules.engine import State, state_after
from ..rules.moves import Move
from .futures import Valuation, candidates_of

GAMES = 200  # games of each greedy policy a deal is played with
OPENING_PLACEMENTS = 4  # game k opens with k % OPENING_PLACEMENTS random placements
QUICK_PLAYOUTS = 30
QUICK_VALUATION = Valuation(score_weight=0.01, loss_decay=0.8, near_loss_penalty=0.0, near_cards=2)
QUICK_SCALE = 16  # a quick score of 16 counts as much as every game won by one policy
HARD_EASE = 1.16  # hard: an ease below this
EASY_EASE = 1.68  # easy: an ease of at least this
LEVELS = ("easy", "medium", "hard")
BEST_SCORE = 24  # 40 cards less the 16 a won grid holds


class Grade(NamedTuple):
    """A deal's three measures and its level."""

    greedy_won: float
    filling_won: float
    quick_score: int
    level: str

    @property
    def ease(self) -> float:
        return ease_of(self.greedy_won, self.filling_won, self.quick_score)


def ease_of(greedy_won: float, filling_won: float, quick_score: int) -> float:
    """How easy a deal is: the sum of the three measures, the quick score scaled (see the module's docstring)."""
    return greedy_won + filling_won + quick_score / QUICK_SCALE


def level_of(greedy_won: float, filling_won: float, quick_score: int) -> str:
    measured = ease_of(greedy_won, filling_won, quick_score)
    if measured >= EASY_EASE:
        return "easy"
    if measured < HARD_EASE:
        return "hard"
    return "medium"


def share_won(seed: int, fill_first: bool, games: int = GAMES) -> float:
    """The share of `games` greedy games on deal `seed` won (filling first or not), game k after k % OPENING_PLACEMENTS
    random placements."""
    start = State(deal(seed))
    stock = playout.stock_of(start)
    rng = random.Random(f"grade:{seed}:{'filling' if fill_first else 'greedy'}")
    won = 0
    for number in range(games):
        state = start.copy()
        for _ in range(number % OPENING_PLACEMENTS):
            if not state.is_over:
                state.apply(rng.choice(state.legal_placements()))
        if state.is_over:
            won += state.outcome.score is not None
        else:
            won += playout.finish_from(stock, *playout.start_of(state), fill_first)[0] >= 0
    return won / games


def quick_score(seed: int, playouts: int = QUICK_PLAYOUTS) -> int:
    """The score of one game of the quick expert on deal `seed` (0 when it is lost)."""
    state = State(deal(seed))
    plan: Move | None = None
    while not state.is_over:
        if plan is None:
            move, plan = _quick_move(state, seed, playouts)
        else:
            move, plan = plan, None
        state.apply(move)
    return state.outcome.score or 0


def _quick_move(state: State, seed: int, playouts: int) -> tuple[Move, Move | None]:
    """The quick expert's move (and, after a shift, the placement it was made for): its own copy of the
    expert's one-ply search as it stood when the grades were measured (successive halving of the candidates
    over futures played by the plain greedy policy, seeded by the deal and the position), kept here so that
    no change to the expert regrades a deal."""
    candidates = candidates_of(state)
    if len(candidates) == 1:
        only = candidates[0]
        return only.move, only.placement if only.move.is_shift else None
    rng = random.Random(f"{seed}:{(state.key(), state.next_card)}")
    prefix = playout.stock_of(state)[: state.drawn + 1]
    unseen = playout.stock_of_cards(state.unseen_cards())
    starts: list[playout.Start | int] = []  # a candidate's start, or its score when it ends the game (-1: lost)
    for candidate in candidates:
        after = state_after(state, candidate.move, candidate.placement)
        starts.append(playout.start_of(after) if not after.is_over else playout.finish(after).score)
    count = len(candidates)
    worth, samples = [0.0] * count, [0] * count
    alive = list(range(count))
    rounds = max(1, (count - 1).bit_length())
    for _ in range(rounds):
        for _ in range(max(1, int(playouts / rounds / len(alive)))):
            stock = playout.future_stock(prefix, unseen, rng.getrandbits(64))
            for index in alive:
                start = starts[index]
                if isinstance(start, int):
                    score, placed = start, 0
                else:
                    score, drawn, _, _ = playout.finish_from(stock, *start, False)
                    placed = drawn - start[0]
                worth[index] += QUICK_VALUATION.worth(score, placed)
                samples[index] += 1
        value = [total / n if n else 0.0 for total, n in zip(worth, samples, strict=True)]
        alive.sort(key=lambda i: -value[i])
        alive = alive[: max(1, (len(alive) + 1) // 2)]
        if len(alive) == 1:
            break
    value = [total / n if n else 0.0 for total, n in zip(worth, samples, strict=True)]
    best = min(range(count), key=lambda i: (-samples[i], -value[i]))
    if alive[0] != best:
        best = alive[0]
    chosen = candidates[best]
    return chosen.move, chosen.placement if chosen.move.is_shift else None


def grade(seed: int) -> Grade:
    """The grade of deal `seed` (see the module's docstring)."""
    return _graded(seed, share_won(seed, False), share_won(seed, True))


def _graded(seed: int, greedy: float, filling: float) -> Grade:
    """The grade of deal `seed` once its two shares are known: the quick expert's game decides the rest."""
    score = quick_score(seed)
    return Grade(greedy, filling, score, level_of(greedy, filling, score))


def deal_of_level(level: str, rng: random.Random, tries: int = 100) -> tuple[int, Grade]:
    """A random deal (0 to 2^32-1) of the grade `level`: the first found in `tries` draws, else the last one
    drawn. Each level is about a third of the deals, so 100 draws all miss about once in 10^17. A draw whose
    shares already rule the level out is not played by the quick expert, which keeps the search short."""
    if level not in LEVELS:
        raise ValueError(f"{level!r}: levels are {', '.join(LEVELS)}")
    for _ in range(tries):
        seed = rng.randrange(2**32)
        greedy, filling = share_won(seed, False), share_won(seed, True)
        if level not in (level_of(greedy, filling, 0), "medium", level_of(greedy, filling, BEST_SCORE)):
            continue  # no quick score could give these shares the level
        found = _graded(seed, greedy, filling)
        if found.level == level:
            return seed, found
    return seed, grade(seed)
