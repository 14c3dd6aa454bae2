"""Conformance of the card arithmetic (pokerbot.protocol.analysis) with brute force on chosen hands.

The reference is :func:`rank_generic` (the dealer's ranking, checked against eval7 in
tests/test_ranking.py) and plain enumeration of the cards to come; every exact answer of the
package must equal it, every sampled one must fall within its error of the exact value.
"""

from __future__ import annotations

import itertools
import math
import random

import numba as nb
import numpy as np
import pytest

from pokerbot.protocol import analysis
from pokerbot.protocol.analysis import matchups
from pokerbot.protocol.analysis.ehs import board_ehs, hand_ehs
from pokerbot.protocol.analysis.equity import (
    Eval7Range,
    equity_vs_random,
    equity_vs_random_all,
    equity_vs_ranges,
    multiway_share,
    sampled_equity_vs_range,
    sampled_preflop_equity,
)
from pokerbot.protocol.analysis.headsup import equity_all_vs_holding, heads_up_equity
from pokerbot.protocol.analysis.holdings import (
    HOLDING_INDEX,
    HOLDING_MASKS,
    HOLDINGS,
    NUM_HOLDINGS,
    conflict_mask,
    holding_index,
)
from pokerbot.protocol.analysis.matchups import HoldingSpace, holding_space
from pokerbot.protocol.analysis.preflop import (
    CLASSES,
    class_combos,
    class_of_holding,
    combos_of,
    hand_class,
    preflop_class_equity,
    preflop_equity,
)
from pokerbot.protocol.analysis.ranking import rank_generic, rank_standard
from pokerbot.protocol.analysis.showdown import rank_hand, rank_holdings
from pokerbot.protocol.analysis.splitmix import new_rng
from pokerbot.protocol.analysis.strength import hand_strength, sampled_equity_vs_random
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game, parse_game

HOLDEM = load_game("holdem-nolimit-2p")
TURN = cards_from_string("Ah9h5c2d")
RIVER = cards_from_string("Ah9h5c2dKh")


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _brute_vs_range(hero: tuple[int, ...], board: tuple[int, ...], weights: np.ndarray) -> float:
    """Equity of ``hero`` against the weighted holdings on every completion of ``board``."""
    rest = [c for c in range(52) if c not in hero and c not in board]
    score = mass = 0.0
    for extra in itertools.combinations(rest, 5 - len(board)):
        full = (*board, *extra)
        mine = rank_generic((*hero, *full))
        for h, (a, b) in enumerate(HOLDINGS):
            a, b = int(a), int(b)
            if weights[h] > 0.0 and not {a, b} & {*hero, *full}:
                score += weights[h] * _score(mine, rank_generic((a, b, *full)))
                mass += weights[h]
    return score / mass


# ---------------------------------------------------------------- ranking
ORDERED_HANDS = [  # each strictly better than the one before
    "7c5d4h3s2c9dJh",  # jack high
    "Kc5d4h3s2c9dJh",  # king high
    "2c2d4h7sTcJdKh",  # a pair of deuces
    "AcAd2h7sTcJd5h",  # aces, jack kicker
    "AcAdKh7sTcJd5h",  # aces, king kicker
    "3c3d2h2sKcJd5h",  # threes and twos
    "AcAdKhKs2c3d5h",  # aces and kings
    "7c7d7h2sKcJd5h",  # trip sevens
    "Ac2d3h4s5cJdKh",  # the wheel
    "2c3d4h5s6cJdKh",  # six high straight
    "AcKdQhJsTc2d3h",  # broadway
    "2h5h9hJhKh2c2d",  # king-high flush (beats the trips it holds)
    "AhKh9h5h2h2c2d",  # ace-high flush
    "2c2d2hKsKcJd5h",  # deuces full of kings
    "AcAdAhKsKcJd5h",  # aces full of kings
    "3c3d3h3s2cJd5h",  # quad threes
    "Ah2h3h4h5hKdKs",  # steel wheel
    "AsKsQsJsTs2c2d",  # royal flush
]


def test_rankers_agree_on_a_known_order_of_hands():
    hands = [list(cards_from_string(text)) for text in ORDERED_HANDS]
    for ranker in (rank_generic, rank_standard, lambda cards: rank_hand(np.array(cards, dtype=np.int64), 7)):
        values = [ranker(cards) for cards in hands]
        assert all(a < b for a, b in zip(values, values[1:]))
    assert [rank_hand(np.array(c, dtype=np.int64), 7) for c in hands] == [rank_generic(c) for c in hands]


