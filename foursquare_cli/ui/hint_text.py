"""Hints in words: the expert's best moves for a position (`hint`, the prompt's `hint`), the figures behind
them, and the meter under a board (`play --meter`)."""

from __future__ import annotations

from ..app.hint import Hinted, MoveHint
from ..players.expert import Rating
from ..rules.engine import State
from .board import PLAIN, Style, render
from .output import Screen, Text, text_of


def percent(chance: float) -> str:
    """A chance as a whole percentage that never claims more than it knows: 99.7% is `99%`, and only a
    certainty `100%` (likewise `0%` only for none: 0.3% is `1%`)."""
    if 0 < chance < 0.01:
        return "1%"
    if 0.99 < chance < 1:
        return "99%"
    return f"{chance:.0%}"


def meter_line(rating: Rating, width: int = 20) -> str:
    """The live estimate under the board: `Chance to win: [##########----------] 50%, score 10.2`, the
    expert's chance and expected score from here (the figures `hint` gives its move), in 60 columns."""
    filled = round(rating.chance * width)
    return (
        f"Chance to win: [{'#' * filled}{'-' * (width - filled)}] {percent(rating.chance)}, score {rating.expected:.1f}"
    )


HINT_EXPLAINED = (
    "Each figure is from futures: the unseen cards shuffled anew and played out by the greedy player filling "
    "the grid first (an empty cell whenever one leaves at most four face down). That player wins less often "
    "than the expert, so the share of futures won and their score are mapped by a table measured on deals "
    "the expert played to the end: the chance to win and the expected score are the expert's. "
    "The moves are ranked by how far they went in the expert's halving (the better half of each round "
    "gets more futures), then by their worth: the mean over their futures of 1 + 0.12 x score for a win and "
    "1 - 0.8^k for a loss k cards on, less 2 when k is 2 or less. A loss soon weighs more than one far off, "
    "so a move whose losses come early may rank below a lower chance."
)


def hint_text(
    ratings: list[Rating],
    state: State | None = None,
    limit: int = 5,
    *,
    style: Style = PLAIN,
    detail: bool = False,
    risks: list[tuple[int, int]] | None = None,
) -> str:
    """A hint for a player: the board and the card in hand, the expert's move, and the best moves in plain
    words (the chance to win, and the risk on the next card when `risks` says it); with `detail`, after a
    blank line, the figures behind them (`hint_figures`)."""
    lines = []
    if state is not None:
        lines.append(render(state, style))
    best = ratings[0]
    if len(ratings) == 1:
        lines.append(
            f"Hint: {best.move} (the only move): {percent(best.chance)} to win, expected score {best.expected:.1f}"
        )
        return "\n".join(lines)
    lines.append(f"Hint: {best.move}" + (f" (to play {best.then} next)" if best.then is not None else ""))
    lines.append("The best moves by the expert's chance to win after each, then the score it expects:")
    weighed = [(rating, risks[index] if risks is not None and index < len(risks) else None)
               for index, rating in enumerate(ratings[:limit])]  # fmt: skip
    weighed.sort(key=lambda pair: (-int(percent(pair[0].chance)[:-1]), -round(pair[0].expected, 1)))  # as shown
    for rating, risk in weighed:
        name = str(rating.move) + (f", then {rating.then}" if rating.then is not None else "")
        said = f"  {name:<20} {percent(rating.chance):>4} to win, score {rating.expected:>4.1f}"
        if rating is best:
            said += " (the expert's move)"
        if risk is not None:
            said += "; " + _risk_words(*risk)
        lines.append(said)
    if len(ratings) > limit:
        lines.append(f"  ... and {len(ratings) - limit} more, ranked lower")
    if not detail:
        return "\n".join(lines)
    return "\n".join(lines) + "\n\n" + hint_figures(ratings)


def _risk_words(unsafe: int, unseen: int) -> str:
    if not unseen:
        return "the game ends"
    if not unsafe:
        return "every card to come would have a safe place next"
    if unsafe == unseen:
        return "no card to come would have a safe place next: it loses"
    return f"{unsafe} of the {unseen} cards to come would have no safe place next"


def hint_figures(ratings: list[Rating], limit: int = 8) -> str:
    """The figures behind a hint, for those who ask (`hint --detail`, `hint detail` at the prompt)."""
    lines = ["  move              chance to win   expected score   futures won   their score   futures    worth"]
    for rating in ratings[:limit]:
        name = str(rating.move) + (f", {rating.then}" if rating.then is not None else "")
        lines.append(
            f"  {name:<17} {percent(rating.chance):>12}   {rating.expected:>14.1f}   {rating.win_rate:>11.0%}"
            f"   {rating.expected_score:>11.1f}   {rating.samples:>7}   {rating.value:>6.4f}"
        )
    if len(ratings) > limit:
        lines.append(f"  ... and {len(ratings) - limit} more, ranked lower")
    lines.append(HINT_EXPLAINED)
    return "\n".join(lines)


@text_of.register
def _hinted(value: Hinted, screen: Screen) -> Text:
    hint = value.hint
    return Text(hint_text(hint.ratings, hint.state, style=screen.style, detail=value.detail, risks=hint.risks) + "\n")


@text_of.register
def _move_hint(value: MoveHint, screen: Screen) -> Text:
    return Text(f"Hint from {value.player}: {value.step.move}\n")
