"""The distribution-aware card abstraction: river equity and equity distributions against
brute-force enumeration, the quantile summary and the earth mover's distance by hand,
seeded k-means, the lossless pre-flop, suit isomorphism, determinism, files and deal tables."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerbot.protocol.analysis.equity import equity_vs_random_all
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDINGS
from pokerbot.protocol.analysis.preflop import CLASSES, class_combos
from pokerbot.protocol.analysis.ranking import rank_standard
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.strategies.card_abstraction.abstraction import AbstractionError, BucketScheme, DistributionAbstraction
from pokerbot.strategies.card_abstraction.distribution import (
    build_deal_tables,
    distinct_percentiles,
    fit_distribution_abstraction,
    load_deal_tables,
    save_deal_tables,
    shipped_abstraction,
)
from pokerbot.strategies.card_abstraction.equity_distribution import (
    emd,
    emd_rows,
    equity_distributions,
    equity_features,
    later_features,
    river_equity,
    slice_means,
)
from pokerbot.strategies.card_abstraction.kmeans import KMeansError, kmeans, nearest
from pokerbot.strategies.card_abstraction.suits import CARD_MAPS, HOLDING_MAPS, canonical_flop
from pokerbot.strategies.card_abstraction.tables import TablesError, build_ehs_tables

SMALL = {"quantiles": 8, "boards": (6, 12, 12), "holdings": 60, "seed": 3}


@pytest.fixture(scope="module")
def game():
    return load_game("holdem-nolimit-2p")


@pytest.fixture(scope="module")
def small(game):
    """A tiny abstraction: 8 buckets on the flop, 9 on the turn, 10 on the river."""
    return fit_distribution_abstraction(game, (8, 9, 10), **SMALL)


def _brute_river_equity(hole: tuple[int, int], board: list[int]) -> float:
    """Wins and half the ties against every other holding, by the dealer's ranking."""
    rest = [c for c in range(52) if c not in hole and c not in board]
    mine = rank_standard([*hole, *board])
    score = 0.0
    count = 0
    for opp in itertools.combinations(rest, 2):
        theirs = rank_standard([*opp, *board])
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        count += 1
    assert count == 990
    return score / count


@pytest.mark.parametrize(
    ("board", "holes"),
    [
        ("Qs7s2d9h3c", ("AsKs", "7c2h", "JdTd")),
        ("Qc5s5d8h2c", ("QdQh", "5c4c", "AhKh")),
        ("2h3h4h5h6h", ("Ah7h", "AcAd")),
    ],
)
def test_river_equity_is_the_share_against_every_other_holding(board, holes):
    cards = list(cards_from_string(board))
    table = river_equity(cards)
    for text in holes:
        hole = tuple(cards_from_string(text))
        assert table[HOLDING_INDEX[hole[0], hole[1]]] == pytest.approx(_brute_river_equity(hole, cards), abs=1e-12)
    win, tie = equity_vs_random_all(cards)
    live = ~np.isnan(table)
    assert live.sum() == 1081
    assert np.abs(table[live] - (win + tie / 2)[live]).max() < 1e-12
    assert np.isnan(table[HOLDING_INDEX[cards[0], cards[1]]])


def test_a_turn_distribution_is_the_river_equity_over_each_river_card():
    board = list(cards_from_string("Ts9s4d2c"))
    holes = [tuple(cards_from_string(t)) for t in ("As3s", "8h7h", "KcKd")]
    chosen = np.array([HOLDING_INDEX[a, b] for a, b in holes])
    distributions = equity_distributions(board, chosen)
    assert distributions.shape == (3, 46)
    for row, hole in zip(distributions, holes, strict=True):
        rivers = [c for c in range(52) if c not in board and c not in hole]
        expected = sorted(_brute_river_equity(hole, [*board, c]) for c in rivers)
        assert row == pytest.approx(expected, abs=1e-12)
    # many boards at once (the deal tables' way) give the same features and river equities
    full = np.array([[*board, 12], [*board[:3], 5, 51]])
    turn, river = later_features(full, 6)
    for b in range(2):
        assert np.array_equal(turn[b], equity_features(full[b, :4], 6), equal_nan=True)
        assert np.array_equal(river[b], river_equity(full[b]), equal_nan=True)


