"""The warden of a player's program on POSIX systems: `python -I -S warden.py PARENT_PID PROGRAM ARGS...`.

It runs the program and keeps its whole process tree in hand (`players/processes.py`
starts it, as a script: it imports nothing of the tool, only the standard library,
and starts in a few milliseconds):

- on Linux it is a child subreaper (`PR_SET_CHILD_SUBREAPER`): a process the
  program starts whose parent dies becomes the warden's child, whatever it does
  (fork twice, `setsid`), so the warden always knows every process of the tree;
  elsewhere (macOS) it ends the program's process group, which a descendant that
  starts a session of its own escapes;
- it dies with the tool's process: on Linux by `PR_SET_PDEATHSIG` (and a check that
  the tool had not already gone before that was set), elsewhere by a thread that
  sees its parent change; and the program and its group die with the warden;
- when the program exits, or the warden is told to stop (SIGTERM), it kills every
  process of the tree, reaps them all, and exits the way the program did (its
  exit code, or the same signal), so the tool reports the program's own end.

The program gets the warden's standard input and output (the pipes to the tool);
the warden lets go of its own copies, so the tool sees the end of the output when
the program's tree closes it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

assert sys.platform != "win32"  # started on POSIX systems only (processes._uses_warden)

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


_group: list[int] = []  # the program's process group, once it runs
_stopping: list[bool] = []  # SIGTERM came: the tool ends the program


def _stop(signum: int, frame: object) -> None:
    """SIGTERM: kill the program; the wait for it then returns, and the tree is ended."""
    _stopping.append(True)
    for group in _group:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)


LINUX = sys.platform.startswith("linux")


def _prctl(option: int, value: int) -> None:
    if LINUX:
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def _watch_parent(parent: int) -> None:
    """Where there is no PR_SET_PDEATHSIG: a thread that ends the program's group once the tool is gone (the
    warden's parent changes), then the warden itself."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        for group in _group:
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _die_with_warden() -> None:
    """In the program's process, before it runs: killed when the warden dies, even by SIGKILL."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _children() -> list[int]:
    """The warden's child processes (every live process of the tree, once the ones between have died)."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children") as listing:
            return [int(word) for word in listing.read().split()]
    except OSError:
        pass
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == me:
                        found.append(int(entry))
    return found


def _end_tree(group: int) -> None:
    """Kill every process of the tree and reap them all: returns when the warden has no child left."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.killpg(group, signal.SIGKILL)
    while True:
        for pid in _children():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def run_warden(argv: list[str]) -> None:
    parent, command = int(argv[0]), argv[1:]
    signal.signal(signal.SIGTERM, _stop)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the tool died before the line above: nobody to play for
        os._exit(1)
    if not LINUX:
        _watch_parent(parent)
    try:
        program = subprocess.Popen(command, start_new_session=True, preexec_fn=_die_with_warden)
    except OSError:
        os._exit(127)
    _group.append(program.pid)
    if _stopping:
        _stop(signal.SIGTERM, None)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the pipes are the program's now: its end of output is the tool's end of output
    os.dup2(null, 1)
    os.close(null)
    status = None
    while status is None:
        pid, waited = os.waitpid(-1, 0)  # the program, or an orphan of its tree that ended
        if pid == program.pid:
            status = waited
    _end_tree(program.pid)
    if _stopping:
        os._exit(143)
    if os.WIFSIGNALED(status):
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's cannot be set: it is the default anyway
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


if __name__ == "__main__":
    run_warden(sys.argv[1:])
