"""One writer at a time, on every platform: an exclusive lock on a file `.NAME.lock` beside what it guards.

The lock is the operating system's, so it ends with the process that holds it (a
killed session never leaves a stale lock): `flock` where `fcntl` exists (Linux,
macOS), `msvcrt.locking` on Windows. The lock file is removed when the lock is
released; a session that finds its lock file was removed under it (by a session
that just ended) locks the new one instead.

Why not the `filelock` package: on POSIX it leaves the lock file behind, and where
it has no `fcntl` it falls back to a soft lock that a crash leaves stale; the
pair here is a few lines and keeps both promises.

The two branches are chosen by what the platform has (`fcntl` importable or not),
not by its name, so the Windows-shaped test run (tests/windows_shaped) takes the
Windows branch on Linux.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any

__all__ = ["ExclusiveLock"]


def _fcntl() -> Any:
    """The `fcntl` module, or None where the platform has none (Windows)."""
    if sys.platform == "win32":
        return None
    try:
        return importlib.import_module("fcntl")
    except ImportError:
        return None


def _lock_without_waiting(fd: int) -> bool:
    """Lock `fd` exclusively, at once or not at all: False when another process holds it."""
    fcntl = _fcntl()
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    msvcrt: Any = importlib.import_module("msvcrt")
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


class ExclusiveLock:
    """A held lock on `path` (created if missing); `acquire` returns None when another process holds it."""

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, path: str) -> ExclusiveLock | None:
        """The lock, or None when it is held elsewhere; OSError when the lock file cannot be opened."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0)
        while True:
            fd = os.open(path, flags, 0o600)
            if not _lock_without_waiting(fd):
                os.close(fd)
                return None
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    return cls(path, fd)
            os.close(fd)  # the lock file was removed under us by a session that ended: lock the new one

    def release(self) -> None:
        """Release the lock and remove its file (twice is harmless)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if _fcntl() is not None:  # POSIX: remove, then unlock, so nobody locks a file about to go
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            os.close(fd)
        else:  # Windows: an open file cannot be removed; a file another process has opened since stays
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def __enter__(self) -> ExclusiveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
