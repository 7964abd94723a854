"""The programs the tool starts for players, on every platform: lines in and out, and a whole tree ended.

A `PlayerProcess` is one running program with its standard input and output as
pipes (standard error goes nowhere: it is not the tool's output). Its output is
read by a thread into a queue and its input written by another, so a deadline is
a wait on a queue: no `select` on pipes (which Windows does not have), and a
program that stops reading cannot block the tool (python-chess's `chess.engine`
talks to engines the same way, with asyncio).

Ending a program ends everything it started, as well as each platform allows:

- Linux: the program runs under a warden (`players/warden.py`, a few lines of the
  standard library), a child subreaper: a descendant whose parent dies becomes the
  warden's child, even after a double fork and `setsid`, and the warden kills
  every one when the program is stopped or exits. The warden dies with the
  process that started it (`PR_SET_PDEATHSIG`), and takes the tree with it. And
  the tool holds what the warden holds: the process that starts a warden is a child
  subreaper too, so when a program kills or stops its warden, its tree comes to the
  tool, which ends every process of it (each carries `FOURSQUARE_PLAYER_OF`, the
  tool's pid, in its environment) when the program is ended, and at the tool's exit.
  A descendant that also clears its environment and escapes that mark is the one
  way out left.
- macOS and the other POSIX systems: the program runs under the same warden, which
  ends its process group when it is stopped or the tool dies (a thread sees the
  tool go). A descendant that starts a session of its own escapes; no portable
  call catches it.
- Windows: the program is put in a job object that kills its processes when it is
  closed, or when the tool's process ends; it also starts a process group of its
  own, so Ctrl-C at the console reaches the tool, not the player.

Which of these applies is decided by what the platform has (`os.killpg`, the
Windows API), not by its name, so the Windows-shaped test run on Linux takes the
path that a platform without the POSIX calls takes.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any

__all__ = ["PlayerProcess", "find_program", "split_command"]

_CHUNK = 65536
_WARDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warden.py")
_MARK = "FOURSQUARE_PLAYER_OF"  # in every player's environment: the pid of the tool's process that started it
_WARDENS: set[int] = set()  # the wardens this process runs now: its children that are not strays


def split_command(command: str, *, windows: bool | None = None) -> list[str]:
    """COMMAND's words as a shell would split them, never run through a shell; ValueError for unbalanced quotes.

    On Windows, where a backslash separates folders, the words are split the
    Windows way (`shlex` with posix=False, then the quotes around a word taken
    off): `cmd:C:\\bots\\bot.exe --fast` is the program `C:\\bots\\bot.exe`.
    """
    if windows is None:
        windows = sys.platform == "win32"
    if not windows:
        return shlex.split(command)
    words = []
    for word in shlex.split(command, posix=False):
        if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
            word = word[1:-1]
        words.append(word)
    return words


def find_program(name: str) -> str | None:
    """The program a command's first word names (on the PATH, or a path to an executable file); None if none."""

    return shutil.which(name)


def _uses_warden() -> bool:
    """A POSIX system, with the calls the warden needs (the Windows-shaped test run takes them away)."""
    return sys.platform != "win32" and hasattr(os, "killpg") and os.path.exists(_WARDEN)


