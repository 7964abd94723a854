"""The printers: pure functions from a position to text.

`render` draws the ASCII board for people; `state_json` is the JSON state of SPEC
section 5 for programs (every card named, face-down ones too).

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
    face_down = f"Face down: {state.face_down} of {MAX_FACE_DOWN} allowed"
    return f"Next card: {shown}   Stock: {state.stock}   {face_down}   {verdict}"


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


def render_step(
    state: State,
    ply: int,
    move: object = None,
    card: Card | None = None,
    *,
    reveal: bool = False,
    unicode: bool = False,
) -> str:
    """A heading (`Start`, `Move 3: B2 places 7H`, `Move 4: shift up`) over the board."""
    if ply == 0:
        heading = "Start"
    elif card is None:
        heading = f"Move {ply}: {move}"
    else:
        heading = f"Move {ply}: {move} places {card_text(card, unicode)}"
    return heading + "\n" + render(state, reveal=reveal, unicode=unicode)


def state_block(
    state: State,
    ply: int,
    move: object = None,
    card: Card | None = None,
    *,
    json_output: bool = False,
    reveal: bool = False,
    unicode: bool = False,
) -> str:
    """One state as `replay` and `play` print it: a JSON line, or a board after a blank line."""
    if json_output:
        import json

        return json.dumps(state_json(state, ply, move, card), separators=(",", ":")) + "\n"
    return ("\n" if ply else "") + render_step(state, ply, move, card, reveal=reveal, unicode=unicode) + "\n"


def state_json(state: State, ply: int, move: object = None, card: Card | None = None) -> dict:
    """The state as SPEC section 5 gives it, keys in the spec's order."""
    outcome = state.outcome
    next_card = state.next_card
    grid = []
    for row in range(4):
        cells = []
        for cell in range(row * 4, row * 4 + 4):
            pile = state.piles[cell]
            cells.append({"card": str(pile[-1]), "up": state.is_face_up(cell), "height": len(pile)} if pile else None)
        grid.append(cells)
    return {
        "ply": ply,
        "move": None if move is None else str(move),
        "card": None if card is None else str(card),
        "next": None if next_card is None else str(next_card),
        "stock": state.stock,
        "face_down": state.face_down,
        "status": outcome.status,
        "score": outcome.score,
        "grid": grid,
    }


def hint_text(ratings: list, limit: int = 6) -> str:
    """The expert's move and how it rated the alternatives, best first."""
    best = ratings[0]
    if not best.samples:
        return f"Hint: {best.move} (the only move)"
    lines = [f"Hint: {best.move}" + (f" (to play {best.then} next)" if best.then is not None else "")]
    lines.append("  move              won futures   mean score of wins")
    for rating in ratings[:limit]:
        name = str(rating.move) + (f", {rating.then}" if rating.then is not None else "")
        score = f"{rating.mean_score:.1f}" if rating.mean_score is not None else "-"
        lines.append(f"  {name:<17} {rating.wins:>3}/{rating.samples:<3} {rating.win_rate:>4.0%}   {score}")
    if len(ratings) > limit:
        lines.append(f"  ... and {len(ratings) - limit} more, each won less often")
    return "\n".join(lines)
