"""The solver: a search that knows the whole stock. Not a player.

It reads the order of the stock, so a best it proves is an upper bound for any real
player: the best score the deal allows. A best not proven is only the best line found
in the budget, knowing the stock: a player (the expert too) may score more.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import FoursquareError
from ..rules import playout
from ..rules.cards import Card
from ..rules.engine import State
from ..rules.game import Game
from ..rules.moves import MOVES, IllegalMoveError, Move
from ..rules.outcomes import PLAYING, WON

# The most positions remembered per search level; when full, the table is emptied
# (a search then revisits positions, never wrongly skips one). About 100 MB at most.
TABLE_SIZE = 1_000_000
SOLVE_BUDGET = 500_000
"""Positions a search visits by default (`solve`, `analyze`, the end of a game): a count of work, not seconds, so
a deal gets the same answer on every machine, however busy, and with C or without (about 0.1 s in C, 9 s in
Python, here)."""


class SolveStatus(enum.StrEnum):
    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    GAVE_UP = "gave up"


class Limit(enum.StrEnum):
    """What stopped a search before it was complete."""

    NODES = "nodes"
    TIME = "time"


WINNABLE, UNWINNABLE, GAVE_UP = SolveStatus.WINNABLE, SolveStatus.UNWINNABLE, SolveStatus.GAVE_UP


class Solution(NamedTuple):
    """What `solve` found: `winnable` (best score, proven or not, and its moves),
    `unwinnable` (an exhaustive search found no win) or `gave up` (stopped, no win).
    `stopped_by` names the limit that cut the search short, if one did."""

    status: SolveStatus
    score: int | None
    proven: bool
    moves: list[Move]
    nodes: int
    seconds: float
    stopped_by: Limit | None = None


class _OutOfBudget(FoursquareError):
    def __init__(self, budget: _Budget, limit: Limit) -> None:
        super().__init__(limit)
        self.budget, self.limit = budget, limit


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
            raise _OutOfBudget(self, Limit.NODES)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfBudget(self, Limit.TIME)

    def spend_freely(self, count: int) -> None:
        """Count `count` positions a search visited and finished within its limits (no limit checked again)."""
        for budget in self._chain():
            budget.used += count

    def nodes_left(self) -> int | None:
        """The positions a search may still visit under this budget and every budget it is a share of."""
        left = [budget.limit - budget.used for budget in self._chain() if budget.limit is not None]
        return min(left) if left else None

    def seconds_left(self) -> float | None:
        """The seconds a search may still take under this budget and every budget it is a share of."""
        deadlines = [budget.deadline for budget in self._chain() if budget.deadline is not None]
        return max(0.0, min(deadlines) - time.perf_counter()) if deadlines else None

    def _chain(self) -> list[_Budget]:
        chain: list[_Budget] = []
        budget: _Budget | None = self
        while budget is not None:
            chain.append(budget)
            budget = budget.parent
        return chain

    def share(self, parts: int) -> _Budget:
        nodes = None if self.limit is None else max(1, (self.limit - self.used) // parts)
        now = time.perf_counter()
        deadline = None if self.deadline is None else now + (self.deadline - now) / parts
        return _Budget(nodes, deadline, parent=self)


def solve(
    deal_or_position: tuple[Card, ...] | State,
    budget: int | None = SOLVE_BUDGET,
    timeout: float | None = None,
    known: Sequence[Sequence[Move]] = (),
) -> Solution:
    """The highest score on a known deck: the best of the lines `known` (a game played on it, the player's own
    or the expert's: its best is never below a score played), a rollout search for a win, then fewest stacks
    first.

    Shifts are never needed: a game with shifts is the same game played in a
    translated frame, so placing each card where it ends up is enough.

    First, a rollout (pilot) search: at each turn every placement is followed by a
    greedy game on the true stock, and the one whose game ends best is played; that
    finds a win on nearly every deal. Then depth-first searches look for a better
    score, allowing 0 cards stacked (score 24), then 1 (23), and so on up to one
    fewer than the rollout needed; each gets an equal share of the nodes and time
    left, trying placements with the fewest face-down cards first and skipping
    positions already searched (`State.key`, at most TABLE_SIZE remembered). The
    first win found this way is the best score, proven when every level below it
    was searched to the end; time left over goes back to the levels abandoned. 24
    is best by definition. `budget` counts positions (the default: `SOLVE_BUDGET`), so the
    answer is the same on any machine; `timeout`, in seconds, only when asked (then it
    depends on the machine), and finite. A position may be given instead of a deck: the search starts
    there, its moves continuing that game, and tries every place the layout can be
    slid to (a win may need the layout elsewhere in the frame), each with a share.
    """
    if timeout is not None and not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"{timeout!r}: a time limit is a finite number of seconds above 0")
    if budget is not None and budget < 1:
        raise ValueError(f"{budget!r}: a node budget is a whole number from 1")
    root = deal_or_position if isinstance(deal_or_position, State) else State(deal_or_position)
    start_time = time.perf_counter()
    total = _Budget(budget, start_time + timeout if timeout is not None else None)
    frames = translations(root)
    best_score, best_line = _best_known(root, known)
    proven, stopped_by = True, None
    try:
        for index, (path, frame) in enumerate(frames):
            share = total if len(frames) == 1 else total.share(len(frames) - index)
            score, line, frame_proven, limit = _solve_frame(frame, share, best_score)
            if score > best_score:
                best_score, best_line = score, path + line
            if not frame_proven:
                proven, stopped_by = False, stopped_by or limit
            if best_score == 24:
                break
    except _OutOfBudget as error:
        proven, stopped_by = False, error.limit
    if best_score == 24:
        proven = True
    if proven:
        stopped_by = None
    seconds = time.perf_counter() - start_time
    if best_score >= 0:
        return Solution(WINNABLE, best_score, proven, best_line, total.used, seconds, stopped_by)
    return Solution(UNWINNABLE if proven else GAVE_UP, None, proven, [], total.used, seconds, stopped_by)


def translations(root: State) -> list[tuple[list[Move], State]]:
    """Every place the layout can be slid to in the frame, with the shifts that take it there.

    A winning grid fills the whole frame, so choosing where the layout will end up
    and then only placing is enough: the search tries each of these frames.
    """
    found: dict[int, tuple[list[Move], State]] = {root.occupied: ([], root)}
    queue = [root.occupied]
    while queue:
        path, state = found[queue.pop(0)]
        for move in state.legal_moves()[len(state.legal_placements()) :]:
            shifted = state.copy()
            shifted.apply(move)
            if shifted.occupied not in found:
                found[shifted.occupied] = (path + [move], shifted)
                queue.append(shifted.occupied)
    return list(found.values())


def _best_known(root: State, known: Sequence[Sequence[Move]]) -> tuple[int, list[Move]]:
    """The best score among the lines `known` that win from `root` (a line that does not is ignored), and its
    moves; -1 and none when none does."""
    best_score, best_line = -1, list[Move]()
    for line in known:
        state = root.copy()
        try:
            for move in line:
                state.apply(move)
        except IllegalMoveError:
            continue
        if state.status is WON and 40 - state.drawn > best_score:
            best_score, best_line = 40 - state.drawn, list(line)
    return best_score, best_line


def _solve_frame(root: State, budget: _Budget, floor: int = -1) -> tuple[int, list[Move], bool, Limit | None]:
    """The search in one frame for a score above `floor` (one already known): (best score or -1, its moves,
    proven, the limit that cut it short)."""
    best_score, best_line, proven = -1, list[Move](), False
    stopped_by: Limit | None = None
    try:
        best_score, best_line = _rollout_search(root.copy(), budget)
        if floor > best_score:
            best_score, best_line = floor, []  # the known line (the caller's) leads: look only above it
        least = root.drawn - root.occupied.bit_count()  # cards already stacked
        most = 24 - best_score - 1 if best_score >= 0 else 24
        abandoned: list[int] = []
        for stacks in range(least, most + 1):
            found = _search_level(root, stacks, budget.share(most + 1 - stacks))
            if isinstance(found, Limit):
                abandoned.append(stacks)
                stopped_by = found
            elif found is not None:
                best_score, best_line = 40 - root.drawn - len(found), found
                break
        # What is left goes to the levels abandoned below the best, fewest stacks first.
        for index, stacks in enumerate(list(abandoned)):
            found = _search_level(root, stacks, budget.share(len(abandoned) - index))
            if not isinstance(found, Limit):
                abandoned.remove(stacks)
                if found is not None:
                    best_score, best_line = 40 - root.drawn - len(found), found
                    abandoned = [level for level in abandoned if level < 24 - best_score]
                    break
            else:
                stopped_by = found
        proven = not abandoned
    except _OutOfBudget as error:
        if error.budget is not budget:
            raise
        proven, stopped_by = False, error.limit
    return best_score, best_line, proven, stopped_by


def winning_game(cards: tuple[Card, ...], seed: int | None, solution: Solution) -> Game | None:
    """The winning line as a game on its deal (`meta: player: solve`), ready to record; None without one."""
    if not solution.moves:
        return None
    game = Game(cards, seed=seed, meta={"player": "solve"})
    game.play_all(solution.moves)
    return game


def _rollout_search(state: State, budget: _Budget) -> tuple[int, list[Move]]:
    """Play each turn the placement whose greedy continuation ends best; (score, moves) or (-1, [])."""
    line: list[Move] = []
    while state.status is PLAYING:
        best_move, best_value = None, None
        for move in state.legal_placements():
            future = state.copy()
            future.apply(move)
            cost, left = 41 - future.drawn, budget.nodes_left()  # a rollout's positions, counted before it runs:
            budget.spend(cost if left is None else min(cost, left))  # one past the budget is cut at the budget
            end = playout.finish(future)  # the greedy player's game, on integers
            value = (end.score, -end.down.bit_count() if end.score < 0 else 0, end.occupied.bit_count())
            if best_value is None or value > best_value:
                best_move, best_value = move, value
        assert best_move is not None
        state.apply(best_move)
        line.append(best_move)
    if state.status is WON:
        return 40 - state.drawn, line
    return -1, []


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


def _search_level(root: State, stacks: int, budget: _Budget) -> list[Move] | Limit | None:
    """Depth-first search for a win stacking at most `stacks` cards.

    The winning moves; None when there is none; the `Limit` that ran out first otherwise.
    """
    line: list[Move] = []
    seen: set[int] = set()

    def search(state: State) -> list[Move] | None:
        budget.spend()
        key = hash(state.key())
        if key in seen:
            return None
        if len(seen) >= TABLE_SIZE:
            seen.clear()
        seen.add(key)
        may_stack = state.drawn - state.occupied.bit_count() < stacks
        if not may_stack and _stuck_face_down(state):
            return None
        card = state.deck[state.drawn]
        children = sorted(
            (state.down_after(move, card).bit_count(), move)
            for move in state.legal_placements()
            if may_stack or not move.on_top
        )
        for face_down, move in children:
            if face_down > 4:
                break
            child = state.copy()
            child.apply(move)
            line.append(move)
            if child.status is WON:
                return list(line)
            if child.status is PLAYING:
                found = search(child)
                if found is not None:
                    return found
            line.pop()
        return None

    try:
        if playout.search_level_in_c is not None:
            return _search_level_in_c(root, stacks, budget)
        return search(root)
    except _OutOfBudget as error:
        if error.budget is not budget:
            raise
        return error.limit
    finally:
        # `search` refers to itself, a cycle the garbage collector reaches late: free the table now,
        # or every level's table stays alive and memory grows with the time searched.
        seen.clear()


C_NODES_MAX = 2**62  # a budget the C search's counter holds: centuries of search, so a larger one is the same


def _search_level_in_c(root: State, stacks: int, budget: _Budget) -> list[Move] | None:
    """`_search_level`'s search run by the C module, node for node (a test holds the two to the same lines and
    counts): some thirty times faster, so the end of a game, `solve` and `analyze` wait less. The nodes it
    visited are then spent from `budget`, which raises as the Python search would have at its last node."""
    assert playout.search_level_in_c is not None
    nodes, seconds = budget.nodes_left(), budget.seconds_left()
    drawn, occupied, down, ranks, heights = playout.start_of(root)
    moves, visited, stopped = playout.search_level_in_c(
        playout.stock_of(root),
        occupied,
        down,
        drawn,
        ranks,
        heights,
        stacks,
        -1 if nodes is None else min(nodes, C_NODES_MAX),
        -1.0 if seconds is None else seconds,
    )
    if not stopped:
        budget.spend_freely(visited)
    else:
        budget.spend(visited)  # the clocks of C and Python may differ by a hair: the limit C met is the limit
        raise _OutOfBudget(budget, Limit.NODES if stopped == 1 else Limit.TIME)
    return None if moves is None else [MOVES[code] for code in moves]
