"""Blueprint training: external-sampling MCCFR with discounting and negative-regret pruning over
float32 tables, run by one worker or many that each iterate on their own copy.

:class:`Trainer` owns a run: the regret and average-strategy tables (``float32[1, infosets,
max_actions]``), the iteration count and one generator state per worker. A run advances in
*syncs* of ``settings.sync_every`` iterations: each of the ``workers`` runs its share
(:meth:`Trainer.orders`: its :class:`WorkOrder`, which :func:`run_order` executes anywhere:
this process, another core, a Ray node) from the same regrets with its own generator, and
:meth:`Trainer.merge` sums what the workers added (the new regrets are the old ones plus every
worker's change, one worker's regrets are taken as they are; the average's sums of each
worker's iterations, which a worker starts from zero, are added to the run's). Then the update rule's discounts
apply at every multiple of ``discount_every`` iterations passed, up to ``discount_until``
(Brown and Sandholm 2019, AAAI; linear CFR in the form of Pluribus, Brown and Sandholm 2019,
*Science*: after the ``k``-th interval the regrets and the average's sums are multiplied by
``k / (k + 1)``; :class:`~pokerbot.strategies.regret.UpdateRule` gives the factors of ``linear``
and ``dcfr``). Pruning (:func:`~pokerbot.strategies.abstract.kernels.es_mccfr`) starts after
``prune_after`` iterations.

One iteration is a traversal for each position. Everything random comes from the workers'
SplitMix64 states (worker ``w`` starts ``w * 2^44`` draws into the stream of ``seed``), the
syncs and discounts fall at fixed iteration counts, so a run saved at a sync and resumed
(:meth:`Trainer.save`, :meth:`Trainer.load`) equals the uninterrupted run bit for bit, for a
given number of workers.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.splitmix import new_rng
from pokerbot.strategies.abstract import kernels
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.policy import AbstractPolicy, normalise
from pokerbot.strategies.abstract.solver import save_arrays
from pokerbot.strategies.betting.tree import TreeArrays
from pokerbot.strategies.regret import get_rule

WORKER_STRIDE = 1 << 44
"""Draws between the start of one worker's generator stream and the next's."""


class TrainingError(ValueError):
    """Bad training settings, or a checkpoint that does not fit the game or the settings."""


@dataclass(frozen=True)
class TrainingSettings:
    """How a run trains (see the module docstring). Counts are iterations, regrets chips."""

    rule: str = "linear"
    """The update rule of the discounts (``linear``, ``dcfr``; ``cfr``: none)."""
    discount_every: int = 1_000_000
    discount_until: int = 100_000_000
    """No discount after this many iterations (Pluribus: the first 400 of its minutes)."""
    prune_after: int = 2_000_000
    """Iterations before pruning starts (-1: never)."""
    prune_share: float = 0.95
    """The share of iterations that prune."""
    prune_below: float = -300.0
    """Actions with a regret below this many big blinds are pruned."""
    floor: float = -310.0
    """Regrets are floored at this many big blinds (-inf: no floor)."""
    sync_every: int = 1_000_000
    """Iterations between syncs (shared among the workers); a multiple divides ``discount_every``."""

    def check(self) -> None:
        """:class:`TrainingError` for settings that cannot run."""
        try:
            rule = get_rule(self.rule)
        except ValueError as error:
            raise TrainingError(str(error)) from None
        if rule.floor:
            raise TrainingError("cfr+ floors regrets at 0 after every update: not a sampled rule")
        if min(self.discount_every, self.sync_every) < 1 or self.discount_until < 0:
            raise TrainingError("discount_every and sync_every must be positive, discount_until at least 0")
        if self.discount_every % self.sync_every:
            raise TrainingError("sync_every must divide discount_every")
        if not 0.0 <= self.prune_share <= 1.0:
            raise TrainingError(f"prune_share must be in [0, 1], got {self.prune_share}")
        if self.floor > self.prune_below:
            raise TrainingError("the regret floor must be at most the pruning threshold")


@dataclass(frozen=True)
class WorkOrder:
    """One worker's share of a sync: iterations ``start + 1 .. start + count`` from ``regrets``
    with generator ``rng`` (the kernel's arguments; plain arrays, picklable)."""

    tree: TreeArrays
    deals: kernels.DealArrays
    regrets: np.ndarray
    rng: np.ndarray
    start: int
    count: int
    prune_after: int
    prune_share: float
    prune_below: float
    floor: float


@dataclass(frozen=True)
class WorkResult:
    """A worker's regrets after its order, the average's sums of its iterations, its generator
    after them, and its seconds of computing."""

    regrets: np.ndarray
    cumulative: np.ndarray
    rng: np.ndarray
    seconds: float


def run_order(order: WorkOrder, copy: bool = True) -> WorkResult:
    """Run ``order`` (on a copy of its regrets unless ``copy`` is False)."""
    started = time.perf_counter()
    regrets = order.regrets.copy() if copy else order.regrets
    cumulative = np.zeros_like(order.regrets)
    rng = order.rng.copy()
    tables = kernels.SolverArrays(regrets, cumulative, np.zeros((1, 1), dtype=np.int64))
    kernels.es_mccfr(
        order.count, order.start, rng, order.tree, order.deals, tables,
        order.prune_after, order.prune_share, order.prune_below, order.floor,
    )  # fmt: skip
    return WorkResult(regrets, cumulative, rng, time.perf_counter() - started)


class Trainer:
    """One training run (see the module docstring)."""

    def __init__(self, game: AbstractGame, settings: TrainingSettings, seed: int = 0, workers: int = 1) -> None:
        settings.check()
        if workers < 1:
            raise TrainingError(f"workers must be at least 1, got {workers}")
        if settings.sync_every < workers:
            raise TrainingError("sync_every must be at least the number of workers")
        self.game = game
        self.settings = settings
        self.seed = seed
        self.workers = workers
        tree = game.tree
        shape = (1, tree.num_infosets, tree.max_actions)
        self.regrets = np.zeros(shape, dtype=np.float32)
        self.cumulative = np.zeros(shape, dtype=np.float32)
        self.rngs = np.stack([new_rng(seed, w * WORKER_STRIDE) for w in range(workers)])
        self.iterations = 0
        self.seconds = 0.0
        self.sync_seconds = 0.0

    @property
    def memory_bytes(self) -> int:
        """Bytes of the two tables."""
        return int(self.regrets.nbytes + self.cumulative.nbytes)

    def orders(self, limit: int | None = None) -> list[WorkOrder]:
        """The next sync's work, one order per worker (fewer iterations when ``limit`` total
        iterations come sooner: then the run ends off the sync schedule)."""
        size = self.settings.sync_every
        if limit is not None:
            size = min(size, limit - self.iterations)
        big_blind = self.game.game.big_blind
        pruning = self.settings.prune_after
        shares = [size // self.workers + (1 if w < size % self.workers else 0) for w in range(self.workers)]
        tree, deals = self.game.tree.arrays, kernels.DealArrays.of(self.game.tables)
        orders, start = [], self.iterations
        for w, share in enumerate(shares):
            orders.append(
                WorkOrder(
                    tree,
                    deals,
                    self.regrets,
                    self.rngs[w],
                    start,
                    share,
                    pruning,
                    self.settings.prune_share,
                    self.settings.prune_below * big_blind,
                    self.settings.floor * big_blind,
                )  # fmt: skip
            )
            start += share
        return orders

    def merge(self, orders: list[WorkOrder], results: list[WorkResult]) -> None:
        """Take the workers' results of :meth:`orders` and apply the discounts now due."""
        started = time.perf_counter()
        if len(results) == 1:
            self.regrets = results[0].regrets
        else:
            total = self.regrets.astype(np.float64)
            for result in results:
                total += result.regrets
                total -= self.regrets
            self.regrets = total.astype(np.float32)
        average = self.cumulative.astype(np.float64)
        for result in results:
            average += result.cumulative
        self.cumulative = average.astype(np.float32)
        for w, result in enumerate(results):
            self.rngs[w] = result.rng
        before = self.iterations
        self.iterations += sum(order.count for order in orders)
        self.seconds += max(result.seconds for result in results)
        rule = get_rule(self.settings.rule)
        every = self.settings.discount_every
        if rule.discounted:
            tables = kernels.SolverArrays(self.regrets, self.cumulative, np.zeros((1, 1), dtype=np.int64))
            for k in range(before // every + 1, self.iterations // every + 1):
                if k * every > self.settings.discount_until:
                    break
                positive, negative = rule.discounts(k)
                kernels.discount(tables, positive, negative, rule.average_decay(k))
        self.sync_seconds += time.perf_counter() - started

    def step(self, limit: int | None = None) -> None:
        """One sync in this process (the workers one after another)."""
        orders = self.orders(limit)
        self.merge(orders, [run_order(order, copy=self.workers > 1) for order in orders])

    def run(self, iterations: int) -> None:
        """Syncs in this process until ``iterations`` in all."""
        while self.iterations < iterations:
            self.step(iterations)

    def average(self) -> np.ndarray:
        """The average strategy's table (rows normalised; uniform where never reached)."""
        return normalise(self.game.tree, self.cumulative[0])

    def policy(self) -> AbstractPolicy:
        """The average policy so far."""
        meta = {
            "algorithm": "es-mccfr",
            "iterations": self.iterations,
            "seed": self.seed,
            "workers": self.workers,
            "seconds": round(self.seconds, 1),
            "training": asdict(self.settings),
        }
        return AbstractPolicy(self.game.tree, self.game.abstraction, self.average(), meta)

    def identity(self) -> dict[str, Any]:
        """What a checkpoint must match to be resumed."""
        return {
            "seed": self.seed,
            "workers": self.workers,
            "settings": asdict(self.settings),
            "tree": self.game.tree.digest,
            "abstraction": self.game.abstraction.spec(),
            "boards": self.game.tables.num_boards,
        }

    def save(self, path: str | Path) -> None:
        """Write a checkpoint (atomically: a temporary file renamed over ``path``)."""
        save_arrays(
            path,
            regrets=self.regrets,
            cumulative=self.cumulative,
            rngs=self.rngs,
            counters=np.array([self.iterations], dtype=np.int64),
            seconds=np.array([self.seconds, self.sync_seconds]),
            identity=json.dumps(self.identity()),
        )

    @classmethod
    def load(cls, path: str | Path, game: AbstractGame) -> Trainer:
        """Resume from a checkpoint of :meth:`save` (the same game, settings, seed and workers)."""
        try:
            with np.load(path) as data:
                identity = json.loads(str(data["identity"]))
                arrays = {key: data[key] for key in ("regrets", "cumulative", "rngs", "counters", "seconds")}
            trainer = cls(game, TrainingSettings(**identity["settings"]), identity["seed"], identity["workers"])
        except (OSError, KeyError, ValueError, TypeError) as error:
            raise TrainingError(f"{path}: not a training checkpoint ({error})") from None
        if json.loads(json.dumps(trainer.identity())) != identity or arrays["regrets"].shape != trainer.regrets.shape:
            raise TrainingError(f"{path}: the checkpoint was made for another game, abstraction or settings")
        trainer.regrets = arrays["regrets"]
        trainer.cumulative = arrays["cumulative"]
        trainer.rngs = arrays["rngs"]
        trainer.iterations = int(arrays["counters"][0])
        trainer.seconds, trainer.sync_seconds = (float(x) for x in arrays["seconds"])
        return trainer


__all__ = ["WORKER_STRIDE", "Trainer", "TrainingError", "TrainingSettings", "WorkOrder", "WorkResult", "run_order"]
