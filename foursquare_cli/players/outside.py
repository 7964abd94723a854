"""Outside players: any program (SPEC section 7) or Python class can play where a player is named.

- `cmd:COMMAND`: a program that speaks the move protocol. COMMAND is split like a
  shell's words (`shlex`) and never run through a shell. One process plays game
  after game: it is sent the state (a JSON line of SPEC section 5) when it is to
  move and answers with a move; at the end of a game it is sent the last state and
  no answer is awaited. A program that answers with an invalid or illegal move,
  exits, or does not answer within the time limit forfeits the game, and is started
  afresh for the next one. What it writes on standard error is not the tool's output.
- `module:attribute`: a class or factory on the import path, called with the player
  seed if it takes an argument, whose objects have `choose(state) -> Move` (and a
  `name`). It is handed a copy of the position whose unseen cards are shuffled anew
  (`State.redealt`), so reading the stock teaches it nothing. Its time a move is
  measured and reported, not enforced; an exception it raises forfeits the game.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import random
import select
import shlex
import subprocess
import time
from typing import Any

from ..errors import Forfeit, PlayerError
from ..formats.protocol import state_line
from ..rules.engine import State
from ..rules.game import Step
from ..rules.moves import IllegalMoveError, InvalidMoveError, Move

DEFAULT_MOVE_TIME = 10.0
MAX_ANSWER_BYTES = 4096


__all__ = ["DEFAULT_MOVE_TIME", "Forfeit", "ModulePlayer", "ProgramPlayer", "close_programs", "running_program"]


def _die_with_parent() -> None:
    """In the program's process, before it runs: on Linux, be killed when the tool's process dies, so a
    killed worker leaves no program behind (elsewhere, `close` is the only guard)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_RUNNING: dict[tuple[str, float], ProgramPlayer] = {}


def running_program(spec: str, move_time: float) -> ProgramPlayer:
    """The program player of this process for `spec`: one long-lived process a worker, closed at its exit."""
    key = (spec, move_time)
    if key not in _RUNNING:
        if not _RUNNING:
            import atexit
            import multiprocessing.util

            atexit.register(close_programs)
            multiprocessing.util.Finalize(None, close_programs, exitpriority=10)
        _RUNNING[key] = ProgramPlayer(spec[4:], move_time)
    return _RUNNING[key]


def close_programs() -> None:
    """Close every program player this process started (the run is over)."""
    while _RUNNING:
        _, player = _RUNNING.popitem()
        player.close()


def _parse_move(answer: str, state: State, ply: int) -> Move:
    try:
        move = Move.from_str(answer)
    except InvalidMoveError:
        raise Forfeit(f"illegal move {answer[:30]!r} at ply {ply}") from None
    if not state.is_legal(move):
        raise Forfeit(f"illegal move {answer[:30]!r} at ply {ply}")
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

    # -- the process ---------------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            try:
                self._process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    preexec_fn=_die_with_parent,
                )
            except OSError as error:
                raise Forfeit(f"could not start: {error.strerror or error}") from None
            assert self._process.stdin is not None and self._process.stdout is not None
            os.set_blocking(self._process.stdin.fileno(), False)
            self._pending = b""
        return self._process

    def _stop(self) -> None:
        """End the process now (after a forfeit): it starts afresh for the next game."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()

    def close(self) -> None:
        """The run is over: close the program's input and give it a moment to exit, then end it."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        self._stop()

    def _exited(self) -> Forfeit:
        """The program closed its output or its input: wait a moment for its exit code, then end it."""
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        self._stop()
        return Forfeit(f"exited with code {code}" if code is not None else "closed its output")

    def _send(self, line: bytes, deadline: float) -> None:
        process = self._start()
        assert process.stdin is not None
        fd = process.stdin.fileno()
        while line:
            if process.poll() is not None:
                raise self._exited()
            left = deadline - time.monotonic()
            if left <= 0:
                self._stop()
                raise Forfeit(f"no answer within {self.move_time:g} s")
            _, writable, _ = select.select([], [fd], [], min(left, 0.05))
            if writable:
                try:
                    line = line[os.write(fd, line) :]
                except BlockingIOError:
                    continue
                except (BrokenPipeError, OSError):
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
                self._stop()
                raise Forfeit(f"no answer within {self.move_time:g} s")
            readable, _, _ = select.select([fd], [], [], left)
            if readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._exited()
                self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    # -- the player ------------------------------------------------------------------

    def observe(self, step: Step) -> None:
        """Each step of the game as it happens; the last state of a finished game is sent at once."""
        self._step = step
        if step.state.is_over and self._process is not None:
            with contextlib.suppress(Forfeit):
                self._send(state_line(step).encode(), time.monotonic() + self.move_time)

    def choose(self, state: State) -> Move:
        step = self._step
        if step is None or step.state is not state:
            step = Step(0, None, None, 0, state)
        deadline = time.monotonic() + self.move_time
        self._send(state_line(step).encode(), deadline)
        answer = self._receive(deadline)
        try:
            return _parse_move(answer, state, step.ply + 1)
        except Forfeit:
            self._stop()
            raise


class ModulePlayer:
    """A Python player from `module:attribute`, shown only what a player may see."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        module_name, _, attribute = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise PlayerError(f"{spec}: cannot import {module_name!r}: {error}") from None
        except (Exception, SystemExit) as error:  # someone else's module: whatever its import raises is one line
            raise PlayerError(f"{spec}: importing {module_name!r} raised {_described(error)}") from None
        factory = getattr(module, attribute, None)
        if factory is None or not callable(factory):
            raise PlayerError(f"{spec}: {module_name} has no class or factory {attribute!r}")
        try:
            takes_seed = bool(inspect.signature(factory).parameters)
        except (TypeError, ValueError):
            takes_seed = False
        try:
            self._player: Any = factory(seed) if takes_seed else factory()
        except (Exception, SystemExit) as error:  # someone else's constructor, as at import
            raise PlayerError(f"{spec}: making the player raised {_described(error)}") from None
        if not callable(getattr(self._player, "choose", None)):
            raise PlayerError(f"{spec}: its objects have no choose(state) method")
        self.name = spec
        self._seed = seed
        self._ply = 0
        self.seconds: list[float] = []

    def observe(self, step: Step) -> None:
        self._ply = step.ply

    def choose(self, state: State) -> Move:
        shown = state.redealt(random.Random(f"{self._seed}:{state.key()}"))
        started = time.perf_counter()
        try:
            chosen = self._player.choose(shown)
        except Exception as error:  # a third party's code: whatever it raises forfeits its game, not the run
            raise Forfeit(f"raised {_described(error)}") from None
        finally:
            self.seconds.append(time.perf_counter() - started)
        ply = self._ply + 1
        if not isinstance(chosen, Move):
            text = str(chosen)
            try:
                chosen = Move.from_str(text)
            except InvalidMoveError:
                raise Forfeit(f"illegal move {text[:30]!r} at ply {ply}") from None
        try:
            if not state.is_legal(chosen):
                raise Forfeit(f"illegal move {str(chosen)!r} at ply {ply}")
        except IllegalMoveError:
            raise Forfeit(f"illegal move {str(chosen)!r} at ply {ply}") from None
        return chosen


def _described(error: BaseException) -> str:
    """`RuntimeError: the text` (cut short, made printable): what someone else's code raised."""
    try:
        said = str(error)
    except Exception:  # an exception whose own __str__ raises
        said = ""
    text = "".join(ch if ch.isprintable() else "?" for ch in said[:60])
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
