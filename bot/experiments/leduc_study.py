"""Tansey's (2013) Leduc study: explicit, implicit, bootstrapped and adaptive learners against
skewed equilibria, the ACPC ``random`` player and an equilibrium player.

Every trial plays ``hands`` hands with alternating seats; for each hand the learner's
*exact* expected winnings given the profile it plays are recorded (no card or action
luck), with the chips it won. Per learner and opponent the result holds the curve of
expected winnings per hand (each point the mean of a pair of hands, one in each seat), its
95 % band (1.96 standard errors over trials), the expected total over the match, and the
opponent's best-response value (seat-averaged: the ceiling) with the equilibrium's value
against it. The game value, seat-averaged, is 0.

Learners (Tansey 2013, section 4.1):

* ``explicit`` - a Dirichlet model per information set (suit-free classes: Tansey's (2013)
  Leduc has no suits), prior "two times the Nash strategy" (strength 2 centred on the
  shipped equilibrium), folds marginalised, Thompson responses;
* ``implicit`` - a posterior over a portfolio of the equilibrium and four skewed
  strategies drawn from the "simple" population at the start of each trial (never the
  opponent itself), playing the best response to a member drawn from the posterior;
* ``bootstrap`` - policy bootstrapping (Algorithm 4) from the same portfolio into the
  explicit model, Thompson responses;
* ``adaptive`` - :mod:`pokerbot.strategies.bayes.exploiter`; ``adaptive-nobudget`` the same
  without the safety budget of :mod:`pokerbot.strategies.bayes.safety`.

Opponents: ``skewed`` and ``skewed-complex`` (Tansey's (2013) populations, drawn anew for every
trial, :func:`~bot.experiments.small_game_opponents.skewed_profile`), ``random`` (the ACPC example
player), ``equilibrium`` (the shipped equilibrium the learners also know) and
``near-equilibrium`` (vanilla CFR stopped after 300 iterations: almost unexploitable, but
not the equilibrium the learners know - a test of the safety rule), and ``policy:PATH`` (a
saved policy file, e.g. OpenSpiel's CFR+ stopped early).

Responses of the Thompson learners are recomputed on the same schedule as the adaptive
learner's (:class:`~strategies.bayes.learners.Schedule`); a skewed opponent is drawn anew
for every trial.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pokerbot.bot.experiments.bootstrap_model import BootstrapModel
from pokerbot.bot.experiments.learners import ModelLearner, PortfolioLearner
from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.bot.experiments.small_game_opponents import acpc_random_profile, skewed_profile
from pokerbot.bot.experiments.trials import ProfileEvaluator, play_trial
from pokerbot.bot.matches.executor import Executor, LocalExecutor
from pokerbot.bot.matches.executor import Progress as TaskProgress
from pokerbot.models.bayes.dirichlet import DirichletModel
from pokerbot.models.bayes.portfolio import PortfolioModel
from pokerbot.protocol.game import load_game
from pokerbot.protocol.infosets import rank_class
from pokerbot.strategies.bayes.exploiter import BayesExploiterConfig, BayesExploiterCore, spike_and_slab_model
from pokerbot.strategies.bayes.learners import Learner
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.equilibria import equilibrium_policy
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import profile_from_policy
from pokerbot.strategies.solvers.solve import make_solver
from pokerbot.strategies.solvers.tree import PublicTree, build_tree

OPPONENTS = ("skewed", "skewed-complex", "random", "equilibrium", "near-equilibrium")
POLICY_PREFIX = "policy:"
"""An opponent ``policy:PATH`` plays a saved Leduc policy file (e.g. OpenSpiel's CFR+ stopped
early, written by ``benchmarks/research/openspiel_leduc_policy.py``)."""
NEAR_EQUILIBRIUM_ITERATIONS = 300
"""Vanilla CFR iterations of the ``near-equilibrium`` opponent (exploitability about 0.036 chips/hand)."""
LEARNERS = ("explicit", "implicit", "bootstrap", "adaptive", "adaptive-nobudget")
"""``adaptive-nobudget`` is ``adaptive`` without its safety budget (the posterior test alone,
the rule before issue 17), for side-by-side comparisons."""
Progress = Callable[[str], None]


@dataclass(frozen=True)
class LeducStudyConfig:
    """What :func:`run_leduc_study` runs."""

    hands: int = 1000
    trials: int = 12
    seed: int = 0
    opponents: tuple[str, ...] = ("skewed", "random", "equilibrium", "near-equilibrium")
    learners: tuple[str, ...] = LEARNERS
    prior_strength: float = 2.0
    portfolio_size: int = 4
    kappa: float = 0.5
    """Skew strength of the skewed opponents (and portfolio members)."""
    jobs: int = 1
    """Chunks of trials per learner and opponent: the tasks run at the same time (at most)."""
    adaptive: dict[str, Any] = field(default_factory=dict)


class _Context:
    """The tree, equilibrium and helpers shared by the trials of one process."""

    def __init__(self) -> None:
        self.game = load_game("leduc")
        self.tree: PublicTree = build_tree(self.game)
        self.engine = Engine(self.tree)
        self.simulator = TreeSimulator(self.tree)
        policy = equilibrium_policy(self.game)
        self.table = policy.to_json_dict()["infosets"]
        self.equilibrium = profile_from_policy(self.tree, policy)

    def table_of(self, sigma: np.ndarray) -> dict[str, dict[str, float]]:
        """Plain table of a profile array (every information set of both positions)."""
        tree = self.tree
        table: dict[str, dict[str, float]] = {}
        for node in tree.decision_nodes:
            children = tree.children(int(node))
            chars = tree.actions(int(node))
            block = sigma[children.start : children.stop]
            for hand in np.flatnonzero(tree.valid[node]):
                column = block[:, hand] / block[:, hand].sum()
                table[tree.infoset_key(int(node), int(hand))] = dict(zip(chars, column.tolist(), strict=True))
        return table

    def opponent(self, name: str, rng: np.random.Generator, kappa: float) -> np.ndarray:
        if name == "random":
            return acpc_random_profile(self.tree)
        if name == "equilibrium":
            return self.equilibrium
        if name.startswith(POLICY_PREFIX):
            return profile_from_policy(self.tree, Policy.load(name[len(POLICY_PREFIX) :], self.game))
        if name == "near-equilibrium":
            solver = make_solver("cfr", self.tree)
            solver.run(NEAR_EQUILIBRIUM_ITERATIONS)
            return solver.average_profile()
        return skewed_profile(
            self.tree, self.equilibrium, rng, "complex" if name == "skewed-complex" else "simple", kappa
        )

    def learner(self, name: str, config: LeducStudyConfig, portfolio: Sequence[np.ndarray], seed: int) -> Learner:
        seeds = np.random.SeedSequence(seed).generate_state(3)
        if name in ("adaptive", "adaptive-nobudget"):
            settings = BayesExploiterConfig(
                **{**config.adaptive, **({"safe": False} if name == "adaptive-nobudget" else {})}
            )
            model = spike_and_slab_model(self.table, settings, rank_class, seed=int(seeds[0]))
            return BayesExploiterCore(
                ResponseSolver(self.tree, model.index, self.engine), self.equilibrium, model, settings
            )
        explicit = DirichletModel(self.table, config.prior_strength, key_class=rank_class, seed=int(seeds[0]))
        solver = ResponseSolver(self.tree, explicit.index, self.engine)
        if name == "explicit":
            return ModelLearner(solver, explicit, "thompson")
        tables = [self.table] + [self.table_of(sigma) for sigma in portfolio]
        names = ["equilibrium"] + [f"skewed-{i}" for i in range(len(portfolio))]
        members = PortfolioModel(tables, names=names, index=explicit.index, seed=int(seeds[1]))
        if name == "implicit":
            return PortfolioLearner(solver, members, seed=int(seeds[2]))
        if name == "bootstrap":
            return ModelLearner(solver, BootstrapModel(members, explicit, seed=int(seeds[2])), "thompson")
        raise ValueError(f"unknown learner {name!r}: choose from {', '.join(LEARNERS)}")


def _trial_seed(config: LeducStudyConfig, *parts: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([config.seed, *parts])


def run_trials(config: LeducStudyConfig, opponent: str, learner: str, trials: Sequence[int]) -> dict[str, list]:
    """Play the given trials of one learner against one opponent (a worker's task)."""
    context = _Context()
    opponent_index = OPPONENTS.index(opponent) if opponent in OPPONENTS else len(OPPONENTS)
    out: dict[str, list] = {"expected": [], "chips": [], "best_response": [], "equilibrium": []}
    for trial in trials:
        opponent_rng = np.random.default_rng(_trial_seed(config, 1, opponent_index, trial))
        sigma = context.opponent(opponent, opponent_rng, config.kappa)
        portfolio_rng = np.random.default_rng(_trial_seed(config, 2, trial))
        portfolio = [
            skewed_profile(context.tree, context.equilibrium, portfolio_rng, "simple", config.kappa)
            for _ in range(config.portfolio_size)
        ]
        learner_seed = int(_trial_seed(config, 3, opponent_index, trial).generate_state(1)[0])
        agent = context.learner(learner, config, portfolio, learner_seed)
        solver = ResponseSolver(context.tree, DirichletModel(context.table, key_class=rank_class).index, context.engine)
        evaluator = ProfileEvaluator(solver, sigma)
        play_rng = np.random.default_rng(_trial_seed(config, 4, opponent_index, trial))
        result = play_trial(context.simulator, agent, sigma, evaluator, config.hands, play_rng)
        reach = context.engine.reach(sigma)
        out["expected"].append(result.expected.tolist())
        out["chips"].append(result.chips.tolist())
        out["best_response"].append(
            0.5 * sum(solver.best_response_to_reach(p, reach[1 - p]).expected_value for p in (0, 1))
        )
        out["equilibrium"].append(0.5 * sum(evaluator.value(p, context.equilibrium) for p in (0, 1)))
    return out


def summarise(raw: dict[str, list], hands: int) -> dict[str, Any]:
    """Curve (pairs of hands), band, totals and ceiling of one learner against one opponent."""
    expected = np.array(raw["expected"])
    chips = np.array(raw["chips"])
    trials = expected.shape[0]
    pairs = expected[:, : hands - hands % 2].reshape(trials, -1, 2).mean(axis=2)
    mean = pairs.mean(axis=0)
    half = 1.96 * pairs.std(axis=0, ddof=1) / np.sqrt(trials) if trials > 1 else np.zeros_like(mean)
    totals = expected.sum(axis=1)
    brv = float(np.mean(raw["best_response"]))
    point = min(500, hands) // 2 - 1
    window = pairs[:, max(0, point - 24) : point + 1].mean(axis=1)
    return {
        "hands": [2 * (i + 1) for i in range(len(mean))],
        "curve": [round(float(v), 5) for v in mean],
        "band_low": [round(float(v), 5) for v in mean - half],
        "band_high": [round(float(v), 5) for v in mean + half],
        "total": float(totals.mean()),
        "total_se": float(totals.std(ddof=1) / np.sqrt(trials)) if trials > 1 else 0.0,
        "per_hand": float(totals.mean() / hands),
        "per_hand_se": float(totals.std(ddof=1) / np.sqrt(trials) / hands) if trials > 1 else 0.0,
        "chips_total": float(chips.sum(axis=1).mean()),
        "best_response_value": brv,
        "ceiling_total": brv * hands,
        "equilibrium_value": float(np.mean(raw["equilibrium"])),
        "at_500": float(mean[point]),
        "at_500_window": float(window.mean()),
        "at_500_fraction_of_ceiling": float(mean[point] / brv) if brv > 0 else None,
        "trials": trials,
    }


def run_leduc_study(
    config: LeducStudyConfig, progress: Progress | None = None, executor: Executor | None = None
) -> dict[str, Any]:
    """Run every learner against every opponent; a JSON-ready dictionary of the figures. The
    trials of each pairing are cut into ``config.jobs`` chunks, each a task of ``executor``
    (default: this process); the figures do not depend on where the tasks ran."""
    say = progress or (lambda message: None)
    for name in config.opponents:
        if name not in OPPONENTS and not name.startswith(POLICY_PREFIX):
            raise ValueError(f"unknown opponent {name!r}: choose from {', '.join(OPPONENTS)} or policy:PATH")
    for name in config.learners:
        if name not in LEARNERS:
            raise ValueError(f"unknown learner {name!r}: choose from {', '.join(LEARNERS)}")
    tasks = [
        (config, opponent, learner, [int(trial) for trial in chunk])
        for opponent in config.opponents
        for learner in config.learners
        for chunk in np.array_split(np.arange(config.trials), max(1, config.jobs))
        if len(chunk)
    ]
    parts: dict[int, dict[str, list]] = {}
    done: dict[tuple[str, str], int] = {}
    for index, part in (executor or LocalExecutor()).run(_trials_task, tasks):
        parts[index] = part
        _config, opponent, learner, chunk = tasks[index]
        done[opponent, learner] = done.get((opponent, learner), 0) + len(chunk)
        say(f"leduc {opponent} / {learner}: {done[opponent, learner]}/{config.trials} trials")
    raw: dict[tuple[str, str], dict[str, list]] = {}
    for index, (_config, opponent, learner, _chunk) in enumerate(tasks):  # in trial order, wherever they ran
        merged = raw.setdefault((opponent, learner), {key: [] for key in parts[index]})
        for key, values in parts[index].items():
            merged[key].extend(values)
    results: dict[str, dict[str, Any]] = {}
    for (opponent, learner), part in raw.items():
        results.setdefault(opponent, {})[learner] = summarise(part, config.hands)
    return {"results": results, "goals": leduc_goals(results), "config": asdict(config)}


def _trials_task(task: tuple[LeducStudyConfig, str, str, list[int]], progress: TaskProgress) -> dict[str, list]:
    """One chunk of trials as an executor's task (:func:`run_trials`)."""
    config, opponent, learner, trials = task
    part = run_trials(config, opponent, learner, trials)
    progress(len(trials))
    return part


def leduc_goals(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Acceptance: adaptive reaches 80 % of the best-response value against ``random`` by
    hand 500 (judged in a match of 500 hands or more); loses less than 0.01 chips per hand
    against the equilibrium player (and, for the record, how it fares against the
    near-equilibrium player relative to ``pi*``)."""
    goals: dict[str, Any] = {}
    adaptive_random = results.get("random", {}).get("adaptive")
    if adaptive_random is not None and adaptive_random["hands"][-1] >= 500:
        fraction = adaptive_random["at_500_fraction_of_ceiling"]
        goals["random_80_percent_by_500"] = {
            "at_500": adaptive_random["at_500"],
            "ceiling": adaptive_random["best_response_value"],
            "fraction": fraction,
            "holds": fraction is not None and fraction >= 0.8,
        }
    adaptive_equilibrium = results.get("equilibrium", {}).get("adaptive")
    if adaptive_equilibrium is not None:
        per_hand = adaptive_equilibrium["per_hand"]
        goals["equilibrium_loss_below_0.01"] = {
            "per_hand": per_hand,
            "per_hand_se": adaptive_equilibrium["per_hand_se"],
            "holds": per_hand > -0.01,
        }
    near = results.get("near-equilibrium", {}).get("adaptive")
    if near is not None:
        goals["near_equilibrium_report"] = {
            "per_hand": near["per_hand"],
            "per_hand_se": near["per_hand_se"],
            "equilibrium_value": near["equilibrium_value"],
            "ceiling": near["best_response_value"],
            "versus_equilibrium": near["per_hand"] - near["equilibrium_value"],
        }
    return goals


__all__ = ["LEARNERS", "OPPONENTS", "LeducStudyConfig", "leduc_goals", "run_leduc_study", "run_trials", "summarise"]
