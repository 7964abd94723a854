"""The greedy playout: the fast greedy policy on plain integers, the inner loop of every simulation.

Not a rule, but the flip rule run on integers instead of through `State.apply`,
so it lives beside the engine whose tables it uses (and tests hold the two
together). `greedy_choice` is the greedy player's move; `finish` plays that
policy to the end of the game from a position, without changing it, and returns
how the game ends as a value (`Playout`). The expert's futures are played by
`finish_from` with `fill_first`: the greedy order, but an empty cell whenever one
is safe, which wins far more often than the greedy player and so tells the
expert more about a position.

The integers themselves are played by `_playout.c`, or by its twin in Python,
`integer_playout`, where it was not built.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

from .cards import Card
from .engine import State, cornered
from .integer_playout import (
    START_BYTES,
    deal_python,
    finish_python,
    future_key,
    futures_python,
    greedy_pick,
    line_counts,
    safe_ranks_python,
)
from .moves import MOVES, Move
from .outcomes import Status
from .tables import RANK_OF_CARD


class Playout(NamedTuple):
    """How a greedy playout ended: the score (-1 for a loss), the cards drawn by then, and the
    occupied and face-down masks of the last position."""

    score: int
    drawn: int
    occupied: int
    down: int

    @property
    def won(self) -> bool:
        return self.score >= 0

    @property
    def status(self) -> Status:
        return Status.WON if self.score >= 0 else Status.LOST


def greedy_choice(state: State, fill_first: bool = False) -> tuple[Move | None, Move]:
    """The greedy policy's move: (the shift it needs or None, the placement).

    The policy (see `greedy_pick`): the placement leaving the fewest face-down
    cards, the layout free to shift; with `fill_first`, the expert's playouts' move.
    On an empty grid, B2.
    """
    occupied = state.occupied
    if not occupied:
        return None, MOVES[5]
    ranks = [RANK_OF_CARD[pile[-1]] if pile else 0 for pile in state.piles]
    heights = [len(pile) for pile in state.piles]
    lines = line_counts(occupied & ~state.down, ranks)
    rank = RANK_OF_CARD[state.deck[state.drawn]]
    _, cell, _, direction = greedy_pick(rank, occupied, state.down, ranks, heights, lines, fill_first)
    if direction >= 0:
        return MOVES[32 + direction], MOVES[cell]  # after the shift, the opened cell has the edge cell's number
    return None, MOVES[cell + 16 if occupied >> cell & 1 else cell]


def finish(state: State) -> Playout:
    """Play the greedy policy from `state` to the end of the game; `state` is left as it was.

    The moves of `greedy_choice`, run on plain integers instead of through `apply`
    (`finish_from`, in C when it was built).
    """
    if state.status is not Status.PLAYING:
        return Playout(40 - state.drawn if state.status is Status.WON else -1, state.drawn, state.occupied, state.down)
    return Playout(*finish_from(stock_of(state), *start_of(state)))


Start = tuple[int, int, int, bytes, bytes]  # drawn, occupied, down, the top rank and the height of every cell


def start_of(state: State) -> Start:
    """The integers `finish_from` starts from: the position's `key`, its ranks and heights as bytes."""
    drawn, occupied, down, ranks, heights = state.key()
    return drawn, occupied, down, bytes(ranks), bytes(heights)


def stock_of(state: State) -> bytes:
    """The rank of every card of the deck, in drawing order: the stock `finish_from` draws from."""
    return stock_of_cards(state.deck)


def stock_of_cards(cards: Iterable[Card]) -> bytes:
    """The ranks of `cards`, in their order."""
    return bytes(RANK_OF_CARD[card] for card in cards)


def safe_ranks_of(state: State) -> int:
    """The ranks that have a safe place in `state` (bit r set for rank r): a placement, beyond an edge included
    (the layout shifted), that leaves at most four face down. A card of another rank loses at once. On an empty
    grid every rank is safe."""
    _, occupied, down, ranks, heights = start_of(state)
    return safe_ranks(occupied, down, ranks, heights) if occupied else 0b11111111110


def position_seed(state: State) -> int:
    """The seed of a position's futures, from what a player sees of it, up to where the layout sits and the
    cards' suits: the grid slid to its corner (its cards placed, masks, top ranks and heights), the rank in hand,
    and how many unseen cards each rank has; mixed a byte at a time by splitmix64 (as `_playout.c` does), so the
    same position deals the same futures in every game, in C and in Python."""
    drawn, occupied, down, ranks, heights = start_of(cornered(state))
    card = state.next_card
    counts = state.unseen_by_rank()
    data = bytes([drawn]) + occupied.to_bytes(2, "little") + down.to_bytes(2, "little") + ranks + heights
    data += bytes([0 if card is None else card.rank, *counts])
    seed = 0x243F6A8885A308D3
    for byte in data:
        seed = future_key(seed ^ byte, 0)
    return seed


