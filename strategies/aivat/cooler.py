"""Cooler terms for AIVAT's value in no-limit hold'em: the money that goes in when both hands are strong.

With both players holding strong hands (a *cooler*) the pot tends to grow to the stacks
whoever is ahead, which the stake value's equity edge times the betting terms only partly
says. :func:`cooler_expectations` gives, for position 0 and the cards dealt so far,
``E[w 1{the loser's final hand is at least a pair}]``, ``E[w 1{... at least two pair}]``,
``E[w 1{the winner's final hand is at least two pair}]`` and ``E[w 1{... at least three of a
kind}]`` (``w`` = +1 when position 0 wins the showdown, -1 when it loses, 0 on a tie): every
run-out after the flop, a seeded sample of boards pre-flop (as the equity value's). Being
expectations over the run-outs they are chance-consistent, like the equity.
:class:`CoolerTerms` values a hand in progress at the first two times the chips behind, a
coefficient per round (fitted with the look-ahead value, ``docs/aivat.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from pokerbot.protocol.analysis.holdings import holding_index
from pokerbot.protocol.analysis.showdown import rank_hand, showdown_arrays
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.aivat.values import VALUE_PREFLOP_BOARDS

COOLER_LOSER = (1, 2)
"""The loser's hand categories of the ``--cooler`` features: at least a pair, at least two pair."""
COOLER_WINNER = (2, 3)
"""The winner's hand categories of the ``--cooler`` features: at least two pair, at least trips."""
COOLER_FEATURES = len(COOLER_LOSER) + len(COOLER_WINNER)
"""The four expectations of :func:`cooler_expectations`."""


@njit(cache=True)
def _cooler_score(first: np.ndarray, second: np.ndarray, out: np.ndarray) -> None:
    a, b = rank_hand(first, 7), rank_hand(second, 7)
    if a != b:
        w = 1.0 if a > b else -1.0
        loser = (b if a > b else a) >> 20  # the hand category (rank_hand packs it above 20 bits)
        winner = (a if a > b else b) >> 20
        for k in range(len(COOLER_LOSER)):
            if loser >= COOLER_LOSER[k]:
                out[k] += w
        for k in range(len(COOLER_WINNER)):
            if winner >= COOLER_WINNER[k]:
                out[len(COOLER_LOSER) + k] += w


@njit(cache=True)
def _cooler_kernel(hole0: np.ndarray, hole1: np.ndarray, board: np.ndarray, levels: int, samples: int, seed: int):
    """``E[w 1{loser >= k}]`` for k = 1..levels: every run-out after the flop, else ``samples``
    boards drawn from ``seed`` (the equity value's pre-flop boards)."""
    first, second, remaining, left = showdown_arrays(hole0, hole1, board)
    known = board.shape[0]
    out = np.zeros(levels)
    missing, count = 5 - known, 0
    if missing == 0:
        _cooler_score(first, second, out)
        return out
    if missing <= 2:
        for i in range(left):
            first[7 - missing] = second[7 - missing] = remaining[i]
            if missing == 1:
                _cooler_score(first, second, out)
                count += 1
                continue
            for j in range(i + 1, left):
                first[6] = second[6] = remaining[j]
                _cooler_score(first, second, out)
                count += 1
        return out / count
    np.random.seed(seed)
    for _ in range(samples):
        for k in range(missing):
            pick = k + np.random.randint(0, left - k)
            remaining[k], remaining[pick] = remaining[pick], remaining[k]
            first[2 + known + k] = second[2 + known + k] = remaining[k]
        _cooler_score(first, second, out)
    return out / samples


def cooler_expectations(holes: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> np.ndarray:
    """The ``--cooler`` expectations for position 0 (antisymmetric: exchanging the holdings
    negates them; pre-flop the pair of holdings seeds the boards, as the equity does)."""
    if len(board) >= 3:
        return _cooler_kernel(
            np.array(holes[0]), np.array(holes[1]), np.array(board, dtype=np.int64), COOLER_FEATURES, 0, 0
        )
    low, high = holding_index(holes[0]), holding_index(holes[1])
    ordered = (holes[1], holes[0]) if low > high else (holes[0], holes[1])
    seed = ((min(low, high) * 1326 + max(low, high)) * 7919) % (2**31)
    out = _cooler_kernel(
        np.array(ordered[0]),
        np.array(ordered[1]),
        np.array(board, dtype=np.int64),
        COOLER_FEATURES,
        VALUE_PREFLOP_BOARDS,
        seed,
    )
    return -out if low > high else out


COOLER_TERMS = len(COOLER_LOSER)
""":class:`CoolerTerms`' features a round: the loser's hand at least a pair, at least two pair."""


class CoolerTerms:
    """``sum_k d_(r,k) E[w 1{loser >= k}] * behind`` for a hand in progress in round ``r``
    (chips behind = the stack less the larger amount put in), 0 for a finished one or before
    the deal: position 0's value part from coolers (module docstring). ``coefficients``: a
    row per round, (at least a pair, at least two pair)."""

    chance_consistent = True

    def __init__(self, game: Game, coefficients: Sequence[float]) -> None:
        if len(coefficients) != COOLER_TERMS * game.num_rounds:
            raise ValueError(
                f"the cooler terms take {COOLER_TERMS * game.num_rounds} coefficients, got {len(coefficients)}"
            )
        self.game = game
        self.coefficients = np.asarray(coefficients, dtype=float)
        self._scores: dict[tuple[object, ...], np.ndarray] = {}

    def scores(self, holes: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> np.ndarray:
        """:func:`cooler_expectations` (remembered for the next question)."""
        key = (holes, board)
        scores = self._scores.get(key)
        if scores is None:
            if len(self._scores) > 65536:
                self._scores.clear()
            scores = self._scores[key] = cooler_expectations(holes, board)
        return scores

    def features(self, state: HandState) -> np.ndarray:
        """The terms of every round (zeros but the current round's), chips."""
        out = np.zeros(COOLER_FEATURES * self.game.num_rounds)
        holes = state.hole_cards
        if state.finished or holes[0] is None or holes[1] is None:
            return out
        behind = float(self.game.stacks[0] - max(state.spent))
        start = COOLER_FEATURES * state.round
        out[start : start + COOLER_FEATURES] = self.scores((holes[0], holes[1]), tuple(state.board_cards)) * behind
        return out

    def value(self, state: HandState) -> float:
        """Position 0's cooler part of the value of ``state`` (chips)."""
        features = self.features(state).reshape(self.game.num_rounds, COOLER_FEATURES)[:, :COOLER_TERMS]
        return float(self.coefficients @ features.ravel())


__all__ = ["COOLER_FEATURES", "COOLER_TERMS", "CoolerTerms", "cooler_expectations"]
