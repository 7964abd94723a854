"""Outside players: any program (protocol.md section 7) or Python class can play where a player is named.

Both run in a process of their own, so whatever they do they can only forfeit:

- `cmd:COMMAND`: a program that speaks the move protocol. COMMAND is split like a
  shell's words (`shlex`; on Windows the Windows way, so `C:\\bots\\bot.exe` stays a
  path) and never run through a shell; a program that is not there is refused
  before anything is played. One process plays game
  after game: it is sent the state (a JSON line of protocol.md section 5) when it is to
  move and answers with a move; at the end of a game it is sent the last state and
  no answer is awaited (an answer sent anyway is dropped before the next game). A
  program that answers with an invalid or illegal move, exits, or does not answer
  within the time limit forfeits the game, and is started afresh for the next one.
  What it writes on standard error is not the tool's output.
- `module:attribute`: a class or factory on the import path, run by `host` in a
  child Python process that speaks the same protocol; it is built afresh for each
  game (with the player seed if it takes an argument) and shown a position rebuilt
  from the states, its unseen cards shuffled anew, never the stock.

Every program's whole process tree is ended when it forfeits or the run is over,
and when the tool's process dies, as well as each platform allows
(`players.processes`): on Linux even a double fork is caught.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing.util
import os
import shlex
import signal
import sys
import time
from typing import Any

from ..errors import Forfeit, PlayerError, quoted, seconds_typed
from ..formats.jsonl import json_line
from ..formats.protocol import PlayerSeedLine, state_line
from ..rules.engine import State
from ..rules.game import Step
from ..rules.moves import InvalidMoveError, Move
from .processes import PlayerProcess, find_program, split_command

__all__ = ["Forfeit", "ModulePlayer", "ProgramPlayer", "close_programs", "running_program"]

MAX_ANSWER_BYTES = 4096
STARTUP_TIME = 30.0  # seconds a module player's host may take to import its module
_LONGEST_WAIT = 0.1  # the longest single wait, so an exit or a deadline is seen within it
_STRAY_WAIT = 0.02  # after a game's last state: how long an answer to it (none is awaited) is waited for
_LAST_WORDS = 0.5  # after a program exits: how long what it wrote last may take to come through the reader
EARLY_GRACE = 0.002  # after an answer: how long a second line written with it is waited for (a cost a move)


_RUNNING: dict[tuple[str, float, tuple[tuple[str, Any], ...], int], ProgramPlayer] = {}


def running_program(
    spec: str, move_time: float, seed: int = 0, settings: dict[str, Any] | None = None, protocol: int = 1
) -> ProgramPlayer:
    """The outside player of this process for `spec` (`cmd:...` or `module:...`): one long-lived process a
    worker, closed at its exit. A module player's host is checked (imported) here, once; its next game's
    player is built with `seed` and `settings` (another package's registered player's)."""
    key = (spec, move_time, tuple(sorted((settings or {}).items())), protocol)
    if key not in _RUNNING:
        if not _RUNNING:
            atexit.register(close_programs)
            multiprocessing.util.Finalize(None, close_programs, exitpriority=10)
        _RUNNING[key] = (
            ProgramPlayer(spec[4:], move_time, protocol=protocol)
            if spec.startswith("cmd:")
            else ModulePlayer(spec, move_time)
        )
    running = _RUNNING[key]
    if isinstance(running, ModulePlayer):
        running.seed = seed
        running.settings = settings or {}
    return running


def close_programs() -> None:
    """Close every outside player this process started (the run is over)."""
    while _RUNNING:
        _, player = _RUNNING.popitem()
        player.close()


def _signal_name(number: int) -> str:
    """` (SIGKILL)` for 9, where this system names it; else nothing."""
    try:
        return f" ({signal.Signals(number).name})"
    except ValueError:
        return ""


def _parse_move(answer: str, state: State, ply: int) -> Move:
    """The move a player answered; else a Forfeit that says why, in the words the prompt uses for the same
    text (`illegal move 'E5' at ply 1: no such cell; cells are A1 to D4`)."""
    shown = quoted(answer, 30)  # as every other screen quotes a text: escaped, clipped (B2\0 was 'B2?')
    try:
        move = Move.from_str(answer)
    except InvalidMoveError as error:
        raise Forfeit(f"illegal move {shown} at ply {ply}: {error.reason}") from None
    reason = state.why_illegal(move)
    if reason is not None:
        raise Forfeit(f"illegal move {shown} at ply {ply}: {reason}")
    return move


class ProgramPlayer:
    """A program speaking the move protocol, kept running from game to game (see the module's docstring)."""

    def __init__(self, command: str, move_time: float, *, checked: bool = True, protocol: int = 1) -> None:
        try:
            self.argv = split_command(command)
        except ValueError as error:
            raise PlayerError(f"cmd:{command}: {error}") from None
        if not self.argv:
            raise PlayerError("cmd: names no program; write cmd:COMMAND")
        if checked and find_program(self.argv[0]) is None:
            if os.path.isfile(self.argv[0]):  # there, but not a program: say so, not that it is missing
                raise PlayerError(f"cmd:{command}: {self.argv[0]!r} is a file but cannot be run (not executable?)")
            raise PlayerError(f"cmd:{command}: no program {self.argv[0]!r}, neither a file that runs nor on the PATH")
        self.name = f"cmd:{command}"
        self.move_time = move_time
        self.protocol = protocol  # the version of the move protocol its states are written in
        self._process: PlayerProcess | None = None
        self._pending = b""
        self._step: Step | None = None
        self._answered_end = False  # the last state of a game was sent: a stray answer may follow

    # -- the process ---------------------------------------------------------------

    def _popen(self, environment: dict[str, str] | None = None) -> PlayerProcess:
        """The program started, its whole tree in hand (`processes`); OSError when it cannot start."""
        return PlayerProcess(self.argv, environment)

    def _spawn(self) -> PlayerProcess:
        try:
            process = self._popen()
        except OSError as error:
            raise Forfeit(f"could not start: {error.strerror or error}") from None
        return process

    def _start(self) -> PlayerProcess:
        if self._process is None:
            self._pending = b""
            self._process = self._spawn()
        return self._process

    def _stop(self) -> None:
        """End the process and its tree now (after a forfeit): it starts afresh for the next game."""
        process, self._process = self._process, None
        self._step = None  # whatever comes next begins a game
        if process is not None:
            process.end()

    def forfeited(self) -> None:
        """The game loop ended its game with a forfeit (`play_game`'s move limit): the program is ended now, as
        after any forfeit, and starts afresh for the next game."""
        self._stop()

    def close(self) -> None:
        """The run is over: close the program's input and give it a moment to exit, then end its tree."""
        process = self._process
        if process is None:
            return
        process.close_input()
        process.wait(timeout=2)
        self._stop()

    def _exited(self) -> Forfeit:
        """The program closed its output or its input, or exited: its exit code, then end it."""
        process = self._process
        code = process.wait(timeout=1) if process is not None else None
        self._stop()
        if code is not None and code < 0:  # POSIX: ended by a signal, which is not an exit code
            return Forfeit(f"was ended by signal {-code}{_signal_name(-code)}")
        return Forfeit(f"exited with code {code}" if code is not None else "closed its output")

    def _late(self, waited: float) -> Forfeit:
        self._stop()
        return Forfeit(f"no answer within {seconds_typed(waited)} s")

    def _send(self, line: bytes, deadline: float, waited: float) -> None:
        """`line` written to the program (into its pipe) by `deadline`: Forfeit when it exited or stopped reading."""
        process = self._start()
        if process.input_closed or process.poll() is not None:
            raise self._exited()
        if not process.send(line, deadline - time.monotonic()):
            raise self._late(waited)
        if process.input_closed:
            raise self._exited()

    def _receive(self, deadline: float, waited: float) -> str:
        """The program's next line, within `deadline` (`waited` seconds, said in the forfeit)."""
        process = self._start()
        while b"\n" not in self._pending:
            if len(self._pending.removesuffix(b"\r")) > MAX_ANSWER_BYTES:
                self._stop()
                raise Forfeit(f"an answer longer than {MAX_ANSWER_BYTES} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._late(waited)
            chunk = process.output(min(left, _LONGEST_WAIT))
            if chunk is None:
                if process.poll() is None:
                    continue
                # exited (though a child of its may still hold the pipe): what it wrote last may still be on
                # its way through the reader, such as the host's line saying why it cannot go on
                chunk = process.output(_LAST_WORDS)
                if chunk is None:
                    raise self._exited()
            if not chunk:
                raise self._exited()
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        if len(line.removesuffix(b"\r")) > MAX_ANSWER_BYTES:  # the line came whole, in one read: as long, as refused
            self._stop()
            raise Forfeit(f"an answer longer than {MAX_ANSWER_BYTES} bytes")
        return line.decode("utf-8", errors="replace").strip()

    def _drop_stray_answers(self) -> None:
        """Before a game: whatever the program wrote after the last state of the previous one (where no
        answer is awaited) is dropped, so it is never taken for this game's first move. Whole lines only: a
        program whose output is unbuffered (PYTHONUNBUFFERED) writes `A1` and its newline apart, and a newline
        left behind would be read as an empty first answer."""
        process = self._process
        if process is None:
            return
        wait = _STRAY_WAIT if self._answered_end else 0.0
        self._answered_end = False
        dropped = b""
        give_up = time.monotonic() + 10 * _STRAY_WAIT
        while True:
            chunk = process.output(wait)
            if chunk is None:
                if not dropped or dropped.endswith(b"\n") or time.monotonic() > give_up:
                    break
                wait = _STRAY_WAIT  # the rest of a line has yet to come
                continue
            if not chunk:
                self._pending = b""
                raise self._exited()
            dropped += chunk
            wait = 0.0 if dropped.endswith(b"\n") else _STRAY_WAIT
        self._pending = b""

    # -- the player ------------------------------------------------------------------

    def begin(self) -> None:
        """A game begins."""
        with contextlib.suppress(Forfeit):  # it exited after the last game: it starts afresh when asked
            self._drop_stray_answers()

    def observe(self, step: Step) -> None:
        """Each step of the game as it happens; the last state of a finished game is sent at once."""
        if self._step is None or step.ply != self._step.ply + 1:  # not the next step: a game begins
            self.begin()
        self._step = step
        if step.state.is_over and self._process is not None:
            with contextlib.suppress(Forfeit):
                line = state_line(step, self.protocol, self.move_time)
                self._send(line.encode(), time.monotonic() + self.move_time, self.move_time)
                self._answered_end = True

    def _ask(self, state: State) -> tuple[str, int]:
        step = self._step
        if step is None or step.state is not state:
            step = Step(0, None, None, 0, state)
        deadline = time.monotonic() + self.move_time
        self._refuse_early_answers()
        self._send(state_line(step, self.protocol, self.move_time).encode(), deadline, self.move_time)
        answer = self._receive(deadline, self.move_time)
        self._refuse_early_answers(EARLY_GRACE, answered=True)  # a second line written with the answer?
        return answer, step.ply + 1

    def _refuse_early_answers(self, grace: float = 0.0, answered: bool = False) -> None:
        """Before a state is sent, and a moment (`grace`) after its answer: a line the program wrote ahead (two
        answers to one state, an answer to a state it has not seen) would be read as the answer to the next one;
        it forfeits instead. A program that exits just `answered` has its answer taken: its exit is a forfeit
        only when it is next to move."""
        process = self._process
        if process is None:
            return
        early = self._pending or process.output(grace)
        if early is None:
            return
        if not early:
            if answered:
                return
            raise self._exited()
        self._stop()
        raise Forfeit("answered before its state was sent (one line, one move, for each state)")

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

    def __init__(self, spec: str, move_time: float, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed
        self.settings: dict[str, Any] = {}
        self._failed: str | None = None  # why this game's player could not be built: its forfeit
        host = [sys.executable, "-m", "foursquare_cli.players.host", spec]
        super().__init__(shlex.join(host), move_time, checked=False)
        self.argv = host  # as it is: joined and split again, a Windows path would not survive
        self.name = spec
        self._start()
        try:
            self._build()
        except Forfeit as forfeit:  # building the player once, here, is where its errors are reported
            raise PlayerError(f"{spec}: {forfeit.reason}") from None

    def _spawn(self) -> PlayerProcess:
        """The host, on the tool's own import path; PlayerError when it says the module cannot be used."""
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path or os.curdir for path in sys.path))
        try:
            process = self._popen(environment)
        except OSError as error:
            raise PlayerError(f"{self.spec}: cannot start its process: {error.strerror or error}") from None
        self._process = process
        self._pending = b""
        waited = max(self.move_time, STARTUP_TIME)
        try:
            said = self._receive(time.monotonic() + waited, waited)
        except Forfeit as forfeit:
            if forfeit.reason.startswith("no answer within"):  # the host says `ready` once the module is imported
                said = f"its module was not imported within {seconds_typed(waited)} s (its import did not end)"
                raise PlayerError(f"{self.spec}: {said}") from None
            raise PlayerError(f"{self.spec}: its process, before it was ready: {forfeit.reason}") from None
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
        waited = max(self.move_time, STARTUP_TIME)
        deadline = time.monotonic() + waited
        self._send(json_line(PlayerSeedLine(self.seed, self.settings).to_json()).encode(), deadline, waited)
        said = self._receive(deadline, waited)
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
