"""The numba solvers of abstract games, run on Kuhn and Leduc (exact buckets: the abstract
game is the game) and checked against known values and the exact best responses of
:mod:`pokerbot.strategies.solvers`."""

from __future__ import annotations

import numpy as np
import pytest

from pokerbot.protocol.game import load_game
from pokerbot.strategies.abstract.best_response import exploitability
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.policy import AbstractPolicy, combine, from_solver_policy
from pokerbot.strategies.abstract.solver import AbstractSolver, AbstractSolverError
from pokerbot.strategies.card_abstraction.tables import build_ehs_tables
from pokerbot.strategies.solvers import evaluate, kuhn

LEDUC_VALUE = -0.0856064
BEST_RESPONSE = pytest.mark.xdist_group("abstract-best-response")
"""The abstract best response's numba code (self-recursive) cannot be cached: the tests that
run it share a worker (here and in test_abstract_play.py), which compiles it once."""


@pytest.fixture(scope="module")
def kuhn_game() -> AbstractGame:
    return AbstractGame.exact(load_game("kuhn"))


@pytest.fixture(scope="module")
def leduc_game() -> AbstractGame:
    return AbstractGame.exact(load_game("leduc"))


def test_outcome_sampling_reaches_the_kuhn_value(kuhn_game):
    solver = AbstractSolver(kuhn_game, "os-mccfr", seed=3)
    solver.run(1_000_000)
    report = evaluate(kuhn_game.game, solver.policy().to_solver_policy())
    assert report.values[0] == pytest.approx(kuhn.GAME_VALUE, abs=0.004)
    assert report.exploitability < 0.01


def test_external_sampling_approaches_the_leduc_value(leduc_game):
    solver = AbstractSolver(leduc_game, "es-mccfr", seed=1)
    solver.run(150_000)
    report = evaluate(leduc_game.game, solver.policy().to_solver_policy())
    assert report.values[0] == pytest.approx(LEDUC_VALUE, abs=0.01)
    assert report.exploitability < 0.06


@BEST_RESPONSE
@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_abstract_best_response_is_the_exact_one_in_small_games(name, kuhn_game, leduc_game):
    game = kuhn_game if name == "kuhn" else leduc_game
    solver = AbstractSolver(game, "os-mccfr", seed=2)
    solver.run(20_000)
    policy = solver.policy()
    ours = exploitability(game, policy.probabilities)
    exact = evaluate(game.game, policy.to_solver_policy())
    assert ours.exact
    assert ours.upper == pytest.approx(exact.best_response_values, abs=1e-9)
    assert ours.exploitability_upper == pytest.approx(exact.exploitability, abs=1e-9)


@BEST_RESPONSE
@pytest.mark.slow
def test_a_responder_that_forgets_its_earlier_buckets_wins_no_more():
    """Sampled hold'em (3 buckets, 2 boards): the response remembering only its current
    bucket is one the perfect-recall responder could play, so on the fitting sample it wins
    no more in either position, and less in some; remembering all four rounds is full recall."""
    game = AbstractGame.ehs(load_game("holdem-limit-2p"), 3, "width", build_ehs_tables(2, seed=4))
    solver = AbstractSolver(game, "os-mccfr", seed=1)
    solver.run(20_000)
    policy = solver.policy().probabilities
    full = exploitability(game, policy, deals=3000, seed=5)
    forgetful = exploitability(game, policy, deals=3000, seed=5, memory=1)
    assert all(f <= a + 1e-9 for f, a in zip(forgetful.upper, full.upper, strict=True))
    assert forgetful.exploitability_upper < full.exploitability_upper - 0.05
    assert exploitability(game, policy, deals=3000, seed=5, memory=4).upper == full.upper
    with pytest.raises(ValueError, match="memory"):
        exploitability(game, policy, deals=10, memory=0)


def test_mcrnr_with_no_confidence_is_an_equilibrium(kuhn_game):
    model = from_solver_policy(kuhn_game.tree, kuhn_game.abstraction, kuhn.opponent_policy("O1"))
    solver = AbstractSolver(kuhn_game, "mcrnr", seed=5, model=combine(kuhn_game.tree, model, model), p=0.0)
    solver.run(2_000_000)
    report = evaluate(kuhn_game.game, solver.policy().to_solver_policy())
    assert report.exploitability < 0.01


