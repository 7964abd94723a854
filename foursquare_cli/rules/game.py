"""One game loop for every command: a deal, the moves that stand, and a `Step` per move.

`play`, `replay`, `check`, `auto`, `stats`, `solve` and the players all advance a
game through `Game.play`, and the printers consume the `Step`s it returns, so
"which card did this move place, what did it turn" is answered once, by the engine.
A `Game` never changes a `State` in place: each step holds the position after its
move, and undo is popping the last step.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, Protocol

from ..errors import InvalidInput
from .cards import Card, deal
from .engine import State
from .moves import Move


class NothingToUndo(InvalidInput):
    """`undo` at the start of a game."""


class Step(NamedTuple):
    """The position after a move: its ply (0 before any move), the move, the card it placed
    (None at ply 0 and for a shift), the cells it turned over (a mask), and the state."""

    ply: int
    move: Move | None
    card: Card | None
    turned: int
    state: State

    def to_json(self) -> dict[str, Any]:
        """The state as protocol.md section 5 gives it, keys in protocol.md's order: every key, face-down cards named
        (programs are trusted with the whole grid)."""
        state = self.state
        outcome = state.outcome
        next_card = state.next_card
        grid = []
        for row in range(4):
            cells: list[dict[str, Any] | None] = []
            for cell in range(row * 4, row * 4 + 4):
                pile = state.piles[cell]
                cells.append(
                    {"card": str(pile[-1]), "up": state.is_face_up(cell), "height": len(pile)} if pile else None
                )
            grid.append(cells)
        return {
            "ply": self.ply,
            "move": None if self.move is None else str(self.move),
            "card": None if self.card is None else str(self.card),
            "next": None if next_card is None else str(next_card),
            "stock": state.stock,
            "face_down": state.face_down,
            "status": str(outcome.status),
            "score": outcome.score,
            "grid": grid,
        }


class Player(Protocol):
    """Anything that chooses a move: the built-in players, Python classes, outside programs."""

    name: str

    def choose(self, state: State) -> Move:
        """The move to play in `state`, which is being played."""
        ...


class Game:
    """A game on a deal: its steps (one per move, after the start), undone moves counted."""

    def __init__(
        self,
        deck: Iterable[Card],
        seed: int | None = None,
        meta: dict[str, Any] | str | None = None,
        start: State | None = None,
    ) -> None:
        state = start.copy() if start is not None else State(deck)
        self.seed = seed
        self.meta = meta  # what a record keeps under `meta`: a mapping, or its text as read

        self.undos = 0
        self.hints = 0
        self.steps: list[Step] = [Step(0, None, None, 0, state)]

    @classmethod
    def from_seed(cls, seed: int, meta: dict[str, Any] | str | None = None) -> Game:
        return cls(deal(seed), seed=seed, meta=meta)

    @property
    def state(self) -> State:
        return self.steps[-1].state

    @property
    def step(self) -> Step:
        """The last step: the start, or the last move that stands."""
        return self.steps[-1]

    @property
    def deck(self) -> tuple[Card, ...]:
        return self.steps[0].state.deck

    @property
    def moves(self) -> list[Move]:
        return [step.move for step in self.steps[1:] if step.move is not None]

    @property
    def ply(self) -> int:
        return len(self.steps) - 1

    def play(self, move: Move) -> Step:
        """Play `move`; the step it makes. IllegalMoveError (nothing changes) if the rules forbid it."""
        state = self.steps[-1].state.copy()
        effect = state.apply(move)
        step = Step(len(self.steps), move, effect.card, effect.turned, state)
        self.steps.append(step)
        return step

    def play_all(self, moves: Iterable[Move]) -> None:
        for move in moves:
            self.play(move)

    def undo(self) -> Step:
        """Take back the last move (counted in `undos`); the step now current. ValueError at the start."""
        if len(self.steps) == 1:
            raise NothingToUndo("nothing to undo: no move has been played")
        self.steps.pop()
        self.undos += 1
        return self.steps[-1]


def play_out(game: Game, player: Player) -> Iterator[Step]:
    """Let `player` play `game` to its end, one step at a time.

    A player with an `observe(step)` method is shown the start and every step (an
    outside program needs the ply, the move and the card to speak the protocol).
    Whatever `choose` raises (an outside player's `Forfeit`) ends the game there;
    `players.play_game` is the loop that also reports the forfeit and closes programs.
    """
    observe = getattr(player, "observe", None)
    if observe is not None:
        observe(game.step)
    while not game.state.is_over:
        step = game.play(player.choose(game.state))
        if observe is not None:
            observe(step)
        yield step
