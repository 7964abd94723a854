"""Reading files and lines from outside: regular files and pipes only, lines of bounded length.

`open_input` and `read_bytes` read a path (`-` for standard input), refusing
FIFOs, devices and directories; `iter_lines` is the one way moves are read line by
line, by `play` from a pipe and `replay` from a log.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from typing import IO

from ..errors import InvalidInput, UsageError, display_name

MAX_INPUT_BYTES = 1 << 20
MAX_MOVE_LINE_BYTES = 4096
STDIN = "-"

__all__ = ["MAX_INPUT_BYTES", "MAX_MOVE_LINE_BYTES", "STDIN", "ReadError", "display_name"]


class ReadError(UsageError):
    """A path that cannot be read as a file: missing, a FIFO or a device, closed standard input."""


def open_input(path: str, instead: str = "give a file, or - for standard input") -> IO[bytes]:
    """A binary stream of `path`: standard input for `-`, else a regular file (never a FIFO or device).

    ReadError saying why, in one line, for anything else (`instead`: what to give in its place).
    """
    if path == STDIN:
        stdin = sys.stdin
        if stdin is None or stdin.closed:
            raise ReadError("standard input is closed")
        return stdin.buffer
    # O_NONBLOCK (POSIX): opening a FIFO must not wait for a writer, so that it can be refused. Windows has
    # neither the flag nor FIFOs at a path.
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise ReadError(f"cannot read: {error.strerror or error}") from None
    opened = False
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ReadError(f"not a regular file ({file_kind(mode)}); {instead}")
        if nonblocking:
            _set_blocking(fd)
        stream = os.fdopen(fd, "rb")
        opened = True
        return stream
    finally:
        if not opened:
            os.close(fd)


def _set_blocking(fd: int) -> None:
    """Reads of a regular file block again (the flag only mattered for the open)."""
    if sys.platform != "win32":
        os.set_blocking(fd, True)


def file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_bytes(path: str, instead: str = "give a file, or - for standard input") -> bytes:
    """At most MAX_INPUT_BYTES + 1 bytes of `path` (see `open_input`); ReadError when it cannot be read."""
    stream = open_input(path, instead)
    try:
        return stream.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise ReadError(f"cannot read: {error.strerror or error}") from None
    finally:
        if path != STDIN:
            stream.close()


def files_within(path: str) -> list[str]:
    """The files a path names for a command that reads many (`check`): a folder's files, its folders' too, in
    name order (hidden ones left out, links to folders not followed, so a loop of links ends); any other path
    as it is, to be read or refused in its turn."""
    if path == STDIN or not os.path.isdir(path):
        return [path]
    found = []
    for folder, folders, files in os.walk(path):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        found += [os.path.join(folder, name) for name in sorted(files) if not name.startswith(".")]
    return found


class UnreadableLine(InvalidInput):
    """A line that is not read as text: longer than MAX_MOVE_LINE_BYTES, or not UTF-8; `number` is its line."""

    def __init__(self, number: int, too_long: bool = False) -> None:
        said = f"line {number} is longer than {MAX_MOVE_LINE_BYTES:,} bytes; refused" if too_long else "not UTF-8 text"
        super().__init__(said, line=number)
        self.number = number


def iter_lines(stream: IO[bytes]) -> Iterator[tuple[int, str]]:
    """(line number, text) of a binary stream, as soon as each line is complete.

    The one way moves are read, by `play` from a pipe and `replay` from a log: lines
    end in LF, CRLF or CR; a byte-order mark at the start is dropped; a line longer
    than MAX_MOVE_LINE_BYTES raises UnreadableLine without being read whole, as do bytes
    that are not UTF-8, with their line.
    """
    read = getattr(stream, "read1", stream.read)
    pending = b""
    number = 0
    skip_lf = False
    first = True
    while True:
        chunk = read(MAX_MOVE_LINE_BYTES)
        if not chunk:
            if pending:
                number += 1
                yield number, _decode(pending, number, first)
            return
        if skip_lf and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        skip_lf = False
        pending += chunk
        while True:
            cut = _line_end(pending)
            if cut < 0:
                break
            line, ending = pending[:cut], pending[cut : cut + 1]
            pending = pending[cut + 1 :]
            if ending == b"\r":
                if pending.startswith(b"\n"):
                    pending = pending[1:]
                elif not pending:
                    skip_lf = True
            number += 1
            yield number, _decode(line, number, first)
            first = False
        if len(pending) > MAX_MOVE_LINE_BYTES:
            raise UnreadableLine(number + 1, too_long=True)


def _line_end(data: bytes) -> int:
    lf, cr = data.find(b"\n"), data.find(b"\r")
    if lf < 0:
        return cr
    if cr < 0:
        return lf
    return min(lf, cr)


def _decode(line: bytes, number: int, first: bool) -> str:
    if len(line) > MAX_MOVE_LINE_BYTES:
        raise UnreadableLine(number, too_long=True)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableLine(number) from None
    return text[1:] if first and text.startswith("\ufeff") else text


def move_text(line: str) -> str:
    """The move on a line of a log: `#` starts a comment; white space around it is dropped."""
    return line.split("#", 1)[0].strip()
