"""The best a deal allows, as `solve` and `analyze` both say it (so they give one answer at one budget).

The solver's search, started from the lines known (the deal's games the player won); when a search of at
least `EXPERT_LINE_BUDGET` positions ends without proving its best, the expert's own game on the deal (the
default expert, as `auto` plays it) is played too, and the better line is the answer: a search that proves
nothing may find less than the expert scores (deal 880004: 19 in 500,000 positions, the expert 21; on 200
new deals, 8 below the expert when the line was a 200-playout expert's: benchmarks/solve_against_expert.py).
So `solve` is never below a score the expert makes. The game costs about as much as the search (some 5 s
with C), and only unproven searches pay it (one deal in five); after a smaller search it is not played (it
would cost more than the search), nor under a time limit (`--timeout`: the game would pass it). The
expert's moves are the same on every machine of one build (its playouts in C or in Python), so this answer
is too.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..players import DEFAULT_PLAYOUTS, PlayerSpec, Strength
from ..players.expert import evaluator_of
from ..players.solver import SOLVE_BUDGET, Solution, SolveStatus, solve
from ..rules.cards import Card
from ..rules.game import Game
from ..rules.moves import Move
from ..rules.outcomes import Status

EXPERT_LINE_BUDGET = 200_000  # the least budget after which an unproven search is checked against the expert
EXPERT_LINE_PLAYOUTS = DEFAULT_PLAYOUTS  # the expert `auto` plays: solve is never below the score it makes


def best_of_deal(
    deck: tuple[Card, ...],
    budget: int | None = SOLVE_BUDGET,
    timeout: float | None = None,
    known: Sequence[Sequence[Move]] = (),
) -> Solution:
    """The solver's best for `deck` from the lines `known`, or the expert's game when that scores more."""
    solution = solve(deck, budget=budget, timeout=timeout, known=known)
    if solution.proven or timeout is not None or (budget is not None and budget < EXPERT_LINE_BUDGET):
        return solution
    expert = evaluator_of(PlayerSpec(strength=Strength(EXPERT_LINE_PLAYOUTS)))
    game = Game(deck)
    while not game.state.is_over:
        game.play(expert.choose(game.state))
    score = game.state.outcome.score
    if game.state.status is not Status.WON or score is None or (solution.score or -1) >= score:
        return solution
    return solution._replace(status=SolveStatus.WINNABLE, score=score, moves=list(game.moves))
