"""Deals in words: `deal`'s stock and grade."""

from __future__ import annotations

from ..app.deal import Dealt
from ..players.grade import GAMES, Grade
from .board import card_text
from .output import Screen, Text, text_of


def grade_words(grade: Grade) -> str:
    """A deal's grade and the measures it was made of."""
    return (
        f"{grade.level} (of {GAMES} greedy games {grade.greedy_won:.0%} won, filling the grid first "
        f"{grade.filling_won:.0%}; a quick expert scored {grade.quick_score})"
    )


@text_of.register
def _dealt(value: Dealt, screen: Screen) -> Text:
    cards = " ".join(card_text(card, screen.style) for card in value.cards)
    return Text(cards + "\n", (f"grade: {grade_words(value.grade)}",), whole=True)
