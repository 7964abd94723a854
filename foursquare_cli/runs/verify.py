"""`summarize --verify`: a game's line checked against the player it names, by asking that player again.

Every line proves that its moves are legal on its deal and give its result
(`results.checked_result`), but not that the player it names chose them: a file whose
`greedy` games and plan are renamed `random` passes that check. A player of this
package whose class says its moves follow from the position and its seed alone, the
same on every machine and build (`REPLAYABLE`), is built again as the run built it
for the deal (`PlayerSpec.for_deal`) and asked for each move of the line in turn; the
first move it would not make refuses the line with file:line. The others (an outside
program or class, a player whose moves depend on the build or on the clock, as the
expert's do) cannot be asked again: their games are counted as not replayed.
"""

from __future__ import annotations

from ..errors import InvalidInput
from ..players import PlayerKind, PlayerSpec
from ..players.registry import registered
from ..rules.game import Game
from ..rules.moves import Move
from .stats import GameResult


def replayable(player: PlayerSpec) -> bool:
    """Whether this tool can make `player`'s moves again, the same as when its games were played."""
    if player.kind is not PlayerKind.REGISTERED:
        return False
    found = registered(player.name.partition(":")[0])
    return found is not None and found.ours and getattr(found.factory(), "REPLAYABLE", False) is True


def replay_moves(player: PlayerSpec, result: GameResult, where: str) -> None:
    """InvalidInput (`where` is file:line) unless `player`, seeded for the deal, makes each move of `result`."""
    game = Game.from_seed(result.dealt_from)
    built = player.for_deal(result.seed).build()
    for number, text in enumerate(result.played, start=1):
        chosen = str(built.choose(game.state))
        if chosen != text:
            raise InvalidInput(
                f"deal {result.seed} of {player.text}: move {number} is {text}, but {player.text} with player seed "
                f"{player.seed} plays {chosen} there; the line is not its game",
                path=where,
            )
        game.play(Move.from_str(text))
