"""Deal tables: the chance model of an abstract game, as arrays the solvers sample from.

A :class:`DealTables` holds a set of full boards and every hole-card hand, and for each
board, round and hand the hand's bucket in that round (``buckets[board, round, hand]``) and
its showdown strength on the full board (``strength[board, hand]``, larger wins). A deal is
a board drawn uniformly and two disjoint hands drawn uniformly among the hands that miss
the board: for a game whose boards are all listed (Kuhn, Leduc: ``exhaustive``) this is
exactly the game's dealing; in hold'em the boards are a seeded sample (every hand pair is
still dealt on each of them).

Hold'em tables are made in two steps: :func:`build_ehs_tables` computes the effective hand
strength of every hand on every sampled board (the slow part, about 0.1 s a board; saved
with :meth:`EhsTables.save`), and :meth:`CardAbstraction.deal_tables
<pokerbot.strategies.card_abstraction.abstraction.CardAbstraction.deal_tables>` turns it into buckets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba as nb
import numpy as np

from pokerbot.protocol.analysis.ehs import board_ehs
from pokerbot.protocol.analysis.holdings import NUM_HOLDINGS
from pokerbot.protocol.analysis.showdown import rank_holdings
from pokerbot.protocol.analysis.splitmix import new_rng, next_below

EHS_SCALE = 65535
"""EHS is stored as ``round(ehs * EHS_SCALE)`` in ``uint16``."""


class TablesError(ValueError):
    """A deal-tables file is missing, corrupt or made for other settings."""


@dataclass(frozen=True, eq=False)
class DealTables:
    """Boards, hands, buckets and showdown strengths (see the module docstring)."""

    boards: np.ndarray
    """``[board, card]`` every board card in dealing order (int64)."""
    hand_cards: np.ndarray
    """``[hand, card]`` each hole-card hand (int64)."""
    hand_masks: np.ndarray
    """``[hand]`` card bits of each hand (uint64)."""
    board_masks: np.ndarray
    """``[board]`` card bits of each board (uint64)."""
    buckets: np.ndarray
    """``[board, round, hand]`` bucket (uint8)."""
    strength: np.ndarray
    """``[board, hand]`` showdown strength on the full board, larger wins (int32; -1 where the hand hits the board)."""
    num_buckets: np.ndarray
    """``[round]`` buckets per round (int64)."""
    exhaustive: bool
    """True when ``boards`` lists every possible board once (the deal distribution is exact)."""

    @property
    def num_boards(self) -> int:
        """Boards in the table."""
        return int(self.boards.shape[0])


@dataclass(frozen=True, eq=False)
class EhsTables:
    """EHS of every hand on sampled hold'em boards, per post-flop round."""

    boards: np.ndarray
    """``[board, 5]`` cards (int64)."""
    ehs: np.ndarray
    """``[board, round - 1, hand]`` quantised EHS on the flop, turn and river (uint16, see :data:`EHS_SCALE`)."""
    strength: np.ndarray
    """``[board, hand]`` showdown strength (int32, -1 where the hand hits the board)."""
    seed: int

    def save(self, path: Path) -> None:
        """Write the tables as a compressed ``.npz``."""
        with path.open("wb") as handle:
            np.savez_compressed(handle, boards=self.boards, ehs=self.ehs, strength=self.strength, seed=self.seed)

    @classmethod
    def load(cls, path: Path) -> EhsTables:
        """Read tables written by :meth:`save`; :class:`TablesError` if unreadable."""
        try:
            with np.load(path) as data:
                tables = cls(data["boards"], data["ehs"], data["strength"], int(data["seed"]))
        except (OSError, KeyError, ValueError) as error:
            raise TablesError(f"{path}: not an EHS tables file ({error})") from None
        if tables.ehs.shape[1:] != (3, NUM_HOLDINGS) or tables.boards.shape[1] != 5:
            raise TablesError(f"{path}: EHS tables of the wrong shape {tables.ehs.shape}")
        return tables


def sample_boards(count: int, seed: int) -> np.ndarray:
    """``count`` uniform five-card boards (``int64[count, 5]``, dealing order) from ``seed``:
    the boards of :func:`build_ehs_tables` with that seed."""
    return _sample_boards(count, new_rng(seed))


@nb.njit(cache=True)
def _sample_boards(count: int, state: np.ndarray) -> np.ndarray:
    boards = np.empty((count, 5), dtype=np.int64)
    deck = np.arange(52)
    for b in range(count):
        for i in range(5):
            j = i + next_below(state, 52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        boards[b] = deck[:5]
    return boards


def build_ehs_tables(num_boards: int, seed: int = 0, progress: Callable[[int], None] | None = None) -> EhsTables:
    """EHS and showdown strength of every hand on ``num_boards`` seeded random boards.

    ``progress(done)`` is called after each board.
    """
    if num_boards < 1:
        raise TablesError(f"need at least one board, got {num_boards}")
    boards = sample_boards(num_boards, seed)
    ehs = np.zeros((num_boards, 3, NUM_HOLDINGS), dtype=np.uint16)
    strength = np.zeros((num_boards, NUM_HOLDINGS), dtype=np.int32)
    for b in range(num_boards):
        for r, size in enumerate((3, 4, 5)):
            values = board_ehs(boards[b, :size])
            ehs[b, r] = np.rint(np.nan_to_num(values, nan=0.0) * EHS_SCALE).astype(np.uint16)
        strength[b] = rank_holdings(boards[b])
        if progress is not None:
            progress(b + 1)
    return EhsTables(boards, ehs, strength, seed)


def card_masks(cards: np.ndarray) -> np.ndarray:
    """Card bits (uint64) of each row of ``cards``."""
    masks = np.zeros(cards.shape[0], dtype=np.uint64)
    for column in range(cards.shape[1]):
        masks |= np.left_shift(np.uint64(1), cards[:, column].astype(np.uint64))
    return masks


__all__ = ["EHS_SCALE", "DealTables", "EhsTables", "TablesError", "build_ehs_tables", "card_masks", "sample_boards"]
