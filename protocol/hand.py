"""The hand state machine: one place that decides legality, for any ACPC game.

:class:`HandState` follows the reference dealer's rules exactly (``../shared/ACPC-NOTES.md``):
who acts, the legal actions, round ends, all-in players, the end of the hand, showdown
values with side pots and fractional splits. Legality has one home, in the pokerkit style:

* :meth:`HandState.verify` raises :class:`IllegalActionError` saying why an action is illegal;
* :meth:`HandState.can` answers the same question with a bool;
* :meth:`HandState.apply` verifies, then plays the action;
* :meth:`HandState.clamp` repairs a no-limit raise size out of range the way the reference
  dealer does before it judges the action.

Positions are 0-based positions in the hand (relative to the button, as on the wire).
Amounts are in chips; ``spent[p]`` counts every chip position ``p`` put in, blinds included.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

from pokerbot.protocol.actions import CALL, Action, ActionKind, LegalActions
from pokerbot.protocol.cards import Card
from pokerbot.protocol.errors import IllegalActionError, IncompleteHandError
from pokerbot.protocol.game import MAX_PLAYERS, Game

MAX_ACTIONS_PER_ROUND = 64
"""The reference dealer's cap on actions in one round; raising stops before it is reached."""

_FOLD, _CALL, _RAISE = ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE
_copy_list = list.copy
_SEATS_AFTER = [
    [tuple((after + k) % n for k in range(1, n + 1)) for after in range(2 * n)] for n in range(MAX_PLAYERS + 1)
]
"""``_SEATS_AFTER[n][after]``: the positions of an ``n``-player hand in turn after ``after``
(``after`` < 2n), ``after`` itself last."""


class _Rules:
    """The constants of a game that every action reads, as plain attributes (a :class:`Game`,
    a pydantic model, reads its own more slowly); one per game, shared by its hands."""

    __slots__ = (
        "stacks",
        "num_players",
        "num_rounds",
        "is_nolimit",
        "raise_sizes",
        "max_raises",
        "first_player",
        "min_raise_by",
        "seats_after",
    )

    def __init__(self, game: Game) -> None:
        self.stacks = game.stacks
        self.num_players = game.num_players
        self.num_rounds = game.num_rounds
        self.is_nolimit = game.is_nolimit
        self.raise_sizes = game.raise_sizes
        self.max_raises = game.max_raises
        self.first_player = game.first_player
        self.min_raise_by = game.min_raise_by
        self.seats_after = _SEATS_AFTER[game.num_players]


_RULES: dict[int, tuple[weakref.ref[Game], _Rules]] = {}
"""Each live game's rules, by the game's id."""


def _rules_of(game: Game) -> _Rules:
    key = id(game)
    entry = _RULES.get(key)
    if entry is None or entry[0]() is not game:
        entry = _RULES[key] = (weakref.ref(game), _Rules(game))
        weakref.finalize(game, _RULES.pop, key, None)
    return entry[1]


