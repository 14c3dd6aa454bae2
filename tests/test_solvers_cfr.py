"""The solvers: solved values, the Kuhn Nash family, convergence budgets on Leduc."""

from __future__ import annotations

import numpy as np
import pytest

from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers import SolverError, build_tree, kuhn, make_solver, solve

LEDUC_VALUE = -0.0856064
LEDUC_BUDGETS = {"cfr+": 600, "dcfr": 500, "os-mccfr": 1000}
"""Documented iterations to exploitability below 0.001 on Leduc (fast enough for every run)."""


@pytest.fixture(scope="module")
def leduc_tree():
    return build_tree(load_game("leduc"))


def test_kuhn_solved_value_and_nash_family():
    result = solve(load_game("kuhn"), "cfr+", iterations=3000, checkpoints=2)
    assert result.report.values[0] == pytest.approx(kuhn.GAME_VALUE, abs=1e-3)
    assert result.report.exploitability < 1e-4
    alpha, beta, gamma = kuhn.p1_parameters(result.policy)
    assert alpha == pytest.approx(gamma / 3, abs=0.01)
    assert beta == pytest.approx((1 + gamma) / 3, abs=0.01)
    assert kuhn.nash_family_distance(result.policy) < 0.01
    eta, xi = kuhn.p2_parameters(result.policy)
    assert (eta, xi) == pytest.approx((1 / 3, 1 / 3), abs=0.01)


def test_leduc_solved_value(leduc_tree):
    solver = make_solver("dcfr", leduc_tree)
    solver.run(1000)
    report = solver.evaluate()
    assert report.values[0] == pytest.approx(LEDUC_VALUE, abs=1e-4)
    assert report.values[1] == pytest.approx(-LEDUC_VALUE, abs=1e-4)


@pytest.mark.parametrize("algorithm", sorted(LEDUC_BUDGETS))
def test_leduc_below_one_thousandth_within_budget(leduc_tree, algorithm):
    solver = make_solver(algorithm, leduc_tree, seed=0)
    solver.run(LEDUC_BUDGETS[algorithm])
    assert solver.evaluate().exploitability < 1e-3


@pytest.mark.slow
def test_leduc_vanilla_cfr_below_one_thousandth_within_budget(leduc_tree):
    solver = make_solver("cfr", leduc_tree)
    solver.run(30_000)
    assert solver.evaluate().exploitability < 1e-3


ES_LEDUC_BUDGET = (1000, 0.03)
"""es-mccfr (defaults: linear rule, 24 systematic samples) on Leduc: a short budget and the
bound its exploitability is documented to be under. Its documented budget to 0.001 is
300,000 iterations (about 30 minutes; measured 243,470 by benchmarks/bench_solvers.py), too
long for the suite: see :class:`strategies.solvers.ExternalSamplingMCCFR`."""


@pytest.mark.slow
def test_external_sampling_budgets(leduc_tree):
    """ES reaches 0.001 on Kuhn (about 0.0002 after 1,500 iterations); on Leduc it meets its
    documented budget, far above 0.001."""
    kuhn_solver = make_solver("es-mccfr", build_tree(load_game("kuhn")), seed=0, samples=64)
    kuhn_solver.run(1_500)
    assert kuhn_solver.evaluate().exploitability < 1e-3
    iterations, bound = ES_LEDUC_BUDGET
    leduc_solver = make_solver("es-mccfr", leduc_tree, seed=0)
    leduc_solver.run(iterations)
    assert leduc_solver.evaluate().exploitability < bound


