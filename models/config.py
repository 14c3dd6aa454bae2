"""Configuration of the opponent models and of prior training, and the river tree factory.

Every knob is a constructor argument (a frozen pydantic model), so a model's behaviour is
fixed by its configuration and seed. The defaults were chosen on the model-learning
experiment (``pokerbot experiment model-learning``; see ``docs/models.md``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from river import tree as river_tree

TreeKind = Literal["hoeffding", "adaptive"]
"""``hoeffding``: river's HoeffdingTreeClassifier; ``adaptive``: HoeffdingAdaptiveTreeClassifier
(ADWIN drift detectors swap in alternate subtrees when the data changes)."""


class ModelConfig(BaseModel):
    """How an adapting model blends its prior with what it learns about one opponent.

    The components mixed (see :mod:`pokerbot.models.blended`): the frozen prior tree; the prior
    refined by the opponent's decayed class counts in coarse contexts (Dirichlet backoff),
    once per memory length in ``decays``; and a fresh river tree grown on the opponent's
    data alone. Mixture weights
    follow each component's log loss online (exponential weights with fixed share).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    @field_validator("decays")
    @classmethod
    def _check_decays(cls, decays: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0.0 < d <= 1.0 for d in decays):
            raise ValueError(f"decays must be in (0, 1], got {decays}")
        return decays

    adapt: bool = True
    """False: the model never learns (it is its prior alone)."""
    opponent_tree: Literal["none", "hoeffding", "adaptive"] = "adaptive"
    """The opponent-specific tree: none, a Hoeffding tree or a Hoeffding adaptive tree."""
    grace_period: int = Field(20, ge=1)
    """Instances a leaf of the opponent tree sees between split attempts."""
    split_confidence: float = Field(1e-3, gt=0.0, lt=1.0)
    """The opponent tree's Hoeffding-bound delta (larger splits sooner)."""
    prior_strength: float = Field(4.0, gt=0.0)
    """Pseudo-counts of the coarser estimate at each backoff level: after this many
    observations in a context the opponent's own counts weigh as much as the prior."""
    decays: tuple[float, ...] = Field((0.9, 1.0), min_length=1)
    """One backoff component per value: old counts in a context are multiplied by it at each
    new observation there (1: never forget; 0.9: a memory of about ten observations). A fast
    and a slow memory let the mixture follow style changes without losing precision on
    steady opponents."""
    weight_level: int | None = Field(None, ge=0)
    """Mixture weights are kept per backoff key of this level (the action model's level 1 is
    legal classes and stage); None: one set of weights for every context."""
    tree_smoothing: float = Field(0.25, ge=0.0, le=1.0)
    """The opponent tree's prediction is mixed with this share of the backoff estimate."""
    learning_rate: float = Field(1.0, gt=0.0)
    """Exponential-weights rate on log loss (1: Bayesian model averaging)."""
    fixed_share: float = Field(0.02, ge=0.0, lt=1.0)
    """Share of weight spread back evenly after each update, so a component that lost weight
    can recover when the opponent changes."""
    cache_size: int = Field(200_000, ge=1)
    """Cached predictions kept before the cache is emptied."""
    seed: int = 0
    """Seed of the adaptive tree's bootstrap sampling."""


STRENGTH_CONFIG = ModelConfig(prior_strength=50.0, opponent_tree="none", decays=(0.98, 1.0))
"""The hand-strength model's default: showdowns are few and their strengths noisy (ten bins),
so the prior weighs as 50 observations, memory is long, and there is no opponent tree
(measured on the styled opponents: with the action model's settings the hand-strength model
did worse than the prior alone; this was the best setting tried)."""


class PriorConfig(BaseModel):
    """How the prior trees are grown from many hands (``pokerbot train-prior``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tree: TreeKind = "hoeffding"
    grace_period: int = Field(100, ge=1)
    split_confidence: float = Field(1e-2, gt=0.0, lt=1.0)
    max_depth: int = Field(20, ge=1)
    smoothing: float = Field(4.0, ge=0.0)
    """Pseudo-counts pulling each frozen node's distribution toward its parent's."""
    seed: int = 0


def make_tree(
    kind: TreeKind, grace_period: int, split_confidence: float, seed: int, max_depth: int | None = None
) -> Any:
    """A river classifier of ``kind`` with majority-class leaves (fast to predict)."""
    common: dict[str, Any] = {
        "grace_period": grace_period,
        "delta": split_confidence,
        "leaf_prediction": "mc",
        "max_depth": max_depth,
    }
    if kind == "adaptive":
        return river_tree.HoeffdingAdaptiveTreeClassifier(**common, seed=seed)
    return river_tree.HoeffdingTreeClassifier(**common)


__all__ = ["STRENGTH_CONFIG", "ModelConfig", "PriorConfig", "TreeKind", "make_tree"]
