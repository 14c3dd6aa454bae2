"""The adaptive learner: equilibrium while it knows little, Bayesian exploitation as it learns.

**Model.** Bayesian model averaging (:class:`~models.bayes.mixture.MixtureModel`) over three
hypotheses about the opponent, sharing one slot numbering:

* the *spike*: it plays exactly our equilibrium ``pi*`` (prior probability ``spike``);
* the *slab*: it plays some policy drawn from independent Dirichlet priors centred on
  ``pi*`` with ``prior_strength`` pseudo-observations per information set (suit-free
  classes in games whose ranking ignores suits), learnt from showdowns and, with the hidden
  cards summed out, from folds (:class:`~models.bayes.dirichlet.DirichletModel`);
* the *card-blind* slab: the same, but one Dirichlet per betting sequence - its play does
  not depend on its cards (prior probability ``blind``; centred on ``pi*``'s average over
  the cards). When true (the ACPC ``random`` player, "calling stations") it learns many
  times faster than a model per information set.

**Response.** The Bayesian best response ``BR`` to the posterior (the reach-weighted
mixture of the spike and the slab's weighted particles).

**Safety rule**, in two layers: a posterior test decides *whether* to exploit, and a ledger
of the opponent's gifts (:mod:`~strategies.bayes.safety`) decides *how much* may be risked.

*The budget* (``safe=True``, the default) carries the worst-case guarantee. The ledger
books, after every hand, a lower bound of the opponent's mistakes against the profile
played (its regrets, from what the hand revealed) and what that profile risked; an
exploiting plan is played with the probability ``share = min(1, k / (r_p - w(BR)))`` that
the budget ``k`` allows (``pi*`` otherwise), where ``w(BR)`` is ``BR``'s value against a best
response and ``r_p`` the equilibrium's. Against every opponent and over every horizon the
learner's expected winnings are at least what ``pi*`` guarantees, minus ``allowance``
chips per hand (default 0: strictly safe; Ganzfried and Sandholm's RWYWE; proof in
:mod:`~strategies.bayes.safety`). Against an equilibrium player no gift is booked, so
``pi*`` is played whatever the test says.

*The test.* ``BR`` is considered only when the *procedure* "best-respond to what the data
suggest" passes an out-of-sample test on the posterior. For pairs of independent draws -
``sigma_k`` from the whole posterior, ``sigma_j`` ("the truth") with probability
``defensive`` from the slab's posterior and otherwise from the whole posterior - the best
response ``BR_k`` to ``sigma_k`` is evaluated against ``sigma_j``: ``sigma_k`` stands for a
noisy estimate of the opponent, ``sigma_j`` for the opponent, the posterior spread for the
estimation error. The rule exploits when

    mean over pairs of  u(BR_k, sigma_j) - u(pi*, sigma_j)  >  tolerance   and
    share of pairs with u(BR_k, sigma_j) < u(pi*, sigma_j) - tolerance  <=  delta

(values in chips per hand for our position); otherwise it plays ``pi*``. Two biases are
guarded against. Evaluating ``BR`` against the posterior it was fitted to is optimistic: a
best response also exploits the noise of its model (the winner's curse), and in Leduc, with
hundreds of information sets, that optimism exceeds the true gain against
near-equilibrium opponents; a best response to one draw, judged on another, carries that
noise (twice over, so the test errs on the safe side). And a restricted hypothesis that
wins the posterior while wrong (an opponent that looks card-blind for a while) would
vouch for itself; the slab's support holds every policy, so its posterior stays consistent,
and drawing half the truths from it exposes such responses. (``cross=False`` judges the
played ``BR`` itself instead: bolder, blind to the winner's curse.)

There is no switching hand: the test is repeated whenever the response is recomputed, so
exploitation starts when the evidence suffices and stops if it stops sufficing.
Consequences and limits (``docs/small-games.md``):

* the posterior concentrates as hands accumulate, the pairs' gains converge to the true
  gain, and the confidence in the exploitation grows with data;
* with no data the slab is centred on ``pi*`` and wide: best responses to its draws lose
  against other draws more often than ``delta``, so ``pi*`` is played: the learner starts
  as an equilibrium player (a test checks it);
* nothing gains against an equilibrium player; against one the spike's posterior weight
  tends to 1 (Occam's razor in the marginal likelihood) and the learner keeps to ``pi*``;
* ``pi*`` is played while little is known, which explores at no cost beyond the game value
  (in Kuhn, with ``gamma = 1``, the most exploratory P1 equilibrium of Southey, Hoehn and
  Holte 2009, section 5.3);
* the test alone is Bayesian, not a worst-case guarantee: against an opponent that is
  nearly an equilibrium but not ``pi*`` (Leduc CFR stopped early) its spurious passes lose
  against what ``pi*`` earns (``safe=False``); the budget caps such losses at the gifts the
  opponent made;
* an opponent that makes no mistakes against ``pi*`` gives nothing to risk: in Kuhn every
  P2 strategy of the family of Southey et al. (O1-O6) is a best response to every P1
  equilibrium, so
  as P1 the strictly safe learner earns exactly the game value against them (and so would
  any strictly safe rule: see :mod:`~strategies.bayes.safety`).

Recomputation follows a :class:`~strategies.bayes.learners.Schedule`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.coarse import CoarsenedModel
from pokerbot.models.bayes.dirichlet import DirichletModel
from pokerbot.models.bayes.mixture import MixtureModel
from pokerbot.models.bayes.portfolio import PortfolioModel
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.slots import KeyClass, SlotIndex, Table
from pokerbot.protocol.infosets import betting_class
from pokerbot.strategies.bayes.learners import Evaluate, Schedule
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.bayes.safety import SafetyLedger


@dataclass(frozen=True)
class AdaptiveConfig:
    """Settings of the adaptive learner (see the module docstring). Tolerance in chips per hand."""

    prior_strength: float = 2.0
    spike: float = 0.4
    blind: float = 0.2
    delta: float = 0.3
    tolerance: float = 1e-3
    particles: int = 64
    min_alpha: float = 1e-3
    warmup: int = 20
    growth: float = 0.1
    cross: bool = True
    """Validate best responses to single posterior draws (True), or the played response itself
    against the "truths" (False: bolder, blind to the winner's curse)."""
    defensive: float = 0.5
    """Share of the safety test's "truths" drawn from the general slab (the rest from the whole posterior)."""
    safe: bool = True
    """Risk only what the opponent has given away (:mod:`~strategies.bayes.safety`); False: the
    posterior test alone decides (without a guarantee)."""
    allowance: float = 0.0
    """Chips per hand credited to the safety budget besides the gifts: the most the learner
    may lose per hand, in expectation, beyond what its equilibrium guarantees (0: strictly safe)."""

    def __post_init__(self) -> None:
        if self.prior_strength <= 0 or self.particles < 1 or self.tolerance < 0 or self.allowance < 0:
            raise ValueError("prior_strength and particles must be positive, tolerance and allowance non-negative")
        if self.spike < 0 or self.blind < 0 or self.spike + self.blind >= 1 or not 0 <= self.delta <= 1:
            raise ValueError("spike and blind must be non-negative with spike + blind < 1, delta in [0, 1]")


@dataclass(frozen=True)
class Plan:
    """What the learner plays in one position until the next recomputation."""

    sigma: np.ndarray
    exploiting: bool
    confidence: float
    """Share of posterior pairs where best-responding does no worse than the equilibrium (within the tolerance)."""
    expected_gain: float
    """Mean over posterior pairs of the best response's value minus the equilibrium's (chips per hand)."""
    spike_weight: float
    """Posterior probability that the opponent plays exactly the equilibrium."""
    worst_case: float
    """``sigma``'s value against a best response to it (chips per hand)."""


@dataclass(frozen=True)
class HandChoice:
    """What the learner plays in one hand."""

    sigma: np.ndarray
    """The profile played."""
    response: np.ndarray
    """The plan's profile (the exploiting response, or the equilibrium)."""
    share: float
    """The probability with which ``response`` was drawn instead of the equilibrium."""
    risked: float
    """``share * (r_p - w(response))``: the budget the draw puts at stake (chips)."""


def adaptive_model(
    equilibrium: Table, config: AdaptiveConfig, key_class: KeyClass, seed: int | None = None
) -> MixtureModel:
    """The spike-and-slab posterior of the module docstring."""
    index = SlotIndex(equilibrium, key_class)
    rng = np.random.default_rng(seed)
    slab = DirichletModel(
        equilibrium,
        config.prior_strength,
        min_alpha=config.min_alpha,
        samples=config.particles,
        seed=int(rng.integers(2**63)),
        index=index,
    )
    components: list[OpponentModel] = [slab]
    weights = [1.0 - config.spike - config.blind]
    if config.spike > 0:
        components.insert(0, PortfolioModel([equilibrium], names=["equilibrium"], floor=1e-6, index=index))
        weights.insert(0, config.spike)
    if config.blind > 0:
        blind = DirichletModel(
            equilibrium,
            config.prior_strength,
            key_class=betting_class,
            min_alpha=config.min_alpha,
            samples=config.particles,
            seed=int(rng.integers(2**63)),
        )
        components.append(CoarsenedModel(blind, index))
        weights.append(config.blind)
    return MixtureModel(components, weights, seed=int(rng.integers(2**63)))


def general_component(model: OpponentModel) -> OpponentModel:
    """The first per-information-set Dirichlet component of a mixture (the slab), else ``model``."""
    if isinstance(model, MixtureModel):
        for component in model.components:
            if isinstance(component, DirichletModel):
                return component
    return model


class AdaptiveCore:
    """The adaptive learner on one public tree (a :class:`~strategies.bayes.learners.Learner`).

    ``equilibrium_sigma`` is the equilibrium profile array for both positions; ``model``
    any opponent model covering both positions, usually :func:`adaptive_model`;
    ``validator`` the model of the safety test (default :func:`general_component`).
    """

    def __init__(
        self,
        solver: ResponseSolver,
        equilibrium_sigma: np.ndarray,
        model: OpponentModel,
        config: AdaptiveConfig | None = None,
        validator: OpponentModel | None = None,
    ) -> None:
        self.solver = solver
        self.equilibrium = equilibrium_sigma
        self.model = model
        self.validator = validator if validator is not None else general_component(model)
        """The model whose posterior draws stand for the truth in the safety test."""
        self.config = config or AdaptiveConfig()
        self.schedule = Schedule(self.config.warmup, self.config.growth)
        self.version = 0
        self.rng = np.random.default_rng(model.rng.integers(2**63))
        self.plans: dict[int, Plan] = {}
        self._computed_at: dict[int, int] = {}
        self.ledger = SafetyLedger(solver, equilibrium_sigma, self.config.allowance) if self.config.safe else None
        """The budget of safe exploitation (None without the safety rule)."""
        self.hand: HandChoice | None = None
        """What the learner plays in the current (or last) hand."""
        self._pending: dict[int, HandChoice] = {}

    def observe(self, record: HandRecord) -> None:
        """Book the hand in the ledger, then update the posterior with it."""
        self.policy(record.position)
        choice = self._pending.pop(record.position)
        self._pending.clear()
        if self.ledger is not None:
            self.ledger.settle(record, choice.sigma, choice.risked)
        self.model.learn_record(record)

    def plan(self, position: int) -> Plan:
        """The current plan of ``position`` (recomputed when the schedule says so)."""
        hands = self.model.hands_seen
        if self.schedule.due(hands, self._computed_at.get(position, -1)):
            self.plans[position] = self._compute(position)
            self._computed_at[position] = hands
            self.version += 1
        return self.plans[position]

    def choose(self, position: int) -> HandChoice:
        """What to play in ``position`` next hand (fixed until :meth:`observe`): the plan's
        profile, except that with the safety rule an exploiting plan is played only with
        the probability ``share`` the ledger's budget allows (the equilibrium otherwise)."""
        choice = self._pending.get(position)
        if choice is not None:
            return choice
        plan = self.plan(position)
        if not plan.exploiting or self.ledger is None:
            choice = HandChoice(plan.sigma, plan.sigma, 1.0 if plan.exploiting else 0.0, 0.0)
        else:
            share = self.ledger.share(position, plan.worst_case)
            played = plan.sigma if self.rng.random() < share else self.equilibrium
            risked = share * (self.ledger.reference[position] - plan.worst_case)
            choice = HandChoice(played, plan.sigma, share, risked)
        self._pending[position] = choice
        self.hand = choice
        return choice

    def policy(self, position: int) -> np.ndarray:
        """The profile to play in ``position`` next hand (see :meth:`choose`)."""
        return self.choose(position).sigma

    def expected_value(self, position: int, evaluate: Evaluate) -> float:
        """``evaluate`` of the next hand's choice, averaged over the draw between the
        response and the equilibrium."""
        choice = self.choose(position)
        if choice.share in (0.0, 1.0):
            return evaluate(choice.sigma)
        return (1.0 - choice.share) * evaluate(self.equilibrium) + choice.share * evaluate(choice.response)

    def _draw(self, weights: np.ndarray, count: int) -> np.ndarray:
        """``count`` members drawn independently by weight."""
        return self.rng.choice(len(weights), size=count, p=weights)

    def _compute(self, position: int) -> Plan:
        solver, config = self.solver, self.config
        opponent = 1 - position
        means = self.model.expectation_set()
        reaches = solver.reaches(opponent, means.policies)
        response = solver.best_response_to_reach(position, solver.opponent_reach(opponent, means, reaches))
        draws = self.model.posterior()
        general = self.validator.posterior()
        truths = PosteriorSample(
            np.concatenate([general.policies, draws.policies]),
            np.concatenate([config.defensive * general.weights, (1.0 - config.defensive) * draws.weights]),
        )
        count = max(general.size, config.particles)  # a small portfolio still gets enough pairs
        pairs = np.stack([self._draw(draws.weights, count), self._draw(truths.weights, count)], axis=1)
        truth_reaches = solver.reaches(opponent, truths.policies)
        if config.cross:
            estimates = solver.best_responses(position, solver.reaches(opponent, draws.policies))
            exploit = solver.cross_values(position, estimates, truth_reaches, pairs)
        else:
            exploit = solver.values_from_reaches(position, response.sigma, truth_reaches)[pairs[:, 1]]
        safe = solver.values_from_reaches(position, self.equilibrium, truth_reaches)[pairs[:, 1]]
        difference = exploit - safe
        gain = float(difference.mean())
        confidence = float(np.mean(difference >= -config.tolerance))
        exploiting = gain > config.tolerance and confidence >= 1.0 - config.delta
        spike = 0.0
        if isinstance(self.model, MixtureModel) and isinstance(self.model.components[0], PortfolioModel):
            spike = float(self.model.weights()[0])
        if not exploiting:
            return Plan(self.equilibrium, False, confidence, gain, spike, self._worst_case(position, self.equilibrium))
        return Plan(response.sigma, True, confidence, gain, spike, self._worst_case(position, response.sigma))

    def _worst_case(self, position: int, sigma: np.ndarray) -> float:
        if self.ledger is not None:
            return self.ledger.worst_case(position, sigma)
        return self.solver.worst_case(position, sigma)


__all__ = ["AdaptiveConfig", "AdaptiveCore", "HandChoice", "Plan", "adaptive_model", "general_component"]
