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
- While a session holds a record, a lock file `.NAME.lock` beside it (`store.locking`:
  `flock`, or `msvcrt.locking` on Windows) refuses a second session; it is removed
  when the session ends. On POSIX the existing record is locked in place too, so a
  second session that names it through a hard link is refused. A record the history
  reserves (`reserve_record`) is held from before it exists: an empty one that no
  session holds was left by a kill, and `remove_if_abandoned` removes it.
- Each write goes to a temporary file `.NAME.foursquare-*.tmp` in the same folder,
  then is renamed over the record; temporaries a killed session left behind are
  removed when the record is next opened. On Windows a rename over a file that
  another program (a virus scanner, an indexer, an editor) has open fails for a
  moment: it is tried again for up to a second before the write is an error.
- The owner check is POSIX's (Windows has no user ids to compare; its permissions
  refuse the write itself, which is then an error like any other).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator

from ..errors import UsageError, WriteError
from .locking import ExclusiveLock

__all__ = [
    "RecordFile",
    "WriteError",
    "lock_path_of",
    "opened_record",
    "os_reason",
    "unwritable",
    "remove_if_abandoned",
    "reserve_record",
]


FULL_BELOW = 256 * 1024  # free bytes under which a folder's file system counts as full: SQLite's writes would fail


def unwritable(folder: str | os.PathLike[str]) -> str | None:
    """Why nothing can be written in `folder` (a read-only mount or copy, a full disk), or None."""
    if not os.access(folder, os.W_OK):
        return "cannot be written"
    try:
        return "is on a full disk" if shutil.disk_usage(folder).free < FULL_BELOW else None
    except OSError:
        return None


def os_reason(error: BaseException) -> str:
    """Why an operation on a file failed, in the system's words (`No space left on device`), else the error's."""
    return getattr(error, "strerror", None) or str(error)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


REPLACE_TRIES = 20  # Windows: a rename refused for a sharing violation is tried again, every 50 ms


def replace_file(source: str, target: str, *, sleep: Callable[[float], None] = time.sleep) -> None:
    """`os.replace`, tried again for a second on Windows when another program holds `target` open (a
    PermissionError there is a sharing violation that passes; elsewhere it is final)."""
    for attempt in range(REPLACE_TRIES):
        try:
            os.replace(source, target)
            return
        except PermissionError:
            if sys.platform != "win32" or attempt == REPLACE_TRIES - 1:
                raise
            sleep(0.05)


def lock_path_of(path: str) -> str:
    """The lock file `.NAME.lock` beside a record, by the record's own name (symbolic links resolved)."""
    target = os.path.realpath(path)
    return os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.lock")


def _remove_temporaries_of(target: str) -> None:
    """The temporaries of a record's writes (`.NAME.foursquare-*.tmp`) that a killed session left beside it."""
    directory, name = os.path.split(target)
    for stale in glob.glob(os.path.join(glob.escape(directory), glob.escape(f".{name}.foursquare-") + "*.tmp")):
        with contextlib.suppress(OSError):
            os.unlink(stale)


def remove_if_abandoned(path: str) -> bool:
    """Remove the record at `path` if it is an empty file no session holds, with the temporaries left beside it:
    one reserved for a game whose session was killed before its first move was saved (a session that ends
    removes its own). True when it was."""
    try:
        lock = ExclusiveLock.acquire(lock_path_of(path))
    except OSError:
        return False
    if lock is None:  # a session holds it: a game waiting for its first move
        return False
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != 0:
            return False
        os.unlink(path)
        _remove_temporaries_of(os.path.realpath(path))
        return True
    except OSError:
        return False
    finally:
        lock.release()


def _holds_a_finished_game(path: str) -> bool:
    """Whether `path` is a valid record of a game over: then `--resume` is no way on, and is not offered."""
    from ..formats.records import load  # only on this refusal: a record is read to say what it holds

    try:
        verdict = load(path)
    except Exception:  # whatever the file is, the refusal stands: only its words depend on this
        return False
    return not verdict.problems and verdict.game is not None and verdict.game.state.is_over


