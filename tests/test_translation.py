"""Action translation for no-limit abstract policies (strategies/abstract/translation.py)."""

from __future__ import annotations

import random
from importlib import resources

import numpy as np
import pytest

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import CALL, FOLD, Action, ActionKind
from pokerbot.protocol.game import load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.abstract.betting import (
    DECISION,
    TREE_ARRAYS,
    BettingTreeError,
    build_betting_tree,
    tree_arrays,
    tree_from_arrays,
)
from pokerbot.strategies.abstract.player import AbstractPolicyPlayer, shipped_policy
from pokerbot.strategies.abstract.policy import AbstractPolicy, AbstractPolicyError, normalise
from pokerbot.strategies.abstract.translation import TreeTranslator, pseudo_harmonic, real_fraction
from pokerbot.strategies.baselines import RandomPlayer
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.card_abstraction.abstraction import EhsAbstraction

NOLIMIT = load_game("holdem-nolimit-2p")
SHORT_NOLIMIT = parse_game(
    """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 1000 1000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""
)
"""Heads-up no-limit hold'em with 10 big blinds: a tree of a few thousand nodes."""


@pytest.fixture(scope="module")
def tree():
    return build_betting_tree(SHORT_NOLIMIT, (2, 2, 2, 2))


def test_pseudo_harmonic_values():
    assert pseudo_harmonic(0.5, 1.0, 0.5) == 1.0
    assert pseudo_harmonic(0.5, 1.0, 1.0) == 0.0
    # Ganzfried and Sandholm's formula: (B - x)(1 + A) / ((B - A)(1 + x))
    assert pseudo_harmonic(0.5, 1.0, 0.75) == pytest.approx(0.25 * 1.5 / (0.5 * 1.75))
    assert pseudo_harmonic(0.0, 0.5, 0.25) == pytest.approx(0.25 / (0.5 * 1.25))
    values = [pseudo_harmonic(1.0, 4.0, x) for x in np.linspace(1.0, 4.0, 31)]
    assert all(a > b for a, b in zip(values, values[1:], strict=False))
    assert pseudo_harmonic(0.5, 1.0, 3.0) == 0.0 and pseudo_harmonic(0.5, 1.0, 0.1) == 1.0  # clipped


def test_on_tree_hands_are_located_exactly(tree):
    """Hands whose every action is a tree action land on the tree's own node, synced."""
    translator = TreeTranslator(tree, seed=5)
    generator = random.Random(1)
    for _ in range(300):
        state, node = HandState(SHORT_NOLIMIT), 0
        while tree.kind[node] == DECISION:
            where = translator.locate(state, position=generator.randrange(2), hand_number=generator.randrange(99))
            assert where.synced and where.node == node == tree.node_of(state)
            k = generator.randrange(int(tree.num_actions[node]))
            assert translator.real_actions(node, state)[k] == tree.actions[node][k]
            state.apply(tree.actions[node][k])
            node = int(tree.children[node, k])


def test_an_off_tree_raise_goes_to_its_neighbours_with_pseudo_harmonic_odds(tree):
    """The small blind raises to 250 (pot fraction 0.75: between the tree's 200 = half pot and
    300 = pot): read as 200 with probability 0.4286 over hands."""
    state = HandState(SHORT_NOLIMIT)
    state.apply(Action.raise_to(250))
    assert real_fraction(HandState(SHORT_NOLIMIT), 250) == pytest.approx(0.75)
    half, pot = tree.child(0, Action.raise_to(200)), tree.child(0, Action.raise_to(300))
    translator = TreeTranslator(tree, seed=7)
    nodes = [translator.locate(state, position=0, hand_number=h).node for h in range(4000)]
    assert set(nodes) == {half, pot}
    assert nodes.count(half) / len(nodes) == pytest.approx(pseudo_harmonic(0.5, 1.0, 0.75), abs=0.03)
    # the same hand is always read the same way; another seed reads hands differently
    assert [translator.locate(state, 0, h).node for h in range(50)] == nodes[:50]
    assert [TreeTranslator(tree, seed=8).locate(state, 0, h).node for h in range(50)] != nodes[:50]


def test_our_answers_keep_the_tree_pot_fractions_in_the_real_pot(tree):
    state = HandState(SHORT_NOLIMIT)
    state.apply(Action.raise_to(250))  # real pot after our call: 250 + 250 = 500
    translator = TreeTranslator(tree)
    for node in (tree.child(0, Action.raise_to(200)), tree.child(0, Action.raise_to(300))):
        assert translator.real_actions(node, state) == [
            FOLD,
            CALL,
            Action.raise_to(500),  # half pot: 250 + 0.5 * 500
            Action.raise_to(750),  # pot
            Action.raise_to(1000),  # all-in stays all-in
        ]


def test_small_bets_may_read_as_checks_and_all_ins_as_all_in(tree):
    """On the turn (pot 400) a bet of 100 chips (fraction 0.25) is read as a check or as the
    half-pot bet; an all-in is the tree's all-in."""
    state = HandState(SHORT_NOLIMIT)
    for action in (CALL, CALL, Action.raise_to(200), CALL):
        state.apply(action)
    turn = tree.node_of(state)
    bet = state.copy()
    bet.apply(Action.raise_to(300))
    translator = TreeTranslator(tree, seed=1)
    reads = [translator.locate(bet, 1, h).node for h in range(2000)]
    check, half = tree.child(turn, CALL), tree.child(turn, Action.raise_to(400))
    assert set(reads) == {check, half}
    assert reads.count(check) / len(reads) == pytest.approx(pseudo_harmonic(0.0, 0.5, 0.25), abs=0.03)
    # read as a check, our "check" calls the real bet; read as a bet, our raises are real raises
    for h in range(20):
        where = translator.locate(bet, 1, h)
        assert where.synced
        real = translator.real_actions(where.node, bet)
        assert CALL in real and all(a.kind is not ActionKind.RAISE or bet.can(a) for a in real)
    shove = state.copy()
    shove.apply(Action.raise_to(1000))
    assert translator.locate(shove, 1, 0).node == tree.child(turn, Action.raise_to(1000))


def test_our_own_raises_are_read_exactly(tree):
    """Our raises are the translations of tree raises: read back as those, with no draw."""
    state = HandState(SHORT_NOLIMIT)
    state.apply(Action.raise_to(250))  # the opponent, off the tree
    translator = TreeTranslator(tree, seed=3)
    for h in range(30):
        where = translator.locate(state, 0, h)
        for k, action in enumerate(translator.real_actions(where.node, state)):
            if action.kind is ActionKind.RAISE and action.size < 1000:
                after = state.copy()
                after.apply(action)
                assert translator.locate(after, 0, h).node == int(tree.children[where.node, k])


def test_a_raise_beyond_the_tree_leaves_it_until_the_round_ends():
    """With one raise per round in the tree, a re-raise is read as a call that closes the
    round in the tree: off the tree until our call closes it in the real hand too."""
    tree = build_betting_tree(SHORT_NOLIMIT, (1, 1, 1, 1), BetSizing.uniform((0.5, 1.0), True, 1))
    translator = TreeTranslator(tree)
    state = HandState(SHORT_NOLIMIT)
    state.apply(Action.raise_to(300))  # we (the small blind, position 1) raise pot
    state.apply(Action.raise_to(700))  # the big blind re-raises: the tree has no room
    where = translator.locate(state, position=1)
    assert not where.synced and tree.round[where.node] == 1
    state.apply(CALL)
    where = translator.locate(state, position=1)
    assert where.synced and where.node == tree.node_of(replay_tree(tree, [Action.raise_to(300), CALL]))


def replay_tree(tree, actions):
    state = HandState(tree.game)
    for action in actions:
        state.apply(action)
    return state


def test_the_player_answers_off_the_tree_by_pot_odds():
    tree = build_betting_tree(SHORT_NOLIMIT, (1, 1, 1, 1), BetSizing.uniform((0.5, 1.0), True, 1))
    abstraction = EhsAbstraction.create(SHORT_NOLIMIT, 1, "width")
    policy = AbstractPolicy(tree, abstraction, normalise(tree, np.zeros((tree.num_infosets, tree.max_actions))))
    player = AbstractPolicyPlayer(SHORT_NOLIMIT, 1, policy)
    state = HandState(SHORT_NOLIMIT, hole_cards=[None, (48, 49)])  # a pair of aces
    state.apply(Action.raise_to(300))
    state.apply(Action.raise_to(700))
    assert player.action_probabilities(MatchState(1, 0, state)) == {CALL: 1.0}
    weak = HandState(SHORT_NOLIMIT, hole_cards=[None, (0, 21)])  # seven-deuce offsuit
    weak.apply(Action.raise_to(300))
    weak.apply(Action.raise_to(1000))
    assert player.action_probabilities(MatchState(1, 0, weak)) == {FOLD: 1.0}


def test_a_uniform_no_limit_policy_plays_random_without_illegal_actions(tree):
    abstraction = EhsAbstraction.create(SHORT_NOLIMIT, 2, "width")
    policy = AbstractPolicy(tree, abstraction, normalise(tree, np.zeros((tree.num_infosets, tree.max_actions))))
    player = AbstractPolicyPlayer(SHORT_NOLIMIT, 1, policy)
    outcome = run_inprocess_match(SHORT_NOLIMIT, 60, 3, [player, RandomPlayer(SHORT_NOLIMIT, 2)], ["tree", "random"])
    assert outcome.illegal_actions == {"tree": 0, "random": 0}


@pytest.mark.parametrize("game", [SHORT_NOLIMIT, load_game("holdem-limit-2p")], ids=["nolimit", "limit"])
def test_a_stored_tree_is_the_tree_built_anew(game):
    abstraction = BetSizing.uniform((0.5, 1.0), True, 2) if game.is_nolimit else None
    built = build_betting_tree(game, (2, 3, 3, 4), abstraction)
    stored = tree_from_arrays(game, tree_arrays(built), (2, 3, 3, 4), abstraction)
    assert stored.digest == built.digest and stored.actions == built.actions
    for field in ("num_actions", "stake", "parent", "folder", "infoset_base"):
        assert np.array_equal(getattr(stored, field), getattr(built, field)), field
    broken = tree_arrays(built)
    broken["action_kind"][0, 0] = -1  # the root loses an action its children still have
    with pytest.raises(BettingTreeError, match="actions do not match"):
        tree_from_arrays(game, broken, (2, 3, 3, 4), abstraction)


def test_the_shipped_blueprint_carries_its_tree_and_a_saved_policy_reloads_the_same(tmp_path):
    shipped = shipped_policy("mccfr10-nl")
    path = resources.files("pokerbot.strategies").joinpath("abstract", "data", "mccfr10-nl.npz")
    with resources.as_file(path) as file, np.load(file) as data:
        assert {f"tree_{name}" for name in TREE_ARRAYS} <= set(data.files)
    shipped.save(tmp_path / "with.npz", with_tree=True)
    again = AbstractPolicy.load(tmp_path / "with.npz", NOLIMIT)
    assert again.tree.digest == shipped.tree.digest and again.tree.actions == shipped.tree.actions
    assert np.array_equal(again.probabilities, shipped.probabilities)
    with np.load(tmp_path / "with.npz") as data:
        arrays = dict(data)
    arrays["tree_children"][0, 0] = arrays["tree_children"][0, 1]  # a different tree: refused by its digest
    np.savez_compressed(tmp_path / "bad.npz", **arrays)
    with pytest.raises(AbstractPolicyError, match="betting tree differs"):
        AbstractPolicy.load(tmp_path / "bad.npz", NOLIMIT)
