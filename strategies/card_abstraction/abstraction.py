"""Card abstractions: a hand's bucket in each round, for the abstract games the solvers play.

A :class:`CardAbstraction` maps a player's hole cards and the board seen so far to a
*bucket* in ``0 .. num_buckets[round] - 1``. Only the current round's bucket enters an
information set (imperfect recall, seed 001 section 3.3.2); earlier buckets are forgotten.

* :class:`HoldemAbstraction` (52-card hold'em): every holding of a board bucketed at once
  (``buckets_all``) and effective hand strength for the players' pot-odds rule, the base of
  :class:`EhsAbstraction` and the distribution-aware abstraction of
  :mod:`pokerbot.strategies.card_abstraction.distribution`.
* :class:`EhsAbstraction` (52-card hold'em): effective hand strength
  (:mod:`~pokerbot.protocol.analysis.ehs`) cut into buckets by a :class:`BucketScheme` per round:
  ``width`` (equal-width intervals of EHS, seed 001's 10-bucket discretisation: 0-0.1 is
  bucket 0, ...) or ``percentile`` (equal-frequency intervals: the edges are quantiles of
  EHS over all hands on the sampled boards, pre-flop over the 1326 hands, so each bucket
  holds about the same share of hands).
* :class:`ExactAbstraction` (small games such as Kuhn and Leduc): one bucket per
  combination of hole cards and board cards, so nothing is forgotten and the abstract game
  is the game itself.

:meth:`CardAbstraction.spec` is a JSON description that :func:`abstraction_from_spec`
rebuilds the abstraction from (policies carry it).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.ehs import board_ehs, hand_ehs
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDING_MASKS, HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.analysis.preflop import preflop_equity
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
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
    def deal_tables(self, source: EhsTables | None = None) -> DealTables:
        """The deal tables of the abstract game (hold'em: from sampled EHS ``source``; small decks
        list every board and ignore it)."""


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

    def deal_tables(self, source: EhsTables | None = None) -> DealTables:
        if source is None:
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

    def deal_tables(self, source: EhsTables | None = None) -> DealTables:
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


def abstraction_from_spec(game: Game, spec: dict[str, Any]) -> CardAbstraction:
    """Rebuild the abstraction :meth:`CardAbstraction.spec` described."""
    kind = spec.get("type")
    if kind == "exact":
        return ExactAbstraction(game)
    if kind == "ehs":
        schemes = [BucketScheme(tuple(float(e) for e in edges)) for edges in spec["edges"]]
        return EhsAbstraction(game, schemes, str(spec["kind"]))
    raise AbstractionError(f"unknown card abstraction {kind!r}")


__all__ = [
    "SCHEMES",
    "AbstractionError",
    "BucketScheme",
    "CardAbstraction",
    "EhsAbstraction",
    "ExactAbstraction",
    "HoldemAbstraction",
    "TablesError",
    "abstraction_from_spec",
]
