"""A Foursquare bot speaking the move protocol (SPEC section 7), standard library only.

Run it as a player: foursquare compare greedy "cmd:python3 examples/greedy_bot.py" --games 100
It reads one JSON state a line; when the game is being played it answers with the
placement that leaves the fewest face-down cards (the first such: empty cells, then
piles, each from A1 to D4), never a shift: the plain greedy (the built-in uses shifts).
"""

import json
import sys


def rank(card):
    return 1 if card[0] == "A" else int(card[:-1])


def face_down_after(cells, cell, new_rank):
    down = {i for i, pile in enumerate(cells) if pile and not pile["up"] and i != cell}
    for line in ([cell // 4 * 4 + c for c in range(4)], [r * 4 + cell % 4 for r in range(4)]):
        others = [i for i in line if i != cell and cells[i]]
        shown = [rank(cells[i]["card"]) for i in others if cells[i]["up"]]
        if not shown or new_rank > max(shown) or new_rank < min(shown):
            down ^= set(others)  # the line triggers: every other top card turns over
    return len(down)


def choose(state):
    cells = [pile for row in state["grid"] for pile in row]
    near = [{c - 4, c + 4} | ({c - 1} if c % 4 else set()) | ({c + 1} if c % 4 < 3 else set()) for c in range(16)]
    empty = [c for c in range(16) if not cells[c] and (not any(cells) or any(cells[n] for n in near[c] if 0 <= n < 16))]
    piles = [c for c in range(16) if cells[c] and cells[c]["height"] < 4]
    options = [(face_down_after(cells, c, rank(state["next"])), c) for c in empty + piles]
    cell = min(options, key=lambda option: option[0])[1]  # min keeps the first of the fewest
    return "ABCD"[cell % 4] + str(cell // 4 + 1) + (" top" if cells[cell] else "")


if __name__ == "__main__":
    for line in sys.stdin:
        state = json.loads(line)
        if state["status"] == "playing":
            print(choose(state), flush=True)
