"""Slumbot's HTTP API in our engine's terms, sans-I/O: action strings, incremental actions, answers.

Slumbot, the ACPC 2018 heads-up no-limit champion, plays at slumbot.com behind a JSON API:
``/api/new_hand`` deals a hand, ``/api/act`` takes the client's next action (``incr``), and
each answer carries the hand's whole betting so far (``action``), the client's position
(``client_pos``), its ``hole_cards`` and the ``board``; the answer that ends a hand adds the
client's ``winnings`` in chips and the bot's ``bot_hole_cards``. This module translates that
API to and from :class:`~pokerbot.protocol.hand.HandState`, which stays the one judge of
legality; the HTTP client and the local server that use it are in :mod:`pokerbot.bot.slumbot`.

The game is ``holdem-nolimit-2p`` (blinds 50/100, stacks of 20,000 chips, reset every hand).
The translation rests on these facts (docs/slumbot.md):

* ``client_pos`` 0 is the big blind, which acts second pre-flop and first after: our position
  0 in ``holdem-nolimit-2p``. ``client_pos`` *is* the ACPC position.
* An action string is the hand's betting in order: ``k`` a check, ``c`` a call, ``f`` a fold,
  ``bN`` a bet or raise *to* N chips put in on the current street (the blinds count on the
  pre-flop street, so ``b200`` opens to 200), ``/`` the end of a street. ACPC's ``c`` is both
  ``k`` and ``c``; its ``rM`` counts the chips put in over the whole hand, so ``M`` is ``N``
  plus what each player had put in when the street began.
* The server ends each finished street with ``/``, as ACPC's betting does (an all-in called
  before the river leaves the streets to come empty: ``b20000c///``); a string may also stop
  right after the action that ended a street (``b200c``), which reads the same.
* ``incr`` is one action, in the same spelling, without ``/``.

Functions: :func:`replay_action_string` and :func:`format_action_string` convert a whole
betting; :func:`incr_of` and :func:`parse_incr` one action. :class:`ClientHand` follows one hand
on the client's side (each answer checked against the previous one and against the rules);
:class:`ServerHand` plays one on the server's side and writes its answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pokerbot.protocol.actions import CALL, FOLD, Action, ActionKind
from pokerbot.protocol.cards import CARD_STRINGS, Card
from pokerbot.protocol.dealing import Deal
from pokerbot.protocol.errors import IllegalActionError, IncompleteHandError, ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState

SLUMBOT_GAME = "holdem-nolimit-2p"
"""The built-in game Slumbot plays."""
NUM_POSITIONS = 2
_CARD_BY_STRING = {text: index for index, text in enumerate(CARD_STRINGS)}
_INCR = re.compile(r"[kcf]|b[0-9]{1,10}")
_MAX_ACTION_LENGTH = 4096
_DIGITS = "0123456789"
_MAX_DIGITS = 10


class SlumbotError(ProtocolError):
    """An action string, an ``incr`` or an answer of the API is malformed, illegal or does not
    continue the hand (the message says what and where)."""


def check_game(game: Game) -> None:
    """Raise :class:`SlumbotError` unless ``game`` is heads-up no-limit (the API's strings
    describe no other)."""
    if game.num_players != NUM_POSITIONS or not game.is_nolimit:
        raise SlumbotError(f"the API plays heads-up no-limit hold'em ({SLUMBOT_GAME}), not this game")


# ------------------------------------------------------------------ one action
def _token(state: HandState, action: Action, street_start: int) -> str:
    """The API's spelling of ``action`` (legal for the player to act in ``state``)."""
    if action.kind is ActionKind.FOLD:
        return "f"
    if action.kind is ActionKind.CALL:
        return "c" if state.legal_actions().call_amount else "k"
    return f"b{action.size - street_start}"


def street_start(state: HandState) -> int:
    """The chips each player had put in when the current street began (0 pre-flop): what a
    ``bN`` adds to N to make the ACPC raise-to."""
    if state.round == 0:
        return 0
    shadow = HandState(state.game)
    for _, _, action in state.history():
        shadow.apply(action)
        if shadow.round == state.round:
            return shadow.max_spent
    raise AssertionError("a hand past the first round has actions")  # pragma: no cover


def incr_of(state: HandState, action: Action) -> str:
    """The ``incr`` that sends ``action`` for the player to act in ``state`` (``k``, ``c``,
    ``f`` or ``bN``); raises IllegalActionError when ``action`` is not legal there."""
    state.verify(action)
    return _token(state, action, street_start(state))