class RecordFile:
    """The file a game is recorded to, checked, locked and ready for atomic writes."""

    def __init__(
        self, path: str, *, replace: bool = False, lock: ExclusiveLock | None = None, resumable: bool = True
    ) -> None:
        """A UsageError (exit 2; a write that fails later is a `WriteError`, exit 74) unless `path` can hold
        a record; `replace` allows an existing non-empty file. `lock`: the lock of its name, already held (a
        record reserved by the history, held from the moment it was made); it is the record's from then on.
        `resumable`: a game at the prompt, which `--resume` may continue (`auto` and `solve` have no `--resume`,
        so a refusal does not offer it)."""
        self.path = path
        self.target = os.path.realpath(path)
        self.written = False  # whether this session has written the record yet
        self._lock: ExclusiveLock | None = None
        self._held_in_place: ExclusiveLock | None = None  # the existing record's own lock (POSIX)
        try:
            info: os.stat_result | None = os.stat(self.target)
        except FileNotFoundError:
            info = None
        except OSError as error:
            raise UsageError(f"cannot write: {error.strerror}", path=path) from None
        if info is not None:
            if not stat.S_ISREG(info.st_mode):
                raise UsageError("not a regular file; a record is written only to a regular file", path=path)
            if info.st_size > 0 and not replace:
                if _holds_a_finished_game(path):  # --resume would refuse it: not offered
                    finished = "already holds a finished game; record to another file, or give --force"
                    raise UsageError(finished, path=path)
                resume = f"continue it with --resume {path}, or " if resumable else "record to another file, or "
                raise UsageError(f"already exists; {resume}give --force to replace it", path=path)
            own_user = getattr(os, "geteuid", None)  # POSIX only
            if own_user is not None and info.st_uid != own_user():
                raise UsageError("belongs to another user; record to a file of your own", path=path)
            if not info.st_mode & stat.S_IWUSR:
                raise UsageError("is read-only; record to another file", path=path)
            self.mode = stat.S_IMODE(info.st_mode)
        else:
            self.mode = 0o666 & ~_umask()
        self.directory = os.path.dirname(self.target)
        self._name = os.path.basename(self.target)
        self._probe()
        self._hold_lock(exists=info is not None, held=lock)
        self._remove_stale_temporaries()

    def _probe(self) -> None:
        """Create and remove a temporary beside the record: a folder that refuses it is found now,
        before a game is played, not after."""
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{self._name}.foursquare-", suffix=".tmp", dir=self.directory)
        except OSError as error:
            raise UsageError(f"cannot write in {self.directory or '.'}: {error.strerror}", path=self.path) from None
        os.close(handle)
        os.unlink(temporary)

    def _hold_lock(self, *, exists: bool, held: ExclusiveLock | None = None) -> None:
        """The lock file beside the record, by its name (symbolic links resolved), and on POSIX the existing
        record's own lock too, so a game resumed through a hard link is refused while another holds the file.
        (Windows: a file held open could not be replaced by the atomic write; the name's lock only.)"""
        try:
            lock = held if held is not None else ExclusiveLock.acquire(lock_path_of(self.target))
            in_place = (
                ExclusiveLock.on_file(self.target) if lock is not None and exists and os.name == "posix" else lock
            )
        except OSError as error:
            raise UsageError(f"cannot lock: {error.strerror}", path=self.path) from None
        if lock is None or in_place is None:
            if lock is not None:
                lock.release()
            raise UsageError("another game holds this record; finish or quit that one first", path=self.path)
        self._lock = lock
        self._held_in_place = in_place if in_place is not lock else None

    def _remove_stale_temporaries(self) -> None:
        _remove_temporaries_of(self.target)

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
                _set_mode(stream.fileno(), temporary, self.mode)
                os.fsync(stream.fileno())
            replace_file(temporary, self.target)
            replaced = self.written = True
        except OSError as error:
            raise WriteError(f"cannot write: {error.strerror or error}", path=self.path) from None
        finally:
            if not replaced:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)

    def close(self) -> None:
        """Release the lock (and remove the lock file); the record stays."""
        lock, self._lock = self._lock, None
        in_place, self._held_in_place = self._held_in_place, None
        if in_place is not None:
            in_place.release()
        if lock is not None:
            lock.release()

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def reserve_record(folder: str, stem: str) -> RecordFile | None:
    """A fresh record `folder/STEM.yaml` (then `STEM-2.yaml`, ...), created empty so no other game takes it, and
    held: its name's lock is taken before the file is made, so `remove_if_abandoned` never takes it for one whose
    session was killed. None when 10,000 names are taken; OSError when the folder refuses."""
    for number in range(1, 10_000):
        candidate = os.path.join(folder, f"{stem}.yaml" if number == 1 else f"{stem}-{number}.yaml")
        lock = ExclusiveLock.acquire(lock_path_of(candidate))
        if lock is None:  # another session is making or holding it
            continue
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            lock.release()
            continue
        except BaseException:  # the name's lock goes with the attempt; the error goes on up
            lock.release()
            raise
        try:
            return RecordFile(candidate, lock=lock)
        except BaseException:  # the folder refuses a temporary, say: the reservation goes, the error on up
            with contextlib.suppress(OSError):
                os.unlink(candidate)
            lock.release()
            raise
    return None


def _set_mode(fd: int, path: str, mode: int) -> None:
    """The record's mode on its temporary: `fchmod` where there is one, else (Windows) by path, where only the
    read-only bit means anything."""
    change = getattr(os, "fchmod", None)
    if change is not None:
        change(fd, mode)
    else:
        os.chmod(path, mode)


@contextlib.contextmanager
def opened_record(path: str | None, *, replace: bool = False, option: str = "--record") -> Iterator[RecordFile | None]:
    """The record to write at the end of a run (`auto`, `solve`), checked and locked before the run starts;
    `--force` with no file to replace is refused, never ignored."""
    if path is None:
        if replace:
            raise UsageError(f"--force replaces an existing {option} FILE; give it with {option}")
        yield None
        return
    with RecordFile(path, replace=replace, resumable=False) as record:
        yield record