def test_a_split_board_ties():
    board = cards_from_string("AsKsQsJsTs")
    values = {rank_generic([*hole, *board]) for hole in (cards_from_string("2c3d"), cards_from_string("9h8h"))}
    assert len(values) == 1


@pytest.mark.parametrize("board", ["2c7dTh9sKh", "AhKhQh3h2c", "5c4c3c2c9d", "KsKhKd2c2d", "7s7h2c2d9h"])
def test_rank_holdings_gives_every_holding_the_generic_value(board):
    cards = cards_from_string(board)
    ranks = rank_holdings(np.array(cards, dtype=np.int64))
    assert ranks.dtype == np.int32 and ranks.shape == (NUM_HOLDINGS,)
    for h, (a, b) in enumerate(HOLDINGS):
        a, b = int(a), int(b)
        assert ranks[h] == (-1 if {a, b} & set(cards) else rank_generic([*cards, a, b]))


def test_rank_holdings_is_callable_from_compiled_code_and_refuses_bad_boards():
    @nb.njit
    def best(board):
        return rank_holdings(board).max()

    board = np.array(cards_from_string("AhKhQh3h2c"), dtype=np.int64)
    assert best(board) == rank_generic(cards_from_string("AhKhQhJhTh"))
    for bad in ([1, 2, 3, 4], [1, 2, 3, 4, 4], [1, 2, 3, 4, 52]):
        with pytest.raises(ValueError):
            rank_holdings(np.array(bad, dtype=np.int64))


# ---------------------------------------------------------------- holdings
def test_holdings_order_and_its_inverse():
    assert HOLDINGS.shape == (1326, 2) and NUM_HOLDINGS == 1326
    assert [tuple(row) for row in HOLDINGS] == list(itertools.combinations(range(52), 2))
    for h, (a, b) in enumerate(HOLDINGS):
        assert HOLDING_INDEX[a, b] == HOLDING_INDEX[b, a] == h
        assert HOLDING_MASKS[h] == (1 << int(a)) | (1 << int(b))
    assert all(HOLDING_INDEX[c, c] == -1 for c in range(52))
    assert holding_index(cards_from_string("AsAh")) == holding_index(cards_from_string("AhAs")) == 1325
    assert conflict_mask(cards_from_string("As")).sum() == 51
    assert conflict_mask(cards_from_string("AsKd")).sum() == 101
    with pytest.raises(ValueError):
        holding_index((5, 5))
    with pytest.raises(ValueError):
        HOLDINGS[0, 0] = 1  # read-only


# ---------------------------------------------------------------- pre-flop classes
def test_the_169_classes_and_their_combinations():
    assert len(CLASSES) == 169 and len(set(CLASSES)) == 169
    assert CLASSES[:4] == ("AA", "AKs", "AKo", "AQs") and CLASSES[-1] == "22"
    counts = [combos_of(label) for label in CLASSES]
    assert sorted(set(counts)) == [4, 6, 12]
    assert (counts.count(6), counts.count(4), counts.count(12)) == (13, 78, 78)
    assert [combos_of(c) for c in ("AA", "AKs", "AKo")] == [6, 4, 12] and sum(counts) == 1326
    assert hand_class(cards_from_string("7h2h")) == "72s" and hand_class(cards_from_string("2c7d")) == "72o"
    assert hand_class(cards_from_string("KsAs")) == "AKs" and hand_class(cards_from_string("TdTh")) == "TT"
    assert all(hand_class(combo) == label for label in CLASSES for combo in class_combos(label))
    numbers = class_of_holding()
    assert all(CLASSES[numbers[h]] == hand_class((int(a), int(b))) for h, (a, b) in enumerate(HOLDINGS))
    assert np.bincount(numbers, minlength=169).tolist() == counts


