"""Players: a position in, a move out.

A player sees what a person at the table sees: the grid (every card was seen when
it was placed, so a face-down card may be remembered), the card in hand
(`state.next_card`) and, by elimination, which cards are still unseen. It must not
read the order of the stock (`state.deck` beyond the card in hand); `unseen_cards`
gives the set it may use instead.
"""

from __future__ import annotations

import random
from typing import Protocol

from .cards import CARDS, Card
from .engine import LOST, WON, Move, State


class Player(Protocol):
    name: str

    def choose(self, state: State) -> Move:
        """The move to play in `state`, which is being played."""
        ...


def unseen_cards(state: State) -> list[Card]:
    """Cards a player has not seen yet: neither on the grid, under it, nor in hand."""
    seen = {card for pile in state.piles for card in pile}
    seen.add(state.deck[state.drawn])
    return [card for card in CARDS if card not in seen]


class RandomPlayer:
    """Uniform over the legal moves (shifts included)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self._rng.choice(state.legal_moves())


def greedy_key(after: State) -> tuple[int, int]:
    """Lower is better: a win first, a loss last, else the fewest face-down cards."""
    if after.status == WON:
        return (-1, 0)
    if after.status == LOST:
        return (1, 0)
    return (0, after.face_down)


class GreedyPlayer:
    """The placement that leaves the fewest face-down cards (the first such, in move order)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic

    def choose(self, state: State) -> Move:
        best: Move | None = None
        best_key = None
        for move in state.legal_moves():
            if move >= 32:
                continue
            after = state.copy()
            after.apply(move)
            key = greedy_key(after)
            if best_key is None or key < best_key:
                best, best_key = move, key
        assert best is not None, "a game in play always has a placement"
        return best


PLAYERS: dict[str, type] = {"random": RandomPlayer, "greedy": GreedyPlayer}


def make_player(name: str, seed: int = 0) -> Player:
    """A player by name; ValueError naming the choices for an unknown one."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"{name!r}: no such player; players are {', '.join(PLAYERS)}") from None
    return factory(seed)


def play_game(state: State, player: Player) -> list[Move]:
    """Let `player` play `state` to the end; the moves it made."""
    moves = []
    while not state.is_over:
        move = player.choose(state)
        state.apply(move)
        moves.append(move)
    return moves
