import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerbot.protocol.analysis.ranking import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TWO_PAIR,
    category_of,
    hand_name,
    rank_generic,
    rank_standard,
)
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(
    st.integers(min_value=5, max_value=7).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True),
            st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True),
        )
    )
)
def test_generic_ranker_orders_hands_exactly_like_eval7(pair):
    a, b = pair
    assert sign(rank_generic(a) - rank_generic(b)) == sign(rank_standard(a) - rank_standard(b))


def test_generic_ranker_agrees_with_eval7_on_near_ties():
    # Random hands rarely tie; hands sharing a five-card board often do.
    rng = random.Random(3)
    for _ in range(20000):
        cards = rng.sample(range(52), 9)
        board = cards[4:]
        a, b = cards[:2] + board, cards[2:4] + board
        assert sign(rank_generic(a) - rank_generic(b)) == sign(rank_standard(a) - rank_standard(b))


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("As2c3d4h5s9c9d", STRAIGHT),  # the wheel beats the pair
        ("AsKsQsJsTs2c2d", STRAIGHT_FLUSH),
        ("2s3s4s5s6s7h7d", STRAIGHT_FLUSH),
        ("AhAdAcKsKd2c3c", FULL_HOUSE),
        ("AhAdAcKsKdKc3c", FULL_HOUSE),  # two trips make a full house
        ("2h5h9hJhKh2c2d", FLUSH),
        ("AhAdKsKdQcQh2c", TWO_PAIR),
        ("Ks", HIGH_CARD),
        ("KsKh", PAIR),
    ],
)
def test_categories(cards, category):
    assert CATEGORY_NAMES[category_of(rank_generic(cards_from_string(cards)))] == CATEGORY_NAMES[category]


def test_three_pairs_use_the_best_kicker():
    best = rank_generic(cards_from_string("AhAdKsKdQcQh2c"))
    worse = rank_generic(cards_from_string("AhAdKsKd3c3h2c"))
    assert best > worse


def test_leduc_pairs_beat_high_cards_and_kuhn_ranks_by_rank():
    leduc = load_game("leduc").ranker
    assert leduc(cards_from_string("QhQs")) > leduc(cards_from_string("AhKs"))
    assert leduc(cards_from_string("AhKs")) > leduc(cards_from_string("AhQs"))
    assert leduc(cards_from_string("KhQs")) == leduc(cards_from_string("KsQh"))
    kuhn = load_game("kuhn").ranker
    assert kuhn(cards_from_string("As")) > kuhn(cards_from_string("Ks")) > kuhn(cards_from_string("Qs"))


def test_games_pick_the_fast_path_only_for_the_standard_deck():
    assert load_game("holdem-nolimit-2p").ranker is rank_standard
    assert load_game("leduc").ranker is rank_generic


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("AhKd9c7s4h2c3d", "ace high"),
        ("Ks", "king high"),  # Kuhn: one card
        ("QhQs", "pair of queens"),  # Leduc: hole and board pair
        ("6h6d", "pair of sixes"),
        ("AhAd7c7s4h2c3d", "two pair, aces and sevens"),
        ("QhQsQd9c2s", "three of a kind, queens"),
        ("Ah2c3d4s5h9c", "straight, five high"),
        ("6h7c8d9sTh2c", "straight, ten high"),
        ("Ah9h7h4h2hKsKd", "flush, ace high"),
        ("KhKsKd7c7s2c", "full house, kings full of sevens"),
        ("5h5s5d5cAs", "four of a kind, fives"),
        ("5h6h7h8h9hAs", "straight flush, nine high"),
        ("ThJhQhKhAh2c", "royal flush"),
    ],
)
def test_hands_are_named_as_players_name_them(cards, name):
    assert hand_name(cards_from_string(cards)) == name
