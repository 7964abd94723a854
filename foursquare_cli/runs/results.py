"""Results as data: a run's plan, and the file its games are written to as they finish (a public format).

A results file is JSON Lines (`store.logs`: a regular file only, one writer at a
time, a line cut short by a kill left out). The first line is the plan of the run:

    {"foursquare_results": 2, "command": "stats", "players": ["greedy"], "start": 0, "games": 1000,
     "player_seed": 0, "playouts": 4000, "think": null, "move_time": 10.0, "shard": [1, 1], "sealed": false}

then one object a finished game, appended and flushed as it ends:

    {"player": "greedy", "deal": 17, "seed": 17, "won": true, "score": 9, "moves": 31,
     "played": "B2,C2,B2 top,...", "move_seconds": [0.00002, ...], "seconds_per_move": 0.00002, "forfeit": null}

Every game line proves itself: `seed` is the deal it was dealt from (the deal's
number, or with `--sealed` its secret seed, written only once every player has
finished that deal) and `played` its moves, so `summarize` and a resumed run replay
each line through the engine and refuse, with file:line (exit 1), a line whose
moves do not give its result, or whose fields are not of their kind and size.

`--shard I/N` plays the deals of the range whose offset from `start` is I-1 modulo N.
Running the same command on the same file resumes it: the games there are not
played again, and a plan that differs from the file's is refused. `summarize`
merges files of one plan's shards, machines or runs: what one run over their union
would print, with the deals still missing named.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import InvalidInput, UsageError, display_name
from ..rules.cards import SEED_MAX
from ..rules.engine import State
from ..rules.moves import InvalidMoveError, Move
from ..rules.outcomes import WON
from ..store.logs import JsonLinesLog, LogError, read_log
from .plans import (
    MAX_MOVES,
    MAX_SCORE,
    MAX_TEXT,
    PLAN_KEYS,
    RESULTS_FORMAT_VERSION,
    Plan,
    ResultsError,
    is_seconds,
    is_whole,
)
from .stats import GameResult
from .verify import replay_moves, replayable

if TYPE_CHECKING:
    from .analysis import AnalysisSummary

MOVE_SECONDS_MAX = 1e9  # a move of 30 years: past it a time is a hand's, and their sums would overflow to inf (exit 70)

_LINE_KEYS = {
    "player",
    "deal",
    "seed",
    "won",
    "score",
    "moves",
    "played",
    "move_seconds",
    "seconds_per_move",
    "forfeit",
}


def checked_result(line: dict[str, Any], plan: Plan, where: str) -> GameResult:
    """The game of a results file's line, its fields checked and its moves replayed from its seed: InvalidInput
    (`where` is file:line) for a line whose fields are not of their kind, or whose moves do not give it."""

    def refused(message: str) -> InvalidInput:
        return InvalidInput(message, path=where)

    if set(line) != _LINE_KEYS:
        raise refused(f"a game line has the keys {sorted(_LINE_KEYS)}, not {sorted(line)}")
    player, deal, seed, won, score = line["player"], line["deal"], line["seed"], line["won"], line["score"]
    seconds, forfeit, played = line["move_seconds"], line["forfeit"], line["played"]
    if player not in plan.names:
        raise refused(f"player {display_name(str(player)[:MAX_TEXT])!r} is not one of the plan's")
    if not is_whole(deal, 0, SEED_MAX) or not plan.deals.holds(deal):
        raise refused(f"deal {str(deal)[:30]} is not one of the plan's deals")
    if not is_whole(seed, 0, SEED_MAX) or (not plan.deals.sealed and seed != deal):
        raise refused(f"seed {str(seed)[:30]} is not the seed of deal {deal}")
    if not isinstance(won, bool) or not (score is None or is_whole(score, 0, MAX_SCORE)) or won != (score is not None):
        raise refused("won and score: a won game has a score of 0 to 24, a lost one none")
    if not (isinstance(played, str) and len(played) <= MAX_MOVES * 12):
        raise refused("played: the moves, as one string")
    if not (
        isinstance(seconds, list)
        and len(seconds) <= MAX_MOVES
        and all(isinstance(s, int | float) and not isinstance(s, bool) and 0 <= s <= MOVE_SECONDS_MAX for s in seconds)
    ):
        raise refused(f"move_seconds: a list of the seconds each move took (0 to {MOVE_SECONDS_MAX:.0e} each)")
    if not (forfeit is None or (isinstance(forfeit, str) and len(forfeit) <= MAX_TEXT)) or (forfeit and won):
        raise refused("forfeit: the reason a lost game was forfeited, or null")
    per_move = line["seconds_per_move"] or 1
    if not is_whole(line["moves"], 0, MAX_MOVES) or not (is_seconds(per_move) and per_move <= MOVE_SECONDS_MAX):
        raise refused("moves and seconds_per_move: a count and a number")
    moves = played.split(",") if played else []
    if len(moves) != len(seconds) or line["moves"] != len(moves):
        raise refused(f"{len(moves)} moves played, but {len(seconds)} times and a count of {line['moves']}")
    state = State.from_seed(seed)
    for number, text in enumerate(moves, start=1):
        try:
            move = Move.from_str(text)
        except InvalidMoveError:
            raise refused(f"move {number}, {display_name(text[:20])!r}: not a move") from None
        if state.is_over or not state.is_legal(move):
            raise refused(f"move {number}, {move}: not legal there; the line is not this deal's game")
        state.apply(move)
    outcome = state.outcome
    if forfeit is None and (outcome.status is not WON) == won or (forfeit is None and outcome.score != score):
        given = f"won, score {outcome.score}" if outcome.status is WON else outcome.status.value
        raise refused(f"deal {deal} of {player}: its moves give {given}, not what the line says")
    if forfeit is None and not state.is_over:
        raise refused(f"deal {deal} of {player}: its moves leave the game unfinished, and it was not forfeited")
    if forfeit is not None and state.is_over:
        raise refused(f"deal {deal} of {player}: a forfeit, but its moves end the game")
    return GameResult(
        player,
        deal,
        won,
        score,
        tuple(float(s) for s in seconds),
        forfeit,
        tuple(moves),
        seed if plan.deals.sealed else None,
    )


def _games_of(
    path: str, plan: Plan, entries: list[tuple[int, dict[str, Any]]], verify: bool = False
) -> dict[tuple[str, int], GameResult]:
    """The games of a file's lines, each checked; with `verify`, each of a player that can be asked again
    replayed by it (`verify`)."""
    games: dict[tuple[str, int], GameResult] = {}
    seeds: dict[int, int] = {}
    asked = {player.text: player for player in plan.players if replayable(player)} if verify else {}
    for number, line in entries:
        where = f"{path}:{number}"
        result = checked_result(line, plan, where)
        if result.player in asked:
            replay_moves(asked[result.player], result, where)
        if (result.player, result.seed) in games:
            raise InvalidInput(f"deal {result.seed} of {result.player} is in the file twice", path=where)
        problem = sealing_problem(seeds, result)
        if problem is not None:
            raise InvalidInput(problem, path=where)
        games[(result.player, result.seed)] = result
    return games


def sealing_problem(seeds: dict[int, int], result: GameResult, others: str = "the deal's other players") -> str | None:
    """What disproves that `result`, a game of a sealed run, was dealt as sealing deals (None for a game that
    is not sealed, or fits): a seed that is its deal's public number, or another seed than the other players
    of its deal had (`others`, as the message names them). `seeds` holds each deal's seed as the lines are read."""
    if result.sealed_seed is None:
        return None
    if result.sealed_seed == result.seed:
        return f"deal {result.seed} of {result.player}: sealed, but dealt from the deal's own public number"
    first = seeds.setdefault(result.seed, result.sealed_seed)
    if first != result.sealed_seed:
        return (
            f"deal {result.seed} of {result.player}: dealt from another seed than {others}; "
            "every player of a sealed deal plays the same stock"
        )
    return None


