import pytest

from pokerbot.protocol.cards import (
    card_from_string,
    card_to_string,
    cards_from_string,
    cards_to_string,
    check_distinct,
    deck_cards,
    make_card,
    rank_of,
    suit_of,
)
from pokerbot.protocol.errors import CardError


def test_card_strings_round_trip_for_all_52_cards():
    for rank in range(13):
        for suit in range(4):
            card = make_card(rank, suit)
            assert rank_of(card) == rank and suit_of(card) == suit
            assert card_from_string(card_to_string(card)) == card
    assert card_to_string(make_card(12, 3)) == "As"
    assert card_to_string(make_card(0, 0)) == "2c"


@pytest.mark.parametrize(
    ("ranks", "suits", "expected"),
    [
        (3, 1, "QsKsAs"),  # Kuhn
        (4, 1, "JsQsKsAs"),  # 3-player Kuhn
        (3, 2, "QhKhAhQsKsAs"),  # Leduc: suit by suit, lowest first
    ],
)
def test_small_decks_use_the_top_ranks_and_suits_in_dealing_order(ranks, suits, expected):
    assert cards_to_string(deck_cards(ranks, suits)) == expected


def test_full_deck_starts_with_clubs_and_has_52_distinct_cards():
    deck = deck_cards(13, 4)
    assert len(set(deck)) == 52
    assert cards_to_string(deck[:3]) == "2c3c4c"
    assert cards_to_string(deck[-1:]) == "As"


@pytest.mark.parametrize("text", ["A", "as", "1s", "Ax", "AsK", "AS", "10s", "Aß", "Asxx"])
def test_bad_card_strings_raise_card_error(text):
    with pytest.raises(CardError):
        cards_from_string(text)


def test_empty_string_is_no_cards_and_duplicates_are_named():
    assert cards_from_string("") == ()
    with pytest.raises(CardError, match="Kd appears twice"):
        check_distinct(cards_from_string("AsKdKd"))
