"""Cards, the deck and deals (protocol.md sections 2 and 3).

A `Card` is an `int` from 0 to 39, its index in the ordered deck (AS..10S, AH..10H,
AD..10D, AC..10C), so the engine can use it to index tables with no conversion.
There are exactly 40 `Card` objects (`CARDS`); parsing returns one of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import InvalidInput, quoted

SUITS = "SHDC"
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"  # ♠ ♥ ♦ ♣, in the order of SUITS
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
SEED_MAX = 2**64 - 1

_MASK64 = 2**64 - 1


class InvalidCardError(InvalidInput):
    """Text that is not a card; the message quotes the text and says what a card is."""


class InvalidSeedError(InvalidInput):
    """A deal number that is not an integer from 0 to 2^64-1."""


class Value(int):
    """An `int` that is one kind of value (`Card`, `Cell`, `Move`): it indexes the engine's tables
    as the number it is, but is never equal to a value of another kind, so `Card.from_str("AS")`,
    `Cell.from_str("A1")` and `Move.from_str("A1")` (all 0 inside) are three elements of a set.
    A plain `int` still compares as a number."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Value) and other.__class__ is not self.__class__:
            return False
        return int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Value) and other.__class__ is not self.__class__:
            return True
        return int.__ne__(self, other)

    __hash__ = int.__hash__


class Card(Value):
    """One of the 40 cards; `str` gives the canonical name (`AS`, `7H`, `10D`)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        """Always true: the ace of spades (index 0) is a card like any other, never "nothing"."""
        return True

    @property
    def rank(self) -> int:
        """1 (Ace) to 10."""
        return self % 10 + 1

    @property
    def suit(self) -> str:
        return SUITS[self // 10]

    def __str__(self) -> str:
        return RANK_NAMES[self % 10] + SUITS[self // 10]

    def symbol(self) -> str:
        """The name with a suit symbol, for people: `7♥`."""
        return RANK_NAMES[self % 10] + SUIT_SYMBOLS[self // 10]

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse a card: rank (`A`, `2`..`10`, `T`) then suit (`SHDC` or a symbol), any case."""
        name = text.strip().upper()
        if len(name) < 2:
            raise InvalidCardError(
                f"{quoted(text, 30)}: not a card; a card is a rank (A, 2-10) and a suit (S, H, D, C), like '7H'"
            )
        rank_text, suit_text = name[:-1], name[-1]
        suit = SUITS.find(suit_text)
        if suit < 0:
            suit = SUIT_SYMBOLS.find(suit_text)
        if suit < 0:
            raise InvalidCardError(f"{quoted(text, 30)}: no such suit {suit_text!r}; suits are S, H, D, C")
        if rank_text == "T":
            rank_text = "10"
        if rank_text in ("J", "Q", "K"):
            raise InvalidCardError(f"{quoted(text, 30)}: face cards are not in the Foursquare deck; ranks are A, 2-10")
        if rank_text not in RANK_NAMES:
            raise InvalidCardError(
                f"{quoted(text, 30)}: no such rank {quoted(rank_text, 30)}; ranks are A, 2-10 (or T)"
            )
        return CARDS[suit * 10 + RANK_NAMES.index(rank_text)]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(40))
ORDERED_DECK = CARDS


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 generator of protocol.md section 3, as an endless iterator."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def check_seed(seed: object) -> int:
    """Return `seed` if it is a deal number, else raise InvalidSeedError saying why."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSeedError(f"{seed!r}: a deal number must be a whole number from 0 to {SEED_MAX}")
    if not 0 <= seed <= SEED_MAX:
        raise InvalidSeedError(f"{seed!r}: out of range; deal numbers are 0 to {SEED_MAX}")
    return seed


HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def parse_seed(text: str) -> int:
    """Parse a deal number typed by a person: decimal digits (at most 20 that count), or `0x` and hex digits as a
    record may write it (at most 16 that count), so a seed copied from a record is taken as it stands."""
    stripped = text.strip()
    if stripped[:2] in ("0x", "0X") and stripped[2:] and HEX_DIGITS.issuperset(stripped[2:]):
        if len(stripped[2:].lstrip("0")) > 16:
            raise InvalidSeedError(f"{quoted(text, 30)}: out of range; deal numbers are 0 to {SEED_MAX}")
        return check_seed(int(stripped[2:], 16))
    if not stripped.isdigit() or not stripped.isascii():
        if stripped.startswith("-") and stripped[1:].isdigit():
            raise InvalidSeedError(f"{quoted(text, 30)}: deal numbers cannot be negative; they are 0 to {SEED_MAX}")
        raise InvalidSeedError(f"{quoted(text, 30)}: not a deal number; deal numbers are whole numbers 0 to {SEED_MAX}")
    if len(stripped.lstrip("0")) > len(str(SEED_MAX)):
        raise InvalidSeedError(f"{quoted(text, 30)}: out of range; deal numbers are 0 to {SEED_MAX}")
    return check_seed(int(stripped))


def deal(seed: int) -> tuple[Card, ...]:
    """The stock for deal number `seed`, top card (drawn first) at index 0."""
    check_seed(seed)
    deck = list(ORDERED_DECK)
    numbers = splitmix64(seed)
    for i in range(39, 0, -1):
        j = next(numbers) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def parse_deck(text: str | list[str]) -> tuple[Card, ...]:
    """Parse 40 distinct cards, as one string (separated by spaces or commas) or a list of names."""
    words = text.replace(",", " ").split() if isinstance(text, str) else text
    cards = tuple(Card.from_str(word) for word in words)
    check_deck(cards)
    return cards


def check_deck(cards: tuple[Card, ...]) -> None:
    """Raise InvalidCardError unless `cards` is the 40 cards, each once."""
    if len(cards) != 40:
        raise InvalidCardError(f"a deck has exactly 40 cards, not {len(cards)}")
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise InvalidCardError(f"{str(card)!r} appears twice in the deck")
        seen.add(card)
