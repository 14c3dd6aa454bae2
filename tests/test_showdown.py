"""The compiled showdown arithmetic against the reference ranker and brute force."""

from __future__ import annotations

import random

import eval7
import numpy as np
import pytest

from pokerbot.protocol.analysis.equity import equity_vs_random_all, equity_vs_ranges, score_survival
from pokerbot.protocol.analysis.eval7_cards import eval7_cards
from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS, conflict_mask, holding_index
from pokerbot.protocol.analysis.ranking import rank_generic
from pokerbot.protocol.analysis.showdown import rank_hand, rank_holdings_into, unused_cards
from pokerbot.protocol.analysis.strength import hand_strength
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game

GAME = load_game("holdem-nolimit-2p")


@pytest.mark.parametrize("board", ["2c7dTh9sKh", "AhKhQh3h2c", "5c4c3c2c9d", "KsKhKd2c2d", "7s7h2c2d9h", "Ac5d9hJsQc"])
def test_every_holding_is_ranked_as_the_generic_ranker_ranks_it(board):
    """The per-board ranking of all holdings (rank pairs valued once, flush draws on their
    own cards) gives every holding the dealer's value."""
    cards = list(cards_from_string(board))
    ranks = np.empty(NUM_HOLDINGS, dtype=np.int64)
    valid = rank_holdings_into(np.array(cards, dtype=np.int64), HOLDINGS, ranks)
    assert valid == NUM_HOLDINGS - conflict_mask(cards).sum()
    for h, (low, high) in enumerate(HOLDINGS):
        expected = -1 if {int(low), int(high)} & set(cards) else rank_generic([*cards, int(low), int(high)])
        assert ranks[h] == expected


def test_random_boards_rank_every_holding_as_the_generic_ranker():
    rng = random.Random(9)
    ranks = np.empty(NUM_HOLDINGS, dtype=np.int64)
    for _ in range(20):
        cards = rng.sample(range(52), 5)
        rank_holdings_into(np.array(cards, dtype=np.int64), HOLDINGS, ranks)
        for h in rng.sample(range(NUM_HOLDINGS), 200):
            low, high = (int(c) for c in HOLDINGS[h])
            if {low, high} & set(cards):
                assert ranks[h] == -1
            else:
                assert ranks[h] == rank_generic([*cards, low, high])


def test_rank_hand_on_hands_that_need_care():
    for text in (
        "AhKhQhJhTh9h8h",
        "5c4c3c2cAcKdKs",
        "AsAhAdKsKhKdQc",
        "9s9h9d9c8s8h2c",
        "Ah2d3c4s5h9h8h",
        "KsKhQdQcJsJh2c",
    ):
        cards = list(cards_from_string(text))
        assert rank_hand(np.array(cards, dtype=np.int64), 7) == rank_generic(cards)


def test_the_unused_deck_is_every_other_card_in_order():
    left = unused_cards(np.array([51, 5, 0, 5], dtype=np.int64))
    assert left.dtype == np.int64
    assert left.tolist() == [card for card in range(52) if card not in (0, 5, 51)]
    assert unused_cards(np.empty(0, dtype=np.int64)).tolist() == list(range(52))
    assert unused_cards(np.arange(52, dtype=np.int64)).size == 0


def test_holdings_index_both_ways():
    assert NUM_HOLDINGS == 1326
    for h in (0, 500, 1325):
        low, high = HOLDINGS[h]
        assert holding_index((int(high), int(low))) == holding_index((int(low), int(high))) == h
    assert conflict_mask(cards_from_string("As")).sum() == 51


def test_equity_against_a_random_hand_on_the_river_is_the_percentile_rank():
    rng = random.Random(3)
    board = rng.sample(range(52), 5)
    win, tie = equity_vs_random_all(board)
    rest = [c for c in range(52) if c not in board]
    for _ in range(20):
        hole = rng.sample(rest, 2)
        h = holding_index(hole)
        assert win[h] + tie[h] / 2 == pytest.approx(hand_strength(GAME, hole, board), abs=1e-12)


