"""Restricted Nash responses: robust counter-strategies to an opponent model.

Given a model of the opponent (a fixed policy ``sigma_fix`` for the *restricted* position)
and a confidence ``p``, :func:`restricted_nash_response` solves the RNR game of Johanson,
Zinkevich and Bowling (2008), as described by Ponsen et al. (2011): a hidden coin makes the restricted
player follow the model with probability ``p`` and play freely otherwise, and the other
player's counter-strategy cannot tell which. ``p`` is the confidence in the model:
``p = 1`` gives a best response to the model, ``p = 0`` an equilibrium, values between
trade exploitation (what the counter-strategy wins against the model) for exploitability
(what it can lose against a best response).

* :func:`restricted_nash_response` - RNR with a full-width solver (``cfr+`` by default);
* :func:`mc_restricted_nash_response` - MCRNR (Ponsen et al., Algorithm 2): the same game solved
  with outcome-sampling MCCFR (epsilon-greedy sampling, optimistic averaging). The coin's
  two branches are combined exactly (their reach mixture) rather than sampled;
* :func:`data_biased_response` - the data-biased variant (Johanson and Bowling 2009; seed
  001 footnote 9): a confidence per information set of the restricted player, e.g. from
  :func:`confidence_from_counts`, and the model followed at each set with that confidence.

Values are chips per hand for the counter-strategy's position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerbot.protocol.game import Game
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.errors import SolverError
from pokerbot.strategies.solvers.exploitability import evaluate_profile
from pokerbot.strategies.solvers.policy import Policy, check_game
from pokerbot.strategies.solvers.profile import as_tree, policy_from_profile, profile_from_policy
from pokerbot.strategies.solvers.restriction import InfosetRestriction, Restriction, RootRestriction
from pokerbot.strategies.solvers.solve import make_solver
from pokerbot.strategies.solvers.tree import PublicTree


@dataclass(frozen=True)
class RestrictedResponse:
    """A counter-strategy to a model and how it fares. Amounts in chips per hand."""

    counter_strategy: Policy
    """The responder's policy (only its own information sets)."""
    profile: Policy
    """Both players: the counter-strategy and the restricted player's free strategy."""
    responder: int
    """The counter-strategy's position."""
    exploitation: float
    """The counter-strategy's value against the model."""
    best_response_to_model: float
    """The most any strategy wins against the model (the best-response value)."""
    worst_case: float
    """The counter-strategy's value against a best response to it."""
    game_value: float
    """The responder position's equilibrium value estimate (from the solved profile)."""

    @property
    def exploitability(self) -> float:
        """How much less than its position's game value the counter-strategy can get."""
        return self.game_value - self.worst_case


def _solve_restricted(
    tree: PublicTree,
    model: Policy,
    restricted: int,
    make_restriction: Any,
    algorithm: str,
    iterations: int,
    seed: int | None,
    options: Mapping[str, Any],
    meta: Mapping[str, Any],
) -> RestrictedResponse:
    if tree.num_players != 2:
        raise SolverError("restricted Nash responses are defined for two-player games")
    if restricted not in (0, 1):
        raise SolverError(f"restricted position must be 0 or 1, got {restricted}")
    check_game(tree.game, model.game, what="opponent model")
    model_sigma = profile_from_policy(tree, model)
    solver = make_solver(algorithm, tree, seed=seed, **options)
    restriction: Restriction = make_restriction(solver.engine, model_sigma)
    solver.restriction = restriction
    solver.run(iterations)
    responder = 1 - restricted
    average = solver.average_profile()
    engine = solver.engine
    counter_vs_model = _combine(engine, average, model_sigma, responder)
    exploitation = evaluate_profile(engine, counter_vs_model)
    free = evaluate_profile(engine, average)
    info = {"algorithm": solver.name, "iterations": iterations, "restricted": restricted, **meta}
    return RestrictedResponse(
        counter_strategy=policy_from_profile(tree, average, info, players=[responder]),
        profile=policy_from_profile(tree, average, info),
        responder=responder,
        exploitation=exploitation.values[responder],
        best_response_to_model=exploitation.best_response_values[responder],
        worst_case=-free.best_response_values[restricted],
        game_value=_game_value(tree, responder),
    )


