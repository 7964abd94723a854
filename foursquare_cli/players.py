"""Players: a position in, a move out.

A player sees what a person at the table sees: the grid (every card was seen when
it was placed, so a face-down card may be remembered), the card in hand
(`state.next_card`) and, by elimination, which cards are still unseen
(`state.unseen_cards()`). It must not read the order of the stock; when it needs
futures, `state.redealt(rng)` gives positions whose unseen cards are shuffled anew.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .engine import PLAYING, WON, Move, State, play
from .game import BUILT_IN_PLAYERS, Player


class RandomPlayer:
    """Uniform over the legal moves (shifts included)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self._rng.choice(state.legal_moves())


def greedy_move(state: State) -> Move:
    """The placement that leaves the fewest face-down cards; the first such in move order,
    so an empty cell is preferred to a pile (it saves a card). Shifts are never chosen."""
    card = state.deck[state.drawn]
    placements = state.legal_placements()
    best = placements[0]
    fewest = 99
    for move in placements:
        face_down = state.down_after(move, card).bit_count()
        if face_down < fewest:
            best, fewest = move, face_down
    return best


class GreedyPlayer:
    """Fewest face-down cards after the move; the first such placement in move order."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic

    def choose(self, state: State) -> Move:
        return greedy_move(state)


class Rating(NamedTuple):
    """The expert's estimate for one move: how often its sampled futures were won, and their mean score."""

    move: Move
    then: Move | None  # the placement a shift is played for
    wins: int
    samples: int
    mean_score: float | None  # over the won futures
    value: float = 0.0  # what the expert ranks by: the mean of 100 + score for a won future, fill/100 for a lost one

    @property
    def win_rate(self) -> float:
        return self.wins / self.samples if self.samples else 0.0


class Candidate(NamedTuple):
    """A move the expert weighs: `move` now, and `placement`, the card's cell (after a shift: the next move)."""

    move: Move
    placement: Move


# Successive halving: (futures sampled this round, candidates kept after it).
EXPERT_ROUNDS = ((8, 4), (16, 2), (32, 1))


class ExpertPlayer:
    """Monte Carlo over what it cannot see, with successive halving of the candidates.

    For each candidate placement it samples orders of the unseen cards (the same
    orders for every candidate), plays each future out with the greedy policy, and
    scores a won future 100 + its score and a lost one by how full its grid got, so
    it plays to win first and then for the highest score. After each round only the
    best candidates go on to more futures (EXPERT_ROUNDS). Shifts are weighed where
    they open cells beyond an edge the layout touches; choosing one, the expert
    remembers the placement it was played for.

    It knows the grid (face-down cards included: it saw them placed), the card in
    hand and the cards drawn so far; never the order of the stock. Its samples are
    seeded by its own seed and the visible position, so its moves are deterministic.
    """

    name = "expert"

    def __init__(self, seed: int = 0, rounds: tuple[tuple[int, int], ...] = EXPERT_ROUNDS) -> None:
        self.seed = seed
        self.rounds = rounds
        self._plan: tuple[object, Move] | None = None

    def choose(self, state: State) -> Move:
        key = _visible_key(state)
        if self._plan is not None and self._plan[0] == key:
            move = self._plan[1]
            self._plan = None
            return move
        best = self.rate(state)[0]
        if best.then is not None:
            self._plan = (_visible_key(play(state, best.move)), best.then)
        return best.move

    def rate(self, state: State) -> list[Rating]:
        """Every candidate, best first: most futures first (the survivors of the halving), then by value."""
        candidates = candidates_of(state)
        if len(candidates) == 1:
            only = candidates[0]
            return [Rating(only.move, only.placement if only.move.is_shift else None, 0, 0, None)]
        rng = random.Random(f"{self.seed}:{_visible_key(state)}")
        count = len(candidates)
        totals = [0.0] * count
        wins = [0] * count
        scores = [0] * count
        samples = [0] * count
        alive = list(range(count))
        for futures, keep in self.rounds:
            sampled = [state.redealt(rng) for _ in range(futures)]
            for index in alive:
                move, placement = candidates[index]
                for start in sampled:
                    future = start.copy()
                    if move.is_shift:
                        future.apply(move)
                    future.apply(placement)
                    while future.status is PLAYING:
                        future.apply(greedy_move(future))
                    if future.status is WON:
                        totals[index] += 100 + 40 - future.drawn
                        wins[index] += 1
                        scores[index] += 40 - future.drawn
                    else:
                        totals[index] += future.occupied.bit_count() / 100
                    samples[index] += 1
            alive.sort(key=lambda i: -totals[i] / samples[i])
            alive = alive[:keep]
            if len(alive) == 1:
                break
        order = sorted(range(count), key=lambda i: (-samples[i], -totals[i] / max(1, samples[i])))
        return [
            Rating(
                candidates[i].move,
                candidates[i].placement if candidates[i].move.is_shift else None,
                wins[i],
                samples[i],
                scores[i] / wins[i] if wins[i] else None,
                totals[i] / samples[i] if samples[i] else 0.0,
            )
            for i in order
        ]


def _visible_key(state: State) -> tuple[object, ...]:
    """The position as the player sees it: the engine's key and the card in hand."""
    return (state.key(), state.next_card)


def candidates_of(state: State) -> list[Candidate]:
    """Every placement, and every shift with each placement on the edge it opens."""
    placements = state.legal_placements()
    candidates = [Candidate(move, move) for move in placements]
    for shift in state.legal_moves()[len(placements) :]:
        shifted = play(state, shift)
        opened = shift.opened_cells
        candidates.extend(
            Candidate(shift, move) for move in shifted.legal_placements() if not move.on_top and move.cell in opened
        )
    return candidates


PLAYERS: dict[str, type[RandomPlayer] | type[GreedyPlayer] | type[ExpertPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
}
PLAYER_NAMES = ", ".join(PLAYERS)
assert tuple(PLAYERS) == BUILT_IN_PLAYERS


def make_player(name: str, seed: int = 0) -> Player:
    """A player by name (any case); ValueError naming the choices for an unknown one."""
    factory = PLAYERS.get(name.lower())
    if factory is None:
        raise ValueError(f"{name!r}: no such player; players are {PLAYER_NAMES}")
    return factory(seed)
