"""Runs of many deals in words: `stats`, `compare` and `summarize` (the same figures, merged from results
files), and the warning that numbered deals are public."""

from __future__ import annotations

from ..app.runs import PublicDeals
from ..runs.compare import Comparison, Finding, Pair
from ..runs.stats import Summary
from .output import Screen, Text, text_of


def _forfeits_text(forfeits: dict[str, int]) -> str:
    return "; ".join(f"{count} x {reason}" for reason, count in forfeits.items()) if forfeits else "none"


LOST_DEALS_SHOWN = 20  # more are listed by --format json only


def _dealt(summary: Summary) -> str:
    """Which deals a summary covers: a range, a shard of one, or (with some missing) the ones played."""
    kind = "sealed deals" if summary.sealed else "deals"
    if summary.shard is not None:  # every Nth deal of the range: say which, not a range it does not cover
        index, count = summary.shard
        return f"{summary.games} {kind} of shard {index}/{count} (one deal in {count}, from deal {summary.start})"
    if summary.games == 0:
        return "no games yet"
    if summary.missing and summary.span is not None:
        return f"{summary.games} {kind} between {summary.span[0]} and {summary.span[1]}"
    return f"{kind} {summary.start} to {summary.start + summary.games - 1}"


def missing_line(summary: Summary) -> str | None:
    """`summarize` over files that do not hold the whole plan: how many deals are missing, and which."""
    if not summary.missing:
        return None
    first = ", ".join(map(str, summary.first_missing))
    more = (
        f" and {summary.missing - len(summary.first_missing):,} more"
        if summary.missing > len(summary.first_missing)
        else ""
    )
    return f"incomplete: {summary.missing:,} deals of the run are missing from these files: {first}{more}"


def stats_text(summary: Summary) -> str:
    score = f"{summary.mean_score:.2f}" if summary.mean_score is not None else "-"
    lines = [
        f"player {summary.player}, {_dealt(summary)}",
        f"won {summary.wins} of {summary.games}: {summary.win_rate:.1%} "
        f"(95% interval {summary.win_low:.1%} to {summary.win_high:.1%})",
        f"mean score of wins: {score}; mean score, a lost game counting 0: {summary.mean_score_all:.2f}",
        f"time per move: mean {summary.seconds_per_move * 1000:.2f} ms, "
        f"median {summary.median_seconds_per_move * 1000:.2f} ms; {summary.games_per_second:.2f} games/s",
    ]
    if summary.forfeits:
        lines.append(f"forfeits: {_forfeits_text(summary.forfeits)}")
    if 0 < len(summary.lost) <= LOST_DEALS_SHOWN:
        lines.append(f"lost deals: {', '.join(map(str, summary.lost))}")
    gap = missing_line(summary)
    return "\n".join(lines + ([gap] if gap else []))


def compare_text(comparison: Comparison, width: int | None = None) -> str:
    """A table with a row a player (where it fits `width`; else a line or two a player), then a verdict line
    for each pair."""
    summaries = comparison.summaries
    games = summaries[0].games if summaries else 0
    first = summaries[0].start if summaries else 0
    gap = missing_line(summaries[0]) if summaries else None
    if gap is not None:
        lines = [gap[0].upper() + gap[1:]]
    else:
        lines = [] if comparison.complete else [f"Stopped early: {games} deals played by every player so far."]
    if games == 0:
        lines.append("No deal played by every player yet.")
    elif summaries and (summaries[0].missing or not comparison.complete) and summaries[0].span is not None:
        low, high = summaries[0].span
        lines.append(f"{games} deals between {low} and {high}, played by every player:")
    else:
        lines.append(f"{games} deals, {first} to {first + games - 1}, played by every player:")
    name = max([6] + [len(s.player) for s in summaries])
    rows = []
    for s in summaries:
        mean = f"{s.mean_score:.2f}" if s.mean_score is not None else "-"
        won = f"{s.wins}/{s.games} {s.win_rate:.1%}"
        interval = f"{s.win_low:.1%}-{s.win_high:.1%}"
        rows.append((s.player, won, interval, mean, f"{s.mean_score_all:.2f}", f"{s.seconds_per_move * 1000:.2f}",
                     _forfeits_text(s.forfeits)))  # fmt: skip
    header = (f"  {'player':<{name}}  {'won':>16}  {'95% interval':>15}  {'score of wins':>13}  {'score':>6}  "
              f"{'ms/move':>8}  forfeits")  # fmt: skip
    if width is None or len(header) <= width:
        lines.append(header)
        lines += [f"  {player:<{name}}  {won:>16}  {interval:>15}  {mean:>13}  {score:>6}  {ms:>8}  {forfeits}"
                  for player, won, interval, mean, score, ms, forfeits in rows]  # fmt: skip
    else:  # a narrow terminal: a player's figures in words, a line or two each
        lines += [f"  {player}: won {won} ({interval}); score of wins {mean}, score {score}; {ms} ms a move; "
                  f"forfeits {forfeits}" for player, won, interval, mean, score, ms, forfeits in rows]  # fmt: skip
    lines.append("(score: the mean score with a lost game counting 0)")
    lines.extend(pair_verdict(pair) for pair in comparison.pairs)
    return "\n".join(lines)


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def pair_verdict(pair: Pair) -> str:
    """The finding of a paired comparison in one sentence, with the size of the difference and its p-value."""
    if pair.finding is Finding.WINS:
        verdict = (
            f"{pair.better} is better than {pair.worse}: {abs(pair.win_difference):+.1f} points of win rate, "
            f"{_p_text(pair.wins_p)}"
        )
    elif pair.finding is Finding.SCORES:
        verdict = (
            f"{pair.better} scores higher than {pair.worse}: {abs(pair.score_difference):+.2f} points of mean score, "
            f"{_p_text(pair.scores_p)}"
        )
    else:
        verdict = (
            f"no significant difference between {pair.first} and {pair.second} "
            f"(win rate {pair.win_difference:+.1f} points, {_p_text(pair.wins_p)}; "
            f"mean score {pair.score_difference:+.2f}, {_p_text(pair.scores_p)})"
        )
    if pair.approximate:
        deals = "1 deal differs" if pair.differing == 1 else f"{pair.differing} deals differ"
        verdict += f" (only {deals} in score: the scores test is approximate)"
    return verdict


@text_of.register
def _summary(value: Summary, screen: Screen) -> Text:
    return Text(stats_text(value) + "\n")


@text_of.register
def _comparison(value: Comparison, screen: Screen) -> Text:
    return Text(compare_text(value, screen.width) + "\n")


@text_of.register
def _public_deals(value: PublicDeals, screen: Screen) -> Text:
    return Text(err=(f"foursquare {value.command}: the deals are public numbers, so a program (cmd:) can know "
                     "every stock in advance; --sealed deals them from secret seeds",))  # fmt: skip
