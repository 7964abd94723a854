"""Runs of many deals in words: `stats`, `compare` and `summarize` (the same figures, merged from results
files), and the warning that numbered deals are public."""

from __future__ import annotations

from ..app.runs import PublicDeals, Resuming
from ..app.summarize import Replayed
from ..errors import counted, display_name
from ..runs.compare import Comparison, Finding, Pair
from ..runs.sprt import FEWEST_DEALS, Sprt, SprtVerdict
from ..runs.stats import Summary
from .fit import fitted
from .output import NARROWEST, Screen, Text, text_of


def _forfeits_text(forfeits: dict[str, int]) -> str:
    return "; ".join(f"{count} x {reason}" for reason, count in forfeits.items()) if forfeits else "none"


LOST_DEALS_SHOWN = 20  # more are listed by --format json only


def _dealt(summary: Summary) -> str:
    """Which deals a summary covers: a range, a shard of one, or (with some missing) the ones played."""
    kind = "sealed deal" if summary.sealed else "deal"
    if summary.shard is not None:  # every Nth deal of the range: say which, not a range it does not cover
        index, count = summary.shard
        return (
            f"{counted(summary.games, kind)} of shard {index}/{count} (one deal in {count}, from deal {summary.start})"
        )
    if summary.games == 0:
        return "no games yet"
    if summary.missing and summary.span is not None:
        return f"{counted(summary.games, kind)} between {summary.span[0]} and {summary.span[1]}"
    return f"{kind}s {summary.start} to {summary.start + summary.games - 1}"


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
    if summary.stopped:
        deals = "1 deal" if summary.missing == 1 else f"{summary.missing:,} deals"
        return f"Stopped early: {deals} not played: {first}{more}"
    missing = "1 deal of the run is" if summary.missing == 1 else f"{summary.missing:,} deals of the run are"
    return f"incomplete: {missing} missing from these files: {first}{more}"


def stats_text(summary: Summary) -> str:
    score = f"{summary.mean_score:.2f}" if summary.mean_score is not None else "-"
    lines = [
        f"player {summary.player}, {_dealt(summary)}",
        f"won {summary.wins} of {summary.games}: {summary.win_rate:.1%} "
        f"(95% interval {summary.win_low:.1%} to {summary.win_high:.1%})",
        f"mean score of wins {score}; a lost game counting 0, {summary.mean_score_all:.2f}",
        f"time per move: mean {summary.seconds_per_move * 1000:.2f} ms, "
        f"median {summary.median_seconds_per_move * 1000:.2f} ms; {summary.games_per_second:.2f} games/s",
    ]
    if summary.forfeits:
        lines.append(f"forfeits: {_forfeits_text(summary.forfeits)}")
    if 0 < len(summary.lost) <= LOST_DEALS_SHOWN:
        lines.append(f"lost deals: {', '.join(map(str, summary.lost))}")
    gap = missing_line(summary)
    return "\n".join(lines + ([gap] if gap else []))


SHORT_NAME = 12  # a name a table shows in full; a longer one is shown as a letter, named in full below the table


def short_names(comparison: Comparison) -> dict[str, str]:
    """The name a table shows for each player (by its whole name): its short name when it has one, else its name
    when short enough, else a letter (A, B, ...)."""
    names = {}
    letters = iter("ABCDEFGHIJKLMNOP")
    for summary in comparison.summaries:
        short, _ = comparison.names.get(summary.player, (summary.player, summary.player))
        names[summary.player] = short if len(short) <= SHORT_NAME else next(letters)
    return names


def compare_text(comparison: Comparison, width: int | None = None) -> str:
    """A table with a row a player, by short names (the whole names, settings included, listed once below),
    fitting 60 columns; then a verdict for each pair, and the sequential test's, in words."""
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
    names = short_names(comparison)
    rows = []
    for s in summaries:
        mean = f"{s.mean_score:.2f}" if s.mean_score is not None else "-"
        interval = f"{s.win_low * 100:.1f}-{s.win_high:.1%}"
        rows.append(
            (
                names[s.player],
                f"{s.wins}/{s.games}",
                interval,
                mean,
                f"{s.mean_score_all:.2f}",
                f"{s.seconds_per_move * 1000:.1f}",
            )
        )
    name = max([6] + [len(row[0]) for row in rows])
    won = max([3] + [len(row[1]) for row in rows])
    header = f"  {'player':<{name}}  {'won':>{won}}  {'95% interval':>12}  {'wins':>5}  {'score':>5}  {'ms/move':>7}"
    if width is None or len(header) <= width:
        lines.append(header)
        lines += [
            f"  {row[0]:<{name}}  {row[1]:>{won}}  {row[2]:>12}  {row[3]:>5}  {row[4]:>5}  {row[5]:>7}" for row in rows
        ]
    else:  # narrower still: a player's figures in words, a line or two each
        lines += [
            f"  {row[0]}: won {row[1]} ({row[2]}); score of wins {row[3]}, score {row[4]}; {row[5]} ms a move"
            for row in rows
        ]
    lines += [
        f"  {short} = {comparison.names.get(whole, (whole, whole))[1]}"
        for whole, short in names.items()
        if short != whole
    ]
    lines.append("(wins: the mean score of the games won; score: the mean score, a lost game counting 0)")
    lines += [f"forfeits of {names[s.player]}: {_forfeits_text(s.forfeits)}" for s in summaries if s.forfeits]
    lines.extend(pair_verdict(pair, names) for pair in comparison.pairs)
    if comparison.sprt is not None and len(summaries) == 2:
        lines.append(sprt_verdict(comparison.sprt, names[summaries[0].player], names[summaries[1].player]))
    return "\n".join(lines)


