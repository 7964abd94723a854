"""The kinds of error the tool reports, and the one table that gives each kind its exit code.

The bottom layer: it imports nothing of the package. As in python-chess, the errors
are plain exceptions (the input kinds are `ValueError`s, so a library caller may
catch either) and know nothing of exit codes: every layer raises a subclass of one of
the kinds below, and `exit_code_of` reads the code off the kind, through the class's
ancestry, from `EXIT_CODE_OF_KIND`, the one table. The handler in `cli/app.py` is its
only reader: one line on standard error, then that code. So hierarchy and code agree
by construction: a usage error exits 2 because it is a `UsageError`, never because a
raise site says so. What was said already (a file's problems, a game interrupted and
where it is kept, `solve`'s no win) is no exception but a value, an `ExitStatus` the
command returns, as httpie's. `EXIT_CODES` says what each code means, for `foursquare
--help` and docs/commands.md.
"""

from __future__ import annotations

import enum
import re
import signal
from collections.abc import Iterable


class ExitStatus(enum.IntEnum):
    """How the tool ends, as httpie's `ExitStatus`: a value a command returns when what went wrong was said where
    it happened (a file's problems, a game interrupted, a failed output), and the code of each kind of error."""

    SUCCESS = 0
    INVALID = 1
    USAGE = 2
    UNWINNABLE = 3
    GAVE_UP = 4
    INTERNAL = 70
    IO = 74
    WORKER_LOST = 75
    INTERRUPTED = 130
    BROKEN_PIPE = 141
    TERMINATED = 143


EXIT_CODES = {
    ExitStatus.SUCCESS: "success (check: every file valid; solve: winnable)",
    ExitStatus.INVALID: "invalid input (an illegal move, an invalid record, a forfeit in auto or hint)",
    ExitStatus.USAGE: "usage error (a bad option, a file that cannot be read or written)",
    ExitStatus.UNWINNABLE: "solve: unwinnable",
    ExitStatus.GAVE_UP: "solve: gave up",
    ExitStatus.INTERNAL: "internal error (a bug: details in a crash log)",
    ExitStatus.IO: "output or a record could not be written",
    ExitStatus.WORKER_LOST: "a worker process or a cluster failed mid-run",
    ExitStatus.INTERRUPTED: "interrupted (Ctrl-C)",
    ExitStatus.BROKEN_PIPE: "the reader of the output went away",
    ExitStatus.TERMINATED: "terminated",
}
"""Every exit code and what it means: `foursquare --help` and docs/commands.md are made from this table."""


def exit_codes_text() -> str:
    """`Exit codes: 0 success ...; 1 ...`: the table above as one paragraph (the top-level help's last)."""
    return "Exit codes: " + "; ".join(f"{int(code)} {meaning}" for code, meaning in EXIT_CODES.items()) + "."


def counted(number: int, word: str) -> str:
    """`1 move`, `3 moves`: a count and its word, plural as English has it for the words the tool counts."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def seconds_typed(seconds: float) -> str:
    """A number of seconds as short as it was typed: `30`, `0.5`, `5e-324` (`:g` alone wrote 4.94066e-324)."""
    shortest = repr(float(seconds))
    return shortest if "e" in shortest else f"{seconds:g}"


def quoted(text: str, limit: int = 40) -> str:
    """`text` quoted (`repr`: nothing in it reaches the terminal as a control), at most `limit` characters of
    it and then its length (`'99999'... (5,000 characters)`): messages never echo a whole hostile input."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"


def clipped(text: str, longest: int = 60) -> str:
    """`text` with every word longer than `longest` cut to its start and its length (`'99999'... (5,000
    characters)`, as `quoted` says it, its punctuation kept): a message quoting what was typed never echoes a
    5,000-digit number whole."""

    def clip(word: re.Match[str]) -> str:
        quote, body, closing, punctuation = word["quote"], word["body"], word["closing"], word["punctuation"]
        if closing != quote:  # an unbalanced quote is part of the word
            body, closing = quote + body + closing, ""
            quote = ""
        return f"{quote}{body[:30]}{closing}... ({len(body):,} characters){punctuation}"

    word = rf"(?P<quote>['\"]?)(?P<body>\S{{{longest + 1},}}?)(?P<closing>['\"]?)(?P<punctuation>[.,:;]?)(?=\s|$)"
    return re.sub(word, clip, text)