def test_preflop_table_is_one_value_per_class():
    table, by_class = preflop_equity(), preflop_class_equity()
    assert table.shape == (1326,) and set(by_class) == set(CLASSES)
    numbers = class_of_holding()
    assert all(table[h] == by_class[CLASSES[numbers[h]]] for h in range(NUM_HOLDINGS))
    assert max(by_class, key=by_class.__getitem__) == "AA" and min(by_class, key=by_class.__getitem__) == "32o"
    assert sum(combos_of(c) * by_class[c] for c in CLASSES) / 1326 == pytest.approx(0.5, abs=0.001)


# ---------------------------------------------------------------- equity against a hand
@nb.njit(cache=True)
def _enumerate_preflop(first, second):
    """Position 0's equity over all 1,712,304 boards from the 48 cards left."""
    used = np.zeros(52, dtype=np.bool_)
    for c in first:
        used[c] = True
    for c in second:
        used[c] = True
    rest = np.array([c for c in range(52) if not used[c]], dtype=np.int64)
    a = np.empty(7, dtype=np.int64)
    b = np.empty(7, dtype=np.int64)
    a[:2], b[:2] = first, second
    score, count, n = 0.0, 0, rest.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                for m in range(k + 1, n):
                    for q in range(m + 1, n):
                        a[2], a[3], a[4], a[5], a[6] = rest[i], rest[j], rest[k], rest[m], rest[q]
                        b[2:] = a[2:]
                        x, y = rank_hand(a, 7), rank_hand(b, 7)
                        score += 1.0 if x > y else 0.5 if x == y else 0.0
                        count += 1
    return score / count, count


def test_aces_against_kings_preflop_by_enumeration():
    aces = cards_from_string("AhAd")
    by_suits = {}  # the kings share no suit, one suit or both suits with the aces: 6, 24 and 6 of the 36 pairings
    for text, pairings in (("KsKc", 6), ("KhKc", 24), ("KhKd", 6)):
        kings = cards_from_string(text)
        exact, boards = _enumerate_preflop(np.array(aces), np.array(kings))
        assert boards == math.comb(48, 5)
        by_suits[text] = (exact, pairings)
        sampled = heads_up_equity(HOLDEM, (aces, kings), ())
        assert sampled == pytest.approx(exact, abs=4 * 0.5 / math.sqrt(20_000))
        assert heads_up_equity(HOLDEM, (kings, aces), ()) == pytest.approx(1.0 - sampled, abs=1e-12)
    assert by_suits["KsKc"][0] < by_suits["KhKc"][0] < by_suits["KhKd"][0]  # shared suits take flushes away
    class_equity = sum(exact * pairings for exact, pairings in by_suits.values()) / 36
    assert 0.81 < class_equity < 0.83  # aces are about a four-to-one favourite over kings
    kings_range = np.zeros(NUM_HOLDINGS)
    for combo in class_combos("KK"):
        kings_range[holding_index(combo)] = 1.0  # the six pairs of kings: 1, 4 and 1 of each suit pattern
    against_range = equity_vs_ranges(aces, (), kings_range, samples=4000, seed=3)[0]
    assert against_range == pytest.approx(class_equity, abs=4 * 0.5 / math.sqrt(4000))


def test_heads_up_equity_on_the_flop_by_enumeration():
    flop = cards_from_string("Th9h2c")
    mine, theirs = cards_from_string("AhKh"), cards_from_string("TdTs")
    rest = [c for c in range(52) if c not in (*flop, *mine, *theirs)]
    scores = [
        _score(rank_generic((*mine, *flop, *extra)), rank_generic((*theirs, *flop, *extra)))
        for extra in itertools.combinations(rest, 2)
    ]
    exact = sum(scores) / len(scores)
    assert heads_up_equity(HOLDEM, (mine, theirs), flop) == pytest.approx(exact, abs=1e-12)
    every = equity_all_vs_holding(flop, theirs)
    assert every[holding_index(mine)] == pytest.approx(exact, abs=1e-12)
    assert every[holding_index(cards_from_string("Td2d"))] == 0.0  # clashes with the opponent


def test_heads_up_equity_in_leduc_by_enumeration():
    leduc = load_game("leduc")
    mine, theirs = cards_from_string("Kh"), cards_from_string("Qs")
    rest = [c for c in leduc.deck if c not in (*mine, *theirs)]
    exact = sum(_score(leduc.ranker((*mine, c)), leduc.ranker((*theirs, c))) for c in rest) / len(rest)
    assert heads_up_equity(leduc, (mine, theirs), ()) == pytest.approx(exact, abs=1e-12)


