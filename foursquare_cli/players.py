"""Players: a position in, a move out.

A player sees what a person at the table sees: the grid (every card was seen when
it was placed, so a face-down card may be remembered), the card in hand
(`state.next_card`) and, by elimination, which cards are still unseen. It must not
read the order of the stock (`state.deck` beyond the card in hand); `unseen_cards`
gives the set it may use instead.
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple, Protocol

from .cards import CARDS, Card
from .engine import MOVES, PLAYING, WON, Move, State


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


def greedy_move(state: State) -> Move:
    """The placement that leaves the fewest face-down cards; the first such in move order,
    so an empty cell is preferred to a pile (it saves a card). Shifts are never chosen."""
    card = state.deck[state.drawn]
    best = MOVES[0]
    fewest = 99
    for move in state.legal_moves():
        if move >= 32:
            break
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

    @property
    def win_rate(self) -> float:
        return self.wins / self.samples if self.samples else 0.0


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
        self._plan: tuple[tuple, Move] | None = None

    def choose(self, state: State) -> Move:
        key = _visible_key(state)
        if self._plan is not None and self._plan[0] == key:
            move = self._plan[1]
            self._plan = None
            return move
        best = self.rate(state)[0]
        if best.then is not None:
            after = state.copy()
            after.apply(best.move)
            self._plan = (_visible_key(after), best.then)
        return best.move

    def rate(self, state: State) -> list[Rating]:
        """Every candidate, best first, with its estimate (candidates dropped early have fewer samples)."""
        candidates = _candidates(state)
        if len(candidates) == 1:
            move, then, start = candidates[0]
            return [Rating(move, then, 0, 0, None)]
        rng = random.Random(f"{self.seed}:{_visible_key(state)}")
        unseen = unseen_cards(state)
        known = state.deck[: state.drawn + 1]
        totals = [0.0] * len(candidates)
        wins = [0] * len(candidates)
        scores = [0] * len(candidates)
        samples = [0] * len(candidates)
        alive = list(range(len(candidates)))
        for futures, keep in self.rounds:
            decks = []
            for _ in range(futures):
                rng.shuffle(unseen)
                decks.append(known + tuple(unseen))
            for index in alive:
                _, placement, start = candidates[index]
                for deck in decks:
                    future = start.copy()
                    future.deck = deck
                    future.apply(placement)
                    while future.status == PLAYING:
                        future.apply(greedy_move(future))
                    if future.status == WON:
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
        order = sorted(range(len(candidates)), key=lambda i: (-samples[i], -totals[i] / max(1, samples[i])))
        return [
            Rating(
                candidates[i][0],
                candidates[i][1] if candidates[i][0] >= 32 else None,
                wins[i],
                samples[i],
                scores[i] / wins[i] if wins[i] else None,
            )
            for i in order
        ]


def _position_key(state: State) -> tuple:
    """What decides the rest of a game on a known stock: suits never matter, so top ranks, not cards."""
    return (
        state.drawn,
        state.occupied,
        state.down,
        tuple(pile[-1] % 10 if pile else -1 for pile in state.piles),
        tuple(len(pile) for pile in state.piles),
    )


def _visible_key(state: State) -> tuple:
    return (
        state.drawn,
        state.occupied,
        state.down,
        tuple(pile[-1] if pile else -1 for pile in state.piles),
        tuple(len(pile) for pile in state.piles),
    )


# The cells a shift brings next to the layout: column A after `shift right`, and so on.
_OPENED = {32: range(12, 16), 33: range(0, 4), 34: range(3, 16, 4), 35: range(0, 16, 4)}


def _candidates(state: State) -> list[tuple[Move, Move, State]]:
    """(move to play now, the placement it leads to, the position that placement is made in)."""
    legal = state.legal_moves()
    candidates = [(move, move, state) for move in legal if move < 32]
    for shift in legal:
        if shift < 32:
            continue
        shifted = state.copy()
        shifted.apply(shift)
        for move in shifted.legal_moves():
            if move < 16 and move in _OPENED[shift]:
                candidates.append((shift, move, shifted))
    return candidates


PLAYERS: dict[str, type] = {"random": RandomPlayer, "greedy": GreedyPlayer, "expert": ExpertPlayer}


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


# -- the solver: a search that knows the whole stock ------------------------------


class Solution(NamedTuple):
    """What `solve` found: `winnable` (best score, proven or not, and its moves),
    `unwinnable` (an exhaustive search found no win) or `gave up` (budget spent, no win)."""

    status: str
    score: int | None
    proven: bool
    moves: list[Move]
    nodes: int
    seconds: float


WINNABLE, UNWINNABLE, GAVE_UP = "winnable", "unwinnable", "gave up"


class _OutOfBudget(Exception):
    pass


class _Budget:
    """Nodes (positions visited) and seconds a search may spend; `share` carves out a part."""

    def __init__(self, nodes: int | None, deadline: float | None, parent: _Budget | None = None) -> None:
        self.limit = nodes
        self.deadline = deadline
        self.parent = parent
        self.used = 0

    def spend(self, count: int = 1) -> None:
        self.used += count
        if self.parent is not None:
            self.parent.spend(count)
        if self.limit is not None and self.used >= self.limit:
            raise _OutOfBudget(self)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfBudget(self)

    def share(self, parts: int) -> _Budget:
        nodes = None if self.limit is None else max(1, (self.limit - self.used) // parts)
        now = time.perf_counter()
        deadline = None if self.deadline is None else now + (self.deadline - now) / parts
        return _Budget(nodes, deadline, parent=self)


def solve(
    deal_or_position: tuple[Card, ...] | State, budget: int | None = None, timeout: float | None = 10.0
) -> Solution:
    """The highest score on a known deck: a rollout search for a win, then fewest stacks first.

    Not a player: it reads the whole stock, so its result is an upper bound for any
    real player. Shifts are never needed: a game with shifts is the same game played
    in a translated frame, so placing each card where it ends up is enough.

    First, a rollout (pilot) search: at each turn every placement is followed by a
    greedy game on the true stock, and the one whose game ends best is played; that
    finds a win on nearly every deal. Then depth-first searches look for a better
    score, allowing 0 cards stacked (score 24), then 1 (23), and so on up to one
    fewer than the rollout needed; each gets an equal share of the nodes and time
    left, trying placements with the fewest face-down cards first and skipping
    positions (top ranks, face-down cards, heights, cards drawn) already searched. The
    first win found this way is the best score, proven when every level below it
    was searched to the end; time left over goes back to the levels abandoned. 24
    is best by definition. `budget` counts positions. A position may be given
    instead of a deck: the search starts there, its moves continuing that game.
    """
    root = deal_or_position if isinstance(deal_or_position, State) else State(deal_or_position)
    start_time = time.perf_counter()
    total = _Budget(budget, start_time + timeout if timeout is not None else None)
    best_score, best_line, proven = -1, list[Move](), False
    try:
        best_score, best_line = _rollout_search(root.copy(), total)
        least = root.drawn - root.occupied.bit_count()  # cards already stacked
        most = 24 - best_score - 1 if best_score >= 0 else 24
        abandoned = []
        for stacks in range(least, most + 1):
            found = _search_level(root, stacks, total.share(most + 1 - stacks))
            if found is _ABANDONED:
                abandoned.append(stacks)
            elif found is not None:
                best_score, best_line = 40 - root.drawn - len(found), found
                break
        # What is left goes to the levels abandoned below the best, fewest stacks first.
        for index, stacks in enumerate(list(abandoned)):
            found = _search_level(root, stacks, total.share(len(abandoned) - index))
            if found is not _ABANDONED:
                abandoned.remove(stacks)
                if found is not None:
                    best_score, best_line = 40 - root.drawn - len(found), found
                    abandoned = [level for level in abandoned if level < 24 - best_score]
                    break
        proven = not abandoned
    except _OutOfBudget:
        proven = False
    if best_score == 24:
        proven = True
    seconds = time.perf_counter() - start_time
    if best_score >= 0:
        return Solution(WINNABLE, best_score, proven, best_line, total.used, seconds)
    return Solution(UNWINNABLE if proven else GAVE_UP, None, proven, [], total.used, seconds)


def _greedy_finish(state: State) -> int:
    """Play greedily to the end; the score, or -1 for a loss."""
    while state.status == PLAYING:
        state.apply(greedy_move(state))
    return 40 - state.drawn if state.status == WON else -1


def _rollout_search(state: State, budget: _Budget) -> tuple[int, list[Move]]:
    """Play each turn the placement whose greedy continuation ends best; (score, moves) or (-1, [])."""
    line: list[Move] = []
    while state.status == PLAYING:
        best_move, best_value = None, None
        for move in state.legal_moves():
            if move >= 32:
                break
            future = state.copy()
            future.apply(move)
            budget.spend(41 - future.drawn)
            score = _greedy_finish(future)
            value = (score, -future.down.bit_count() if score < 0 else 0, future.occupied.bit_count())
            if best_value is None or value > best_value:
                best_move, best_value = move, value
        assert best_move is not None
        state.apply(best_move)
        line.append(best_move)
    if state.status == WON:
        return 40 - state.drawn, line
    return -1, []


_ABANDONED: list[Move] = []
_CROSS = tuple(
    sum(1 << c for c in range(16) if (c // 4 == cell // 4 or c % 4 == cell % 4) and c != cell) for cell in range(16)
)


def _stuck_face_down(state: State) -> bool:
    """With no card left to stack, is some face-down top beyond help?

    A top card turns only when a card is placed in its row or column (or on it).
    With no stacking, cards go only to empty cells: a face-down top with no empty
    cell in its row and column stays down, and the game cannot be won.
    """
    empty = ~state.occupied & 0xFFFF
    down = state.down
    while down:
        cell = (down & -down).bit_length() - 1
        if not _CROSS[cell] & empty:
            return True
        down &= down - 1
    return False


def _search_level(root: State, stacks: int, budget: _Budget) -> list[Move] | None:
    """Depth-first search for a win stacking at most `stacks` cards.

    The winning moves; None when there is none; `_ABANDONED` when `budget` ran out first.
    """
    line: list[Move] = []
    seen: set[tuple] = set()

    def search(state: State) -> list[Move] | None:
        budget.spend()
        key = _position_key(state)
        if key in seen:
            return None
        seen.add(key)
        may_stack = state.drawn - state.occupied.bit_count() < stacks
        if not may_stack and _stuck_face_down(state):
            return None
        card = state.deck[state.drawn]
        children = sorted(
            (state.down_after(move, card).bit_count(), move)
            for move in state.legal_moves()
            if move < 16 or (move < 32 and may_stack)
        )
        for face_down, move in children:
            if face_down > 4:
                break
            child = state.copy()
            child.apply(move)
            line.append(move)
            if child.status == WON:
                return list(line)
            if child.status == PLAYING:
                found = search(child)
                if found is not None:
                    return found
            line.pop()
        return None

    try:
        return search(root)
    except _OutOfBudget as error:
        if error.args[0] is not budget:
            raise
        return _ABANDONED
