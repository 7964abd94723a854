"""`check`: game records validated, each file's verdict (its outcome, or every problem with its line)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ..errors import ExitStatus
from ..formats.lines import ReadError, files_within
from ..formats.records import Verdict, check_path
from .loading import Problems, files_or_last


class CheckedFile(NamedTuple):
    """One file checked: its verdict, or the error that kept it from being read."""

    path: str
    verdict: Verdict | None
    unreadable: ReadError | None = None

    @property
    def exit_status(self) -> ExitStatus:
        if self.unreadable is not None:
            return ExitStatus.USAGE
        return ExitStatus.SUCCESS if self.verdict is None or self.verdict.valid else ExitStatus.INVALID

    def to_json(self) -> dict[str, Any]:
        if self.verdict is not None:
            return self.verdict.to_json()
        message = self.unreadable.message if self.unreadable is not None else ""
        unread = {"line": None, "move": None, "move_text": None, "message": message}
        return {"path": self.path, "valid": False, "outcome": None, "problems": [unread]}


class Unreadable(NamedTuple):
    """A file that could not be read, said on standard error in every format."""

    error: ReadError


def check_files(paths: Iterable[str], last: bool = False) -> Iterator[CheckedFile | Problems | Unreadable]:
    """Each file's problems (said on standard error in every format), then its verdict, in order; a file that
    cannot be read is said and the others are checked; a folder is each file in it. `last`: the game played
    last instead of files."""
    for named in files_or_last(list(paths), last):
        found = files_within(named)
        if not found:  # a folder with nothing to check is said, not passed over as if every file were valid
            empty = ReadError("a folder with no files to check")
            empty.path = named
            yield Unreadable(empty)
            yield CheckedFile(named, None, empty)
        for path in found:
            yield from _checked(path)


def _checked(path: str) -> Iterator[CheckedFile | Problems | Unreadable]:
    verdict = check_path(path)
    if isinstance(verdict, ReadError):
        yield Unreadable(verdict)
        yield CheckedFile(path, None, verdict)
    else:
        yield Problems(verdict)
        yield CheckedFile(path, verdict)
