"""The kinds of run of the crash test (`python -m fuzz.crash`), each with what it holds after every kill and at its end.

Every run has an uninterrupted twin, its reference, run once a campaign in `WORK/references/`: the same
command let finish, whose output, results lines, `summarize` and history the killed and resumed run must give.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .crash_tool import Attempt, Failed, Tool, json_lines, normalised


@dataclass(frozen=True)
class RunCase:
    """A `stats` or `compare` command (without --results, --shard, --jobs), and how it is cut and played."""

    command: tuple[str, ...]
    shards: int = 1
    jobs: int = 1


RUN_CASES: dict[str, list[RunCase]] = {
    "stats": [
        RunCase(("stats", "-p", "greedy", "-n", "3000")),
        RunCase(("stats", "-p", "random", "-n", "4000", "--start", "10000")),
        RunCase(("stats", "-p", "expert:playouts=50", "-n", "8", "--start", "100")),
    ],
    "shards": [
        RunCase(("stats", "-p", "greedy", "-n", "3000", "--start", "20000"), shards=3),
        RunCase(("compare", "greedy", "random", "-n", "1500"), shards=2),
        RunCase(("compare", "expert:playouts=40", "greedy", "-n", "8", "--start", "60"), shards=2),
    ],
    "compare": [
        RunCase(("compare", "greedy", "random", "-n", "1500", "--start", "500")),
        RunCase(("compare", "expert:playouts=40", "greedy", "-n", "6", "--start", "40")),
    ],
    "sprt": [
        RunCase(("compare", "greedy", "random", "--sprt", "-n", "400")),
        RunCase(("compare", "expert:playouts=50", "greedy", "--sprt", "-n", "40")),
    ],
    "jobs": [
        RunCase(("compare", "expert:playouts=50", "greedy", "--sprt", "-n", "40"), jobs=2),
        RunCase(("compare", "greedy", "random", "-n", "600", "--start", "3000"), shards=2, jobs=2),
        RunCase(("stats", "-p", "expert:playouts=50", "-n", "8", "--start", "100"), jobs=2),
    ],
}
GAME_CASES = [(seed, player) for seed in (3, 7, 11, 19, 42) for player in ("greedy", "expert:playouts=50")]
KINDS = {**{kind: 1.0 for kind in RUN_CASES}, "jobs": 0.4, "record": 1.5, "kept": 1.5, "history": 0.6}
HISTORY_RECORDS = 300  # the records a history run's index is built from
MOST_KILLS = 6  # a run is killed one to six times before it is let finish
START_UP = 0.3  # about the seconds a start of the tool takes before it does anything


@dataclass
class RunReference:
    seconds: float
    out: Any
    lines: dict[tuple[str, int], Any]
    summary: Any


@dataclass
class GameReference:
    moves: list[str]
    seconds: float
    check: Any
    kept: Any
    text: str  # its record, as `auto` wrote it, without its meta


def _game_lines(path: Path) -> list[bytes]:
    """The complete lines of a results file (a line cut short by the kill left out)."""
    data = path.read_bytes()
    return data[: data.rfind(b"\n") + 1].splitlines(keepends=True)


def _key(line: dict[str, Any]) -> tuple[str, int]:
    return str(line["player"]), int(line["deal"])


def _record_moves(path: Path) -> list[str]:
    moves = yaml.safe_load(path.read_text(encoding="utf-8")).get("moves") or []
    return [str(move) for move in moves]


def _kept_game(game: dict[str, Any]) -> dict[str, Any]:
    """A game of `history --format json` without what differs between two plays of it: where, when, how long."""
    return {key: value for key, value in game.items() if key not in ("path", "started", "seconds")}


class Campaign:
    """Runs of the chosen kinds, one after the other, drawn from `rng`; what they find goes into the tally."""

    def __init__(self, tool: Tool, work: Path, rng: random.Random, kinds: list[str], *, keep: bool) -> None:
        self.tool, self.work, self.rng, self.keep = tool, work, rng, keep
        self.kinds = kinds
        self._run_references: dict[tuple[str, ...], RunReference] = {}
        self._game_references: dict[tuple[int, str], GameReference] = {}
        self._history_references: dict[str, tuple[float, Any]] = {}
        self._number = 0

    # -- the campaign -------------------------------------------------------------------------------------

    def one_run(self) -> None:
        if self._number < len(self.kinds):  # every kind once first, so a short campaign covers them all
            kind = self.kinds[self._number]
        else:
            kind = self.rng.choices(self.kinds, weights=[KINDS[kind] for kind in self.kinds])[0]
        self._number += 1
        folder = self.work / f"run-{self._number:05}-{kind}"
        (folder / "home").mkdir(parents=True)
        tally = self.tool.tally
        kills_before = tally.kills
        try:
            if kind in RUN_CASES:
                self._results_run(self.rng.choice(RUN_CASES[kind]), folder)
            elif kind in ("record", "kept"):
                self._game_run(*self.rng.choice(GAME_CASES), folder, recorded=kind == "record")
            else:
                self._history_run(self.rng.choice(["rebuild", "refresh"]), folder)
        except Failed as failure:
            tally.failures.append(f"{folder.name}: {failure}")
            print(f"  FAILED {folder.name}: {failure}", flush=True)
        else:
            if not self.keep:
                shutil.rmtree(folder, ignore_errors=True)
        tally.runs += 1
        tally.runs_by_kind[kind] = tally.runs_by_kind.get(kind, 0) + 1
        tally.kills_by_kind[kind] = tally.kills_by_kind.get(kind, 0) + tally.kills - kills_before

    def _killed_until_done(
        self, start: Callable[[float | None], Attempt | None], after_kill: Callable[[], bool], window: float
    ) -> Attempt | None:
        """Start (`start(kill_after)`) and kill, one to MOST_KILLS times, each after a moment uniform over `window`
        seconds, holding `after_kill()` after each kill (True: nothing left to resume), then let it finish. The
        attempt that finished, or None when the work ended with a kill (or needs no start: `start` says None)."""
        kills = self.rng.randint(1, MOST_KILLS)
        while True:
            kill_after = self.rng.uniform(0, window) if kills else None
            attempt = start(kill_after)
            if attempt is None or not attempt.killed:
                return attempt
            kills -= 1
            self.tool.tally.kills += 1
            if after_kill():
                return None

    # -- stats and compare with --results ---------------------------------------------------------------

    def _run_reference(self, case: RunCase) -> RunReference:
        if case.command not in self._run_references:
            folder = self.work / "references" / f"run-{len(self._run_references)}"
            (folder / "home").mkdir(parents=True)
            done = self.tool.run([*case.command, "--results", "ref.jsonl", "--format", "json"], folder)
            lines = {_key(line): normalised(line) for line in json_lines((folder / "ref.jsonl").read_text())[1:]}
            summary = self.tool.run(["summarize", "ref.jsonl", "--format", "json"], folder)
            self._run_references[case.command] = RunReference(
                done.seconds, normalised(json.loads(done.out)), lines, normalised(json.loads(summary.out))
            )
        return self._run_references[case.command]

    def _results_run(self, case: RunCase, folder: Path) -> None:
        reference = self._run_reference(case)
        window = START_UP + max(0.1, reference.seconds - START_UP) / case.shards
        files = []
        for shard in range(1, case.shards + 1):
            name = f"part{shard}.jsonl"
            files.append(name)
            args = [*case.command, "--results", name, "--format", "json"]
            args += ["--shard", f"{shard}/{case.shards}"] if case.shards > 1 else []
            args += ["--jobs", str(case.jobs)] if case.jobs > 1 else []
            kept: list[bytes] = []

            def start(delay: float | None, args: list[str] = args) -> Attempt:
                return self.tool.start(args, folder, kill_after=delay)

            def after_kill(path: Path = folder / name, kept: list[bytes] = kept) -> bool:
                kept[:] = self._results_after_kill(path, kept)
                return False

            finished = self._killed_until_done(start, after_kill, window)
            assert finished is not None
            if finished.code != 0:
                raise Failed(f"{' '.join(args)} exited {finished.code} when resumed: {finished.err.strip()[-800:]}")
            if _game_lines(folder / name)[: len(kept)] != kept:
                raise Failed(f"{name}: lines kept before a kill are gone or changed after the resumed run")
            if case.shards == 1 and normalised(json.loads(finished.out)) != reference.out:
                raise Failed(f"{' '.join(args)}: resumed, it printed other figures than the run never killed")
        self._results_hold(case, reference, folder, files)

    def _results_after_kill(self, path: Path, kept: list[bytes]) -> list[bytes]:
        """After a kill: the file is absent (only when it held nothing yet), or `summarize` reads it; the lines
        it held before stay as they were."""
        if not path.exists():
            if kept:
                raise Failed(f"{path.name}: gone after a kill, with {len(kept)} lines kept before")
            return []
        lines = _game_lines(path)
        if lines[: len(kept)] != kept:
            raise Failed(f"{path.name}: lines kept before a kill are gone or changed")
        read = self.tool.start(["summarize", path.name, "--format", "json"], path.parent)
        if read.code != 0:
            raise Failed(
                f"{path.name}: left by a kill, summarize cannot read it (exit {read.code}): {read.err.strip()}"
            )
        return lines

    def _results_hold(self, case: RunCase, reference: RunReference, folder: Path, files: list[str]) -> None:
        """At the end: no game twice, none lost, each as the run never killed played it; the same summary."""
        seen: set[tuple[str, int]] = set()
        last = max(deal for _, deal in reference.lines)
        for name in files:
            for line in json_lines((folder / name).read_text())[1:]:
                key = _key(line)
                if key in seen:
                    raise Failed(f"{name}: deal {key[1]} of {key[0]} is kept twice")
                seen.add(key)
                if key in reference.lines:
                    if normalised(line) != reference.lines[key]:
                        raise Failed(f"{name}: deal {key[1]} of {key[0]} differs from the run never killed")
                elif "--sprt" not in case.command or key[1] <= last:  # --jobs plays ahead of where --sprt stops
                    raise Failed(f"{name}: deal {key[1]} of {key[0]} was not played by the run never killed")
        lost = set(reference.lines) - seen
        if lost:
            raise Failed(f"{len(lost)} games of the run never killed are missing, {sorted(lost)[:3]} among them")
        summary = self.tool.run(["summarize", *files, "--format", "json"], folder)
        if normalised(json.loads(summary.out)) != reference.summary:
            raise Failed(f"summarize {' '.join(files)}: other figures than the run never killed")

    # -- a game from a pipe, recorded and kept ----------------------------------------------------------

    def _game_reference(self, seed: int, player: str) -> GameReference:
        if (seed, player) not in self._game_references:
            folder = self.work / "references" / f"game-{seed}-{player.replace(':', '-').replace('=', '-')}"
            (folder / "home").mkdir(parents=True)
            self.tool.run(["auto", "-p", player, "--seed", str(seed), "--record", "auto.yaml"], folder)
            moves = _record_moves(folder / "auto.yaml")
            played = self.tool.run(["play", "--seed", str(seed)], folder, stdin="\n".join(moves) + "\n")
            (game,) = json.loads(self.tool.run(["history", "--format", "json"], folder).out)["games"]
            check = json.loads(self.tool.run(["check", "--format", "json", game["path"]], folder).out)
            check.pop("path")
            text = (folder / "auto.yaml").read_text(encoding="utf-8").split("meta:")[0]
            self._game_references[(seed, player)] = GameReference(moves, played.seconds, check, _kept_game(game), text)
        return self._game_references[(seed, player)]

    def _history_games(self, folder: Path) -> list[dict[str, Any]]:
        games: list[dict[str, Any]] = json.loads(self.tool.run(["history", "-n", "1000", "-f", "json"], folder).out)[
            "games"
        ]
        return games

    def _game_run(self, seed: int, player: str, folder: Path, *, recorded: bool) -> None:
        reference = self._game_reference(seed, player)
        record = folder / "game.yaml"
        moves = reference.moves
        played = 0

        def start(delay: float | None) -> Attempt | None:
            path = self._game_in_play(folder, record, recorded)
            if path == "over":
                return None
            if path is None:
                args = ["play", "--seed", str(seed)] + (["--record", record.name] if recorded else [])
                return self.tool.start(args, folder, stdin="\n".join(moves) + "\n", kill_after=delay)
            return self.tool.start(
                ["play", "--resume", path], folder, stdin="\n".join(moves[played:]) + "\n", kill_after=delay
            )

        def after_kill() -> bool:
            nonlocal played
            played = self._game_after_kill(folder, record, recorded, moves, played)
            return played == len(moves)

        window = reference.seconds  # its start-up included
        finished = self._killed_until_done(start, after_kill, window)
        if finished is not None and finished.code != 0:
            raise Failed(f"a game resumed exited {finished.code}: {finished.err.strip()[-800:]}")
        games = self._history_games(folder)
        if len(games) != 1 or _kept_game(games[0]) != reference.kept:
            raise Failed(f"the history holds {len(games)} games, not the one game as played without a kill: {games}")
        kept = Path(games[0]["path"])
        if recorded and kept != record.resolve():
            raise Failed(f"the history keeps {kept}, not the record {record}")
        found = sorted((folder / "home" / "games").glob("*.yaml"))
        if found != ([] if recorded else [kept]):
            raise Failed(f"the games folder holds {[path.name for path in found]}, not the game's record alone")
        check = json.loads(self.tool.run(["check", "--format", "json", str(kept)], folder).out)
        check.pop("path")
        if check != reference.check or _record_moves(kept) != moves:
            raise Failed(f"{kept.name}: another game than the one played without a kill: {check}")

    def _game_in_play(self, folder: Path, record: Path, recorded: bool) -> str | None:
        """The record to resume (a path), None when there is none yet, or "over" when the game ended."""
        if recorded:
            if not record.exists():
                return None
            return "over" if json.loads(self._check(folder, record))["outcome"]["status"] != "playing" else record.name
        games = self._history_games(folder)
        if len(games) > 1:
            raise Failed(f"the history holds the game {len(games)} times: {[game['path'] for game in games]}")
        if not games:
            return None
        return "over" if games[0]["status"] != "playing" else str(games[0]["path"])

    def _check(self, folder: Path, *paths: Path) -> str:
        read = self.tool.start(["check", "--format", "json", *map(str, paths)], folder)
        if read.code != 0:
            raise Failed(f"check {' '.join(path.name for path in paths)}: exit {read.code}: {read.out}{read.err}")
        return read.out

    def _game_after_kill(self, folder: Path, record: Path, recorded: bool, moves: list[str], played: int) -> int:
        """After a kill: every record left is whole (`check` reads it) and holds a beginning of the game, no
        shorter than before; the history reads, and holds the game once at most. The moves recorded now. The
        history is read first, as any next command that looks for the game does: reading it removes the empty
        record reserved for a game killed before its first move (`History._remove_abandoned`)."""
        games = self._history_games(folder)
        records = sorted((folder / "home" / "games").glob("*.yaml"))
        if recorded and records:
            raise Failed(f"a game recorded to a file of its own left {records[0].name} in the games folder")
        if recorded and record.exists():
            records = [record]
        if records:
            self._check(folder, *records)
        if len(games) > 1 or len(records) > 1:
            raise Failed(f"the game is kept twice: {[game['path'] for game in games]}, {[r.name for r in records]}")
        if not records:
            if played:
                raise Failed(f"the record of {played} moves is gone after a kill")
            return 0
        now = _record_moves(records[0])
        if now != moves[: len(now)] or len(now) < played:
            raise Failed(f"{records[0].name}: {len(now)} moves after a kill, not the game's first {played} or more")
        if games and (Path(games[0]["path"]) != records[0].resolve() or games[0]["moves"] != len(now)):
            raise Failed(f"the history says {games[0]}, not the record's {len(now)} moves")
        return len(now)

    # -- the history's index, rebuilt and brought up to date -------------------------------------------

    def _history_template(self) -> Path:
        """HISTORY_RECORDS finished games' records, each with a time of its own, from the games' references."""
        template = self.work / "references" / "history-records"
        if not template.exists():
            texts = [self._game_reference(seed, player).text for seed, player in GAME_CASES]
            template.mkdir(parents=True)
            for number in range(HISTORY_RECORDS):
                started = f"2026-01-{1 + number // 24 % 28:02}T{number % 24:02}:00:{number // 672 % 60:02}Z"
                text = f"{texts[number % len(texts)]}meta:\n  started: '{started}'\n"
                (template / f"game-{number:04}.yaml").write_text(text, encoding="utf-8")
        return template

    def _history_home(self, variant: str, home: Path) -> None:
        """The records of `variant` in `home/games`: all of them (rebuild), or an index of two thirds brought
        up to date with a fifth of them gone and the last third new (refresh)."""
        template = self._history_template()
        games = home / "games"
        games.mkdir(parents=True, exist_ok=True)
        names = sorted(path.name for path in template.glob("game-*.yaml"))
        first = names if variant == "rebuild" else names[: len(names) * 2 // 3]
        for name in first:
            shutil.copyfile(template / name, games / name)
        if variant == "refresh":
            self.tool.run(["history", "-f", "json"], home.parent)
            for name in first[::5]:
                (games / name).unlink()
            for name in names[len(first) :]:
                shutil.copyfile(template / name, games / name)

    def _history_reference(self, variant: str) -> tuple[float, Any]:
        """The time the index took to be rebuilt from the records `variant` ends with, and what `history` said."""
        if variant not in self._history_references:
            folder = self.work / "references" / f"history-{variant}"
            self._history_home(variant, folder / "home")
            (folder / "home" / "history.sqlite").unlink(missing_ok=True)
            done = self.tool.run(["history", "-n", "1000", "-f", "json"], folder)
            said = json.loads(done.out.replace(str(folder / "home"), "HOME"))
            self._history_references[variant] = (done.seconds, said)
        return self._history_references[variant]

    def _history_run(self, variant: str, folder: Path) -> None:
        seconds, reference = self._history_reference(variant)
        self._history_home(variant, folder / "home")
        args = ["history", "-n", "1000", "-f", "json"]
        finished = self._killed_until_done(
            lambda delay: self.tool.start(args, folder, kill_after=delay), lambda: False, seconds
        )
        assert finished is not None
        if finished.code != 0 or "unreadable" in finished.err:
            raise Failed(f"history after kills: exit {finished.code}: {finished.err.strip()}")
        aside = list((folder / "home").glob("history.sqlite.unreadable-*"))
        if aside:
            raise Failed(f"the index was torn by a kill: moved aside as {aside[0].name}")
        if json.loads(finished.out.replace(str(folder / "home"), "HOME")) != reference:
            raise Failed("history after kills: other games or totals than the index never killed")
