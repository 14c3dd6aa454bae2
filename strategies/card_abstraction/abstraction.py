"""Card abstractions: a hand's bucket in each round, for the abstract games the solvers play.

A :class:`CardAbstraction` maps a player's hole cards and the board seen so far to a
*bucket* in ``0 .. num_buckets[round] - 1``. Only the current round's bucket enters an
information set (imperfect recall, Ponsen, de Jong and Lanctot 2011, section 3.3.2); earlier buckets are forgotten.

* :class:`HoldemAbstraction` (52-card hold'em): every holding of a board bucketed at once
  (``buckets_all``) and effective hand strength for the players' pot-odds rule, the base of
  :class:`EhsAbstraction` and :class:`DistributionAbstraction`.
* :class:`EhsAbstraction` (52-card hold'em): effective hand strength
  (:mod:`~pokerbot.protocol.analysis.ehs`) cut into buckets by a :class:`BucketScheme` per round:
  ``width`` (equal-width intervals of EHS, Ponsen, de Jong and Lanctot's (2011) 10-bucket discretisation: 0-0.1 is
  bucket 0, ...) or ``percentile`` (equal-frequency intervals: the edges are quantiles of
  EHS over all hands on the sampled boards, pre-flop over the 1326 hands, so each bucket
  holds about the same share of hands).
* :class:`DistributionAbstraction` (52-card hold'em): the 169 pre-flop classes, k-means over
  equity distributions on the flop and turn, river-equity percentiles (fitted by
  :mod:`~pokerbot.strategies.card_abstraction.distribution`).
* :class:`ExactAbstraction` (small games such as Kuhn and Leduc): one bucket per
  combination of hole cards and board cards, so nothing is forgotten and the abstract game
  is the game itself.

:meth:`CardAbstraction.spec` is a JSON description that :func:`abstraction_from_spec`
rebuilds the abstraction from (policies carry it).
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.ehs import board_ehs, hand_ehs
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDING_MASKS, HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.analysis.preflop import NUM_CLASSES, class_of_holding, preflop_equity
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.strategies.card_abstraction.equity_distribution import equity_features, later_features, river_equity
from pokerbot.strategies.card_abstraction.kmeans import nearest
from pokerbot.strategies.card_abstraction.suits import HOLDING_MAPS, canonical_flop
from pokerbot.strategies.card_abstraction.tables import EHS_SCALE, DealTables, EhsTables, TablesError, card_masks

SCHEMES = ("width", "percentile")
MAX_BUCKETS = 255


class AbstractionError(ValueError):
    """A card abstraction cannot be built for this game or from this description."""


@dataclass(frozen=True)
class BucketScheme:
    """Cuts a value in [0, 1] into ``len(edges) + 1`` buckets at the increasing inner ``edges``."""

    edges: tuple[float, ...]

    @property
    def count(self) -> int:
        """Number of buckets."""
        return len(self.edges) + 1

    @classmethod
    def equal_width(cls, count: int) -> BucketScheme:
        """``count`` intervals of width ``1 / count``."""
        return cls(tuple(k / count for k in range(1, count)))

    @classmethod
    def percentile(cls, count: int, values: np.ndarray, weights: np.ndarray | None = None) -> BucketScheme:
        """``count`` intervals each holding about the same weight of ``values``."""
        order = np.argsort(values, kind="stable")
        sorted_values = values[order]
        w = np.ones(len(values)) if weights is None else weights[order]
        cumulative = np.cumsum(w) / w.sum()
        picks = np.searchsorted(cumulative, np.arange(1, count) / count, side="left")
        return cls(tuple(float(sorted_values[min(p, len(values) - 1)]) + 1e-9 for p in picks))

    def bucket(self, value: float) -> int:
        """The bucket of ``value``."""
        return int(np.searchsorted(self.edges, value, side="right"))

    def buckets(self, values: np.ndarray) -> np.ndarray:
        """The bucket of each of ``values`` (uint8)."""
        return np.searchsorted(np.asarray(self.edges), values, side="right").astype(np.uint8)


class CardAbstraction(ABC):
    """Buckets of hands per round, for a two-player game (see the module docstring).

    The contract a solver relies on:

    * :attr:`num_buckets` ``[r]`` buckets in round ``r``, each in ``1 ..`` :data:`MAX_BUCKETS`
      (deal tables store buckets as uint8);
    * :meth:`bucket` is a function of its arguments alone (the same hand, board and round give
      the same bucket in every call and every process), and uses only the board cards visible
      in that round;
    * :meth:`deal_tables` gives, for every hand on every board of the tables, the buckets
      :meth:`bucket` gives (computed from the tables' stored measure where there is one, such
      as the quantised EHS of :class:`~.tables.EhsTables`);
    * :meth:`spec` is JSON with a ``"type"`` key, and :func:`abstraction_from_spec` rebuilds an
      abstraction that buckets every hand alike from it and the game (a policy file stores the
      spec, so a new kind of abstraction adds its ``"type"`` there).
    """

    def __init__(self, game: Game) -> None:
        if game.num_players != 2:
            raise AbstractionError("card abstractions are built for two-player games")
        self.game = game

    @property
    @abstractmethod
    def num_buckets(self) -> tuple[int, ...]:
        """Buckets per round."""

    @abstractmethod
    def bucket(self, hole: Sequence[Card], board: Sequence[Card], round_index: int) -> int:
        """The bucket of ``hole`` in round ``round_index`` (0-based), in ``0 .. num_buckets[round_index] - 1``;
        ``board`` holds at least the board cards of that round (later cards are ignored)."""

    @abstractmethod
    def spec(self) -> dict[str, Any]:
        """A JSON-able description (see :func:`abstraction_from_spec`)."""

    @abstractmethod
    def deal_tables(self, source: EhsTables | DealTables | None = None) -> DealTables:
        """The deal tables of the abstract game (hold'em: from sampled EHS ``source``, or deal
        tables made for this abstraction before; small decks list every board and ignore it)."""


class HoldemAbstraction(CardAbstraction):
    """A card abstraction of two-player 52-card hold'em (two hole cards, no pre-flop board).

    Beyond :class:`CardAbstraction`: :meth:`buckets_all`, every holding's bucket on a board at
    once (a player's range, a best response), and the effective hand strength (:meth:`ehs`,
    :meth:`ehs_all`, computed and kept for the last boards) that a player compares with the
    pot odds where its policy's tree has no node (:mod:`pokerbot.strategies.abstract.player`)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if not game.is_standard_deck or game.num_hole_cards != 2 or game.num_board_cards[:1] != (0,):
            raise AbstractionError("hold'em buckets need the 52-card deck, two hole cards and no pre-flop board")
        self._cache: dict[tuple[int, ...], float] = {}
        self._boards: dict[tuple[int, ...], np.ndarray] = {}

    @abstractmethod
    def buckets_all(self, board: Sequence[Card], round_index: int) -> np.ndarray:
        """The bucket of every holding in round ``round_index`` (uint8 over
        :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`, as :meth:`bucket`; holdings that
        use a board card get bucket 0: mask them out)."""

    def prepare(self) -> None:
        """Load the compiled code a first decision after the flop would otherwise wait for."""
        self.ehs((0, 1), (2, 3, 4))

    def ehs(self, hole: Sequence[Card], board: Sequence[Card]) -> float:
        """The effective hand strength of ``hole`` on ``board`` (pre-flop: the class equity)."""
        if not board:
            return float(preflop_equity()[int(HOLDING_INDEX[hole[0], hole[1]])])
        key = (*hole, *board)
        value = self._cache.get(key)
        if value is None:  # a hand's decisions in one round share the value
            boards = tuple(board)
            table = self._boards.get(boards)
            if table is not None:
                return float(table[int(HOLDING_INDEX[hole[0], hole[1]])])
            if len(self._cache) > 64:
                self._cache.clear()
            if any(k[len(hole) :] == boards for k in self._cache):
                # a second holding on this board (a best response asking about a range): every
                # hand at once costs about two single hands
                return float(self.ehs_all(boards)[int(HOLDING_INDEX[hole[0], hole[1]])])
            value = self._cache[key] = hand_ehs(hole, board)
        return value

    def ehs_all(self, board: Sequence[Card]) -> np.ndarray:
        """The effective hand strength of every holding on ``board``, indexed by
        :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS` (NaN where a holding uses a board
        card); pre-flop the class equities."""
        if not board:
            return preflop_equity()
        boards = tuple(board)
        table = self._boards.get(boards)
        if table is None:
            if len(self._boards) >= 4:
                self._boards.clear()
            table = self._boards[boards] = board_ehs(board)
        return table


