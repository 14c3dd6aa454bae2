"""Players of abstract policies, and the shipped heads-up limit hold'em policies.

:class:`AbstractPolicyPlayer` finds the betting node of the hand, its own bucket in the
current round (the card abstraction the policy carries) and samples the policy's action
there. Limit trees contain every real betting sequence; a no-limit tree needs a translation
of real bets to the tree's (not here yet: a betting sequence outside the tree raises
:class:`~pokerbot.strategies.abstract.betting.BettingTreeError`).

Shipped policies (``strategies/abstract/data/NAME.npz``, heads-up limit hold'em), each made by
the command in ``docs/experiments.md``: ``mccfr10``, ``mccfr100``, ``mcts10``, ``mcrnr10``.
:data:`BLUEPRINTS` names, per game, the strongest equilibrium-style policy (``blueprint``).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from importlib import resources

from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.abstract.shipped import BLUEPRINTS, SHIPPED, SHIPPED_GAME, blueprint_name, plays_shipped
from pokerbot.strategies.base import ActionProbabilities, Strategy, StrategyFactory, normalized


@cache
def shipped_policy(name: str) -> AbstractPolicy:
    """The shipped policy ``name`` (loaded once)."""
    path = resources.files("pokerbot.strategies").joinpath("abstract", "data", f"{name}.npz")
    with resources.as_file(path) as file:
        return AbstractPolicy.load(file, load_game(SHIPPED_GAME))


class AbstractPolicyPlayer(Strategy):
    """Plays an :class:`AbstractPolicy` (see the module docstring)."""

    name = "abstract-policy"

    def __init__(self, game: Game, seed: int | None = None, policy: AbstractPolicy | None = None) -> None:
        super().__init__(game, seed)
        if policy is None:
            raise ValueError("AbstractPolicyPlayer needs a policy")
        if policy.game != game:
            raise ValueError("the policy was made for another game")
        self.policy = policy

    def distribution(self, view: MatchState) -> dict[Action, float]:
        """The policy's row where the viewer is to act: every action of the node, in order."""
        state = view.state
        tree = self.policy.tree
        node = tree.node_of(state)
        bucket = self.policy.abstraction.bucket(view.hole_cards, state.visible_board(), state.round)
        row = self.policy.row(node, bucket)
        return {action: float(p) for action, p in zip(tree.actions[node], row, strict=True)}

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The actions the policy plays in ``view`` with their probabilities (zeros dropped)."""
        return normalized(self.distribution(view))

    def probability_key(self, view: MatchState) -> Hashable:
        """The bucket: hole cards in one bucket get the same probabilities."""
        state = view.state
        return self.policy.abstraction.bucket(view.hole_cards, state.visible_board(), state.round)

    def decide(self, view: MatchState, deadline: float) -> Action:
        distribution = self.distribution(view)
        actions = list(distribution)
        return self.rng.choices(actions, weights=[distribution[a] for a in actions])[0]


def shipped_factory(name: str) -> StrategyFactory:
    """A registry factory for the shipped policy ``name``."""

    def factory(game: Game, seed: int | None = None) -> Strategy:
        player = AbstractPolicyPlayer(game, seed, shipped_policy(name))
        player.name = name
        return player

    return factory


def blueprint_factory(game: Game, seed: int | None = None) -> Strategy:
    """The game's blueprint player (see :data:`BLUEPRINTS`)."""
    name = blueprint_name(game)
    if name is None:
        raise ValueError("no blueprint for this game")
    return shipped_factory(name)(game, seed)


__all__ = [
    "BLUEPRINTS",
    "SHIPPED",
    "AbstractPolicyPlayer",
    "blueprint_factory",
    "blueprint_name",
    "plays_shipped",
    "shipped_factory",
    "shipped_policy",
]
