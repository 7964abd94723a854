"""`hint`: a player's move for the position at the end of a record; for a player that rates its moves (the
expert), every move's figures: the position's one evaluation, which the prompt's `hint` and the meter read too
(`expert_hint`)."""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from ..errors import UsageError
from ..players import PlayerSpec, next_move
from ..players.evaluation import Evaluation, Rating
from ..players.expert import ExpertPlayer, evaluator_of
from ..rules.engine import State
from ..rules.game import Game, Step
from ..rules.playout import PLAYOUTS_IN_USE
from .loading import DealGiven, Problems, file_or_last, game_to_go_on, load_game


class ExpertHint(NamedTuple):
    """The position's evaluation: the expert's figures for every move, its choice first (`players.evaluation`)."""

    state: State
    evaluation: Evaluation

    @property
    def ratings(self) -> list[Rating]:
        """One rating for each position the moves lead to (moves alike, by a free shift, said once)."""
        return self.evaluation.distinct()

    def to_json(self) -> dict[str, Any]:
        """`hint --format json`: the best move, then every move's figures."""
        first = self.evaluation.best
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
                    "unsafe_next": r.unsafe,
                    "cards_to_come": r.to_come,
                }
                for r in self.evaluation.ratings
            ],
        }


class Hinted(NamedTuple):
    """A hint to show: the expert's ratings, the first paragraph (the moves in words) or, with `detail`, the
    figures behind them too."""

    hint: ExpertHint
    detail: bool
    slow: SlowPlayouts | None = None  # the hint took over a second with the playouts in Python: say why

    def to_json(self) -> dict[str, Any]:
        return self.hint.to_json()


class SlowPlayouts(NamedTuple):
    """A hint slowed by playouts in Python (no C module at install): how long it took, and why not C."""

    seconds: float
    why_not_c: str


class MoveHint(NamedTuple):
    """The move a player that does not rate its moves would make."""

    player: str
    step: Step

    def to_json(self) -> dict[str, Any]:
        return {"move": str(self.step.move), "player": self.player, "ratings": []}


class HintRequest(NamedTuple):
    """What `hint` is asked: the record (or move log and its deal), the player, and how much to show."""

    file: str | None
    deal: DealGiven
    player: PlayerSpec
    detail: bool = False
    last: bool = False  # the game played last, kept in the history, instead of a file


def expert_hint(state: State, player: PlayerSpec) -> ExpertHint:
    """The position's evaluation at `player`'s strength: the one the meter, `moves` and `analyze` read too."""

    return ExpertHint(state, evaluator_of(player).evaluate(state))


def hint_for(request: HintRequest) -> Hinted | MoveHint | Problems:
    """`hint`: the ratings of a player that rates its moves, else the move the player makes (Forfeit, naming
    it, when it forfeits instead); the file's problems when it has some."""
    deal_alone = request.file is None and not request.last and request.deal != DealGiven()
    if deal_alone:  # `hint --seed N`: the deal's first card, as a player about to start it sees it
        seed, deck = request.deal
        if seed is not None and deck is not None:
            raise UsageError("give --seed or --deck, not both")
        game: Game | Problems = Game.from_seed(seed) if seed is not None else Game(deck or ())
    else:
        game = game_to_go_on(load_game(file_or_last(request.file, request.last), request.deal))
    if isinstance(game, Problems):
        return game
    player = request.player.build()
    if isinstance(player, ExpertPlayer):  # a player that rates its moves: built once, its evaluation shown
        began = time.perf_counter()
        hinted = ExpertHint(game.state, player.evaluate(game.state))
        took = time.perf_counter() - began
        why = PLAYOUTS_IN_USE.why_not_c
        return Hinted(hinted, request.detail, SlowPlayouts(took, why) if why is not None and took > 1.0 else None)
    return MoveHint(request.player.text, next_move(game, player, request.player.text))
