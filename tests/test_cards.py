"""Cards and deals: protocol.md sections 2 (card notation) and 3 (deals)."""

from __future__ import annotations

import pytest

from foursquare_cli.rules.cards import (
    CARDS,
    Card,
    InvalidCardError,
    InvalidSeedError,
    deal,
    parse_deck,
    parse_seed,
    splitmix64,
)

VECTORS = {
    0: "9S 3C 5S 6C 2H 8D 9D 9C 3S 9H 3H AH 3D 6D 5H 4C 7C 4D 10D 8C 4H 7S AD 2D 5C 8H 5D 10C 7D 2S "
    "8S 4S 6S 10S AC 2C 7H 10H AS 6H",
    1: "2H 3S 7H 7D 9D 9H 5D 3H 10D 6C 9C AC 6S 3D 5S 8H 4H AD 5C 7S 6H AH 10S 3C 8C 2C 2S AS 4C 8D "
    "8S 9S 4S 10C 4D 2D 7C 5H 10H 6D",
    42: "6D 7H 6C 2H 9H 10S 9D 4D 8C 10C AH 8S 7C 9C 10D AS 5H 4C AD 3H 7S 6H 7D 5D 6S 9S 10H AC 8D 8H "
    "3D 2D 3S 2C 3C 5C 4S 5S 2S 4H",
    18446744073709551615: "2D 2C 5C 5D 2S 9H 10D 4D 10S 9D AH AC 10C AS 3D 3S 2H 8C 5H 3C 7C 6D 3H 8D 6C "
    "4S 4H 8S 4C 10H 9S 5S 7D 8H 6S 7S AD 9C 6H 7H",
}


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_deal_matches_the_spec_vectors(seed):
    assert " ".join(str(card) for card in deal(seed)) == VECTORS[seed]


def test_splitmix64_first_value_for_seed_0():
    assert next(splitmix64(0)) == 0xE220A8397B1DCDAF


def test_ordered_deck_is_spades_hearts_diamonds_clubs_ace_to_ten():
    names = [str(card) for card in CARDS]
    assert names[:3] == ["AS", "2S", "3S"]
    assert names[9:11] == ["10S", "AH"]
    assert names[-1] == "10C"
    assert len(set(names)) == 40


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True, False, "3", None])
def test_deal_refuses_what_is_not_a_deal_number(bad):
    with pytest.raises(InvalidSeedError):
        deal(bad)


def test_parse_seed_messages():
    assert parse_seed(" 42 ") == 42
    assert parse_seed("0x2A") == parse_seed("0x002a") == 42  # as a record may write it
    assert parse_seed("0x" + "f" * 16) == 2**64 - 1
    for not_hex in ("0x", "0xg", "0x-1", "0x 1", "0x１", "x2A"):
        with pytest.raises(InvalidSeedError, match="not a deal number"):
            parse_seed(not_hex)
    with pytest.raises(InvalidSeedError, match="out of range"):
        parse_seed("0x1" + "0" * 16)
    with pytest.raises(InvalidSeedError, match="out of range"):
        parse_seed("0x" + "1" * 5000)  # checked by length first: int() is never asked
    with pytest.raises(InvalidSeedError, match="cannot be negative"):
        parse_seed("-3")
    with pytest.raises(InvalidSeedError, match="out of range"):
        parse_seed(str(2**64))
    with pytest.raises(InvalidSeedError, match="not a deal number"):
        parse_seed("4.0")


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("7h", "7H"),
        ("10D", "10D"),
        ("td", "10D"),
        ("T♣", "10C"),
        ("7♥", "7H"),
        ("a♠", "AS"),
        ("10♦", "10D"),
        (" 9c ", "9C"),
    ],
)
def test_card_input_forms(text, canonical):
    assert str(Card.from_str(text)) == canonical


def test_every_card_round_trips_and_parsing_returns_the_same_object():
    for card in CARDS:
        assert Card.from_str(str(card)) is card
        assert Card.from_str(card.symbol()) is card


def test_rank_and_suit():
    ten_of_diamonds = Card.from_str("10D")
    assert (ten_of_diamonds.rank, ten_of_diamonds.suit) == (10, "D")
    assert Card.from_str("AS").rank == 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "not a card"),
        ("7", "not a card"),
        ("7X", "no such suit 'X'"),
        ("JH", "face cards are not in the Foursquare deck"),
        ("KS", "face cards"),
        ("1S", "no such rank '1'"),
        ("11S", "no such rank '11'"),
    ],
)
def test_invalid_cards_are_refused_with_the_reason(text, message):
    with pytest.raises(InvalidCardError) as caught:
        Card.from_str(text)
    assert str(caught.value).startswith(repr(text))
    assert message in str(caught.value)


def test_parse_deck_needs_40_distinct_cards():
    full = VECTORS[0]
    assert len(parse_deck(full)) == 40
    assert parse_deck(full.split()) == deal(0)
    with pytest.raises(InvalidCardError, match="exactly 40 cards, not 39"):
        parse_deck(full.split()[:39])
    with pytest.raises(InvalidCardError, match="'9S' appears twice"):
        parse_deck(full.split()[:39] + ["9S"])