class EhsAbstraction(HoldemAbstraction):
    """EHS buckets for 52-card two-player hold'em with two hole cards."""

    def __init__(self, game: Game, schemes: Sequence[BucketScheme], kind: str) -> None:
        super().__init__(game)
        if len(schemes) != game.num_rounds or any(not 1 <= s.count <= MAX_BUCKETS for s in schemes):
            raise AbstractionError(f"one scheme of 1..{MAX_BUCKETS} buckets per round is needed")
        self.schemes = tuple(schemes)
        self.kind = kind

    @classmethod
    def create(cls, game: Game, count: int, kind: str = "width", source: EhsTables | None = None) -> EhsAbstraction:
        """``count`` buckets per round by ``kind`` (``percentile`` needs sampled ``source`` tables)."""
        if kind == "width":
            return cls(game, [BucketScheme.equal_width(count)] * game.num_rounds, kind)
        if kind != "percentile":
            raise AbstractionError(f"unknown bucket scheme {kind!r}: choose from {', '.join(SCHEMES)}")
        if source is None:
            raise AbstractionError("percentile buckets need sampled EHS tables")
        schemes = [BucketScheme.percentile(count, preflop_equity())]
        for r in range(3):
            values = source.ehs[:, r, :].astype(np.float64) / EHS_SCALE
            valid = source.strength >= 0
            schemes.append(BucketScheme.percentile(count, values[valid]))
        return cls(game, schemes, kind)

    @property
    def num_buckets(self) -> tuple[int, ...]:
        return tuple(s.count for s in self.schemes)

    def buckets_all(self, board: Sequence[Card], round_index: int) -> np.ndarray:
        visible = board[: self.game.board_start[round_index] + self.game.num_board_cards[round_index]]
        values = np.nan_to_num(self.ehs_all(visible), nan=0.0)
        if self.kind == "width":
            values = np.round(values * EHS_SCALE) / EHS_SCALE
        return self.schemes[round_index].buckets(values)

    def bucket(self, hole: Sequence[Card], board: Sequence[Card], round_index: int) -> int:
        visible = board[: self.game.board_start[round_index] + self.game.num_board_cards[round_index]]
        value = self.ehs(hole, visible)
        if self.kind == "width":  # quantised like the tables, so both agree at the edges
            value = round(value * EHS_SCALE) / EHS_SCALE
        return self.schemes[round_index].bucket(value)

    def spec(self) -> dict[str, Any]:
        return {"type": "ehs", "kind": self.kind, "edges": [list(s.edges) for s in self.schemes]}

    def deal_tables(self, source: EhsTables | DealTables | None = None) -> DealTables:
        if not isinstance(source, EhsTables):
            raise AbstractionError("hold'em deal tables need sampled EHS tables (build them first)")
        boards = source.boards
        num_boards = boards.shape[0]
        buckets = np.zeros((num_boards, 4, NUM_HOLDINGS), dtype=np.uint8)
        buckets[:, 0, :] = self.schemes[0].buckets(preflop_equity())[None, :]
        for r in range(3):
            values = source.ehs[:, r, :].astype(np.float64) / EHS_SCALE
            buckets[:, r + 1, :] = self.schemes[r + 1].buckets(values)
        return DealTables(
            boards=boards.astype(np.int64),
            hand_cards=HOLDINGS,
            hand_masks=HOLDING_MASKS,
            board_masks=card_masks(boards),
            buckets=buckets,
            strength=source.strength.astype(np.int32),
            num_buckets=np.array(self.num_buckets, dtype=np.int64),
            exhaustive=False,
        )


