"""The small-game experiments: Kuhn simulation pieces, opponents, and the two commands."""

from __future__ import annotations

import json

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.experiments import kuhn_sim as ks
from pokerbot.bot.experiments.kuhn_models import PRIORS, KuhnP2Model, observation_name
from pokerbot.bot.experiments.kuhn_study import KuhnStudyConfig, run_kuhn_study
from pokerbot.bot.experiments.kuhn_sums import Moments, switching_sums
from pokerbot.bot.experiments.leduc_study import LeducStudyConfig, run_leduc_study
from pokerbot.bot.experiments.small_game_opponents import (
    acpc_random_profile,
    fixed_exploitability_kuhn,
    kuhn_best_response_value,
    skewed_profile,
)
from pokerbot.bot.experiments.small_games import experiment_kuhn, experiment_leduc
from pokerbot.bot.matches.executor import Executor
from pokerbot.protocol.game import load_game
from pokerbot.strategies.baselines import CALL_PROBABILITY, FOLD_PROBABILITY, RAISE_PROBABILITY
from pokerbot.strategies.solvers import build_tree, equilibrium_policy, kuhn
from pokerbot.strategies.solvers.profile import profile_from_policy

app = typer.Typer()
app.command("kuhn")(experiment_kuhn)
app.command("leduc")(experiment_leduc)
runner = CliRunner()


def test_outcome_distribution_and_equation_1_agree():
    rng = np.random.default_rng(0)
    params = rng.random((5, 50))
    probs = ks.outcomes(*params)
    assert probs.sum(axis=-1) == pytest.approx(np.ones(50))
    assert probs @ ks.VALUES == pytest.approx(ks.ev(*params))
    assert ks.best_response_value(np.array(0.17), np.array(0.2)) == pytest.approx(kuhn.best_response_value(0.17, 0.2))


def test_vectorised_counts_match_the_models_classification():
    rng = np.random.default_rng(1)
    hand = ks.play(*ks.BALANCED, 0.4, 0.6, rng, 3000)
    increments = ks.observations(hand)
    names = ["JQbB|KQbB", "J(Q)bP", "K?bP", "QJpBb|KJpBb", "QJpP|KJpP", "Q?pBp"]
    for i in range(3000):
        moves = (
            ("r" + ("c" if hand.call[i] else "f"))
            if hand.bet[i]
            else ("c" + (("r" + ("c" if hand.call1[i] else "f")) if hand.bet2[i] else "c"))
        )
        folded = moves.endswith("f")
        p1 = {0: "Qs", 1: "Ks", 2: "As"}[int(hand.c1[i])]
        p2 = None if folded else {0: "Qs", 1: "Ks", 2: "As"}[int(hand.c2[i])]
        category = KuhnP2Model.classify(p1, moves, p2)
        expected = [int(category is not None and category in name.split("|")) for name in names]
        assert increments[:, i].tolist() == expected, observation_name(p1, moves, p2)
        assert hand.chips[i] in (-2, -1, 1, 2)


def test_parameter_and_strategy_learning_runs():
    rng = np.random.default_rng(2)
    eta, xi = np.full(400, 0.17), np.full(400, 0.2)
    exploration = ks.explore(ks.BALANCED, eta, xi, 30, rng)
    run = ks.parameter_learning(exploration, eta, xi, PRIORS["weak"])
    ceiling = kuhn.best_response_value(0.17, 0.2)
    assert run.rate.shape == (400, 31) and run.rate.max() <= ceiling + 1e-12
    assert run.rate[:, -1].mean() > run.rate[:, 0].mean()
    learnt = ks.strategy_learning(eta, xi, 30, rng)
    assert learnt.rate.shape == (400, 31) and learnt.rate.max() <= ceiling + 1e-12
    realised = ks.realised_totals(run, eta, xi, np.array([0, 10, 30]), rng)
    assert realised.shape == (400, 3) and np.array_equal(realised, np.round(realised))
    # switching at the last hand: every chip was played while exploring
    assert np.array_equal(realised[:, 2], run.chips.sum(axis=1))
    # switching earlier: the explored chips plus the exploiting strategy's outcomes, whose mean
    # is its exact rate (within four standard errors over the 400 trials)
    for column, switch in ((0, 0), (1, 10)):
        exploited = realised[:, column] - run.chips[:, :switch].sum(axis=1)
        error = exploited - (30 - switch) * run.rate[:, switch]
        assert abs(error.mean()) < 4 * error.std() / np.sqrt(len(error))


