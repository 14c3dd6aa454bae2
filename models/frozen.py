"""A read-only, compact copy of a trained river Hoeffding tree, for the prior.

:class:`FrozenTree` keeps only what prediction needs: each branch's test and each node's
class distribution, in flat lists (a few kilobytes, where the river tree with its split
statistics takes megabytes). Node distributions are smoothed down the tree: a node's
distribution is its class counts plus ``smoothing`` pseudo-counts spread as its parent's
distribution (the root's parent is uniform), so a thin leaf leans on its parent and no class
gets probability 0. With ``smoothing=0`` a leaf predicts its normalised counts, as river's
majority-class leaves do.

Only the main tree is copied: a Hoeffding adaptive tree's alternate subtrees are ignored.
Supported branches: river's numeric binary (``x[f] <= t``) and nominal binary
(``x[f] == v``) branches, the only ones river grows on numeric features.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from river.tree.nodes.branch import DTBranch, NominalBinaryBranch, NumericBinaryBranch

from pokerbot.models.errors import UnsupportedTreeError

_LEAF = -1
_NUMERIC = 0
_NOMINAL = 1


class FrozenTree:
    """Class distributions by tree traversal; built by :meth:`from_river`. Picklable."""

    __slots__ = ("n_classes", "features", "kinds", "tests", "left", "right", "dists", "smoothing")

    def __init__(self, n_classes: int, smoothing: float) -> None:
        self.n_classes = n_classes
        self.smoothing = smoothing
        self.features: list[str] = []
        self.kinds: list[int] = []
        self.tests: list[Any] = []
        self.left: list[int] = []
        self.right: list[int] = []
        self.dists: list[tuple[float, ...]] = []

    @classmethod
    def from_river(cls, tree: Any, n_classes: int, smoothing: float = 4.0) -> FrozenTree:
        """Copy river classifier ``tree`` (classes ``0 .. n_classes - 1``)."""
        frozen = cls(n_classes, smoothing)
        root = getattr(tree, "_root", None)
        uniform = (1.0 / n_classes,) * n_classes
        if root is None:
            frozen._add(_LEAF, "", None, uniform)
            return frozen
        frozen._copy(root, uniform)
        return frozen

    def _add(self, kind: int, feature: str, test: Any, dist: tuple[float, ...]) -> int:
        self.kinds.append(kind)
        self.features.append(feature)
        self.tests.append(test)
        self.left.append(-1)
        self.right.append(-1)
        self.dists.append(dist)
        return len(self.kinds) - 1

    def _smooth(self, stats: Mapping[Any, float], parent: tuple[float, ...]) -> tuple[float, ...]:
        counts = [0.0] * self.n_classes
        for label, weight in stats.items():
            if 0 <= int(label) < self.n_classes:
                counts[int(label)] = float(weight)
        total = sum(counts) + self.smoothing
        if total <= 0.0:
            return parent
        return tuple((c + self.smoothing * p) / total for c, p in zip(counts, parent))

    def _copy(self, node: Any, parent: tuple[float, ...]) -> int:
        dist = self._smooth(node.stats, parent)
        if not isinstance(node, DTBranch):
            return self._add(_LEAF, "", None, dist)
        if isinstance(node, NumericBinaryBranch):
            index = self._add(_NUMERIC, node.feature, float(node.threshold), dist)
        elif isinstance(node, NominalBinaryBranch):
            index = self._add(_NOMINAL, node.feature, node.value, dist)
        else:
            raise UnsupportedTreeError(f"cannot freeze a tree with a {type(node).__name__} node")
        left, right = node.children
        self.left[index] = self._copy(left, dist) if left is not None else self._add(_LEAF, "", None, dist)
        self.right[index] = self._copy(right, dist) if right is not None else self._add(_LEAF, "", None, dist)
        return index

    def predict(self, x: Mapping[str, float]) -> tuple[float, ...]:
        """The class distribution (a tuple summing to 1) of the leaf ``x`` reaches.

        A feature missing from ``x`` counts as 0.
        """
        return self.dists[self.leaf(x)]

    def leaf(self, x: Mapping[str, float]) -> int:
        """The index of the leaf ``x`` reaches (a feature missing from ``x`` counts as 0)."""
        kinds, features, tests, left, right = self.kinds, self.features, self.tests, self.left, self.right
        node = 0
        kind = kinds[0]
        while kind != _LEAF:
            value = x.get(features[node], 0.0)
            test = tests[node]
            if kind == _NUMERIC:
                node = left[node] if value <= test else right[node]
            else:
                node = left[node] if value == test else right[node]
            kind = kinds[node]
        return node

    @property
    def n_leaves(self) -> int:
        """Leaves in the tree."""
        return self.kinds.count(_LEAF)

    def depth(self) -> int:
        """The length of the longest root-to-leaf path (0 for a single leaf)."""
        best = 0
        stack = [(0, 0)]
        while stack:
            node, level = stack.pop()
            if self.kinds[node] == _LEAF:
                best = max(best, level)
            else:
                stack += [(self.left[node], level + 1), (self.right[node], level + 1)]
        return best

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in self.__slots__:
            setattr(self, name, state[name])


def uniform_tree(n_classes: int) -> FrozenTree:
    """A one-leaf tree predicting the uniform distribution (the prior when there is none)."""
    return FrozenTree.from_river(None, n_classes)


__all__ = ["FrozenTree", "uniform_tree"]
