"""JSON Lines logs: the one way `stats`, `compare` and `analyze` keep their results as they go (`--results`).

A log is a header line (what the run is), then one JSON object a line, appended
and flushed as each piece of work ends, so a killed run loses only what was in
flight and the same command on the same file goes on from there. For every log:

- Only a regular file is used: a FIFO, a device or a directory is refused at once,
  without waiting on it; a file that is not UTF-8 text is refused too.
- One writer at a time: the file itself is locked (`store.locking`), so a second run on
  it is refused with one line (exit 2), whatever path names it (a symbolic or a hard
  link); no lock file is made.
- Lines are read one at a time, each at most `MAX_LOG_LINE_BYTES`; a line that is not
  a JSON object is an error naming the file and its line (exit 1).
- A last line without its newline was cut short by a kill: it is left out when the
  file is read, and cut off before anything is appended.
- The file keeps its mode; a file that cannot be written (read-only) is refused
  before any work is done, by name.
- A file the log made is removed when it is closed with no line written after its
  header: a run that fails before its first piece of work (a cluster that cannot be
  used, a --solution file that exists, a worker lost) leaves no file behind.
- A new file appears with its header already in it: written to a temporary beside it,
  then linked into place (where the file system cannot link, it is made, then written).
  A run killed as it opens its file leaves no file, or one that says what the run is
  (made empty first, it was a file `summarize` could not read); a temporary a kill
  left is removed when the file is next opened.

What the lines mean is the caller's (`runs.results`): this module knows files.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import stat
from collections.abc import Iterator
from typing import IO, Any

from ..errors import InvalidInput, UsageError, WriteError, quoted
from ..formats.jsonl import json_line
from ..formats.lines import file_kind
from .locking import ExclusiveLock

__all__ = ["MAX_LOG_LINE_BYTES", "JsonLinesLog", "LogError", "read_log"]

MAX_LOG_LINE_BYTES = 1 << 20


class LogError(UsageError):
    """A log file that cannot be used (not a regular file, held by another run, unreadable, read-only)."""


class JsonLinesLog:
    """A results log, opened for one run: its header and lines read, the file locked, ready to append.

    `header` is the first line (None for a new or empty file) and `entries` the
    complete lines after it, as (line number, object). `first`: the header a new file
    is made with. `begin(header)` writes the header of an empty file; `append(value)`
    adds a line. `close` lets the lock go.
    """

    def __init__(self, path: str, first: dict[str, Any] | None = None) -> None:
        self.path = path
        self.header: dict[str, Any] | None = None
        self.entries: list[tuple[int, dict[str, Any]]] = []
        self._stream: IO[str] | None = None
        self._kept = False  # a line was written after the header: the file is worth keeping
        _refuse_what_is_not_a_file(path)
        self._made = not os.path.lexists(path)  # made by this log (a race lost to another run ends in refusal)
        if self._made and first is not None:
            _made_whole(path, json_line(first))
        if os.path.exists(path) and not (os.stat(path).st_mode & stat.S_IWUSR and os.access(path, os.W_OK)):
            raise LogError("is read-only; give a file this run can write to", path=path)
        try:
            lock = ExclusiveLock.on_file(path)  # the file's own lock: one writer, whatever path names the file
        except FileNotFoundError:
            raise LogError("cannot write: its folder does not exist", path=path) from None
        except OSError as error:
            raise LogError(f"cannot lock: {error.strerror or error}", path=path) from None
        if lock is None:
            raise LogError("another run is writing to this file; wait for it, or give another file", path=path)
        self._lock: ExclusiveLock | None = lock
        try:
            _remove_stale_temporaries(path)
            self.header, self.entries = read_log(path)
            self._cut_partial_line()
            self._stream = open(path, "a", encoding="utf-8")
        except OSError as error:
            self.close()
            raise LogError(f"cannot write: {error.strerror or error}", path=path) from None
        except BaseException:  # whatever stops the opening, the file or client is let go; it goes on up
            self.close()
            raise

    def _cut_partial_line(self) -> None:
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb+") as stream:
            size = stream.seek(0, os.SEEK_END)
            if size == 0:
                return
            stream.seek(size - 1)
            if stream.read(1) == b"\n":
                return
            keep = _last_newline_end(stream, size)
            stream.truncate(keep)

    def begin(self, header: dict[str, Any]) -> None:
        """Write the header of a new (empty) file."""
        if self.header is None:
            self.append(header)
            self.header = header
            self._kept = False  # a header alone is no work kept

    def append(self, value: dict[str, Any]) -> None:
        """One line, written and flushed now; WriteError naming the file when the write fails."""
        assert self._stream is not None
        self._kept = True
        try:
            self._stream.write(json_line(value))
            self._stream.flush()
        except OSError as error:
            raise WriteError(f"cannot write: {error.strerror or error}", path=self.path) from None

    def close(self) -> None:
        """Let the file and its lock go; a file this log made and wrote no line to (past a header) is removed."""
        stream, self._stream = self._stream, None
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is None:
            return
        unused = self._made and not self._kept
        if unused:  # removed while locked (POSIX), so no other run takes up a file about to go
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        lock.release()
        if unused and os.path.lexists(self.path):  # Windows: an open file cannot be removed; now it can
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def __enter__(self) -> JsonLinesLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_log(path: str) -> tuple[dict[str, Any] | None, list[tuple[int, dict[str, Any]]]]:
    """The header and the complete lines (line number, object) of a log, read only (`summarize`): LogError for
    what is not a regular file, InvalidInput for a line that is not a JSON object."""
    _refuse_what_is_not_a_file(path)
    header: dict[str, Any] | None = None
    entries: list[tuple[int, dict[str, Any]]] = []
    if not os.path.exists(path):
        return header, entries
    try:
        for number, line in _complete_lines(path):
            if number == 1:
                line = line.removeprefix("\ufeff")  # an editor's byte-order mark, as records and move logs allow
            if not line.strip():
                continue
            try:
                value = json.loads(line, object_pairs_hook=_one_of_each_key, parse_int=_bounded_int)
            except _LineRefused as refused:
                raise InvalidInput(str(refused), path=f"{path}:{number}") from None
            except ValueError:
                raise InvalidInput("not a JSON object", path=f"{path}:{number}") from None
            except RecursionError:  # `[[[[...` a hundred thousand deep: no line of ours nests so
                raise InvalidInput("not a line of ours: nested too deep", path=f"{path}:{number}") from None
            if not isinstance(value, dict):
                raise InvalidInput("not a JSON object", path=f"{path}:{number}")
            if header is None:
                header = value
            else:
                entries.append((number, value))
    except OSError as error:
        raise LogError(f"cannot read: {error.strerror or error}", path=path) from None
    return header, entries


def _temporary_prefix(path: str) -> str:
    return f".{os.path.basename(path)}.foursquare-"


def _made_whole(path: str, first_line: str) -> None:
    """Make the file at `path` with `first_line` already in it: written to a temporary beside it, then linked
    into place, so the file never exists empty. Nothing when a file is there by then (another run made it), or
    where the file system cannot link: the file is then made as it is locked, and its header written after."""
    link = getattr(os, "link", None)
    if link is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, f"{_temporary_prefix(path)}{os.urandom(6).hex()}.tmp")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the mode the umask allows
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(first_line)
        link(temporary, path)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _remove_stale_temporaries(path: str) -> None:
    """The temporaries of `_made_whole` a killed run left beside the file (called with the file locked: any run
    making it now finds it there, and leaves its own temporary alone)."""
    folder = os.path.dirname(os.path.abspath(path))
    for stale in glob.glob(os.path.join(glob.escape(folder), glob.escape(_temporary_prefix(path)) + "*.tmp")):
        with contextlib.suppress(OSError):
            os.unlink(stale)


def _refuse_what_is_not_a_file(path: str) -> None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise LogError(f"cannot read: {error.strerror or error}", path=path) from None
    if not stat.S_ISREG(info.st_mode):
        raise LogError(f"not a regular file ({file_kind(info.st_mode)}); give a results file", path=path)


def _last_newline_end(stream: IO[bytes], size: int) -> int:
    """The offset just after the last newline of the file (0 when there is none), read from the end."""
    position = size
    while position > 0:
        step = min(65536, position)
        position -= step
        stream.seek(position)
        chunk = stream.read(step)
        found = chunk.rfind(b"\n")
        if found >= 0:
            return position + found + 1
    return 0


class _LineRefused(InvalidInput):
    """A line that is JSON, but not as the tool writes one: said as it is, not as `not a JSON object`."""


MAX_NUMBER_DIGITS = 40  # the longest whole number a line of ours may hold (a deal number has 20 digits)


def _one_of_each_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each once (JSON's readers differ on a key repeated: Python keeps the last)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        repeated = next(key for key, _ in pairs if sum(other == key for other, _ in pairs) > 1)
        raise _LineRefused(f"the key {quoted(repeated)} appears twice in one object")
    return found


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _LineRefused(f"a number of {len(text):,} characters (a line holds at most {MAX_NUMBER_DIGITS} digits)")
    return int(text)


def _complete_lines(path: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line that ends in a newline; InvalidInput for one too long or not UTF-8."""
    with open(path, "rb") as stream:
        number = 0
        while True:
            raw = stream.readline(MAX_LOG_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_LOG_LINE_BYTES:
                    raise InvalidInput(f"longer than {MAX_LOG_LINE_BYTES:,} bytes", path=f"{path}:{number}")
                return  # cut short by a kill: not a line
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidInput("not UTF-8 text", path=f"{path}:{number}") from None
