"""The crash test's pieces: the tool started and killed with its whole process group (`Tool`), what a campaign
counts (`Tally`), and a broken promise (`Failed`). `fuzz.crash` runs the campaign, `fuzz.crash_cases` its runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KILLPG: Callable[[int, int], None] | None = getattr(os, "killpg", None)  # POSIX only
SIGKILL: int | None = getattr(signal, "SIGKILL", None)  # POSIX only
HANG_SECONDS = 300.0  # a run let finish that takes longer has hung
TIMING = {"seconds_per_move", "median_seconds_per_move", "games_per_second", "move_seconds", "seconds"}


class Failed(Exception):
    """A promise broken after a kill (or at the end of a run): the message says which, and where."""


@dataclass
class Attempt:
    """One start of the tool: whether it was killed, and what it said."""

    killed: bool
    code: int
    out: str
    err: str
    seconds: float


@dataclass
class Tally:
    """What the campaign did and found."""

    seed: int
    kills: int = 0
    runs: int = 0
    starts: int = 0
    seconds: float = 0.0
    runs_by_kind: dict[str, int] = field(default_factory=dict)
    kills_by_kind: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        said = [
            f"crash test, seed {self.seed}: {self.kills:,} kills in {self.runs:,} runs "
            f"({self.starts:,} starts of the tool, {self.seconds:,.0f} s)"
        ]
        for kind in sorted(self.runs_by_kind):
            said.append(f"  {kind:8} {self.runs_by_kind[kind]:>5,} runs {self.kills_by_kind.get(kind, 0):>6,} kills")
        said.append(f"  {len(self.failures)} failures" + "".join(f"\n    {failure}" for failure in self.failures))
        return said


def normalised(value: Any) -> Any:
    """A JSON value without what varies from run to run: the times."""
    if isinstance(value, dict):
        return {key: normalised(item) for key, item in value.items() if key not in TIMING}
    if isinstance(value, list):
        return [normalised(item) for item in value]
    return value


def json_lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


class Tool:
    """The tool started as a user starts it, in a folder and with a data folder of the run's own."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally

    @staticmethod
    def environment(home: Path) -> dict[str, str]:
        environment = {key: value for key, value in os.environ.items() if not key.startswith("FOURSQUARE_")}
        if "FOURSQUARE_PLAYOUTS" in os.environ:  # the Python playouts, when asked for
            environment["FOURSQUARE_PLAYOUTS"] = os.environ["FOURSQUARE_PLAYOUTS"]
        environment.update(FOURSQUARE_HOME=str(home), FOURSQUARE_CONFIG=str(home / "none.toml"), NO_COLOR="1")
        return environment

    def start(self, args: list[str], where: Path, *, stdin: str = "", kill_after: float | None = None) -> Attempt:
        """`foursquare ARGS` in `where` (its data folder `where/home`), killed with its whole process group after
        `kill_after` seconds if it is still running then; else let finish (a hang past HANG_SECONDS fails)."""
        assert KILLPG is not None and SIGKILL is not None
        self.tally.starts += 1
        began = time.monotonic()
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            process = subprocess.Popen(
                [sys.executable, "-m", "foursquare_cli", *args],
                cwd=where,
                env=self.environment(where / "home"),
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=err,
                start_new_session=True,  # a group of its own: the kill reaches its workers too
            )
            assert process.stdin is not None
            try:
                process.stdin.write(stdin.encode())
                process.stdin.close()
            except BrokenPipeError:
                pass
            try:
                process.wait(timeout=HANG_SECONDS if kill_after is None else kill_after)
            except subprocess.TimeoutExpired:
                try:
                    KILLPG(process.pid, SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
                if kill_after is None:
                    raise Failed(f"foursquare {' '.join(args)} hung (killed after {HANG_SECONDS:.0f} s)") from None
            self._wait_for_the_group(process.pid, args)
            out.seek(0)
            err.seek(0)
            said_out, said_err = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        killed = process.returncode == -SIGKILL
        if "Traceback" in said_err:
            how = "killed" if killed else f"exit {process.returncode}"
            raise Failed(f"foursquare {' '.join(args)} ({how}): a traceback: {said_err[-1500:]}")
        return Attempt(killed, process.returncode, said_out, said_err, time.monotonic() - began)

    @staticmethod
    def _wait_for_the_group(group: int, args: list[str]) -> None:
        """Every process of the group gone (killed, or ended with the run): none may outlive it and hold a lock."""
        assert KILLPG is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                KILLPG(group, 0)
            except ProcessLookupError:
                return
            except PermissionError:  # a member is a zombie not yet reaped, or already gone on some systems
                pass
            time.sleep(0.01)
        raise Failed(f"foursquare {' '.join(args)}: a process of its group outlived it by 30 s")

    def run(self, args: list[str], where: Path, *, stdin: str = "", codes: tuple[int, ...] = (0,)) -> Attempt:
        """`foursquare ARGS` let finish: Failed unless it exits with one of `codes`."""
        done = self.start(args, where, stdin=stdin)
        if done.code not in codes:
            raise Failed(f"foursquare {' '.join(args)} (in {where}) exited {done.code}: {done.err.strip()[-800:]}")
        return done
