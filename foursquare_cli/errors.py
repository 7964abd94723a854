"""Every error the tool reports, each carrying the exit code it ends the tool with.

The bottom layer: it imports nothing of the package, and every layer above raises
these. `cli.py` has the one handler that turns a `FoursquareError` into one line on
standard error and its `exit_code`; anything else reaching it is a bug of ours
(exit 70, the traceback kept in a crash log). The move and card errors are also
`ValueError`s, as in python-chess, so library callers may catch either.

The exit codes and what each means are the table `EXIT_CODES` below, the one
source of the list that `foursquare --help` ends with (docs/commands.md has it too).
"""

from __future__ import annotations

from collections.abc import Iterable

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_UNWINNABLE = 3
EXIT_GAVE_UP = 4
EXIT_INTERNAL = 70
EXIT_IO = 74
EXIT_WORKER_LOST = 75
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_TERMINATED = 143

EXIT_CODES = {
    EXIT_OK: "success (check: every file valid; solve: winnable)",
    EXIT_INVALID: "invalid input (an illegal move, an invalid record, a forfeit)",
    EXIT_USAGE: "usage error (a bad option, a file that cannot be read or written)",
    EXIT_UNWINNABLE: "solve: unwinnable",
    EXIT_GAVE_UP: "solve: gave up",
    EXIT_INTERNAL: "internal error (a bug: details in a crash log)",
    EXIT_IO: "output or a record could not be written",
    EXIT_WORKER_LOST: "a worker process or a cluster failed mid-run",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_BROKEN_PIPE: "the reader of the output went away",
    EXIT_TERMINATED: "terminated",
}
"""Every exit code and what it means: `foursquare --help` and docs/commands.md are made from this table."""


def exit_codes_text() -> str:
    """`Exit codes: 0 success ...; 1 ...`: the table above as one paragraph (the top-level help's last)."""
    return "Exit codes: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items()) + "."


def display_name(path: str) -> str:
    """How a path (or any text from outside) is named in a message: `<stdin>` for `-`, and quoted
    (`repr`, so escape sequences are shown, never sent to the terminal) when it holds anything that is
    not printable: control characters, bytes that were not UTF-8. The one function that makes text
    from outside safe to print."""
    if path == "-":
        return "<stdin>"
    return path if path.isprintable() else repr(path)


class FoursquareError(Exception):
    """The base of every error of the package: a message, where it applies (a path, a line, a move
    number), and the exit code it ends the tool with.

    `str` is the message, after the path when there is one (`game.yaml: cannot read: ...`).
    `exit_code` is the class's, always: a kind of error with another exit code is a
    subclass of its own. `before` are lines to say ahead of the message (a file's
    problems, each `file:line: ...`).
    """

    exit_code: int = EXIT_USAGE
    before: tuple[str, ...] = ()

    def __init__(
        self,
        message: str = "",
        *,
        path: str | None = None,
        line: int | None = None,
        move_number: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
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


class InvalidInputError(FoursquareError):
    """The input is wrong: a card, a move, a record, a line of a pipe (exit 1)."""

    exit_code = EXIT_INVALID


class UsageError(FoursquareError):
    """Options that cannot be carried out, or a file that cannot be used (exit 2)."""

    exit_code = EXIT_USAGE


class ReadError(UsageError):
    """A path that cannot be read as a file: missing, a FIFO or a device, closed standard input."""


class WriteError(FoursquareError):
    """A file cannot be written; the message is one line that names the path and says why: a write that
    fails (a full disk) ends with exit 74."""

    exit_code = EXIT_IO


class PathRefused(WriteError):
    """A path refused before anything is written (it exists, it is not a regular file, it is locked): a
    usage error (exit 2)."""

    exit_code = EXIT_USAGE


class Interrupted(FoursquareError):
    """A run stopped by a signal: SIGINT (Ctrl-C, exit 130); `Terminated` for the others."""

    exit_code = EXIT_INTERRUPTED

    def __init__(self, signum: int, message: str = "interrupted") -> None:
        super().__init__(message)
        self.signum = signum


class Terminated(Interrupted):
    """A run stopped by SIGTERM or SIGHUP (exit 143)."""

    exit_code = EXIT_TERMINATED

    def __init__(self, signum: int) -> None:
        super().__init__(signum, "terminated")


def interrupted_by(signum: int) -> Interrupted:
    """The error a signal stops a run with: Interrupted for SIGINT, Terminated for the others."""
    import signal

    return Interrupted(signum) if signum == signal.SIGINT else Terminated(signum)


class AlreadySaid(FoursquareError):
    """What went wrong was said where it happened (a file's problems, a game interrupted, a failed output):
    only the exit code is left to give, by its class, and the one handler says nothing more."""


class ProblemsSaid(AlreadySaid):
    """Input with problems, each said as file:line (check, replay, analyze, a move refused from a pipe)."""

    exit_code = EXIT_INVALID


class UnreadableSaid(AlreadySaid):
    """A file that could not be read, said (check goes on with the other files)."""

    exit_code = EXIT_USAGE


class InterruptedSaid(AlreadySaid):
    """Ctrl-C during a game, said with where the game is kept."""

    exit_code = EXIT_INTERRUPTED


class WriteFailedSaid(AlreadySaid):
    """A write that failed (a record, the output), said with where the game is kept."""

    exit_code = EXIT_IO


class BrokenPipeSaid(AlreadySaid):
    """The reader of the output went away: nothing is said but where the game is kept."""

    exit_code = EXIT_BROKEN_PIPE


class Unwinnable(AlreadySaid):
    """`solve`: an exhaustive search found no win (its result printed)."""

    exit_code = EXIT_UNWINNABLE


class GaveUp(AlreadySaid):
    """`solve`: the budget or the time ran out with no win found (its result printed)."""

    exit_code = EXIT_GAVE_UP


def raise_worst(failures: Iterable[AlreadySaid | None]) -> None:
    """Of a command's failures (one a file, None for a file that was fine), raise the one with the highest
    exit code; nothing when there is none."""
    found = [failure for failure in failures if failure is not None]
    if found:
        raise max(found, key=lambda failure: failure.exit_code)


class Forfeit(FoursquareError):
    """A player lost a game by what it did, not by the cards: the reason, as reported (`no answer within 2 s`)."""

    exit_code = EXIT_INVALID

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PlayerError(UsageError, ValueError):
    """A `--player` that names no player, or one that cannot be built: the message says why."""