def candidate_record(state: State) -> bytes:
    """What `futures` needs of a candidate's position (the position after its move): its end, or its integers."""
    if state.is_over:
        score = state.outcome.score
        return bytes([1, 0] if score is None else [2, score]) + bytes(START_BYTES - 2)
    drawn, occupied, down, ranks, heights = start_of(state)
    return bytes([0, 0, drawn]) + occupied.to_bytes(2, "little") + down.to_bytes(2, "little") + ranks + heights


MAX_PLAYOUTS = 1_000_000
"""The largest budget the expert takes (futures a move): some 15 s a move in C, minutes in Python. A larger one
would only run until killed; options, settings and results files refuse it in one line."""


class PlayoutsInUse(NamedTuple):
    """Which playouts this install runs, for `--version` and `config`: "C", or "Python" and why not C."""

    language: str
    why_not_c: str | None = None


PYTHON_ONLY = "FOURSQUARE_PLAYOUTS"
"""Set to `python`, the playouts run in Python even where the C module was built: how the tests (and anyone
who wants to see it) run the path an install without a compiler takes."""

try:
    if os.environ.get(PYTHON_ONLY, "").lower() == "python":
        raise ImportError(f"{PYTHON_ONLY}=python asks for them")
    from ._playout import deal as _deal_c
    from ._playout import finish as _finish_c
    from ._playout import futures as _futures_c
    from ._playout import reply as _reply_c
    from ._playout import safe_ranks as _safe_ranks_c
    from ._playout import search_level as _search_level_c

    PLAYOUTS_IN_USE = PlayoutsInUse("C")
except ImportError as error:  # not built (no C compiler at install): the same playouts, some fifty times slower
    _finish_c = None  # type: ignore[assignment]
    _deal_c = None  # type: ignore[assignment]
    _safe_ranks_c = None  # type: ignore[assignment]
    _futures_c = None  # type: ignore[assignment]
    _reply_c = None  # type: ignore[assignment]
    _search_level_c = None  # type: ignore[assignment]
    if isinstance(error, ModuleNotFoundError) and error.name == f"{__package__}._playout":
        PLAYOUTS_IN_USE = PlayoutsInUse(
            "Python",
            "the C module was not built at install (no C compiler?); a binary wheel, or a reinstall with one, runs C",
        )
    elif not isinstance(error, ModuleNotFoundError) and str(error).startswith(PYTHON_ONLY):
        PLAYOUTS_IN_USE = PlayoutsInUse("Python", str(error))
    else:  # built, but it cannot be loaded (built for another Python, a missing symbol)
        PLAYOUTS_IN_USE = PlayoutsInUse("Python", f"the C module did not load: {error}")

ACCELERATED = _finish_c is not None
"""Whether the playouts run in C (`_playout.c`, built at install when a C compiler is there)."""

future_stock = _deal_c if _deal_c is not None else deal_python
"""`future_stock(seen, unseen, key) -> bytes`: the ranks `seen`, then those `unseen` in an order drawn from the
64-bit `key` (the same order in C and in Python): a future's stock for `finish_from`."""

finish_from = _finish_c if _finish_c is not None else finish_python
"""`finish_from(stock, drawn, occupied, down, top_ranks, top_heights, fill_first=False) -> (score, drawn,
occupied, down)`: the greedy playout (`fill_first`: the expert's, see `greedy_pick`) from the integers of
`start_of` on the ranks of `stock_of`; the score is -1 for a loss."""

futures = _futures_c if _futures_c is not None else futures_python
"""`futures(seen, unseen, seed, first, count, starts, fill_first, won_worth, lost_worth) -> bytes`: a position's
futures `first` to `first + count - 1` (`future_key`) played by each candidate of `starts` (`candidate_record`s);
three int64 a candidate, little-endian: the futures won, their scores summed, their worth summed (in the units of
`won_worth`, 25 int64 by score, and `lost_worth`, 41 int64 by the cards placed until the loss). In C, without
the interpreter's lock: two threads play at once."""

reply_in_c = _reply_c
"""`reply(occupied, down, drawn, ranks, heights, hand, unseen, playouts, fill_first, won_worth, lost_worth, second,
second_playouts) -> (value, won, scored)`: the expert's search of a position whose card in hand has rank `hand`,
its best `second` looked at again over the next card on one ply of `second_playouts`, all in C: its best move's
mean worth, share won and score (its twin in Python is `ExpertPlayer.evaluate`: a test holds the two to the same
figures); None without the C module."""

search_level_in_c = _search_level_c
"""`search_level(stock, occupied, down, drawn, ranks, heights, stacks, limit, seconds) -> (moves, nodes, stopped)`:
the solver's depth-first search of one level (`solver._search_level`, its twin in Python), on the ranks of the
whole stock: the winning line's move codes or None, the positions visited, and 0 (searched to the end), 1 (`limit`
positions visited) or 2 (`seconds` passed); -1 for no limit. None without the C module."""

safe_ranks = _safe_ranks_c if _safe_ranks_c is not None else safe_ranks_python
"""`safe_ranks(occupied, down, top_ranks, top_heights) -> int`: bit r (1-10) set when a card of rank r has a
placement leaving at most four face down (the layout free to shift); the grid must hold a pile."""
