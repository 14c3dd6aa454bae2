"""What a player asks of an opponent model, the models it gets by default, and the frequency adapter.

A player that adapts keeps one :class:`OpponentModels` per opponent: an **action model** and
a **showdown model**. It asks nothing else of them than the two protocols below, so any pair
of models that answers these questions can be plugged in (the miximax agent:
``MiximaxAgent(..., opponent_models=factory)``):

* :class:`OpponentActionModel`: P(action class) of the opponent to act, from the action
  context of the state (:func:`~pokerbot.models.features.action_context`): a search weighs
  the opponent's branches by it, a showdown model narrows the opponent's range by it, a
  pre-flop policy steals and calls by it, a subgame solver shapes the opponent's strategy by
  it;
* :class:`OpponentShowdownModel`: P(the opponent's hand beats a hand of a given strength)
  from the showdown context of the betting
  (:func:`~pokerbot.models.features.showdown_context`), and how many showdowns it has
  learnt from (a player trusts it more as they accumulate);
* both learn one opponent's decisions, or showdown, from each finished hand.

:func:`hoeffding_models` is the default :data:`OpponentModelFactory`: the Hoeffding-tree
models of :mod:`pokerbot.models.hoeffding`, starting from the shipped prior that fits the
game. :class:`ActionModelFrequencies` turns an action model into :data:`Frequencies`, the
callable a search or a solver asks (state in, class probabilities out), memoised.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol, runtime_checkable

from pokerbot.models.action_classes import ActionClass
from pokerbot.models.features import action_context
from pokerbot.models.prior import load_default_prior, models_for_game
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState


@runtime_checkable
class OpponentActionModel(Protocol):
    """P(the opponent's next action class), learnt from its decisions."""

    def predict_proba_one(self, x: Mapping[str, float]) -> Mapping[int, float]:
        """``{ActionClass value: probability}`` in action context ``x`` (classes not legal
        there may be missing)."""
        ...

    def learn_hand(self, final_view: MatchState, opponent: int | None = None) -> int:
        """Learn every decision of position ``opponent`` in a finished hand (as the receiving
        player saw it); returns how many were learnt."""
        ...


@runtime_checkable
class OpponentShowdownModel(Protocol):
    """P(the opponent's showdown hand beats ours), learnt from the hands it showed."""

    observations: int
    """Showdowns learnt so far (the prior's excluded)."""

    def prob_beats(self, x: Mapping[str, float], strength: float) -> float:
        """P(the opponent's hand is stronger than a hand of ``strength``, a percentile rank in
        [0, 1]) in showdown context ``x``."""
        ...

    def learn_hand(self, final_view: MatchState, opponent: int | None = None) -> int:
        """Learn the hand position ``opponent`` showed in a finished hand (0 without a showdown)."""
        ...


class OpponentModels(NamedTuple):
    """The two models of one opponent."""

    action: OpponentActionModel
    showdown: OpponentShowdownModel

    def learn_hand(self, final_view: MatchState, opponent: int) -> None:
        """Both models learn what position ``opponent`` did (and showed) in a finished hand."""
        self.action.learn_hand(final_view, opponent=opponent)
        self.showdown.learn_hand(final_view, opponent=opponent)


OpponentModelFactory = Callable[[Game, int], list[OpponentModels]]
"""Makes ``count`` fresh, independent model pairs for a game (one per opponent)."""


def hoeffding_models(game: Game, count: int) -> list[OpponentModels]:
    """``count`` fresh Hoeffding-tree model pairs for ``game``, from the shipped prior that fits
    it (:func:`~pokerbot.models.prior.models_for_game`; uniform priors when none does)."""
    prior = load_default_prior(game)
    return [OpponentModels(*models_for_game(game, prior=prior)) for _ in range(count)]


Frequencies = Callable[[HandState], Mapping[ActionClass, float]]
"""``frequencies(state)``: the probability of each action class of the player to act in
``state`` (classes not legal there are ignored; the rest need not sum to 1)."""


class ActionModelFrequencies:
    """An action model as :data:`Frequencies`: its class probabilities in the action context of
    the state, memoised by betting and board until :meth:`clear` (call it when the model has
    learnt, or make a new one per decision)."""

    _MAX_CACHED = 4096
    """The memo is emptied when it holds more states than this."""

    def __init__(self, model: OpponentActionModel) -> None:
        self.model = model
        self._cache: dict[tuple[str, tuple[Card, ...]], Mapping[ActionClass, float]] = {}

    def __call__(self, state: HandState) -> Mapping[ActionClass, float]:
        key = (state.betting_string(), state.visible_board())
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > self._MAX_CACHED:
                self._cache.clear()
            raw = self.model.predict_proba_one(action_context(state))
            found = {ActionClass(k): v for k, v in raw.items()}
            self._cache[key] = found
        return found

    def clear(self) -> None:
        """Forget the memoised answers."""
        self._cache.clear()


__all__ = [
    "ActionModelFrequencies",
    "Frequencies",
    "OpponentActionModel",
    "OpponentModelFactory",
    "OpponentModels",
    "OpponentShowdownModel",
    "hoeffding_models",
]
