"""The blended classifier behind both opponent models: a frozen prior blended with the opponent.

The thesis' models were one big Hoeffding tree, trained on many players and then updated
during the match; a few hundred observations barely move a tree grown on millions, so it
adapted slowly (ch. 5.5, 7.1.4). Here the prior stays frozen and is *mixed* with
opponent-specific estimates whose weight grows with the evidence:

1. **prior**: the frozen prior tree's distribution ``q``;
2. **backoff**: decayed class counts of this opponent in coarse contexts, nested from
   coarse to fine (:attr:`BlendedClassifier.levels`). Each level is a Dirichlet posterior
   whose base is the level above (the prior for the coarsest):
   ``p_l = (n_l + a * p_{l-1}) / (N_l + a)`` with ``a`` = ``prior_strength``. After ``a``
   observations in a context the opponent's own frequencies weigh as much as the prior.
   Counts decay at each new observation in their context; there is one backoff component
   per memory length (``decays``: by default a fast one, about ten observations per context,
   that follows an opponent who changes style, and a slow one that never forgets);
3. **tree**: a fresh river tree (Hoeffding, or Hoeffding adaptive for drift) grown on this
   opponent's data only, read through a frozen snapshot (rebuilt after learning) and mixed
   with a ``tree_smoothing`` share of the slowest backoff estimate.

The mixture weights are exponential weights on each component's log loss, learned online
(``learning_rate`` 1 is Bayesian model averaging), with a fixed share redistributed after
every update so a component can win back weight when the opponent changes. Weights are kept
per coarse context (level ``weight_level`` of the backoff keys, by default legal classes
and stage: a component can be best pre-flop and poor on the river), each starting from the
global weights, which learn from every observation.

Predictions are cached by the quantised context (:func:`models.features.quantise`); any
learning empties the cache. Contexts are quantised for learning too, so a cached answer is
exactly what the model would compute. Nothing here changes its inputs. Models pickle (the
cache is dropped).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType
from typing import Any

from pokerbot.models.config import ModelConfig, make_tree
from pokerbot.models.features import quantise
from pokerbot.models.frozen import FrozenTree, uniform_tree

Vector = tuple[float, ...]
LevelKeys = Callable[[Mapping[str, float], int], tuple[Hashable, ...]]
"""Maps a quantised context and its legal-class mask to its coarse context keys, coarsest first."""
MIN_PROBABILITY = 1e-6
"""Probabilities are floored here in log losses."""
ALL_CLASSES = -1
"""The legal-mask value meaning every class is possible."""
TREE_SNAPSHOT_SMOOTHING = 1.0
"""Pseudo-counts pulling the opponent tree's node distributions toward their parents'."""
_GLOBAL = "*global*"


class BlendedClassifier:
    """A prior tree blended with opponent-specific estimates (see the module docstring).

    ``names`` are the features used (in key order), ``levels`` the coarse-context keys of
    the backoff, ``prior`` the frozen prior tree (None: uniform). Classes are ``0 .. n-1``.
    """

    def __init__(
        self,
        n_classes: int,
        names: tuple[str, ...],
        levels: LevelKeys,
        prior: FrozenTree | None = None,
        config: ModelConfig | None = None,
    ) -> None:
        self.config = config or ModelConfig()
        self.n_classes = n_classes
        self.names = names
        self.levels = levels
        self.prior = prior if prior is not None else uniform_tree(n_classes)
        if self.prior.n_classes != n_classes:
            raise ValueError(f"the prior predicts {self.prior.n_classes} classes, the model has {n_classes}")
        cfg = self.config
        self.counts: dict[tuple[int, int, Hashable], list[float]] = {}
        """Decayed class counts (and their total, last) by (memory index, level, key)."""
        self.tree: Any = None
        if cfg.adapt and cfg.opponent_tree != "none":
            self.tree = make_tree(cfg.opponent_tree, cfg.grace_period, cfg.split_confidence, cfg.seed)
        names_: tuple[str, ...] = ("prior",)
        if cfg.adapt:
            names_ += tuple(f"backoff-{decay:g}" for decay in cfg.decays)
            if self.tree is not None:
                names_ += ("tree",)
        self.component_names = names_
        self.log_weights: dict[Hashable, list[float]] = {_GLOBAL: [0.0] * len(names_)}
        """Log mixture weights by weight context (and globally)."""
        self.observations = 0
        self._snapshot: FrozenTree | None = None
        self._cache: dict[tuple[float, ...], tuple[Mapping[int, float], Vector]] = {}

    # ------------------------------------------------------------ prediction
    def _backoff(self, memory: int, keys: tuple[Hashable, ...], base: Vector) -> Vector:
        estimate = base
        strength = self.config.prior_strength
        counts_of = self.counts
        for level, key in enumerate(keys):
            counts = counts_of.get((memory, level, key))
            if counts is None:
                break
            scale = 1.0 / (counts[-1] + strength)
            estimate = tuple((n + strength * p) * scale for n, p in zip(counts, estimate))
        return estimate

    def _tree_snapshot(self) -> FrozenTree | None:
        """A frozen copy of the opponent tree (rebuilt after learning), None while it is empty.

        Predicting through a frozen copy is several times faster than through river (whose
        prediction copies the leaf statistics). A Hoeffding adaptive tree's alternate
        subtrees are left out until they replace the main subtree; following a change of
        style quickly is the fast backoff's job."""
        if self._snapshot is None and getattr(self.tree, "_root", None) is not None:
            self._snapshot = FrozenTree.from_river(self.tree, self.n_classes, TREE_SNAPSHOT_SMOOTHING)
        return self._snapshot

    def _parts(self, xq: Mapping[str, float], mask: int) -> tuple[list[Vector], Hashable]:
        """The components' distributions over all classes and the weight context."""
        prior = self.prior.predict(xq)
        if not self.config.adapt:
            return [prior], _GLOBAL
        keys = self.levels(xq, mask)
        parts = [prior]
        for memory in range(len(self.config.decays)):
            parts.append(self._backoff(memory, keys, prior))
        if self.tree is not None:
            backoff = parts[-1]
            snapshot = self._tree_snapshot()
            if snapshot is None:
                parts.append(backoff)
            else:
                share = self.config.tree_smoothing
                keep = 1.0 - share
                parts.append(tuple(keep * t + share * b for t, b in zip(snapshot.predict(xq), backoff)))
        level = self.config.weight_level
        context = _GLOBAL if level is None or level >= len(keys) else (level, keys[level])
        return parts, context

    def components(self, x: Mapping[str, float]) -> dict[str, Vector]:
        """Each component's distribution over all classes for context ``x`` (by name)."""
        key = quantise(x, self.names)
        parts, _ = self._parts(dict(zip(self.names, key)), int(key[-1]))
        return dict(zip(self.component_names, parts))

    def _weights(self, context: Hashable) -> list[float]:
        log_weights = self.log_weights.get(context) or self.log_weights[_GLOBAL]
        top = max(log_weights)
        weights = [math.exp(w - top) for w in log_weights]
        total = sum(weights)
        return [w / total for w in weights]

    def _mix(self, parts: list[Vector], context: Hashable, mask: int) -> Vector:
        n = self.n_classes
        if len(parts) == 1:
            mixed = list(parts[0])
        else:
            weights = self._weights(context)
            mixed = [0.0] * n
            for weight, part in zip(weights, parts):
                for k in range(n):
                    mixed[k] += weight * part[k]
        if mask != ALL_CLASSES:
            mixed = [p if mask >> k & 1 else 0.0 for k, p in enumerate(mixed)]
        total = sum(mixed)
        if total <= 0.0:
            allowed = [k for k in range(n) if mask == ALL_CLASSES or mask >> k & 1]
            share = 1.0 / len(allowed) if allowed else 0.0
            return tuple(share if k in allowed else 0.0 for k in range(n))
        return tuple(p / total for p in mixed)

    def predict_vector(self, x: Mapping[str, float]) -> Vector:
        """The blended distribution over all classes (0 for illegal ones), cached."""
        return self._lookup(x)[1]

    def predict_proba_one(self, x: Mapping[str, float]) -> Mapping[int, float]:
        """The blended distribution as ``{class: probability}`` over the possible classes
        (those in ``x["legal"]`` when given), cached; the mapping is read-only."""
        return self._lookup(x)[0]

    def _lookup(self, x: Mapping[str, float]) -> tuple[Mapping[int, float], Vector]:
        key = quantise(x, self.names)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        mask = int(key[-1])
        parts, context = self._parts(dict(zip(self.names, key)), mask)
        vector = self._mix(parts, context, mask)
        proba = MappingProxyType({k: p for k, p in enumerate(vector) if mask == ALL_CLASSES or mask >> k & 1})
        if len(self._cache) >= self.config.cache_size:
            self._cache.clear()
        entry = (proba, vector)
        self._cache[key] = entry
        return entry

    # -------------------------------------------------------------- learning
    def learn_one(self, x: Mapping[str, float], y: int) -> None:
        """Learn that class ``y`` happened in context ``x`` (``x`` is not changed)."""
        if not self.config.adapt:
            return
        if not 0 <= int(y) < self.n_classes:
            raise ValueError(f"class {y!r} is not in 0..{self.n_classes - 1}")
        y = int(y)
        key = quantise(x, self.names)
        xq = dict(zip(self.names, key))
        mask = int(key[-1])
        parts, context = self._parts(xq, mask)
        self._update_weights(parts, context, mask, y)
        keys = self.levels(xq, mask)
        n = self.n_classes
        for memory, decay in enumerate(self.config.decays):
            for level, level_key in enumerate(keys):
                counts = self.counts.get((memory, level, level_key))
                if counts is None:
                    counts = self.counts[(memory, level, level_key)] = [0.0] * (n + 1)
                elif decay < 1.0:
                    for k in range(n + 1):
                        counts[k] *= decay
                counts[y] += 1.0
                counts[-1] += 1.0
        if self.tree is not None:
            self.tree.learn_one(xq, y)
            self._snapshot = None
        self.observations += 1
        self._cache.clear()

    def _update_weights(self, parts: list[Vector], context: Hashable, mask: int, y: int) -> None:
        losses = []
        for part in parts:
            total = sum(part) if mask == ALL_CLASSES else sum(p for k, p in enumerate(part) if mask >> k & 1)
            probability = part[y] / total if total > 0.0 else 0.0
            losses.append(-math.log(max(probability, MIN_PROBABILITY)))
        if context != _GLOBAL and context not in self.log_weights:
            self.log_weights[context] = list(self.log_weights[_GLOBAL])
        for name in {_GLOBAL, context}:
            self.log_weights[name] = self._share(
                [w - self.config.learning_rate * loss for w, loss in zip(self.log_weights[name], losses)]
            )

    def _share(self, log_weights: list[float]) -> list[float]:
        """Normalised log weights after spreading the fixed share evenly."""
        top = max(log_weights)
        weights = [math.exp(w - top) for w in log_weights]
        total = sum(weights)
        share = self.config.fixed_share
        count = len(weights)
        return [math.log((1.0 - share) * w / total + share / count) for w in weights]

    def weights(self, x: Mapping[str, float] | None = None) -> dict[str, float]:
        """The mixture weights by component name: for context ``x``, or the global ones."""
        context: Hashable = _GLOBAL
        if x is not None:
            key = quantise(x, self.names)
            context = self._parts(dict(zip(self.names, key)), int(key[-1]))[1]
        return dict(zip(self.component_names, self._weights(context)))

    def clear_cache(self) -> None:
        """Forget every cached prediction."""
        self._cache.clear()

    @property
    def cache_entries(self) -> int:
        """Predictions in the cache now."""
        return len(self._cache)

    # --------------------------------------------------------------- pickling
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_cache"] = {}
        state["_snapshot"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


__all__ = ["ALL_CLASSES", "BlendedClassifier", "LevelKeys", "MIN_PROBABILITY", "TREE_SNAPSHOT_SMOOTHING", "Vector"]
