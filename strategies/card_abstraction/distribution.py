"""The distribution-aware card abstraction: k-means over equity distributions.

:class:`DistributionAbstraction` buckets two-player 52-card hold'em hands round by round:

* **pre-flop**: the 169 hand classes (lossless: holdings that differ only by suits play alike),
  bucket ``c`` is class ``CLASSES[c]``;
* **flop and turn**: each holding's equity distribution (:mod:`.equity_distribution`: the law of
  its river equity against a random holding over the run-outs) summarised by ``quantiles``
  slice means; the bucket is the nearest of the round's centroids in Euclidean distance, which
  is the 2-Wasserstein distance between the summarised distributions. The centroids are fitted
  by seeded k-means (:mod:`.kmeans`) on a seeded sample of (board, holding) points
  (:func:`fit_distribution_abstraction`), after Johanson, Burch, Valenzuela and Bowling (2013);
* **river**: the river equity (against a random holding) cut at percentile edges fitted on a
  seeded sample of river boards (each bucket holds about as many holdings).

A holding's bucket is computed on demand on any board (every holding of a board at once,
:meth:`DistributionAbstraction.buckets_all`, kept for the last boards asked; a flop's answer is
kept under its suit-canonical form, so isomorphic flops are computed once); holdings that use
a board card get bucket 0. The abstraction is saved as a small ``.npz``
(:meth:`DistributionAbstraction.save`) and described in full by its :meth:`spec` (a policy file
carries it). :func:`build_deal_tables` makes the deal tables of the abstract game on seeded
boards (the same boards as :func:`~pokerbot.models.buckets.tables.build_ehs_tables` with the
same seed), :func:`save_deal_tables` and :func:`load_deal_tables` keep them, bound to the
abstraction by its :meth:`~DistributionAbstraction.digest`.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.models.buckets.card_abstraction import MAX_BUCKETS, AbstractionError, BucketScheme, HoldemAbstraction
from pokerbot.models.buckets.tables import DealTables, EhsTables, TablesError, _sample_boards, card_masks
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDING_MASKS, HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.analysis.preflop import NUM_CLASSES, class_of_holding
from pokerbot.protocol.analysis.showdown import rank_holdings
from pokerbot.protocol.analysis.splitmix import new_rng
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.strategies.card_abstraction.equity_distribution import equity_features, later_features, river_equity
from pokerbot.strategies.card_abstraction.kmeans import kmeans, nearest

FORMAT = "pokerbot.distribution-abstraction/1"
DEALS_FORMAT = "pokerbot.deal-tables/1"
SPEC_TYPE = "distribution"
DEFAULT_QUANTILES = 32
KEPT_BOARDS = 8
"""Turn and river boards whose buckets are kept (flops: every canonical flop asked)."""

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``."""

