"""Writing game records safely: the file is checked before a game starts, held for the whole
session, and rewritten atomically after every move.

The rules, one for every command that writes a game (`play`, `auto`, `solve`):

- Only a regular file is written. A FIFO, a device or a directory at the path is
  refused. A symbolic link is written through: its target is replaced, the link
  stays (what editors do).
- An existing non-empty file is refused unless the caller allows it (`--force`,
  or `--resume` of that very file). A file owned by another user, or without
  write permission, is refused even then.
- A new file gets the mode the umask allows (0666 less the umask); a replaced
  file keeps its mode.
- While a session holds a record, a lock file `.NAME.lock` beside it (an advisory
  `flock`) refuses a second session; it is removed when the session ends.
- Each write goes to a temporary file `.NAME.foursquare-*.tmp` in the same folder,
  then is renamed over the record; temporaries a killed session left behind are
  removed when the record is next opened.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import stat
import tempfile
from collections.abc import Iterator

from ..errors import EXIT_USAGE, WriteError

__all__ = ["RecordFile", "WriteError", "opened_record"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class RecordFile:
    """The file a game is recorded to, checked, locked and ready for atomic writes."""

    def __init__(self, path: str, *, replace: bool = False) -> None:
        """WriteError (a usage error, exit 2) unless `path` can hold a record; `replace` allows an existing
        non-empty file."""
        self.path = path
        self.target = os.path.realpath(path)
        self.written = False  # whether this session has written the record yet
        self._lock_fd: int | None = None
        try:
            info: os.stat_result | None = os.stat(self.target)
        except FileNotFoundError:
            info = None
        except OSError as error:
            raise WriteError(f"cannot write: {error.strerror}", path=path, exit_code=EXIT_USAGE) from None
        if info is not None:
            if not stat.S_ISREG(info.st_mode):
                raise WriteError(
                    "not a regular file; a record is written only to a regular file", path=path, exit_code=EXIT_USAGE
                )
            if info.st_size > 0 and not replace:
                raise WriteError(
                    f"already exists; continue it with --resume {path}, or give --force to replace it",
                    path=path,
                    exit_code=EXIT_USAGE,
                )
            if info.st_uid != os.geteuid():
                raise WriteError(
                    "belongs to another user; record to a file of your own", path=path, exit_code=EXIT_USAGE
                )
            if not info.st_mode & stat.S_IWUSR:
                raise WriteError("is read-only; record to another file", path=path, exit_code=EXIT_USAGE)
            self.mode = stat.S_IMODE(info.st_mode)
        else:
            self.mode = 0o666 & ~_umask()
        self.directory = os.path.dirname(self.target)
        self._name = os.path.basename(self.target)
        self._probe()
        self._lock()
        self._remove_stale_temporaries()

    def _probe(self) -> None:
        """Create and remove a temporary beside the record: a folder that refuses it is found now,
        before a game is played, not after."""
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{self._name}.foursquare-", suffix=".tmp", dir=self.directory)
        except OSError as error:
            raise WriteError(
                f"cannot write in {self.directory or '.'}: {error.strerror}", path=self.path, exit_code=EXIT_USAGE
            ) from None
        os.close(handle)
        os.unlink(temporary)

    def _lock(self) -> None:
        lock_path = os.path.join(self.directory, f".{self._name}.lock")
        while True:
            try:
                fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
            except OSError as error:
                raise WriteError(f"cannot lock: {error.strerror}", path=self.path, exit_code=EXIT_USAGE) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise WriteError(
                    "another game holds this record; finish or quit that one first",
                    path=self.path,
                    exit_code=EXIT_USAGE,
                ) from None
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_ino == os.stat(lock_path).st_ino:
                    break
            os.close(fd)  # the lock file was removed under us by a session that ended: lock the new one
        self._lock_fd, self._lock_path = fd, lock_path

    def _remove_stale_temporaries(self) -> None:
        pattern = os.path.join(glob.escape(self.directory), glob.escape(f".{self._name}.foursquare-") + "*.tmp")
        for stale in glob.glob(pattern):
            with contextlib.suppress(OSError):
                os.unlink(stale)

    def write(self, text: str) -> None:
        """Replace the record with `text`: a reader (or a crash) sees the old file or the new, whole."""
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{self._name}.foursquare-", suffix=".tmp", dir=self.directory)
        except OSError as error:
            raise WriteError(f"cannot write: {error.strerror}", path=self.path) from None
        replaced = False
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
                stream.flush()
                os.fchmod(stream.fileno(), self.mode)
                os.fsync(stream.fileno())
            os.replace(temporary, self.target)
            replaced = self.written = True
        except OSError as error:
            raise WriteError(f"cannot write: {error.strerror or error}", path=self.path) from None
        finally:
            if not replaced:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)

    def close(self) -> None:
        """Release the lock (and remove the lock file); the record stays."""
        if self._lock_fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self._lock_path)
        os.close(self._lock_fd)
        self._lock_fd = None

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def opened_record(path: str | None, *, replace: bool = False) -> Iterator[RecordFile | None]:
    """The record to write at the end of a run (`auto`, `solve`), checked and locked before the run starts."""
    if path is None:
        yield None
        return
    with RecordFile(path, replace=replace) as record:
        yield record
