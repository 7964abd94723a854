"""The tail table (issue 51, point 2): what a playout stopped after a few cards is worth, from the playouts themselves.

The expert of an install without a compiler rates each reply of its second ply on 200
futures, each played by the greedy policy to the end of the game. Most of a future's
noise is in its tail, the cards far from the move rated; and a playout's tail is what
costs the time. So those replies play each future `TAIL_CARDS` cards only, then read
here what the futures of such a position were worth on average: a table by the cards
drawn, the cards face down and the empty cells where the playout stopped, made by
playing the same greedy policy (filling first) to the end on many deals and counting,
for every position it passed, how the game then ended. Each cell holds three figures
in millionths: the mean worth of those futures (`players/futures.py`'s `future_worth`
at the expert's valuation, a loss counted `TAIL_CARDS` cards later than it came from
the stop), the share won, and the mean score (a loss counting 0). A cell no playout
passed (cards piled early, where the policy fills first) is worth 0.5, below any won
future, with neither a win nor a score: the search keeps away from where the policy never goes
(given the figures of the cells around it, the expert piled its cards: docs/figures.md).

Run (the command of docs/figures.md; writes the module the expert reads):
    python benchmarks/tail_table.py --deals 1000000 --out foursquare_cli/players/tail_table.py

The deals are futures of the seed `TABLE_SEED` (no deal number of any other run).
Asserts nothing; prints how many positions went into the table.
"""

from __future__ import annotations

import argparse
import base64
import pathlib
import sys
import time
import zlib

from foursquare_cli.players.futures import EXPERTS_VALUATION, worth_tables
from foursquare_cli.rules import playout
from foursquare_cli.rules.integer_playout import STOPPED, TAIL_CELLS, TAIL_UNITS, future_key, tail_cell

TAIL_CARDS = 6  # the cards a reply's future is played before the table's figures count for the rest
TABLE_SEED = 0x7A11_7AB1E  # the deals' seed: futures of a position no game has
NEVER_SEEN = (TAIL_UNITS // 2, 0, 0)  # worth, share won, score of a cell no playout passed
ALL_RANKS = bytes(sorted(rank for rank in range(1, 11) for _ in range(4)))


def collect(deals: int) -> list[list[int]]:
    """For each cell: positions seen, and the sums of their worth, wins and scores (in the table's units)."""
    won_worth, lost_worth = (
        [int.from_bytes(table[8 * i : 8 * i + 8], "little", signed=True) for i in range(len(table) // 8)]
        for table in worth_tables(EXPERTS_VALUATION)
    )
    sums = [[0, 0, 0, 0] for _ in range(TAIL_CELLS)]
    empty = bytes(16)
    for number in range(deals):
        stock = playout.future_stock(b"", ALL_RANKS, future_key(TABLE_SEED, number))
        score, end, _, _ = playout.finish_from(stock, 0, 0, 0, empty, empty, True)
        if score >= 0:
            worth, won, scored = won_worth[score], TAIL_UNITS, score * TAIL_UNITS
        for drawn in range(1, end):
            stopped, at, occupied, down = playout.finish_from(stock, 0, 0, 0, empty, empty, True, drawn)
            assert stopped == STOPPED and at == drawn
            if score < 0:
                worth, won, scored = lost_worth[min(40, TAIL_CARDS + end - drawn)], 0, 0
            cell = sums[tail_cell(drawn, occupied, down)]
            cell[0] += 1
            cell[1] += worth
            cell[2] += won
            cell[3] += scored
    return sums


def table_of(sums: list[list[int]]) -> bytes:
    """The table's bytes: each cell's means, rounded, three little-endian int32. A cell the policy never reached
    holds `NEVER_SEEN`: a worth of 0.5 (a won future's is 1 or more), neither a win nor a score, so the search
    keeps away from positions the playouts never lead to (cards piled where an empty cell was safe)."""
    out = bytearray()
    for seen, *totals in sums:
        means = [round(total / seen) for total in totals] if seen else list(NEVER_SEEN)
        for value in means:
            out += value.to_bytes(4, "little", signed=True)
    return bytes(out)


def module_text(table: bytes, deals: int, seen: int) -> str:
    packed = base64.b85encode(zlib.compress(table, 9)).decode("ascii")
    lines = "\n".join(f'        "{packed[i : i + 100]}"' for i in range(0, len(packed), 100))
    return f'''"""The tail table, written by `benchmarks/tail_table.py` (do not edit by hand): from {deals:,} deals
of the greedy policy filling first, {seen:,} positions. For each position a reply's playout may stop at
(`TAIL_CARDS` cards after its start), by cards drawn, face down and empty cells (`integer_playout.tail_cell`): the
mean worth of its futures at the expert's valuation, their share won and their mean score, in millionths, three
int32 (packed: zlib, then base 85).
"""

import base64
import zlib

TAIL_CARDS = {TAIL_CARDS}
TAIL_TABLE = zlib.decompress(
    base64.b85decode(
{lines}
    )
)
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--out", type=pathlib.Path)
    args = parser.parse_args()
    began = time.perf_counter()
    sums = collect(args.deals)
    seen = sum(cell[0] for cell in sums)
    took = time.perf_counter() - began
    print(f"{args.deals:,} deals, {seen:,} positions in {took:.0f} s ({playout.PLAYOUTS_IN_USE})", file=sys.stderr)
    text = module_text(table_of(sums), args.deals, seen)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
