"""Kuhn poker from P1's side, vectorised over independent trials (Southey, Hoehn and Holte's (2009) experiments).

Cards are ``0, 1, 2`` for the paper's Jack, Queen, King; P1 is ``(alpha, beta, gamma)`` and
P2 ``(eta, xi)``, both without dominated strategies, every parameter an array over trials.
:func:`ev` is the paper's equation (1) (P1's expected chips per hand), :func:`outcomes`
the exact distribution of P1's chips in one hand (``-2, -1, +1, +2``), :func:`play` one
simulated hand of every trial, :func:`observations` the increments of Southey, Hoehn and Holte's (2009) counts
``A .. F`` (:class:`bot.experiments.kuhn_models.KuhnP2Model`) that P1 learns from it.

:func:`parameter_learning` runs explore-then-exploit parameter learning (MAP estimates of
``(eta, xi)``, best response after the switch) for every switching hand at once, and
:func:`strategy_learning` sequential Exp4 over Southey, Hoehn and Holte's (2009) seven experts.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from pokerbot.bot.experiments.exp4 import SequentialExp4
from pokerbot.bot.experiments.kuhn_models import KuhnPrior, map_eta, map_xi

PURE = np.array(list(product((0.0, 1.0), repeat=3)))
"""P1's eight pure strategies S0 .. S7 as ``(alpha, beta, gamma)``."""
EXPERTS = np.vstack([PURE[1:7], [[1.0 / 6.0, 0.5, 0.5]]])
"""Southey, Hoehn and Holte's (2009) experts: the six pure best responses S1 .. S6 and the Nash
strategy (1/6, 1/2, 1/2)."""
VALUES = np.array([-2.0, -1.0, 1.0, 2.0])
"""P1's possible winnings in one hand (chips), the columns of :func:`outcomes`."""
BALANCED = (1.0, 1.0, 0.5)
"""Southey, Hoehn and Holte's (2009) balanced exploration strategy."""
GAME_VALUE = -1.0 / 18.0


def nash(gamma: float) -> tuple[float, float, float]:
    """P1's Nash strategy with ``gamma``: ``(gamma / 3, (1 + gamma) / 3, gamma)``."""
    return gamma / 3.0, (1.0 + gamma) / 3.0, gamma


Number = np.ndarray | float
"""A parameter: one value, or an array over trials."""


def ev(a: Number, b: Number, g: Number, e: Number, x: Number) -> np.ndarray:
    """Southey, Hoehn and Holte (2009) equation (1): P1's expected chips per hand, elementwise."""
    return np.asarray((e * (-3.0 * a + g) + x * (-1.0 + 3.0 * b - g) + a - b) / 6.0)


def best_pure(eta: np.ndarray, xi: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """Index into :data:`PURE` of P1's best response to ``(eta, xi)``; ties are broken
    uniformly at random with ``rng`` (else the first)."""
    values = np.stack([ev(a, b, g, eta, xi) for a, b, g in PURE], axis=-1)
    return argmax_random_ties(values, rng)


def argmax_random_ties(values: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
    """argmax over the last axis, choosing uniformly among (near-)ties when ``rng`` is given."""
    if rng is None:
        return np.argmax(values, axis=-1)
    ties = values >= values.max(axis=-1, keepdims=True) - 1e-12
    return np.argmax(np.where(ties, rng.random(values.shape), -1.0), axis=-1)


def best_response_value(eta: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """P1's best-response value against ``(eta, xi)`` (chips per hand)."""
    return np.max(np.stack([ev(a, b, g, eta, xi) for a, b, g in PURE], axis=-1), axis=-1)


def outcomes(a: Number, b: Number, g: Number, e: Number, x: Number) -> np.ndarray:
    """``[..., 4]``: probabilities of P1 winning ``-2, -1, +1, +2`` chips in one hand."""
    a, b, g, e, x = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, g, e, x)))
    result: np.ndarray = np.zeros((*a.shape, 4))
    bet_p1 = (a, np.zeros_like(a), g)
    call_p2 = (np.zeros_like(a), e, np.ones_like(a))
    bet_p2 = (x, np.zeros_like(a), np.ones_like(a))
    call_p1 = (np.zeros_like(a), b, np.ones_like(a))
    for c1, c2 in ((i, j) for i in range(3) for j in range(3) if i != j):
        win = c1 > c2
        big, small = (3, 2) if win else (0, 1)
        p_bet = bet_p1[c1]
        result[..., big] += p_bet * call_p2[c2] / 6
        result[..., 2] += p_bet * (1 - call_p2[c2]) / 6
        p_check = 1 - p_bet
        result[..., big] += p_check * bet_p2[c2] * call_p1[c1] / 6
        result[..., 1] += p_check * bet_p2[c2] * (1 - call_p1[c1]) / 6
        result[..., small] += p_check * (1 - bet_p2[c2]) / 6
    return result


