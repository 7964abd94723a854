"""Outside players: any program (SPEC section 7) or Python class can play where a player is named.

Both run in a process of their own, so whatever they do they can only forfeit:

- `cmd:COMMAND`: a program that speaks the move protocol. COMMAND is split like a
  shell's words (`shlex`) and never run through a shell. One process plays game
  after game: it is sent the state (a JSON line of SPEC section 5) when it is to
  move and answers with a move; at the end of a game it is sent the last state and
  no answer is awaited (an answer sent anyway is dropped before the next game). A
  program that answers with an invalid or illegal move, exits, or does not answer
  within the time limit forfeits the game, and is started afresh for the next one.
  What it writes on standard error is not the tool's output.
- `module:attribute`: a class or factory on the import path, run by `host` in a
  child Python process that speaks the same protocol; it is built afresh for each
  game (with the player seed if it takes an argument) and shown a position rebuilt
  from the states, its unseen cards shuffled anew, never the stock.

Every program runs in a process group of its own, ended with its children when it
forfeits or the run is over; on Linux it is also killed when the tool's process
dies, so a killed run leaves no player behind.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import signal
import subprocess
import sys
import time

from ..errors import Forfeit, PlayerError
from ..formats.protocol import json_line, state_line
from ..rules.engine import State
from ..rules.game import Step
from ..rules.moves import InvalidMoveError, Move

__all__ = ["DEFAULT_MOVE_TIME", "Forfeit", "ModulePlayer", "ProgramPlayer", "close_programs", "running_program"]

DEFAULT_MOVE_TIME = 10.0
MAX_ANSWER_BYTES = 4096
STARTUP_TIME = 30.0  # seconds a module player's host may take to import its module
_SLICE = 0.1  # the longest single wait, so an exit or a deadline is seen within it


def _die_with_parent() -> None:
    """In the program's process, before it runs: on Linux, be killed when the tool's process dies, so a
    killed worker leaves no program behind (elsewhere, `close` is the only guard)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_RUNNING: dict[tuple[str, float], ProgramPlayer] = {}


def running_program(spec: str, move_time: float) -> ProgramPlayer:
    """The outside player of this process for `spec` (`cmd:...` or `module:...`): one long-lived process a
    worker, closed at its exit. A module player's host is checked (imported) here, once."""
    key = (spec, move_time)
    if key not in _RUNNING:
        if not _RUNNING:
            import atexit
            import multiprocessing.util

            atexit.register(close_programs)
            multiprocessing.util.Finalize(None, close_programs, exitpriority=10)
        _RUNNING[key] = ProgramPlayer(spec[4:], move_time) if spec.startswith("cmd:") else ModulePlayer(spec, move_time)
    return _RUNNING[key]


def forget_programs() -> None:
    """In a new worker process: the parent's outside players are the parent's to close, not this one's."""
    _RUNNING.clear()


def close_programs() -> None:
    """Close every outside player this process started (the run is over)."""
    while _RUNNING:
        _, player = _RUNNING.popitem()
        player.close()


def _parse_move(answer: str, state: State, ply: int) -> Move:
    shown = "".join(ch if ch.isprintable() else "?" for ch in answer[:30])
    try:
        move = Move.from_str(answer)
    except InvalidMoveError:
        raise Forfeit(f"illegal move {shown!r} at ply {ply}") from None
    if not state.is_legal(move):
        raise Forfeit(f"illegal move {shown!r} at ply {ply}")
    return move


