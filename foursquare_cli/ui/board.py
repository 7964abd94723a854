"""The board for people: pure functions from a position (or a step) to text.

`render` draws the ASCII board; `render_step` adds the heading that names what a
move turned. The texts of the commands are in their own modules (`records_text`,
`play_text`, ...), which draw boards with these.

A board after `B2 top` in the worked example (protocol.md section 6)::

          A        B        C        D
      +--------+--------+--------+--------+
    1 |   .    |  2C*x1 |  8C x1 |   .    |
      +--------+--------+--------+--------+
    2 |  ##*x1 | [AD]x2 |  ##*x1 |  ##*x1 |
      +--------+--------+--------+--------+
    3 |   .    |   .    |   .    |   .    |
      +--------+--------+--------+--------+
    4 |   .    |   .    |   .    |   .    |
      +--------+--------+--------+--------+
    Next card: 9S   Stock: 33   Face down: 3 of 4 allowed   Playing

`[AD]` is the card just placed, `*` a card just turned over, `##` a face-down card
(`#7H` with `reveal`), `xN` the cards in the pile. With colour (a `Style` that
has it), hearts and diamonds are red, face-down cells dim and the move's cells
bold; the text is the same, so the layout never moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..rules.cards import RANK_NAMES, Card
from ..rules.engine import State, state_after
from ..rules.game import Step
from ..rules.moves import Move, cells_of
from ..rules.outcomes import LossReason, Status
from ..rules.tables import MAX_FACE_DOWN

if TYPE_CHECKING:
    from ..players.evaluation import Evaluation

_RULE = "  +" + "--------+" * 4
_HEADER = "      A        B        C        D"


class Style(NamedTuple):
    """How a board is drawn: face-down cards named (`reveal`), suit symbols (`unicode`), ANSI colour."""

    reveal: bool = False
    unicode: bool = False
    color: bool = False


PLAIN = Style()


def card_text(card: Card, style: Style = PLAIN) -> str:
    return card.symbol() if style.unicode else str(card)


def legend(style: Style = PLAIN) -> str:
    """What the board's signs mean, in two lines that fit the narrowest screen (60 columns) whole."""
    down = "#7\u2665" if style.reveal and style.unicode else "#7H" if style.reveal else "##"
    placed = "[7\u2665]" if style.unicode else "[7H]"
    return f"({down} = face down, {placed} = just placed, * = just turned,\n xN = N cards in the pile, . = empty)"


def _cell_text(state: State, cell: int, style: Style, placed: int | None, turned: int) -> str:
    pile = state.piles[cell]
    if not pile:
        return "   .    "
    face_up = state.is_face_up(cell)
    name = card_text(pile[-1], style)
    if not face_up:
        name = "#" + name if style.reveal else "##"
    if cell == placed:
        decorated = f"[{name}]"
    elif turned >> cell & 1:
        decorated = name + "*"
    else:
        decorated = name + " "
    text = f"{decorated:>5}x{len(pile)} "
    if not style.color:
        return text
    return _painted(text, face_up=face_up, red=pile[-1].suit in "HD", bold=cell == placed or bool(turned >> cell & 1))


def _painted(text: str, *, face_up: bool, red: bool, bold: bool) -> str:
    """A cell in colour, rendered by rich (imported only when there is colour to draw): dim face down, red
    hearts and diamonds, bold what the move just placed or turned."""
    from rich.color import ColorSystem  # start-up: rich costs 16-24 ms; only what is drawn loads it
    from rich.style import Style as RichStyle  # start-up: rich costs 16-24 ms; only what is drawn loads it

    if not face_up:
        painted = RichStyle(dim=True)
    else:
        painted = RichStyle(color="red" if red else None, bold=bold or None)
    return painted.render(text, color_system=ColorSystem.STANDARD) if painted else text


def status_line(state: State, style: Style = PLAIN, *, next_unseen: bool = False) -> str:
    """Next card, stock, face-down count and status, on one line; a lost game says why.

    `next_unseen`: the board is one a move would leave (`try`), whose next card the
    player has not seen: it is shown as `?`, never named.
    """
    outcome = state.outcome
    next_card = state.next_card
    shown = "-" if next_card is None else "?" if next_unseen else card_text(next_card, style)
    face_down = state.face_down
    if outcome.status is Status.WON:
        tail = f"Face down: {face_down}   Won, score {outcome.score}"
    elif outcome.reason is LossReason.FACE_DOWN:
        tail = f"Face down: {face_down}, more than {MAX_FACE_DOWN}: lost"
    elif outcome.reason is LossReason.STOCK:
        tail = f"Face down: {face_down}   stock empty: lost"  # the reason in full ran to 63 columns
    else:
        tail = f"Face down: {face_down} of {MAX_FACE_DOWN}"
    return f"Next card: {shown}   Stock: {state.stock}   {tail}"


def render(
    state: State,
    style: Style = PLAIN,
    *,
    step: Step | None = None,
    with_legend: bool = False,
    next_unseen: bool = False,
) -> str:
    """The whole board and its status line (and the legend if asked), without a final newline.

    With `step`, the card it placed is bracketed and the cards it turned are starred;
    `next_unseen` hides the next card (see `status_line`).
    """
    placed = step.move.cell if step is not None and step.move is not None else None
    turned = step.turned if step is not None else 0
    lines = [_HEADER, _RULE]
    for row in range(4):
        cells = "|".join(_cell_text(state, row * 4 + column, style, placed, turned) for column in range(4))
        lines.append(f"{row + 1} |{cells}|")
        lines.append(_RULE)
    lines.append(status_line(state, style, next_unseen=next_unseen))
    if with_legend:
        lines.append(legend(style))
    return "\n".join(lines)


