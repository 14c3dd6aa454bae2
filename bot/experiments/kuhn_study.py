"""Southey, Hoehn and Holte's (2009) Kuhn study: explore-then-exploit parameter learning, Exp4 strategy learning,
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
hand: it runs :class:`~strategies.bayes.exploiter.BayesExploiterCore` hand by hand (exact
expected value of each hand's strategy, chips from the simulated hand).

The trials run in blocks, each with a generator of its own (from the seed, the opponent and
the block number) and each a task of the common executor (:mod:`pokerbot.bot.matches.executor`:
``--jobs``, ``--address``); a block's figures are kept as running sums
(:mod:`pokerbot.bot.experiments.kuhn_sums`), so the memory is that of one block per task
whatever the number of trials, and the figures do not depend on where the blocks ran.

:func:`run_kuhn_study` returns a JSON-ready dictionary (see
``docs/experiments.md``); amounts are chips (per hand for rates).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pokerbot.bot.experiments import kuhn_sim as ks
from pokerbot.bot.experiments.kuhn_models import PRIORS
from pokerbot.bot.experiments.kuhn_sums import AdaptiveSums, Moments, round_list, switching_sums
from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.bot.experiments.small_game_opponents import fixed_exploitability_kuhn
from pokerbot.bot.experiments.trials import ProfileEvaluator, play_trial
from pokerbot.bot.matches.executor import Executor, LocalExecutor
from pokerbot.bot.matches.executor import Progress as TaskProgress
from pokerbot.protocol.game import load_game
from pokerbot.protocol.infosets import identity_class
from pokerbot.strategies.bayes.exploiter import BayesExploiterConfig, BayesExploiterCore, spike_and_slab_model
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
    """The Nash exploration of the learning-method comparison (Southey, Hoehn and Holte 2009, figure 8)."""
    game_lengths: tuple[int, ...] = (50, 100, 200, 400)
    switch_step: int = 5
    """Spacing of the switching hands at which realised-chips proportions are sampled."""
    adaptive: dict[str, Any] = field(default_factory=dict)
    """Overrides of :class:`BayesExploiterConfig` fields."""
    block_trials: int = 10_000
    """Trials of the switching methods per block (a task; memory grows with it, not with ``trials``)."""
    adaptive_block: int = 50
    """Trials of the adaptive learner per block (a task)."""


def _opponent(name: str, trials: int, tau: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    if name == "tau":
        points = np.array([fixed_exploitability_kuhn(tau, rng) for _ in range(trials)])
        return points[:, 0], points[:, 1]
    eta, xi = kuhn.OPPONENTS[name]
    return np.full(trials, eta), np.full(trials, xi)


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
        self.config = BayesExploiterConfig(**overrides)

    def run(self, eta: np.ndarray, xi: np.ndarray, hands: int, seed: int) -> AdaptiveSums:
        trials = eta.shape[0]
        expected = np.empty((trials, hands))
        chips = np.empty((trials, hands))
        seeds = np.random.SeedSequence(seed).generate_state(2 * trials)
        for trial in range(trials):
            model = spike_and_slab_model(self.table, self.config, identity_class, seed=int(seeds[2 * trial]))
            solver = ResponseSolver(self.tree, model.index, self.engine)
            core = BayesExploiterCore(solver, self.equilibrium, model, self.config)
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
        return AdaptiveSums(
            Moments.of(expected),
            Moments.of(totals),
            Moments.of(realised),
            Moments.of(totals >= nash_total - 1e-9),
            Moments.of(realised >= nash_total - 1e-9),
        )


StudyTask = tuple[str, KuhnStudyConfig, str, int, int]
"""``(kind, config, opponent, block, trials)``: one block of trials, ``kind`` ``switching``
(the switching methods and, for the detailed opponents, their studies) or ``adaptive``."""


def _block_rng(config: KuhnStudyConfig, kind: str, opponent: str, block: int) -> np.random.Generator:
    """The generator of one block: from the seed, the kind, the opponent's name and the block
    number alone, so a block draws the same numbers wherever and whenever it runs."""
    return np.random.default_rng([config.seed, zlib.crc32(f"{kind}:{opponent}".encode()), block])


def _blocks(trials: int, size: int) -> list[int]:
    """Block sizes covering ``trials`` trials, at most ``size`` each."""
    return [min(size, trials - start) for start in range(0, trials, size)]


def _switching_block(config: KuhnStudyConfig, name: str, block: int, trials: int) -> dict[str, Any]:
    """The sums of every switching figure over one block of trials against ``name``."""
    rng = _block_rng(config, "switching", name, block)
    hands = config.hands
    eta, xi = _opponent(name, trials, config.tau, rng)
    detailed = name in (config.detail, "tau")
    length = max(hands, config.convergence_hands, *config.game_lengths) if detailed else hands
    weak = PRIORS["weak"]
    compare = f"nash-{config.compare_gamma:g}"
    balanced = ks.explore(ks.BALANCED, eta, xi, length, rng)
    nash_run = ks.explore(ks.nash(config.compare_gamma), eta, xi, length, rng)
    strategy = ks.strategy_learning(eta, xi, length, rng)
    runs = {
        "balanced": ks.parameter_learning(balanced, eta, xi, weak, rng=rng),
        compare: ks.parameter_learning(nash_run, eta, xi, weak, rng=rng),
        "strategy": strategy,
    }
    step = config.switch_step
    part: dict[str, Any] = {
        "opponent": Moments.of(np.stack([eta, xi, ks.best_response_value(eta, xi)], axis=1)),
        "learners": {learner: switching_sums(run, eta, xi, hands, step, rng) for learner, run in runs.items()},
    }
    if detailed:
        part["convergence"] = {learner: Moments.of(run.rate) for learner, run in runs.items()}
    if name == config.detail:
        part["priors"] = {
            prior: switching_sums(
                ks.parameter_learning(balanced, eta, xi, PRIORS[prior], hands, rng), eta, xi, hands, step, rng
            )
            for prior in PRIORS
        }
        part["nash_exploration"] = {}
        for gamma in config.gammas:
            run = (
                runs[compare]
                if gamma == config.compare_gamma
                else ks.parameter_learning(ks.explore(ks.nash(gamma), eta, xi, hands, rng), eta, xi, weak, rng=rng)
            )
            part["nash_exploration"][f"gamma={gamma:g}"] = switching_sums(run, eta, xi, hands, step, rng)
        part["game_length"] = {
            str(length_h): switching_sums(runs["balanced"], eta, xi, length_h, step, rng)
            for length_h in config.game_lengths
        }
    return part


def _study_task(task: StudyTask, progress: TaskProgress) -> Any:
    """One block of trials as an executor's task."""
    kind, config, name, block, trials = task
    if kind == "switching":
        part: Any = _switching_block(config, name, block, trials)
    else:
        rng = _block_rng(config, "adaptive", name, block)
        eta, xi = _opponent(name, trials, config.tau, rng)
        part = _KuhnAdaptive(config.adaptive).run(eta, xi, config.hands, int(rng.integers(2**32)))
    progress(trials)
    return part