def read_results(path: str, verify: bool = False) -> tuple[Plan, dict[tuple[str, int], GameResult]]:
    """The plan and the games of a results file, every line checked (see `checked_result`); ResultsError for a
    file that is not there or holds no line (said so, not as a file of another version)."""
    header, entries = _read(path)
    if header is None:
        try:
            size = os.stat(path).st_size
        except OSError as error:  # not there: said as every command says it
            raise ResultsError(f"cannot read: {error.strerror or error}", path=path) from None
        said = "is empty" if size == 0 else "holds no whole line"
        raise ResultsError(f"{said}: a results file begins with the plan of its run (--results writes it)", path=path)
    plan = Plan.from_header(header, path)
    return plan, _games_of(path, plan, entries, verify)


def _read(path: str) -> tuple[dict[str, Any] | None, list[tuple[int, dict[str, Any]]]]:
    try:
        return read_log(path)
    except LogError as error:
        raise ResultsError(error.message, path=path) from None


class ResultsFile:
    """The results file of a run: games already in it (checked), and each new one appended as it ends.

    For a sealed plan a deal's lines are written together, once every player has
    finished it: until then its secret seed is in no file.
    """

    def __init__(self, path: str, plan: Plan) -> None:
        self.path = path
        self.plan = plan
        self._waiting: dict[int, list[GameResult]] = {}
        self._log = JsonLinesLog(path, plan.to_json())
        try:
            if self._log.header is not None:
                header = self._log.header
                found = Plan.from_header(header, path)
                if found != plan:
                    wanted = plan.to_json()
                    differ = [key for key in wanted if header.get(key) != wanted[key]]
                    raise ResultsError(
                        f"holds another run ({', '.join(differ)} differ); give another file to start a new one",
                        path=path,
                    )
            self.done = _games_of(path, plan, self._log.entries)
            self._log.begin(plan.to_json())
        except BaseException:  # whatever stops the opening, the file or client is let go; it goes on up
            self._log.close()
            raise

    def add(self, result: GameResult) -> None:
        if not self.plan.deals.sealed:
            self._write(result)
            return
        waiting = self._waiting.setdefault(result.seed, [])
        waiting.append(result)
        if len(waiting) == len(self.plan.players):
            for finished in self._waiting.pop(result.seed):
                self._write(finished)

    def _write(self, result: GameResult) -> None:
        self._log.append(result.to_json())  # WriteError (exit 74) when the write fails
        self.done[(result.player, result.seed)] = result

    def close(self) -> None:
        self._log.close()


