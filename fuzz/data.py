"""Fuzzed bytes read as values: a tiny stand-in for atheris's FuzzedDataProvider, so that every harness runs the
same with or without atheris (the tests feed it inputs made by `mutate`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Reader:
    """Values taken from the front of `data`, one after another; once it runs out, every value is its lowest."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def number(self, low: int, high: int) -> int:
        """A whole number from `low` to `high` (both included), from as many bytes as the span needs."""
        span = high - low
        if span <= 0:
            return low
        value = 0
        for _ in range((span.bit_length() + 7) // 8):
            value = value << 8 | self.byte()
        return low + value % (span + 1)

    def flag(self) -> bool:
        return bool(self.byte() & 1)

    def pick(self, choices: Sequence[T]) -> T:
        return choices[self.number(0, len(choices) - 1)]

    def chunk(self, most: int) -> bytes:
        """Up to `most` bytes (its length the first byte read)."""
        length = min(self.number(0, most), len(self.data) - self.at)
        taken = self.data[self.at : self.at + length]
        self.at += length
        return taken

    def rest(self) -> bytes:
        taken = self.data[self.at :]
        self.at = len(self.data)
        return taken
