"""One writer at a time, on every platform: an exclusive lock on the file itself (`ExclusiveLock.on_file`, for
a results log, appended to in place), or on a file `.NAME.lock` beside what it guards (`acquire`, for a record,
which each write replaces).

A lock on the file itself holds whatever path names the file (a symbolic link, a hard
link): the lock is the file's. A lock file is never followed through a symbolic link:
one planted there is refused, so the lock never creates or opens a file elsewhere.

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
import errno
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


_FAR = 1 << 40  # where a Windows lock on a file itself sits: far past its end, so readers of the file never meet it


def _lock_without_waiting(fd: int, far: bool = False) -> bool:
    """Lock `fd` exclusively, at once or not at all: False when another process holds it. `far`: on Windows,
    lock a byte far past the end (a lock there is the file's, and blocks no reader of its lines)."""
    fcntl = _fcntl()
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    msvcrt: Any = importlib.import_module("msvcrt")
    if far:
        os.lseek(fd, _FAR, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


class ExclusiveLock:
    """A held lock on `path` (created if missing); `acquire` returns None when another process holds it."""

    def __init__(self, path: str, fd: int, *, own_file: bool = True) -> None:
        self.path = path
        self._fd: int | None = fd
        self._own_file = own_file  # a lock file of ours, removed on release (not a file locked in place)

    @classmethod
    def on_file(cls, path: str) -> ExclusiveLock | None:
        """A lock on the file at `path` itself (created if missing, through a symbolic link as the file is), or
        None when another process holds it, by this path or any other; OSError when it cannot be opened."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0)
        fd = os.open(path, flags, 0o666)
        if not _lock_without_waiting(fd, far=True):
            os.close(fd)
            return None
        return cls(path, fd, own_file=False)

    @classmethod
    def acquire(cls, path: str) -> ExclusiveLock | None:
        """The lock, or None when it is held elsewhere; OSError when the lock file cannot be opened, or is a
        symbolic link (never followed: `O_NOFOLLOW` where the system has it, and a look first everywhere)."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOINHERIT", 0)
        flags |= getattr(os, "O_NOFOLLOW", 0)
        while True:
            if os.path.islink(path):
                raise OSError(errno.ELOOP, "its lock file is a symbolic link, which is never followed", path)
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
        if not self._own_file:  # a file locked in place stays; closing it lets the lock go
            os.close(fd)
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
