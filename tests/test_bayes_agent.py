"""The adaptive learner: its safety rule, and the agent in real matches."""

from __future__ import annotations

import numpy as np
import pytest

from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.bot.experiments.trials import ProfileEvaluator, play_trial
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models.bayes import PortfolioModel, rank_class
from pokerbot.protocol.game import load_game
from pokerbot.strategies.bayes import (
    BayesExploiter,
    BayesExploiterConfig,
    BayesExploiterCore,
    Schedule,
    adaptive_factory,
    spike_and_slab_model,
)
from pokerbot.strategies.bayes.agent import supports_adaptive
from pokerbot.strategies.bayes.errors import UnsupportedGameForAgentError
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.solvers import build_tree, equilibrium_policy
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.profile import profile_from_policy

LEDUC = load_game("leduc")
TREE = build_tree(LEDUC)
EQ_POLICY = equilibrium_policy(LEDUC)
EQ_TABLE = EQ_POLICY.to_json_dict()["infosets"]
EQ = profile_from_policy(TREE, EQ_POLICY)


def always_call() -> np.ndarray:
    sigma = Engine(TREE).uniform()
    for node in TREE.decision_nodes:
        children = TREE.children(int(node))
        sigma[children.start : children.stop] = 0.0
        sigma[[c for c in children if TREE.label[c] == "c"]] = 1.0
    return sigma


def core_against(opponent: np.ndarray, hands: int, seed: int = 0) -> tuple[BayesExploiterCore, np.ndarray]:
    config = BayesExploiterConfig()
    model = spike_and_slab_model(EQ_TABLE, config, rank_class, seed=seed)
    solver = ResponseSolver(TREE, model.index)
    core = BayesExploiterCore(solver, EQ, model, config)
    result = play_trial(
        TreeSimulator(TREE), core, opponent, ProfileEvaluator(solver, opponent), hands, np.random.default_rng(seed)
    )
    return core, result.expected


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_agent_plays_legal_actions_in_matches(name):
    game = load_game(name)
    registry = default_registry()
    for opponent in ("random", "equilibrium"):
        agent = BayesExploiter(game, 3)
        outcome = run_inprocess_match(game, 80, 5, [agent, registry.create(opponent, game, 4)], ["adaptive", opponent])
        assert outcome.hands_played == 80 and outcome.illegal_actions["adaptive"] == 0
        assert agent.unknown_infosets == 0 and agent.core.model.hands_seen == 80


def test_agent_starts_as_an_equilibrium_player():
    agent = BayesExploiter(LEDUC, 1)
    for position in (0, 1):
        plan = agent.core.plan(position)
        assert not plan.exploiting and plan.sigma is agent.core.equilibrium
        assert plan.confidence < 1.0 - agent.core.config.delta


def test_safety_rule_never_risks_much_against_the_equilibrium():
    core, expected = core_against(EQ, 160)
    values = expected.reshape(-1, 2).mean(axis=1)  # the game value, seat-averaged, is 0
    assert values.mean() > -0.01 and values.min() > -0.05
    assert core.plans[0].spike_weight > 0.9


def test_safety_rule_exploits_a_clear_weakness():
    opponent = always_call()
    core, expected = core_against(opponent, 150)
    evaluator = ProfileEvaluator(core.solver, opponent)
    equilibrium_value = 0.5 * (evaluator.value(0, EQ) + evaluator.value(1, EQ))
    assert core.plan(0).exploiting or core.plan(1).exploiting
    assert core.plan(0).expected_gain > 0 and core.plan(1).expected_gain > 0
    assert expected[-20:].mean() > equilibrium_value + 0.5


def test_safety_rule_refuses_a_response_the_posterior_doubts():
    """Half the posterior says 'always call', half 'equilibrium': best-responding to one
    loses to the equilibrium's result under the other in about half the pairs (> delta)."""
    calls = {key: {c: (1.0 if c == "c" else 0.0) for c in entry} for key, entry in EQ_TABLE.items()}
    model = PortfolioModel([calls, EQ_TABLE], key_class=rank_class, floor=1e-9, seed=5)
    core = BayesExploiterCore(ResponseSolver(TREE, model.index), EQ, model, BayesExploiterConfig(delta=0.3))
    model.log_weights = np.log([0.5, 0.5])
    doubtful = core.plan(0)
    assert doubtful.confidence < 0.7 and not doubtful.exploiting
    model.log_weights = np.log([0.999, 0.001])
    model.hands_seen += 1
    confident = core.plan(0)
    assert confident.exploiting and confident.confidence >= 0.99


def test_schedule_recomputes_every_hand_then_geometrically():
    schedule = Schedule(warmup=3, growth=0.5)
    assert schedule.due(0, -1) and schedule.due(2, 1) and not schedule.due(2, 2)
    assert not schedule.due(10, 8) and schedule.due(12, 6)


def test_factory_and_supported_games():
    assert isinstance(adaptive_factory(load_game("kuhn"), 1), BayesExploiter)
    assert supports_adaptive(LEDUC) and not supports_adaptive(load_game("kuhn3p"))
    assert not supports_adaptive(load_game("holdem-limit-2p"))
    with pytest.raises(UnsupportedGameForAgentError):
        BayesExploiter(load_game("holdem-nolimit-2p"), 1)
    with pytest.raises(TypeError):
        BayesExploiter(LEDUC, 1, unknown_setting=3)
