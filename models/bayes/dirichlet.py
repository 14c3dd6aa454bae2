"""Explicit opponent model: an independent Dirichlet posterior per information-set class.

The prior at class ``I`` is ``Dirichlet(strength * centre(I))`` (each parameter at least
``min_alpha``), centred on a chosen policy - the uniform policy, or an equilibrium, as in
Tansey 2013 ("two times the Nash strategy") - with a chosen strength (pseudo-observations per
information set). Learning follows Southey et al. ("Bayes' Bluff") and Tansey 2013:

* a **showdown** reveals the opponent's cards, so every decision of the hand is a direct
  observation of its class (conjugate: the count is added to the Dirichlet parameters);
* after a **fold** the cards are unknown; the likelihood of the hand is
  ``sum_h P(h) prod_d sigma(h, d)`` over the candidate hands ``h``, which couples the
  classes. The exact posterior is a mixture of Dirichlet products, one component per
  assignment of hands to the folded hands: :meth:`DirichletModel.exact_posterior`
  enumerates it when the hidden cards are few.

In general the mixture is represented by **importance sampling**, sequentially and with the
Dirichlet parameters integrated out (a Rao-Blackwellised particle filter): each of
``samples`` particles is one assignment of hidden hands to the folded hands, summarised by
its completed counts, with an importance weight. A new hand multiplies each particle's
weight by the hand's posterior-predictive probability under that particle (hidden cards
summed out: ``sum_h P(h) prod_d mean(h, d)``) and, after a fold, draws the particle's
hidden hand from its posterior. When the effective sample size falls below
``resample_fraction * samples`` the particles are resampled and moved by a Gibbs sweep
that leaves the posterior invariant (a policy drawn from the particle's Dirichlet, then
every folded hand's hidden cards given that policy).

:meth:`DirichletModel.posterior` gives one policy drawn from each particle's Dirichlet (for
Thompson responses and posterior probabilities); :meth:`DirichletModel.expectation_set`
gives each particle's mean, which is exact for anything linear in the opponent's strategy.
:meth:`DirichletModel.map_array` finds the MAP policy by expectation-maximisation over the
hidden cards (the exact closed form of Southey et al. in Kuhn, see :mod:`pokerbot.bot.experiments.kuhn_models`).
"""

from __future__ import annotations

from itertools import product

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.errors import BayesModelError, PriorError
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.slots import (
    CompiledRecord,
    KeyClass,
    RecordBatch,
    SlotIndex,
    Table,
    safe_log,
    with_sentinel,
)
from pokerbot.models.bayes.special import log_beta, normalised_weights
from pokerbot.protocol.infosets import identity_class

DEFAULT_SAMPLES = 64
"""Particles of the importance-sampled posterior."""
MAX_EXACT_COMPONENTS = 4096
"""The most mixture components :meth:`DirichletModel.exact_posterior` enumerates."""


