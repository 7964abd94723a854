"""How a game stands and what a move did: values the engine hands out (`State.outcome`, `State.apply`), with
the spelling of the JSON states (a status, a reason for a loss)."""

from __future__ import annotations

import enum
from typing import NamedTuple

from .cards import Card
from .moves import Cell, cells_of


class Status(enum.StrEnum):
    """Where a game stands; the text is the spelling of protocol.md section 5."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class LossReason(enum.StrEnum):
    FACE_DOWN = "more than 4 face-down cards"
    STOCK = "the stock ran out"


PLAYING, WON, LOST = Status.PLAYING, Status.WON, Status.LOST
LOST_FACE_DOWN, LOST_STOCK = LossReason.FACE_DOWN, LossReason.STOCK


class Outcome(NamedTuple):
    """How a game stands: `status`; `score` only when won; `reason` only when lost."""

    status: Status
    score: int | None
    reason: LossReason | None


class Effect(NamedTuple):
    """What one move did: the card it placed (None for a shift) and the cells it turned over.

    `turned` is a mask of the cells whose top card changed face, the placed cell excepted.
    """

    card: Card | None
    turned: int

    @property
    def turned_cells(self) -> tuple[Cell, ...]:
        return cells_of(self.turned)
