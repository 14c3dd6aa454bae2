"""Responses to Bayesian opponent models, exact on the public tree of a small game.

For the position ``player`` against an opponent model (:mod:`pokerbot.models.bayes`), with values in
chips per hand for ``player``'s position:

* :func:`map_response` - a best response to the MAP policy;
* :func:`thompson_response` - a best response to one policy drawn from the posterior;
* :func:`bayesian_best_response` - the best response to the posterior itself: it maximises
  the posterior-expected value, i.e. it best-responds to the posterior mixture of opponent
  *strategies* (their reach probabilities averaged with the posterior weights - not the
  per-information-set average of behaviour, which differs when the posterior is not a
  product);
* :func:`robust_response` - a restricted Nash response (or data-biased response) to the
  posterior-mean model with confidence ``p`` (Ponsen et al. 2011), robust when the model is wrong.

:class:`ResponseSolver` holds the engine passes these need: reach-weighted mixtures of
batches of opponent policies, pure best responses against any opponent reach, and the
values of one strategy against a whole batch of opponent policies in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.strategies.bayes.bridge import TreeBridge
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import policy_from_profile, profile_from_policy
from pokerbot.strategies.solvers.rnr import data_biased_response, restricted_nash_response
from pokerbot.strategies.solvers.tree import PublicTree


@dataclass(frozen=True)
class Response:
    """A response of ``player``: its profile array (its own edges are meaningful) and the
    value it expects against what it responded to (chips per hand, ``player``'s position)."""

    player: int
    sigma: np.ndarray
    expected_value: float


class ResponseSolver:
    """Best responses and values against model policies on ``tree`` (see the module docstring)."""

    def __init__(self, tree: PublicTree, index: SlotIndex, engine: Engine | None = None) -> None:
        self.tree = tree
        self.engine = engine or Engine(tree)
        self.bridge = TreeBridge(tree, index)
        self.num_hands = tree.num_hands

    # ------------------------------------------------------------------ reach
    def reaches(self, opponent: int, policies: np.ndarray) -> np.ndarray:
        """``[node, M, hand]``: the opponent's own reach under each policy of ``policies``."""
        batch = np.atleast_2d(policies)
        sigma = self.bridge.profile(opponent, batch)
        reach = self.engine.reach(sigma)[opponent]
        return reach.reshape(self.tree.num_nodes, batch.shape[0], self.num_hands)

    def opponent_reach(self, opponent: int, sample: PosteriorSample, reaches: np.ndarray | None = None) -> np.ndarray:
        """``[node, hand]``: the opponent's own reach under the posterior mixture of strategies
        (``reaches`` may pass :meth:`reaches` of the sample's policies, computed before)."""
        batch = self.reaches(opponent, sample.policies) if reaches is None else reaches
        return np.einsum("nmh,m->nh", batch, sample.weights)

    # -------------------------------------------------------- best responses
    def best_response_to_reach(self, player: int, opponent_reach: np.ndarray) -> Response:
        """A pure best response of ``player`` against an opponent reach ``[node, hand]``."""
        engine, tree = self.engine, self.tree
        reach = np.ones((engine.num_players, tree.num_nodes, self.num_hands))
        reach[1 - player] = opponent_reach
        dummy = np.ones((tree.num_nodes, self.num_hands))
        values = engine.values(player, reach, dummy, best_response=True)
        sigma = np.ones((tree.num_nodes, self.num_hands))
        for node in engine.players[player].nodes:
            first, count = int(tree.first_child[node]), int(tree.num_children[node])
            best = np.argmax(values[first : first + count], axis=0)
            block = np.zeros((count, self.num_hands))
            block[best, np.arange(self.num_hands)] = 1.0
            sigma[first : first + count] = block
        return Response(player, sigma, float(values[0].sum()))

    def best_responses(self, player: int, reaches: np.ndarray) -> np.ndarray:
        """``[node, M * hand]``: a pure best response of ``player`` against each of ``M``
        opponents whose own reaches are ``reaches`` (``[node, M, hand]``), side by side."""
        engine, tree = self.engine, self.tree
        columns = reaches.shape[1] * self.num_hands
        reach = np.ones((engine.num_players, tree.num_nodes, columns))
        reach[1 - player] = reaches.reshape(tree.num_nodes, columns)
        values = engine.values(player, reach, np.ones((tree.num_nodes, columns)), best_response=True)
        sigma = np.ones((tree.num_nodes, columns))
        every = np.arange(columns)
        for node in engine.players[player].nodes:
            first, count = int(tree.first_child[node]), int(tree.num_children[node])
            best = np.argmax(values[first : first + count], axis=0)
            block = np.zeros((count, columns))
            block[best, every] = 1.0
            sigma[first : first + count] = block
        return sigma

    def cross_values(self, player: int, sigmas: np.ndarray, reaches: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """``[P]``: the value of ``player``'s strategy ``pairs[i, 0]`` of the batch ``sigmas``
        (``[node, K * hand]``) against the opponent ``pairs[i, 1]`` of ``reaches``
        (``[node, M, hand]``), chips per hand."""
        terminals = self.tree.terminals
        count = sigmas.shape[1] // self.num_hands
        own = self.engine.reach(sigmas)[player][terminals].reshape(len(terminals), count, self.num_hands)
        ours = own[:, pairs[:, 0]]
        theirs = reaches[terminals][:, pairs[:, 1]]
        return np.einsum("tph,thk,tpk->p", ours, self.tree.utility[player], theirs)

    def best_response(self, player: int, policies: np.ndarray, weights: np.ndarray | None = None) -> Response:
        """Best response of ``player`` to one opponent policy (``[slot]``) or a weighted batch."""
        batch = np.atleast_2d(policies)
        w = np.full(batch.shape[0], 1.0 / batch.shape[0]) if weights is None else weights
        return self.best_response_to_reach(player, self.opponent_reach(1 - player, PosteriorSample(batch, w)))

    # ---------------------------------------------------------------- values
    def values(self, player: int, sigma: np.ndarray, policies: np.ndarray) -> np.ndarray:
        """``[M]``: the value of ``player`` playing ``sigma`` (``[node, hand]``) against each
        opponent policy of ``policies`` (``[M, slot]``), chips per hand."""
        batch = np.atleast_2d(policies)
        count = batch.shape[0]
        profile = np.tile(sigma, (1, count))
        self.bridge.write(1 - player, batch, profile)
        behaviour = self.engine.behaviour(profile)
        reach = self.engine.reach(profile, behaviour)
        root = self.engine.values(player, reach, behaviour[player])[0]
        return root.reshape(count, self.num_hands).sum(axis=1)

    def values_from_reaches(self, player: int, sigma: np.ndarray, reaches: np.ndarray) -> np.ndarray:
        """``[M]``: the value of ``player`` playing ``sigma`` against opponents whose own
        reaches are ``reaches`` (``[node, M, hand]``, see :meth:`reaches`), chips per hand."""
        terminals = self.tree.terminals
        own = self.engine.reach(sigma)[player][terminals]
        weighted = np.einsum("th,thk->tk", own, self.tree.utility[player])
        return np.einsum("tk,tmk->m", weighted, reaches[terminals])

    def value_against_profile(self, player: int, sigma: np.ndarray, opponent_sigma: np.ndarray) -> float:
        """The value of ``player`` playing ``sigma`` against the opponent's edges of
        ``opponent_sigma`` (both ``[node, hand]``), chips per hand."""
        profile = opponent_sigma.copy()
        edges = self.engine.players[player].edges
        profile[edges] = sigma[edges]
        behaviour = self.engine.behaviour(profile)
        reach = self.engine.reach(profile, behaviour)
        return float(self.engine.values(player, reach, behaviour[player])[0].sum())

    def worst_case(self, player: int, sigma: np.ndarray) -> float:
        """The value of ``sigma`` against a best response to it (chips per hand)."""
        own = self.engine.reach(sigma)[player]
        opponent = 1 - player
        return -self.best_response_to_reach(opponent, own).expected_value


# ---------------------------------------------------------------- response kinds
def map_response(solver: ResponseSolver, model: OpponentModel, player: int) -> Response:
    """Best response to the model's MAP policy."""
    return solver.best_response(player, model.map_array())


def thompson_response(solver: ResponseSolver, model: OpponentModel, player: int) -> Response:
    """Best response to one policy drawn from the model's posterior."""
    return solver.best_response(player, model.sample())


def bayesian_best_response(
    solver: ResponseSolver, model: OpponentModel, player: int, sample: PosteriorSample | None = None
) -> Response:
    """Best response to the posterior mixture of opponent strategies (Bayes' Bluff's BBR)."""
    posterior = sample if sample is not None else model.posterior()
    return solver.best_response_to_reach(player, solver.opponent_reach(1 - player, posterior))


def model_policy(solver: ResponseSolver, model: OpponentModel, player: int) -> Policy:
    """The model's posterior-mean policy at the opponent's information sets, as a Policy."""
    opponent = 1 - player
    sigma = solver.bridge.profile(opponent, model.predictive())
    return policy_from_profile(solver.tree, sigma, {"model": type(model).__name__}, players=[opponent])


def robust_response(
    solver: ResponseSolver,
    model: OpponentModel,
    player: int,
    p: float,
    *,
    confidence: dict[str, float] | None = None,
    iterations: int = 500,
    algorithm: str = "cfr+",
) -> Response:
    """The ``p``-restricted Nash response to the model's posterior-mean policy (Ponsen et al. 2011),
    or, with per-information-set ``confidence``, the data-biased response. ``expected_value``
    is the response's value against the model."""
    model_as_policy = model_policy(solver, model, player)
    opponent = 1 - player
    if confidence is None:
        result = restricted_nash_response(
            solver.tree,
            model_as_policy,
            p,
            restricted=opponent,
            algorithm=algorithm,
            iterations=iterations,
        )
    else:
        result = data_biased_response(
            solver.tree,
            model_as_policy,
            confidence,
            restricted=opponent,
            algorithm=algorithm,
            iterations=iterations,
        )
    sigma = profile_from_policy(solver.tree, result.counter_strategy)
    return Response(player, sigma, float(result.exploitation))


__all__ = [
    "Response",
    "ResponseSolver",
    "bayesian_best_response",
    "map_response",
    "model_policy",
    "robust_response",
    "thompson_response",
]