class Merged(NamedTuple):
    """The union of results files of one plan (`summarize`): the plan, its games, and what is still missing."""

    plan: Plan
    games: dict[tuple[str, int], GameResult]
    missing: int  # deals of the plan that not every player has finished
    first_missing: tuple[int, ...]  # the first of them (at most MISSING_SHOWN)
    not_replayed: tuple[str, ...] | None = None  # read with `verify`: the players whose games could not be replayed


MISSING_SHOWN = 20


def _identity(path: str) -> tuple[int, int] | None:
    """A file's device and inode (what names it does not change); None for standard input or a file gone."""
    if path == "-":
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def merged(paths: Iterable[str], verify: bool = False) -> Merged:
    """The plan and the games of results files of one plan (any shards, machines, runs): the union, refused
    with a line when the files disagree on the plan or hold the same game twice; the deals missing named.
    `verify`: each game of a player that can be asked again is replayed by it (`runs.verify`)."""
    plan: Plan | None = None
    games: dict[tuple[str, int], GameResult] = {}
    seeds: dict[int, int] = {}
    first = ""
    seen: dict[tuple[int, int], str] = {}  # each file by its identity: the same file by another name is refused
    for path in paths:
        this, found = read_results(path, verify)
        identity = _identity(path)
        if identity is not None and identity in seen:
            said = "given twice" if seen[identity] == path else f"the same file as {display_name(seen[identity])}"
            raise ResultsError(f"{said}; give each file once", path=path)
        if identity is not None:
            seen[identity] = path
        whole = this._replace(deals=this.deals._replace(shard=(1, 1)))
        if plan is None:
            plan, first = whole, path
        elif whole != plan:
            ours, theirs = whole.to_json(), plan.to_json()
            differ = [key for key in (*PLAN_KEYS, "sealed") if ours[key] != theirs[key]]
            raise ResultsError(f"another plan than {display_name(first)} ({', '.join(differ)} differ)", path=path)
        for key, result in found.items():
            if key in games:
                said = f"deal {result.seed} of {key[0]} is in an earlier file too: the files overlap"
                raise ResultsError(said, path=path)
            problem = sealing_problem(seeds, result, "its other players in an earlier file")
            if problem is not None:
                raise ResultsError(problem, path=path)
            games[key] = result
    if plan is None:
        raise UsageError("give at least one results file")
    finished = {deal for _, deal in games if all((player, deal) in games for player in plan.names)}
    missing = plan.deals.deal_count() - len(finished)
    not_replayed = tuple(player.text for player in plan.players if not replayable(player)) if verify else None
    return Merged(plan, games, missing, first_missing(plan, finished), not_replayed)


