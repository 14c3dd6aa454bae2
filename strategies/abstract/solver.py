"""Run the numba solvers on an abstract game: chunks, progress, checkpoints, policies.

:class:`AbstractSolver` owns the tables of one run (``algorithm`` one of :data:`ALGORITHMS`)
and its generator state. :meth:`AbstractSolver.run` advances it in chunks (a callback after
each chunk drives a progress bar and checkpoints); :meth:`save` / :meth:`load` write and
read a checkpoint (tables, iteration count, generator state, settings), and a loaded run
continues exactly as the uninterrupted run would (same seed, same numbers).

* ``os-mccfr``: outcome-sampling MCCFR, Ponsen et al. Algorithm 1 (epsilon-greedy sampling with
  ``epsilon`` = 0.6 for both positions, both updated from every sample, optimistic averaging);
* ``es-mccfr``: external-sampling MCCFR (one iteration = a traversal for each position);
* ``mcts``: UCT over information sets, ``exploration`` C in chips (default 17 big blinds,
  Ponsen et al.'s C = 17 small bets); the policy is the visit shares;
* ``mcrnr``: Monte-Carlo restricted Nash response, Ponsen et al. Algorithm 2: ``model``
  (a policy table of the opponent, both positions) is followed with confidence ``p``
  (default 0.75); iterations alternate which position is restricted and the policy takes
  each position's rows from the run where it was the responder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.splitmix import new_rng
from pokerbot.strategies.abstract import kernels
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.policy import AbstractPolicy, normalise

ALGORITHMS = ("os-mccfr", "es-mccfr", "mcts", "mcrnr")
DEFAULT_EPSILON = 0.6
DEFAULT_P = 0.75
MCTS_BIG_BLINDS = 17.0


def save_arrays(path: str | Path, **arrays: Any) -> None:
    """Write ``arrays`` to the ``.npz`` file ``path`` atomically (a temporary file renamed over it):
    a checkpoint cut short by a crash leaves the previous one."""
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    with temporary.open("wb") as handle:
        np.savez(handle, **arrays)
    temporary.replace(target)


class AbstractSolverError(ValueError):
    """Bad solver settings, or a checkpoint that does not fit the game."""


class AbstractSolver:
    """One solver run on an abstract game (see the module docstring)."""

    def __init__(
        self,
        game: AbstractGame,
        algorithm: str,
        seed: int = 0,
        *,
        epsilon: float = DEFAULT_EPSILON,
        exploration: float | None = None,
        model: np.ndarray | None = None,
        p: float = DEFAULT_P,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise AbstractSolverError(f"unknown algorithm {algorithm!r}: choose from {', '.join(ALGORITHMS)}")
        if not 0.0 < epsilon <= 1.0:
            raise AbstractSolverError(f"epsilon must be in (0, 1], got {epsilon}")
        if not 0.0 <= p <= 1.0:
            raise AbstractSolverError(f"p must be in [0, 1], got {p}")
        tree = game.tree
        shape = (tree.num_infosets, tree.max_actions)
        if algorithm == "mcrnr":
            if model is None or model.shape != shape:
                raise AbstractSolverError(f"mcrnr needs an opponent model table of shape {shape}")
        self.game = game
        self.algorithm = algorithm
        self.seed = seed
        self.epsilon = epsilon
        self.exploration = float(MCTS_BIG_BLINDS * game.game.big_blind if exploration is None else exploration)
        self.p = p
        self.model = np.ascontiguousarray(model, dtype=np.float64) if model is not None else np.zeros((1, 1))
        games = 2 if algorithm == "mcrnr" else 1
        self.regrets = np.zeros((games, *shape))
        self.cumulative = np.zeros((games, *shape))
        self.last_visit = np.zeros((games, tree.num_infosets), dtype=np.int64)
        self.iterations = 0
        self.seconds = 0.0
        self.rng = new_rng(seed)

    def _tables(self) -> kernels.SolverArrays:
        return kernels.SolverArrays(self.regrets, self.cumulative, self.last_visit)

    def step(self, count: int) -> None:
        """Run ``count`` more iterations."""
        import time

        started = time.perf_counter()
        tree, deals = self.game.tree.arrays, kernels.DealArrays.of(self.game.tables)
        if self.algorithm in ("os-mccfr", "mcrnr"):
            kernels.os_mccfr(
                count, self.iterations, self.rng, tree, deals, self._tables(), self.epsilon, self.model, self.p
            )
        elif self.algorithm == "es-mccfr":
            kernels.es_mccfr(count, self.iterations, self.rng, tree, deals, self._tables())
        else:
            kernels.mcts(count, self.rng, tree, deals, self._tables(), self.exploration)
        self.iterations += count
        self.seconds += time.perf_counter() - started

    def run(
        self, iterations: int, chunk: int = 200_000, on_chunk: Callable[[AbstractSolver], None] | None = None
    ) -> None:
        """Run until ``iterations`` in all (counting earlier ones), calling ``on_chunk`` after each chunk."""
        while self.iterations < iterations:
            self.step(min(chunk, iterations - self.iterations))
            if on_chunk is not None:
                on_chunk(self)

    def average_weights(self) -> np.ndarray:
        """The unnormalised average strategy (MCTS: visit counts), both positions."""
        if self.algorithm != "mcrnr":
            return self.cumulative[0]
        tree = self.game.tree
        weights = self.cumulative[1].copy()  # game 1 restricts position 1: position 0 responds
        for node in tree.decision_nodes:
            if tree.player[node] == 1:
                rows = slice(
                    int(tree.infoset_base[node]), int(tree.infoset_base[node] + tree.num_buckets[tree.round[node]])
                )
                weights[rows] = self.cumulative[0][rows]
        return weights

    def policy(self) -> AbstractPolicy:
        """The average policy so far."""
        meta = {
            "algorithm": self.algorithm,
            "iterations": self.iterations,
            "seed": self.seed,
            "seconds": round(self.seconds, 1),
        }
        if self.algorithm in ("os-mccfr", "mcrnr"):
            meta["epsilon"] = self.epsilon
        if self.algorithm == "mcrnr":
            meta["p"] = self.p
        if self.algorithm == "mcts":
            meta["exploration"] = self.exploration
        tree = self.game.tree
        return AbstractPolicy(tree, self.game.abstraction, normalise(tree, self.average_weights()), meta)

    def settings(self) -> dict[str, Any]:
        """What a checkpoint must match to be resumed."""
        return {
            "algorithm": self.algorithm,
            "seed": self.seed,
            "epsilon": self.epsilon,
            "exploration": self.exploration,
            "p": self.p,
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
            last_visit=self.last_visit,
            rng=self.rng,
            model=self.model,
            counters=np.array([self.iterations], dtype=np.int64),
            seconds=np.array([self.seconds]),
            settings=json.dumps(self.settings()),
        )

    @classmethod
    def load(cls, path: str | Path, game: AbstractGame) -> AbstractSolver:
        """Resume from a checkpoint written by :meth:`save` for the same game and settings."""
        try:
            with np.load(path) as data:
                settings = json.loads(str(data["settings"]))
                arrays = {
                    key: data[key]
                    for key in ("regrets", "cumulative", "last_visit", "rng", "model", "counters", "seconds")
                }
        except (OSError, KeyError, ValueError) as error:
            raise AbstractSolverError(f"{path}: not a solver checkpoint ({error})") from None
        model = arrays["model"] if settings["algorithm"] == "mcrnr" else None
        solver = cls(
            game,
            settings["algorithm"],
            settings["seed"],
            epsilon=settings["epsilon"],
            exploration=settings["exploration"],
            model=model,
            p=settings["p"],
        )
        if solver.settings() != settings:
            raise AbstractSolverError(f"{path}: the checkpoint was made for another game, abstraction or settings")
        solver.regrets = arrays["regrets"]
        solver.cumulative = arrays["cumulative"]
        solver.last_visit = arrays["last_visit"]
        solver.rng = arrays["rng"]
        solver.iterations = int(arrays["counters"][0])
        solver.seconds = float(arrays["seconds"][0])
        return solver


__all__ = ["ALGORITHMS", "DEFAULT_EPSILON", "DEFAULT_P", "AbstractSolver", "AbstractSolverError", "save_arrays"]