@dataclass(frozen=True)
class Hand:
    """One hand of every trial: cards (0 = Jack), the four possible moves, P1's chips."""

    c1: np.ndarray
    c2: np.ndarray
    bet: np.ndarray
    """P1 bets first."""
    call: np.ndarray
    """P2 calls P1's bet."""
    bet2: np.ndarray
    """P2 bets after P1's check."""
    call1: np.ndarray
    """P1 calls P2's bet."""
    chips: np.ndarray


_PAIRS = np.array([(i, j) for i in range(3) for j in range(3) if i != j])


def play(a: Number, b: Number, g: Number, e: Number, x: Number, rng: np.random.Generator, trials: int) -> Hand:
    """Deal and play one hand of every trial (parameters broadcast over ``trials``)."""
    pair = _PAIRS[rng.integers(0, 6, trials)]
    c1, c2 = pair[:, 0], pair[:, 1]
    ones = np.ones(trials)
    a, b, g, e, x = (np.broadcast_to(np.asarray(v, dtype=float), (trials,)) for v in (a, b, g, e, x))
    u = rng.random((4, trials))
    bet = u[0] < np.choose(c1, [a, 0 * ones, g])
    call = u[1] < np.choose(c2, [0 * ones, e, ones])
    bet2 = u[2] < np.choose(c2, [x, 0 * ones, ones])
    call1 = u[3] < np.choose(c1, [0 * ones, b, ones])
    sign = np.where(c1 > c2, 1.0, -1.0)
    chips = np.where(bet, np.where(call, 2 * sign, 1.0), np.where(bet2, np.where(call1, 2 * sign, -1.0), sign))
    return Hand(c1, c2, bet, call, bet2, call1, chips)


def observations(hand: Hand) -> np.ndarray:
    """``[6, trials]``: the increments of Southey, Hoehn and Holte's (2009) ``A, B, C, D, E, F`` (prior excluded)."""
    c1, c2, bet, call, bet2, call1 = hand.c1, hand.c2, hand.bet, hand.call, hand.bet2, hand.call1
    return np.stack(
        [
            bet & call & (c2 == 1),  # JQbB, KQbB
            bet & ~call & (c1 == 0),  # J(Q)bP
            bet & ~call & (c1 == 2),  # K?bP
            ~bet & bet2 & call1 & (c2 == 0),  # QJpBb, KJpBb
            ~bet & ~bet2 & (c2 == 0) & (c1 > 0),  # QJpP, KJpP
            ~bet & bet2 & ~call1 & (c1 == 1),  # Q?pBp
        ]
    ).astype(float)


def p1_action_probability(params: np.ndarray, hand: Hand) -> np.ndarray:
    """``[trials, K]``: each P1 strategy's (``params`` ``[K, 3]``) probability of P1's observed actions."""
    a, b, g = params[:, 0][None], params[:, 1][None], params[:, 2][None]
    c1 = hand.c1[:, None]
    p_bet = np.where(c1 == 0, a, np.where(c1 == 1, 0.0, g))
    first = np.where(hand.bet[:, None], p_bet, 1.0 - p_bet)
    p_call = np.where(c1 == 0, 0.0, np.where(c1 == 1, b, 1.0))
    second = np.where(hand.call1[:, None], p_call, 1.0 - p_call)
    faced = (~hand.bet & hand.bet2)[:, None]
    return first * np.where(faced, second, 1.0)


@dataclass(frozen=True)
class SwitchRun:
    """An explore-then-exploit run for every switching hand ``t = 0 .. H`` (arrays over trials).

    ``rate[:, t]`` is the exact expected payoff per hand after switching at ``t``;
    ``explore_value[:, h]`` the exact expected value of hand ``h`` while exploring;
    ``chips[:, h]`` P1's chips in hand ``h`` while exploring; ``exploit[:, t]`` the
    strategy ``(alpha, beta, gamma)`` played after switching at ``t`` (``[N, H+1, 3]``).
    """

    rate: np.ndarray
    explore_value: np.ndarray
    chips: np.ndarray
    exploit: np.ndarray


@dataclass(frozen=True)
class Exploration:
    """A fixed exploration strategy played for ``H`` hands in every trial: P1's counts of
    Southey, Hoehn and Holte's (2009) observations before each hand (``counts[k, trial, t]``, ``t = 0 .. H``) and
    chips won in each hand."""

    strategy: tuple[float, float, float]
    counts: np.ndarray
    chips: np.ndarray


