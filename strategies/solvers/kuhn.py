"""Kuhn poker policies and analysis from Southey, Hoehn and Holte (2009).

In the ACPC ``kuhn`` game the deck is ``Qs Ks As`` (one suit, the top three ranks), so the
paper's Jack, Queen and King are ``Qs``, ``Ks`` and ``As``; its player 1 (P1) is position 0,
who acts first; bets and antes are 1 chip. Without dominated strategies:

* P1 is ``(alpha, beta, gamma)``: alpha = P(bet | Jack), beta = P(call a bet after
  checking | Queen), gamma = P(bet | King); P1 never bets the Queen, folds the Jack to a
  bet and calls with the King;
* P2 is ``(eta, xi)``: eta = P(call a bet | Queen), xi = P(bet after a check | Jack); P2
  calls with the King, folds the Jack to a bet, bets the King and checks the Queen after
  a check.

The Nash equilibria are P1 = ``(gamma/3, (1+gamma)/3, gamma)`` for gamma in [0, 1] against
P2 = ``(1/3, 1/3)``, worth -1/18 chip per hand to P1. :func:`expected_value` is the paper's
equation (1), P1's expected chips per hand. :data:`OPPONENTS` are its six test opponents.
"""

from __future__ import annotations

from itertools import product

from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.solvers.policy import Policy

JACK, QUEEN, KING = "Qs", "Ks", "As"
"""The paper's cards as ACPC card strings of the ``kuhn`` game."""
GAME_VALUE = -1.0 / 18.0
"""P1's (position 0's) equilibrium value, in chips per hand."""
OPPONENTS: dict[str, tuple[float, float]] = {
    "O1": (0.25, 0.67),
    "O2": (0.75, 0.8),
    "O3": (0.67, 0.4),
    "O4": (0.5, 0.29),
    "O5": (0.25, 0.17),
    "O6": (0.17, 0.2),
}
"""The six P2 test opponents of Southey et al. as ``(eta, xi)``."""


def _game(game: Game | None) -> Game:
    return load_game("kuhn") if game is None else game


def _bet(p: float) -> dict[str, float]:
    return {"c": 1.0 - p, "r": p}


def _call(p: float) -> dict[str, float]:
    return {"f": 1.0 - p, "c": p}


def _check(name: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value}")


def p1_table(alpha: float, beta: float, gamma: float) -> dict[str, dict[str, float]]:
    """P1's (position 0's) information sets for ``(alpha, beta, gamma)``."""
    for name, value in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
        _check(name, value)
    return {
        f"{JACK}:": _bet(alpha),
        f"{QUEEN}:": _bet(0.0),
        f"{KING}:": _bet(gamma),
        f"{JACK}:cr": _call(0.0),
        f"{QUEEN}:cr": _call(beta),
        f"{KING}:cr": _call(1.0),
    }


def p2_table(eta: float, xi: float) -> dict[str, dict[str, float]]:
    """P2's (position 1's) information sets for ``(eta, xi)``."""
    _check("eta", eta)
    _check("xi", xi)
    return {
        f"{JACK}:r": _call(0.0),
        f"{QUEEN}:r": _call(eta),
        f"{KING}:r": _call(1.0),
        f"{JACK}:c": _bet(xi),
        f"{QUEEN}:c": _bet(0.0),
        f"{KING}:c": _bet(1.0),
    }


def profile_policy(alpha: float, beta: float, gamma: float, eta: float, xi: float, game: Game | None = None) -> Policy:
    """Both players' policy for P1 = ``(alpha, beta, gamma)`` and P2 = ``(eta, xi)``."""
    meta = {"kuhn": {"alpha": alpha, "beta": beta, "gamma": gamma, "eta": eta, "xi": xi}}
    return Policy(_game(game), {**p1_table(alpha, beta, gamma), **p2_table(eta, xi)}, meta)