class HandState:
    """The betting (and the cards known) of one hand, from its start to its end.

    ``hole_cards[p]`` is a tuple of position ``p``'s hole cards, or ``None`` when unknown;
    ``board_cards`` holds the board cards known so far, in dealing order (it may hold cards
    of rounds not reached yet, as a dealer's state does; :meth:`visible_board` gives those
    of the rounds reached).
    """

    __slots__ = (
        "game",
        "spent",
        "max_spent",
        "min_raise_to",
        "round",
        "actions",
        "actors",
        "folded",
        "finished",
        "hole_cards",
        "board_cards",
        "_to_act",
        "_num_folded",
        "_num_active",
        "_num_raises",
        "_num_called",
        "_rules",
    )

    def __init__(
        self,
        game: Game,
        hole_cards: Sequence[tuple[Card, ...] | None] | None = None,
        board_cards: Sequence[Card] = (),
    ) -> None:
        self.game = game
        self._rules = _rules_of(game)
        self.spent: list[int] = list(game.blinds)
        self.max_spent: int = max(game.blinds)
        if game.is_nolimit:
            self.min_raise_to: int = self.max_spent * 2 if self.max_spent else 1
        else:
            self.min_raise_to = 0
        self.round = 0
        self.actions: list[list[Action]] = [[] for _ in range(game.num_rounds)]
        self.actors: list[list[int]] = [[] for _ in range(game.num_rounds)]
        self.folded: list[bool] = [False] * game.num_players
        self.finished = False
        self._num_folded = 0
        self._num_active = sum(1 for blind, stack in zip(game.blinds, game.stacks) if blind < stack)
        self._num_raises = 0
        self._num_called = 0
        """Players who called the round's last raise (or checked, before any), the raiser
        counted, all-in players not: the round ends when every active player is counted."""
        self.hole_cards: list[tuple[Card, ...] | None] = (
            list(hole_cards) if hole_cards is not None else [None] * game.num_players
        )
        self.board_cards: tuple[Card, ...] = tuple(board_cards)
        self._to_act: int | None = self._next_player(game.first_player[0] + game.num_players - 1)

    # ----------------------------------------------------------------- queries
    def copy(self) -> HandState:
        """An independent copy (cards are shared: they are immutable tuples)."""
        other = HandState.__new__(HandState)
        other.game = self.game
        other._rules = self._rules
        other.spent = self.spent[:]
        other.max_spent = self.max_spent
        other.min_raise_to = self.min_raise_to
        other.round = self.round
        other.actions = list(map(_copy_list, self.actions))
        other.actors = list(map(_copy_list, self.actors))
        other.folded = self.folded[:]
        other.finished = self.finished
        other.hole_cards = self.hole_cards[:]
        other.board_cards = self.board_cards
        other._to_act = self._to_act
        other._num_folded = self._num_folded
        other._num_active = self._num_active
        other._num_raises = self._num_raises
        other._num_called = self._num_called
        return other

    @property
    def current_player(self) -> int | None:
        """The position to act, or None when the hand is over."""
        return self._to_act

    @property
    def pot(self) -> int:
        """Chips in the pot, blinds included."""
        return sum(self.spent)

    def is_all_in(self, position: int) -> bool:
        """True when ``position`` has put its whole stack in."""
        return self.spent[position] >= self.game.stacks[position]

    def num_active(self) -> int:
        """Players who are neither folded nor all-in."""
        return self._num_active

    def num_raises(self) -> int:
        """Raises made so far in the current round."""
        return self._num_raises

    def history(self) -> list[tuple[int, int, Action]]:
        """Every action so far as ``(round, position, action)``, in order."""
        return [
            (r, actor, action)
            for r in range(self.game.num_rounds)
            for actor, action in zip(self.actors[r], self.actions[r])
        ]

    def view(self, position: int) -> HandState:
        """A copy as ``position`` sees it: others' hole cards hidden (shown only at a
        showdown, never a folded player's) and the board cut to the rounds reached."""
        other = self.copy()
        showdown = self.showdown()
        other.hole_cards = [
            cards if p == position or (showdown and not self.folded[p]) else None
            for p, cards in enumerate(self.hole_cards)
        ]
        other.board_cards = self.visible_board()
        return other

    def visible_board(self) -> tuple[Card, ...]:
        """The board cards of the rounds reached so far."""
        game = self.game
        return self.board_cards[: game.board_start[self.round] + game.num_board_cards[self.round]]

    def uncalled_bet(self) -> tuple[int, int] | None:
        """``(position, chips)``: the part of the largest bet no other player matched (a bet or
        raise folded to, an all-in beyond the caller's stack), which goes back to its player at
        the hand's end, never into a pot; None when every chip in was matched. Chips count over
        the whole hand; the pot as it is won is :attr:`pot` minus them."""
        if self.game.num_players < 2:
            return None
        ordered = sorted(range(self.game.num_players), key=lambda p: self.spent[p], reverse=True)
        top, second = ordered[0], ordered[1]
        chips = self.spent[top] - self.spent[second]
        return (top, chips) if chips > 0 else None

    def showdown(self) -> bool:
        """True when the hand is over and two or more players did not fold."""
        return self.finished and self._num_folded + 1 < self._rules.num_players

    def _next_player(self, after: int) -> int | None:
        folded, spent, stacks = self.folded, self.spent, self._rules.stacks
        for p in self._rules.seats_after[after]:
            if not folded[p] and spent[p] < stacks[p]:
                return p
        return None

    def _raise_bounds(self) -> tuple[int, int] | None:
        """(min raise-to, max raise-to) for the player to act, or None when it cannot raise."""
        rules = self._rules
        r = self.round
        if self._num_raises >= rules.max_raises[r]:
            return None
        if len(self.actions[r]) + rules.num_players > MAX_ACTIONS_PER_ROUND:
            return None
        if self._num_active <= 1:
            return None
        p = self._to_act
        assert p is not None
        stack = rules.stacks[p]
        if not rules.is_nolimit:
            raise_to = min(self.max_spent + rules.raise_sizes[r], stack)
            return raise_to, raise_to
        if self.min_raise_to > stack:
            if self.max_spent >= stack:
                return None
            return stack, stack
        return self.min_raise_to, stack

    def legal_actions(self) -> LegalActions:
        """The legal actions of the player to act; raises IllegalActionError after the hand."""
        p = self._to_act
        if p is None:
            raise IllegalActionError("the hand is over: nobody is to act")
        spent, stack = self.spent[p], self.game.stacks[p]
        bounds = self._raise_bounds()
        return LegalActions(
            player=p,
            can_fold=spent != self.max_spent and spent != stack,
            call_amount=min(self.max_spent, stack) - spent,
            can_raise=bounds is not None,
            min_raise_to=bounds[0] if bounds else 0,
            max_raise_to=bounds[1] if bounds else 0,
        )

    # ------------------------------------------------------------- legality
    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is illegal here."""
        p = self._to_act
        if p is None:
            raise IllegalActionError("the hand is over: no action is legal")
        kind = action.kind
        if kind is _CALL:
            if action.size:
                raise IllegalActionError("a call carries no size")
            return
        if kind is _FOLD:
            if action.size:
                raise IllegalActionError("a fold carries no size")
            if self.spent[p] == self.max_spent or self.spent[p] == self._rules.stacks[p]:
                raise IllegalActionError(f"position {p} cannot fold: it has nothing to call")
            return
        bounds = self._raise_bounds()
        if bounds is None:
            raise IllegalActionError(self._why_no_raise())
        if not self._rules.is_nolimit:
            if action.size:
                raise IllegalActionError("a limit raise carries no size")
            return
        low, high = bounds
        if not low <= action.size <= high:
            raise IllegalActionError(f"raise to {action.size} is out of range: position {p} may raise to {low}..{high}")

    def _why_no_raise(self) -> str:
        if self.num_raises() >= self.game.max_raises[self.round]:
            return f"no raise allowed: round {self.round} already has {self.game.max_raises[self.round]} raises"
        if len(self.actions[self.round]) + self.game.num_players > MAX_ACTIONS_PER_ROUND:
            return f"no raise allowed: round {self.round} is near the cap of {MAX_ACTIONS_PER_ROUND} actions"
        if self.num_active() <= 1:
            return "no raise allowed: no other player can still act"
        return "no raise allowed: the player's stack cannot raise the current bet"

    def can(self, action: Action) -> bool:
        """True when ``action`` is legal for the player to act."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def clamp(self, action: Action) -> Action:
        """Repair ``action`` the way the reference dealer does, or raise IllegalActionError.

        A no-limit raise below the minimum becomes the minimum raise, one above the stack
        becomes all-in; sizes given to other actions are dropped. An action that is still
        illegal (a fold with nothing to call, a raise where none is allowed) raises.
        """
        if action.kind is _RAISE and self.game.is_nolimit:
            bounds = self._raise_bounds()
            if bounds is not None:
                size = min(max(action.size, bounds[0]), bounds[1])
                if size != action.size:
                    action = Action(_RAISE, size)
        elif action.size:
            action = Action(action.kind)
        self.verify(action)
        return action

    # ---------------------------------------------------------------- moves
    def apply(self, action: Action) -> None:
        """Play ``action`` for the player to act (verified first; raises if illegal)."""
        if action.kind is not _CALL or action.size or self._to_act is None:
            self.verify(action)  # a call without a size is legal whenever someone is to act
        self._do(action)

    def apply_clamped(self, action: Action) -> Action:
        """Repair ``action`` as :meth:`clamp` does and play it (one verification); returns the
        action played. Raises IllegalActionError, changing nothing, when it cannot be repaired."""
        played = self.clamp(action)
        self._do(played)
        return played

    def _do(self, action: Action) -> None:
        game = self._rules
        p = self._to_act
        assert p is not None
        r = self.round
        self.actions[r].append(action)
        self.actors[r].append(p)
        kind = action.kind
        stack = game.stacks[p]
        if kind is _FOLD:
            self.folded[p] = True
            self._num_folded += 1
            self._num_active -= 1
            if self._num_folded + 1 >= game.num_players:
                self.finished = True
                self._to_act = None
                return
        else:
            if kind is _CALL:
                spent = self.max_spent if self.max_spent < stack else stack
                if spent < stack:
                    self._num_called += 1
            else:
                self._num_raises += 1
                if game.is_nolimit:
                    spent = action.size
                    if 2 * spent - self.max_spent > self.min_raise_to:
                        self.min_raise_to = 2 * spent - self.max_spent
                else:
                    spent = min(self.max_spent + game.raise_sizes[r], stack)
                self.max_spent = spent
                self._num_called = 1 if spent < stack else 0
            self.spent[p] = spent
            if spent >= stack:
                self._num_active -= 1
        active = self._num_active
        if self._num_called >= active:
            if active > 1:
                if r + 1 < game.num_rounds:
                    self.round = r + 1
                    self._num_raises = 0
                    self._num_called = 0
                    self.min_raise_to = game.min_raise_by + self.max_spent
                    self._to_act = self._next_player(game.first_player[r + 1] + game.num_players - 1)
                    return
            else:
                self.round = game.num_rounds - 1
            self.finished = True
            self._to_act = None
            return
        self._to_act = self._next_player(p)

    # --------------------------------------------------------------- values
    def values(self) -> tuple[float, ...]:
        """Each position's winnings in chips (negative for losses) at the end of the hand.

        Follows the reference dealer: folded players lose what they spent; side pots are
        split evenly among the best-ranked players in them, so values can be fractional.
        Raises :class:`IncompleteHandError` before the end or when showdown cards are unknown.
        """
        if not self.finished:
            raise IncompleteHandError("the hand is not over: values are not defined yet")
        game = self.game
        n = game.num_players
        if self._num_folded + 1 == n:
            total = self.pot
            return tuple(float(-self.spent[p]) if self.folded[p] else float(total - self.spent[p]) for p in range(n))
        ranks = self.showdown_ranks()
        return tuple(
            float(-self.spent[p]) if self.folded[p] else _showdown_value(self.spent, ranks, p) for p in range(n)
        )

    def collected(self) -> tuple[float, ...]:
        """Chips each position takes from the pot at the end of the hand: its winnings plus
        what it put in, less an :meth:`uncalled_bet` returned to it (never contested, so never
        won); 0 for a player who wins nothing. Their sum is the pot as it was won. Raises
        :class:`IncompleteHandError` as :meth:`values` does."""
        values = self.values()
        returned = self.uncalled_bet()
        taken = [value + spent for value, spent in zip(values, self.spent)]
        if returned is not None:
            taken[returned[0]] -= returned[1]
        return tuple(0.0 if self.folded[p] or amount <= 0 else amount for p, amount in enumerate(taken))

    def showdown_ranks(self) -> list[int]:
        """Hand ranks of the players at showdown (-1 for folded players); needs their cards."""
        game = self.game
        board = self.visible_board()
        if len(board) != game.board_start[self.round] + game.num_board_cards[self.round]:
            raise IncompleteHandError("the board cards of the showdown are not known")
        ranker = game.ranker
        ranks = []
        for p in range(game.num_players):
            if self.folded[p]:
                ranks.append(-1)
                continue
            hole = self.hole_cards[p]
            if hole is None:
                raise IncompleteHandError(f"the hole cards of position {p} are needed for the showdown")
            ranks.append(ranker((*hole, *board)))
        return ranks

    def betting_string(self) -> str:
        """The ACPC betting string: rounds separated by ``/``, no-limit raises with sizes."""
        nolimit = self.game.is_nolimit
        parts = []
        for r in range(self.round + 1):
            parts.append(
                "".join(
                    (f"r{a.size}" if nolimit else "r") if a.kind is _RAISE else a.kind.char for a in self.actions[r]
                )
            )
        return "/".join(parts)

    def __repr__(self) -> str:
        return f"HandState({self.betting_string()!r}, to_act={self._to_act})"


