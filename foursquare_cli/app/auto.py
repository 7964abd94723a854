"""`auto`: a player plays a whole game, each step shown as it is played; its record written when asked (the
file checked before the game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..errors import Forfeit
from ..formats.records import format_record
from ..players import PlayerSpec, closing_programs, play_game
from ..rules.game import Game
from ..store.files import opened_record
from .opening import new_seed


class AutoRequest(NamedTuple):
    seed: int | None = None
    player: PlayerSpec = PlayerSpec()
    record: str | None = None
    force: bool = False


class DealtAtRandom(NamedTuple):
    """No deal was asked for: the one drawn, said so that it can be played again."""

    seed: int


def auto_game(request: AutoRequest, show: Callable[[object], None]) -> Game:
    """The player plays the deal to its end, the start and each step shown; Forfeit, naming the player, when
    it forfeits."""

    seed = request.seed
    if seed is None:
        seed = new_seed()
        show(DealtAtRandom(seed))
    name = request.player.text
    with opened_record(request.record, replace=request.force) as file, closing_programs():
        player = request.player.build()  # a player that cannot be built fails in one line, before any board
        game = Game.from_seed(seed, meta={"player": name.encode("utf-8", "replace").decode()})  # no lone surrogate
        show(game.step)
        forfeit = play_game(game, player, show)
        if forfeit is not None:
            raise Forfeit(f"{name} forfeits the game: {forfeit}")
        if file is not None:
            file.write(format_record(game))
    return game
