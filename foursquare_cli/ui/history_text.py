"""`history` in words: your games, newest first, with your wins, best score and streaks; the block to share
of a daily game; and the line that says an unfinished game is waiting."""

from __future__ import annotations

from ..app.history import HistoryNote, HistoryReport, KeptGame, SharedDay, Totals
from ..errors import counted, display_name
from ..rules.engine import State
from ..rules.outcomes import Status
from .output import Screen, Text, can_show, text_of


def _when(started: str) -> str:
    return started.replace("T", " ")[:16]


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}:{rest:02d}" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}"


TREND_BLOCKS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"  # a won game's score, low to high
TREND_ASCII = "_.-~=+*#"
TREND_GAMES = 40  # the finished games the trend shows, at most
TOP_SCORE = 24  # the highest score a won game can have (cards left in the stock)


def score_trend(games: list[KeptGame], *, unicode: bool = True) -> str | None:
    """The scores of the last finished games, oldest first, one character each: a block as high as the
    score (0 to 24) for a win, `x` for a loss; None before any game is finished."""
    finished = [game for game in games if game.status in ("won", "lost")][:TREND_GAMES]
    if not finished:
        return None
    levels = TREND_BLOCKS if unicode else TREND_ASCII
    marks = [
        "x" if game.score is None else levels[min(len(levels) - 1, game.score * len(levels) // (TOP_SCORE + 1))]
        for game in reversed(finished)
    ]
    return f"Recent scores, oldest first: {''.join(marks)} (higher is better, x a loss)"


HISTORY_COLUMNS = (  # (heading, width, right-aligned); a narrow terminal drops the last ones of DROPPED first
    ("when (UTC)", 16, False),
    ("deal", 17, False),
    ("grade", 6, False),
    ("result", 7, False),
    ("score", 5, True),
    ("moves", 5, True),
    ("undos", 5, True),
    ("hints", 5, True),
    ("time", 6, True),
)
DROPPED = ("hints", "undos", "grade", "time", "moves")  # what a narrow terminal leaves out, first to last


def _columns(width: int | None, deals: list[str]) -> list[tuple[str, int, bool]]:
    """The history's columns that fit `width` (all where the width is not known), the least needed left out
    first (`DROPPED`); the deal's column as wide as its longest deal, since a deal number is copied from it to
    `--seed` and is never cut (2^64 - 1 had read as 18446744073709551)."""
    widest = max(map(len, deals), default=0)
    columns = [(name, max(size, widest) if name == "deal" else size, right) for name, size, right in HISTORY_COLUMNS]
    for name in DROPPED:
        if width is None or sum(size + 2 for _, size, _ in columns) - 2 <= width:
            break
        columns = [column for column in columns if column[0] != name]
    return columns


def _cells(game: KeptGame) -> dict[str, str]:
    day = game.day[:10].replace("-", "") if game.day else ""
    deal = str(game.seed) if game.seed is not None else "(deck)"
    if game.daily:
        deal = ("practice " if game.practice else "daily ") + (str(game.seed) if game.seed is not None else day)
    return {
        "when (UTC)": _when(game.started),
        "deal": deal,
        "grade": game.grade or "-",
        "result": game.status,
        "score": str(game.score) if game.score is not None else "-",
        "moves": str(game.moves),
        "undos": str(game.undos),
        "hints": str(game.hints),
        "time": _duration(game.seconds),
    }


def _fitted(count: str, size: int) -> str:
    """A count as wide as its column at most: one past it is `9999+`, never its first digits (a hand-edited
    record's 2**63 undos read `92233`)."""
    return count if len(count) <= size or not count.isdigit() else "9" * (size - 1) + "+"


def history_text(
    games: list[KeptGame],
    totals: Totals,
    limit: int,
    *,
    wide: bool = False,
    unicode: bool = True,
    width: int | None = None,
    deal: int | None = None,
) -> str:
    """The last games, newest first, in the columns that fit `width`, then the totals of the games that count
    (played means finished; a practice daily counts in no figure, and is marked `practice`); `wide` adds each
    game's record file (a path, as long as it is)."""
    lines = []
    if games:
        columns = _columns(width, [_cells(game)["deal"] for game in games[:limit]])
        lines.append(
            "  ".join(f"{name:>{size}}" if right else f"{name:<{size}}" for name, size, right in columns).rstrip()
            + ("  record" if wide else "")
        )
        for game in games[:limit]:
            cells = _cells(game)
            line = "  ".join(
                f"{_fitted(cells[name], size):>{size}.{size}}" if right else f"{cells[name]:<{size}.{size}}"
                for name, size, right in columns
            ).rstrip()
            lines.append(line + (f"  {display_name(game.path)}" if wide else ""))
        if len(games) > limit:
            lines.append(f"... and {len(games) - limit} earlier (--limit {len(games)} shows them all)")
        if not wide:
            lines.append("(history --wide adds each game's record file)")
    else:
        lines.append(
            f"No game of deal {deal} is kept: play it with `foursquare play --seed {deal}`."
            if deal is not None
            else "No games kept yet: play one with `foursquare play`."
        )
    share = f" ({totals.won / totals.played:.1%})" if totals.played else ""
    best = str(totals.best_score) if totals.best_score is not None else "-"
    mean = f"{totals.mean_score_of_wins:.1f}" if totals.mean_score_of_wins is not None else "-"
    lines.append(
        f"Played {totals.played}, won {totals.won}{share}; best score {best}, mean score of wins {mean}"
        + (f"; {counted(totals.unfinished, 'unfinished game')} (not counted)" if totals.unfinished else "")
    )
    lines.append(
        f"Winning streak {totals.streak} (longest {totals.longest_streak}); "
        f"daily deals played {totals.daily_played}, won {totals.daily_won}; "
        f"daily streak {totals.daily_streak} (longest {totals.longest_daily_streak})"
    )
    lines.append(
        f"Won with neither hints nor undos: {totals.clean_wins}; time played {_duration(totals.seconds)}, "
        f"fastest win {_duration(totals.fastest_win)}"
    )
    if totals.practice:
        lines.append(f"Practice dailies, counted in no figure: {totals.practice}")
    trend = score_trend([game for game in games if not game.practice], unicode=unicode)
    if trend is not None:
        lines.append(trend)
    return "\n".join(lines)


@text_of.register
def _history_report(value: HistoryReport, screen: Screen) -> Text:
    unicode = screen.style.unicode and can_show(TREND_BLOCKS)
    said = history_text(
        value.games, value.totals, value.limit, wide=value.wide, unicode=unicode, width=screen.width, deal=value.deal
    )
    return Text(said + "\n")


@text_of.register
def _history_note(value: HistoryNote, screen: Screen) -> Text:
    return Text(err=(value.text,), err_words=True)  # words for a person, fitted as the table below them is


SHARE_BLOCKS = "\u00b7\u2582\u2584\u2586\u2588"  # an empty cell, then piles of 1 to 4 cards
SHARE_ASCII = ".1234"
SHARE_EXPLAINED = "no card is named; each cell's bar is as high as its pile, 1 to 4 cards, a dot for none"


def share_block(day: str, state: State, moves: int, undos: int, hints: int, *, unicode: bool = True) -> str:
    """A daily game's result to paste, spoiler-free: the date, the outcome, the counts, and a 4x4 picture of
    the pile heights (no card is named)."""
    outcome = state.outcome
    result = f"won, score {outcome.score}" if outcome.status is Status.WON else str(outcome.status)
    blocks = SHARE_BLOCKS if unicode else SHARE_ASCII
    shifts = moves - state.drawn
    moved = counted(moves, "move") + (f" ({shifts} free)" if shifts else "")
    lines = [
        f"Foursquare daily {day}: {result}",
        f"{moved}, {counted(undos, 'undo')}, {counted(hints, 'hint')}",
    ]
    lines.extend("".join(blocks[len(state.piles[row * 4 + column])] for column in range(4)) for row in range(4))
    return "\n".join(lines)


@text_of.register
def _shared_day(value: SharedDay, screen: Screen) -> Text:
    game = value.game
    unicode = screen.style.unicode and can_show(SHARE_BLOCKS)
    return Text(share_block(value.day, game.state, game.ply, game.undos, game.hints, unicode=unicode) + "\n")


def waiting_line(game: KeptGame, program: str) -> str:
    """Said when `play` starts a new game while an unfinished one is kept."""
    deal = f"deal {game.seed}" if game.seed is not None else "a deck of your own"
    return (
        f"An unfinished game is waiting ({deal}, {counted(game.moves, 'move')}, started {_when(game.started)} UTC); "
        f"to go on with it: {program} play --resume"
    )
