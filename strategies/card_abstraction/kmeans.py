"""Seeded k-means: k-means++ seeding and Lloyd's iterations, in squared Euclidean distance.

:func:`kmeans` fits ``k`` centroids to weighted points (rows of a float array) from one seed:
the first centroid is a point drawn in proportion to its weight, each further one a point
drawn in proportion to its weight times its squared distance to the nearest centroid so far
(Arthur and Vassilvitskii 2007); then Lloyd's iterations (every point to its nearest
centroid, every centroid to the weighted mean of its points) until no point changes cluster
or ``iterations`` are spent. A cluster left empty takes the point farthest from its centroid.
Distances are computed in float64, in blocks of rows, so the result depends only on the
points, the weights, ``k`` and the seed. :func:`nearest` is the assignment step alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BLOCK = 16384
"""Rows per block of the distance computation (bounds its memory: BLOCK x k float64)."""


class KMeansError(ValueError):
    """Bad input for :func:`kmeans`."""


@dataclass(frozen=True)
class KMeansResult:
    """Fitted centroids and how the fit went."""

    centroids: np.ndarray
    """``[k, dim]`` float64."""
    labels: np.ndarray
    """Each point's cluster (int64)."""
    inertia: float
    """Weighted mean squared distance of the points to their centroids."""
    iterations: int
    """Lloyd iterations run."""
    converged: bool
    """True when the last iteration moved no point."""


def nearest(points: np.ndarray, centroids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each point's nearest centroid (the lowest index on a tie) and the squared distance to it."""
    x = np.asarray(points, dtype=np.float64)
    c = np.asarray(centroids, dtype=np.float64)
    labels = np.empty(x.shape[0], dtype=np.int64)
    distances = np.empty(x.shape[0])
    c_norms = np.einsum("ij,ij->i", c, c)
    for start in range(0, x.shape[0], BLOCK):
        block = x[start : start + BLOCK]
        d = c_norms[None, :] - 2.0 * block @ c.T
        best = np.argmin(d, axis=1)
        labels[start : start + BLOCK] = best
        own = d[np.arange(block.shape[0]), best] + np.einsum("ij,ij->i", block, block)
        distances[start : start + BLOCK] = np.maximum(own, 0.0)
    return labels, distances


def _seed_centroids(x: np.ndarray, w: np.ndarray, k: int, generator: np.random.Generator) -> np.ndarray:
    """k-means++ seeding."""
    first = int(generator.choice(x.shape[0], p=w / w.sum()))
    centroids = [x[first]]
    closest = np.einsum("ij,ij->i", x - x[first], x - x[first])
    for _ in range(1, k):
        mass = w * closest
        total = mass.sum()
        if total <= 0.0:  # fewer distinct points than k: repeat one
            pick = int(generator.choice(x.shape[0], p=w / w.sum()))
        else:
            pick = int(np.searchsorted(np.cumsum(mass), generator.random() * total, side="right"))
            pick = min(pick, x.shape[0] - 1)
        centroids.append(x[pick])
        diff = x - x[pick]
        np.minimum(closest, np.einsum("ij,ij->i", diff, diff), out=closest)
    return np.array(centroids)


def kmeans(
    points: np.ndarray,
    k: int,
    seed: int,
    *,
    weights: np.ndarray | None = None,
    iterations: int = 100,
) -> KMeansResult:
    """``k`` centroids fitted to ``points`` (``[n, dim]``) with ``weights`` (default 1 each),
    from ``seed`` (module docstring)."""
    x = np.ascontiguousarray(points, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 1 or not np.isfinite(x).all():
        raise KMeansError(f"points must be a finite [n, dim] array, got shape {x.shape}")
    if not 1 <= k <= x.shape[0]:
        raise KMeansError(f"k must be between 1 and the number of points ({x.shape[0]}), got {k}")
    w = np.ones(x.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (x.shape[0],) or (w < 0).any() or w.sum() <= 0:
        raise KMeansError("weights must be one non-negative number a point, not all zero")
    generator = np.random.default_rng(seed)
    centroids = _seed_centroids(x, w, k, generator)
    labels = np.full(x.shape[0], -1, dtype=np.int64)
    distances = np.zeros(x.shape[0])
    converged = False
    done = 0
    while done < iterations:
        done += 1
        new_labels, distances = nearest(x, centroids)
        if np.array_equal(new_labels, labels):
            converged = True
            break
        labels = new_labels
        mass = np.bincount(labels, weights=w, minlength=k)
        sums = np.stack([np.bincount(labels, weights=w * x[:, d], minlength=k) for d in range(x.shape[1])], axis=1)
        filled = mass > 0
        centroids[filled] = sums[filled] / mass[filled, None]
        taken = distances * (w > 0)
        for empty in np.flatnonzero(~filled):  # the farthest points start the empty clusters
            far = int(np.argmax(taken))
            centroids[empty] = x[far]
            taken[far] = -1.0
    inertia = float((w * distances).sum() / w.sum())
    return KMeansResult(centroids, labels, inertia, done, converged)


__all__ = ["BLOCK", "KMeansError", "KMeansResult", "kmeans", "nearest"]
