"""Deals in words: `deal`'s stock and grade."""

from __future__ import annotations

import math

from ..app.deal import Dealt
from ..players.grade import EASY_EASE, GAMES, HARD_EASE, QUICK_SCALE, Grade
from .board import card_text
from .output import Screen, Text, text_of


def grade_words(grade: Grade) -> tuple[str, str]:
    """A deal's grade, said with the one figure that grades it (the ease: higher is easier) and its cuts,
    then the sum the ease is of, each part exact: no measure alone grades (a deal where greedy games win more
    may still be harder, by the other two), so each is said as the part of the sum it is. The ease is cut
    down to hundredths, never rounded up, so that it stands on the side of a cut its grade does."""
    ease = math.floor(grade.ease * 100 + 1e-9) / 100
    greedy, filling = round(grade.greedy_won * GAMES), round(grade.filling_won * GAMES)
    return (
        f"grade: {grade.level}, ease {ease:.2f} (the figure that grades, higher is easier: "
        f"hard under {HARD_EASE:.2f}, easy from {EASY_EASE:.2f})",
        f"ease = greedy games won {greedy}/{GAMES} + filling the grid first won {filling}/{GAMES} "
        f"+ a quick expert's score {grade.quick_score}/{QUICK_SCALE}",
    )


@text_of.register
def _dealt(value: Dealt, screen: Screen) -> Text:
    cards = " ".join(card_text(card, screen.style) for card in value.cards)
    return Text(cards + "\n", grade_words(value.grade), whole=True, err_words=True)