class ExactAbstraction(CardAbstraction):
    """One bucket per (hole cards, board so far): the abstract game is the game (small decks)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        deck = sorted(game.deck)
        self._hands = [tuple(h) for h in combinations(deck, game.num_hole_cards)]
        self._index: list[dict[tuple[tuple[int, ...], tuple[int, ...]], int]] = []
        for r in range(game.num_rounds):
            seen = game.board_start[r] + game.num_board_cards[r]
            table: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
            for hole in self._hands:
                rest = [c for c in deck if c not in hole]
                for board in permutations(rest, seen):
                    table[(hole, board)] = len(table)
            if len(table) > MAX_BUCKETS:
                raise AbstractionError(f"the game is too large for exact buckets ({len(table)} in round {r + 1})")
            self._index.append(table)

    @property
    def num_buckets(self) -> tuple[int, ...]:
        return tuple(len(t) for t in self._index)

    def bucket(self, hole: Sequence[Card], board: Sequence[Card], round_index: int) -> int:
        seen = self.game.board_start[round_index] + self.game.num_board_cards[round_index]
        return self._index[round_index][(tuple(sorted(hole)), tuple(board[:seen]))]

    def spec(self) -> dict[str, Any]:
        return {"type": "exact"}

    def deal_tables(self, source: EhsTables | DealTables | None = None) -> DealTables:
        game = self.game
        deck = sorted(game.deck)
        board_list = list(permutations(deck, game.total_board_cards))
        boards = np.array(board_list, dtype=np.int64).reshape(len(board_list), game.total_board_cards)
        hands = np.array(self._hands, dtype=np.int64)
        buckets = np.zeros((len(boards), game.num_rounds, len(hands)), dtype=np.uint8)
        strength = np.full((len(boards), len(hands)), -1, dtype=np.int32)
        for b, board in enumerate(boards):
            board_cards = tuple(int(c) for c in board)
            for h, hole in enumerate(self._hands):
                if set(hole) & set(board_cards):
                    continue
                for r in range(game.num_rounds):
                    buckets[b, r, h] = self.bucket(hole, board_cards, r)
                strength[b, h] = game.ranker(list(hole) + list(board_cards))
        # dense showdown ranks keep int32 enough whatever the ranker's scale
        valid = strength >= 0
        if valid.any():
            ranks = np.unique(strength[valid])
            strength[valid] = np.searchsorted(ranks, strength[valid]).astype(np.int32)
        return DealTables(
            boards=boards,
            hand_cards=hands,
            hand_masks=card_masks(hands),
            board_masks=card_masks(boards) if boards.shape[1] else np.zeros(len(boards), dtype=np.uint64),
            buckets=buckets,
            strength=strength,
            num_buckets=np.array(self.num_buckets, dtype=np.int64),
            exhaustive=True,
        )


DISTRIBUTION_FORMAT = "pokerbot.distribution-abstraction/1"
"""The ``format`` of a :meth:`DistributionAbstraction.save` file."""
KEPT_BOARDS = 8
"""Turn and river boards whose buckets a :class:`DistributionAbstraction` keeps (flops: every
canonical flop asked, at most 1,755 of 1,326 bytes)."""
BATCH = 64
"""Boards bucketed together when deal tables are made (their turns and rivers share the threads)."""


def _preflop() -> np.ndarray:
    table = class_of_holding().astype(np.uint8)
    table.setflags(write=False)
    return table


_PREFLOP = _preflop()
"""Pre-flop buckets of :class:`DistributionAbstraction`: the class of each holding."""


class DistributionAbstraction(HoldemAbstraction):
    """Distribution-aware buckets for 52-card two-player hold'em (after Johanson, Burch,
    Valenzuela and Bowling 2013):

    * pre-flop, the 169 hand classes (lossless): bucket ``c`` is class ``CLASSES[c]``;
    * flop and turn, each holding's equity distribution
      (:mod:`~pokerbot.strategies.card_abstraction.equity_distribution`: the law of its river
      equity against a random holding over the run-outs) summarised by :attr:`quantiles` slice
      means; the bucket is the nearest of the round's centroids (``flop``, ``turn``:
      ``[buckets, quantiles]``) in Euclidean distance, the 2-Wasserstein distance between the
      summarised distributions;
    * river, the river equity cut at ``river_edges``.

    A holding's bucket is computed on demand on any board, every holding of the board at once
    (:meth:`buckets_all`, kept: flops under their suit-canonical form, so isomorphic flops are
    computed once, and the last :data:`KEPT_BOARDS` turns and rivers), in the caller's thread.
    The centroids and edges are fitted by
    :func:`~pokerbot.strategies.card_abstraction.distribution.fit_distribution_abstraction`;
    :meth:`spec` holds them all, so a policy file rebuilds the abstraction alone.
    """

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

    def _flop(self, flop: Sequence[Card] | np.ndarray, parallel: bool = False) -> np.ndarray:
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
            "type": "distribution",
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
        return self.tables_on(source.boards.astype(np.int64), source.strength.astype(np.int32))

    def tables_on(
        self, boards: np.ndarray, strength: np.ndarray, progress: Callable[[int], None] | None = None
    ) -> DealTables:
        """The deal tables of five-card ``boards`` (``[board, 5]``) with their showdown
        ``strength`` (``[board, holding]``); ``progress(done)`` after each batch of boards. The
        work is shared among the threads (flops, then the turns and rivers of
        :data:`BATCH` boards at a time)."""
        buckets = np.zeros((boards.shape[0], 4, NUM_HOLDINGS), dtype=np.uint8)
        buckets[:, 0, :] = _PREFLOP[None, :]
        for start in range(0, boards.shape[0], BATCH):
            batch = boards[start : start + BATCH]
            for b in range(batch.shape[0]):
                buckets[start + b, 1] = self._flop(batch[b, :3], parallel=True)
            buckets[start : start + batch.shape[0], 2:] = self.later_buckets(batch)
            if progress is not None:
                progress(start + batch.shape[0])
        return DealTables(
            boards=boards,
            hand_cards=HOLDINGS,
            hand_masks=HOLDING_MASKS,
            board_masks=card_masks(boards),
            buckets=buckets,
            strength=strength,
            num_buckets=np.array(self.num_buckets, dtype=np.int64),
            exhaustive=False,
        )

    def save(self, path: str | Path) -> None:
        """Write the abstraction (centroids, edges and fitting meta) as a compressed ``.npz``."""
        with Path(path).open("wb") as handle:
            np.savez_compressed(
                handle,
                flop=self.flop,
                turn=self.turn,
                river_edges=np.array(self.river.edges),
                meta=json.dumps({"format": DISTRIBUTION_FORMAT, **self.meta}),
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
        if meta.pop("format", None) != DISTRIBUTION_FORMAT:
            raise AbstractionError(f"{path}: not a distribution abstraction file")
        return cls(game, flop, turn, edges.tolist(), meta)


def abstraction_from_spec(game: Game, spec: dict[str, Any]) -> CardAbstraction:
    """Rebuild the abstraction :meth:`CardAbstraction.spec` described."""
    kind = spec.get("type")
    if kind == "exact":
        return ExactAbstraction(game)
    if kind == "ehs":
        schemes = [BucketScheme(tuple(float(e) for e in edges)) for edges in spec["edges"]]
        return EhsAbstraction(game, schemes, str(spec["kind"]))
    if kind == "distribution":
        return DistributionAbstraction.from_spec(game, spec)
    raise AbstractionError(f"unknown card abstraction {kind!r}")


__all__ = [
    "SCHEMES",
    "AbstractionError",
    "BucketScheme",
    "CardAbstraction",
    "DistributionAbstraction",
    "EhsAbstraction",
    "ExactAbstraction",
    "HoldemAbstraction",
    "TablesError",
    "abstraction_from_spec",
]
