"""What the opponent showed: a Bayesian update of the model's range for each kind of action.

:class:`~.opponent.HoldingModel` says with what the opponent takes each action class from two
learnt things: how often (the action model's frequencies) and how much its actions follow its
strength (one link for all its decisions). Where the opponent takes an action rarely, both stay
near their priors: a player who bets only its strongest tenth on the river, modelled as betting
40 % there, is given a betting range of the strongest 40 %, and is paid off.

:class:`ShownRanges` corrects that range from the showdowns. For every kind of decision (the
round, the action class, and whether there was a bet to call) it keeps how the holdings the
opponent showed after taking it ranked among the holdings the model gave it there: their
percentile ``q`` by strength (the same mid-rank percentile the model shapes its table by), in
:data:`BINS` equal bins. The model's table for that class, read as a distribution over the bins
(``pi[b]``: the share of the class's probability mass in bin ``b``), is the prior, with the
weight of :data:`PRIOR_WEIGHT` showdowns; the posterior after ``n[b]`` shown holdings in bin
``b`` (``n`` in all) is ``(PRIOR_WEIGHT * pi[b] + n[b]) / (PRIOR_WEIGHT + n)`` (the Dirichlet
update of the bins' shares), so that after as many showdowns as the prior weighs, what was shown
counts half. Each holding's probability of the class is then rescaled by its bin's posterior
over prior share, so that the range after it has the posterior's shape: the class's frequency
kept, or lowered as far as the shape needs to fit (no bin's probability above 1), and the
other classes share what is left, in their proportions for that holding (in their frequencies
where they gave it nothing). A class never shown keeps the model's
table.

Showdowns are a biased sample: a bet that was folded to shows nothing, so a player who bluffs
and value-bets is seen with its value bets. The prior weight and the model's own frequencies
keep the bluffs the update cannot see from disappearing at once; the restricted response
(:mod:`.exploiter`) keeps part of every solve against a free opponent.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from pokerbot.models.action_classes import ActionClass
from pokerbot.protocol.hand import HandState

BINS = 10
"""Equal bins of the percentile ``q`` (tenths of the range, weakest first)."""
PRIOR_WEIGHT = 5.0
"""The model's table counts as this many showdowns of each kind of decision."""

Key = tuple[int, ActionClass, bool]
"""A kind of decision: the round, the action class taken, whether there was a bet to call."""


def decision_key(state: HandState, taken: ActionClass) -> Key:
    """The kind of the decision at ``state`` (the player to act's) where ``taken`` was chosen."""
    player = state.current_player
    facing = player is not None and max(state.spent) > state.spent[player]
    return (state.round, taken, facing)


class ShownRanges:
    """The bins of the shown holdings' percentiles per kind of decision (module docstring)."""

    def __init__(self, prior_weight: float = PRIOR_WEIGHT, bins: int = BINS) -> None:
        if prior_weight <= 0.0 or bins < 1:
            raise ValueError("the prior weight is positive and there is at least one bin")
        self.prior_weight = prior_weight
        self.bins = bins
        self.counts: dict[Key, np.ndarray] = {}

    def add(self, state: HandState, taken: ActionClass, percentile: float) -> None:
        """One shown decision: at ``state`` the opponent took ``taken`` with a holding at
        ``percentile`` (in [0, 1]) among the holdings the model gave it there."""
        key = decision_key(state, taken)
        found = self.counts.get(key)
        if found is None:
            found = self.counts[key] = np.zeros(self.bins)
        found[self._bin(np.array([percentile]))[0]] += 1.0

    def shown(self, state: HandState, taken: ActionClass) -> int:
        """How many holdings were shown after ``taken`` at decisions of the kind of ``state``."""
        found = self.counts.get(decision_key(state, taken))
        return 0 if found is None else int(found.sum())

    def _bin(self, percentiles: np.ndarray) -> np.ndarray:
        return np.minimum((percentiles * self.bins).astype(np.int64), self.bins - 1)

    def reshape(
        self,
        state: HandState,
        percentiles: np.ndarray,
        reach: np.ndarray,
        table: Mapping[ActionClass, np.ndarray],
    ) -> dict[ActionClass, np.ndarray]:
        """The model's ``table`` (each legal class's probability for every holding) after the
        update of every class shown at decisions of the kind of ``state`` (module docstring);
        ``percentiles`` and ``reach``: each holding's percentile and weight in the range the
        model gives the opponent there (0 for holdings it cannot hold)."""
        out = {c: np.asarray(p, dtype=np.float64) for c, p in table.items()}
        total = float(reach.sum())
        if total <= 0.0:
            return out
        bins = self._bin(percentiles)
        mass = np.bincount(bins, weights=reach, minlength=self.bins) / total
        updated: list[ActionClass] = []
        for c, probability in table.items():
            counts = self.counts.get(decision_key(state, c))
            if counts is None or counts.sum() <= 0.0:
                continue
            weighted = np.bincount(bins, weights=reach * probability, minlength=self.bins) / total
            frequency = float(weighted.sum())
            if frequency <= 0.0:
                prior = mass.copy()  # the model never takes it here: any holding alike
                frequency = 1.0 / len(table)
            else:
                prior = weighted / frequency
            posterior = (self.prior_weight * prior + counts) / (self.prior_weight + counts.sum())
            average = np.divide(weighted, mass, out=np.zeros(self.bins), where=mass > 0.0)
            target = np.divide(frequency * posterior, mass, out=np.zeros(self.bins), where=mass > 0.0)
            target /= max(1.0, float(target.max()))  # no bin above all of its holdings
            scale = np.divide(target, average, out=np.zeros(self.bins), where=average > 0.0)
            flat = np.where(average > 0.0, 0.0, target)  # bins the prior left empty: the target, flat
            out[c] = np.minimum(probability * scale[bins] + flat[bins], 1.0)
            updated.append(c)
        if not updated:
            return out
        mine = sum(out[c] for c in updated)
        others = [c for c in out if c not in updated]
        rest = sum((out[c] for c in others), np.zeros_like(mine))
        over = mine > 1.0
        for c in updated:
            out[c] = np.where(over, out[c] / np.where(over, mine, 1.0), out[c])
        mine = np.minimum(mine, 1.0)
        # the other classes take what is left: in their proportions for the holding, or where
        # they gave it nothing (a threshold of the link), in their frequencies
        frequencies = {c: float(reach @ out[c]) / total for c in others}
        overall = sum(frequencies.values())
        for c in others:
            spread = frequencies[c] / overall if overall > 0.0 else 0.0
            share = np.where(rest > 0.0, out[c] / np.where(rest > 0.0, rest, 1.0), spread)
            out[c] = share * (1.0 - mine)
        if overall <= 0.0:
            short = (rest <= 0.0) & (mine > 0.0)
            for c in updated:  # no other class to take what is left: the shown ones take it
                out[c] = np.where(short, out[c] / np.where(short, mine, 1.0), out[c])
        return out


__all__ = ["BINS", "PRIOR_WEIGHT", "ShownRanges", "decision_key"]
