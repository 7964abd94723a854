"""Hints in words: the expert's best moves for a position (`hint`, the prompt's `hint`), the figures behind
them, and the meter under a board (`play --meter`)."""

from __future__ import annotations

from ..app.events import MeterReading
from ..app.hint import Hinted, MoveHint
from ..players.evaluation import Rating, shown_chance
from ..players.expert import SECOND_PLY
from ..rules.engine import State
from .board import PLAIN, Style, render
from .output import NARROWEST, Screen, Text, text_of


def percent(chance: float) -> str:
    """A chance as every screen shows it (`shown_chance`): `45%`, `99.7%`, `>99.9%`, `<1%`."""
    return shown_chance(chance)


def points_of_chance(points: float) -> str:
    """Percentage points of a chance given up, as the figures shown differ: `3%`, `0.4%`, `<0.1%`; whole from
    a point up, as the chances are shown (`89.0%` beside `91%` had read as a figure of another kind)."""
    if points < 0.05:
        return "<0.1%"
    return f"{points:.0f}%" if points >= 1 or points == round(points) else f"{points:.1f}%"


METER_READS = (  # said under a game's first reading: a new player took the meter's figures for the position now
    "(The meter rates your move where you played it, before the next card was seen; hint rates the position "
    "now, with that card in hand, so their figures differ.)"
)


def meter_line(reading: MeterReading) -> str:
    """The meter under the board (`play --meter`): the move's expected score and chance to win (the figures
    `hint` listed for it where it was played), then what it gave up against the expert's best where it
    was played, from that position's evaluation: `Expected score 16.9, 99.8% to win; C2 gave up 0.4 against C1`
    (`, for 0.1% more to win` where it shows more of the other), `C2 was as good as C1` where their figures
    are shown alike, `did better than` where it shows more and gave up nothing (the reading leaves out the
    move where there was no choice: the first card, any cell alike).
    Where the win is all but certain the chance no longer tells moves apart; the points do."""
    now = reading.now
    said = f"Expected score {now.expected:.1f}, {percent(now.chance)} to win"
    if reading.free_shift:
        return said + " (a shift is free: nothing given up)"
    played, best, lost = reading.played, reading.best, reading.lost
    if played is None or best is None or lost is None:
        return said
    if (played.move, played.then) == (best.move, best.then):
        return said + f"; {played.name} was the expert's move"
    gained = _gained(reading)
    if lost.nothing:
        if gained:  # shown above the expert's own: analyze marks it good
            return said + f"; {played.name} did better than {best.name}, by {gained}"
        return said + f"; {played.name} was as good as {best.name}"
    given = [f"{lost.points:.1f}"] if lost.points > 0 else []
    given += [f"{points_of_chance(lost.chance)} to win"] if lost.chance > 0 else []
    return (
        said
        + f"; {played.name} gave up {' and '.join(given)} against {best.name}"
        + (f", for {gained}" if gained else "")
    )


def _gained(reading: MeterReading) -> str:
    """What the move's figures show above the best's (`0.3 more points`, `0.1% more to win`), or ""."""
    gained = reading.gained
    if gained is None:
        return ""
    said = [f"{gained.points:.1f} more points"] if gained.points > 0 else []
    said += [f"{points_of_chance(gained.chance)} more to win"] if gained.chance > 0 else []
    return " and ".join(said)


HINT_EXPLAINED = (
    "Each figure is from futures: the unseen cards shuffled anew and played out by the greedy player filling "
    "the grid first (an empty cell whenever one leaves at most four face down). That player wins less often "
    "than the expert, so the share of futures won and their score are mapped by a table measured on deals "
    "the expert played to the end: the chance to win and the expected score are the expert's. No chance is "
    "above the share of the cards to come that have a safe place next, nor an expected score above what "
    "the cards left allow. The expert ranks its moves by their worth: the mean over their futures of "
    "1 + 0.12 x score for a win and 1 - 0.8^k for a loss k cards on, less 2 when k is 2 or less (a loss "
    "soon weighs more than one far off). Its candidates are halved round by round, the better half getting "
    f"more futures; its best {SECOND_PLY} (marked *) are then looked at again over the next card: for every rank "
    "that card may have, what a second look makes of the position; their worth and figures are that look's, "
    "and it plays the first. Moves it ranks lower that show more points share their mean, so the expected "
    "scores fall down the list. The columns: win and score, the chance to win and the expected score after "
    "the move; played, won and their, the futures played out, the share won and their mean score (a loss 0); "
    "worth, its rank."
)

HINT_LINES = 4  # the moves a hint lists by default (`hint --detail`, `hint detail`: every figure of more)


