"""Strategy names, including the ones that take an argument (``policy:PATH``)."""

from pathlib import Path

import pytest

from pokerbot.protocol.game import load_game
from pokerbot.strategies.base import UnknownStrategyError
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.solvers import PolicyStrategy, equilibrium_policy


def test_policy_player_loads_a_saved_policy(tmp_path: Path):
    game = load_game("kuhn")
    path = tmp_path / "kuhn.json"
    original = equilibrium_policy(game).with_meta(note="saved for the registry test")
    original.save(path)
    player = default_registry().create(f"policy:{path}", game, seed=1)
    assert isinstance(player, PolicyStrategy)
    assert player.policy == original and player.policy is not original
    assert player.policy.meta["note"] == "saved for the registry test"


def test_policy_player_errors_say_what_is_wrong(tmp_path: Path):
    registry = default_registry()
    game = load_game("kuhn")
    with pytest.raises(UnknownStrategyError, match="needs an argument: policy:PATH"):
        registry.create("policy", game)
    with pytest.raises(UnknownStrategyError, match="cannot read policy file"):
        registry.create(f"policy:{tmp_path / 'absent.json'}", game)
    leduc_policy = tmp_path / "leduc.json"
    equilibrium_policy(load_game("leduc")).save(leduc_policy)
    with pytest.raises(UnknownStrategyError, match="policy:"):
        registry.create(f"policy:{leduc_policy}", game)  # a Leduc policy for Kuhn
    with pytest.raises(UnknownStrategyError, match="takes no argument"):
        registry.create("random:3", game)


def test_equilibrium_exists_only_for_small_solved_games():
    registry = default_registry()
    assert isinstance(registry.create("equilibrium", load_game("leduc")), PolicyStrategy)
    with pytest.raises(UnknownStrategyError, match="does not play this game"):
        registry.create("equilibrium", load_game("holdem-nolimit-2p"))
