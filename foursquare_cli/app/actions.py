"""What `hint`, `solve`, `auto` and `analyze` do beyond parsing their options and printing: each one call
from its command, returning values (`ui` turns them into text), keeping what is to be kept on the way."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ..players import Strength
from ..players.expert import Rating
from ..players.solver import Solution
from ..rules.cards import Card
from ..rules.engine import State
from ..rules.game import Game, Step
from ..runs.analysis import FileAnalysis, Request
from ..runs.results import AnalysisResults

__all__ = ["AnalysisRun", "ExpertHint", "Solved", "analysis_run", "analyze_and_keep", "auto_game", "expert_hint",
           "hint_of", "solve_deal"]  # fmt: skip


class ExpertHint(NamedTuple):
    """The expert's ratings of every move of a position, best first, and the risk after each."""

    ratings: list[Rating]
    risks: list[tuple[int, int]]  # (unseen cards with no safe place next, unseen cards): `unsafe_next`

    def to_json(self) -> dict[str, Any]:
        """`hint --format json`: the best move, then every move's figures."""
        first = self.ratings[0]
        return {
            "move": str(first.move),
            "then": None if first.then is None else str(first.then),
            "ratings": [
                {
                    "move": str(r.move),
                    "then": None if r.then is None else str(r.then),
                    "wins": r.wins,
                    "samples": r.samples,
                    "win_rate": r.chance,
                    "expected_score": r.expected,
                    "futures_won": r.win_rate,
                    "futures_expected_score": r.expected_score,
                    "futures_mean_score_of_wins": r.mean_score,
                    "worth": r.value,
                    "unsafe_next": self.risks[index][0] if index < len(self.risks) else None,
                    "cards_to_come": self.risks[index][1] if index < len(self.risks) else None,
                }
                for index, r in enumerate(self.ratings)
            ],
        }


def expert_hint(state: State, player_seed: int, strength: Strength, most: int | None = None) -> ExpertHint:
    """What `hint` and the prompt's `hint` show: the expert's ratings (the risk after the first `most`)."""
    from ..players import ExpertPlayer
    from ..players.expert import unsafe_next

    ratings = ExpertPlayer(player_seed, strength.playouts, strength.think).rate(state)
    return ExpertHint(ratings, [unsafe_next(state, rating) for rating in ratings[:most]])


def hint_of(game: Game, player: str, player_seed: int, strength: Strength, move_time: float) -> ExpertHint | Step:
    """`hint`: the expert's ratings of the position at the end of `game`, or the move another player makes
    there (Forfeit, naming it, when it forfeits instead)."""
    from ..players import make_player, next_move

    if player == "expert":
        return expert_hint(game.state, player_seed, strength)
    return next_move(game, make_player(player, player_seed, strength, move_time), player)


class Solved(NamedTuple):
    """`solve`: the solver's result, and the winning line as a record (None without a win)."""

    solution: Solution
    record_text: str | None


def solve_deal(
    cards: tuple[Card, ...], seed: int | None, *, budget: int | None, timeout: float, record: str | None, force: bool
) -> Solved:
    """Search the deal knowing its stock; the winning line written to `record` (checked before the search)."""
    from ..formats.records import format_record
    from ..players.solver import solve, winning_game
    from ..store.files import opened_record

    with opened_record(record, replace=force) as file:
        solution = solve(cards, budget=budget, timeout=timeout)
        game = winning_game(cards, seed, solution)
        record_text = format_record(game) if game is not None else None
        if file is not None and record_text is not None:
            file.write(record_text)
    return Solved(solution, record_text)


def auto_game(
    seed: int, player: str, player_seed: int, strength: Strength, move_time: float, *,
    record: str | None, force: bool, on_step: Callable[[Step], None],
) -> Game:  # fmt: skip
    """`auto`: `player` plays the deal to its end, `on_step(step)` from the start on; the record written to
    `record` (checked before the game). Forfeit, naming the player, when it forfeits."""
    from ..errors import Forfeit
    from ..formats.records import format_record
    from ..players import closing_programs, make_player, play_game
    from ..store.files import opened_record

    with opened_record(record, replace=force) as file, closing_programs():
        game = Game.from_seed(seed, meta={"player": player.encode("utf-8", "replace").decode()})  # no lone surrogate
        on_step(game.step)
        forfeit = play_game(game, make_player(player, player_seed, strength, move_time), on_step)
        if forfeit is not None:
            raise Forfeit(f"{player} forfeits the game: {forfeit}")
        if file is not None:
            file.write(format_record(game))
    return game


class AnalysisRun(NamedTuple):
    """An `analyze` run, opened: the files to analyse, those its results file holds already, that file."""

    requests: list[Request]
    already: list[str]
    results: AnalysisResults | None


@contextlib.contextmanager
def analysis_run(
    files: list[str], seed: int | None, deck: tuple[Card, ...] | None, player_seed: int, strength: Strength,
    solve_budget: int, results: str | None,
) -> Iterator[AnalysisRun]:  # fmt: skip
    """`analyze`'s run: its results file opened (and locked) with the run's settings when given, the files it
    holds already left out; closed at the end."""
    from ..runs.results import AnalysisResults

    settings = {"seed": seed, "player_seed": player_seed, "playouts": strength.playouts, "think": strength.think,
                "solve_budget": solve_budget}  # fmt: skip
    kept = AnalysisResults(results, settings) if results is not None else None
    try:
        done = kept.done if kept is not None else {}
        requests = [
            Request(path, seed, deck, player_seed, strength, solve_budget) for path in files if path not in done
        ]
        yield AnalysisRun(requests, sorted({path for path in files if path in done}), kept)
    finally:
        if kept is not None:
            kept.close()


def analyze_and_keep(
    run: AnalysisRun, *, jobs: int, solution: str | None, force: bool, progress: Callable[..., None] | None = None
) -> Iterator[FileAnalysis]:
    """Each file's analysis in order, its summary appended to the run's results file and the solver's winning
    line written to `solution` (checked before anything is analysed) as it comes."""
    from ..formats.records import format_record
    from ..runs.analysis import analyze_files
    from ..store.files import opened_record

    with opened_record(solution, replace=force) as file:
        for analysis in analyze_files(run.requests, jobs, progress):
            summary = analysis.summary
            if file is not None and summary is not None and summary.solution is not None:
                file.write(format_record(summary.solution))
            if run.results is not None and summary is not None:
                run.results.add(summary.to_json(analysis.path))
            yield analysis
