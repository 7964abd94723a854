"""`solve`: a deal searched by a solver that knows the whole stock (not a player: an upper bound for any real
player once its best is proven), started from the games of the deal the player won (kept in the history), so
its best is never below a score the player made; its winning line written to a record when asked (the file
checked before the search)."""

from __future__ import annotations

from contextlib import closing
from typing import Any, NamedTuple

from ..errors import ExitStatus, UsageError
from ..players.solver import SOLVE_BUDGET as SOLVE_BUDGET  # the default of `solve --budget`
from ..players.solver import Solution, SolveStatus, winning_game
from ..rules.cards import Card, deal


class SolveRequest(NamedTuple):
    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    budget: int = SOLVE_BUDGET
    timeout: float | None = None  # a cap in seconds only when asked: the answer then depends on the machine
    record: str | None = None
    force: bool = False


class Solved(NamedTuple):
    """The solver's result for a deal, and the winning line as a record (None without a win)."""

    solution: Solution
    seed: int | None
    record_text: str | None
    timeout: float | None

    @property
    def exit_status(self) -> ExitStatus:
        """No win is an exit code of its own: 3 when none exists, 4 when the search gave up."""
        if self.solution.status is SolveStatus.UNWINNABLE:
            return ExitStatus.UNWINNABLE
        return ExitStatus.GAVE_UP if self.solution.status is SolveStatus.GAVE_UP else ExitStatus.SUCCESS

    def to_json(self) -> dict[str, Any]:
        """`solve --format json` for the deal `seed` (None for a deck)."""
        solution = self.solution
        return {
            "seed": self.seed,
            "status": str(solution.status),
            "score": solution.score,
            "proven": solution.proven,
            "moves": [str(move) for move in solution.moves],
            "nodes": solution.nodes,
            "seconds": round(solution.seconds, 3),
            "stopped_by": None if solution.stopped_by is None else str(solution.stopped_by),
        }


def solve_deal(request: SolveRequest) -> Solved:
    """Search the deal knowing its stock; the winning line written to `record` (checked before the search)."""
    from ..formats.records import format_record  # start-up: 40 ms (YAML); this module gives an option's default
    from ..runs.deal_best import best_of_deal  # start-up, as above (the expert)
    from ..store.files import opened_record  # start-up, as above
    from ..store.history import History  # start-up, as above (sqlite)

    if (request.seed is None) == (request.deck is None):
        raise UsageError("give --seed N or --deck CARDS (one of them)")
    cards = request.deck if request.deck is not None else deal(request.seed or 0)
    with opened_record(request.record, replace=request.force) as file:
        with closing(History()) as history:  # its best is never below a game of the deal kept
            known = history.won_lines(request.seed) if request.seed is not None else []
        solution = best_of_deal(cards, budget=request.budget, timeout=request.timeout, known=known)
        game = winning_game(cards, request.seed, solution)
        record_text = format_record(game) if game is not None else None
        if file is not None and record_text is not None:
            file.write(record_text)
    return Solved(solution, request.seed, record_text, request.timeout)