def joined(words: Sequence[str]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def step_heading(step: Step, style: Style = PLAIN) -> str:
    """`Start`, `Move 4: shift up (free: no card drawn)`, or `Move 7: D3 places 10D; turns B3 and D2 face down,
    C1 face up`.

    A move's number is its place in the game, counted one way on every screen (the prompt, the end screen,
    replay, check's problems, analyze, history, the JSON's `ply`): shifts count, and say they are free."""
    if step.move is None:
        return "Start"
    if step.card is None:
        return f"Move {step.ply}: {step.move} (free: no card drawn)"
    heading = f"Move {step.ply}: {step.move} places {card_text(step.card, style)}"
    down = [str(cell) for cell in cells_of(step.turned) if not step.state.is_face_up(cell)]
    up = [str(cell) for cell in cells_of(step.turned) if step.state.is_face_up(cell)]
    parts = [f"{joined(cells)} face {side}" for cells, side in ((down, "down"), (up, "up")) if cells]
    return heading + ("; turns " + ", ".join(parts) if parts else "")


def render_step(step: Step, style: Style = PLAIN, *, with_legend: bool = False, next_unseen: bool = False) -> str:
    """A heading naming the move and what it turned, over the board that marks them (`step_heading`)."""
    board = render(step.state, style, step=step, with_legend=with_legend, next_unseen=next_unseen)
    return step_heading(step, style) + "\n" + board


def moves_preview(state: State, style: Style = PLAIN, evaluation: Evaluation | None = None) -> str:
    """`moves` at the prompt: what the legal moves would change, grouped: the placements that do the same (turn
    nothing, or turn the same cards) share a line, with the face-down count they leave; the moves that lose at
    once are one line; a shift is named with the placement it opens, as the hint names it and the prompt takes
    it (`shift up, then B4`, its cells named as they are after the shift), and a shift that opens none is left
    out. With the position's `evaluation` (the meter is on), each move has its expected score beside it: a hint."""
    card = state.next_card
    if card is None:
        return "No moves: the game is over."
    groups: dict[tuple[str, int], list[str]] = {}
    losing = []
    for move, then, position in _placements(state):
        placement = then or move
        after = position.down_after(placement, card)
        name = str(move) + (f", then {then}" if then is not None else "")
        if evaluation is not None:
            rating = evaluation.find(move, then)
            name += f" ({rating.expected:.1f})" if rating is not None else ""
        if after.bit_count() > MAX_FACE_DOWN:
            losing.append(name)
            continue
        said = _turned_words(position, placement, after)
        groups.setdefault((said, after.bit_count()), []).append(name)
    rated = " (expected score; counted as a hint):"  # the hint's figures, every move's
    lines = [f"Legal moves for {card_text(card, style)}" + (rated if evaluation else ":")]
    for (said, count), moves in sorted(groups.items(), key=lambda group: (group[0][1], group[0][0] != "")):
        lines.append(f"  {', '.join(moves)}: " + (f"turn {said}" if said else "turn nothing") + f"; {count} face down")
    if losing:
        lines.append(f"  {', '.join(losing)}: lose at once (more than {MAX_FACE_DOWN} face down)")
    return "\n".join(lines)


def _placements(state: State) -> list[tuple[Move, Move | None, State]]:
    """Every placement of the card in hand: (the move, the placement after it when it is a shift, the position
    the placement is made in), placements first, then each shift with each cell it opens that the card can take."""
    placements = state.legal_placements()
    found: list[tuple[Move, Move | None, State]] = [(move, None, state) for move in placements]
    for shift in state.legal_moves()[len(placements) :]:
        shifted = state_after(state, shift)
        found += [
            (shift, move, shifted)
            for move in shifted.legal_placements()
            if not move.on_top and move.cell in shift.opened_cells
        ]
    return found


def _turned_words(state: State, move: Move, after: int) -> str:
    """`B2 and C2 face down, A1 face up` for what placement `move` turns (its face-down mask after: `after`)."""
    cell = move.cell
    assert cell is not None
    turned = (state.down ^ after) & ~(1 << cell)
    down = [str(c) for c in cells_of(turned & after)]
    up = [str(c) for c in cells_of(turned & ~after)]
    return ", ".join(f"{joined(cells)} face {side}" for cells, side in ((down, "down"), (up, "up")) if cells)


def to_come_line(state: State, style: Style = PLAIN) -> str:
    """`To come after 6C (37): A x4, 2 x4, ...`: the cards not seen yet, by rank (suits never matter), the
    card in hand apart, so the count and the stock (which holds the card in hand) are told apart on every
    screen. `left` at the prompt, and under each board with `play --count`."""
    counts = state.unseen_by_rank()
    card = state.next_card
    after = f" after {card_text(card, style)}" if card is not None else ""
    ranks = ", ".join(f"{RANK_NAMES[rank]} x{count}" for rank, count in enumerate(counts))
    return f"To come{after} ({sum(counts)}): {ranks}"


def cards_to_come(state: State, style: Style = PLAIN) -> str:
    """`left` at the prompt: the cards to come (`to_come_line`), and how many of each rank are out already
    (on the grid, under it, or in hand)."""
    out = ", ".join(f"{RANK_NAMES[rank]} {4 - count}" for rank, count in enumerate(state.unseen_by_rank()))
    return f"{to_come_line(state, style)}\nOut already (of 4 each): {out}"