class PlayerProcess:
    """A started program (see the module's docstring); OSError when it cannot be started."""

    def __init__(self, argv: Sequence[str], environment: dict[str, str] | None = None) -> None:
        command = list(argv)
        options: dict[str, Any] = {}
        if _uses_warden():
            command = [sys.executable, "-I", "-S", _WARDEN, str(os.getpid()), *command]
            _hold_strays()
        environment = dict(os.environ if environment is None else environment, **{_MARK: str(os.getpid())})
        if hasattr(os, "killpg"):
            options["start_new_session"] = True  # a group of its own: no Ctrl-C from the terminal, killed whole
        if sys.platform == "win32":
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
        self._popen = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=environment,
            bufsize=0,
            **options,
        )
        self._job = _job_for(self._popen)
        assert self._popen.stdin is not None and self._popen.stdout is not None
        self.pid = self._popen.pid
        _WARDENS.add(self.pid)
        # queue.Queue, not SimpleQueue: Python 3.11's SimpleQueue.get(timeout=...) woken by a signal just past its
        # deadline waits again with a negative time, which means for ever (a run hung in CI on a 2 ms wait)
        self._output: queue.Queue[bytes] = queue.Queue()
        self._output_ended = False  # the reader's b"" was taken: every later `output` says so at once
        self._input: queue.SimpleQueue[tuple[bytes, threading.Event] | None] = queue.SimpleQueue()
        self.input_closed = False  # a write failed: the program closed its input or exited
        self._threads = [
            threading.Thread(target=self._read, args=(self._popen.stdout,), daemon=True, name=f"player-{self.pid}-out"),
            threading.Thread(target=self._write, args=(self._popen.stdin,), daemon=True, name=f"player-{self.pid}-in"),
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        """The reader owns the output pipe and closes it itself, at its end. Closed from another thread, its
        descriptor number could be handed to the next program's pipe while this thread is on its way into
        `read()`: it would then steal that program's first line (seen under load as a host that never said
        `ready`)."""
        try:
            while True:
                try:
                    chunk = stream.read(_CHUNK) or b""  # unbuffered: whatever is there, at once
                except (OSError, ValueError):
                    chunk = b""
                self._output.put(chunk)
                if not chunk:
                    return
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _write(self, stream: IO[bytes]) -> None:
        while True:
            item = self._input.get()
            if item is None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
                return
            data, written = item
            try:
                view = memoryview(data)
                while view:  # a raw write to a pipe may take part of it
                    view = view[stream.write(view) or 0 :]
            except (OSError, ValueError):
                self.input_closed = True
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
                return
            finally:
                written.set()

    def send(self, data: bytes, timeout: float) -> bool:
        """Write `data` to the program's input: True once it is in the pipe, False if `timeout` seconds pass
        first (a program that does not read its input; the write goes on in the background)."""
        written = threading.Event()
        self._input.put((data, written))
        return written.wait(min(max(0.0, timeout), threading.TIMEOUT_MAX))  # a 1e10 s move time is no OverflowError

    def close_input(self) -> None:
        """Close the program's input (once what was sent before is written): the run is over."""
        self._input.put(None)

    def output(self, timeout: float) -> bytes | None:
        """What the program wrote next: a chunk, b"" when its output is closed (each time it is asked, once it
        is), None when `timeout` seconds pass."""
        if self._output_ended:
            return b""
        try:
            chunk = self._output.get(timeout=min(max(0.0, timeout), threading.TIMEOUT_MAX))
        except queue.Empty:
            return None
        self._output_ended = not chunk
        return chunk

    def poll(self) -> int | None:
        """Its exit code, or None while it runs."""
        return self._popen.poll()

    def wait(self, timeout: float) -> int | None:
        """Its exit code within `timeout` seconds, or None."""
        try:
            return self._popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def end(self) -> None:
        """End the program and every process it started, now (see the module's docstring)."""
        popen = self._popen
        if _uses_warden() and popen.poll() is None:
            with contextlib.suppress(OSError):
                popen.terminate()  # the warden kills the whole tree, reaps it and exits
            with contextlib.suppress(OSError, AttributeError):
                os.kill(popen.pid, signal.SIGCONT)  # type: ignore[attr-defined,unused-ignore]  # a warden stopped by its program goes on to end it
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(timeout=5)
        _kill_group(popen.pid)
        _kill_job(self._job)
        self._job = None
        with contextlib.suppress(OSError):
            popen.kill()
        popen.wait()
        _WARDENS.discard(popen.pid)
        end_strays()
        self._input.put(None)  # the writer closes the input, the reader the output (see `_read`)
        self._threads[0].join(timeout=1.0)  # the tree is gone: the end of its output is there at once


_HOLDING: list[bool] = []


def _hold_strays() -> None:
    """Linux: make this process a child subreaper (once), so a program's processes that outlive their warden
    come to it (`end_strays`)."""
    if _HOLDING or not sys.platform.startswith("linux"):
        return
    _HOLDING.append(True)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes  # Linux alone, in a platform guard

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def end_strays() -> None:
    """Linux: end the processes of players' trees that came to this process when their warden died (children
    of ours with our mark, that are no warden of ours), and those that come after them, reaped each time."""
    if sys.platform == "win32" or not _HOLDING:
        return
    mark = f"\0{_MARK}={os.getpid()}\0".encode()
    for _ in range(20):  # a stray's own children come to us as it dies: a few rounds take them all
        strays = [pid for pid in _children() if pid not in _WARDENS and mark in _environment(pid)]
        if not strays:
            return
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def _children() -> list[int]:
    """This process's children, from /proc (Linux)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as listed:
                found += [int(pid) for pid in listed.read().split()]
    return found


def _environment(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return b"\0" + environ.read().rstrip(b"\0") + b"\0"
    except OSError:
        return b""


def _kill_group(pid: int) -> None:
    """POSIX: kill the program's process group (it leads one: `start_new_session`)."""
    killpg = getattr(os, "killpg", None)
    kill_signal = getattr(signal, "SIGKILL", None)
    if killpg is not None and kill_signal is not None:
        with contextlib.suppress(OSError):
            killpg(pid, kill_signal)


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9
    _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000

    class _IoCounters(ctypes.Structure):
        _fields_ = [(name, ctypes.c_ulonglong) for name in ("r", "w", "o", "rb", "wb", "ob")]

    class _BasicLimits(ctypes.Structure):
        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", wintypes.DWORD),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", wintypes.DWORD),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", wintypes.DWORD),
            ("SchedulingClass", wintypes.DWORD),
        ]

    class _ExtendedLimits(ctypes.Structure):
        _fields_ = [
            ("BasicLimitInformation", _BasicLimits),
            ("IoInfo", _IoCounters),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    def _job_for(popen: subprocess.Popen[bytes]) -> int | None:
        """A job object holding the program (and so everything it starts), killed when closed; None if the
        system refuses one (the program is then ended alone)."""
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        kernel32.CreateJobObjectW.restype = wintypes.HANDLE
        job = kernel32.CreateJobObjectW(None, None)
        if not job:
            return None
        limits = _ExtendedLimits()
        limits.BasicLimitInformation.LimitFlags = _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        kernel32.SetInformationJobObject(
            wintypes.HANDLE(job), _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), ctypes.sizeof(limits)
        )
        handle = wintypes.HANDLE(int(popen._handle))  # type: ignore[attr-defined]
        if not kernel32.AssignProcessToJobObject(wintypes.HANDLE(job), handle):
            kernel32.CloseHandle(wintypes.HANDLE(job))
            return None
        return int(job)

    def _kill_job(job: int | None) -> None:
        if job is not None:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            kernel32.TerminateJobObject(wintypes.HANDLE(job), 1)
            kernel32.CloseHandle(wintypes.HANDLE(job))

else:

    def _job_for(popen: subprocess.Popen[bytes]) -> int | None:
        """Job objects are Windows'; elsewhere the group (and on Linux the warden) ends the tree."""
        return None

    def _kill_job(job: int | None) -> None:
        return None
