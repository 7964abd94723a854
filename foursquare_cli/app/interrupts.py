"""Ctrl-C that never cuts a move in half.

SIGINT is acted on at once only while the tool waits for input (or thinks about a
hint); while a move is played and saved it is held, and acts at the next wait.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


class Interrupts:
    """Hold SIGINT while a move is being played and saved; let it through while waiting for input."""

    def __init__(self) -> None:
        self.waiting = False
        self.pending = False

    def _handle(self, signum: int, frame: object) -> None:
        if self.waiting:
            raise KeyboardInterrupt
        self.pending = True

    @contextlib.contextmanager
    def installed(self) -> Iterator[Interrupts]:
        try:
            previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: leave signals alone
            yield self
            return
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)

    @contextlib.contextmanager
    def waiting_for_input(self) -> Iterator[None]:
        if self.pending:  # a Ctrl-C held while a move was played acts now
            self.pending = False
            raise KeyboardInterrupt
        self.waiting = True
        try:
            yield
        finally:
            self.waiting = False