@pytest.mark.parametrize("game", ["leduc", "kuhn3p"])
def test_external_sampling_regrets_are_unbiased(game):
    """Averaged over many systematic batches, sampled regrets match the exact ones."""
    tree = build_tree(load_game(game))
    reference = make_solver("dcfr", tree)
    reference.run(30)
    solver = make_solver("es-mccfr", tree, seed=0, samples=12)
    solver.sigma = reference.sigma.copy()
    captured: dict[int, list] = {}
    solver._update = lambda player, t, regret, reach: captured.setdefault(player, []).append(regret)
    solver._rematch = lambda players: None
    for _ in range(150):
        solver._iterate(1)
    behaviour = reference.engine.behaviour(reference.sigma)
    reach = reference.engine.reach(reference.sigma, behaviour)
    for player, regrets in captured.items():
        exact = reference._instant_regrets(player, behaviour, reach)
        samples = np.array(regrets)
        error = np.abs(samples.mean(axis=0) - exact)
        spread = samples.std(axis=0) / np.sqrt(len(samples))
        sampled = spread > 1e-12
        # unbiased: |N(0, 1)| averages 0.8 (a correlated-batch bug gave about 30 on kuhn3p)
        assert (error[sampled] / spread[sampled]).mean() < 2.0, (game, player)


def test_external_sampling_original_variant_is_available(leduc_tree):
    """``systematic=False, samples=1`` keeps the first version (independent draws)."""
    solver = make_solver("es-mccfr", leduc_tree, seed=4, systematic=False, samples=1)
    solver.run(200)
    assert solver.evaluate().exploitability < 0.5
    with pytest.raises(SolverError, match="samples"):
        make_solver("es-mccfr", leduc_tree, samples=0)


def test_three_player_kuhn_solvers_converge():
    """NashConv after the budgets (seed 1): about 1.3e-5, 0.0009 and 0.0004, each well under its bound."""
    tree = build_tree(load_game("kuhn3p"))
    for algorithm, iterations, bound in (("cfr+", 1500, 1e-4), ("es-mccfr", 500, 0.05), ("os-mccfr", 300, 1e-2)):
        solver = make_solver(algorithm, tree, seed=1)
        solver.run(iterations)
        report = solver.evaluate()
        assert report.nash_conv < bound, algorithm
        assert report.values[1] == pytest.approx(-1 / 48, abs=0.01)


@pytest.mark.slow
def test_seed_001_outcome_sampling_converges_on_kuhn():
    """The first version's settings level off at an exploitability of about 0.01 (0.0087 after
    10,000 iterations, 0.0099 after 20,000)."""
    solver = make_solver(
        "os-mccfr", build_tree(load_game("kuhn")), seed=2, rule="cfr", alternating=False, samples=1, stratified=False
    )
    solver.run(10_000)
    assert solver.evaluate().exploitability < 0.02


def test_sampling_solvers_are_reproducible(leduc_tree):
    runs = []
    for _ in range(2):
        solver = make_solver("es-mccfr", leduc_tree, seed=11)
        solver.run(20)
        runs.append(solver.average_policy())
    assert runs[0] == runs[1]


def test_solve_checkpoints_and_errors():
    result = solve(load_game("kuhn"), "dcfr", iterations=200, checkpoints=6)
    iterations = [c.iterations for c in result.checkpoints]
    assert iterations == sorted(set(iterations)) and iterations[-1] == 200
    assert result.checkpoints[-1].exploitability == result.report.exploitability
    assert result.policy.meta["iterations"] == 200
    timed = solve(load_game("kuhn"), "cfr+", seconds=0.2)
    assert timed.seconds >= 0.2 and timed.iterations > 10
    stopped = solve(load_game("leduc"), "cfr+", iterations=5000, target=0.01)
    assert stopped.iterations < 1000 and stopped.report.exploitability <= 0.01
    with pytest.raises(SolverError, match="unknown algorithm"):
        solve(load_game("kuhn"), "nope", iterations=1)
    with pytest.raises(SolverError, match="exactly one"):
        solve(load_game("kuhn"), "cfr", iterations=1, seconds=1.0)
    with pytest.raises(SolverError, match="rule"):
        make_solver("cfr", build_tree(load_game("kuhn")), rule="nope")