class ProgramPlayer:
    """A program speaking the move protocol, kept running from game to game (see the module's docstring)."""

    def __init__(self, command: str, move_time: float = DEFAULT_MOVE_TIME) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise PlayerError(f"cmd:{command}: {error}") from None
        if not self.argv:
            raise PlayerError("cmd: names no program; write cmd:COMMAND")
        self.name = f"cmd:{command}"
        self.move_time = move_time
        self._process: subprocess.Popen[bytes] | None = None
        self._pending = b""
        self._step: Step | None = None
        self._answered_end = False  # the last state of a game was sent: a stray answer may follow

    # -- the process ---------------------------------------------------------------

    def _popen(self, environment: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        """The program started: its own process group (ended whole, with its children), its standard error
        not the tool's; OSError when it cannot start."""
        process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
            start_new_session=True,
            env=environment,
        )
        assert process.stdin is not None and process.stdout is not None
        os.set_blocking(process.stdin.fileno(), False)
        return process

    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            process = self._popen()
        except OSError as error:
            raise Forfeit(f"could not start: {error.strerror or error}") from None
        return process

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._pending = b""
            self._process = self._spawn()
        return self._process

    def _stop(self) -> None:
        """End the process and its group now (after a forfeit): it starts afresh for the next game."""
        process, self._process = self._process, None
        self._step = None  # whatever comes next begins a game
        if process is None:
            return
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()

    def close(self) -> None:
        """The run is over: close the program's input and give it a moment to exit, then end its group."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=2)
        self._stop()

    def _exited(self) -> Forfeit:
        """The program closed its output or its input, or exited: its exit code, then end it."""
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=1)
        self._stop()
        return Forfeit(f"exited with code {code}" if code is not None else "closed its output")

    def _late(self) -> Forfeit:
        self._stop()
        return Forfeit(f"no answer within {self.move_time:g} s")

    def _send(self, line: bytes, deadline: float) -> None:
        process = self._start()
        assert process.stdin is not None
        fd = process.stdin.fileno()
        while line:
            if process.poll() is not None:
                raise self._exited()
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._late()
            _, writable, _ = select.select([], [fd], [], min(left, _SLICE))
            if writable:
                try:
                    line = line[os.write(fd, line) :]
                except BlockingIOError:
                    continue
                except OSError:
                    raise self._exited() from None

    def _receive(self, deadline: float) -> str:
        process = self._start()
        assert process.stdout is not None
        fd = process.stdout.fileno()
        while b"\n" not in self._pending:
            if len(self._pending) > MAX_ANSWER_BYTES:
                self._stop()
                raise Forfeit(f"an answer longer than {MAX_ANSWER_BYTES} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._late()
            readable, _, _ = select.select([fd], [], [], min(left, _SLICE))
            if readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._exited()
                self._pending += chunk
            elif process.poll() is not None:  # exited, though a child of its may still hold the pipe
                raise self._exited()
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    def _drop_stray_answers(self) -> None:
        """Before a game: whatever the program wrote after the last state of the previous one (where no
        answer is awaited) is dropped, so it is never taken for this game's first move."""
        process = self._process
        if process is None or process.stdout is None:
            return
        fd = process.stdout.fileno()
        wait = 0.02 if self._answered_end else 0.0
        self._answered_end = False
        while True:
            readable, _, _ = select.select([fd], [], [], wait)
            if not readable:
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            wait = 0.0
        self._pending = b""

    # -- the player ------------------------------------------------------------------

    def begin(self) -> None:
        """A game begins."""
        self._drop_stray_answers()

    def observe(self, step: Step) -> None:
        """Each step of the game as it happens; the last state of a finished game is sent at once."""
        if self._step is None or step.ply != self._step.ply + 1:  # not the next step: a game begins
            self.begin()
        self._step = step
        if step.state.is_over and self._process is not None:
            with contextlib.suppress(Forfeit):
                self._send(state_line(step).encode(), time.monotonic() + self.move_time)
                self._answered_end = True

    def _ask(self, state: State) -> tuple[str, int]:
        step = self._step
        if step is None or step.state is not state:
            step = Step(0, None, None, 0, state)
        deadline = time.monotonic() + self.move_time
        self._send(state_line(step).encode(), deadline)
        return self._receive(deadline), step.ply + 1

    def choose(self, state: State) -> Move:
        answer, ply = self._ask(state)
        try:
            return _parse_move(answer, state, ply)
        except Forfeit:
            self._stop()
            raise


class ModulePlayer(ProgramPlayer):
    """A Python player from `module:attribute`, run by `host` in a process of its own.

    Building it starts the host, which imports the module: a module that cannot be
    imported (or raises, or exits, at import) is a PlayerError, one line. `seed`
    is the player seed of the next game; each game builds a fresh player with it.
    """

    def __init__(self, spec: str, move_time: float = DEFAULT_MOVE_TIME, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        self._failed: str | None = None  # why this game's player could not be built: its forfeit
        super().__init__(shlex.join([sys.executable, "-m", "foursquare_cli.players.host", spec]), move_time)
        self.name = spec
        self._start()
        try:
            self._build()
        except Forfeit as forfeit:  # building the player once, here, is where its errors are reported
            raise PlayerError(f"{spec}: {forfeit.reason}") from None

    def _spawn(self) -> subprocess.Popen[bytes]:
        """The host, on the tool's own import path; PlayerError when it says the module cannot be used."""
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path or os.curdir for path in sys.path))
        try:
            process = self._popen(environment)
        except OSError as error:
            raise PlayerError(f"{self.spec}: cannot start its process: {error.strerror or error}") from None
        self._process = process
        self._pending = b""
        try:
            said = self._receive(time.monotonic() + max(self.move_time, STARTUP_TIME))
        except Forfeit as forfeit:
            raise PlayerError(f"{self.spec}: its process {forfeit.reason} before it was ready") from None
        if said != "ready":
            self._stop()
            raise PlayerError(f"{self.spec}: {said.removeprefix('error ')}")
        return process

    def begin(self) -> None:
        """A game begins: a fresh player, built with this game's seed."""
        super().begin()
        self._build()

    def _build(self) -> None:
        """A fresh player in the host, built with `seed`; Forfeit saying why when that fails."""
        deadline = time.monotonic() + max(self.move_time, STARTUP_TIME)
        self._send(json_line({"player_seed": self.seed}).encode(), deadline)
        said = self._receive(deadline)
        if said != "ready":
            self._stop()
            raise Forfeit(said.removeprefix("error "))

    def observe(self, step: Step) -> None:
        try:
            super().observe(step)
        except (Forfeit, PlayerError) as problem:
            self._stop()
            self._failed = str(problem)  # said as the forfeit of this game's first move
        else:
            self._failed = None

    def choose(self, state: State) -> Move:
        if self._failed is not None:
            reason, self._failed = self._failed, None
            raise Forfeit(reason)
        answer, ply = self._ask(state)
        if answer.startswith("error "):
            self._stop()
            raise Forfeit(answer.removeprefix("error "))
        try:
            return _parse_move(answer, state, ply)
        except Forfeit:
            self._stop()
            raise
