"""Sequential Exp4 strategy learning (Southey, Hoehn and Holte 2009, Algorithm 1), vectorised over independent runs.

``K`` experts (strategies) recommend how to play a hand. Before hand ``t`` the master plays
expert ``i`` with probability

    p_i(t) = (1 - psi) (1 + rho)^{s_i(t)} / sum_j (1 + rho)^{s_j(t)} + psi / K

and after the hand every expert is credited in proportion to the probability ``q_i`` with
which it would have taken the player's observed actions (so experts that agree on the
hand share the credit): ``s_i += q_i w / sum_j p_j q_j``, ``w`` the hand's winnings scaled
to [0, 1]. Southey, Hoehn and Holte's (2009) variance reduction keeps one score per own card (more generally per
*bucket* of the player's hole cards) with a count of hands per bucket, and uses
``s_i = (1 / C) sum_c s_{i,c} / n_c`` (buckets never seen count 0). The paper's settings:
``rho = 1``, ``psi = 0.75``.

One :class:`SequentialExp4` runs ``runs`` independent copies at once (arrays with a leading
run axis), so a study of thousands of trials is a few numpy operations per hand;
:class:`Exp4Learner` runs one copy per position over expert profiles of any small game (a
:class:`~strategies.bayes.learners.Learner`, so it plays matches through
:class:`~strategies.bayes.agent.LearnerStrategy`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerbot.models.bayes.records import HandRecord
from pokerbot.protocol.infosets import cards_text, rank_class
from pokerbot.strategies.bayes.learners import Evaluate
from pokerbot.strategies.solvers.tree import PublicTree


class SequentialExp4:
    """Sequential Exp4 with per-bucket scores (see the module docstring)."""

    def __init__(
        self,
        experts: int,
        buckets: int = 1,
        *,
        rho: float = 1.0,
        psi: float = 0.75,
        runs: int = 1,
        seed: int | None = None,
    ) -> None:
        if experts < 1 or buckets < 1 or runs < 1:
            raise ValueError("experts, buckets and runs must be positive")
        if rho <= 0 or not 0 <= psi <= 1:
            raise ValueError(f"need rho > 0 and psi in [0, 1], got rho={rho}, psi={psi}")
        self.experts, self.buckets, self.runs = experts, buckets, runs
        self.rho, self.psi = rho, psi
        self.scores = np.zeros((runs, experts, buckets))
        self.counts = np.zeros((runs, buckets))
        self.rng = np.random.default_rng(seed)

    def expert_scores(self) -> np.ndarray:
        """``[runs, K]``: each expert's score, the mean over buckets of its per-hand average."""
        with np.errstate(invalid="ignore", divide="ignore"):
            average = np.where(self.counts[:, None, :] > 0, self.scores / self.counts[:, None, :], 0.0)
        return average.mean(axis=2)

    def probabilities(self) -> np.ndarray:
        """``[runs, K]``: the probability of playing each expert next hand."""
        exponent = self.expert_scores() * np.log1p(self.rho)
        exponent -= exponent.max(axis=1, keepdims=True)
        weights = np.exp(exponent)
        return (1.0 - self.psi) * weights / weights.sum(axis=1, keepdims=True) + self.psi / self.experts

    def choose(self, probabilities: np.ndarray | None = None) -> np.ndarray:
        """``[runs]``: the expert each run plays next (drawn from :meth:`probabilities`)."""
        p = self.probabilities() if probabilities is None else probabilities
        draws = self.rng.random((self.runs, 1))
        return np.minimum((np.cumsum(p, axis=1) < draws).sum(axis=1), self.experts - 1)

    def update(self, bucket: np.ndarray, q: np.ndarray, reward: np.ndarray, probabilities: np.ndarray) -> None:
        """Credit the experts after a hand.

        ``bucket`` ``[runs]`` is the bucket of the hand, ``q`` ``[runs, K]`` each expert's
        probability of the player's observed actions, ``reward`` ``[runs]`` the winnings
        scaled to [0, 1], ``probabilities`` ``[runs, K]`` the ``p_i`` the hand was played with.
        """
        runs = np.arange(self.runs)
        mixed = np.maximum((probabilities * q).sum(axis=1), 1e-300)
        self.scores[runs, :, bucket] += q * (reward / mixed)[:, None]
        self.counts[runs, bucket] += 1

    def best(self) -> np.ndarray:
        """``[runs]``: the expert with the highest score (the one played after switching)."""
        return np.argmax(self.expert_scores(), axis=1)


def max_stake(tree: PublicTree) -> float:
    """The most chips a player can lose in one hand of a limit game (blind plus every raise)."""
    game = tree.game
    raises = sum(size * cap for size, cap in zip(game.raise_sizes, game.max_raises, strict=True))
    return float(max(game.blinds) + raises)


class Exp4Learner:
    """Sequential Exp4 over expert profile arrays (``[node, hand]``), one run per position.

    Buckets are the ranks of the player's hole cards (Southey, Hoehn and Holte's (2009) per-card scores); winnings
    are scaled to [0, 1] with :func:`max_stake`.
    """

    def __init__(
        self,
        tree: PublicTree,
        experts: Sequence[np.ndarray],
        *,
        rho: float = 1.0,
        psi: float = 0.75,
        seed: int | None = None,
    ) -> None:
        self.tree = tree
        self.experts = list(experts)
        buckets = sorted({rank_class(text + ":") for text in tree.hand_texts})
        self._bucket = {text: buckets.index(rank_class(text + ":")) for text in tree.hand_texts}
        self._node = {tree.suffix[int(n)]: int(n) for n in tree.decision_nodes}
        seeds = np.random.SeedSequence(seed).generate_state(2)
        self.runs = {
            p: SequentialExp4(len(self.experts), len(buckets), rho=rho, psi=psi, seed=int(seeds[p])) for p in (0, 1)
        }
        self.stake = max_stake(tree)
        self.version = 0
        self._played: dict[int, np.ndarray] = {}

    def policy(self, position: int) -> np.ndarray:
        """The expert drawn for the next hand in ``position``."""
        run = self.runs[position]
        probabilities = run.probabilities()
        self._played[position] = probabilities
        return self.experts[int(run.choose(probabilities)[0])]

    def observe(self, record: HandRecord) -> None:
        """Credit every expert with its probability of the player's observed actions."""
        position = record.position
        run = self.runs[position]
        probabilities = self._played.pop(position, None)
        if probabilities is None:
            probabilities = run.probabilities()
        own = cards_text(record.own_cards)
        hand = self.tree.hand_index[own]
        q = np.ones(len(self.experts))
        for decision in record.own_decisions:
            node = self._node[decision.suffix]
            child = self.tree.children(node).start + self.tree.actions(node).index(decision.action)
            q *= np.array([expert[child, hand] for expert in self.experts])
        reward = (record.value + self.stake) / (2.0 * self.stake)
        run.update(np.array([self._bucket[own]]), q[None], np.array([reward]), probabilities)
        self.version += 1

    def expected_value(self, position: int, evaluate: Evaluate) -> float:
        """The value of the experts' mixture the next hand is drawn from."""
        weights = self.runs[position].probabilities()[0]
        return float(sum(w * evaluate(expert) for w, expert in zip(weights, self.experts, strict=True)))


__all__ = ["Exp4Learner", "SequentialExp4", "max_stake"]