SUIT_PERMUTATIONS = np.array(list(permutations(range(4))), dtype=np.int64)
"""The 24 permutations of the suits: ``SUIT_PERMUTATIONS[p, s]`` is the image of suit ``s``."""
CARD_MAPS = (np.arange(52)[None, :] // 4) * 4 + SUIT_PERMUTATIONS[:, np.arange(52) % 4]
"""``CARD_MAPS[p, c]``: card ``c`` with its suit permuted by ``p``."""
HOLDING_MAPS = HOLDING_INDEX[CARD_MAPS[:, HOLDINGS[:, 0]], CARD_MAPS[:, HOLDINGS[:, 1]]]
"""``HOLDING_MAPS[p, h]``: holding ``h`` with its suits permuted by ``p``."""


def canonical_flop(flop: Sequence[Card]) -> tuple[tuple[int, ...], int]:
    """The suit-canonical form of a flop (the least sorted image over the 24 suit permutations)
    and the permutation that maps the flop onto it."""
    cards = np.asarray(flop, dtype=np.int64)
    images = np.sort(CARD_MAPS[:, cards], axis=1)
    keys = images[:, 0] * 2704 + images[:, 1] * 52 + images[:, 2]
    best = int(np.argmin(keys))
    return tuple(int(c) for c in images[best]), best


class DistributionAbstraction(HoldemAbstraction):
    """The distribution-aware abstraction of the module docstring."""

    def __init__(
        self,
        game: Game,
        flop: np.ndarray,
        turn: np.ndarray,
        river_edges: Sequence[float],
        meta: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(game)
        if not game.is_standard_deck or game.num_hole_cards != 2 or game.num_board_cards != (0, 3, 1, 1):
            raise AbstractionError("distribution buckets need hold'em: the 52-card deck, two hole cards, 3+1+1 board")
        flop = np.asarray(flop, dtype=np.float64)
        turn = np.asarray(turn, dtype=np.float64)
        if flop.ndim != 2 or turn.ndim != 2 or flop.shape[1] != turn.shape[1] or flop.shape[1] < 1:
            raise AbstractionError("flop and turn centroids must be [buckets, quantiles] arrays of one width")
        self.flop = flop
        self.turn = turn
        self.river = BucketScheme(tuple(float(e) for e in river_edges))
        counts = (NUM_CLASSES, flop.shape[0], turn.shape[0], self.river.count)
        if any(not 1 <= c <= MAX_BUCKETS for c in counts):
            raise AbstractionError(f"buckets per round must be 1..{MAX_BUCKETS}, got {counts}")
        if list(self.river.edges) != sorted(self.river.edges):
            raise AbstractionError("the river edges must increase")
        self._counts = counts
        self.meta = dict(meta or {})
        """How the abstraction was fitted (seed, sample sizes, inertia): not part of its identity."""
        self._flops: dict[tuple[int, ...], np.ndarray] = {}
        self._later: OrderedDict[tuple[int, ...], np.ndarray] = OrderedDict()

    def prepare(self) -> None:
        """Load the compiled code (EHS, equity distributions) before the first decision."""
        super().prepare()
        self.buckets_all((0, 1, 2, 3, 4), 3)
        self.buckets_all((0, 1, 2, 3, 4), 2)

    @property
    def quantiles(self) -> int:
        """Slices of the quantile features of the flop and turn."""
        return int(self.flop.shape[1])

    @property
    def num_buckets(self) -> tuple[int, ...]:
        return self._counts

    def features(self, board: Sequence[Card], *, parallel: bool = False) -> np.ndarray:
        """The quantile features of every holding on a flop or turn (NaN rows where a holding
        uses a board card), or the river equity on a river (one column)."""
        return equity_features(board, 1 if len(board) == 5 else self.quantiles, parallel=parallel)

    def _compute(self, board: Sequence[Card], parallel: bool = False) -> np.ndarray:
        if len(board) == 5:
            values = river_equity(board)
            out = self.river.buckets(np.nan_to_num(values, nan=0.0))
            out[np.isnan(values)] = 0
            return out
        features = self.features(board, parallel=parallel)
        valid = ~np.isnan(features[:, 0])
        out = np.zeros(NUM_HOLDINGS, dtype=np.uint8)
        out[valid] = nearest(features[valid], self.flop if len(board) == 3 else self.turn)[0]
        return out

    def later_buckets(self, boards: np.ndarray) -> np.ndarray:
        """The turn and river buckets of every holding on each five-card row of ``boards``
        (``uint8[board, 2, 1326]``, as :meth:`buckets_all`), the boards computed together."""
        turn, river = later_features(np.asarray(boards, dtype=np.int64), self.quantiles)
        out = np.zeros((turn.shape[0], 2, NUM_HOLDINGS), dtype=np.uint8)
        flat = turn.reshape(-1, self.quantiles)
        valid = ~np.isnan(flat[:, 0])
        labels = np.zeros(flat.shape[0], dtype=np.uint8)
        labels[valid] = nearest(flat[valid], self.turn)[0]
        out[:, 0] = labels.reshape(turn.shape[0], NUM_HOLDINGS)
        out[:, 1] = self.river.buckets(np.nan_to_num(river, nan=0.0))
        out[:, 1][np.isnan(river)] = 0
        return out

    def buckets_all(self, board: Sequence[Card], round_index: int) -> np.ndarray:
        """As :meth:`HoldemAbstraction.buckets_all` (read-only)."""
        if round_index == 0:
            return _PREFLOP
        seen = self.game.board_start[round_index] + self.game.num_board_cards[round_index]
        visible = tuple(int(c) for c in board[:seen])
        if len(visible) != seen:
            raise AbstractionError(f"round {round_index} needs {seen} board cards, got {len(visible)}")
        if seen == 3:
            return self._flop(visible)
        table = self._later.get(visible)
        if table is None:
            if len(self._later) >= KEPT_BOARDS:
                self._later.popitem(last=False)
            table = self._later[visible] = self._compute(visible)
            table.setflags(write=False)
        else:
            self._later.move_to_end(visible)
        return table

    def _flop(self, flop: Sequence[Card], parallel: bool = False) -> np.ndarray:
        """Every holding's flop bucket, from the canonical flop's (computed once)."""
        canonical, permutation = canonical_flop(flop)
        table = self._flops.get(canonical)
        if table is None:
            table = self._flops[canonical] = self._compute(canonical, parallel)
        out = table[HOLDING_MAPS[permutation]]
        out.setflags(write=False)
        return out

    def bucket(self, hole: Sequence[Card], board: Sequence[Card], round_index: int) -> int:
        return int(self.buckets_all(board, round_index)[int(HOLDING_INDEX[hole[0], hole[1]])])

    def spec(self) -> dict[str, Any]:
        return {
            "type": SPEC_TYPE,
            "flop": self.flop.tolist(),
            "turn": self.turn.tolist(),
            "river_edges": list(self.river.edges),
        }

    def digest(self) -> str:
        """A short hash of :meth:`spec` (what a deal-tables file is bound to)."""
        text = json.dumps(self.spec(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @classmethod
    def from_spec(cls, game: Game, spec: dict[str, Any]) -> DistributionAbstraction:
        """The abstraction :meth:`spec` described."""
        try:
            return cls(game, np.array(spec["flop"]), np.array(spec["turn"]), spec["river_edges"])
        except (KeyError, TypeError, ValueError) as error:
            raise AbstractionError(f"not a distribution abstraction spec ({error})") from None

    def deal_tables(self, source: EhsTables | DealTables | None = None) -> DealTables:
        """The deal tables on the boards of ``source``: tables this abstraction made (returned as
        they are, after a check of their bucket counts) or sampled EHS tables (their boards and
        showdown strengths, bucketed here)."""
        if isinstance(source, DealTables):
            if tuple(int(c) for c in source.num_buckets) != self.num_buckets:
                raise AbstractionError("the deal tables were made for another abstraction")
            return source
        if source is None:
            raise AbstractionError("hold'em deal tables need boards: build them first (pokerbot abstraction build)")
        return _tables(self, source.boards.astype(np.int64), source.strength.astype(np.int32))

    def save(self, path: str | Path) -> None:
        """Write the abstraction (centroids, edges and fitting meta) as a compressed ``.npz``."""
        with Path(path).open("wb") as handle:
            np.savez_compressed(
                handle,
                flop=self.flop,
                turn=self.turn,
                river_edges=np.array(self.river.edges),
                meta=json.dumps({"format": FORMAT, **self.meta}),
            )

    @classmethod
    def load(cls, path: str | Path, game: Game) -> DistributionAbstraction:
        """Read an abstraction written by :meth:`save`; :class:`AbstractionError` if unreadable."""
        try:
            with np.load(path) as data:
                meta = json.loads(str(data["meta"]))
                flop, turn, edges = data["flop"], data["turn"], data["river_edges"]
        except (OSError, KeyError, ValueError) as error:
            raise AbstractionError(f"{path}: not a distribution abstraction file ({error})") from None
        if meta.pop("format", None) != FORMAT:
            raise AbstractionError(f"{path}: not a distribution abstraction file")
        return cls(game, flop, turn, edges.tolist(), meta)


SHIPPED = "kmeans"
"""The shipped abstraction: ``strategies/card_abstraction/data/kmeans.npz``."""


def shipped_abstraction(game: Game, name: str = SHIPPED) -> DistributionAbstraction:
    """The shipped abstraction ``name`` (a file of ``strategies/card_abstraction/data``)."""
    path = resources.files("pokerbot.strategies").joinpath("card_abstraction", "data", f"{name}.npz")
    if not path.is_file():
        raise AbstractionError(f"no shipped card abstraction {name!r}")
    with resources.as_file(path) as file:
        return DistributionAbstraction.load(file, game)


def _preflop() -> np.ndarray:
    table = class_of_holding().astype(np.uint8)
    table.setflags(write=False)
    return table


_PREFLOP = _preflop()


BATCH = 64
"""Boards bucketed together when deal tables are built (their turns and rivers share the threads)."""


def _tables(
    abstraction: DistributionAbstraction,
    boards: np.ndarray,
    strength: np.ndarray,
    progress: Callable[[int], None] | None = None,
) -> DealTables:
    buckets = np.zeros((boards.shape[0], 4, NUM_HOLDINGS), dtype=np.uint8)
    buckets[:, 0, :] = _PREFLOP[None, :]
    for start in range(0, boards.shape[0], BATCH):
        batch = boards[start : start + BATCH]
        for b in range(batch.shape[0]):
            buckets[start + b, 1] = abstraction._flop(batch[b, :3], parallel=True)
        buckets[start : start + batch.shape[0], 2:] = abstraction.later_buckets(batch)
        if progress is not None:
            progress(start + batch.shape[0])
    return DealTables(
        boards=boards,
        hand_cards=HOLDINGS,
        hand_masks=HOLDING_MASKS,
        board_masks=card_masks(boards),
        buckets=buckets,
        strength=strength,
        num_buckets=np.array(abstraction.num_buckets, dtype=np.int64),
        exhaustive=False,
    )


def build_deal_tables(
    abstraction: DistributionAbstraction,
    num_boards: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> DealTables:
    """Deal tables on ``num_boards`` seeded boards (those of
    :func:`~pokerbot.models.buckets.tables.build_ehs_tables` with the same ``seed``);
    ``progress(done)`` after each board."""
    if num_boards < 1:
        raise TablesError(f"need at least one board, got {num_boards}")
    boards = _sample_boards(num_boards, new_rng(seed))
    strength = np.stack([rank_holdings(board) for board in boards]).astype(np.int32)
    return _tables(abstraction, boards, strength, progress)


def save_deal_tables(tables: DealTables, path: str | Path, abstraction: DistributionAbstraction, seed: int) -> None:
    """Write deal tables made for ``abstraction`` from board ``seed`` (compressed ``.npz``)."""
    meta = {"format": DEALS_FORMAT, "abstraction": abstraction.digest(), "seed": seed}
    with Path(path).open("wb") as handle:
        np.savez_compressed(
            handle, boards=tables.boards, buckets=tables.buckets, strength=tables.strength, meta=json.dumps(meta)
        )


def load_deal_tables(path: str | Path, abstraction: DistributionAbstraction) -> DealTables:
    """Read deal tables written by :func:`save_deal_tables` for ``abstraction``
    (:class:`~pokerbot.models.buckets.tables.TablesError` if unreadable or made for another)."""
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
    "HOLDING_MAPS",
    "SHIPPED",
    "SPEC_TYPE",
    "DistributionAbstraction",
    "Sample",
    "build_deal_tables",
    "canonical_flop",
    "distinct_percentiles",
    "fit_distribution_abstraction",
    "load_deal_tables",
    "sample_points",
    "save_deal_tables",
    "shipped_abstraction",
]
