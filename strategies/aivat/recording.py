"""Known players for AIVAT: action probabilities recorded while a match is played, or asked
again while its log is replayed.

* :class:`RecordingStrategy` wraps a strategy in a match: before each decision it asks the
  strategy's :meth:`~pokerbot.strategies.base.Strategy.action_probabilities` at the view
  (a search-based strategy then replays that answer in its decision: no second search) and
  keeps them; with ``imaginary`` it also asks, when the hand is over and before the strategy
  learns from it, every holding it could have had at each of its decisions. A strategy that
  cannot say its probabilities is played unchanged and counts as unknown.
* :class:`ReplayedStrategy` plays the same part for a log: a fresh strategy is shown every hand
  of the log in order (asked its probabilities, asked to decide, shown the hand's end), so a
  learning strategy learns as it did in the match; the answers are the same as in the match
  when the strategy is reproducible (a seeded policy or styled player, miximax with a node
  budget).

Either gives an :data:`~pokerbot.strategies.aivat.aivat.Oracle` per hand for
:meth:`~pokerbot.strategies.aivat.aivat.Aivat.hand`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Hashable

from pokerbot.protocol.actions import Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.aivat.aivat import AivatError, Oracle
from pokerbot.strategies.base import ActionProbabilities, ActionProbabilitiesError, Strategy

REPLAY_SECONDS = 1.0
"""The deadline a replayed decision gets, as in an in-process match (seconds)."""
RecordKey = tuple[int, str, tuple[Card, ...]]
"""(hand number, betting before the decision, the deciding player's hole cards)."""


def view_key(view: MatchState) -> RecordKey:
    """What identifies a decision within a match: hand, betting so far, own hole cards."""
    return (view.hand_number, view.state.betting_string(), tuple(view.hole_cards))


class RecordingStrategy(Strategy):
    """``inner``, playing as usual, with its action probabilities kept for AIVAT (module
    docstring). ``known`` turns False (for good) when ``inner`` cannot say them."""

    def __init__(self, inner: Strategy, *, imaginary: bool = False) -> None:
        super().__init__(inner.game, None)
        self.inner = inner
        self.name = inner.name
        self.imaginary = imaginary
        self.known = True
        self.records: dict[int, dict[RecordKey, ActionProbabilities]] = {}
        """The probabilities asked, by hand number, then by decision."""
        self._decisions: list[MatchState] = []

    def decide(self, view: MatchState, deadline: float) -> Action:
        """Record the probabilities at ``view``, then let the inner strategy decide."""
        if self.known:
            try:
                self.records.setdefault(view.hand_number, {})[view_key(view)] = self.inner.action_probabilities(view)
            except ActionProbabilitiesError:
                self.known = False
                self.records.clear()
            else:
                if self.imaginary:
                    self._decisions.append(view)
        return self.inner.decide(view, deadline)

    def observe(self, view: MatchState) -> None:
        """Ask the imaginary holdings (if wanted), then let the inner strategy learn."""
        if self.known and self._decisions:
            for decision in self._decisions:
                hand = self.records.setdefault(decision.hand_number, {})
                for view_asked in hypothetical_views(decision):
                    key = view_key(view_asked)
                    if key not in hand:
                        hand[key] = self.inner.action_probabilities(view_asked)
            self._decisions.clear()
        self.inner.observe(view)

    def oracle(self, hand_number: int, position: int, final: HandState) -> Oracle | None:
        """The recorded probabilities of hand ``hand_number`` (None if the strategy is unknown)."""
        if not self.known:
            return None
        records = self.records.get(hand_number, {})

        def recorded(view: MatchState) -> ActionProbabilities:
            try:
                return records[view_key(view)]
            except KeyError:
                raise AivatError(
                    f"no probabilities were recorded for hand {view.hand_number} at "
                    f"{view.state.betting_string()!r} (was the match played with imaginary observations?)"
                ) from None

        return recorded

    def finish(self, hand_number: int, position: int, final: HandState) -> None:
        """Drop the records of hand ``hand_number`` (the hand has been estimated)."""
        self.records.pop(hand_number, None)

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        return self.inner.action_probabilities(view)

    def costly_probabilities(self, view: MatchState) -> bool:
        return self.inner.costly_probabilities(view)

    def probability_key(self, view: MatchState) -> Hashable:
        return self.inner.probability_key(view)


def hypothetical_views(view: MatchState) -> list[MatchState]:
    """``view`` with each other holding the player could have (clashing with no card it sees)."""
    state = view.state
    seen = set(state.visible_board())
    free = [card for card in state.game.deck if card not in seen]
    views = []
    for cards in itertools.combinations(free, state.game.num_hole_cards):
        if set(cards) == set(view.hole_cards):
            continue
        other = state.copy()
        other.hole_cards = list(other.hole_cards)
        other.hole_cards[view.position] = cards
        views.append(MatchState(view.position, view.hand_number, other))
    return views


class ReplayedStrategy:
    """A strategy shown a log's hands in order, so that it answers as it did in the match.

    For each hand: :meth:`oracle` (at each of its decisions it is asked its probabilities and
    to decide, as in the match) gives the hand's oracle; after the estimate, :meth:`finish`
    shows it the hand's end (it learns, as in the match)."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    def oracle(self, hand_number: int, position: int, final: HandState) -> Oracle:
        """Replay ``strategy``'s decisions of hand ``hand_number`` (it played ``position``)."""
        strategy = self.strategy
        asked: dict[RecordKey, ActionProbabilities] = {}
        state = HandState(final.game, final.hole_cards, final.visible_board())
        for _round, actor, played in final.history():
            if actor == position:
                view = MatchState(position, hand_number, state.view(position))
                asked[view_key(view)] = strategy.action_probabilities(view)
                strategy.decide(view, time.monotonic() + REPLAY_SECONDS)
            state.apply(played)

        def oracle(view: MatchState) -> ActionProbabilities:
            answer = asked.get(view_key(view))
            return answer if answer is not None else strategy.action_probabilities(view)

        return oracle

    def finish(self, hand_number: int, position: int, final: HandState) -> None:
        """Show the strategy the end of the hand, as the match did."""
        self.strategy.observe(MatchState(position, hand_number, final.view(position)))


__all__ = ["RecordKey", "RecordingStrategy", "ReplayedStrategy", "hypothetical_views", "view_key"]