# ---------------------------------------------------------------- equity against a range or a random hand
@pytest.mark.parametrize("board", [TURN, RIVER])
def test_equity_against_a_weighted_range_with_card_removal(board):
    hero = cards_from_string("KdQd")
    weights = np.random.default_rng(7).random((2, NUM_HOLDINGS))
    weights[:, ::3] = 0.0
    weights[:, conflict_mask(hero)] = 10.0  # holdings on our cards: ignored whatever their weight
    expected = [_brute_vs_range(tuple(hero), tuple(board), row) for row in weights]
    assert equity_vs_ranges(hero, board, weights) == pytest.approx(expected, abs=1e-12)


def test_equity_against_a_random_hand_by_enumeration():
    hero = cards_from_string("KdQd")
    exact = _brute_vs_range(tuple(hero), tuple(TURN), np.ones(NUM_HOLDINGS))
    assert equity_vs_random(hero, TURN) == pytest.approx(exact, abs=1e-12)
    win, tie = equity_vs_random_all(TURN)
    h = holding_index(hero)
    assert win[h] + tie[h] / 2 == pytest.approx(exact, abs=1e-12)
    assert win[holding_index(cards_from_string("Ah2c"))] == tie[holding_index(cards_from_string("Ah2c"))] == 0.0
    river_strength = hand_strength(HOLDEM, hero, RIVER)
    assert equity_vs_random(hero, RIVER) == river_strength  # the same sums, so the same float
    assert board_ehs(RIVER)[h] == pytest.approx(river_strength, abs=1e-12) == hand_ehs(hero, RIVER)


def test_hand_strength_in_small_decks_by_enumeration():
    kuhn = load_game("kuhn")
    assert [hand_strength(kuhn, cards_from_string(c), ()) for c in ("Qs", "Ks", "As")] == [0.0, 0.5, 1.0]
    leduc = load_game("leduc")
    hole, board = cards_from_string("Kh"), cards_from_string("Ks")
    assert hand_strength(leduc, hole, board) == 1.0  # a pair of kings beats the four cards left


def test_sampled_equities_fall_within_their_error_of_the_exact_value():
    hero = cards_from_string("KdQd")
    flop = TURN[:3]
    exact = equity_vs_random(hero, flop)
    error = 4 * 0.5 / math.sqrt(4000)
    rest = [c for c in HOLDEM.deck if c not in hero]
    uniform = Eval7Range(itertools.combinations(rest, 2))
    assert sampled_equity_vs_range(hero, uniform, flop, 4000, seed=11) == pytest.approx(exact, abs=error)
    assert sampled_equity_vs_random(HOLDEM, hero, flop, random.Random(5), 4000) == pytest.approx(exact, abs=error)
    assert multiway_share(HOLDEM, hero, flop, 1, 4000, random.Random(6)) == pytest.approx(exact, abs=error)
    first, second = cards_from_string("AcAd")
    sampled = sampled_preflop_equity(first, second, 20_000, new_rng(1))
    assert sampled == pytest.approx(preflop_class_equity()["AA"], abs=4 * 0.5 / math.sqrt(20_000))
    estimate = equity_vs_ranges(hero, (), np.ones(NUM_HOLDINGS), samples=1000, seed=2)[0]
    assert estimate == pytest.approx(preflop_class_equity()["KQs"], abs=4 * 0.5 / math.sqrt(1000))


def test_the_package_namespace_loads_its_names_lazily():
    assert analysis.HOLDINGS is HOLDINGS and analysis.rank_holdings is rank_holdings
    assert set(analysis.__all__) >= {"HOLDINGS", "HOLDING_INDEX", "rank_holdings", "equity_vs_ranges"}
    with pytest.raises(AttributeError):
        _ = analysis.no_such_name


