"""Fitting and files of the distribution-aware card abstraction
(:class:`~pokerbot.strategies.card_abstraction.abstraction.DistributionAbstraction`).

:func:`fit_distribution_abstraction` fits it from one seed: the flop and turn centroids by
seeded k-means (:mod:`.kmeans`) on the quantile features of a seeded sample of (board,
holding) points (:func:`sample_points`: uniform boards, uniform holdings that miss each), the
river edges as percentiles of the river equity over a sample of river boards, none empty
(:func:`distinct_percentiles`). :func:`build_deal_tables` makes the deal tables of the abstract
game on seeded boards (those of :func:`~pokerbot.strategies.card_abstraction.tables.build_ehs_tables`
with the same seed); :func:`save_deal_tables` and :func:`load_deal_tables` keep them, bound to
the abstraction by its :meth:`~.abstraction.DistributionAbstraction.digest`.
:func:`shipped_abstraction` reads the one shipped in ``strategies/card_abstraction/data``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDING_MASKS, HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.analysis.showdown import rank_holdings
from pokerbot.protocol.game import Game
from pokerbot.strategies.card_abstraction.abstraction import (
    MAX_BUCKETS,
    AbstractionError,
    BucketScheme,
    DistributionAbstraction,
)
from pokerbot.strategies.card_abstraction.equity_distribution import equity_features, river_equity
from pokerbot.strategies.card_abstraction.kmeans import kmeans
from pokerbot.strategies.card_abstraction.suits import HOLDING_MAPS, canonical_flop
from pokerbot.strategies.card_abstraction.tables import DealTables, TablesError, card_masks, sample_boards

DEALS_FORMAT = "pokerbot.deal-tables/1"
DEFAULT_QUANTILES = 32

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``."""

SHIPPED = "kmeans"
"""The shipped abstraction: ``strategies/card_abstraction/data/kmeans.npz``."""


def shipped_abstraction(game: Game, name: str = SHIPPED) -> DistributionAbstraction:
    """The shipped abstraction ``name`` (a file of ``strategies/card_abstraction/data``)."""
    path = resources.files("pokerbot.strategies").joinpath("card_abstraction", "data", f"{name}.npz")
    if not path.is_file():
        raise AbstractionError(f"no shipped card abstraction {name!r}")
    with resources.as_file(path) as file:
        return DistributionAbstraction.load(file, game)


