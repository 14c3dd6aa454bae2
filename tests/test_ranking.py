import random

import eval7
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerbot.protocol.analysis.eval7_cards import eval7_cards
from pokerbot.protocol.analysis.ranking import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
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


def eval7_value(cards) -> int:
    """The reference: eval7's value of a hand of 5 to 7 cards of the 52-card deck."""
    table = eval7_cards()
    return eval7.evaluate([table[card] for card in cards])


EVAL7_CATEGORIES = {
    "High Card": HIGH_CARD,
    "Pair": PAIR,
    "Two Pair": TWO_PAIR,
    "Trips": TRIPS,
    "Straight": STRAIGHT,
    "Flush": FLUSH,
    "Full House": FULL_HOUSE,
    "Quads": QUADS,
    "Straight Flush": STRAIGHT_FLUSH,
}


def small_deck_hands(rng: random.Random, count: int) -> list[list[int]]:
    """Hands of 5 to 7 cards dealt from small decks (a few ranks, often in a run with the
    ace below or above, in one to four suits), where every category and many ties occur."""
    hands = []
    for _ in range(count):
        size = rng.randint(5, 7)
        suits = rng.sample(range(4), rng.randint(1, 4))
        width = rng.randint(-(-size // len(suits)), 7)
        if rng.random() < 0.5:
            start = rng.randint(-1, 13 - width)  # -1: the ace plays low
            ranks = [rank % 13 for rank in range(start, start + width)]
        else:
            ranks = rng.sample(range(13), width)
        hands.append(rng.sample([rank * 4 + suit for rank in ranks for suit in suits], size))
    return hands


def test_the_compiled_ranker_orders_hands_exactly_as_eval7_in_every_category_with_ties():
    """Sorted by eval7's value, consecutive hands compare the same way under rank_standard
    (equal where eval7's are equal, larger where larger): the two orders are one order."""
    rng = random.Random(11)
    hands = small_deck_hands(rng, 30_000) + [rng.sample(range(52), rng.randint(5, 7)) for _ in range(10_000)]
    reference = [eval7_value(hand) for hand in hands]
    ours = [rank_standard(hand) for hand in hands]
    order = sorted(range(len(hands)), key=reference.__getitem__)
    for before, after in zip(order, order[1:]):
        assert sign(ours[after] - ours[before]) == sign(reference[after] - reference[before]), (
            hands[before],
            hands[after],
        )
    categories = {category_of(value) for value in ours}
    assert categories == set(range(len(CATEGORY_NAMES)))
    for hand, value, theirs in zip(hands[:5000], ours, reference):
        assert category_of(value) == EVAL7_CATEGORIES[eval7.handtype(theirs)], hand
    ties = sum(reference[a] == reference[b] for a, b in zip(order, order[1:]))
    assert ties > 20_000  # most hands share their value with another


def test_the_compiled_ranker_gives_the_generic_rankers_integers():
    rng = random.Random(12)
    for hand in small_deck_hands(rng, 3000):
        assert rank_standard(hand) == rank_generic(hand)


@settings(max_examples=1000, deadline=None)
@given(
    st.integers(min_value=5, max_value=7).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True),
            st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True),
        )
    )
)
def test_both_rankers_order_hands_exactly_like_eval7(pair):
    a, b = pair
    expected = sign(eval7_value(a) - eval7_value(b))
    assert sign(rank_generic(a) - rank_generic(b)) == expected
    assert sign(rank_standard(a) - rank_standard(b)) == expected


def test_both_rankers_agree_with_eval7_on_near_ties():
    # Random hands rarely tie; hands sharing a five-card board often do.
    rng = random.Random(3)
    for _ in range(20000):
        cards = rng.sample(range(52), 9)
        board = cards[4:]
        a, b = cards[:2] + board, cards[2:4] + board
        expected = sign(eval7_value(a) - eval7_value(b))
        assert sign(rank_generic(a) - rank_generic(b)) == expected
        assert sign(rank_standard(a) - rank_standard(b)) == expected


def test_equal_hands_in_other_suits_tie():
    for first, second in (
        ("AhKd9c7s4h2c3d", "AsKc9d7h4s2d3h"),
        ("5c4c3c2cAc", "5d4d3d2dAd"),  # steel wheels
        ("AsKsQsJsTs2c2d", "AhKhQhJhTh3c3d"),  # royal flushes
        ("KsKhKd7c7s2c3d", "KcKhKd7h7d4c2s"),  # the kickers beyond five cards do not count
    ):
        a, b = cards_from_string(first), cards_from_string(second)
        assert eval7_value(a) == eval7_value(b)
        assert rank_standard(a) == rank_standard(b)


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