def test_a_flop_distribution_is_the_river_equity_over_each_turn_and_river():
    board = list(cards_from_string("Kh8d3c"))
    hole = tuple(cards_from_string("QhJh"))
    h = HOLDING_INDEX[hole[0], hole[1]]
    rest = [c for c in range(52) if c not in board and c not in hole]
    expected = []
    for turn, river in itertools.combinations(rest, 2):  # equity_vs_random_all: exact, another kernel
        win, tie = equity_vs_random_all([*board, turn, river], kept=False)
        expected.append(win[h] + tie[h] / 2)
    row = equity_distributions(board, np.array([h]))[0]
    assert row.shape == (1081,)
    assert row == pytest.approx(sorted(expected), abs=1e-12)
    features = equity_features(board, 4, np.array([h]))[0]
    quarters = np.sort(expected)
    # 1081 values in four slices of 270.25: the exact slice means, by hand
    first = (quarters[:270].sum() + 0.25 * quarters[270]) / 270.25
    assert features[0] == pytest.approx(first, abs=1e-6)
    assert features.mean() == pytest.approx(np.mean(expected), abs=1e-6)


def test_slice_means_and_distances_by_hand():
    out = np.empty(4)
    slice_means(np.array([0.0, 1.0]), 4, out)
    assert out.tolist() == [0.0, 0.0, 1.0, 1.0]
    out = np.empty(2)
    slice_means(np.array([0.0, 0.5, 1.0]), 2, out)  # each value a third: [0, 1/2) holds 0 and half of 0.5
    assert out == pytest.approx([1 / 6, 5 / 6])
    assert emd(np.array([0.0]), np.array([1.0])) == pytest.approx(1.0)
    assert emd(np.array([0.0, 1.0]), np.array([0.5, 0.5])) == pytest.approx(0.5)
    assert emd(np.array([0.2, 0.4, 0.6]), np.array([0.3, 0.5, 0.7])) == pytest.approx(0.1)
    assert emd(np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0])) == pytest.approx(1 / 6)
    rows = emd_rows(np.array([[0.0, 1.0], [0.2, 0.2]]), np.array([[0.5], [0.3]]))
    assert rows == pytest.approx([0.5, 0.1])


def test_kmeans_finds_separated_clusters_and_repeats_itself():
    generator = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 9.0]])
    points = np.concatenate([c + 0.1 * generator.standard_normal((200, 2)) for c in centres])
    fit = kmeans(points, 3, seed=4)
    assert fit.converged
    found = fit.centroids[np.argsort(fit.centroids[:, 0] * 100 + fit.centroids[:, 1])]
    assert found == pytest.approx(centres[np.argsort(centres[:, 0] * 100 + centres[:, 1])], abs=0.05)
    assert np.array_equal(fit.labels, nearest(points, fit.centroids)[0])
    again = kmeans(points, 3, seed=4)
    assert np.array_equal(again.centroids, fit.centroids)
    # weights move a centroid to the weighted mean
    weighted = kmeans(np.array([[0.0], [1.0]]), 1, seed=0, weights=np.array([3.0, 1.0]))
    assert weighted.centroids[0, 0] == pytest.approx(0.25)
    with pytest.raises(KMeansError):
        kmeans(points, 0, seed=0)


def test_preflop_buckets_are_the_169_classes(small):
    preflop = small.buckets_all([], 0)
    assert small.num_buckets == (169, 8, 9, 10)
    for number, label in enumerate(CLASSES):
        combos = class_combos(label)
        assert {small.bucket(list(c), [], 0) for c in combos} == {number}
    assert len(set(preflop.tolist())) == 169


def _permuted(cards: list[int], p: int) -> list[int]:
    return [int(CARD_MAPS[p, c]) for c in cards]


@pytest.mark.parametrize("board", ["Ks9s4d2c7h", "5h5d5cAsQh", "Jc8c3c2c9d"])
def test_suit_permuted_boards_give_the_same_buckets(small, game, board):
    cards = list(cards_from_string(board))
    fresh = DistributionAbstraction.from_spec(game, small.spec())
    for p in (5, 17, 23):
        image = _permuted(cards, p)
        for r in (1, 2, 3):
            if r == 1:  # computed on this flop, not read from its canonical form
                original = fresh._compute(tuple(cards[:3]))
                moved = fresh._compute(tuple(image[:3]))
            else:
                original = small.buckets_all(cards, r)
                moved = fresh.buckets_all(image, r)
            assert np.array_equal(moved[HOLDING_MAPS[p]], original)
            assert np.array_equal(small.buckets_all(image, r)[HOLDING_MAPS[p]], small.buckets_all(cards, r))


def test_canonical_flops_number_1755():
    forms = {canonical_flop(f)[0] for f in itertools.combinations(range(52), 3)}
    assert len(forms) == 1755
    flop = list(cards_from_string("Ah7d2d"))
    canonical, p = canonical_flop(flop)
    assert sorted(_permuted(flop, p)) == list(canonical)