def build_deal_tables(
    abstraction: DistributionAbstraction,
    num_boards: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> DealTables:
    """Deal tables on ``num_boards`` seeded boards (those of
    :func:`~pokerbot.strategies.card_abstraction.tables.build_ehs_tables` with the same ``seed``);
    ``progress(done)`` after each board."""
    if num_boards < 1:
        raise TablesError(f"need at least one board, got {num_boards}")
    boards = sample_boards(num_boards, seed)
    strength = np.stack([rank_holdings(board) for board in boards]).astype(np.int32)
    return abstraction.tables_on(boards, strength, progress)


def save_deal_tables(tables: DealTables, path: str | Path, abstraction: DistributionAbstraction, seed: int) -> None:
    """Write deal tables made for ``abstraction`` from board ``seed`` (compressed ``.npz``)."""
    meta = {"format": DEALS_FORMAT, "abstraction": abstraction.digest(), "seed": seed}
    with Path(path).open("wb") as handle:
        np.savez_compressed(
            handle, boards=tables.boards, buckets=tables.buckets, strength=tables.strength, meta=json.dumps(meta)
        )


def load_deal_tables(path: str | Path, abstraction: DistributionAbstraction) -> DealTables:
    """Read deal tables written by :func:`save_deal_tables` for ``abstraction``
    (:class:`~pokerbot.strategies.card_abstraction.tables.TablesError` if unreadable or made for another)."""
    try:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            boards, buckets, strength = data["boards"], data["buckets"], data["strength"]
    except (OSError, KeyError, ValueError) as error:
        raise TablesError(f"{path}: not a deal-tables file ({error})") from None
    if meta.get("format") != DEALS_FORMAT:
        raise TablesError(f"{path}: not a deal-tables file")
    if meta.get("abstraction") != abstraction.digest():
        raise TablesError(f"{path}: the deal tables were made for another card abstraction")
    if buckets.shape != (boards.shape[0], 4, NUM_HOLDINGS) or strength.shape != (boards.shape[0], NUM_HOLDINGS):
        raise TablesError(f"{path}: deal tables of the wrong shape {buckets.shape}")
    return DealTables(
        boards=boards.astype(np.int64),
        hand_cards=HOLDINGS,
        hand_masks=HOLDING_MASKS,
        board_masks=card_masks(boards),
        buckets=buckets,
        strength=strength.astype(np.int32),
        num_buckets=np.array(abstraction.num_buckets, dtype=np.int64),
        exhaustive=False,
    )


def _sample(generator: np.random.Generator, size: int, count: int) -> np.ndarray:
    """``count`` boards of ``size`` distinct cards, uniformly."""
    return np.argsort(generator.random((count, 52)), axis=1)[:, :size].astype(np.int64)


@dataclass(frozen=True, eq=False)
class Sample:
    """A seeded sample of (board, holding) points of one round and their features."""

    boards: np.ndarray
    """``[board, card]`` the sampled boards (int64)."""
    holdings: np.ndarray
    """``[board, k]`` the holdings drawn on each board (int64, sorted)."""
    features: np.ndarray
    """``[board * k + j, quantile]`` the features of holding ``holdings[board, j]`` (float64)."""


def sample_points(
    size: int,
    boards: int,
    holdings: int,
    bins: int,
    seed: int,
    progress: Progress | None = None,
) -> Sample:
    """Features of a seeded sample of (board, holding) points: ``boards`` uniform boards of
    ``size`` cards, ``holdings`` of the holdings that miss each board drawn uniformly (a flop's
    features are computed once per canonical flop)."""
    generator = np.random.default_rng([seed, size])
    sampled = _sample(generator, size, boards)
    chosen = np.empty((boards, holdings), dtype=np.int64)
    out = np.empty((boards * holdings, bins))
    kept: dict[tuple[int, ...], np.ndarray] = {}
    stage = {3: "flop", 4: "turn", 5: "river"}[size]
    for b in range(boards):
        board = sampled[b]
        missing = np.flatnonzero((HOLDING_MASKS & card_masks(board[None, :])[0]) == 0)
        chosen[b] = np.sort(generator.choice(missing, size=holdings, replace=False))
        if size == 5:  # the exact equities, as the abstraction computes them at play
            out[b * holdings : (b + 1) * holdings, 0] = river_equity(board)[chosen[b]]
        elif size == 3:
            canonical, permutation = canonical_flop(board)
            features = kept.get(canonical)
            if features is None:
                features = kept[canonical] = equity_features(canonical, bins, parallel=True)
            out[b * holdings : (b + 1) * holdings] = features[HOLDING_MAPS[permutation, chosen[b]]]
        else:
            out[b * holdings : (b + 1) * holdings] = equity_features(board, bins, chosen[b])
        if progress is not None:
            progress(stage, b + 1, boards)
    return Sample(sampled, chosen, out)


def fit_distribution_abstraction(
    game: Game,
    buckets: tuple[int, int, int],
    *,
    quantiles: int = DEFAULT_QUANTILES,
    boards: tuple[int, int, int] = (1000, 2000, 2000),
    holdings: int = 200,
    seed: int = 0,
    progress: Progress | None = None,
) -> DistributionAbstraction:
    """Fit the flop, turn and river buckets (``buckets``) on seeded samples: ``boards[r]`` boards
    of each round, ``holdings`` holdings of each (module docstring). The same arguments give the
    same abstraction."""
    if any(not 1 <= b <= MAX_BUCKETS for b in buckets):
        raise AbstractionError(f"buckets per round must be 1..{MAX_BUCKETS}, got {buckets}")
    if not 1 <= holdings <= 1081 or min(boards) < 1 or quantiles < 1:
        raise AbstractionError("need at least one board and quantile a round, and 1..1081 holdings a board")
    meta: dict[str, Any] = {"seed": seed, "boards": list(boards), "holdings": holdings, "quantiles": quantiles}
    centroids = []
    for r, size in ((0, 3), (1, 4)):
        points = sample_points(size, boards[r], holdings, quantiles, seed, progress).features
        if progress is not None:
            progress(f"k-means {('flop', 'turn')[r]}", 0, 1)
        result = kmeans(points, buckets[r], seed + r)
        centroids.append(np.round(result.centroids, 6))
        meta[("flop", "turn")[r]] = {
            "inertia": result.inertia,
            "iterations": result.iterations,
            "converged": result.converged,
        }
    river = sample_points(5, boards[2], holdings, 1, seed, progress).features[:, 0]
    edges = distinct_percentiles(buckets[2], river)
    return DistributionAbstraction(game, centroids[0], centroids[1], [round(e, 9) for e in edges], meta)


def distinct_percentiles(count: int, values: np.ndarray) -> tuple[float, ...]:
    """Percentile edges (:meth:`BucketScheme.percentile`) cutting ``values`` into ``count``
    buckets none of which is empty. Values that many points share (river equities are
    multiples of 1/1,980) make some equal-frequency edges coincide, so the count asked is raised
    until ``count - 1`` distinct edges remain (fewer buckets only when the values are too few)."""
    best: tuple[float, ...] = ()
    for asked in range(count, 4 * count):
        top = float(np.max(values))  # an edge above every value would leave the last bucket empty
        edges = tuple(sorted({e for e in BucketScheme.percentile(asked, values).edges if e < top}))
        if len(edges) > count - 1:
            break
        best = edges
        if len(edges) == count - 1:
            break
    return best


__all__ = [
    "DEFAULT_QUANTILES",
    "SHIPPED",
    "Sample",
    "build_deal_tables",
    "distinct_percentiles",
    "fit_distribution_abstraction",
    "load_deal_tables",
    "sample_points",
    "save_deal_tables",
    "shipped_abstraction",
]
