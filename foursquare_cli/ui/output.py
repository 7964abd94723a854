"""The one way out: a `Screen` owns the standard streams, the width and the style, and `emit` writes any value
of the core in the format asked for, as text or as JSON.

As rich's `Console` owns its file, its width and its colour system, `Screen` owns
standard output and standard error, the width lines are fitted to, and the style of
the board (face-down cards named, suit symbols, colour). Nothing else in the tool
writes to a stream. `emit(value, format, screen)` writes a value: its JSON (the
value's own `to_json()`, one line; a list, a line each) with the one set of JSON
settings (`formats.jsonl`), or its text, made by the renderer registered for its
type with `text_of.register` in the ui module of its command (or, for `--format csv`,
its rows, `to_rows()`). A value with no `to_json` is said in words in every format
(a file's problems, a note, a warning: they go to standard error). `emit` returns
what the value failed with, once said (its `failure`), for the command to end with.
"""

from __future__ import annotations

import contextlib
import csv
import enum
import errno
import functools
import importlib
import io
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, NamedTuple, cast

from ..errors import ExitStatus
from ..formats.jsonl import json_line
from .board import PLAIN, Style
from .fit import fitted

NARROWEST = 60  # the columns every screen keeps to where no terminal says its width (a pipe, a file)


class OutputFormat(enum.StrEnum):
    """What `--format` asks for: text for people, JSON for programs (one object a line), CSV for a sheet."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"


class Text(NamedTuple):
    """A value in words: `out` for standard output, `err` lines for standard error (said first when
    `err_first`), and `said`: what a game says to its player, on standard output at the prompt and on standard
    error when the game is played from a pipe (whose standard output is the states)."""

    out: str = ""
    err: tuple[str, ...] = ()
    said: str = ""
    err_first: bool = False
    whole: bool = False  # a line for a program as much as a person (a deal's stock, the version): broken only
    # when standard output is a terminal (a person reads it there; a script, from a pipe or a file, gets it whole)
    err_words: bool = False  # the `err` lines are words for a person (a deal's grade), fitted to the width as
    # standard output is; an error (every other `err`) stays one line


class Screen:
    """The standard streams, the width and the style (see the module's docstring)."""

    def __init__(
        self,
        style: Style = PLAIN,
        *,
        out: IO[str] | None = None,
        err: IO[str] | None = None,
        prompt: bool = False,
        width: Callable[[], int | None] | None = None,
    ) -> None:
        self.style = style
        self._out = out
        self._err = err
        self.prompt = prompt  # a game at the prompt: what it says goes to standard output, fitted to the width
        self._width = width or (lambda: terminal_width(self.out))
        self.boards = 0  # boards written so far: the first carries the legend

    @property
    def out(self) -> IO[str]:
        return self._out if self._out is not None else sys.stdout

    @property
    def width(self) -> int | None:
        """The columns a line may take: the terminal's (or `COLUMNS`), None for output that goes to no
        terminal with no `COLUMNS` said (a file, a pipe: lines are left whole)."""
        return self._width()

    def write(self, text: str, *, fit: bool = True) -> None:
        """Text on standard output, flushed (a co-process reads each state as it comes), each line fitted to the
        width (`fit.fitted`: broken between words, never inside one; a command to copy moved whole). JSON and
        CSV are written as they are (`fit=False`)."""
        if not text:
            return
        width = self.width
        if fit and width is not None:
            text = fitted(text, width)
        with _off_the_bar(self.out):
            self.out.write(text)
            self.out.flush()

    def say(self, line: str, *, fit: bool = False) -> None:
        """One line on standard error, if there is one to write to (never broken: an error is one line; words
        for a person, `fit`, are fitted to standard error's width as `write` fits standard output's)."""
        stream = self._err if self._err is not None else sys.stderr
        try:
            if stream is not None:
                width = terminal_width(stream) if fit else None
                said = (fitted(line, width) if width is not None else line) + "\n"
                if _BARS and stream is sys.stderr:  # above the bar drawn there, not after it on its line
                    _BARS[-1].console.print(said, end="", markup=False, highlight=False, emoji=False, soft_wrap=True)
                    return
                stream.write(said)
                stream.flush()
        except (OSError, ValueError):
            pass

    def show(self, text: Text) -> None:
        """A value's words where they go (see `Text`)."""
        if text.err_first:
            for line in text.err:
                self.say(line, fit=text.err_words)
        self.write(text.out, fit=not text.whole or _is_terminal(self.out))
        if not text.err_first:
            for line in text.err:
                self.say(line, fit=text.err_words)
        if text.said:
            if self.prompt:
                self.write(text.said)
            else:
                for line in text.said.rstrip("\n").split("\n"):
                    self.say(line)


@functools.singledispatch
def text_of(value: object, screen: Screen) -> Text:
    """The words of `value` (each ui module registers the renderers of its command's values)."""
    raise TypeError(f"no text for {type(value).__name__}")


# The ui module that renders the values of each module (a value's type's `__module__`), so that a command
# loads the words of its own values and nothing else: `check` does not pay for the analysis's imports.
# `tests/test_architecture.py` holds it to what the modules register.
RENDERER_OF_MODULE = {
    "foursquare_cli.app.config": "about",
    "foursquare_cli.app.schema": "about",
    "foursquare_cli.app.history": "history_text",
    "foursquare_cli.app.runs": "runs_text",
    "foursquare_cli.app.summarize": "runs_text",
    "foursquare_cli.runs.compare": "runs_text",
    "foursquare_cli.runs.stats": "runs_text",
    "foursquare_cli.app.hint": "hint_text",
    "foursquare_cli.app.check": "records_text",
    "foursquare_cli.app.loading": "records_text",
    "foursquare_cli.rules.game": "records_text",
    "foursquare_cli.app.auto": "play_text",
    "foursquare_cli.app.deal": "deal_text",
    "foursquare_cli.app.events": "play_text",
    "foursquare_cli.app.solve": "solve_text",
    "foursquare_cli.app.analyze": "analyze_text",
}


def words(value: object, screen: Screen) -> Text:
    """The text of `value` by its registered renderer (its module imported on first need)."""
    if text_of.dispatch(type(value)) is text_of.dispatch(object):
        renderer = RENDERER_OF_MODULE.get(type(value).__module__)
        if renderer is None:
            raise TypeError(f"no words for {type(value).__module__}.{type(value).__name__}: see RENDERER_OF_MODULE")
        importlib.import_module(f"{__package__}.{renderer}")
    return text_of(value, screen)


def _csv_cell(cell: object) -> object:
    """A CSV cell as the JSON of the same value writes it: `true`, `false`, not Python's `True`, `False`."""
    return ("true" if cell else "false") if isinstance(cell, bool) else cell


def emit(value: object, output_format: OutputFormat, screen: Screen) -> ExitStatus:
    """Write `value` as `output_format` asks (see the module's docstring); the status it ends its command with
    (its `exit_status`, said by what was written: a file's problems, solve's no win)."""
    to_json, to_rows = getattr(value, "to_json", None), getattr(value, "to_rows", None)
    if output_format is OutputFormat.CSV and to_rows is not None:
        text = io.StringIO()
        rows = ([_csv_cell(cell) for cell in row] for row in to_rows())
        csv.writer(text, lineterminator="\n").writerows(rows)
        screen.write(text.getvalue(), fit=False)
    elif output_format is OutputFormat.JSON and to_json is not None:
        data: Any = to_json()
        screen.write("".join(json_line(item) for item in (data if isinstance(data, list) else [data])), fit=False)
    else:
        screen.show(words(value, screen))
    status = getattr(value, "exit_status", None)
    return status if isinstance(status, ExitStatus) else ExitStatus.SUCCESS


def broken_pipe(error: OSError) -> bool:
    """Whether a failed write means the reader of the output went away (exit 141, nothing said)."""
    return isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE


def style(reveal: bool, unicode: bool, color: str = "never") -> Style:
    """How boards are drawn: colour `always`, `never`, or `auto`: as rich's Console finds the terminal (a
    terminal that takes ANSI colour; NO_COLOR, FORCE_COLOR and TERM=dumb honoured; on Windows, a console
    with virtual-terminal sequences). Rich is imported only when `auto` has to ask."""
    return Style(
        reveal=reveal,
        unicode=unicode and can_show("\u2660\u2665\u2666\u2663"),
        color=color == "always" or (color == "auto" and _terminal_has_colour()),
    )


def _terminal_has_colour() -> bool:
    if sys.stdout is None or (not sys.stdout.isatty() and not os.environ.get("FORCE_COLOR")):
        return False  # what rich would find too, without importing it
    from rich.console import Console  # start-up: rich costs 16-24 ms; only what is drawn loads it

    console = Console(file=sys.stdout)  # NO_COLOR: no colour, and none of the bold and dim either
    return console.is_terminal and not console.no_color and console.color_system in ("standard", "256", "truecolor")


def terminal_width(stream: IO[str] | None = None) -> int | None:
    """The columns a line may take on `stream` (standard output): `COLUMNS` when it is set, else the terminal's
    less one (a line of the full width wraps on some); None when the stream is no terminal and `COLUMNS` is
    not set (the text goes to a file or a program: its lines are left whole)."""

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(20, int(columns) - 1)
    stream = stream if stream is not None else sys.stdout
    terminal = False
    with contextlib.suppress(AttributeError, ValueError, OSError):
        terminal = stream is not None and stream.isatty()
    return max(20, shutil.get_terminal_size((100, 24)).columns - 1) if terminal else None


def _is_terminal(stream: IO[str] | None) -> bool:
    with contextlib.suppress(AttributeError, ValueError, OSError):
        return stream is not None and stream.isatty()
    return False


def can_show(text: str) -> bool:
    """Whether standard output's encoding has these characters (`PYTHONIOENCODING=ascii` has no suit symbols)."""
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@contextmanager
def _off_the_bar(out: IO[str]) -> Iterator[None]:
    """Standard output written on the screen a progress bar is drawn on: the bar's line is cleared first and the bar
    held still meanwhile (its lock: rich redraws it ten times a second), so a report shown as the run goes
    (`analyze`'s) starts on a line of its own, not after `... left`; the bar comes back on the line below."""
    live = getattr(_BARS[-1], "live", None) if _BARS and _is_terminal(out) and _is_terminal(sys.stderr) else None
    if live is None:
        yield
        return
    with getattr(live, "_lock", contextlib.nullcontext()):
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
        yield


BAR_LABEL = 15  # a bar label's most characters: 60 columns keep room for the bar, the count and the times
_BARS: list[Any] = []  # the progress bars drawn now (rich's `Progress`): a line said meanwhile goes above them


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """`rich`'s progress bar (elapsed time, time left) on standard error when it is a terminal; else nothing.

    The bar is moved with `update(done, total)`.
    """
    if sys.stderr is None or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # start-up: rich costs 16-24 ms; only what is drawn loads it
    from rich.progress import (  # start-up: rich costs 16-24 ms; only what is drawn loads it
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text as RichText  # start-up: as above

    class WhenCounted(ProgressColumn):
        """A column that says nothing while the work's size is unknown (a search): not `0/?` and a blank
        `left`, which an outside try read as a bar that had stopped."""

        def __init__(self, shown: ProgressColumn) -> None:
            super().__init__()
            self.shown = shown

        def render(self, task: Task) -> Any:
            return RichText("") if task.total is None else self.shown.render(task)

    worded = [True]  # "elapsed," and "left" shown: not where the count and the times would lose their room

    class Word(ProgressColumn):
        def __init__(self, word: str) -> None:
            super().__init__()
            self.word = word

        def render(self, task: Task) -> Any:
            return RichText(self.word if task.total is not None and worded[0] else "")

    bar_column = BarColumn()
    columns = (
        TextColumn("{task.description}"),
        bar_column,
        WhenCounted(MofNCompleteColumn()),
        TimeElapsedColumn(),
        Word("elapsed,"),
        WhenCounted(TimeRemainingColumn()),
        Word("left"),
    )
    console = Console(file=cast(IO[str], _Unfailing(sys.stderr)))
    # rich would take what is written to the standard streams meanwhile and print it above the bar, on standard
    # error: the output of the command (analyze's lines as each file is done) must stay on standard output
    if len(label) > BAR_LABEL:  # a cmd: player's whole command left the count and the time no room in 60 columns
        label = label[: BAR_LABEL - 1] + "\u2026"
    with Progress(*columns, console=console, transient=True, redirect_stdout=False, redirect_stderr=False) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            if bar.tasks[0].total != total:  # the bar narrows, then the words go, before the count is cut (`2817/…`)
                room = console.width - len(label) - 2 * len(str(total)) - 1 - 2 * 7 - 7  # count, two times, gaps
                worded[0] = room - 13 >= 8
                bar_column.bar_width = max(3, min(40, room - (13 if worded[0] else 0)))
            bar.update(task, completed=done, total=total)

        _BARS.append(bar)
        try:
            yield update
        finally:
            _BARS.remove(bar)


class _Unfailing:
    """Standard error for the progress bar: a terminal that went away (EIO) or a full stream stops the bar,
    never the run, whose results go to standard output."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream: IO[str] | None = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (OSError, ValueError):
                self._stream = None
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._stream = None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError("the terminal went away")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"