def explore(
    strategy: tuple[float, float, float], eta: np.ndarray, xi: np.ndarray, hands: int, rng: np.random.Generator
) -> Exploration:
    """Play ``strategy`` for ``hands`` hands against every trial's ``(eta, xi)``."""
    trials = eta.shape[0]
    counts = np.zeros((6, trials, hands + 1), dtype=np.int16)
    chips = np.empty((trials, hands), dtype=np.int8)
    running = np.zeros((6, trials))
    for h in range(hands):
        hand = play(*strategy, eta, xi, rng, trials)
        running += observations(hand)
        counts[:, :, h + 1] = running
        chips[:, h] = hand.chips
    return Exploration(strategy, counts, chips)


def parameter_learning(
    exploration: Exploration,
    eta: np.ndarray,
    xi: np.ndarray,
    prior: KuhnPrior,
    hands: int | None = None,
    rng: np.random.Generator | None = None,
) -> SwitchRun:
    """Explore for ``t`` hands, then play the best response to the MAP estimate of
    ``(eta, xi)`` under ``prior`` (every ``t`` up to ``hands``, default all explored; ties
    between best responses broken at random with ``rng``)."""
    length = exploration.chips.shape[1] if hands is None else hands
    counts = exploration.counts[:, :, : length + 1].astype(float)
    eta_hat = map_eta(counts[0] + prior.eta.theta, counts[1] + prior.eta.omega, counts[2], prior.eta.mode)
    xi_hat = map_xi(counts[3] + prior.xi.theta, counts[4] + prior.xi.omega, counts[5], prior.xi.mode)
    chosen = PURE[best_pure(eta_hat, xi_hat, rng)]
    rate = ev(chosen[..., 0], chosen[..., 1], chosen[..., 2], eta[:, None], xi[:, None])
    value = np.broadcast_to(ev(*exploration.strategy, eta, xi)[:, None], (eta.shape[0], length))
    return SwitchRun(rate, np.asarray(value), exploration.chips[:, :length].astype(float), chosen)


def strategy_learning(
    eta: np.ndarray, xi: np.ndarray, hands: int, rng: np.random.Generator, *, rho: float = 1.0, psi: float = 0.75
) -> SwitchRun:
    """Sequential Exp4 over :data:`EXPERTS` with per-card scores; after switching at ``t``
    the highest-scored expert plays on (ties, e.g. at ``t = 0``, broken at random)."""
    trials = eta.shape[0]
    exp4 = SequentialExp4(len(EXPERTS), 3, rho=rho, psi=psi, runs=trials, seed=int(rng.integers(2**63)))
    expert_values = np.stack([ev(a, b, g, eta, xi) for a, b, g in EXPERTS], axis=1)
    best = np.empty((trials, hands + 1), dtype=np.int64)
    value = np.empty((trials, hands))
    chips = np.empty((trials, hands))
    rows = np.arange(trials)
    for h in range(hands + 1):
        best[:, h] = argmax_random_ties(exp4.expert_scores(), rng)
        if h == hands:
            break
        p = exp4.probabilities()
        value[:, h] = (p * expert_values).sum(axis=1)
        chosen = EXPERTS[exp4.choose(p)]
        hand = play(chosen[:, 0], chosen[:, 1], chosen[:, 2], eta, xi, rng, trials)
        q = p1_action_probability(EXPERTS, hand)
        exp4.update(hand.c1, q, (hand.chips + 2.0) / 4.0, p)
        chips[:, h] = hand.chips
    rate = expert_values[rows[:, None], best]
    return SwitchRun(rate, value, chips, EXPERTS[best])


def realised_totals(
    run: SwitchRun, eta: np.ndarray, xi: np.ndarray, switches: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """``[trials, len(switches)]``: P1's chips over the match when switching at each of
    ``switches`` (exploration chips as played, exploitation chips sampled exactly from the
    exploiting strategy's outcome distribution)."""
    hands = run.chips.shape[1]
    explored = np.concatenate([np.zeros((run.chips.shape[0], 1)), np.cumsum(run.chips, axis=1)], axis=1)
    strategy = run.exploit[:, switches]
    probs = outcomes(strategy[..., 0], strategy[..., 1], strategy[..., 2], eta[:, None], xi[:, None])
    remaining = np.broadcast_to(hands - switches, probs.shape[:2])
    counts = rng.multinomial(remaining, np.clip(probs, 0.0, 1.0) / probs.sum(axis=-1, keepdims=True))
    return explored[:, switches] + counts @ VALUES


__all__ = [
    "BALANCED",
    "EXPERTS",
    "GAME_VALUE",
    "PURE",
    "VALUES",
    "Exploration",
    "Hand",
    "SwitchRun",
    "argmax_random_ties",
    "best_pure",
    "best_response_value",
    "ev",
    "explore",
    "nash",
    "observations",
    "outcomes",
    "p1_action_probability",
    "parameter_learning",
    "play",
    "realised_totals",
    "strategy_learning",
]