def hint_text(
    ratings: list[Rating],
    state: State | None = None,
    limit: int = HINT_LINES,
    *,
    style: Style = PLAIN,
    detail: bool = False,
) -> str:
    """A hint for a player, short: the expert's move and what it expects from it, then its best moves in the
    order it ranks them (`*`: looked at again over the next card), each with its chance to win and expected
    score (the score falls down that order: `evaluation.held_in_order`), and what they have in common said once
    (every card to come has a safe place next); at most 8 lines. Moves that lead to the same position (shifts
    are free) are one line, said once. With `detail`, the board and every figure behind them (`hint_figures`)."""
    best = ratings[0]
    lines = [render(state, style)] if detail and state is not None else []
    alike = f" or any of the {best.alike - 1} alike" if best.alike > 1 else ""
    if len(ratings) == 1:
        lines.append(
            f"Hint: {best.name}{alike or ' (the only move)'}: {percent(best.chance)} to win, "
            f"expected score {best.expected:.1f}"
        )
        return "\n".join(lines)
    headline = f"Hint: {best.name}{alike} ({percent(best.chance)} to win, expected score {best.expected:.1f})"
    for shorter in ((" to win, expected score ", " to win, score "), (" to win, ", " win, ")):
        if len(headline) > NARROWEST:  # a shift's long name: "to win" kept, as the meter says it, where it fits
            headline = headline.replace(*shorter)
    lines.append(headline)
    lines += _table(ratings, limit)
    if not detail:
        return "\n".join(lines)
    return "\n".join(lines) + "\n\n" + hint_figures(ratings)


def _table(ratings: list[Rating], limit: int) -> list[str]:
    """The hint's table: its head, a line a move (at most `limit`), then what is left and what the moves share;
    every line but the last (`After each, ...`) indented."""
    shown = ratings[:limit]
    width = max([len("move"), *(len(rating.name) for rating in shown)])
    wide = max([4, *(len(percent(rating.chance)) for rating in shown)])  # `99.9%` only where one is
    lines = [f"  {'move':<{width}}  {'win':>{wide}}  score"]
    for rating in shown:
        marked = "*" if rating.looked_again else " "
        said = f"  {rating.name:<{width}}  {percent(rating.chance):>{wide}}  {rating.expected:>5.1f}{marked}"
        if rating.unsafe:
            said += f"  ({_risk_words(rating.unsafe, rating.to_come)})"
        lines.append(said)
    more = f"... {len(ratings) - limit} more; " if len(ratings) > limit else ""
    looked = "* looked at again over the next card" if any(rating.looked_again for rating in shown) else ""
    if more or looked:
        lines.append(f"  {more}{looked}".rstrip("; "))
    if all(not rating.unsafe and rating.to_come for rating in shown):
        lines.append("After each, every card to come has a safe place next.")
    return lines


def _risk_words(unsafe: int, to_come: int) -> str:
    if unsafe == to_come:
        return "no card to come has a safe place next: it loses"
    return f"{unsafe} of the {to_come} cards to come have no safe place next"


NAME_ROOM = 20  # the move column of the figures: with the six figures and a mark, 60 columns in all


def hint_figures(ratings: list[Rating], limit: int = 8) -> str:
    """The figures behind a hint, for those who ask (`hint --detail`, `hint detail` at the prompt)."""
    shown = ratings[:limit]
    width = min(NAME_ROOM, max([len("move"), *(len(rating.name) for rating in shown)]))
    lines = [f"  {'move':<{width}} {'win':>6} {'score':>5} {'played':>6} {'won':>4} {'their':>5} {'worth':>5}"]
    for rating in shown:  # within 60 columns: a longer name (`shift right, then A2 top`) on a line of its own
        if len(rating.name) > width:
            lines.append(f"  {rating.name}")
        lines.append(
            f"  {rating.name if len(rating.name) <= width else '':<{width}} {percent(rating.chance):>6}"
            f" {rating.expected:>5.1f} {rating.samples:>6} {rating.win_rate:>4.0%} {rating.expected_score:>5.1f}"
            f" {rating.value:>5.2f}" + ("*" if rating.looked_again else "")
        )
    if len(ratings) > limit:
        lines.append(f"  ... and {len(ratings) - limit} more, ranked lower")
    lines.append(HINT_EXPLAINED)
    return "\n".join(lines)


@text_of.register
def _hinted(value: Hinted, screen: Screen) -> Text:
    hint = value.hint
    said = hint_text(hint.ratings, hint.state, style=screen.style, detail=value.detail) + "\n"
    if value.slow is None:
        return Text(said)
    note = (
        f"This hint took {value.slow.seconds:.1f} s: the playouts run in Python here, some 30 times slower "
        f"than in C ({value.slow.why_not_c}). A wheel of foursquare for your system, or installing it where "
        "a C compiler is, runs them in C."
    )
    return Text(said, (note,))


@text_of.register
def _move_hint(value: MoveHint, screen: Screen) -> Text:
    return Text(f"Hint from {value.player}: {value.step.move}\n")