# ------------------------------------------------------------------ matchups (run-out matrices)
SMALL_NOLIMIT_GAME = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 2
stack = 1000 1000
blind = 20 10
firstPlayer = 2 1
numSuits = 2
numRanks = 5
numHoleCards = 2
numBoardCards = 3 1
END GAMEDEF
"""


def test_runout_matrix_is_the_expected_showdown_sign():
    game = parse_game(SMALL_NOLIMIT_GAME)
    space = HoldingSpace(game)
    deck = sorted(game.deck)
    board = (deck[0], deck[3], deck[6])
    matrix = space.runout_matrix(board)
    ranker = game.ranker
    for h, o in [(0, 44), (5, 30), (12, 13), (20, 41)]:
        a, b = tuple(space.cards[h]), tuple(space.cards[o])
        used = set(board) | set(a) | set(b)
        if len(used) < 7:
            assert matrix[h, o] == 0.0
            continue
        signs = [np.sign(ranker((*a, *board, c)) - ranker((*b, *board, c))) for c in deck if c not in used]
        assert matrix[h, o] == pytest.approx(np.mean(signs), abs=1e-6)
        assert matrix[o, h] == pytest.approx(-np.mean(signs), abs=1e-6)


def test_a_holdem_runout_matrix_agrees_with_the_ranker():
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    board = cards_from_string("AsKd7h2c")
    matrix = space.runout_matrix(board)
    ranker = game.ranker
    for a, b in [("QsQd", "AhKs"), ("9h8h", "TcTd"), ("2d2h", "AcKc")]:
        h, o = space.index(cards_from_string(a)), space.index(cards_from_string(b))
        used = set(board) | set(space.cards[h]) | set(space.cards[o])
        signs = [
            np.sign(ranker((*space.cards[h], *board, c)) - ranker((*space.cards[o], *board, c)))
            for c in range(52)
            if c not in used
        ]
        assert matrix[h, o] == pytest.approx(np.mean(signs), abs=1e-6)
    assert np.abs(matrix + matrix.T).max() == 0.0


def test_a_holdem_flop_runout_matrix_agrees_with_the_ranker():
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    board = cards_from_string("Js8s3d")  # two cards to come; flushes in reach
    matrix = space.runout_matrix(board)
    ranker = game.ranker
    for a, b in [("AsKs", "QhQc"), ("9s7s", "JdJc"), ("8h8c", "AcJc")]:
        h, o = space.index(cards_from_string(a)), space.index(cards_from_string(b))
        rest = [c for c in range(52) if c not in set(board) | set(space.cards[h]) | set(space.cards[o])]
        signs = [
            np.sign(ranker((*space.cards[h], *board, *extra)) - ranker((*space.cards[o], *board, *extra)))
            for extra in itertools.combinations(rest, 2)
        ]
        assert matrix[h, o] == pytest.approx(np.mean(signs), abs=1e-6)
        assert matrix[o, h] == -matrix[h, o]
    shared = space.index(cards_from_string("AsKs")), space.index(cards_from_string("AsQh"))
    assert matrix[shared] == 0.0
    assert (matrix[space.index(cards_from_string("Js2c"))] == 0.0).all()  # uses a board card


def test_a_holdings_strength_is_its_equity_against_a_random_holding():
    game = parse_game(SMALL_NOLIMIT_GAME)
    space = HoldingSpace(game)
    deck = sorted(game.deck)
    board = (deck[0], deck[3], deck[6])
    strength = space.strength(board)
    ranker = game.ranker
    for h in (1, 17, 30):
        a = tuple(space.cards[h])
        if set(a) & set(board):
            assert strength[h] == 0.0
            continue
        shares = []
        for o in range(space.size):
            b = tuple(space.cards[o])
            if set(b) & (set(a) | set(board)):
                continue
            for c in (c for c in deck if c not in set(board) | set(a) | set(b)):
                sign = np.sign(ranker((*a, *board, c)) - ranker((*b, *board, c)))
                shares.append((sign + 1) / 2)
        assert strength[h] == pytest.approx(np.mean(shares), abs=1e-6)
    holdem = holding_space(load_game("holdem-nolimit-2p"))
    river = cards_from_string("AsKd7h2c9s")
    wins, ties = equity_vs_random_all(river)
    assert holdem.strength(river) == pytest.approx(wins + 0.5 * ties, abs=1e-6)
    assert holdem.strength(()) == pytest.approx(preflop_equity())
    # Without the run-out matrix in the cache the row sums are counted alone: the same values.
    for text in ("AsKd7h", "9c8c2d", "Td9s4h4c"):
        board = cards_from_string(text)
        matchups._LIVE.clear()
        alone = holdem.strength(board)
        holdem.live_runout_matrix(board)
        assert alone == pytest.approx(holdem.strength(board), abs=1e-6)