def first_missing(plan: Plan, finished: set[int]) -> tuple[int, ...]:
    """The plan's first deals not in `finished`, at most MISSING_SHOWN: what `summarize` and a stopped run name
    (at most len(finished) + MISSING_SHOWN steps, however long the range)."""
    if plan.deals.deal_count() == len(finished):
        return ()
    unplayed = (deal for deal in plan.deals.each_deal() if deal not in finished)
    return tuple(itertools.islice(unplayed, MISSING_SHOWN))


class AnalysisSettings(NamedTuple):
    """What an `analyze` run is made with: the deal given, the expert, the solver's budget (its results file's
    first line)."""

    seed: int | None
    player_seed: int
    playouts: int
    think: float | None
    solve_budget: int

    def to_json(self) -> dict[str, Any]:
        return {"foursquare_results": RESULTS_FORMAT_VERSION, "command": "analyze", **self._asdict()}


class AnalysisResults:
    """`analyze --results FILE`: its settings first, then one object a file analysed (the summary `analyze
    --format json` prints), appended and flushed as each file is done (`store.logs`, as for stats and
    compare). The same command on the same FILE skips the files already there; other settings are refused."""

    def __init__(self, path: str, settings: AnalysisSettings) -> None:
        self.path = path
        wanted = settings.to_json()  # the first line
        self._log = JsonLinesLog(path, wanted)
        try:
            header = self._log.header
            if header is not None and header != wanted:
                if header.get("command") != "analyze" or header.get("foursquare_results") != RESULTS_FORMAT_VERSION:
                    raise ResultsError("not a results file of analyze (docs/protocol.md, section 9)", path=path)
                differ = [key for key in wanted if header.get(key) != wanted[key]]
                raise ResultsError(f"holds another run ({', '.join(differ)} differ); give another file", path=path)
            self.done: dict[str, dict[str, Any]] = {}
            for number, line in self._log.entries:
                if not isinstance(line.get("path"), str):
                    raise InvalidInput("an analysis line names the file it analysed", path=f"{path}:{number}")
                self.done[line["path"]] = line
            self._log.begin(settings.to_json())
        except BaseException:  # whatever stops the opening, the file or client is let go; it goes on up
            self._log.close()
            raise

    def add(self, summary: AnalysisSummary) -> None:
        self._log.append(summary.to_json())  # WriteError (exit 74) when the write fails
        self.done[summary.path] = summary.to_json()

    def close(self) -> None:
        self._log.close()
