"""Seed 000's Kuhn study: explore-then-exploit parameter learning, Exp4 strategy learning,
and the ``adaptive`` learner, against O1-O6 and random opponents of fixed exploitability.

P1 (position 0) learns; P2 is a fixed opponent ``(eta, xi)``. For every switching hand
``t = 0 .. H`` a switching method explores for ``t`` hands and then plays its exploiting
strategy for the other ``H - t``; the figures are, as in the paper, exact expectations
(equation 1): the *payoff rate* after the switch, the *total* ``sum of the exploration
hands' expected values + (H - t) * rate``, and the *proportion* of trials whose total
reaches the Nash expectation ``-H / 18``. That proportion is given twice: with each trial's
expected total (``proportion_expected``) and with the chips actually won
(``proportion_chips``, exploitation chips sampled exactly from the exploiting strategy's
outcome distribution, on a grid of switching hands). Ties between best responses (and
between Exp4's experts before any data) are broken uniformly at random. The adaptive
learner has no switching
hand: it runs :class:`~strategies.bayes.adaptive.AdaptiveCore` hand by hand (exact
expected value of each hand's strategy, chips from the simulated hand).

:func:`run_kuhn_study` returns a JSON-ready dictionary (see
``docs/experiments.md``); amounts are chips (per hand for rates).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pokerbot.bot.experiments import kuhn_sim as ks
from pokerbot.bot.experiments.kuhn_models import PRIORS
from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.bot.experiments.small_game_opponents import fixed_exploitability_kuhn
from pokerbot.bot.experiments.trials import ProfileEvaluator, play_trial
from pokerbot.protocol.game import load_game
from pokerbot.protocol.infosets import identity_class
from pokerbot.strategies.bayes.adaptive import AdaptiveConfig, AdaptiveCore, adaptive_model
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.solvers import kuhn
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.profile import profile_from_policy
from pokerbot.strategies.solvers.tree import build_tree

Progress = Callable[[str], None]


@dataclass(frozen=True)
class KuhnStudyConfig:
    """What :func:`run_kuhn_study` runs. ``trials`` for the vectorised switching methods,
    ``adaptive_trials`` for the adaptive learner (slower: a real learner, hand by hand)."""

    hands: int = 200
    trials: int = 10_000
    adaptive_trials: int = 300
    convergence_hands: int = 400
    tau: float = 0.055
    seed: int = 0
    opponents: tuple[str, ...] = ("O1", "O2", "O3", "O4", "O5", "O6", "tau")
    detail: str = "O6"
    """The opponent of the prior, Nash-exploration and game-length studies."""
    gammas: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
    compare_gamma: float = 0.75
    """The Nash exploration of the learning-method comparison (seed 000 figure 8)."""
    game_lengths: tuple[int, ...] = (50, 100, 200, 400)
    switch_step: int = 5
    """Spacing of the switching hands at which realised-chips proportions are sampled."""
    adaptive: dict[str, Any] = field(default_factory=dict)
    """Overrides of :class:`AdaptiveConfig` fields."""


def _opponent(name: str, trials: int, tau: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    if name == "tau":
        points = np.array([fixed_exploitability_kuhn(tau, rng) for _ in range(trials)])
        return points[:, 0], points[:, 1]
    eta, xi = kuhn.OPPONENTS[name]
    return np.full(trials, eta), np.full(trials, xi)


def summarise_switching(
    run: ks.SwitchRun, eta: np.ndarray, xi: np.ndarray, hands: int, step: int, rng: np.random.Generator
) -> dict[str, Any]:
    """Per switching hand: rate and total (mean, standard error), proportions reaching Nash."""
    trials = eta.shape[0]
    rate = run.rate[:, : hands + 1]
    explored = np.concatenate([np.zeros((trials, 1)), np.cumsum(run.explore_value[:, :hands], axis=1)], axis=1)
    switches = np.arange(hands + 1)
    total = explored + (hands - switches) * rate
    nash_total = hands * ks.GAME_VALUE
    mean = total.mean(axis=0)
    best = int(np.argmax(mean))
    grid = np.arange(0, hands + 1, step)
    trimmed = ks.SwitchRun(
        run.rate[:, : hands + 1], run.explore_value[:, :hands], run.chips[:, :hands], run.exploit[:, : hands + 1]
    )
    realised = ks.realised_totals(trimmed, eta, xi, grid, rng)
    at = min(50, hands)
    return {
        "rate": _round(rate.mean(axis=0)),
        "rate_se": _round(rate.std(axis=0) / np.sqrt(trials)),
        "total": _round(mean),
        "total_se": _round(total.std(axis=0) / np.sqrt(trials)),
        "proportion_expected": _round(np.mean(total >= nash_total - 1e-9, axis=0)),
        "chips_switches": grid.tolist(),
        "proportion_chips": _round(np.mean(realised >= nash_total - 1e-9, axis=0)),
        "best_switch": best,
        "best_total": float(mean[best]),
        "best_total_se": float(total[:, best].std() / np.sqrt(trials)),
        "total_at_50": float(mean[at]),
        "proportion_expected_at_best": float(np.mean(total[:, best] >= nash_total - 1e-9)),
    }


def _round(values: np.ndarray, digits: int = 5) -> list[float]:
    return [round(float(v), digits) for v in values]


class _KuhnAdaptive:
    """Runs the adaptive learner as P1 against fixed P2 opponents."""

    def __init__(self, overrides: dict[str, Any]) -> None:
        self.game = load_game("kuhn")
        self.tree = build_tree(self.game)
        self.engine = Engine(self.tree)
        self.simulator = TreeSimulator(self.tree)
        equilibrium = kuhn.nash_policy(1.0, self.game)
        self.table = equilibrium.to_json_dict()["infosets"]
        self.equilibrium = profile_from_policy(self.tree, equilibrium)
        self.config = AdaptiveConfig(**overrides)

    def run(self, eta: np.ndarray, xi: np.ndarray, hands: int, seed: int) -> dict[str, Any]:
        trials = eta.shape[0]
        expected = np.empty((trials, hands))
        chips = np.empty((trials, hands))
        seeds = np.random.SeedSequence(seed).generate_state(2 * trials)
        for trial in range(trials):
            model = adaptive_model(self.table, self.config, identity_class, seed=int(seeds[2 * trial]))
            solver = ResponseSolver(self.tree, model.index, self.engine)
            core = AdaptiveCore(solver, self.equilibrium, model, self.config)
            opponent = profile_from_policy(self.tree, kuhn.p2_policy(float(eta[trial]), float(xi[trial]), self.game))
            result = play_trial(
                self.simulator,
                core,
                opponent,
                ProfileEvaluator(solver, opponent),
                hands,
                np.random.default_rng(int(seeds[2 * trial + 1])),
                seat=0,
            )
            expected[trial], chips[trial] = result.expected, result.chips
        nash_total = hands * ks.GAME_VALUE
        totals, realised = expected.sum(axis=1), chips.sum(axis=1)
        return {
            "curve": _round(expected.mean(axis=0)),
            "curve_se": _round(expected.std(axis=0) / np.sqrt(trials)),
            "total": float(totals.mean()),
            "total_se": float(totals.std() / np.sqrt(trials)),
            "chips_total": float(realised.mean()),
            "chips_total_se": float(realised.std() / np.sqrt(trials)),
            "proportion_expected": float(np.mean(totals >= nash_total - 1e-9)),
            "proportion_chips": float(np.mean(realised >= nash_total - 1e-9)),
            "trials": trials,
            "config": asdict(self.config),
        }


def run_kuhn_study(config: KuhnStudyConfig, progress: Progress | None = None) -> dict[str, Any]:
    """Run every study of the module docstring; a JSON-ready dictionary of the figures."""
    say = progress or (lambda message: None)
    rng = np.random.default_rng(config.seed)
    hands = config.hands
    long_hands = max(hands, config.convergence_hands, *config.game_lengths)
    adaptive = _KuhnAdaptive(config.adaptive)
    result: dict[str, dict[str, Any]] = {
        "opponents": {},
        "learners": {},
        "convergence": {},
        "priors": {},
        "nash_exploration": {},
        "game_length": {},
    }
    weak = PRIORS["weak"]
    compare = f"nash-{config.compare_gamma:g}"
    for name in config.opponents:
        say(f"kuhn {name}")
        eta, xi = _opponent(name, config.trials, config.tau, rng)
        detailed = name in (config.detail, "tau")
        length = long_hands if detailed else hands
        brv = ks.best_response_value(eta, xi)
        result["opponents"][name] = {
            "eta": float(eta.mean()),
            "xi": float(xi.mean()),
            "random": name == "tau",
            "best_response_value": float(brv.mean()),
            "ceiling_total": float(brv.mean() * hands),
            "nash_total": hands * ks.GAME_VALUE,
        }
        balanced = ks.explore(ks.BALANCED, eta, xi, length, rng)
        nash_run = ks.explore(ks.nash(config.compare_gamma), eta, xi, length, rng)
        strategy = ks.strategy_learning(eta, xi, length, rng)
        runs = {
            "balanced": ks.parameter_learning(balanced, eta, xi, weak, rng=rng),
            compare: ks.parameter_learning(nash_run, eta, xi, weak, rng=rng),
            "strategy": strategy,
        }
        result["learners"][name] = {
            learner: summarise_switching(run, eta, xi, hands, config.switch_step, rng) for learner, run in runs.items()
        }
        say(f"kuhn {name}: adaptive")
        adaptive_eta, adaptive_xi = _opponent(name, config.adaptive_trials, config.tau, rng)
        result["learners"][name]["adaptive"] = adaptive.run(adaptive_eta, adaptive_xi, hands, config.seed + 1)
        if not detailed:
            continue
        result["convergence"][name] = {
            learner: {
                "rate": _round(run.rate.mean(axis=0)),
                "rate_se": _round(run.rate.std(axis=0) / np.sqrt(config.trials)),
            }
            for learner, run in runs.items()
        }
        if name != config.detail:
            continue
        result["priors"][name] = {
            prior: summarise_switching(
                ks.parameter_learning(balanced, eta, xi, PRIORS[prior], hands, rng),
                eta,
                xi,
                hands,
                config.switch_step,
                rng,
            )
            for prior in PRIORS
        }
        result["nash_exploration"][name] = {}
        for gamma in config.gammas:
            run = (
                runs[compare]
                if gamma == config.compare_gamma
                else ks.parameter_learning(ks.explore(ks.nash(gamma), eta, xi, hands, rng), eta, xi, weak, rng=rng)
            )
            result["nash_exploration"][name][f"gamma={gamma:g}"] = summarise_switching(
                run, eta, xi, hands, config.switch_step, rng
            )
        result["game_length"][name] = {
            str(length_h): summarise_switching(runs["balanced"], eta, xi, length_h, config.switch_step, rng)
            for length_h in config.game_lengths
        }
    result["goals"] = kuhn_goals(result, config)
    return result


def kuhn_goals(result: dict[str, dict[str, Any]], config: KuhnStudyConfig) -> dict[str, Any]:
    """The acceptance checks of the Kuhn study (qualitative findings of seed 000 and ours)."""
    learners = result["learners"]
    compare = f"nash-{config.compare_gamma:g}"
    param_wins = {
        name: max(entry["balanced"]["best_total"], entry[compare]["best_total"]) > entry["strategy"]["best_total"]
        for name, entry in learners.items()
    }
    at_50 = {
        name: {
            learner: round(entry[learner]["best_total"] - entry[learner]["total_at_50"], 4)
            for learner in ("balanced", compare)
        }
        for name, entry in learners.items()
    }
    goals: dict[str, Any] = {
        "parameter_beats_strategy": param_wins,
        "parameter_beats_strategy_count": f"{sum(param_wins.values())}/{len(param_wins)}",
        "loss_switching_at_50_vs_best": at_50,
    }
    detail = config.detail
    priors = result["priors"].get(detail)
    if priors:
        goals["weak_beats_strong"] = {
            "weak": priors["weak"]["best_total"],
            "strong": priors["strong"]["best_total"],
            "weak-bad": priors["weak-bad"]["best_total"],
            "strong-bad": priors["strong-bad"]["best_total"],
            "holds": priors["weak"]["best_total"] > priors["strong"]["best_total"]
            and priors["weak-bad"]["best_total"] > priors["strong-bad"]["best_total"],
        }
    if detail in learners:
        entry = learners[detail]
        candidates = {learner: entry[learner]["best_total"] for learner in ("balanced", compare, "strategy")}
        for group in ("priors", "nash_exploration"):
            for label, summary in result[group].get(detail, {}).items():
                candidates[f"{group}:{label}"] = summary["best_total"]
        best_label = max(candidates, key=candidates.__getitem__)
        ours = entry["adaptive"]
        goals["adaptive_vs_best_switching"] = {
            "adaptive_total": ours["total"],
            "adaptive_se": ours["total_se"],
            "best_method": best_label,
            "best_total": candidates[best_label],
            "margin": ours["total"] - candidates[best_label],
            "holds": ours["total"] > candidates[best_label],
        }
        goals["adaptive_reaches_nash"] = {
            "proportion_expected": ours["proportion_expected"],
            "proportion_chips": ours["proportion_chips"],
            "target": 0.85,
        }
    return goals


__all__ = ["KuhnStudyConfig", "kuhn_goals", "run_kuhn_study", "summarise_switching"]
