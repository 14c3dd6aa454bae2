"""Exact expectations of a small game's hands (Kuhn, Leduc): every deal, every action.

AIVAT's unbiasedness and its variance are checked where they can be computed exactly: over
the whole distribution of finished hands that two strategies produce. :func:`finished_hands`
enumerates it (every deal of the deck, every action each player takes with positive
probability, weighted by its probability); :func:`aivat_moments` gives the mean and the
standard deviation of the plain outcome and of the AIVAT estimate over it. The tests and
``benchmarks/research/aivat_exact.py`` share them. Only for small decks: Leduc has 120 deals of hole
cards and 4 boards each.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.aivat.aivat import Aivat, Oracle
from pokerbot.strategies.base import Strategy


def finished_hands(game: Game, players: Sequence[Strategy]) -> list[tuple[float, HandState]]:
    """Every finished hand of ``game`` with its probability when ``players`` play the two
    positions (every deal equally likely; at each decision every action the player to act
    gives a positive probability)."""
    out = []
    holdings = list(itertools.combinations(game.deck, game.num_hole_cards))
    for first in holdings:
        others = [h for h in holdings if not set(h) & set(first)]
        for second in others:
            rest = [c for c in game.deck if c not in first and c not in second]
            boards = list(itertools.permutations(rest, game.total_board_cards))
            deal = 1.0 / (len(holdings) * len(others) * len(boards))
            for board in boards:
                stack = [(HandState(game, [first, second], board), deal)]
                while stack:
                    state, p = stack.pop()
                    if state.finished:
                        out.append((p, state))
                        continue
                    position = state.current_player
                    assert position is not None
                    view = MatchState(position, 0, state.view(position))
                    for action, q in players[position].action_probabilities(view).items():
                        if q > 0.0:
                            child = state.copy()
                            child.apply(action)
                            stack.append((child, p * q))
    return out


@dataclass(frozen=True)
class AivatMoments:
    """Exact means and standard deviations over a distribution of hands, in chips per hand
    for position 0: the plain outcome and the AIVAT estimate."""

    outcome_mean: float
    estimate_mean: float
    outcome_sd: float
    estimate_sd: float

    @property
    def sd_ratio(self) -> float:
        """AIVAT's standard deviation over the plain outcome's (below 1: variance removed)."""
        return self.estimate_sd / self.outcome_sd


def aivat_moments(
    aivat: Aivat,
    hands: Sequence[tuple[float, HandState]],
    oracles: Mapping[int, Oracle],
    imagined: Collection[int] | None = None,
) -> AivatMoments:
    """The moments of position 0's outcome and AIVAT estimate over ``hands`` (probability,
    finished hand), the players of ``oracles``' positions known (those of ``imagined``, by
    default all, imagined where ``aivat`` imagines)."""
    mean_u = mean_a = square_u = square_a = 0.0
    walks: dict[tuple[object, ...], object] = {}
    for p, state in hands:
        estimate = aivat.hand(state, 0, oracles, imagined, walks=walks)
        mean_u += p * estimate.outcome
        mean_a += p * estimate.value
        square_u += p * estimate.outcome**2
        square_a += p * estimate.value**2
    return AivatMoments(
        mean_u, mean_a, math.sqrt(max(square_u - mean_u**2, 0.0)), math.sqrt(max(square_a - mean_a**2, 0.0))
    )


__all__ = ["AivatMoments", "aivat_moments", "finished_hands"]