def sprt_verdict(test: Sprt, first: str, second: str) -> str:
    """Where the sequential test stopped, and what it found, in one sentence."""
    settings = test.settings
    asked = (
        f"Sequential test (a difference of {settings.points:g} points a deal, alpha {settings.alpha:.0%}, "
        f"beta {settings.beta:.0%}): after {test.deals} deals, "
    )
    size = f"{abs(test.mean):.2f} points a deal (95% interval {test.low:+.2f} to {test.high:+.2f})"
    if test.verdict is SprtVerdict.FIRST:
        return asked + f"{first} is stronger than {second} by {size}."
    if test.verdict is SprtVerdict.SECOND:
        return asked + f"{second} is stronger than {first} by {size}."
    if test.verdict is SprtVerdict.NEITHER:
        return asked + f"neither is stronger by {settings.points:g} points ({first} less {second}: {test.mean:+.2f})."
    if test.deals < FEWEST_DEALS:  # its ratios may be past a bound already: the test does not decide before
        return asked + (
            f"not decided yet ({first} less {second}: {test.mean:+.2f}); the test decides from "
            f"{FEWEST_DEALS} deals on (-n)."
        )
    return asked + f"not decided yet ({first} less {second}: {test.mean:+.2f}); more deals would tell (-n)."


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def pair_verdict(pair: Pair, names: dict[str, str] | None = None) -> str:
    """The finding of a paired comparison in one sentence, with the size of the difference and its p-value
    (players by the names the table shows)."""
    shown = names or {}
    first, second = shown.get(pair.first, pair.first), shown.get(pair.second, pair.second)
    better, worse = shown.get(pair.better or "", pair.better), shown.get(pair.worse or "", pair.worse)
    if pair.finding is Finding.WINS:
        verdict = (
            f"{better} wins more than {worse}: {abs(pair.win_difference):.1f} points of win rate, "
            f"{_p_text(pair.wins_p)}."
        )
    elif pair.finding is Finding.SCORES:
        verdict = (
            f"{better} scores more than {worse}: {abs(pair.score_difference):.2f} points a deal, "
            f"{_p_text(pair.scores_p)}."
        )
    else:
        verdict = (
            f"{first} and {second}: no significant difference (win rate {pair.win_difference:+.1f} points, "
            f"{_p_text(pair.wins_p)}; score {pair.score_difference:+.2f} a deal, {_p_text(pair.scores_p)})."
        )
    if pair.approximate:
        deals = "1 deal differs" if pair.differing == 1 else f"{pair.differing} deals differ"
        verdict += f" Only {deals} in score: the scores test is approximate."
    return verdict


@text_of.register
def _summary(value: Summary, screen: Screen) -> Text:
    return Text(stats_text(value) + "\n")


@text_of.register
def _comparison(value: Comparison, screen: Screen) -> Text:
    width = screen.width or NARROWEST
    return Text(fitted(compare_text(value, width), width) + "\n")


@text_of.register
def _public_deals(value: PublicDeals, screen: Screen) -> Text:
    return Text(
        err=(
            f"foursquare {value.command}: the deals are public numbers, so a program (cmd:) can know "
            "every stock in advance; --sealed deals them from secret seeds",
        )
    )


@text_of.register
def _resuming(value: Resuming, screen: Screen) -> Text:
    if value.games is None:
        held, rest = f"{value.kept:,} games", "; the sequential test goes on from them"
    elif value.kept == value.games:
        held, rest = f"all {value.games:,} games", ""
    else:
        held, rest = f"{value.kept:,} of {value.games:,} games", "; playing the rest"
    return Text(err=(f"foursquare {value.command}: {display_name(value.path)} holds {held} of this run{rest}",))


@text_of.register
def _replayed(value: Replayed, screen: Screen) -> Text:
    said = f"foursquare summarize: --verify: {value.games:,} games replayed by the players they name, move by move"
    if value.not_replayed:
        said += (
            f"; not those of {', '.join(value.not_replayed)}, whose moves this tool cannot make again (only a "
            "player whose moves follow from the deal and its seed alone, the same on every machine, can be)"
        )
    return Text(err=(said,))
