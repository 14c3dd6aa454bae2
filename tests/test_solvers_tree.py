"""The public tree: sizes, keys, refusals, and payoffs checked by brute force."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerbot.protocol.game import load_game, parse_game
from pokerbot.strategies.solvers import UnsupportedGameError, build_tree, evaluate
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import policy_from_profile, uniform_policy
from pokerbot.strategies.solvers.tree import DECISION, TERMINAL, TreeLimits
from tests.test_solvers_helpers import brute_force_values

LEDUC_3_SUITS = """GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 3
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""


@pytest.mark.parametrize(
    ("name", "nodes", "terminals", "infosets"),
    [("kuhn", 9, 5, 12), ("kuhn3p", 25, 13, 48), ("leduc", 465, 274, 936)],
)
def test_tree_sizes(name, nodes, terminals, infosets):
    tree = build_tree(load_game(name))
    assert (tree.num_nodes, len(tree.terminals), tree.num_infosets) == (nodes, terminals, infosets)


def test_bfs_layout_is_consistent():
    tree = build_tree(load_game("leduc"))
    for node in range(tree.num_nodes):
        for child in tree.children(node):
            assert tree.parent[child] == node
            assert tree.depth[child] == tree.depth[node] + 1
    assert all(tree.kind[t] == TERMINAL for t in tree.terminals)
    assert np.all(np.diff(tree.depth) >= 0)


def test_keys_are_acpc_notation():
    kuhn = build_tree(load_game("kuhn"))
    keys = {kuhn.infoset_key(int(n), h) for n in kuhn.decision_nodes for h in range(kuhn.num_hands)}
    assert keys == {f"{card}:{betting}" for card in ("Qs", "Ks", "As") for betting in ("", "c", "r", "cr")}
    leduc = uniform_policy(load_game("leduc"))
    assert "Qh/Kh:rc/r" in leduc
    assert leduc.actions("Qh/Kh:rc/r") == "fcr"
    assert leduc.actions("Qh/Kh:rc/rr") == "fc"
    assert "Qh/Qh:rc/r" not in leduc  # the hand clashes with the board


def test_decision_actions_are_in_fold_call_raise_order():
    tree = build_tree(load_game("leduc"))
    for node in tree.decision_nodes:
        actions = tree.actions(int(node))
        assert actions in ("cr", "fcr", "fc")
        assert tree.kind[node] == DECISION


def test_refuses_nolimit_and_large_games_quickly():
    with pytest.raises(UnsupportedGameError, match="no-limit"):
        build_tree(load_game("holdem-nolimit-2p"))
    with pytest.raises(UnsupportedGameError, match="too large"):
        build_tree(load_game("holdem-limit-2p"))
    with pytest.raises(UnsupportedGameError, match="public nodes"):
        build_tree(load_game("leduc"), TreeLimits(max_nodes=100))


def _random_policy(game, seed):
    tree = build_tree(game)
    rng = np.random.default_rng(seed)
    sigma = rng.random((tree.num_nodes, tree.num_hands)) + 0.05
    return tree, policy_from_profile(tree, sigma)


@pytest.mark.parametrize("name", ["kuhn", "kuhn3p", "leduc"])
def test_profile_values_match_brute_force(name):
    game = load_game(name)
    tree, policy = _random_policy(game, seed=7)
    expected = brute_force_values(game, policy)
    assert evaluate(tree, policy).values == pytest.approx(expected, abs=1e-12)
    assert sum(expected) == pytest.approx(0.0, abs=1e-12)


def test_variant_game_values_match_brute_force():
    game = parse_game(LEDUC_3_SUITS)
    tree, policy = _random_policy(game, seed=3)
    assert tree.num_hands == 9
    assert evaluate(tree, policy).values == pytest.approx(brute_force_values(game, policy), abs=1e-12)


def test_policy_keys_cover_live_states():
    """Every information set reached in real play has a key in the tree (and vice versa format)."""
    from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE
    from pokerbot.protocol.dealing import Dealer
    from pokerbot.protocol.hand import HandState
    from pokerbot.protocol.infosets import infoset_key

    game = load_game("leduc")
    keys = set(uniform_policy(game))
    rng = random.Random(1)
    for seed in range(200):
        deal = Dealer(game, seed).deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            player = state.current_player
            assert infoset_key(deal.hole_cards[player], state.view(player)) in keys
            state.apply(rng.choice([a for a in (FOLD, CALL, LIMIT_RAISE) if state.can(a)]))


def test_policy_of_random_profile_is_normalised():
    _, policy = _random_policy(load_game("leduc"), seed=1)
    assert isinstance(policy, Policy)
    for key in policy:
        assert sum(policy.probabilities(key)) == pytest.approx(1.0)
