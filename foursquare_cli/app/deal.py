"""`deal`: the stock of a deal, first card first, and how hard the deal is (its grade)."""

from __future__ import annotations

from typing import NamedTuple

from ..players.grade import Grade, grade
from ..rules.cards import Card, deal


class Dealt(NamedTuple):
    seed: int
    cards: tuple[Card, ...]
    grade: Grade


def dealt(seed: int) -> Dealt:
    return Dealt(seed, deal(seed), grade(seed))