def _showdown_value(spent_by_position: list[int], ranks: list[int], player: int) -> float:
    """The reference dealer's side-pot arithmetic for one non-folded ``player``."""
    spent: list[int] = []
    rank: list[int] = []
    index = -1
    for p, amount in enumerate(spent_by_position):
        if amount == 0:
            continue
        if p == player:
            index = len(spent)
        spent.append(amount)
        rank.append(ranks[p])
    value = 0.0
    while True:
        size = min(spent)
        win_rank = max(max(rank), 0)
        winners = sum(1 for r in rank if r == win_rank)
        count = len(spent)
        if rank[index] == win_rank:
            value += (size * (count - winners)) / winners
        else:
            value -= size
        new_spent: list[int] = []
        new_rank: list[int] = []
        new_index = -1
        for i, amount in enumerate(spent):
            amount -= size
            if amount == 0:
                if i == index:
                    return value
                continue
            if i == index:
                new_index = len(new_spent)
            new_spent.append(amount)
            new_rank.append(rank[i])
        spent, rank, index = new_spent, new_rank, new_index


def replay(game: Game, actions: Sequence[Action]) -> HandState:
    """A new hand of ``game`` after ``actions`` (each verified); raises IllegalActionError."""
    state = HandState(game)
    for action in actions:
        state.apply(action)
    return state


__all__ = ["CALL", "HandState", "MAX_ACTIONS_PER_ROUND", "replay"]
