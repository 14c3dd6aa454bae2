"""Safe exploitation (strategies/bayes/safety.py): gifts, the budget and the guarantee."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.bot.experiments.small_games import experiment_kuhn, experiment_leduc
from pokerbot.models.bayes.records import Decision, HandRecord
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.infosets import identity_class, rank_class
from pokerbot.strategies.bayes import BayesExploiterConfig, BayesExploiterCore, spike_and_slab_model
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.bayes.safety import LedgerError, SafetyLedger
from pokerbot.strategies.solvers import build_tree, equilibrium_policy, kuhn
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.exploitability import exploitability
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import profile_from_policy

KUHN = load_game("kuhn")
KUHN_TREE = build_tree(KUHN)
KUHN_NASH = kuhn.nash_policy(1.0, KUHN)
KUHN_EQ = profile_from_policy(KUHN_TREE, KUHN_NASH)
LEDUC = load_game("leduc")
LEDUC_TREE = build_tree(LEDUC)
LEDUC_POLICY = equilibrium_policy(LEDUC)
LEDUC_EQ = profile_from_policy(LEDUC_TREE, LEDUC_POLICY)


def ledger_for(tree, policy, equilibrium) -> SafetyLedger:  # noqa: ANN001
    index = SlotIndex(policy.to_json_dict()["infosets"], identity_class)
    return SafetyLedger(ResponseSolver(tree, index), equilibrium)


def random_profile(engine: Engine, rng: np.random.Generator) -> np.ndarray:
    sigma = engine.uniform() * rng.random((engine.num_nodes, engine.num_hands))
    for player in (0, 1):
        engine.normalise(player, sigma, sigma)
    return sigma


def kuhn_record(own: str, decisions: list[Decision], candidates: tuple[str, ...], position: int = 0) -> HandRecord:
    return HandRecord(
        position=position,
        opponent=1 - position,
        own_cards=cards_from_string(own),
        board=(),
        decisions=tuple(decisions),
        candidates=candidates,
        shown=len(candidates) == 1,
    )


def always_call(tree) -> np.ndarray:  # noqa: ANN001
    sigma = Engine(tree).uniform()
    for node in tree.decision_nodes:
        for child in tree.children(int(node)):
            sigma[child] = 1.0 if tree.label[child] == "c" else 0.0
    return sigma


# --------------------------------------------------------------------- the identity
@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_value_is_worst_case_plus_expected_regrets(name):
    """u(sigma, tau) = w(sigma) + E[opponent's regrets along the hand], exactly, for any
    profiles: the decomposition the guarantee rests on."""
    tree = KUHN_TREE if name == "kuhn" else LEDUC_TREE
    ledger = ledger_for(tree, KUHN_NASH if name == "kuhn" else LEDUC_POLICY, KUHN_EQ if name == "kuhn" else LEDUC_EQ)
    engine, solver = ledger.solver.engine, ledger.solver
    rng = np.random.default_rng(3)
    bits = np.array([sum(1 << c for c in hand) for hand in tree.hands])
    disjoint = ((bits[:, None] & bits[None, :]) == 0).astype(float)
    valid = tree.valid.astype(float)
    for _ in range(3):
        ours, theirs = random_profile(engine, rng), random_profile(engine, rng)
        for position in (0, 1):
            opponent = 1 - position
            regrets = ledger.regrets(position, ours)
            value = solver.value_against_profile(position, ours, theirs)
            assert regrets.worst_case == pytest.approx(solver.worst_case(position, ours), abs=1e-12)
            # P(reaching the opponent's information set) = P(deal) * our reach * its reach
            own = engine.reach(ours)[position]
            deal = ledger._deal[:, None]
            reach_info = ((own * valid) @ disjoint) * valid * deal
            edges = engine.players[opponent].edges
            parents = tree.parent[edges]
            expected_regret = float(
                (reach_info[parents] * engine.reach(theirs)[opponent][edges] * regrets.regret[edges]).sum()
            )
            assert value == pytest.approx(regrets.worst_case + expected_regret, abs=1e-12)
            assert regrets.regret.min() >= 0.0


def test_the_equilibrium_guarantees_the_game_value():
    ledger = ledger_for(KUHN_TREE, KUHN_NASH, KUHN_EQ)
    assert ledger.reference[0] == pytest.approx(-1 / 18, abs=1e-12)
    assert ledger.reference[1] == pytest.approx(1 / 18, abs=1e-12)
    assert ledger.budget == 0.0


# --------------------------------------------------------------------- hand-built gifts
def test_calling_a_value_bet_with_the_worst_card_is_a_one_chip_gift():
    """We are P1 with the Nash strategy (gamma = 1: the King never bets first, the Queen
    bets a third of the time). P2 holds the Queen and faces a bet: we hold the Ace for sure,
    so calling loses 2 where folding loses 1: a gift of exactly 1 chip."""
    ledger = ledger_for(KUHN_TREE, KUHN_NASH, KUHN_EQ)
    called = kuhn_record("As", [Decision(":r", "fc", "c")], ("Qs",))
    assert ledger.gift(called, KUHN_EQ) == pytest.approx(1.0, abs=1e-12)
    settlement = ledger.settle(called, KUHN_EQ)
    assert settlement.gift == pytest.approx(1.0, abs=1e-12)
    assert settlement.risked == pytest.approx(0.0, abs=1e-12)
    assert ledger.budget == pytest.approx(1.0, abs=1e-12)


def test_a_fold_books_the_smallest_gift_the_hidden_cards_allow():
    """P2 folds to our bluff with the Queen: with the Ace that fold gives 3 chips (we hold
    the Queen, the King never bets, so calling wins 2 instead of losing 1), with the King it
    gives nothing (calling and folding are worth -1 alike). The cards stay hidden: 0 is booked."""
    ledger = ledger_for(KUHN_TREE, KUHN_NASH, KUHN_EQ)
    fold = [Decision(":r", "fc", "f")]
    assert ledger.gift(kuhn_record("Qs", fold, ("As",)), KUHN_EQ) == pytest.approx(3.0, abs=1e-12)
    assert ledger.gift(kuhn_record("Qs", fold, ("Ks",)), KUHN_EQ) == pytest.approx(0.0, abs=1e-12)
    assert ledger.gift(kuhn_record("Qs", fold, ("Ks", "As")), KUHN_EQ) == pytest.approx(0.0, abs=1e-12)


def test_equilibrium_play_gives_nothing():
    """Against our Nash strategy every action of P2's Nash strategy is a best response."""
    ledger = ledger_for(KUHN_TREE, KUHN_NASH, KUHN_EQ)
    simulator = TreeSimulator(KUHN_TREE)
    rng = np.random.default_rng(0)
    for hand in range(200):
        position = hand % 2
        played = simulator.play((KUHN_EQ, KUHN_EQ), rng)
        assert ledger.settle(played.records[position], KUHN_EQ).gift == pytest.approx(0.0, abs=1e-12)
    assert abs(ledger.budget) < 1e-9


def test_records_that_do_not_fit_the_tree_are_refused_and_book_nothing():
    ledger = ledger_for(KUHN_TREE, KUHN_NASH, KUHN_EQ)
    with pytest.raises(LedgerError, match="not in the game's tree"):
        ledger.gift(kuhn_record("As", [Decision(":rrr", "fc", "c")], ("Qs",)), KUHN_EQ)
    with pytest.raises(LedgerError, match="unknown opponent hand"):
        ledger.gift(kuhn_record("As", [Decision(":r", "fc", "c")], ("Js",)), KUHN_EQ)
    ledger.budget = 1.0
    settlement = ledger.settle(kuhn_record("As", [Decision(":rrr", "fc", "c")], ("Qs",)), KUHN_EQ)
    assert settlement.gift == 0.0 and ledger.budget == 1.0 and ledger.unreadable == 1


# --------------------------------------------------------------------- the budget
def test_share_spends_at_most_the_budget():
    """A response risking R chips is drawn instead of the equilibrium with probability
    k / R: over the draw its worst case is (1 - k/R) r + (k/R) w = r - k, and a hand without
    gifts books exactly that risk."""
    ledger = ledger_for(KUHN_TREE, KUHN_NASH, KUHN_EQ)
    solver = ledger.solver
    response = solver.best_response_to_reach(0, solver.engine.reach(always_call(KUHN_TREE))[1]).sigma
    worst = ledger.worst_case(0, response)
    risk = ledger.reference[0] - worst
    assert risk == pytest.approx(5 / 18, abs=1e-12)
    assert ledger.share(0, worst) == 0.0  # nothing won yet
    ledger.budget = 0.1
    share = ledger.share(0, worst)
    assert share == pytest.approx(0.36, abs=1e-12)
    assert (1 - share) * ledger.reference[0] + share * worst == pytest.approx(ledger.reference[0] - 0.1, abs=1e-12)
    # P2 checks behind with the Queen after our check: no regret (it cannot bet profitably)
    quiet = kuhn_record("Ks", [Decision(":c", "cr", "c")], ("Qs",))
    settlement = ledger.settle(quiet, KUHN_EQ, share * risk)
    assert settlement.gift == pytest.approx(0.0, abs=1e-12)
    assert ledger.budget == pytest.approx(0.0, abs=1e-12)
    ledger.budget = 10 * risk
    assert ledger.share(0, worst) == 1.0
    assert ledger.share(0, ledger.reference[0] + 0.1) == 1.0  # a response that risks nothing


@pytest.mark.slow
def test_gifts_then_punishment_costs_at_most_the_budget():
    """The opponent calls everything (gifts) for 60 hands, then best-responds to the profile
    the agent plays in each hand (the strongest adaptive opponent). From then on every hand's
    exact expected value is the profile's worst case and no gift is booked, so the agent loses
    at most the budget it held at the switch, and its budget never goes negative. Without
    the budget the agent keeps exploiting and loses more than it had won."""
    losses = {}
    for safe in (True, False):
        config = BayesExploiterConfig(safe=safe)
        model = spike_and_slab_model(LEDUC_POLICY.to_json_dict()["infosets"], config, rank_class, seed=2)
        solver = ResponseSolver(LEDUC_TREE, model.index)
        core = BayesExploiterCore(solver, LEDUC_EQ, model, config)
        ledger = SafetyLedger(solver, LEDUC_EQ)
        engine, simulator = solver.engine, TreeSimulator(LEDUC_TREE)
        calls = engine.uniform()
        for node in LEDUC_TREE.decision_nodes:
            for child in LEDUC_TREE.children(int(node)):
                calls[child] = 1.0 if LEDUC_TREE.label[child] == "c" else 0.0
        rng = np.random.default_rng(4)
        switch_budget = None
        punished = 0.0
        references = 0.0
        for hand in range(120):
            position = hand % 2
            sigma = core.policy(position)
            if hand < 60:
                opponent = calls
            else:
                if switch_budget is None:
                    switch_budget = core.ledger.budget if safe else 0.0
                opponent = solver.best_response_to_reach(1 - position, engine.reach(sigma)[position]).sigma
                value = solver.value_against_profile(position, sigma, opponent)
                punished += value
                references += ledger.reference[position]
                if safe:
                    assert value >= ledger.reference[position] - core.ledger.budget - 1e-9
            played = simulator.play((sigma, opponent) if position == 0 else (opponent, sigma), rng)
            core.observe(played.records[position])
            if safe:
                assert core.ledger.budget >= -1e-9
                if hand >= 60:
                    assert core.ledger.settled == hand + 1
        losses[safe] = references - punished
        if safe:
            assert switch_budget is not None and switch_budget > 5.0
            assert losses[True] <= switch_budget + 1e-6
    assert losses[False] > losses[True] + 1.0


def test_the_learner_risks_only_what_it_has_won():
    """An exploiting plan is played only in the share the budget allows: none before any
    gift, k / R after a gift of k (R: what the response risks), and the profile of a hand
    stays fixed until the hand is observed."""
    config = BayesExploiterConfig()
    model = spike_and_slab_model(KUHN_NASH.to_json_dict()["infosets"], config, identity_class, seed=1)
    core = BayesExploiterCore(ResponseSolver(KUHN_TREE, model.index), KUHN_EQ, model, config)
    exploit = core.solver.best_response_to_reach(0, core.solver.engine.reach(always_call(KUHN_TREE))[1]).sigma
    plan = replace(core.plan(0), sigma=exploit, exploiting=True, worst_case=core.ledger.worst_case(0, exploit))
    risk = core.ledger.reference[0] - plan.worst_case
    assert risk == pytest.approx(5 / 18, abs=1e-12)
    core.plans[0] = plan
    assert core.policy(0) is core.equilibrium and core.hand is not None and core.hand.share == 0.0
    core.observe(kuhn_record("As", [Decision(":r", "fc", "c")], ("Qs",)))  # a 1-chip gift
    assert core.ledger.budget == pytest.approx(1.0, abs=1e-12)
    core.plans[0] = plan
    core._computed_at[0] = core.model.hands_seen  # the schedule keeps the plan
    sigma = core.policy(0)
    assert core.hand.share == 1.0 and sigma is exploit  # 1 chip covers the 5/18 at risk
    assert core.hand.risked == pytest.approx(5 / 18, abs=1e-12)
    assert core.policy(0) is sigma
    core.observe(kuhn_record("As", [Decision(":r", "fc", "f")], ("Qs", "Ks")))  # no gift booked
    assert core.ledger.budget == pytest.approx(13 / 18, abs=1e-12)


# --------------------------------------------------------------------- experiments
OPENSPIEL_POLICY = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "leduc-openspiel-cfrplus-130.json"


def test_the_openspiel_near_equilibrium_is_within_0_01():
    """The near-equilibrium opponent that is not ours (OpenSpiel's CFR+, 130 iterations)."""
    policy = Policy.load(OPENSPIEL_POLICY, LEDUC)
    assert policy.meta["iterations"] == 130
    assert exploitability(LEDUC, policy) == pytest.approx(0.0097435, abs=1e-6)
    assert exploitability(LEDUC, policy) == pytest.approx(policy.meta["openspiel_exploitability"], abs=1e-9)


def test_leduc_study_plays_policy_files_and_both_rules(tmp_path):
    app = typer.Typer()
    app.command("leduc")(experiment_leduc)
    app.command("kuhn")(experiment_kuhn)
    runner = CliRunner()
    out = tmp_path / "leduc.json"
    opponent = f"policy:{OPENSPIEL_POLICY}"
    arguments = ["leduc", "--out", str(out), "--trials", "2", "--hands", "16", "--opponents", opponent]
    arguments += ["--learners", "adaptive,adaptive-nobudget", "--adaptive", "allowance=0.001"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert set(data["results"][opponent]) == {"adaptive", "adaptive-nobudget"}
    assert data["results"][opponent]["adaptive"]["best_response_value"] == pytest.approx(0.0097435, abs=1e-6)
    assert data["meta"]["config"]["adaptive"] == {"allowance": 0.001}
    assert list(tmp_path.glob("leduc_policy_*.png"))
    bad = runner.invoke(app, ["leduc", "--out", str(out), "--adaptive", "allowance=-1"])
    assert bad.exit_code == 2 and "non-negative" in bad.output
    bad = runner.invoke(app, ["leduc", "--out", str(out), "--adaptive", "nonsense=1"])
    assert bad.exit_code == 2 and "KEY=VALUE" in bad.output
