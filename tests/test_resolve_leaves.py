"""Multi-valued leaves: the continuations' payoffs against the engine, the leaf choice in the
solver, and the exact Leduc testbed's figures (docs/resolve.md)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, ActionKind
from pokerbot.protocol.analysis.matchups import holding_space
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.infosets import infoset_key
from pokerbot.strategies.resolve.cfr import SubgameSolver
from pokerbot.strategies.resolve.continual import SolveBudget
from pokerbot.strategies.resolve.exact import policy_table, resolved_policy
from pokerbot.strategies.resolve.leaves import BlueprintLeaves, ContinuationValues
from pokerbot.strategies.resolve.tree import LEAF, build_subgame
from pokerbot.strategies.solvers import exploitability, solve

FACTOR = 5.0


@pytest.fixture(scope="module")
def leduc():  # type: ignore[no-untyped-def]
    game = load_game("leduc")
    return game, holding_space(game), solve(game, "cfr", iterations=100, checkpoints=1).policy


def _engine_payoff(policy, state, chooser, bias):  # type: ignore[no-untyped-def]
    """Position 0's expected winnings from ``state`` (hole cards and board set), both players
    playing ``policy``, the chooser's probabilities of ``bias`` actions times FACTOR, renormalised."""
    if state.finished:
        return state.values()[0]
    position = state.current_player
    legal = state.legal_actions()
    actions = [a for a, ok in ((FOLD, legal.can_fold), (CALL, True), (LIMIT_RAISE, legal.can_raise)) if ok]
    found = policy.action_probabilities(infoset_key(state.hole_cards[position], state))
    weights = [found.get("fcr"[int(a.kind)], 0.0) for a in actions]
    if position == chooser and bias is not None:
        weights = [w * (FACTOR if a.kind is bias else 1.0) for w, a in zip(weights, actions, strict=True)]
    total = sum(weights)
    value = 0.0
    for action, weight in zip(actions, weights, strict=True):
        if weight > 0:
            child = state.copy()
            child.apply(action)
            value += weight / total * _engine_payoff(policy, child, chooser, bias)
    return value


def test_continuation_payoffs_are_the_engines_winnings_under_the_biased_blueprint(leduc):  # type: ignore[no-untyped-def]
    game, space, blueprint = leduc
    state = HandState(game)
    state.apply(LIMIT_RAISE)  # a raise and a call end the first round: a leaf
    tree = build_subgame(state)
    leaves = BlueprintLeaves(game, space, policy_table(blueprint, space), factor=FACTOR)
    values = leaves.values(tree, chooser=1)
    node = next(int(n) for n in np.flatnonzero(tree.kind == LEAF) if tree.states[int(n)].betting_string() == "rc/")
    i = list(np.flatnonzero(tree.kind == LEAF)).index(node)
    history = tree.states[node].history()
    for h, o in [(0, 3), (2, 5), (4, 1)]:
        hole = [tuple(int(c) for c in space.cards[h]), tuple(int(c) for c in space.cards[o])]
        for j, bias in enumerate((None, ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)):
            expected = []
            for card in sorted(game.deck):
                if card in hole[0] + hole[1]:
                    continue
                deal = HandState(game, hole_cards=hole, board_cards=(card,))
                for _round, _actor, action in history:
                    deal.apply(action)
                expected.append(_engine_payoff(blueprint, deal, 1, bias))
            assert values.payoffs[i][j, h, o] == pytest.approx(np.mean(expected), rel=1e-6, abs=1e-6)
    assert not np.allclose(values.payoffs[i][0], values.payoffs[i][3])  # the raise bias changes the payoffs


def test_one_run_out_continuation_solves_as_the_run_out_leaves(leduc):  # type: ignore[no-untyped-def]
    game, space, _ = leduc
    tree = build_subgame(HandState(game))
    leaves = np.flatnonzero(tree.kind == LEAF)
    runout = space.runout_matrix((), np.float64)
    payoffs = np.stack([[float(tree.stake[node]) * runout] for node in leaves])
    rng = np.random.default_rng(5)
    ranges = rng.random((2, space.size))
    plain = SubgameSolver(tree, space, (), ranges)
    chosen = SubgameSolver(tree, space, (), ranges, leaves=ContinuationValues(1, payoffs))
    plain.iterate(40)
    chosen.iterate(40)
    assert chosen.average_strategy() == pytest.approx(plain.average_strategy(), abs=1e-5)
    assert chosen.best_response_values(1) == pytest.approx(plain.best_response_values(1), abs=1e-4)


def test_at_a_leaf_the_chooser_best_responds_with_its_best_continuation(leduc):  # type: ignore[no-untyped-def]
    game, space, _ = leduc
    tree = build_subgame(HandState(game))
    leaves = np.flatnonzero(tree.kind == LEAF)
    rng = np.random.default_rng(9)
    payoffs = rng.normal(size=(leaves.size, 3, space.size, space.size)) * ~space.conflicts
    ranges = rng.random((2, space.size))
    solver = SubgameSolver(tree, space, (), ranges, leaves=ContinuationValues(1, payoffs))
    solver.iterate(25)
    strategy = solver.average_strategy()
    best = solver.best_response_values(1, strategy)
    reach = np.zeros((tree.num_nodes, space.size))
    solver._forward(strategy.astype(np.float32), ranges[0].astype(np.float32), 0, reach)  # our reach at every node
    for i, node in enumerate(leaves):
        per_choice = -np.einsum("jho,h->jo", payoffs[i], reach[node])
        assert best[node] == pytest.approx(per_choice.max(axis=0), rel=1e-5, abs=1e-5)
    # our values at a leaf weigh each continuation by the chooser's average choice
    assert solver.leaf_choice is not None
    choice = solver.leaf_choice.average()
    theirs = np.zeros((tree.num_nodes, space.size))
    solver._forward(strategy.astype(np.float32), ranges[1].astype(np.float32), 1, theirs)
    ours = solver.expected_values(0, strategy)
    for i, node in enumerate(leaves):
        expected = np.einsum("jho,jo->h", payoffs[i], choice[i] * theirs[node])
        assert ours[node] == pytest.approx(expected, rel=1e-5, abs=1e-5)
    assert np.min(choice) < 0.2 < 0.8 < np.max(choice)  # the chooser picks, holding by holding


def test_multi_valued_leaves_make_leduc_resolving_far_less_exploitable(leduc):  # type: ignore[no-untyped-def]
    # Re-solving from the first decision at the shipped budget (30 iterations a solve), exactly:
    # run-out leaves, the blueprint's continuation alone, and the opponent's choice among four.
    game, space, blueprint = leduc
    budget = SolveBudget(iterations=30)
    runout = exploitability(game, resolved_policy(game, budget, first_round=0))
    table = policy_table(blueprint, space)
    single = BlueprintLeaves(game, space, table, biases=(), round_start="blueprint")
    multi = BlueprintLeaves(game, space, table, round_start="blueprint")
    one = exploitability(game, resolved_policy(game, budget, first_round=0, trunk=blueprint, leaves=single))
    four = exploitability(game, resolved_policy(game, budget, first_round=0, trunk=blueprint, leaves=multi))
    assert exploitability(game, blueprint) == pytest.approx(0.09572, abs=1e-5)
    assert runout == pytest.approx(0.31023, abs=1e-4)
    assert one == pytest.approx(0.09727, abs=1e-4)
    assert four == pytest.approx(0.07010, abs=1e-4)
    assert four < exploitability(game, blueprint) < one < runout
