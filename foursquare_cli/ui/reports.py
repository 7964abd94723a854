"""Every command's text and JSON, as pure functions of the values the core returns.

Each function takes values (a verdict, a summary, a comparison, ratings, an
analysis) and returns the text people read or the mapping `--format json` prints;
nothing here reads, writes or decides. Tests hold them on the whole text.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from ..errors import display_name
from ..formats.protocol import json_line
from ..rules.engine import Status
from .board import PLAIN, Style, render

if TYPE_CHECKING:
    from ..app.actions import ExpertHint
    from ..errors import AlreadySaid
    from ..formats.lines import ReadError
    from ..formats.records import Verdict
    from ..formats.source import Problem
    from ..players.expert import Rating
    from ..players.solver import Solution
    from ..rules.engine import State
    from ..rules.game import Step
    from ..runs.compare import Comparison, Pair
    from ..runs.stats import Summary


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


def game_summary(state: State, moves: int, undos: int = 0) -> str:
    """`won, score 7, 29 moves, 2 undos`, `lost after 23 moves (...)` or `playing, 12 moves`."""
    outcome = state.outcome
    tail = f", {_count(undos, 'undo')}" if undos else ""
    if outcome.status is Status.WON:
        return f"won, score {outcome.score}, {_count(moves, 'move')}{tail}"
    if outcome.status is Status.LOST:
        return f"lost after {_count(moves, 'move')}{tail} ({outcome.reason})"
    return f"playing, {_count(moves, 'move')}{tail}"


def verdict_summary(verdict: Verdict) -> str:
    if verdict.state is None:
        return "no deal"
    return game_summary(verdict.state, len(verdict.moves), verdict.source.undos)


def check_report(
    path: str, verdict: Verdict | ReadError, *, json_output: bool
) -> tuple[str, list[str], AlreadySaid | None]:
    """One file as `check` prints it: its standard output, its lines for standard error, and what it failed
    with, once said (ProblemsSaid for an invalid file, UnreadableSaid for one that could not be read)."""
    from ..errors import ProblemsSaid, UnreadableSaid
    from ..formats.lines import ReadError

    if isinstance(verdict, ReadError):
        unread = {"line": None, "move": None, "move_text": None, "message": verdict.message}
        out = json_line({"path": path, "valid": False, "outcome": None, "problems": [unread]}) if json_output else ""
        return out, [str(verdict)], UnreadableSaid()
    name = display_name(path)
    out = json_line(verdict.to_json()) if json_output else verdict_line(name, verdict) + "\n"
    problems = [problem_line(name, problem) for problem in verdict.problems]
    return out, problems, None if verdict.valid else ProblemsSaid()


def verdict_line(name: str, verdict: Verdict) -> str:
    """`check`'s line for one file: its outcome, or how many problems it has."""
    if verdict.valid:
        return f"{name}: {verdict_summary(verdict)}"
    return f"{name}: invalid ({_count(len(verdict.problems), 'problem')})"


def problem_line(name: str, problem: Problem) -> str:
    """`file:line:column: message`, as much of the place as is known (`Problem.located`)."""
    return problem.located(name)


def outcome_line(state: State, ply: int, undos: int = 0, hints: int = 0, grade: str | None = None) -> str:
    """What the player reads when a game at the prompt ends: the outcome, score, moves (the cards placed, as
    the prompt numbers them) and the free shifts (the rest of the `ply` moves), undos, hints, grade."""
    outcome = state.outcome
    shifts = ply - state.drawn
    counts = _count(state.drawn, "move") + (f" and {_count(shifts, 'shift')}" if shifts else "")
    counts += f", {_count(undos, 'undo')}" if undos else ""
    counts += f", {_count(hints, 'hint')}" if hints else ""
    graded = f" The deal was {grade}." if grade else ""
    if outcome.status is Status.WON:
        return f"You won! Score {outcome.score} (cards left in the stock); {counts}.{graded}"
    return f"You lost: {outcome.reason}; {counts}.{graded}"


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


SHARE_BLOCKS = "\u00b7\u2582\u2584\u2586\u2588"  # an empty cell, then piles of 1 to 4 cards
SHARE_ASCII = ".1234"


def next_daily_line(day: str, seed: int | None, now: datetime.datetime | None = None) -> str:
    """The end of a daily deal: its number, and the time to the next one (a new deal every day at 00:00 UTC)."""
    moment = now or datetime.datetime.now(datetime.UTC)
    midnight = datetime.datetime.combine(moment.date() + datetime.timedelta(days=1), datetime.time(), datetime.UTC)
    hours, seconds = divmod(int((midnight - moment).total_seconds()), 3600)
    return f"Daily deal {seed} ({day}). The next one in {hours} h {seconds // 60:02d} min, at 00:00 UTC."


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


# -- solve, stats, hints ------------------------------------------------------------


