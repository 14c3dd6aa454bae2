"""Players of abstract policies, and the shipped policies.

:class:`AbstractPolicyPlayer` finds the betting node of the hand, its own bucket in the
current round (the card abstraction the policy carries) and samples the policy's action
there. Limit trees contain every real betting sequence. In no-limit games the hand is
located by :class:`~pokerbot.strategies.abstract.translation.TreeTranslator` (opponent bets
off the tree read by the pseudo-harmonic mapping, the tree's raises played as the same pot
fractions of the real pot); where translation leaves the tree (a raise the tree has no room
for) the player calls when its effective hand strength beats the pot odds and folds
otherwise (checks when it can). With ``defend=True`` (no-limit, registered as
``blueprint-defended``) it never folds more of its own range than a bet's price
(:mod:`.defence`).

Shipped policies (``strategies/abstract/data/NAME.npz``), each made by the command in
``docs/abstraction.md``: heads-up limit hold'em ``mccfr10``, ``mccfr100``, ``mcts10``,
``mcrnr10``; heads-up no-limit hold'em ``mccfr10-nl``. :data:`BLUEPRINTS` names, per game,
the strongest equilibrium-style policy (``blueprint``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache
from importlib import resources

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.abstract.defence import RangeDefence
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.abstract.ranges import PolicyRange, calls_at_pot_odds, faces_fold
from pokerbot.strategies.abstract.shipped import BLUEPRINTS, SHIPPED, SHIPPED_GAMES, blueprint_name, plays_shipped
from pokerbot.strategies.abstract.translation import TreePosition, TreeTranslator
from pokerbot.strategies.base import ActionProbabilities, Strategy, StrategyFactory, normalized
from pokerbot.strategies.card_abstraction.abstraction import HoldemAbstraction


@cache
def shipped_policy(name: str) -> AbstractPolicy:
    """The shipped policy ``name`` (loaded once)."""
    path = resources.files("pokerbot.strategies").joinpath("abstract", "data", f"{name}.npz")
    with resources.as_file(path) as file:
        return AbstractPolicy.load(file, load_game(SHIPPED_GAMES[name]))


class AbstractPolicyPlayer(Strategy):
    """Plays an :class:`AbstractPolicy` (see the module docstring)."""

    name = "abstract-policy"

    def __init__(
        self, game: Game, seed: int | None = None, policy: AbstractPolicy | None = None, *, defend: bool = False
    ) -> None:
        super().__init__(game, seed)
        if policy is None:
            raise ValueError("AbstractPolicyPlayer needs a policy")
        if policy.game != game:
            raise ValueError("the policy was made for another game")
        self.policy = policy
        self.translator = TreeTranslator(policy.tree, seed) if game.is_nolimit else None
        holdem = isinstance(policy.abstraction, HoldemAbstraction)
        self.ranges = PolicyRange(policy, self.translator) if holdem else None
        """Every holding's probabilities and reach (:mod:`.ranges`; hold'em policies)."""
        self.defence: RangeDefence | None = None
        """The minimum defence (:mod:`.defence`; no-limit only, off by default)."""
        if defend and self.translator is not None:
            if self.ranges is None:
                raise ValueError("the range defence needs a hold'em card abstraction")
            self.defence = RangeDefence(self.ranges)

    def prepare(self) -> None:
        """Load the compiled hand-strength code (else paid by the first decision after the flop)."""
        abstraction = self.policy.abstraction
        if isinstance(abstraction, HoldemAbstraction):
            abstraction.prepare()

    def locate(self, view: MatchState) -> TreePosition:
        """Where the hand of ``view`` stands in the policy's tree (no-limit: translated)."""
        if self.translator is None:
            return TreePosition(self.policy.tree.node_of(view.state), True)
        return self.translator.locate(view.state, view.position, view.hand_number)

    def bucket(self, view: MatchState) -> int:
        """The viewer's bucket in the current round (the policy's card abstraction)."""
        state = view.state
        return self.policy.abstraction.bucket(view.hole_cards, state.visible_board(), state.round)

    def distribution(self, view: MatchState) -> dict[Action, float]:
        """The policy's row where the viewer is to act, as real actions (no-limit: translated;
        off the tree, the pot-odds rule of the module docstring)."""
        where = self.locate(view)
        if not where.synced:
            distribution = self.off_tree(view)
        else:
            row = self.policy.row(where.node, self.bucket(view))
            if self.translator is None:
                return {action: float(p) for action, p in zip(self.policy.tree.actions[where.node], row, strict=True)}
            distribution = {}
            for action, p in zip(self.translator.real_actions(where.node, view.state), row, strict=True):
                distribution[action] = distribution.get(action, 0.0) + float(p)
        if self.defence is not None:
            distribution = self.defence.adjust(
                view.state, view.position, view.hand_number, tuple(view.hole_cards), distribution
            )
        return distribution

    def off_tree(self, view: MatchState) -> dict[Action, float]:
        """Off the tree: check when free; else call when the hand's effective strength is at
        least the pot odds (call / (pot + call)), fold otherwise."""
        state = view.state
        legal = state.legal_actions()
        if legal.call_amount == 0 or not legal.can_fold:
            return {CALL: 1.0}
        abstraction = self.policy.abstraction
        if not isinstance(abstraction, HoldemAbstraction):
            return {CALL: 1.0}
        strength = abstraction.ehs(view.hole_cards, state.visible_board())
        return {CALL: 1.0} if calls_at_pot_odds(strength, state) else {FOLD: 1.0}

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The actions the policy plays in ``view`` with their probabilities (zeros dropped)."""
        return normalized(self.distribution(view))

    def probability_key(self, view: MatchState) -> Hashable:
        """The bucket on the tree (hole cards in one bucket get the same probabilities); the
        hole cards off it, and where the defence may move a holding's folds."""
        if self.defence is not None and faces_fold(view.state):
            return view.hole_cards
        return self.bucket(view) if self.locate(view).synced else view.hole_cards

    def reach(
        self, state: HandState, position: int, hand_number: int, board: Sequence[Card] | None = None
    ) -> np.ndarray | None:
        """The weight of every holding given this player's actions in the hand ``state`` (it
        played ``position`` in hand ``hand_number``; holdings on a card of ``board``, default
        the visible board, weigh 0): :meth:`.ranges.PolicyRange.reach`. None where it is not
        known: without a hold'em card abstraction, or with the minimum defence (whose calls
        depend on the range)."""
        if self.ranges is None or self.defence is not None:
            return None
        return self.ranges.reach(state, position, hand_number, board)

    def decide(self, view: MatchState, deadline: float) -> Action:
        distribution = self.distribution(view)
        actions = list(distribution)
        return self.rng.choices(actions, weights=[distribution[a] for a in actions])[0]

    def quick_action(self, view: MatchState) -> Action | None:
        """The policy's action (a table look-up: it learns nothing)."""
        return self.decide(view, 0.0)


def shipped_factory(name: str, *, defend: bool = False) -> StrategyFactory:
    """A registry factory for the shipped policy ``name`` (``defend``: with the minimum
    defence of :mod:`.defence`, no-limit)."""

    def factory(game: Game, seed: int | None = None) -> Strategy:
        player = AbstractPolicyPlayer(game, seed, shipped_policy(name), defend=defend)
        player.name = name
        return player

    return factory


def blueprint_factory(game: Game, seed: int | None = None, *, defend: bool = False) -> Strategy:
    """The game's blueprint player (see :data:`BLUEPRINTS`; ``defend``: with the minimum
    defence of :mod:`.defence`, no-limit)."""
    name = blueprint_name(game)
    if name is None:
        raise ValueError("no blueprint for this game")
    return shipped_factory(name, defend=defend)(game, seed)


__all__ = [
    "BLUEPRINTS",
    "SHIPPED",
    "SHIPPED_GAMES",
    "AbstractPolicyPlayer",
    "blueprint_factory",
    "blueprint_name",
    "plays_shipped",
    "shipped_factory",
    "shipped_policy",
]
