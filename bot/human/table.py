"""What a person at the table sees: one hand described from the protocol engine's state.

:func:`describe` turns a player's :class:`~pokerbot.protocol.wire.MatchState` (or a finished
hand with every card, as a log line has it) into a :class:`TableView`: pot, each position's
chips in the pot and behind, the cards that position may see, the board, the history of
actions by round, and the legal actions with their amounts. The terminal seat prints it,
the web page gets it as JSON; neither repeats the rules. :func:`parse_typed_action` reads an
action a person typed and has the engine judge it.

Amounts are in chips; a raise is always a raise TO (the total put in, all rounds counted).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.cards import CARD_STRINGS
from pokerbot.protocol.errors import IllegalActionError, IncompleteHandError, ProtocolError
from pokerbot.protocol.game import UNLIMITED_STACK, Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import format_action, parse_action

HOLDEM_ROUNDS = ("preflop", "flop", "turn", "river")


class TypedActionError(ValueError):
    """What a person typed is not an action, or not a legal one here (the message says why)."""


def round_name(game: Game, round_index: int) -> str:
    """``preflop``/``flop``/``turn``/``river`` in 4-round games, else ``round N`` (1-based)."""
    if game.num_rounds == 4:
        return HOLDEM_ROUNDS[round_index]
    return f"round {round_index + 1}"


def raise_word(state: HandState) -> str:
    """``raise`` when the round has a bet to raise (the big blind counts), else ``bet``."""
    blinds = state.game.blinds
    facing = state.num_raises() > 0 or (state.round == 0 and len(set(blinds)) > 1)
    return "raise" if facing else "bet"


def action_words(action: Action, state: HandState) -> str:
    """``fold``, ``check``, ``call 100``, ``raise to 300`` or ``bet to 300``: ``action`` as
    the player to act in ``state`` makes it."""
    if action.kind is ActionKind.FOLD:
        return "fold"
    position = state.current_player
    owed = state.max_spent - state.spent[position] if position is not None else 0
    if action.kind is ActionKind.CALL:
        return f"call {owed}" if owed else "check"
    verb = raise_word(state)
    return f"{verb} to {action.size}" if state.game.is_nolimit else verb


@dataclass(frozen=True)
class Seat:
    """One position: chips in the pot, chips behind (None: unlimited), cards (None: hidden)."""

    position: int
    in_pot: int
    behind: int | None
    cards: list[str] | None
    folded: bool
    all_in: bool


@dataclass(frozen=True)
class Step:
    """One action of the history: its round, who acted, the words, and the wire letters."""

    round: int
    position: int
    words: str
    wire: str


@dataclass(frozen=True)
class Choices:
    """The legal actions of the position to act, with their amounts in chips."""

    can_fold: bool
    call_amount: int
    can_raise: bool
    min_raise_to: int
    max_raise_to: int
    nolimit: bool
    raise_word: str
    """``raise`` or ``bet`` (nothing to raise yet in this round)."""


@dataclass(frozen=True)
class TableView:
    """One hand as a player (``viewer``) sees it; ``viewer`` None shows every card."""

    hand_number: int
    viewer: int | None
    round: int
    round_name: str
    pot: int
    board: list[str]
    seats: list[Seat]
    history: list[Step]
    to_act: int | None
    choices: Choices | None
    finished: bool
    values: list[float] | None = None
    """Chips won per position once the hand is over and its values are known."""
    big_blind: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary (the web page's view of the hand)."""
        return asdict(self)


def _history(state: HandState) -> list[Step]:
    game = state.game
    replay = HandState(game)
    steps = []
    for round_index, position, action in state.history():
        steps.append(Step(round_index, position, action_words(action, replay), format_action(action, game)))
        replay.apply(action)
    return steps


def describe(state: HandState, hand_number: int, viewer: int | None) -> TableView:
    """The :class:`TableView` of ``state`` (cards as given: hidden ones stay hidden)."""
    game = state.game
    seats = []
    for position in range(game.num_players):
        stack = game.stacks[position]
        cards = state.hole_cards[position]
        seats.append(
            Seat(
                position=position,
                in_pot=state.spent[position],
                behind=None if stack >= UNLIMITED_STACK else stack - state.spent[position],
                cards=None if cards is None else [CARD_STRINGS[c] for c in cards],
                folded=state.folded[position],
                all_in=state.is_all_in(position),
            )
        )
    choices = None
    if not state.finished:
        legal = state.legal_actions()
        choices = Choices(
            legal.can_fold,
            legal.call_amount,
            legal.can_raise,
            legal.min_raise_to,
            legal.max_raise_to,
            game.is_nolimit,
            raise_word(state),
        )
    values = None
    if state.finished:
        try:
            values = list(state.values())
        except IncompleteHandError:  # a showdown whose cards this viewer does not know
            values = None
    return TableView(
        hand_number=hand_number,
        viewer=viewer,
        round=state.round,
        round_name=round_name(game, state.round),
        pot=state.pot,
        board=[CARD_STRINGS[c] for c in state.visible_board()],
        seats=seats,
        history=_history(state),
        to_act=state.current_player,
        choices=choices,
        finished=state.finished,
        values=values,
        big_blind=game.big_blind,
    )


_WORDS = {
    "fold": "f",
    "check": "c",
    "call": "c",
    "raise": "r",
    "bet": "r",
    "allin": "a",
    "all-in": "a",
}


def parse_typed_action(text: str, state: HandState) -> Action:
    """The action a person typed, judged legal by the engine; raises TypedActionError.

    Accepted: ``f``/``fold``, ``c``/``call``, ``k``/``check``, ``r``/``raise``/``b``/``bet``
    followed (in no-limit) by the raise-to amount (``r 600``, ``r600``), and ``a``/``allin``
    for the largest raise.
    """
    typed = re.fullmatch(r"([a-z-]+)\s*(\d+)?", text.strip().lower())
    if not text.strip():
        raise TypedActionError("type an action: f (fold), c (check/call), r AMOUNT (raise to), a (all-in)")
    if typed is None:
        raise TypedActionError(f"{text.strip()!r} is not an action: f, c, r AMOUNT or a")
    word, amount = typed.groups()
    head = _WORDS.get(word, word)
    if head == "a":
        legal = state.legal_actions()
        if not legal.can_raise:
            raise TypedActionError("no raise is allowed here, so no all-in raise either")
        return Action(ActionKind.RAISE, legal.max_raise_to if state.game.is_nolimit else 0)
    if head in ("r", "b") and state.game.is_nolimit and amount is None:
        legal = state.legal_actions()
        hint = f"e.g. r {legal.min_raise_to}" if legal.can_raise else "but no raise is allowed here"
        raise TypedActionError(f"a raise needs the amount to raise to, {hint}")
    try:
        action = parse_action(head + (amount or ""), state.game)
    except ProtocolError:
        raise TypedActionError(f"{text.strip()!r} is not an action: f, c, r AMOUNT or a") from None
    try:
        state.verify(action)
    except IllegalActionError as error:
        raise TypedActionError(str(error)) from None
    return action


__all__ = [
    "Choices",
    "Seat",
    "Step",
    "TableView",
    "TypedActionError",
    "action_words",
    "raise_word",
    "describe",
    "parse_typed_action",
    "round_name",
]
