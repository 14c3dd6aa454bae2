"""Prequential evaluation of opponent models (thesis ch. 5.4): predict, score, then learn.

For every finished hand, in order, every decision of the opponent is predicted by each
model *before* the model learns that hand, and scored with the quadratic loss
``sum_k (p_k - a_k)^2`` (``a`` the one-hot outcome; classes illegal in the context have
``p_k = a_k = 0``) and with accuracy (the most probable class is the one taken). Revealed
showdown hands score the hand-strength prediction over the bins the same way. Then the
adapting models learn the hand (the prior-only models never learn).

:func:`prequential` returns a :class:`Report` with the scores per block of ``every`` hands
and overall, for each named model pair (e.g. ``prior`` and ``adapting``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pokerbot.models.features import action_rows, showdown_rows
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.protocol.wire import MatchState


@dataclass
class Totals:
    """Sums of scores over some decisions and showdowns."""

    decisions: int = 0
    action_loss: float = 0.0
    correct: int = 0
    showdowns: int = 0
    strength_loss: float = 0.0

    def add(self, other: Totals) -> None:
        """Add ``other``'s sums to these."""
        self.decisions += other.decisions
        self.action_loss += other.action_loss
        self.correct += other.correct
        self.showdowns += other.showdowns
        self.strength_loss += other.strength_loss

    def summary(self) -> dict[str, float | int | None]:
        """Mean quadratic losses and accuracy (None where there was nothing to score)."""
        return {
            "decisions": self.decisions,
            "action_loss": self.action_loss / self.decisions if self.decisions else None,
            "accuracy": self.correct / self.decisions if self.decisions else None,
            "showdowns": self.showdowns,
            "strength_loss": self.strength_loss / self.showdowns if self.showdowns else None,
        }


@dataclass
class Block:
    """The scores of hands ``first .. last`` (0-based, inclusive), by model name."""

    first: int
    last: int
    scores: dict[str, Totals] = field(default_factory=dict)


@dataclass
class Report:
    """Scores per block of hands and overall, by model name."""

    every: int
    blocks: list[Block] = field(default_factory=list)
    overall: dict[str, Totals] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "every": self.every,
            "overall": {name: totals.summary() for name, totals in self.overall.items()},
            "blocks": [
                {
                    "first_hand": b.first,
                    "last_hand": b.last,
                    **{name: totals.summary() for name, totals in b.scores.items()},
                }
                for b in self.blocks
            ],
        }


def quadratic_loss(proba: Mapping[int, float], outcome: int) -> float:
    """``sum_k (p_k - a_k)^2`` over the classes of ``proba`` and the outcome."""
    loss = sum((p - (1.0 if k == outcome else 0.0)) ** 2 for k, p in proba.items())
    if outcome not in proba:
        loss += 1.0
    return loss


def _score_hand(
    view: MatchState, models: Mapping[str, tuple[ActionModel, HandStrengthModel]], opponent: int | None
) -> tuple[dict[str, Totals], list, list]:
    players = None if opponent is None else (opponent,)
    actions = action_rows(view.state, view.position, players)
    showdowns = showdown_rows(view.state, view.position, players)
    scores: dict[str, Totals] = {}
    for name, (action_model, strength_model) in models.items():
        totals = Totals()
        for row in actions:
            proba = action_model.predict_proba_one(row.x)
            totals.decisions += 1
            totals.action_loss += quadratic_loss(proba, row.y)
            totals.correct += int(max(proba, key=proba.__getitem__) == row.y)
        for shown in showdowns:
            totals.showdowns += 1
            totals.strength_loss += quadratic_loss(strength_model.predict_proba_one(shown.x), shown.y)
        scores[name] = totals
    return scores, actions, showdowns


def prequential(
    views: Iterable[MatchState],
    models: Mapping[str, tuple[ActionModel, HandStrengthModel]],
    every: int = 50,
    opponent: int | None = None,
) -> Report:
    """Score ``models`` (name to (action, hand-strength) model) on the finished ``views`` in
    order, each model learning every hand after it is scored (see the module docstring).
    ``opponent`` is the position modelled (None: every other player)."""
    if every < 1:
        raise ValueError(f"every must be positive, got {every}")
    report = Report(every, overall={name: Totals() for name in models})
    block: Block | None = None
    for index, view in enumerate(views):
        if block is None or index - block.first >= every:
            block = Block(index, index, {name: Totals() for name in models})
            report.blocks.append(block)
        block.last = index
        scores, actions, showdowns = _score_hand(view, models, opponent)
        for name, totals in scores.items():
            block.scores[name].add(totals)
            report.overall[name].add(totals)
        for action_model, strength_model in models.values():
            for row in actions:
                action_model.learn_one(row.x, row.y)
            for row in showdowns:
                strength_model.learn_one(row.x, row.y)
    return report


__all__ = ["Block", "Report", "Totals", "prequential", "quadratic_loss"]
