"""Results as data: a run's plan, and the file its games are written to as they finish (a public format).

A results file is JSON Lines. The first line is the plan of the run that wrote it:

    {"foursquare_results": 1, "command": "stats", "players": ["greedy"], "start": 0, "games": 1000,
     "player_seed": 0, "playouts": 20000, "think": null, "move_time": 10.0, "shard": [1, 1]}

then one object a finished game, appended and flushed as it ends:

    {"player": "greedy", "deal": 17, "won": true, "score": 9, "moves": 31,
     "move_seconds": [0.00002, ...], "seconds_per_move": 0.00002, "forfeit": null}

`--shard I/N` plays the deals of the range whose offset from `start` is I-1 modulo N.
Running the same command on the same file resumes it: the games there are not
played again, and a plan that differs from the file's is refused. A line cut short
by a kill is dropped (the game is played again). `summarize` merges files of one
plan's shards, machines or runs: what one run over their union would print.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..errors import UsageError, display_name
from .stats import GameResult

FORMAT_VERSION = 1
_PLAN_KEYS = ("command", "players", "start", "games", "player_seed", "playouts", "think", "move_time")


class Plan(NamedTuple):
    """What a run of `stats` or `compare` plays: the players, the deals (a shard of a range), the settings."""

    command: str
    players: tuple[str, ...]
    start: int
    games: int
    player_seed: int
    playouts: int
    think: float | None
    move_time: float
    shard: tuple[int, int] = (1, 1)

    def deals(self) -> list[int]:
        index, count = self.shard
        return [deal for deal in range(self.start, self.start + self.games) if (deal - self.start) % count == index - 1]

    def header(self) -> dict[str, Any]:
        return {"foursquare_results": FORMAT_VERSION, **{key: _plain(getattr(self, key)) for key in _PLAN_KEYS},
                "shard": list(self.shard)}  # fmt: skip


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` (1 <= I <= N): the I-th of N parts of a range; UsageError otherwise."""
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit()) or not 1 <= int(index) <= int(count) or len(text) > 20:
        raise UsageError(f"{text[:30]!r}: a shard is I/N, the I-th of N parts (1/4 to 4/4)")
    return int(index), int(count)


class ResultsError(UsageError):
    """A results file that cannot be used for this run (another plan, not a results file, unreadable)."""


def result_json(player: str, result: GameResult) -> dict[str, Any]:
    seconds = [round(value, 7) for value in result.move_seconds]
    return {
        "player": player,
        "deal": result.seed,
        "won": result.won,
        "score": result.score,
        "moves": result.moves,
        "move_seconds": seconds,
        "seconds_per_move": round(sum(seconds) / len(seconds), 7) if seconds else 0.0,
        "forfeit": result.forfeit,
    }


def _result(line: dict[str, Any]) -> tuple[str, GameResult]:
    return line["player"], GameResult(line["deal"], line["won"], line["score"], tuple(line["move_seconds"]),
                                      line["forfeit"])  # fmt: skip


def read_results(path: str) -> tuple[dict[str, Any], list[tuple[str, GameResult]]]:
    """The plan (header) and the games of a results file; a last line cut short is left out."""
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ResultsError(f"cannot read: {getattr(error, 'strerror', None) or error}", path=path) from None
    lines = text.split("\n")
    complete = lines[:-1]  # the part after the last newline, if any, was cut short by a kill
    try:
        header = json.loads(complete[0]) if complete else None
        if not isinstance(header, dict) or header.get("foursquare_results") != FORMAT_VERSION:
            raise ValueError
        games = [_result(json.loads(line)) for line in complete[1:] if line.strip()]
    except (ValueError, KeyError, TypeError, IndexError):
        raise ResultsError("not a results file of this version (see docs/formats.md: results)", path=path) from None
    return header, games


