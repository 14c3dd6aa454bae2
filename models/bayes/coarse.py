"""A model learnt on coarse classes, seen through a finer slot numbering.

Models averaged by :class:`~models.bayes.mixture.MixtureModel` must share one slot
numbering, but a hypothesis may tie many information sets together - e.g. "the opponent's
play does not depend on its cards" (:func:`~protocol.infosets.betting_class`), which learns
several times faster than a model per information set when it is true. A
:class:`CoarsenedModel` learns with its inner model's coarse classes and reports its
policies in the fine numbering, every fine class copying its coarse class.
"""

from __future__ import annotations

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.errors import PriorError
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.slots import SlotIndex


class CoarsenedModel(OpponentModel):
    """``inner`` (coarse classes) exposed in the finer slot numbering ``index``."""

    def __init__(self, inner: OpponentModel, index: SlotIndex) -> None:
        self.inner = inner
        self.index = index
        self.rng = inner.rng
        slots = np.empty(index.num_slots, dtype=np.int64)
        for number, name in enumerate(index.classes):
            chars, span = inner.index.class_slots(index.members[name][0])
            if chars != index.class_actions[number]:
                raise PriorError(
                    f"class {name!r}: the coarse class allows {chars!r}, not {index.class_actions[number]!r}"
                )
            start = int(index.class_start[number])
            slots[start : start + len(chars)] = np.arange(span.start, span.stop)
        self.slot_map = slots
        """Inner slot of every fine slot."""

    @property
    def hands_seen(self) -> int:  # type: ignore[override]
        """Hands learnt by the inner model."""
        return self.inner.hands_seen

    def learn_record(self, record: HandRecord) -> None:
        """The inner model learns the hand."""
        self.inner.learn_record(record)

    def log_predictive(self, record: HandRecord) -> float:
        """The inner model's predictive log probability."""
        return self.inner.log_predictive(record)

    def learn_and_score(self, record: HandRecord) -> float:
        """The inner model's :meth:`~models.bayes.base.OpponentModel.learn_and_score`."""
        return self.inner.learn_and_score(record)

    def _fine(self, sample: PosteriorSample) -> PosteriorSample:
        return PosteriorSample(sample.policies[:, self.slot_map], sample.weights)

    def posterior(self) -> PosteriorSample:
        """The inner posterior in fine slots."""
        return self._fine(self.inner.posterior())

    def expectation_set(self) -> PosteriorSample:
        """The inner expectation set in fine slots."""
        return self._fine(self.inner.expectation_set())

    def sample(self) -> np.ndarray:
        """An inner draw in fine slots."""
        return self.inner.sample()[self.slot_map]

    def map_array(self) -> np.ndarray:
        """The inner MAP policy in fine slots."""
        return self.inner.map_array()[self.slot_map]


__all__ = ["CoarsenedModel"]
