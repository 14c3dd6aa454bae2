"""Responses to Bayesian models, sequential Exp4, the tree simulator."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from pokerbot.bot.experiments.exp4 import Exp4Learner, SequentialExp4
from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.models.bayes import DirichletModel, PortfolioModel, rank_class, record_from_view
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.bayes import (
    ResponseSolver,
    bayesian_best_response,
    map_response,
    robust_response,
    thompson_response,
)
from pokerbot.strategies.solvers import Policy, build_tree, equilibrium_policy, kuhn
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.profile import profile_from_policy

KUHN, LEDUC = load_game("kuhn"), load_game("leduc")
KUHN_TREE, LEDUC_TREE = build_tree(KUHN), build_tree(LEDUC)


def kuhn_solver(tables):
    portfolio = PortfolioModel(tables, floor=1e-9)
    return portfolio, ResponseSolver(KUHN_TREE, portfolio.index)


def test_best_response_to_o6_earns_the_papers_best_response_value():
    portfolio, solver = kuhn_solver([kuhn.p2_table(0.17, 0.2)])
    response = map_response(solver, portfolio, 0)
    assert response.expected_value == pytest.approx(kuhn.best_response_value(0.17, 0.2), abs=1e-6)


def test_bayesian_best_response_maximises_the_posterior_expected_value():
    """Brute force over every pure P1 strategy of Kuhn (2^6 of them)."""
    tables = [kuhn.p2_table(0.1, 0.9), kuhn.p2_table(0.9, 0.1)]
    portfolio, solver = kuhn_solver(tables)
    portfolio.log_weights = np.log(np.array([0.3, 0.7]))
    response = bayesian_best_response(solver, portfolio, 0)
    keys = ["Qs:", "Ks:", "As:", "Qs:cr", "Ks:cr", "As:cr"]
    best = -np.inf
    for choice in product((0, 1), repeat=6):
        table = {
            key: ({"c": 1 - c, "r": c} if key.endswith(":") else {"f": 1 - c, "c": c})
            for key, c in zip(keys, choice, strict=True)
        }
        sigma = profile_from_policy(KUHN_TREE, Policy(KUHN, table))
        best = max(best, float(portfolio.weights() @ solver.values(0, sigma, portfolio.policies)))
    assert response.expected_value == pytest.approx(best, abs=1e-9)
    # it is not the best response to the per-information-set average of the two policies in general
    assert response.expected_value >= solver.best_response(0, portfolio.predictive()).expected_value - 1e-9


def test_values_three_ways_agree():
    table = equilibrium_policy(LEDUC).to_json_dict()["infosets"]
    model = DirichletModel(table, 2.0, key_class=rank_class, samples=8, seed=3)
    solver = ResponseSolver(LEDUC_TREE, model.index)
    draws = model.posterior()
    response = thompson_response(solver, model, 1)
    batched = solver.values(1, response.sigma, draws.policies)
    by_reach = solver.values_from_reaches(1, response.sigma, solver.reaches(0, draws.policies))
    single = [solver.value_against_profile(1, response.sigma, solver.bridge.profile(0, p)) for p in draws.policies]
    assert batched == pytest.approx(by_reach) and batched == pytest.approx(single)


def test_robust_response_trades_exploitation_for_safety():
    portfolio, solver = kuhn_solver([kuhn.p2_table(0.17, 0.2)])
    greedy = robust_response(solver, portfolio, 0, 1.0, iterations=400)
    safe = robust_response(solver, portfolio, 0, 0.0, iterations=400)
    assert greedy.expected_value == pytest.approx(kuhn.best_response_value(0.17, 0.2), abs=5e-3)
    assert solver.worst_case(0, safe.sigma) == pytest.approx(kuhn.GAME_VALUE, abs=5e-3)
    assert solver.worst_case(0, greedy.sigma) < solver.worst_case(0, safe.sigma)


def test_exp4_follows_algorithm_1_with_per_card_scores():
    exp4 = SequentialExp4(3, 2, rho=1.0, psi=0.75, runs=2, seed=0)
    assert exp4.probabilities() == pytest.approx(np.full((2, 3), 1 / 3))
    p = exp4.probabilities()
    q = np.array([[1.0, 0.5, 0.0], [0.2, 0.2, 0.2]])
    exp4.update(np.array([0, 1]), q, np.array([1.0, 0.5]), p)
    mixed = (p * q).sum(axis=1)
    assert exp4.scores[0, :, 0] == pytest.approx(q[0] / mixed[0])
    assert exp4.scores[1, :, 1] == pytest.approx(0.5 * q[1] / mixed[1])
    scores = exp4.expert_scores()
    assert scores[0] == pytest.approx(0.5 * q[0] / mixed[0])  # mean over the two cards, one unseen
    weights = 2.0 ** scores[0]
    assert exp4.probabilities()[0] == pytest.approx(0.25 * weights / weights.sum() + 0.25)
    assert exp4.best()[0] == 0 and exp4.choose().shape == (2,)


def test_simulator_records_match_the_views_of_real_hands():
    rng = np.random.default_rng(4)
    simulator = TreeSimulator(LEDUC_TREE)
    sigma = Engine(LEDUC_TREE).uniform()
    values = []
    for _ in range(40):
        played = simulator.play((sigma, sigma), rng)
        record = played.records[0]
        state = HandState(LEDUC, [played.records[0].own_cards, played.records[1].own_cards], record.board)
        for char in record.betting.replace("/", ""):
            state.apply({"f": FOLD, "c": CALL, "r": LIMIT_RAISE}[char])
        for position in (0, 1):
            assert record_from_view(MatchState(position, 0, state.view(position))) == played.records[position]
        values.append(played.values[0])
    assert np.isfinite(values).all()


def test_exp4_learner_plays_a_match_with_seed_000s_experts():
    from pokerbot.bot.experiments.kuhn_sim import EXPERTS
    from pokerbot.bot.matches.inprocess import run_inprocess_match
    from pokerbot.strategies.bayes import LearnerStrategy
    from pokerbot.strategies.registry import default_registry

    p2 = kuhn.p2_table(1 / 3, 1 / 3)
    experts = [profile_from_policy(KUHN_TREE, Policy(KUHN, {**kuhn.p1_table(*e), **p2})) for e in EXPERTS]
    learner = Exp4Learner(KUHN_TREE, experts, seed=1)
    player = LearnerStrategy(KUHN, 2, learner, KUHN_TREE)
    opponent = default_registry().create("random", KUHN, 3)
    outcome = run_inprocess_match(KUHN, 60, 4, [player, opponent], ["exp4", "random"])
    assert outcome.illegal_actions["exp4"] == 0
    assert learner.runs[0].counts.sum() + learner.runs[1].counts.sum() == 60
    assert learner.runs[0].probabilities().sum() == pytest.approx(1.0)
