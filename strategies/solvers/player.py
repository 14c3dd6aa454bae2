"""A strategy that plays a saved tabular policy.

:class:`PolicyStrategy` maps the live :class:`~protocol.wire.MatchState` to its
information-set key (:func:`protocol.infosets.infoset_key`: own hole cards, board,
betting) and samples an action from the policy's probabilities with ``self.rng``. An
information set the policy lacks (or whose legal actions disagree with the game) is played
uniformly among the legal actions; :attr:`PolicyStrategy.misses` counts such decisions.
"""

from __future__ import annotations

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.game import Game
from pokerbot.protocol.infosets import infoset_key
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilities, Strategy
from pokerbot.strategies.solvers.policy import Policy, check_game


class PolicyStrategy(Strategy):
    """Plays ``policy`` (made for ``game``; raises PolicyGameMismatchError otherwise)."""

    name = "policy"

    def __init__(self, game: Game, seed: int | None = None, policy: Policy | None = None) -> None:
        super().__init__(game, seed)
        if policy is None:
            raise TypeError("PolicyStrategy needs a policy")
        check_game(game, policy.game)
        self.policy = policy
        self.misses = 0
        """Decisions taken uniformly because the policy had no usable entry."""

    def _distribution(self, view: MatchState) -> tuple[str, tuple[float, ...], bool]:
        """The legal action characters, their probabilities, and whether the policy had them."""
        state = view.state
        legal = state.legal_actions()
        chars = ("f" if legal.can_fold else "") + "c" + ("r" if legal.can_raise else "")
        key = infoset_key(view.hole_cards, state)
        if key in self.policy and self.policy.actions(key) == chars:
            return chars, self.policy.probabilities(key), True
        return chars, (1.0 / len(chars),) * len(chars), False

    def _action(self, char: str, view: MatchState) -> Action:
        if char == "f":
            return FOLD
        if char == "c":
            return CALL
        return Action.raise_to(view.state.legal_actions().min_raise_to) if self.game.is_nolimit else LIMIT_RAISE

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The policy's probabilities at the player's information set (uniform if unknown)."""
        chars, probabilities, _found = self._distribution(view)
        return {self._action(c, view): p for c, p in zip(chars, probabilities, strict=True) if p > 0.0}

    def decide(self, view: MatchState, deadline: float) -> Action:
        """Sample an action of the policy at the player's information set (uniform if unknown)."""
        chars, probabilities, found = self._distribution(view)
        if not found:
            self.misses += 1
        draw = self.rng.random()
        chosen = chars[-1]
        cumulative = 0.0
        for char, probability in zip(chars, probabilities, strict=True):
            cumulative += probability
            if draw < cumulative:
                chosen = char
                break
        return self._action(chosen, view)


__all__ = ["PolicyStrategy"]