def solve_text(solution: Solution, seed: int | None, record_text: str | None, timeout: float | None) -> str:
    from ..players.solver import Limit, SolveStatus

    name = f"Deal {seed}" if seed is not None else "The deck"
    if solution.status is SolveStatus.WINNABLE:
        verdict = f"winnable, best score found {solution.score}" + (
            " (proven best)" if solution.proven else " (not proven best: the search stopped before the end)"
        )
    elif solution.status is SolveStatus.UNWINNABLE:
        verdict = "unwinnable (an exhaustive search found no win)"
    elif solution.stopped_by is Limit.TIME:
        verdict = f"gave up (the time limit of {timeout:g} s ran out before a win was found; raise it with --timeout)"
    else:
        verdict = "gave up (the node budget ran out before a win was found; raise it with --budget)"
    lines = [
        f"{name}: {verdict}",
        "This search knows the whole stock: an upper bound for any real player, not a player.",
        f"Searched {solution.nodes:,} positions in {solution.seconds:.1f} s.",
    ]
    if record_text is not None:
        lines.append("The winning line, as a game record:")
        lines.append(record_text.rstrip("\n"))
    return "\n".join(lines)


def _forfeits_text(forfeits: dict[str, int]) -> str:
    return "; ".join(f"{count} x {reason}" for reason, count in forfeits.items()) if forfeits else "none"


LOST_DEALS_SHOWN = 20  # more are listed by --format json only


def _dealt(summary: Summary) -> str:
    """Which deals a summary covers: a range, a shard of one, or (with some missing) the ones played."""
    kind = "sealed deals" if summary.sealed else "deals"
    if summary.shard is not None:  # every Nth deal of the range: say which, not a range it does not cover
        index, count = summary.shard
        return f"{summary.games} {kind} of shard {index}/{count} (one deal in {count}, from deal {summary.start})"
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


def compare_text(comparison: Comparison) -> str:
    """A table with a row a player, then a verdict line for each pair."""
    summaries = comparison.summaries
    games = summaries[0].games if summaries else 0
    first = summaries[0].start if summaries else 0
    gap = missing_line(summaries[0]) if summaries else None
    if gap is not None:
        lines = [gap[0].upper() + gap[1:]]
    else:
        lines = [] if comparison.complete else [f"Stopped early: {games} deals played by every player so far."]
    if summaries and (summaries[0].missing or not comparison.complete) and summaries[0].span is not None:
        low, high = summaries[0].span
        lines.append(f"{games} deals between {low} and {high}, played by every player:")
    else:
        lines.append(f"{games} deals, {first} to {first + games - 1}, played by every player:")
    width = max([6] + [len(s.player) for s in summaries])
    lines.append(
        f"  {'player':<{width}}  {'won':>16}  {'95% interval':>15}  {'score of wins':>13}  {'score':>6}  "
        f"{'ms/move':>8}  forfeits"
    )
    for s in summaries:
        mean = f"{s.mean_score:.2f}" if s.mean_score is not None else "-"
        won = f"{s.wins}/{s.games} {s.win_rate:.1%}"
        interval = f"{s.win_low:.1%}-{s.win_high:.1%}"
        lines.append(
            f"  {s.player:<{width}}  {won:>16}  {interval:>15}  {mean:>13}  {s.mean_score_all:>6.2f}  "
            f"{s.seconds_per_move * 1000:>8.2f}  {_forfeits_text(s.forfeits)}"
        )
    lines.append("(score: the mean score with a lost game counting 0)")
    lines.extend(pair_verdict(pair) for pair in comparison.pairs)
    return "\n".join(lines)


def compare_json(comparison: Comparison) -> dict[str, Any]:
    """`compare --format json`: the comparison's own JSON, each pair with its verdict in words."""
    return comparison.to_json(verdicts=[pair_verdict(pair) for pair in comparison.pairs])


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def pair_verdict(pair: Pair) -> str:
    """The finding of a paired comparison in one sentence, with the size of the difference and its p-value."""
    from ..runs.compare import Finding

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


def other_hint(player: str, step: Step, *, json_output: bool) -> str:
    """The move another player would make (it has no ratings to show)."""
    if json_output:
        return json_line({"move": str(step.move), "player": player, "ratings": []})
    return f"Hint from {player}: {step.move}\n"


def deal_potential(solution: Solution, played: int | None = None) -> str:
    """What the deal allowed, for the end of a game: the solver's best score, said as plainly as it is known;
    `played`, the score of the game just won, is a bound as good as the solver's (a quick search may find
    less than the player did: then the player's score is the bound, and said so)."""
    from ..players.solver import SolveStatus

    if solution.status is SolveStatus.WINNABLE:
        if solution.proven:
            return f"A player who knew the stock could have scored {solution.score}."
        if played is not None and solution.score is not None and played >= solution.score:
            return (
                f"A player who knew the stock could have scored at least your {played} "
                "(a quick search found no more; analyze searches longer and may find more)."
            )
        return (
            f"A player who knew the stock could have scored at least {solution.score} "
            "(a quick search; analyze searches longer and may find more)."
        )
    if solution.status is SolveStatus.UNWINNABLE:
        return "No player could have won this deal, even knowing the stock."
    return "The solver found no win for this deal in its time."


# -- history ---------------------------------------------------------------------------


def hint_output(hint: ExpertHint | Step, state: State, player: str, *, json_output: bool, detail: bool) -> str:
    """`hint` as it prints: the expert's ratings (`app.actions.ExpertHint`), or another player's move."""
    from ..rules.game import Step

    if isinstance(hint, Step):
        return other_hint(player, hint, json_output=json_output)
    if json_output:
        return json_line(hint.to_json())
    return hint_text(hint.ratings, state, detail=detail, risks=hint.risks) + "\n"