@pytest.mark.parametrize("name", ["O1", "O4"])
def test_mcrnr_with_full_confidence_is_a_best_response(kuhn_game, name):
    tree = kuhn_game.tree
    model = from_solver_policy(tree, kuhn_game.abstraction, kuhn.opponent_policy(name))
    solver = AbstractSolver(kuhn_game, "mcrnr", seed=5, model=model, p=1.0)
    solver.run(1_000_000)
    counter = solver.policy().probabilities
    value = evaluate(kuhn_game.game, _keyed(kuhn_game, combine(tree, counter, model))).values[0]
    eta, xi = kuhn.OPPONENTS[name]
    assert value == pytest.approx(kuhn.best_response_value(eta, xi), abs=0.01)


def _keyed(game: AbstractGame, table: np.ndarray):
    return AbstractPolicy(game.tree, game.abstraction, table).to_solver_policy()


@pytest.mark.parametrize("algorithm", ["os-mccfr", "es-mccfr", "mcts", "mcrnr"])
def test_a_resumed_run_equals_an_uninterrupted_one(leduc_game, algorithm, tmp_path):
    tree = leduc_game.tree
    model = np.full((tree.num_infosets, tree.max_actions), 1.0 / tree.max_actions) if algorithm == "mcrnr" else None
    whole = AbstractSolver(leduc_game, algorithm, seed=9, model=model)
    whole.run(3_000, chunk=700)
    first = AbstractSolver(leduc_game, algorithm, seed=9, model=model)
    first.run(1_000)
    first.save(tmp_path / "run.npz")
    resumed = AbstractSolver.load(tmp_path / "run.npz", leduc_game)
    resumed.run(3_000)
    assert resumed.iterations == whole.iterations == 3_000
    assert np.array_equal(resumed.regrets, whole.regrets)
    assert np.array_equal(resumed.cumulative, whole.cumulative)
    assert np.array_equal(resumed.rng, whole.rng)


def test_a_checkpoint_of_other_settings_is_refused(kuhn_game, leduc_game, tmp_path):
    solver = AbstractSolver(kuhn_game, "os-mccfr", seed=1)
    solver.run(10)
    solver.save(tmp_path / "kuhn.npz")
    with pytest.raises(AbstractSolverError, match="another game"):
        AbstractSolver.load(tmp_path / "kuhn.npz", leduc_game)
    (tmp_path / "junk.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(AbstractSolverError, match="not a solver checkpoint"):
        AbstractSolver.load(tmp_path / "junk.npz", kuhn_game)


def test_bad_settings_are_refused(kuhn_game):
    with pytest.raises(AbstractSolverError, match="unknown algorithm"):
        AbstractSolver(kuhn_game, "cfr", seed=1)
    with pytest.raises(AbstractSolverError, match="opponent model"):
        AbstractSolver(kuhn_game, "mcrnr", seed=1)
    with pytest.raises(AbstractSolverError, match="epsilon"):
        AbstractSolver(kuhn_game, "os-mccfr", epsilon=0.0)


def test_policies_round_trip_and_refuse_other_games(kuhn_game, leduc_game, tmp_path):
    solver = AbstractSolver(leduc_game, "mcts", seed=1)
    solver.run(5_000)
    policy = solver.policy()
    policy.save(tmp_path / "p.npz")
    loaded = AbstractPolicy.load(tmp_path / "p.npz", leduc_game.game)
    # stored as float16 (half the file): equal to the original rounded to float16, within 1e-3
    assert np.array_equal(loaded.probabilities, policy.probabilities.astype(np.float16).astype(np.float64))
    assert np.allclose(loaded.probabilities, policy.probabilities, atol=1e-3)
    assert loaded.meta["algorithm"] == "mcts"
    with pytest.raises(ValueError, match="another game"):
        AbstractPolicy.load(tmp_path / "p.npz", kuhn_game.game)
