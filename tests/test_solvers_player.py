"""PolicyStrategy and the shipped equilibria."""

from __future__ import annotations

import pytest

from pokerbot.protocol.game import load_game
from pokerbot.strategies.baselines import RandomPlayer
from pokerbot.strategies.solvers import (
    NoEquilibriumError,
    PolicyGameMismatchError,
    PolicyStrategy,
    equilibrium_policy,
    evaluate,
    kuhn,
)
from tests.test_solvers_helpers import self_play


@pytest.mark.parametrize(("name", "bound"), [("kuhn", 1e-4), ("leduc", 1e-3), ("kuhn3p", 1e-4)])
def test_shipped_equilibria_are_close_to_equilibrium(name, bound):
    policy = equilibrium_policy(load_game(name))
    assert policy is equilibrium_policy(name)  # loaded once
    assert evaluate(load_game(name), policy).exploitability < bound


def test_no_equilibrium_for_other_games():
    with pytest.raises(NoEquilibriumError):
        equilibrium_policy(load_game("holdem-limit-2p"))


@pytest.mark.parametrize("name", ["kuhn", "kuhn3p", "leduc"])
def test_policy_strategy_plays_only_legal_actions(name):
    game = load_game(name)
    policy = equilibrium_policy(game)
    players = [PolicyStrategy(game, seed, policy) for seed in range(game.num_players)]
    hands = self_play(game, players, 300)  # HandState.apply raises on an illegal action
    assert all(state.finished for state in hands)
    assert all(player.misses == 0 for player in players)


def test_unknown_information_sets_fall_back_to_uniform():
    game = load_game("leduc")
    partial = PolicyStrategy(game, 1, first_round_policy(game))
    hands = self_play(game, [partial, RandomPlayer(game, 2)], 200)
    assert all(state.finished for state in hands)
    assert partial.misses > 0


def first_round_policy(game):
    """A Leduc policy knowing only first-round information sets."""
    from pokerbot.strategies.solvers import Policy

    full = equilibrium_policy(game)
    return Policy.from_arrays(game, {k: (full.actions(k), full.probabilities(k)) for k in full if "/" not in k})


def test_policy_strategy_samples_the_policy():
    game = load_game("kuhn")
    policy = kuhn.nash_policy(0.75)
    player = PolicyStrategy(game, 5, policy)
    hands = self_play(game, [player, PolicyStrategy(game, 6, policy)], 3000)
    king_bets = [s.actions[0][0].kind.char for s in hands if s.hole_cards[0] == (51,)]
    assert king_bets.count("r") / len(king_bets) == pytest.approx(0.75, abs=0.05)


def test_policy_strategy_refuses_another_games_policy():
    with pytest.raises(PolicyGameMismatchError):
        PolicyStrategy(load_game("leduc"), 0, kuhn.nash_policy())