class ResultsFile:
    """The results file of a run: games already in it, and each new one appended and flushed as it ends."""

    def __init__(self, path: str, plan: Plan) -> None:
        self.path = path
        self.done: dict[tuple[str, int], GameResult] = {}
        wanted = plan.header()
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if exists:
            header, games = read_results(path)
            if header != wanted:
                differ = [key for key in wanted if header.get(key) != wanted[key]]
                raise ResultsError(
                    f"holds another run ({', '.join(differ)} differ); give another file to start a new one",
                    path=path,
                )
            self.done = {(player, result.seed): result for player, result in games}
            self._cut_to_last_line()
        try:
            self._stream = open(path, "a", encoding="utf-8")
            if not exists:
                self._write(wanted)
        except OSError as error:
            raise ResultsError(f"cannot write: {error.strerror or error}", path=path) from None

    def _cut_to_last_line(self) -> None:
        with open(self.path, "rb+") as stream:
            data = stream.read()
            if not data.endswith(b"\n"):
                stream.truncate(data.rfind(b"\n") + 1)

    def _write(self, value: dict[str, Any]) -> None:
        self._stream.write(json.dumps(value, separators=(",", ":")) + "\n")
        self._stream.flush()

    def add(self, player: str, result: GameResult) -> None:
        try:
            self._write(result_json(player, result))
        except OSError as error:
            raise ResultsError(f"cannot write: {error.strerror or error}", path=self.path) from None
        self.done[(player, result.seed)] = result

    def close(self) -> None:
        self._stream.close()


def merged(paths: Iterable[str]) -> tuple[Plan, dict[tuple[str, int], GameResult]]:
    """The plan and the games of results files of one plan (any shards, machines, runs): the union, refused
    with a line when the files disagree on the plan or hold the same game twice."""
    plan: Plan | None = None
    games: dict[tuple[str, int], GameResult] = {}
    first = ""
    for path in paths:
        header, found = read_results(path)
        this = Plan(header["command"], tuple(header["players"]), header["start"], header["games"],
                    header["player_seed"], header["playouts"], header["think"], header["move_time"])  # fmt: skip
        if plan is None:
            plan, first = this, path
        elif this != plan:
            differ = [key for key in _PLAN_KEYS if getattr(this, key) != getattr(plan, key)]
            raise ResultsError(f"another plan than {display_name(first)} ({', '.join(differ)} differ)", path=path)
        for player, result in found:
            if (player, result.seed) in games:
                raise ResultsError(f"deal {result.seed} of {player} is in another file too: overlapping", path=path)
            games[(player, result.seed)] = result
    if plan is None:
        raise UsageError("give at least one results file")
    return plan, games


class AnalysisResults:
    """`analyze --results FILE`: its settings first, then one object a file analysed (the summary `analyze
    --format json` prints), appended and flushed as each file is done. The same command on the same FILE
    skips the files already there; other settings are refused."""

    def __init__(self, path: str, settings: dict[str, Any]) -> None:
        self.path = path
        wanted = {"foursquare_results": FORMAT_VERSION, "command": "analyze", **settings}
        self.done: dict[str, dict[str, Any]] = {}
        if os.path.exists(path) and os.path.getsize(path) > 0:
            try:
                with open(path, encoding="utf-8") as stream:
                    lines = stream.read().split("\n")[:-1]
                header = json.loads(lines[0])
                self.done = {line["path"]: line for line in map(json.loads, lines[1:]) if line}
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                raise ResultsError("not a results file of analyze (see docs/formats.md: results)", path=path) from None
            if header != wanted:
                differ = [key for key in wanted if header.get(key) != wanted[key]]
                raise ResultsError(f"holds another run ({', '.join(differ)} differ); give another file", path=path)
        try:
            self._stream = open(path, "a", encoding="utf-8")
            if not self.done and os.path.getsize(path) == 0:
                self.add_line(wanted)
        except OSError as error:
            raise ResultsError(f"cannot write: {error.strerror or error}", path=path) from None

    def add_line(self, value: dict[str, Any]) -> None:
        self._stream.write(json.dumps(value, separators=(",", ":")) + "\n")
        self._stream.flush()

    def add(self, summary: dict[str, Any]) -> None:
        self.add_line(summary)
        self.done[summary["path"]] = summary

    def close(self) -> None:
        self._stream.close()