def display_name(path: str) -> str:
    """How a path (or any text from outside) is named in a message: `<stdin>` for `-`, and quoted
    (`repr`, so escape sequences are shown, never sent to the terminal) when it holds anything that is
    not printable: control characters, bytes that were not UTF-8. The one function that makes text
    from outside safe to print."""
    if path == "-":
        return "<stdin>"
    return path if path.isprintable() else repr(path)


class FoursquareError(Exception):
    """The base of every error of the package: a message, and where it applies (a path, a line, a move
    number), each None when it does not.

    `str` is the message, after the path when there is one (`game.yaml: cannot read: ...`). `before` are
    lines to say ahead of the message (a record's problems, each `file:line: ...`, before `cannot resume`).
    Its kind, and so its exit code, is its class's ancestry (`exit_code_of`).
    """

    before: tuple[str, ...] = ()

    def __init__(
        self,
        message: str = "",
        *,
        path: str | None = None,
        line: int | None = None,
        move_number: int | None = None,
        before: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.before = before
        self.path = path
        self.line = line
        self.move_number = move_number

    def __str__(self) -> str:
        return f"{display_name(self.path)}: {self.message}" if self.path is not None else self.message

    def __reduce__(self) -> tuple[object, ...]:
        """Errors cross process boundaries (worker results) whole, keyword arguments included."""
        return (_rebuilt, (type(self), self.message, dict(self.__dict__)))


def _rebuilt(kind: type[FoursquareError], message: str, state: dict[str, object]) -> FoursquareError:
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


# -- the kinds, one for each exit code ---------------------------------------------------------------


class InvalidInput(FoursquareError, ValueError):
    """The input is wrong: a card, a move, a record, a line of a pipe, a player that forfeits."""


class UsageError(FoursquareError, ValueError):
    """Options that cannot be carried out, or a file that cannot be used."""


class WriteError(FoursquareError):
    """A file or the output could not be written (a full disk); the message names the path and says why."""


class RunFailed(FoursquareError):
    """A worker process or a cluster failed in the middle of a run."""


class Interrupted(FoursquareError):
    """A run stopped by Ctrl-C (SIGINT); `Terminated` for the signals that end a run for good."""

    def __init__(self, signum: int = 2, message: str = "interrupted") -> None:
        super().__init__(message)
        self.signum = signum


class Terminated(Interrupted):
    """A run stopped by SIGTERM or SIGHUP (the terminal closed)."""

    def __init__(self, signum: int = 15) -> None:
        super().__init__(signum, "terminated")


EXIT_CODE_OF_KIND: dict[type[BaseException], ExitStatus] = {
    InvalidInput: ExitStatus.INVALID,
    UsageError: ExitStatus.USAGE,
    WriteError: ExitStatus.IO,
    RunFailed: ExitStatus.WORKER_LOST,
    Terminated: ExitStatus.TERMINATED,
    Interrupted: ExitStatus.INTERRUPTED,
}
"""The one table: each kind of error and the code the tool exits with (the nearest kind in a class's ancestry
decides; anything that is none of these is a bug of ours, `ExitStatus.INTERNAL`)."""


def exit_code_of(error: BaseException) -> ExitStatus:
    """The exit code `error` ends the tool with: its nearest kind's in `EXIT_CODE_OF_KIND`."""
    for kind in type(error).__mro__:
        if kind in EXIT_CODE_OF_KIND:
            return EXIT_CODE_OF_KIND[kind]
    return ExitStatus.INTERNAL


def interrupted_by(signum: int) -> Interrupted:
    """The error a signal stops a run with: Interrupted for SIGINT, Terminated for the others."""
    return Interrupted(signum) if signum == signal.SIGINT else Terminated(signum)


def worst(statuses: Iterable[ExitStatus | None]) -> ExitStatus:
    """Of a command's statuses (one a file; None for a file that was fine), the one it ends with: the highest."""
    return max((status for status in statuses if status is not None), default=ExitStatus.SUCCESS)


class Forfeit(InvalidInput):
    """A player lost a game by what it did, not by the cards: the reason, as reported (`no answer within 2 s`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PlayerError(UsageError):
    """A `--player` that names no player, or one that cannot be built: the message says why."""