def _combine(engine: Engine, responder_sigma: np.ndarray, other_sigma: np.ndarray, responder: int) -> np.ndarray:
    """``other_sigma`` with the responder's edges taken from ``responder_sigma``."""
    combined = other_sigma.copy()
    edges = engine.players[responder].edges
    combined[edges] = responder_sigma[edges]
    return combined


def _game_value(tree: PublicTree, player: int, iterations: int = 2000) -> float:
    """The equilibrium value of ``player``'s position (a DCFR solution, chips per hand)."""
    solver = make_solver("dcfr", tree)
    solver.run(iterations)
    return solver.evaluate().values[player]


def restricted_nash_response(
    game_or_tree: Game | PublicTree,
    model: Policy,
    p: float,
    *,
    restricted: int = 1,
    algorithm: str = "cfr+",
    iterations: int = 2000,
    seed: int | None = None,
    **options: Any,
) -> RestrictedResponse:
    """The ``p``-restricted Nash response to ``model`` of the restricted position's opponent."""
    tree = as_tree(game_or_tree)
    return _solve_restricted(
        tree,
        model,
        restricted,
        lambda engine, sigma: RootRestriction(engine, restricted, sigma, p),
        algorithm,
        iterations,
        seed,
        options,
        {"rnr_p": p},
    )


def mc_restricted_nash_response(
    game_or_tree: Game | PublicTree,
    model: Policy,
    p: float,
    *,
    restricted: int = 1,
    iterations: int = 2000,
    seed: int | None = None,
    **options: Any,
) -> RestrictedResponse:
    """MCRNR: :func:`restricted_nash_response` solved with outcome-sampling MCCFR."""
    return restricted_nash_response(
        game_or_tree,
        model,
        p,
        restricted=restricted,
        algorithm="os-mccfr",
        iterations=iterations,
        seed=seed,
        **options,
    )


def confidence_from_counts(
    counts: Mapping[str, float], p_max: float = 1.0, saturation: float = 10.0
) -> dict[str, float]:
    """Per information set, confidence ``p_max * min(1, n / saturation)`` from ``n`` observations.

    The linear ramp of Johanson and Bowling (2009): no data, no confidence; ``saturation``
    observations or more, full confidence ``p_max``.
    """
    if not 0.0 <= p_max <= 1.0 or saturation <= 0:
        raise SolverError("p_max must be in [0, 1] and saturation positive")
    return {key: p_max * min(1.0, max(0.0, float(n)) / saturation) for key, n in counts.items()}


def data_biased_response(
    game_or_tree: Game | PublicTree,
    model: Policy,
    confidence: Mapping[str, float] | float,
    *,
    restricted: int = 1,
    algorithm: str = "cfr+",
    iterations: int = 2000,
    seed: int | None = None,
    **options: Any,
) -> RestrictedResponse:
    """A data-biased response: the model is trusted per information set.

    ``confidence`` maps the restricted player's information-set keys to a confidence in
    [0, 1] (absent keys: 0), or is one confidence for every set.
    """
    tree = as_tree(game_or_tree)
    table = _confidence_array(tree, restricted, confidence)
    return _solve_restricted(
        tree,
        model,
        restricted,
        lambda engine, sigma: InfosetRestriction(engine, restricted, sigma, table),
        algorithm,
        iterations,
        seed,
        options,
        {"dbr": True},
    )


def _confidence_array(tree: PublicTree, restricted: int, confidence: Mapping[str, float] | float) -> np.ndarray:
    if isinstance(confidence, (int, float)):
        if not 0.0 <= confidence <= 1.0:
            raise SolverError(f"confidence must be in [0, 1], got {confidence}")
        return np.full((tree.num_nodes, tree.num_hands), float(confidence))
    table = np.zeros((tree.num_nodes, tree.num_hands))
    for node in tree.decision_nodes:
        if int(tree.player[node]) != restricted:
            continue
        for hand in np.flatnonzero(tree.valid[node]):
            value = confidence.get(tree.infoset_key(int(node), int(hand)), 0.0)
            if not 0.0 <= value <= 1.0:
                raise SolverError(f"confidence of {tree.infoset_key(int(node), int(hand))!r} is {value}, not in [0, 1]")
            table[node, hand] = value
    return table


__all__ = [
    "RestrictedResponse",
    "confidence_from_counts",
    "data_biased_response",
    "mc_restricted_nash_response",
    "restricted_nash_response",
]