def test_fixed_exploitability_opponents():
    rng = np.random.default_rng(3)
    for _ in range(20):
        eta, xi = fixed_exploitability_kuhn(0.055, rng)
        assert 0 <= eta <= 1 and 0 <= xi <= 1
        assert kuhn_best_response_value(eta, xi) == pytest.approx(0.055, abs=1e-9)


def test_leduc_opponents_are_valid_profiles():
    tree = build_tree(load_game("leduc"))
    random_sigma = acpc_random_profile(tree)
    weight = {"f": FOLD_PROBABILITY, "c": CALL_PROBABILITY, "r": RAISE_PROBABILITY}
    for node in tree.decision_nodes:
        children = tree.children(int(node))
        weights = np.array([weight[char] for char in tree.actions(int(node))])
        assert random_sigma[children.start : children.stop, 0] == pytest.approx(weights / weights.sum())
    equilibrium = profile_from_policy(tree, equilibrium_policy(tree.game))
    for kind in ("simple", "complex"):
        sigma = skewed_profile(tree, equilibrium, np.random.default_rng(4), kind)
        for n in tree.decision_nodes:
            span = tree.children(int(n))
            assert sigma[span.start : span.stop].sum(axis=0) == pytest.approx(np.ones(tree.num_hands))


def test_experiment_kuhn_command(tmp_path):
    out = tmp_path / "kuhn.json"
    arguments = [
        "kuhn",
        "--out",
        str(out),
        "--trials",
        "200",
        "--adaptive-trials",
        "3",
        "--opponents",
        "O6",
        "--hands",
        "40",
        "--convergence-hands",
        "60",
    ]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert {
        "meta",
        "opponents",
        "learners",
        "convergence",
        "priors",
        "nash_exploration",
        "game_length",
        "goals",
    } <= set(data)
    entry = data["learners"]["O6"]
    assert set(entry) == {"balanced", "nash-0.75", "strategy", "adaptive"}
    assert len(entry["balanced"]["total"]) == 41 and len(entry["adaptive"]["curve"]) == 40
    assert data["opponents"]["O6"]["ceiling_total"] == pytest.approx(40 * kuhn.best_response_value(0.17, 0.2))
    assert (tmp_path / "kuhn_comparison_O6.png").read_bytes()[:4] == b"\x89PNG"
    bad = runner.invoke(app, ["kuhn", "--out", str(out), "--opponents", "O9"])
    assert bad.exit_code == 2