def _merge(first: Any, second: Any) -> Any:
    """Two blocks' sums added (dictionaries key by key)."""
    if isinstance(first, dict):
        return {key: _merge(value, second[key]) for key, value in first.items()}
    return first + second


def run_kuhn_study(
    config: KuhnStudyConfig, progress: Progress | None = None, executor: Executor | None = None
) -> dict[str, Any]:
    """Run every study of the module docstring; a JSON-ready dictionary of the figures. The
    trials go in blocks (``config.block_trials`` of the switching methods, ``config.adaptive_block``
    of the adaptive learner), each a task of ``executor`` (default: this process) with a
    generator of its own: the figures depend on the seed and the block sizes only, and the
    memory on the block sizes, not on the number of trials."""
    say = progress or (lambda message: None)
    tasks: list[StudyTask] = []
    for name in config.opponents:
        tasks += [("switching", config, name, b, n) for b, n in enumerate(_blocks(config.trials, config.block_trials))]
        blocks = _blocks(config.adaptive_trials, config.adaptive_block)
        tasks += [("adaptive", config, name, b, n) for b, n in enumerate(blocks)]
    parts: dict[int, Any] = {}
    done: dict[tuple[str, str], int] = {}
    for index, part in (executor or LocalExecutor()).run(_study_task, tasks):
        kind, _config, name, _block, trials = tasks[index]
        parts[index] = part
        done[kind, name] = done.get((kind, name), 0) + trials
        total = config.trials if kind == "switching" else config.adaptive_trials
        say(f"kuhn {name}, {kind}: {done[kind, name]}/{total} trials")
    sums: dict[tuple[str, str], Any] = {}
    for index, (kind, _config, name, _block, _trials) in enumerate(tasks):  # in block order
        key = (kind, name)
        sums[key] = parts[index] if key not in sums else _merge(sums[key], parts[index])
    hands = config.hands
    adaptive_config = asdict(BayesExploiterConfig(**config.adaptive))
    result: dict[str, dict[str, Any]] = {
        group: {} for group in ("opponents", "learners", "convergence", "priors", "nash_exploration", "game_length")
    }
    for name in config.opponents:
        switching = sums["switching", name]
        eta, xi, brv = (float(v) for v in switching["opponent"].mean())
        result["opponents"][name] = {
            "eta": eta,
            "xi": xi,
            "random": name == "tau",
            "best_response_value": brv,
            "ceiling_total": brv * hands,
            "nash_total": hands * ks.GAME_VALUE,
        }
        result["learners"][name] = {learner: s.summary() for learner, s in switching["learners"].items()}
        result["learners"][name]["adaptive"] = sums["adaptive", name].summary(adaptive_config)
        if "convergence" in switching:
            result["convergence"][name] = {
                learner: {"rate": round_list(m.mean()), "rate_se": round_list(m.se())}
                for learner, m in switching["convergence"].items()
            }
        for group in ("priors", "nash_exploration", "game_length"):
            if group in switching:
                result[group][name] = {label: s.summary() for label, s in switching[group].items()}
    result["goals"] = kuhn_goals(result, config)
    return result


def kuhn_goals(result: dict[str, dict[str, Any]], config: KuhnStudyConfig) -> dict[str, Any]:
    """The acceptance checks of the Kuhn study (qualitative findings of Southey, Hoehn and Holte (2009) and ours)."""
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


__all__ = ["KuhnStudyConfig", "kuhn_goals", "run_kuhn_study"]
