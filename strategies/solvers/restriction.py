"""How a restricted player is tied to a fixed opponent model (RNR and data-biased response).

A :class:`Restriction` changes three things in a regret-minimisation pass; the solvers call
its hooks and otherwise run unchanged:

* :meth:`Restriction.behaviour` - the action probabilities that generate reach;
* :meth:`Restriction.value_reach` - the opponent reach a player's values are computed
  against;
* :meth:`Restriction.baseline` - what a player's action values are compared with to get
  regrets (``None``: the node's value).

:class:`Restriction` itself changes nothing (plain self-play). :class:`RootRestriction` is
the Restricted Nash Response game of Johanson, Zinkevich and Bowling (2008): a hidden coin
at the root makes the restricted player play the fixed model with probability ``p`` for the
whole hand, so the unrestricted player faces the reach mixture
``p * reach(model) + (1 - p) * reach(own strategy)``. :class:`InfosetRestriction` is the
data-biased variant (Ponsen et al., footnote 9): at each of its information sets the restricted
player follows the model with that set's own confidence ``c(I)``, i.e. plays
``c(I) * model(I) + (1 - c(I)) * own(I)``, and regrets only its own part.
"""

from __future__ import annotations

import numpy as np

from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.errors import SolverError


class Restriction:
    """No restriction: every player plays its own strategy."""

    restricted: int | None = None

    def behaviour(self, engine: Engine, sigma: np.ndarray) -> np.ndarray:
        """Action probabilities ``[player, node, hand]`` that generate reach (1 off own edges)."""
        return engine.behaviour(sigma)

    def value_reach(self, player: int, reach: np.ndarray) -> np.ndarray:
        """The reach ``[player, node, hand]`` that ``player``'s values are computed against."""
        return reach

    def baseline(self, engine: Engine, player: int, values: np.ndarray, sigma: np.ndarray) -> np.ndarray | None:
        """Per edge of ``player``, the value its action values are compared with (None: node value)."""
        return None


def _check(engine: Engine, restricted: int, model: np.ndarray) -> None:
    if engine.num_players != 2:
        raise SolverError("restricted Nash responses are defined for two-player games")
    if restricted not in (0, 1):
        raise SolverError(f"restricted position must be 0 or 1, got {restricted}")
    if model.shape != (engine.num_nodes, engine.num_hands):
        raise SolverError("the opponent model does not match the game tree")


class RootRestriction(Restriction):
    """Restricted Nash Response: the model is played with probability ``p`` for the whole hand."""

    def __init__(self, engine: Engine, restricted: int, model: np.ndarray, p: float) -> None:
        _check(engine, restricted, model)
        if not 0.0 <= p <= 1.0:
            raise SolverError(f"confidence p must be in [0, 1], got {p}")
        self.restricted = restricted
        self.p = p
        self.model_reach = engine.reach(model)[restricted]

    def value_reach(self, player: int, reach: np.ndarray) -> np.ndarray:
        r = self.restricted
        if player == r or self.p == 0.0:
            return reach
        mixed = reach.copy()
        mixed[r] = self.p * _tile(self.model_reach, reach.shape[-1]) + (1.0 - self.p) * reach[r]
        return mixed


class InfosetRestriction(Restriction):
    """Data-biased response: the model is followed at each information set with its own confidence.

    ``confidence[node, hand]`` is the confidence of the restricted player's information set
    (decision ``node``, ``hand``); only entries at that player's decision nodes are read.
    """

    def __init__(self, engine: Engine, restricted: int, model: np.ndarray, confidence: np.ndarray) -> None:
        _check(engine, restricted, model)
        if confidence.shape != model.shape or np.any(confidence < 0) or np.any(confidence > 1):
            raise SolverError("confidence must be a [node, hand] array of values in [0, 1]")
        self.restricted = restricted
        edges = engine.players[restricted]
        self._edges = edges
        self._parents = engine.tree.parent[edges.edges]
        self._confidence = confidence[self._parents]
        self._model = model[edges.edges]

    def behaviour(self, engine: Engine, sigma: np.ndarray) -> np.ndarray:
        weights = engine.behaviour(sigma)
        e = self._edges.edges
        c = self._confidence
        weights[self.restricted, e] = c * self._model + (1.0 - c) * sigma[e]
        return weights

    def baseline(self, engine: Engine, player: int, values: np.ndarray, sigma: np.ndarray) -> np.ndarray | None:
        if player != self.restricted:
            return None
        e = self._edges
        strategy = _tile(sigma[e.edges], values.shape[-1])
        own = np.add.reduceat(strategy * values[e.edges], e.starts, axis=0)
        baseline: np.ndarray = own[e.group_of_edge]
        return baseline


def _tile(array: np.ndarray, columns: int) -> np.ndarray:
    """``array`` repeated side by side to ``columns`` columns (batches of samples)."""
    repeats = columns // array.shape[-1]
    return array if repeats == 1 else np.tile(array, repeats)


__all__ = ["InfosetRestriction", "Restriction", "RootRestriction"]