def p1_policy(alpha: float, beta: float, gamma: float, game: Game | None = None) -> Policy:
    """P1's information sets only (P2's are absent: they play uniformly where needed)."""
    return Policy(_game(game), p1_table(alpha, beta, gamma), {"kuhn": {"alpha": alpha, "beta": beta, "gamma": gamma}})


def p2_policy(eta: float, xi: float, game: Game | None = None) -> Policy:
    """P2's information sets only."""
    return Policy(_game(game), p2_table(eta, xi), {"kuhn": {"eta": eta, "xi": xi}})


def nash_parameters(gamma: float) -> tuple[float, float, float]:
    """P1's equilibrium ``(alpha, beta, gamma)`` for ``gamma`` in [0, 1]."""
    _check("gamma", gamma)
    return gamma / 3.0, (1.0 + gamma) / 3.0, gamma


def nash_policy(gamma: float = 0.5, game: Game | None = None) -> Policy:
    """An equilibrium for both players: P1 from the family with ``gamma``, P2 = (1/3, 1/3)."""
    alpha, beta, gamma = nash_parameters(gamma)
    return profile_policy(alpha, beta, gamma, 1.0 / 3.0, 1.0 / 3.0, game)


def opponent_policy(name: str, game: Game | None = None) -> Policy:
    """The test opponent ``O1`` .. ``O6`` (P2's information sets only)."""
    if name not in OPPONENTS:
        raise KeyError(f"unknown Kuhn opponent {name!r}: choose from {', '.join(OPPONENTS)}")
    eta, xi = OPPONENTS[name]
    return p2_policy(eta, xi, game).with_meta(opponent=name)


def expected_value(alpha: float, beta: float, gamma: float, eta: float, xi: float) -> float:
    """Southey et al.'s equation (1): P1's expected chips per hand (no dominated strategies)."""
    return (eta * (-3.0 * alpha + gamma) + xi * (-1.0 + 3.0 * beta - gamma) + alpha - beta) / 6.0


def best_response_value(eta: float, xi: float) -> float:
    """P1's best-response value against P2 = ``(eta, xi)``: the best of P1's pure strategies."""
    return max(expected_value(a, b, g, eta, xi) for a, b, g in product((0.0, 1.0), repeat=3))


def p1_parameters(policy: Policy) -> tuple[float, float, float]:
    """``(alpha, beta, gamma)`` read from a policy's P1 information sets."""
    return (
        policy.action_probabilities(f"{JACK}:")["r"],
        policy.action_probabilities(f"{QUEEN}:cr")["c"],
        policy.action_probabilities(f"{KING}:")["r"],
    )


def p2_parameters(policy: Policy) -> tuple[float, float]:
    """``(eta, xi)`` read from a policy's P2 information sets."""
    return policy.action_probabilities(f"{QUEEN}:r")["c"], policy.action_probabilities(f"{JACK}:c")["r"]


def nash_family_distance(policy: Policy) -> float:
    """How far P1's part of ``policy`` is from the Nash family, in probability.

    The largest violation among alpha = gamma/3, beta = (1+gamma)/3 and the dominated
    actions (betting the Queen, calling with the Jack, folding the King): 0 for a member.
    """
    alpha, beta, gamma = p1_parameters(policy)
    return max(
        abs(alpha - gamma / 3.0),
        abs(beta - (1.0 + gamma) / 3.0),
        policy.action_probabilities(f"{QUEEN}:")["r"],
        policy.action_probabilities(f"{JACK}:cr")["c"],
        policy.action_probabilities(f"{KING}:cr")["f"],
    )


__all__ = [
    "GAME_VALUE",
    "JACK",
    "KING",
    "OPPONENTS",
    "QUEEN",
    "best_response_value",
    "expected_value",
    "nash_family_distance",
    "nash_parameters",
    "nash_policy",
    "opponent_policy",
    "p1_parameters",
    "p1_policy",
    "p1_table",
    "p2_parameters",
    "p2_policy",
    "p2_table",
    "profile_policy",
]