def parse_incr(state: HandState, text: str) -> Action:
    """The action an ``incr`` asks for in ``state``; raises :class:`SlumbotError` when it is not
    one action spelled ``k``, ``c``, ``f`` or ``bN``, or is illegal there (a ``k`` facing a
    bet, a ``c`` with nothing to call, a size out of range)."""
    if not _INCR.fullmatch(text):
        raise SlumbotError(f"incr {text[:20]!r} is not one action: expected k, c, f or b<chips>")
    if state.finished:
        raise SlumbotError("the hand is over: no action is legal")
    return _action(state, text, street_start(state), "incr")


def _action(state: HandState, token: str, start: int, where: str) -> Action:
    """The action of ``token`` (one of ``k c f bN``) in ``state``, checked; SlumbotError."""
    legal = state.legal_actions()
    kind = token[0]
    if kind == "k":
        if legal.call_amount:
            raise SlumbotError(f"{where}: 'k' (check) facing a bet: {legal.call_amount} chips to call")
        return CALL
    if kind == "c":
        if not legal.call_amount:
            raise SlumbotError(f"{where}: 'c' (call) with nothing to call; a check is 'k'")
        return CALL
    if kind == "f":
        action = FOLD
    else:
        action = Action.raise_to(start + int(token[1:]))
    try:
        state.verify(action)
    except IllegalActionError as error:
        if kind == "b" and legal.can_raise:
            low, high = legal.min_raise_to - start, legal.max_raise_to - start
            raise SlumbotError(f"{where}: {token!r} is out of range: a bet this street is b{low}..b{high}") from None
        raise SlumbotError(f"{where}: {token!r} is illegal: {error}") from None
    return action


# ------------------------------------------------------------- a whole betting
def replay_action_string(text: str, state: HandState) -> None:
    """Apply the actions of an action string to ``state``, a new hand; raises
    :class:`SlumbotError` naming the offset of the first malformed or illegal action."""
    if len(text) > _MAX_ACTION_LENGTH:
        raise SlumbotError(f"action string of {len(text)} characters is too long")
    start = 0
    i = 0
    length = len(text)
    while i < length:
        if state.finished:
            raise SlumbotError(f"action at offset {i}: {text[i : i + 12]!r} after the end of the hand")
        char = text[i]
        end = i + 1
        if char == "b":
            while end < length and text[end] in _DIGITS and end - i <= _MAX_DIGITS:
                end += 1
            if end == i + 1:
                raise SlumbotError(f"action at offset {i}: 'b' without a size")
        elif char not in "kcf":
            what = "'/' where no street has ended" if char == "/" else f"unexpected character {char!r}"
            raise SlumbotError(f"action at offset {i}: {what}")
        round_before = state.round
        state.apply(_action(state, text[i:end], start, f"action at offset {i}"))
        i = end
        ended = state.round - round_before
        slashes = 0
        while i < length and text[i] == "/":
            slashes += 1
            i += 1
        if slashes != ended and not (slashes == 0 and i == length):
            where = f"action at offset {i - slashes}"
            if not ended:
                raise SlumbotError(f"{where}: '/' where no street has ended")
            raise SlumbotError(f"{where}: {ended} street(s) ended here, so {ended} '/' must follow, got {slashes}")
        if ended:
            start = state.max_spent


def parse_action_string(text: str, game: Game) -> HandState:
    """A new hand of ``game`` after the action string ``text``; raises :class:`SlumbotError`."""
    state = HandState(game)
    replay_action_string(text, state)
    return state


def format_action_string(state: HandState) -> str:
    """The action string of ``state``'s betting, as the server sends it (every ended street
    closed by ``/``)."""
    shadow = HandState(state.game)
    parts = []
    start = 0
    for _, _, action in state.history():
        parts.append(_token(shadow, action, start))
        round_before = shadow.round
        shadow.apply(action)
        if shadow.round != round_before:
            parts.append("/" * (shadow.round - round_before))
            start = shadow.max_spent
    return "".join(parts)


# ------------------------------------------------------------------- answers
def _cards(answer: Mapping[str, Any], key: str, count: int | None) -> tuple[Card, ...]:
    value = answer.get(key)
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise SlumbotError(f"answer: {key!r} must be a list of cards like 'Ac', got {str(value)[:40]}")
    if count is not None and len(value) != count:
        raise SlumbotError(f"answer: {key!r} must hold {count} cards, got {len(value)}")
    cards = []
    for text in value:
        card = _CARD_BY_STRING.get(text)
        if card is None:
            raise SlumbotError(f"answer: {key!r} holds {text[:8]!r}, which is not a card")
        cards.append(card)
    return tuple(cards)


def _integer(answer: Mapping[str, Any], key: str) -> int | None:
    """``answer[key]`` as an int (None when absent or null); SlumbotError when not a whole number."""
    value = answer.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise SlumbotError(f"answer: {key!r} must be a whole number of chips, got {str(value)[:20]}")
    return int(value)


@dataclass(frozen=True, slots=True)
class Turn:
    """The client is to act: ``view`` is the hand as the client sees it."""

    view: MatchState


