"""The ASCII board: a pure function from a position to text, for people.

Example (a position of the worked example, SPEC section 6)::

          A        B        C        D
      +--------+--------+--------+--------+
    1 |   .    |  2C x1 |  8C x1 |   .    |
      +--------+--------+--------+--------+
    2 |  ## x1 |  AD x2 |  ## x1 |  ## x1 |
      +--------+--------+--------+--------+
    3 |   .    |   .    |   .    |   .    |
      +--------+--------+--------+--------+
    4 |   .    |   .    |   .    |   .    |
      +--------+--------+--------+--------+
    Next card: 9S   Stock: 33   Face down: 3 of 4 allowed   Playing
    (## = face down, xN = cards in the pile, . = empty)

A face-down card is `##` unless `reveal` is set, then `#` and its name (`#7H`).
"""

from __future__ import annotations

from .cards import Card
from .engine import MAX_FACE_DOWN, WON, State

_RULE = "  +" + "--------+" * 4
_HEADER = "      A        B        C        D"
LEGEND = "(## = face down, xN = cards in the pile, . = empty)"
LEGEND_REVEALED = "(#7H = face down, xN = cards in the pile, . = empty)"


def card_text(card: Card, unicode: bool = False) -> str:
    return card.symbol() if unicode else str(card)


def _cell_text(state: State, cell: int, reveal: bool, unicode: bool) -> str:
    pile = state.piles[cell]
    if not pile:
        return "   .    "
    if state.is_face_up(cell):
        name = card_text(pile[-1], unicode)
    elif reveal:
        name = "#" + card_text(pile[-1], unicode)
    else:
        name = "##"
    return f"{name:>4} x{len(pile)} "


def status_line(state: State, unicode: bool = False) -> str:
    """Next card, stock, face-down count and status, on one line."""
    outcome = state.outcome
    next_card = state.next_card
    shown = card_text(next_card, unicode) if next_card is not None else "-"
    if outcome.status == WON:
        verdict = f"Won, score {outcome.score}"
    elif outcome.reason:
        verdict = f"Lost: {outcome.reason}"
    else:
        verdict = "Playing"
    return f"Next card: {shown}   Stock: {state.stock}   Face down: {state.face_down} of {MAX_FACE_DOWN} allowed   {verdict}"


def render(state: State, *, reveal: bool = False, unicode: bool = False) -> str:
    """The whole board with its status line and legend, without a final newline."""
    lines = [_HEADER, _RULE]
    for row in range(4):
        cells = "|".join(_cell_text(state, row * 4 + column, reveal, unicode) for column in range(4))
        lines.append(f"{row + 1} |{cells}|")
        lines.append(_RULE)
    lines.append(status_line(state, unicode))
    lines.append(LEGEND_REVEALED if reveal else LEGEND)
    return "\n".join(lines)