def test_equity_against_a_random_hand_on_the_turn_by_enumeration():
    rng = random.Random(4)
    board = rng.sample(range(52), 4)
    win, tie = equity_vs_random_all(board)
    rest = [c for c in range(52) if c not in board]
    for hole in (rest[:2], rest[5:7]):
        h = holding_index(hole)
        others = [c for c in rest if c not in hole]
        score = count = 0.0
        for river in others:
            full = [*board, river]
            mine = rank_generic([*hole, *full])
            left = [c for c in others if c != river]
            for i, a in enumerate(left):
                for b in left[i + 1 :]:
                    theirs = rank_generic([a, b, *full])
                    score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                    count += 1
        assert win[h] + tie[h] / 2 == pytest.approx(score / count, abs=1e-12)


def test_equity_against_a_weighted_range_matches_eval7_on_the_river():
    rng = random.Random(5)
    board = rng.sample(range(52), 5)
    hero = [c for c in range(52) if c not in board][:2]
    weights = np.random.default_rng(1).random(NUM_HOLDINGS)
    weights[conflict_mask([*board, *hero])] = 0.0
    cards = eval7_cards()
    shared = [cards[c] for c in board]
    mine = eval7.evaluate([cards[c] for c in hero] + shared)
    score = total = 0.0
    for h, (a, b) in enumerate(HOLDINGS):
        if weights[h] > 0:
            theirs = eval7.evaluate([cards[a], cards[b]] + shared)
            score += weights[h] * (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
            total += weights[h]
    assert equity_vs_ranges(hero, board, weights)[0] == pytest.approx(score / total, abs=1e-12)


def test_preflop_equity_is_a_seeded_monte_carlo():
    hero = cards_from_string("AhAd")
    weights = np.ones(NUM_HOLDINGS)
    first = equity_vs_ranges(hero, (), weights, samples=3000, seed=7)[0]
    assert first == equity_vs_ranges(hero, (), weights, samples=3000, seed=7)[0]
    assert first == pytest.approx(0.852, abs=0.02)  # aces against a random hand


def test_score_survival_is_the_multinomial_tail():
    win, tie = np.array([0.6, 0.0, 0.3]), np.array([0.1, 0.0, 0.3])
    table = score_survival(win, tie, 3)
    assert table.shape == (3, 8)
    assert table[:, 0] == pytest.approx(1.0) and table[:, 7] == pytest.approx(0.0)
    assert table[1, 1] == pytest.approx(0.0)  # never wins nor ties
    assert table[0, 6] == pytest.approx(0.6**3)  # 2W + T = 6: three wins
    assert table[2, 5] == pytest.approx(0.3**3 + 3 * 0.3**2 * 0.3)  # three wins, or two and a tie


def test_every_holding_against_a_range_agrees_with_one_holding_at_a_time():
    import numpy as np

    from pokerbot.protocol.analysis.equity import equity_all_vs_range, equity_vs_ranges
    from pokerbot.protocol.analysis.holdings import HOLDINGS
    from pokerbot.protocol.cards import cards_from_string

    weights = np.random.default_rng(1).random(len(HOLDINGS)) ** 3
    turn = cards_from_string("AhTd4c8s")
    every = equity_all_vs_range(turn, weights)
    for h in (0, 100, 700, 1300, 1325):
        hole = tuple(int(c) for c in HOLDINGS[h])
        if set(hole) & set(turn):
            assert every[h] == 0.0
        else:  # exact on the turn: the same numbers
            assert every[h] == pytest.approx(equity_vs_ranges(hole, turn, weights)[0], abs=1e-12)
    only_aces = np.zeros(len(HOLDINGS))
    aces = [h for h, (a, b) in enumerate(HOLDINGS) if a >> 2 == 12 and b >> 2 == 12]
    only_aces[aces] = 1.0
    preflop = equity_all_vs_range((), only_aces, samples=400, seed=2)
    kings = [h for h, (a, b) in enumerate(HOLDINGS) if a >> 2 == 11 and b >> 2 == 11]
    assert all(0.12 < preflop[h] < 0.25 for h in kings)  # about 0.18 against aces
    assert all(0.4 < preflop[h] < 0.6 for h in aces)  # aces against aces: split pots
