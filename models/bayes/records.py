"""What one finished hand tells about the opponent: its decisions and its possible hole cards.

:func:`record_from_view` reads a player's final view of a hand (a
:class:`~protocol.wire.MatchState` whose state is finished, as
:meth:`strategies.base.Strategy.observe` receives it) into a :class:`HandRecord`: the
public part of every information set where the opponent acted, the action it took there,
and the opponent hole-card hands that are consistent with what the player saw. At a
showdown the opponent's cards are known (one candidate); after a fold they are not, and a
model marginalises them out: the likelihood of the hand is the sum, over the candidates, of
``P(candidate) * prod_d policy(candidate + suffix_d, action_d)``. Candidates are equally
likely: given the player's own cards and the board, every unseen hand is equally likely to
have been dealt to the opponent.

Only two-player games are read (the opponent is the other position).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from pokerbot.models.bayes.errors import ObservationError
from pokerbot.protocol.actions import Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.errors import IncompleteHandError
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.infosets import cards_text, public_suffix
from pokerbot.protocol.wire import MatchState


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the opponent: where (public key part), what it could do, what it did."""

    suffix: str
    """Board and betting before the action, e.g. ``/Kh:rc/`` -> key ``Qs/Kh:rc/`` with the cards."""
    legal: str
    """Legal action characters in ``fcr`` order."""
    action: str
    """The action taken: ``f``, ``c`` or ``r``."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand as the observing player saw it (see the module docstring)."""

    position: int
    """The observing player's position (0-based)."""
    opponent: int
    own_cards: tuple[Card, ...]
    board: tuple[Card, ...]
    decisions: tuple[Decision, ...]
    """The opponent's decisions, in order (possibly none)."""
    candidates: tuple[str, ...]
    """The opponent hole-card hands (key notation, e.g. ``Ks``) consistent with the view."""
    shown: bool
    """True when the opponent's cards were seen (``candidates`` then has one entry)."""
    own_decisions: tuple[Decision, ...] = ()
    """The observing player's own decisions (used by experts algorithms)."""
    value: float = 0.0
    """The observing player's winnings in the hand, in chips."""
    betting: str = ""
    """The hand's whole ACPC betting string, e.g. ``rc/crr``."""

    def keys(self, candidate: str) -> list[str]:
        """The opponent's information-set keys in this hand if it held ``candidate``."""
        return [candidate + decision.suffix for decision in self.decisions]


def _legal_chars(state: HandState) -> str:
    legal = state.legal_actions()
    return ("f" if legal.can_fold else "") + "c" + ("r" if legal.can_raise else "")


def candidate_hands(game: Game, seen: tuple[Card, ...]) -> tuple[str, ...]:
    """Every hole-card hand (key notation) of the opponent that avoids the ``seen`` cards."""
    rest = [card for card in game.deck if card not in set(seen)]
    return tuple(sorted({cards_text(hand) for hand in combinations(rest, game.num_hole_cards)}))


def record_from_view(view: MatchState) -> HandRecord:
    """The :class:`HandRecord` of a finished hand seen from ``view.position``.

    Raises :class:`ObservationError` for an unfinished hand, a game that is not two-player
    or limit, or a view without the player's own cards.
    """
    state = view.state
    game = state.game
    if game.num_players != 2:
        raise ObservationError(f"opponent models read two-player games, this one has {game.num_players}")
    if game.is_nolimit:
        raise ObservationError("opponent models read limit games only")
    if not state.finished:
        raise ObservationError("the hand is not finished: nothing to learn yet")
    me = view.position
    opponent = 1 - me
    own = state.hole_cards[me]
    if own is None:
        raise ObservationError(f"the view of position {me} lacks its own hole cards")
    board = state.visible_board()
    replay = HandState(game)
    replay.board_cards = board
    theirs: list[Decision] = []
    mine: list[Decision] = []
    for _round, actor, action in state.history():
        decision = Decision(public_suffix(replay), _legal_chars(replay), action.kind.char)
        (theirs if actor == opponent else mine).append(decision)
        replay.apply(Action(action.kind))
    shown_cards = state.hole_cards[opponent]
    if shown_cards is not None:
        candidates: tuple[str, ...] = (cards_text(shown_cards),)
    else:
        candidates = candidate_hands(game, tuple(own) + tuple(board))
    try:
        value = state.values()[me]
    except IncompleteHandError as error:
        raise ObservationError(f"the showdown cards are missing from the view: {error}") from None
    return HandRecord(
        position=me,
        opponent=opponent,
        own_cards=tuple(own),
        board=tuple(board),
        decisions=tuple(theirs),
        candidates=candidates,
        shown=shown_cards is not None,
        own_decisions=tuple(mine),
        value=float(value),
        betting=state.betting_string(),
    )


__all__ = ["Decision", "HandRecord", "candidate_hands", "record_from_view"]
