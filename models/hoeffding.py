"""The two opponent models: what the opponent will do, and what it holds at a showdown.

* :class:`ActionModel` predicts the opponent's next action class
  (:class:`~models.action_classes.ActionClass`) from an action context
  (:func:`~models.features.action_context`), giving probability only to the classes legal
  there.
* :class:`HandStrengthModel` predicts the bin of the opponent's hand strength at a showdown
  (percentile rank on the final board, :data:`~models.handstrength.STRENGTH_BINS` bins)
  from a showdown context (:func:`~models.features.showdown_context`), and answers
  :meth:`HandStrengthModel.prob_beats`: the probability that the opponent's hand beats a
  hand of strength ``x``, taking strengths as uniform within a bin (thesis ch. 5.3).

Both have the river interface (``learn_one(x, y)``, ``predict_proba_one(x)``), learn a whole
hand with ``learn_hand(final_view)``, and are :class:`~models.blended.BlendedClassifier`
blends of a frozen prior tree with opponent-specific estimates (configuration:
:class:`~models.config.ModelConfig`). A prior comes from :mod:`pokerbot.models.prior`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from pokerbot.models.action_classes import NUM_CLASSES, ActionClass
from pokerbot.models.blended import BlendedClassifier
from pokerbot.models.config import STRENGTH_CONFIG, ModelConfig
from pokerbot.models.features import ACTION_FEATURES, SHOWDOWN_FEATURES, action_rows, showdown_rows
from pokerbot.models.frozen import FrozenTree
from pokerbot.models.handstrength import STRENGTH_BINS, strength_bin
from pokerbot.protocol.wire import MatchState


def _call_bucket(to_call: float) -> int:
    """0: nothing to call; 1: up to a third of the pot; 2: more."""
    return 0 if to_call <= 0.0 else 1 if to_call <= 1.0 / 3.0 else 2


def action_levels(x: Mapping[str, float], legal: int) -> tuple[Hashable, ...]:
    """Coarse contexts of an action, coarsest first: the legal classes; then the stage; then
    the aggression so far this round and the position; then the others' last action and
    the size of the bet faced."""
    first = (legal,)
    second = (legal, x["stage"])
    third = (*second, min(x["bets_other"], 2), min(x["bets_actor"], 1), x["button"])
    fourth = (*third, x["last_other"], x["last_actor"], _call_bucket(x["to_call"]))
    return first, second, third, fourth


def showdown_levels(x: Mapping[str, float], legal: int) -> tuple[Hashable, ...]:
    """Coarse contexts of a showdown, coarsest first: all showdowns, then the player's
    bets and raises in the hand, then its late aggression and last action."""
    bets = min(x["bets_actor"], 3)
    return (), (bets,), (bets, min(x["late_bets_actor"], 1), x["last_actor"])


def _players(opponent: int | None) -> Iterable[int] | None:
    return None if opponent is None else (opponent,)


class ActionModel(BlendedClassifier):
    """P(opponent's action class | action context). Classes are :class:`ActionClass` values."""

    def __init__(self, prior: FrozenTree | None = None, config: ModelConfig | None = None) -> None:
        super().__init__(NUM_CLASSES, ACTION_FEATURES, action_levels, prior, config)

    def predict_proba_one(self, x: Mapping[str, float]) -> Mapping[int, float]:
        """``{ActionClass: probability}`` over the classes legal in ``x`` (its ``"legal"``
        mask; every class when it has none). Read-only, cached."""
        return super().predict_proba_one(x)

    def learn_hand(self, final_view: MatchState, opponent: int | None = None) -> int:
        """Learn every decision of ``opponent`` (default: every other player) in a finished
        hand as the receiving player saw it; returns the decisions learnt."""
        rows = action_rows(final_view.state, final_view.position, _players(opponent))
        for row in rows:
            self.learn_one(row.x, row.y)
        return len(rows)

    @staticmethod
    def classes() -> tuple[ActionClass, ...]:
        """The classes, in vector order."""
        return tuple(ActionClass)


class HandStrengthModel(BlendedClassifier):
    """P(opponent's showdown hand-strength bin | showdown context), and P(it beats ``x``).

    Without a ``config`` it uses :data:`~models.config.STRENGTH_CONFIG`."""

    def __init__(
        self, prior: FrozenTree | None = None, config: ModelConfig | None = None, bins: int = STRENGTH_BINS
    ) -> None:
        super().__init__(bins, SHOWDOWN_FEATURES, showdown_levels, prior, config or STRENGTH_CONFIG)
        self.bins = bins

    def learn_hand(self, final_view: MatchState, opponent: int | None = None) -> int:
        """Learn the revealed hand strength of ``opponent`` (default: every other player) at
        the showdown of a finished hand; returns the hands learnt (0 without a showdown)."""
        rows = showdown_rows(final_view.state, final_view.position, _players(opponent))
        for row in rows:
            self.learn_one(row.x, row.y)
        return len(rows)

    def prob_beats(self, x: Mapping[str, float], strength: float) -> float:
        """Probability that the opponent's hand is stronger than a hand of ``strength``
        (percentile rank in [0, 1]) in showdown context ``x``; strengths are taken as
        uniform within each bin."""
        vector = self.predict_vector(x)
        index = strength_bin(strength, self.bins)
        upper = (index + 1) / self.bins
        above = sum(vector[index + 1 :])
        return above + vector[index] * max(0.0, upper - strength) * self.bins


__all__ = ["ActionModel", "HandStrengthModel", "action_levels", "showdown_levels"]