@dataclass(frozen=True, slots=True)
class HandOver:
    """The hand ended. ``state`` holds every card (the bot's too), ``winnings`` the client's
    chips as the server counted them (equal to the rules' value: :class:`ClientHand` checks),
    ``baseline_winnings`` the server's figure for its own bot in the client's seat, if it sent
    one; ``answer`` is the answer that ended the hand."""

    position: int
    hand_number: int
    state: HandState
    winnings: int
    baseline_winnings: int | None
    answer: Mapping[str, Any]

    @property
    def view(self) -> MatchState:
        """The end of the hand as the client's ACPC seat would see it: the bot's cards only
        at a showdown."""
        return MatchState(self.position, self.hand_number, self.state.view(self.position))


class ClientHand:
    """One hand on the client's side: feed each answer to :meth:`receive`, answer each
    :class:`Turn` with :meth:`respond` (the ``incr`` to send).

    Every answer is checked: the client's position and cards may not change within the hand,
    the betting must continue what the client saw plus the action it sent, the board must
    extend the previous one and fit the street reached, and the end of the hand must carry the
    bot's hole cards and winnings equal to what the rules give. A failed check raises
    :class:`SlumbotError`; so does an answer carrying ``error_msg``.
    """

    def __init__(self, game: Game, hand_number: int) -> None:
        check_game(game)
        self.game = game
        self.hand_number = hand_number
        self.position: int | None = None
        self._hole: tuple[Card, ...] | None = None
        self._board: tuple[Card, ...] = ()
        self._state: HandState | None = None
        self._expected: list[tuple[int, int, Action]] = []
        """The history the next answer must start with: what was seen, then the action sent."""
        self._waiting = False
        self.last_action = ""
        """The action string of the last answer."""

    def receive(self, answer: Mapping[str, Any]) -> Turn | HandOver:
        """The next step of the hand from the server's ``answer`` (a decoded JSON object)."""
        if not isinstance(answer, Mapping):
            raise SlumbotError(f"answer: expected a JSON object, got {type(answer).__name__}")
        if "error_msg" in answer:
            raise SlumbotError(f"the server says: {answer['error_msg']}")
        if self._state is not None and not self._waiting:
            raise SlumbotError("an answer came while no request was made")
        position = _integer(answer, "client_pos")
        if position not in (0, 1):
            raise SlumbotError(f"answer: 'client_pos' must be 0 or 1, got {answer.get('client_pos')!r}")
        hole = _cards(answer, "hole_cards", self.game.num_hole_cards)
        board = _cards(answer, "board", None)
        action = answer.get("action")
        if not isinstance(action, str):
            raise SlumbotError(f"answer: 'action' must be a string, got {str(action)[:40]}")
        if self.position is not None and (position, hole) != (self.position, self._hole):
            raise SlumbotError("answer: the client's position or hole cards changed within the hand")
        state = parse_action_string(action, self.game)
        if state.history()[: len(self._expected)] != self._expected:
            raise SlumbotError(
                f"answer: the action {action!r} does not continue {self.last_action!r} and the action sent"
            )
        visible = self.game.board_start[state.round] + self.game.num_board_cards[state.round]
        if len(board) != visible or board[: len(self._board)] != self._board:
            raise SlumbotError(f"answer: the board {answer['board']} does not fit the action {action!r}")
        if len(set(hole + board)) != len(hole) + len(board):
            raise SlumbotError("answer: a card appears twice among the hole cards and the board")
        self.position, self._hole, self._board, self.last_action = position, hole, board, action
        hole_cards: list[tuple[Card, ...] | None] = [None] * NUM_POSITIONS
        hole_cards[position] = hole
        state.hole_cards, state.board_cards = hole_cards, board
        winnings = _integer(answer, "winnings")
        self._waiting = False
        if state.finished:
            return self._over(state, answer, winnings)
        if winnings is not None:
            raise SlumbotError(f"answer: 'winnings' before the end of the hand (action {action!r})")
        if state.current_player != position:
            raise SlumbotError(f"answer: after {action!r} the bot is to act, yet the server waits for the client")
        self._state = state
        return Turn(MatchState(position, self.hand_number, state.copy()))

    def _over(self, state: HandState, answer: Mapping[str, Any], winnings: int | None) -> HandOver:
        assert self.position is not None and self._hole is not None
        action = self.last_action
        if winnings is None:
            raise SlumbotError(f"answer: the hand is over after {action!r}, but no 'winnings' came")
        bot = _cards(answer, "bot_hole_cards", self.game.num_hole_cards)
        if set(bot) & set(self._hole + self._board):
            raise SlumbotError("answer: a card of 'bot_hole_cards' is already in the hand")
        hole_cards: list[tuple[Card, ...] | None] = [bot, bot]
        hole_cards[self.position] = self._hole
        state.hole_cards = hole_cards
        try:
            value = state.values()[self.position]
        except IncompleteHandError as error:
            raise SlumbotError(f"answer: the hand's value cannot be computed: {error}") from None
        if value != winnings:
            raise SlumbotError(
                f"answer: the server gives the client {winnings} chips for {action!r}, the rules give {value:g}"
            )
        self._state = None
        baseline = _integer(answer, "baseline_winnings")
        return HandOver(self.position, self.hand_number, state, winnings, baseline, answer)

    def respond(self, action: Action) -> str:
        """The ``incr`` that sends ``action`` at the last :class:`Turn`; raises
        IllegalActionError when it is not legal there (nothing is then sent)."""
        state = self._state
        if state is None or self._waiting:
            raise SlumbotError("no action is asked for: respond to the last Turn, once")
        incr = incr_of(state, action)
        actor = state.current_player
        assert actor is not None
        self._expected = [*state.history(), (state.round, actor, action)]
        self._waiting = True
        return incr


