"""The card abstraction: numba ranking, effective hand strength against brute force, the
pre-flop table, bucket schemes, exact buckets of small games, deal tables."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from pokerbot.protocol.analysis.ehs import board_ehs, hand_ehs
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX
from pokerbot.protocol.analysis.preflop import CLASSES, preflop_equity
from pokerbot.protocol.analysis.ranking import rank_generic, rank_standard
from pokerbot.protocol.analysis.showdown import rank_hand
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.strategies.card_abstraction.abstraction import (
    AbstractionError,
    BucketScheme,
    EhsAbstraction,
    ExactAbstraction,
    abstraction_from_spec,
)
from pokerbot.strategies.card_abstraction.tables import build_ehs_tables


def test_numba_ranking_equals_the_protocol_ranking():
    rng = random.Random(11)
    cards = np.zeros(7, dtype=np.int64)
    for _ in range(3000):
        count = rng.choice((5, 6, 7))
        hand = rng.sample(range(52), count)
        cards[:count] = hand
        assert rank_hand(cards, count) == rank_generic(hand)


def _brute_force_ehs(hole: tuple[int, ...], board: list[int]) -> float:
    """Billings' formulas by enumeration with the dealer's ranking (eval7)."""
    rest = [c for c in range(52) if c not in hole and c not in board]

    def status(mine: int, theirs: int) -> int:
        return 0 if mine > theirs else 1 if mine == theirs else 2

    counts = [0, 0, 0]
    hp = np.zeros((3, 3))
    for opp in itertools.combinations(rest, 2):
        now = status(rank_standard([*hole, *board]), rank_standard([*opp, *board]))
        counts[now] += 1
        if len(board) < 5:
            for card in rest:
                if card not in opp:
                    later = status(rank_standard([*hole, *board, card]), rank_standard([*opp, *board, card]))
                    hp[now, later] += 1
    hs = (counts[0] + counts[1] / 2) / sum(counts)
    if len(board) == 5:
        return hs
    ahead, tied, behind = 0, 1, 2
    ppot = (hp[behind, ahead] + hp[behind, tied] / 2 + hp[tied, ahead] / 2) / (hp[behind].sum() + hp[tied].sum() / 2)
    npot = (hp[ahead, behind] + hp[tied, behind] / 2 + hp[ahead, tied] / 2) / (hp[ahead].sum() + hp[tied].sum() / 2)
    return hs * (1 - npot) + (1 - hs) * ppot


@pytest.mark.parametrize(
    ("hole", "board"),
    [("AsKs", "Qs7s2d"), ("7c2d", "Ah9h5c"), ("8h9h", "TcJd2s3c"), ("QdQh", "Qc5s5d8h2c")],
)
def test_ehs_equals_brute_force(hole, board):
    hole_cards = cards_from_string(hole)
    board_cards = list(cards_from_string(board))
    expected = _brute_force_ehs(hole_cards, board_cards)
    assert hand_ehs(hole_cards, board_cards) == pytest.approx(expected, abs=1e-12)
    table = board_ehs(board_cards)
    assert table[HOLDING_INDEX[hole_cards[0], hole_cards[1]]] == pytest.approx(expected, abs=1e-12)
    assert np.isnan(table[HOLDING_INDEX[board_cards[0], board_cards[1]]])


def test_preflop_table_orders_the_classes():
    table = preflop_equity()
    assert len(CLASSES) == 169 and table.shape == (1326,)
    by_class = {name: table[HOLDING_INDEX[c[0], c[1]]] for name, c in (("AA", (48, 49)), ("72o", (20, 1)))}
    assert by_class["AA"] == pytest.approx(0.852, abs=0.003)  # published all-in equity against a random hand
    assert by_class["72o"] == pytest.approx(0.346, abs=0.003)


def test_schemes_cut_at_their_edges():
    width = BucketScheme.equal_width(10)
    assert [width.bucket(v) for v in (0.0, 0.05, 0.1, 0.55, 0.999, 1.0)] == [0, 0, 1, 5, 9, 9]
    values = np.random.default_rng(0).random(10_000) ** 2
    percentile = BucketScheme.percentile(4, values)
    counts = np.bincount(percentile.buckets(values), minlength=4)
    assert percentile.count == 4 and np.all(np.abs(counts - 2500) < 10)


def test_ehs_buckets_agree_with_their_deal_tables():
    game = load_game("holdem-limit-2p")
    source = build_ehs_tables(2, seed=4)
    for kind, count in (("width", 10), ("percentile", 20)):
        abstraction = EhsAbstraction.create(game, count, kind, source)
        tables = abstraction.deal_tables(source)
        assert tables.buckets.shape == (2, 4, 1326) and not tables.exhaustive
        board = [int(c) for c in source.boards[1]]
        for hand in (HOLDING_INDEX[0, 1], HOLDING_INDEX[50, 51], HOLDING_INDEX[20, 33]):
            cards = tables.hand_cards[hand]
            if set(cards.tolist()) & set(board):
                continue
            for r in range(4):
                assert abstraction.bucket(cards.tolist(), board, r) == tables.buckets[1, r, hand]
        rebuilt = abstraction_from_spec(game, abstraction.spec())
        assert rebuilt.num_buckets == (count,) * 4


def test_exact_buckets_of_small_games():
    kuhn = ExactAbstraction(load_game("kuhn"))
    leduc = ExactAbstraction(load_game("leduc"))
    assert kuhn.num_buckets == (3,) and leduc.num_buckets == (6, 30)
    tables = leduc.deal_tables()
    assert tables.exhaustive and tables.boards.shape == (6, 1)
    # a pair on the board beats any unpaired hand
    board = int(tables.boards[0, 0])
    pair = next(h for h, cards in enumerate(tables.hand_cards) if cards[0] >> 2 == board >> 2 and cards[0] != board)
    assert tables.strength[0, pair] == tables.strength[0].max()


def test_bad_abstractions_are_refused():
    with pytest.raises(AbstractionError, match="hold'em"):
        EhsAbstraction.create(load_game("leduc"), 10)
    with pytest.raises(AbstractionError, match="percentile buckets need"):
        EhsAbstraction.create(load_game("holdem-limit-2p"), 10, "percentile")
    with pytest.raises(AbstractionError, match="too large"):
        ExactAbstraction(load_game("holdem-limit-2p"))


def test_a_whole_range_asked_on_one_board_gets_the_single_hand_values():
    """From the second holding on one board, the board is valued at once (board_ehs): the same
    numbers as one holding at a time, so a range question (LBR) changes no bucket."""
    game = load_game("holdem-limit-2p")
    board = cards_from_string("2c7dTh")
    ranged = EhsAbstraction.create(game, 10)
    rng = random.Random(5)
    holdings = [h for h in itertools.combinations(range(52), 2) if not set(h) & set(board)]
    for hole in rng.sample(holdings, 40):
        alone = EhsAbstraction.create(game, 10)  # one holding: valued alone
        assert ranged.ehs(list(hole), board) == alone.ehs(list(hole), board) == hand_ehs(list(hole), board)
        assert ranged.bucket(list(hole), board, 1) == alone.bucket(list(hole), board, 1)
    assert tuple(board) in ranged._boards