@pytest.mark.slow
def test_experiment_leduc_command(tmp_path):
    out = tmp_path / "leduc.json"
    arguments = ["leduc", "--out", str(out), "--trials", "2", "--hands", "12", "--opponents", "random,equilibrium"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    for opponent in ("random", "equilibrium"):
        for learner in ("explicit", "implicit", "bootstrap", "adaptive"):
            summary = data["results"][opponent][learner]
            assert len(summary["curve"]) == 6 and summary["trials"] == 2  # a point every two hands
            assert {"total", "best_response_value", "band_low", "band_high", "equilibrium_value"} <= set(summary)
    assert data["results"]["random"]["adaptive"]["best_response_value"] > 2.0
    assert (tmp_path / "leduc_random.png").exists() and "goals" in data
    # 12 hands: the figures are read at hand 12, and the goal set for hand 500 is not judged.
    assert "whole match, at hand 12;" in result.output and "at hand 500" not in result.output
    assert "random_80_percent_by_500" not in data["goals"] and "equilibrium_loss_below_0.01" in data["goals"]


class _BackwardsExecutor(Executor):
    """Runs the tasks last first, as a cluster may finish them."""

    jobs = 2
    description = "backwards"

    def run(self, function, items, *, on_progress=None, window=None):
        tasks = list(items)
        for index in reversed(range(len(tasks))):
            yield index, function(tasks[index], on_progress or (lambda count: None))


def test_leduc_study_gives_the_same_figures_wherever_its_tasks_finish():
    config = LeducStudyConfig(hands=12, trials=4, opponents=("random",), learners=("explicit",), jobs=2)
    messages: list[str] = []
    here = run_leduc_study(config)
    there = run_leduc_study(config, messages.append, _BackwardsExecutor())
    assert here["results"] == there["results"]
    assert messages == ["leduc random / explicit: 2/4 trials", "leduc random / explicit: 4/4 trials"]


def test_switching_sums_of_two_blocks_give_the_figures_of_the_whole() -> None:
    """The running sums of two blocks of trials give what numpy gives over all of them."""
    rng = np.random.default_rng(3)
    eta, xi = np.full(300, 0.2), np.full(300, 0.3)
    run = ks.parameter_learning(ks.explore(ks.BALANCED, eta, xi, 40, rng), eta, xi, PRIORS["weak"], rng=rng)
    halves = [slice(0, 120), slice(120, 300)]
    parts = [
        switching_sums(
            ks.SwitchRun(run.rate[h], run.explore_value[h], run.chips[h], run.exploit[h]), eta[h], xi[h], 40, 5, rng
        )
        for h in halves
    ]
    summary = (parts[0] + parts[1]).summary()
    explored = np.concatenate([np.zeros((300, 1)), np.cumsum(run.explore_value, axis=1)], axis=1)
    total = explored + (40 - np.arange(41)) * run.rate
    assert summary["total"] == pytest.approx(np.round(total.mean(axis=0), 5).tolist(), abs=1e-5)
    assert summary["total_se"] == pytest.approx(np.round(total.std(axis=0) / np.sqrt(300), 5).tolist(), abs=1e-5)
    assert summary["rate_se"] == pytest.approx(np.round(run.rate.std(axis=0) / np.sqrt(300), 5).tolist(), abs=1e-5)
    best = int(np.argmax(total.mean(axis=0)))
    assert summary["best_switch"] == best
    assert summary["best_total_se"] == pytest.approx(total[:, best].std() / np.sqrt(300))
    reach = total >= 40 * ks.GAME_VALUE - 1e-9
    assert summary["proportion_expected_at_best"] == pytest.approx(reach[:, best].mean())
    merged = Moments.of(total[:120]) + Moments.of(total[120:])
    assert merged.count == 300 and np.allclose(merged.se(), total.std(axis=0) / np.sqrt(300))


def test_kuhn_study_in_blocks_gives_the_same_figures_wherever_they_run() -> None:
    config = KuhnStudyConfig(
        hands=20,
        trials=60,
        adaptive_trials=4,
        convergence_hands=30,
        opponents=("O6",),
        game_lengths=(20,),
        block_trials=25,
        adaptive_block=2,
    )
    messages: list[str] = []
    here = run_kuhn_study(config)
    there = run_kuhn_study(config, messages.append, _BackwardsExecutor())
    assert here == there
    assert here["opponents"]["O6"]["ceiling_total"] == pytest.approx(20 * kuhn.best_response_value(0.17, 0.2))
    assert here["learners"]["O6"]["adaptive"]["trials"] == 4 and len(here["learners"]["O6"]["adaptive"]["curve"]) == 20
    assert (
        len(here["learners"]["O6"]["balanced"]["total"]) == 21
        and len(here["convergence"]["O6"]["strategy"]["rate"]) == 31
    )
    assert messages == [
        "kuhn O6, adaptive: 2/4 trials",
        "kuhn O6, adaptive: 4/4 trials",
        "kuhn O6, switching: 10/60 trials",
        "kuhn O6, switching: 35/60 trials",
        "kuhn O6, switching: 60/60 trials",
    ]