# --------------------------------------------------------------- server side
class ServerHand:
    """One hand on the server's side: ``deal`` dealt with the client at ``client_pos`` and the
    server's bot at the other position.

    While :attr:`bot_to_act`, the caller asks its bot about :meth:`bot_view` and plays the
    answer with :meth:`play_bot`; the client's ``incr`` goes to :meth:`play_client`.
    :meth:`answer` is the hand's part of the next answer.
    """

    def __init__(self, game: Game, deal: Deal, client_pos: int, hand_number: int) -> None:
        check_game(game)
        if client_pos not in (0, 1):
            raise ValueError(f"client_pos is 0 or 1, got {client_pos}")
        self.game = game
        self.client_pos = client_pos
        self.bot_pos = 1 - client_pos
        self.hand_number = hand_number
        self.state = HandState(game, hole_cards=list(deal.hole_cards), board_cards=deal.board_cards)

    @property
    def bot_to_act(self) -> bool:
        """True when the server's bot is the player to act."""
        return self.state.current_player == self.bot_pos

    @property
    def finished(self) -> bool:
        """True when the hand is over."""
        return self.state.finished

    def bot_view(self) -> MatchState:
        """The hand as the bot's ACPC seat sees it (its turn, or the end of the hand)."""
        return MatchState(self.bot_pos, self.hand_number, self.state.view(self.bot_pos))

    def play_bot(self, action: object) -> Action:
        """Play the bot's ``action`` as the dealer would: a no-limit size out of range is
        clamped, anything else illegal (or not an action) becomes a check or call. Returns the
        action played."""
        if isinstance(action, Action):
            try:
                return self.state.apply_clamped(action)
            except IllegalActionError:
                pass
        self.state.apply(CALL)
        return CALL

    def play_client(self, incr: str) -> Action:
        """Play the client's ``incr``; raises :class:`SlumbotError` (the hand unchanged) when it
        is malformed, illegal, or it is not the client's turn."""
        if not self.state.finished and self.state.current_player != self.client_pos:
            raise SlumbotError("it is not the client's turn")
        action = parse_incr(self.state, incr)
        self.state.apply(action)
        return action

    def answer(self, old_action: str) -> dict[str, Any]:
        """The hand's fields of an answer; ``old_action`` is the action string the client had
        seen before its request (``""`` for a new hand). At the end of the hand: also
        ``bot_hole_cards``, ``winnings`` (the client's chips) and ``won_pot`` (the whole pot,
        positive when the client won it, negative when it lost it, 0 when it was split)."""
        state = self.state
        answer: dict[str, Any] = {
            "old_action": old_action,
            "action": format_action_string(state),
            "client_pos": self.client_pos,
            "hole_cards": _card_names(state.hole_cards[self.client_pos]),
            "board": _card_names(state.visible_board()),
        }
        if state.finished:
            winnings = round(state.values()[self.client_pos])
            answer["bot_hole_cards"] = _card_names(state.hole_cards[self.bot_pos])
            answer["winnings"] = winnings
            answer["won_pot"] = state.pot if winnings > 0 else -state.pot if winnings < 0 else 0
        return answer

    @property
    def action_string(self) -> str:
        """The hand's action string so far."""
        return format_action_string(self.state)


def _card_names(cards: Sequence[Card] | None) -> list[str]:
    assert cards is not None
    return [CARD_STRINGS[card] for card in cards]


__all__ = [
    "SLUMBOT_GAME",
    "ClientHand",
    "HandOver",
    "ServerHand",
    "SlumbotError",
    "Turn",
    "check_game",
    "format_action_string",
    "incr_of",
    "parse_action_string",
    "parse_incr",
    "replay_action_string",
    "street_start",
]