class DirichletModel(OpponentModel):
    """Dirichlet posterior per class of opponent information sets (see the module docstring).

    ``prior`` is the centre policy (a table covering every information set the opponent
    may reach), ``strength`` the prior's pseudo-observations per class, ``samples`` the
    particle count, ``moves`` the Gibbs sweeps per rejuvenation. Pass ``index`` to share a
    slot numbering with other models.
    """

    def __init__(
        self,
        prior: Table,
        strength: float = 2.0,
        *,
        key_class: KeyClass = identity_class,
        min_alpha: float = 1e-3,
        samples: int = DEFAULT_SAMPLES,
        resample_fraction: float = 0.5,
        moves: int = 3,
        seed: int | None = None,
        index: SlotIndex | None = None,
    ) -> None:
        if strength <= 0 or min_alpha <= 0 or samples < 1 or moves < 0 or not 0 <= resample_fraction <= 1:
            raise PriorError("strength, min_alpha and samples must be positive, resample_fraction in [0, 1]")
        self.index = index if index is not None else SlotIndex(prior, key_class)
        centre = self.index.from_table(prior)
        self.strength = float(strength)
        self.alpha = np.maximum(strength * centre, min_alpha)
        """Prior Dirichlet parameters per slot (pseudo-counts)."""

        self.counts = np.zeros(self.index.num_slots)
        """Observed decisions per slot from showdowns (and other fully observed hands)."""
        self.folds = RecordBatch(self.index.sentinel)
        self.samples = samples
        self.resample_fraction = resample_fraction
        self.moves = moves
        self.rng = np.random.default_rng(seed)
        self.hands_seen = 0
        self.rejuvenations = 0
        self.assigned = np.zeros((samples, self.index.num_slots))
        """``[particle, slot]`` decisions of the folded hands under each particle's hidden hands."""
        self.log_weights = np.zeros(samples)
        self._posterior: PosteriorSample | None = None
        self._log_mean_cache: np.ndarray | None = None

    # ---------------------------------------------------------------- particles
    def parameters(self) -> np.ndarray:
        """``[particle, slot]`` each particle's Dirichlet parameters."""
        return self.alpha + self.counts + self.assigned

    def weights(self) -> np.ndarray:
        """The particles' normalised weights."""
        return normalised_weights(self.log_weights)

    def effective_size(self) -> float:
        """Kish's effective sample size of the particles."""
        return float(1.0 / np.sum(self.weights() ** 2))

    def _log_means(self) -> np.ndarray:
        if self._log_mean_cache is None:
            self._log_mean_cache = with_sentinel(safe_log(self.index.normalise(self.parameters())))
        return self._log_mean_cache

    def _changed(self) -> None:
        self._posterior = None
        self._log_mean_cache = None

    def _hand_terms(self, compiled: CompiledRecord) -> np.ndarray:
        """``[particle, candidate]``: log P(h) + log predictive of the path under each particle."""
        return self._log_means()[:, compiled.paths].sum(axis=-1) + compiled.log_weights

    # ---------------------------------------------------------------- learning
    def log_predictive(self, record: HandRecord) -> float:
        """Log posterior-predictive probability of the record's opponent actions."""
        compiled = self.index.compile(record)
        if compiled.paths.shape[1] == 0:
            return 0.0
        per_particle = _logsumexp(self._hand_terms(compiled), axis=1)
        terms = per_particle + np.log(np.maximum(self.weights(), 1e-300))
        return float(_logsumexp(terms, axis=0))

    def learn_record(self, record: HandRecord) -> None:
        """Weigh each particle by the hand's predictive probability and extend it."""
        self.learn_and_score(record)

    def learn_and_score(self, record: HandRecord) -> float:
        """Learn ``record``; return its log predictive probability from before."""
        return self.learn_compiled(self.index.compile(record))

    def learn_compiled(self, compiled: CompiledRecord) -> float:
        """:meth:`learn_record` for an already compiled record; returns the record's log
        predictive probability from before learning it."""
        self.hands_seen += 1
        if compiled.paths.shape[1] == 0:
            return 0.0
        terms = self._hand_terms(compiled)
        per_particle = _logsumexp(terms, axis=1)
        score = float(_logsumexp(per_particle + np.log(np.maximum(self.weights(), 1e-300)), axis=0))
        self._changed()
        self.log_weights = self.log_weights + per_particle
        self.log_weights -= self.log_weights.max()
        if compiled.ambiguous:
            chosen = np.argmax(terms + self.rng.gumbel(size=terms.shape), axis=1)
            rows = np.repeat(np.arange(self.samples), compiled.paths.shape[1])
            np.add.at(self.assigned, (rows, compiled.paths[chosen].ravel()), 1.0)
            self.folds.append(compiled)
        else:
            np.add.at(self.counts, compiled.paths[0], 1.0)
        self._maybe_rejuvenate()
        return score

    def add_pseudo_counts(self, policy: np.ndarray, weight: float = 1.0) -> None:
        """Add ``weight * policy`` (any non-negative vector, or a change keeping the
        parameters positive) to the prior parameters; see below."""
        self._shift_prior(weight * policy)

    def _shift_prior(self, change: np.ndarray) -> None:
        """Move the prior parameters by ``change`` (policy bootstrapping); the
        particles are reweighted by the change of their marginal likelihood (only classes
        where the particles' completed counts differ matter: the rest is a common factor)."""
        old = self.alpha
        new = old + change
        self.alpha = new
        self._changed()
        index = self.index
        varying = self.assigned.max(axis=0) != self.assigned.min(axis=0)
        classes = np.flatnonzero(np.add.reduceat(varying.astype(np.int64), index.class_start) > 0)
        if len(classes) == 0:
            return
        slots = np.isin(index.group_of_slot, classes)
        fixed = (self.counts + self.assigned)[:, slots]
        sub_starts = np.concatenate(([0], np.cumsum(index.class_size[classes])[:-1]))
        change = log_beta(new[slots] + fixed, sub_starts) - log_beta(old[slots] + fixed, sub_starts)
        self.log_weights = self.log_weights + change
        self.log_weights -= self.log_weights.max()
        self._maybe_rejuvenate()

    def _maybe_rejuvenate(self) -> None:
        if self.effective_size() < self.resample_fraction * self.samples:
            self.rejuvenate()

    def rejuvenate(self) -> None:
        """Resample the particles (systematic) and move each by :attr:`moves` Gibbs sweeps."""
        weights = self.weights()
        positions = (self.rng.random() + np.arange(self.samples)) / self.samples
        chosen = np.minimum(np.searchsorted(np.cumsum(weights), positions), self.samples - 1)
        self.assigned = self.assigned[chosen]
        for _ in range(self.moves):
            self._gibbs_sweep()
        self.log_weights = np.zeros(self.samples)
        self.rejuvenations += 1
        self._changed()

    def _gibbs_sweep(self) -> None:
        """A policy from each particle's Dirichlet, then every folded hand's hidden cards given it."""
        if not len(self.folds):
            return
        policies = self._dirichlet(self.parameters())
        paths, log_weights = self.folds.stacked()
        terms = with_sentinel(safe_log(policies))[:, paths].sum(axis=-1) + log_weights[None]
        hands = np.argmax(terms + self.rng.gumbel(size=terms.shape), axis=-1)
        chosen = paths[np.arange(paths.shape[0])[None, :], hands]
        width = self.index.num_slots + 1
        flat = (np.arange(self.samples)[:, None, None] * width + chosen).ravel()
        counts = np.bincount(flat, minlength=self.samples * width).reshape(self.samples, width)
        self.assigned = counts[:, :-1].astype(float)

    def _dirichlet(self, parameters: np.ndarray) -> np.ndarray:
        return self.index.normalise(self.rng.gamma(parameters))

    # --------------------------------------------------------------- posterior
    def posterior(self) -> PosteriorSample:
        """One policy drawn from each particle's Dirichlet, with the particles' weights."""
        if self._posterior is None:
            self._posterior = PosteriorSample(self._dirichlet(self.parameters()), self.weights())
        return self._posterior

    def expectation_set(self) -> PosteriorSample:
        """Each particle's mean policy with its weight (exact for linear functionals)."""
        return PosteriorSample(self.index.normalise(self.parameters()), self.weights())

    def predictive(self) -> np.ndarray:
        """The posterior mean: exact when the exact posterior is small, else the particles'."""
        if self.exact_components() <= 64:
            return self.exact_posterior().mean()
        return self.expectation_set().mean()

    def exact_components(self) -> int:
        """How many Dirichlet components the exact posterior has (1 without folded hands)."""
        total = 1
        for record in self.folds.records:
            total *= record.paths.shape[0]
            if total > MAX_EXACT_COMPONENTS:
                return total
        return total

    def exact_posterior(self, max_components: int = MAX_EXACT_COMPONENTS) -> PosteriorSample:
        """The exact posterior mixture, by enumerating the folded hands' hidden cards.

        Returns the components' mean vectors with their posterior weights: every linear
        functional of the opponent (e.g. the value of a fixed strategy against it) is exact.
        Raises :class:`BayesModelError` when there are more than ``max_components``.
        """
        components = self.exact_components()
        if components > max_components:
            raise BayesModelError(f"the exact posterior has {components} components (limit {max_components})")
        base = self.alpha + self.counts
        records = self.folds.records
        completed, log_weights = [], []
        for choice in product(*(range(record.paths.shape[0]) for record in records)):
            counts = base.copy()
            log_weight = 0.0
            for record, h in zip(records, choice, strict=True):
                np.add.at(counts, record.paths[h], 1.0)
                log_weight += float(record.log_weights[h])
            completed.append(counts)
            log_weights.append(log_weight)
        parameters = np.array(completed)
        logs = np.array(log_weights) + log_beta(parameters, self.index.class_start)
        weights = np.exp(logs - logs.max())
        return PosteriorSample(self.index.normalise(parameters), weights / weights.sum())

    def map_array(self, iterations: int = 200, tolerance: float = 1e-12) -> np.ndarray:
        """The MAP behaviour vector by EM over the folded hands' hidden cards.

        Each class's mode is ``(a - 1)^+`` normalised, ``a`` the Dirichlet parameters plus
        observed and expected counts; a class whose parameters are all at most 1 (no
        interior or boundary mode) takes its mean.
        """
        fixed = self.alpha + self.counts
        policy = self.index.normalise(fixed)
        for _ in range(iterations):
            total = fixed + self._expected_fold_counts(policy)
            mode = np.maximum(total - 1.0, 0.0)
            sums = np.add.reduceat(mode, self.index.class_start)[self.index.group_of_slot]
            updated = np.where(sums > 0, self.index.normalise(mode), self.index.normalise(total))
            if np.max(np.abs(updated - policy)) < tolerance:
                return updated
            policy = updated
        return policy

    def _expected_fold_counts(self, policy: np.ndarray) -> np.ndarray:
        expected = np.zeros(self.index.num_slots + 1)
        if len(self.folds) == 0:
            return expected[:-1]
        paths, log_weights = self.folds.stacked()
        log_policy = with_sentinel(safe_log(policy))
        terms = log_policy[paths].sum(axis=-1) + log_weights
        terms -= terms.max(axis=1, keepdims=True)
        responsibility = np.exp(terms)
        responsibility /= responsibility.sum(axis=1, keepdims=True)
        np.add.at(expected, paths, np.broadcast_to(responsibility[..., None], paths.shape))
        return expected[:-1]


def _logsumexp(values: np.ndarray, axis: int) -> np.ndarray:
    top = np.max(values, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    return np.squeeze(top, axis=axis) + np.log(np.sum(np.exp(values - top), axis=axis))


__all__ = ["DEFAULT_SAMPLES", "DirichletModel", "MAX_EXACT_COMPONENTS"]
