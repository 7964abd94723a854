"""The solver in words: `solve`'s result, and what a deal allowed (the end of a game at the prompt)."""

from __future__ import annotations

from ..app.solve import Solved
from ..errors import seconds_typed
from ..players.solver import Limit, Solution, SolveStatus
from .output import Screen, Text, text_of


def solve_text(solution: Solution, seed: int | None, record_text: str | None, timeout: float | None) -> str:
    name = f"Deal {seed}" if seed is not None else "The deck"
    if solution.status is SolveStatus.WINNABLE:
        verdict = f"winnable, best score found {solution.score}" + (
            " (proven best)" if solution.proven else " (not proven best: the search stopped before the end)"
        )
    elif solution.status is SolveStatus.UNWINNABLE:
        verdict = "unwinnable (an exhaustive search found no win)"
    elif solution.stopped_by is Limit.TIME and timeout is not None:
        limit = f"the time limit of {seconds_typed(timeout)} s"
        verdict = f"gave up ({limit} ran out before a win was found; raise it with --timeout)"
    else:
        verdict = "gave up (the node budget ran out before a win was found; raise it with --budget)"
    lines = [
        f"{name}: {verdict}",
        _what_it_bounds(solution),
        f"Searched {solution.nodes:,} position{'' if solution.nodes == 1 else 's'} in {solution.seconds:.1f} s.",
    ]
    if record_text is not None:
        lines.append("The winning line, as a game record:")
        lines.append(record_text.rstrip("\n"))
    return "\n".join(lines)


def _what_it_bounds(solution: Solution) -> str:
    """What the result says of a real player: a bound only once proven (the best, or that there is no win);
    a best not proven is a line found, which a player (the expert too) may beat."""
    if solution.status is SolveStatus.WINNABLE and not solution.proven:
        return "Not proven: the best line found, knowing the stock; a player may score more."
    if solution.status is SolveStatus.GAVE_UP:
        return "This search knows the whole stock, but found no line: it bounds nothing."
    return "This search knows the whole stock: an upper bound for any real player, not a player."


def deal_potential(solution: Solution, played: int | None = None) -> str:
    """What the deal allowed, for the end of a game: the solver's best score, said as plainly as it is known;
    `played`, the score of the game just won, is a bound as good as the solver's (a search cut short may find
    less than the player did: then the player's score is the bound, and said so). A larger budget is solve's
    alone: the end screen and analyze search as far as solve's default."""
    if solution.status is SolveStatus.WINNABLE:
        if solution.proven:
            return f"A player who knew the stock could have scored {solution.score}."
        if played is not None and solution.score is not None and played >= solution.score:
            return (
                f"A player who knew the stock could have scored at least your {played} "
                "(the search found no more, but did not prove it best; solve with a larger --budget may find more)."
            )
        return (
            f"A player who knew the stock could have scored at least {solution.score} "
            "(not proven best; solve with a larger --budget may find more)."
        )
    if solution.status is SolveStatus.UNWINNABLE:
        return "No player could have won this deal, even knowing the stock."
    return "The solver found no win for this deal in its time."


@text_of.register
def _solved(value: Solved, screen: Screen) -> Text:
    return Text(solve_text(value.solution, value.seed, value.record_text, value.timeout) + "\n")
