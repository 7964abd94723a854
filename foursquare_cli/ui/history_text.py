"""`history` in words: your games, newest first, with your wins, best score and streaks; the block to share
of a daily game; and the line that says an unfinished game is waiting."""

from __future__ import annotations

from ..app.history import HistoryNote, HistoryReport, KeptGame, SharedDay, Totals
from ..errors import display_name
from ..rules.engine import State, Status
from .output import Screen, Text, can_show, text_of


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


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


def history_text(games: list[KeptGame], totals: Totals, limit: int, *, wide: bool = False, unicode: bool = True) -> str:
    """The last games, newest first, and the totals of all of them (played means finished), in 100 columns;
    `wide` adds each game's record file (a path, as long as it is)."""
    lines = []
    if games:
        header = (
            f"{'when (UTC)':<16}  {'deal':<14}  {'grade':<6}  {'result':<7}  {'score':>5}  {'moves':>5}  "
            f"{'undos':>5}  {'hints':>5}  {'time':>6}"
        )
        lines.append(header + ("  record" if wide else ""))
        for game in games[:limit]:
            deal = ("daily " if game.daily else "") + (str(game.seed) if game.seed is not None else "(deck)")
            score = str(game.score) if game.score is not None else "-"
            line = (
                f"{_when(game.started):<16}  {deal:<14.14}  {game.grade or '-':<6}  {game.status:<7}  {score:>5}  "
                f"{game.moves:>5}  {game.undos:>5}  {game.hints:>5}  {_duration(game.seconds):>6}"
            )
            lines.append(line + (f"  {display_name(game.path)}" if wide else ""))
        if len(games) > limit:
            lines.append(f"... and {len(games) - limit} earlier (--limit {len(games)} shows them all)")
        if not wide:
            lines.append("(history --wide adds each game's record file)")
    else:
        lines.append("No games kept yet: play one with `foursquare play`.")
    share = f" ({totals.won / totals.played:.1%})" if totals.played else ""
    best = str(totals.best_score) if totals.best_score is not None else "-"
    mean = f"{totals.mean_score_of_wins:.1f}" if totals.mean_score_of_wins is not None else "-"
    lines.append(
        f"Played {totals.played}, won {totals.won}{share}; best score {best}, mean score of wins {mean}"
        + (f"; {_count(totals.unfinished, 'unfinished game')} (not counted)" if totals.unfinished else "")
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
    trend = score_trend(games, unicode=unicode)
    if trend is not None:
        lines.append(trend)
    return "\n".join(lines)


@text_of.register
def _history_report(value: HistoryReport, screen: Screen) -> Text:
    unicode = screen.style.unicode and can_show(TREND_BLOCKS)
    return Text(history_text(value.games, value.totals, value.limit, wide=value.wide, unicode=unicode) + "\n")


@text_of.register
def _history_note(value: HistoryNote, screen: Screen) -> Text:
    return Text(err=(value.text,))


SHARE_BLOCKS = "\u00b7\u2582\u2584\u2586\u2588"  # an empty cell, then piles of 1 to 4 cards
SHARE_ASCII = ".1234"


def share_block(day: str, state: State, moves: int, undos: int, hints: int, *, unicode: bool = True) -> str:
    """A daily game's result to paste, spoiler-free: the date, the outcome, the counts, and a 4x4 picture of
    the pile heights (no card is named)."""
    outcome = state.outcome
    result = f"won, score {outcome.score}" if outcome.status is Status.WON else str(outcome.status)
    blocks = SHARE_BLOCKS if unicode else SHARE_ASCII
    lines = [
        f"Foursquare daily {day}: {result}",
        f"{_count(moves, 'move')}, {_count(undos, 'undo')}, {_count(hints, 'hint')}",
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
        f"An unfinished game is waiting ({deal}, {_count(game.moves, 'move')}, started {_when(game.started)} UTC); "
        f"to go on with it: {program} play --resume"
    )
