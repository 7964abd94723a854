"""`hint`: a player's move for the position at the end of a record; for a player that rates its moves (the
expert), every move's figures. The prompt's `hint` and the meter are the same ratings (`expert_hint`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..players import PlayerSpec, next_move
from ..players.expert import Rating, unsafe_next
from ..rules.engine import State
from ..rules.game import Step
from .loading import DealGiven, Problems, game_to_go_on, load_game


class ExpertHint(NamedTuple):
    """The expert's ratings of every move of a position, best first, and the risk after each."""

    state: State
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


class Hinted(NamedTuple):
    """A hint to show: the expert's ratings, the first paragraph (the moves in words) or, with `detail`, the
    figures behind them too."""

    hint: ExpertHint
    detail: bool

    def to_json(self) -> dict[str, Any]:
        return self.hint.to_json()


class MoveHint(NamedTuple):
    """The move a player that does not rate its moves would make."""

    player: str
    step: Step

    def to_json(self) -> dict[str, Any]:
        return {"move": str(self.step.move), "player": self.player, "ratings": []}


class HintRequest(NamedTuple):
    """What `hint` is asked: the record (or move log and its deal), the player, and how much to show."""

    file: str
    deal: DealGiven
    player: PlayerSpec
    detail: bool = False


def expert_hint(state: State, player: PlayerSpec, most: int | None = None) -> ExpertHint:
    """The expert's ratings of `state` at `player`'s seed and strength (the risk after the first `most`)."""
    from ..players.expert import ExpertPlayer

    ratings = ExpertPlayer.from_spec(player).rate(state)
    return ExpertHint(state, ratings, [unsafe_next(state, rating) for rating in ratings[:most]])


def hint_for(request: HintRequest) -> Hinted | MoveHint | Problems:
    """`hint`: the ratings of a player that rates its moves, else the move the player makes (Forfeit, naming
    it, when it forfeits instead); the file's problems when it has some."""
    game = game_to_go_on(load_game(request.file, request.deal))
    if isinstance(game, Problems):
        return game
    player = request.player.build()
    if hasattr(player, "rate"):
        return Hinted(expert_hint(game.state, request.player), request.detail)
    return MoveHint(request.player.name, next_move(game, player, request.player.name))
