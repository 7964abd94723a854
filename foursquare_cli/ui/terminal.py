"""Where a game of `play` meets a person or a program: the views the loops of `app.play` show their values
through, and read from. Keys in (a line typed at the prompt, with line editing and Tab completion; the moves of
a pipe), text out (each value as `play_text` and the other renderers say it), nothing decided here."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO

from ..app.events import Prompt
from ..rules.moves import Move
from .board import Style
from .output import OutputFormat, Screen, emit
from .play_text import prompt_text
from .prompt import readline_setup


class PromptScreen:
    """The prompt: a line read with `read_line` (`input`, with readline where there is one), every value shown
    on the screen, fitted to its width."""

    def __init__(self, screen: Screen, read_line: Callable[[str], str] = input) -> None:
        self.screen = screen
        self.read_line = read_line
        self._legal: Callable[[], list[Move]] = list
        self._editing = False

    def read(self, prompt: Prompt, legal: Callable[[], list[Move]]) -> str:
        self._legal = legal
        if self.read_line is input and not self._editing:
            readline_setup(lambda: self._legal())
            self._editing = True
        self.screen.out.flush()
        return self.read_line(prompt_text(prompt, self.screen.style))

    def show(self, value: object) -> None:
        emit(value, OutputFormat.TEXT, self.screen)


class PipeScreen:
    """A pipe: its moves read from `stream`, each state written to standard output (a board or a JSON line),
    everything else said on standard error."""

    def __init__(self, screen: Screen, output_format: OutputFormat, stream: IO[bytes] | None, name: str) -> None:
        self.screen = screen
        self.output_format = output_format
        self._stream = stream
        self.source_name = name

    def lines(self) -> IO[bytes]:
        assert self._stream is not None
        return self._stream

    def show(self, value: object) -> None:
        emit(value, self.output_format, self.screen)


class PlayScreens:
    """What `app.play` is given to play on: standard input and output as they are (a prompt when standard input
    is a terminal and the output is text; else a pipe), and a view for each."""

    def __init__(
        self, style_shown: object, output_format: OutputFormat, read_line: Callable[[str], str] = input
    ) -> None:

        assert isinstance(style_shown, Style)
        stdin = sys.stdin
        self.input_closed = stdin is None or stdin.closed
        self.machine = output_format is OutputFormat.JSON
        self.at_prompt = not self.input_closed and stdin.isatty() and not self.machine
        prompt_screen = Screen(style_shown, prompt=self.at_prompt)
        self.screen = prompt_screen
        self.table = PromptScreen(prompt_screen, read_line)
        pipe_screen = Screen(style_shown._replace(color=False))
        self.pipe = PipeScreen(pipe_screen, output_format, None if self.input_closed else stdin.buffer, "<stdin>")

    def show(self, value: object) -> None:
        emit(value, OutputFormat.TEXT, self.screen)