def test_river_edges_leave_no_bucket_empty():
    """Shared values (the river's equities are multiples of 1/1,980) do not waste buckets."""
    values = np.concatenate([np.zeros(2000), np.random.default_rng(0).random(9000), np.ones(900)])
    plain = BucketScheme.percentile(20, values)
    assert (np.bincount(plain.buckets(values), minlength=20) == 0).sum() >= 3  # edges coincide or top all
    edges = distinct_percentiles(20, values)
    counts = np.bincount(np.searchsorted(edges, values, side="right"), minlength=20)
    assert len(edges) == 19 and (counts > 0).all()
    assert distinct_percentiles(5, np.array([0.0, 0.0, 1.0, 1.0])) == (1e-9,)


def test_fitting_repeats_with_its_seed_and_changes_with_another(small, game):
    again = fit_distribution_abstraction(game, (8, 9, 10), **SMALL)
    assert again.spec() == small.spec() and again.digest() == small.digest()
    other = fit_distribution_abstraction(game, (8, 9, 10), **{**SMALL, "seed": 4})
    assert other.digest() != small.digest()


def test_buckets_spread_and_follow_strength(small):
    board = list(cards_from_string("Kd9c4s2h"))
    turn = small.buckets_all(board, 2)
    live = np.array([not ({int(a), int(b)} & set(board)) for a, b in HOLDINGS])
    assert len(set(turn[live].tolist())) >= 6 and (turn[~live] == 0).all()
    # the nuts and the worst hand sit in the buckets whose centroids are highest and lowest
    centroid_means = small.turn.mean(axis=1)
    nuts = HOLDING_INDEX[cards_from_string("Kh")[0], cards_from_string("Ks")[0]]
    worst = HOLDING_INDEX[cards_from_string("8d")[0], cards_from_string("3c")[0]]
    assert centroid_means[turn[nuts]] > np.quantile(centroid_means, 0.8)
    assert centroid_means[turn[worst]] < np.quantile(centroid_means, 0.5)
    river = small.buckets_all([*board, 0], 3)
    assert river[nuts] == 9


def test_files_and_specs_round_trip(small, game, tmp_path):
    path = tmp_path / "abstraction.npz"
    small.save(path)
    loaded = DistributionAbstraction.load(path, game)
    assert loaded.spec() == small.spec() and loaded.meta == small.meta
    import json

    assert DistributionAbstraction.from_spec(game, json.loads(json.dumps(small.spec()))).digest() == small.digest()
    with pytest.raises(AbstractionError, match="hold'em"):
        DistributionAbstraction.from_spec(load_game("leduc"), small.spec())
    (tmp_path / "bad.npz").write_bytes(b"not a file")
    with pytest.raises(AbstractionError, match="not a distribution abstraction"):
        DistributionAbstraction.load(tmp_path / "bad.npz", game)


def test_deal_tables_hold_the_buckets_of_their_boards(small, game, tmp_path):
    tables = build_deal_tables(small, 3, seed=9)
    ehs = build_ehs_tables(3, seed=9)  # the same seeded boards, and their strengths
    assert np.array_equal(tables.boards, ehs.boards) and np.array_equal(tables.strength, ehs.strength)
    assert tables.buckets.shape == (3, 4, 1326) and tuple(tables.num_buckets) == small.num_buckets
    for b in range(3):
        board = [int(c) for c in tables.boards[b]]
        for r in range(4):
            assert np.array_equal(tables.buckets[b, r], small.buckets_all(board, r))
    assert np.array_equal(small.deal_tables(ehs).buckets, tables.buckets)
    path = tmp_path / "deals.npz"
    save_deal_tables(tables, path, small, seed=9)
    loaded = load_deal_tables(path, small)
    assert np.array_equal(loaded.buckets, tables.buckets) and np.array_equal(loaded.board_masks, tables.board_masks)
    other = fit_distribution_abstraction(game, (8, 9, 10), **{**SMALL, "seed": 4})
    with pytest.raises(TablesError, match="another card abstraction"):
        load_deal_tables(path, other)


def test_the_shipped_abstraction_loads_with_200_buckets_a_round(game):
    shipped = shipped_abstraction(game)
    assert shipped.num_buckets == (169, 200, 200, 200) and shipped.quantiles == 32
    assert shipped.meta["seed"] == 0 and shipped.meta["boards"] == [1000, 2000, 2000]
    board = list(cards_from_string("AhKd7c2s9h"))
    means = shipped.flop.mean(axis=1)
    sets = HOLDING_INDEX[cards_from_string("Ac")[0], cards_from_string("As")[0]]
    air = HOLDING_INDEX[cards_from_string("4d")[0], cards_from_string("3c")[0]]
    flop = shipped.buckets_all(board, 1)
    assert means[flop[sets]] > 0.9 > 0.3 > means[flop[air]]
    with pytest.raises(AbstractionError, match="no shipped"):
        shipped_abstraction(game, "missing")
