"""The ACPC match-state protocol 2.0.0 wire format: parse and format lines.

``MATCHSTATE:<position>:<handNumber>:<betting>:<cards>`` is parsed by replaying the betting
through :class:`~protocol.hand.HandState`, so a parsed state is legal by construction.
Every malformed, impossible or unreachable line raises :class:`ProtocolError` (and nothing
else), with a message that names the field and the character offset.

Lines are handled without their terminator; :func:`strip_terminator` removes a trailing
``\\r\\n`` or ``\\n``. Parsing is strict: the output of :func:`format_match_state` is the
only spelling accepted for a state, so ``format_match_state(parse_match_state(x)) == x``.
A player's *response* is read with the reference dealer's leniency (:func:`parse_action`
takes ``f c r k b`` in either case, ``k`` = check, ``b`` = bet).
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.cards import CARD_STRINGS, Card
from pokerbot.protocol.errors import IllegalActionError, ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState

PROTOCOL_VERSION = "2.0.0"
VERSION_LINE = f"VERSION:{PROTOCOL_VERSION}"
"""The first line a player sends (without its terminator)."""
MAX_LINE_LENGTH = 4096
"""The longest line, in bytes with its terminator, the reference code reads."""
MAX_HAND_NUMBER = 2**32 - 1
_PREFIX = "MATCHSTATE:"
_CARD_BY_STRING = {text: index for index, text in enumerate(CARD_STRINGS)}
_DIGITS = frozenset("0123456789")
_MAX_AMOUNT_DIGITS = 10


@dataclass(frozen=True, slots=True)
class MatchState:
    """One player's view of a hand: its position, the hand number and the hand so far.

    ``state`` belongs to this object: copy it (``state.copy()``) before changing it.
    """

    position: int
    hand_number: int
    state: HandState

    @property
    def is_my_turn(self) -> bool:
        """True when the receiving player is the one to act."""
        return self.state.current_player == self.position

    @property
    def hole_cards(self) -> tuple[Card, ...]:
        """The receiving player's hole cards."""
        cards = self.state.hole_cards[self.position]
        assert cards is not None
        return cards


def strip_terminator(line: str) -> str:
    """``line`` without one trailing ``\\r\\n`` or ``\\n``."""
    if line[-1:] != "\n":  # the common case, once a transport has taken the terminator off
        return line
    return line[:-2] if line[-2:-1] == "\r" else line[:-1]


def is_comment(line: str) -> bool:
    """True for protocol comment lines (starting with ``#`` or ``;``), which both sides ignore."""
    return line.startswith(("#", ";"))


def _number(text: str, field: str, offset: int, limit: int) -> int:
    if not text or not _DIGITS.issuperset(text) or (len(text) > 1 and text[0] == "0"):
        raise ProtocolError(f"{field} at offset {offset}: {text[:20]!r} is not a number")
    if len(text) > _MAX_AMOUNT_DIGITS or int(text) > limit:
        raise ProtocolError(f"{field} at offset {offset}: {text[:20]} is larger than {limit}")
    return int(text)


def _check_line(line: str) -> None:
    if len(line) >= MAX_LINE_LENGTH:
        raise ProtocolError(f"line of {len(line)} characters is longer than the limit of {MAX_LINE_LENGTH - 1}")
    if not line.isascii():
        bad = next(i for i, ch in enumerate(line) if ord(ch) > 127)
        raise ProtocolError(f"non-ASCII character at offset {bad}")


def _split(line: str, count: int, what: str) -> list[str]:
    """The ``:``-separated fields of a ``MATCHSTATE`` line, checked for length and characters."""
    line = strip_terminator(line)
    _check_line(line)
    if not line.startswith(_PREFIX):
        raise ProtocolError(f"offset 0: expected {_PREFIX!r}, got {line[:20]!r}")
    fields = line.split(":")
    if len(fields) != count:
        raise ProtocolError(f"expected {count} ':'-separated fields in {what}, got {len(fields)}")
    return fields


def parse_match_state(line: str, game: Game) -> MatchState:
    """Parse a ``MATCHSTATE`` line of ``game`` (terminator allowed); raises ProtocolError."""
    return _parse_fields(_split(line, 5, "a match state"), game)


def _parse_fields(fields: list[str], game: Game) -> MatchState:
    _, position_text, hand_text, betting, cards = fields
    offset = len(_PREFIX)
    position = _number(position_text, "position", offset, game.num_players - 1)
    offset += len(position_text) + 1
    hand_number = _number(hand_text, "hand number", offset, MAX_HAND_NUMBER)
    offset += len(hand_text) + 1
    state = HandState(game)
    replay_betting(betting, state, offset)
    offset += len(betting) + 1
    read_cards(cards, state, position, offset)
    return MatchState(position, hand_number, state)


class MatchStateReader:
    """Reads the successive ``MATCHSTATE`` lines one player receives, replaying only what is new.

    Within a hand every line extends the previous one: the same position and hand number,
    the betting so far plus the latest actions, the cards plus any new board. :meth:`parse`
    then copies the state it already holds and applies the new actions alone (checked by the
    same :meth:`HandState.apply`), re-reading the cards field only when it changed. Any other
    line (a new hand, a resumed match) is parsed from scratch. The result is always what
    :func:`parse_match_state` returns for the line, and every view owns its state.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._key = ""
        self._betting = ""
        self._cards = ""
        self._view: MatchState | None = None

    def parse(self, line: str) -> MatchState:
        """The view of ``line`` (terminator allowed); raises ProtocolError."""
        fields = _split(line, 5, "a match state")
        _, position_text, hand_text, betting, cards = fields
        key = f"{position_text}:{hand_text}"
        last = self._view
        known = len(self._betting)
        if (
            last is None
            or key != self._key
            or not betting.startswith(self._betting)
            or betting[known : known + 1] in _DIGITS  # the last raise's size goes on: not an extension
        ):
            view = _parse_fields(fields, self.game)
        else:
            offset = len(_PREFIX) + len(key) + 1
            state = last.state.copy()
            round_before = state.round
            replay_betting(betting, state, offset, start=known)
            # The same cards in the same round read as before (a fold ending the hand only
            # widens what may be shown); a board that only grew needs its new cards alone.
            if (cards != self._cards or state.round != round_before) and not self._extend_board(
                cards, state, round_before
            ):
                read_cards(cards, state, last.position, offset + len(betting) + 1)
            view = MatchState(last.position, last.hand_number, state)
        self._key, self._betting, self._cards, self._view = key, betting, cards, view
        return view

    def _extend_board(self, cards: str, state: HandState, round_before: int) -> bool:
        """Read only the board rounds ``cards`` adds to the previous line's field (``/`` and
        each new round's cards, all new to the hand): True when that is all that changed
        and every new card is sound; False, with ``state`` untouched, when the whole field
        must be read (and checked, with its error message) by :func:`read_cards`."""
        previous = self._cards
        if not cards.startswith(previous):
            return False
        rounds = cards[len(previous) :].split("/")
        game = state.game
        if rounds[0] or len(rounds) - 1 != state.round - round_before:
            return False
        seen = {card for hole in state.hole_cards if hole for card in hole}
        seen.update(state.board_cards)
        board = list(state.board_cards)
        deck = game.deck_set
        for round_index, text in enumerate(rounds[1:], start=round_before + 1):
            if len(text) != 2 * game.num_board_cards[round_index]:
                return False
            for i in range(0, len(text), 2):
                card = _CARD_BY_STRING.get(text[i : i + 2])
                if card is None or card not in deck or card in seen:
                    return False
                seen.add(card)
                board.append(card)
        state.board_cards = tuple(board)
        return True


def replay_betting(betting: str, state: HandState, offset: int, start: int = 0) -> None:
    """Apply the actions of an ACPC betting string to ``state``, checking ``/`` placement.

    ``offset`` is where the betting starts in its line, for error messages; ``start`` skips
    the actions ``state`` already holds (``betting[:start]``, ending at an action or ``/``).
    """
    nolimit = state.game.is_nolimit
    apply = state.apply
    length = len(betting)
    i = start
    separators = state.round if start else 0
    while i < length:
        char = betting[i]
        where = offset + i
        if char == "/":
            separators += 1
            if separators > state.round:
                raise ProtocolError(f"betting at offset {where}: '/' before round {separators - 1} has ended")
            i += 1
            continue
        if separators != state.round:
            raise ProtocolError(f"betting at offset {where}: expected '/' (round {state.round} has started)")
        if char == "c":
            action = _CALL_ACTION
            i += 1
        elif char == "f":
            action = _FOLD_ACTION
            i += 1
        elif char == "r":
            i += 1
            if nolimit:
                start = i
                while i < length and betting[i] in _DIGITS:
                    i += 1
                size_text = betting[start:i]
                if not size_text:
                    raise ProtocolError(f"betting at offset {where}: no-limit raise without a size")
                action = Action(ActionKind.RAISE, _number(size_text, "raise size", offset + start, 2**31 - 1))
            else:
                action = _RAISE_ACTION
        else:
            raise ProtocolError(f"betting at offset {where}: unexpected character {char!r}")
        try:
            apply(action)
        except IllegalActionError as error:
            raise ProtocolError(f"betting at offset {where}: illegal action {action}: {error}") from None
    if separators != state.round:
        raise ProtocolError(f"betting at offset {offset + length}: expected '/' (round {state.round} has started)")


_CALL_ACTION = Action(ActionKind.CALL)
_FOLD_ACTION = Action(ActionKind.FOLD)
_RAISE_ACTION = Action(ActionKind.RAISE)
_PLAIN_ACTIONS = {action.kind: action for action in (_CALL_ACTION, _FOLD_ACTION, _RAISE_ACTION)}
"""Each kind's action without a size (actions are frozen: one object serves every line)."""


def _cards(text: str, count: int, what: str, offset: int) -> tuple[Card, ...]:
    if len(text) != 2 * count:
        raise ProtocolError(f"cards at offset {offset}: {what} needs {count} cards, got {text[:24]!r}")
    cards = []
    for i in range(0, len(text), 2):
        card = _CARD_BY_STRING.get(text[i : i + 2])
        if card is None:
            raise ProtocolError(f"cards at offset {offset + i}: {text[i : i + 2]!r} is not a card")
        cards.append(card)
    return tuple(cards)


def read_cards(text: str, state: HandState, viewer: int | None, offset: int = 0) -> None:
    """Fill ``state``'s cards from a cards field; raises ProtocolError.

    ``viewer`` is the receiving position, whose own cards must be there and who may see
    others' cards only at a showdown; None reads a log line, where every hole card is shown.
    ``offset`` is where the field starts in its line, for error messages.
    """
    game = state.game
    rounds = text.split("/")
    if len(rounds) != state.round + 1:
        raise ProtocolError(
            f"cards at offset {offset}: {len(rounds) - 1} board rounds given, the betting reached round {state.round}"
        )
    holes_text = rounds[0].split("|")
    if len(holes_text) != game.num_players:
        raise ProtocolError(
            f"cards at offset {offset}: {len(holes_text)} hole-card groups, the game has {game.num_players} players"
        )
    board_zero = game.num_board_cards[0]
    round_zero_board = ""
    if board_zero:
        last = holes_text[-1]
        split = len(last) - 2 * board_zero
        if split < 0:
            raise ProtocolError(f"cards at offset {offset}: round 0 needs {board_zero} board cards")
        holes_text[-1], round_zero_board = last[:split], last[split:]
    visible = state.showdown()
    cursor = offset
    hole_cards: list[tuple[Card, ...] | None] = []
    for p, hole_text in enumerate(holes_text):
        if not hole_text:
            if viewer is None or p == viewer:
                raise ProtocolError(f"cards at offset {cursor}: position {p}'s hole cards are missing")
            hole_cards.append(None)
        else:
            if viewer is not None and p != viewer and not (visible and not state.folded[p]):
                raise ProtocolError(
                    f"cards at offset {cursor}: position {p}'s hole cards cannot be shown to position {viewer} here"
                )
            hole_cards.append(_cards(hole_text, game.num_hole_cards, f"position {p}", cursor))
        cursor += len(hole_text) + 1
    cursor -= 1
    board = list(_cards(round_zero_board, board_zero, "round 0's board", cursor - len(round_zero_board)))
    for r in range(1, state.round + 1):
        cursor += 1
        board.extend(_cards(rounds[r], game.num_board_cards[r], f"round {r}'s board", cursor))
        cursor += len(rounds[r])
    every = [card for group in hole_cards if group for card in group]
    every += board
    deck = game.deck_set
    if not deck.issuperset(every) or len(set(every)) != len(every):
        seen: set[Card] = set()
        for card in every:
            if card not in deck:
                raise ProtocolError(f"cards at offset {offset}: {CARD_STRINGS[card]} is not in this game's deck")
            if card in seen:
                raise ProtocolError(f"cards at offset {offset}: {CARD_STRINGS[card]} appears twice")
            seen.add(card)
    state.hole_cards = hole_cards
    state.board_cards = tuple(board)


def shown_holes(state: HandState, viewer: int | None) -> list[bool]:
    """Whose hole cards the cards field shows to ``viewer``: its own, and at a showdown every
    player's who did not fold (``viewer`` None: every one, as a log line does)."""
    showdown = state.showdown()
    return [viewer is None or p == viewer or (showdown and not folded) for p, folded in enumerate(state.folded)]


def format_cards(state: HandState, viewer: int | None) -> str:
    """The cards field: holes ``|``-separated, then ``/`` and each reached round's board.

    ``viewer`` is the receiving position (others' cards shown only at a showdown, and never
    a folded player's), or None to show every known hole card as a log line does.
    """
    game = state.game
    holes = []
    for cards, shown in zip(state.hole_cards, shown_holes(state, viewer), strict=True):
        holes.append("".join(CARD_STRINGS[c] for c in cards) if shown and cards is not None else "")
    board = state.board_cards
    parts = ["|".join(holes)]
    for r in range(state.round + 1):
        start = game.board_start[r]
        parts.append("".join(CARD_STRINGS[c] for c in board[start : start + game.num_board_cards[r]]))
    return parts[0] + parts[1] + "".join("/" + part for part in parts[2:])


def format_match_state(match_state: MatchState) -> str:
    """The ``MATCHSTATE`` line (without terminator) the dealer sends for ``match_state``."""
    state = match_state.state
    return (
        f"{_PREFIX}{match_state.position}:{match_state.hand_number}:"
        f"{state.betting_string()}:{format_cards(state, match_state.position)}"
    )


def format_action(action: Action, game: Game) -> str:
    """The wire spelling of ``action``: ``f``, ``c``, ``r`` or ``r<size>`` in no-limit."""
    if action.kind is ActionKind.RAISE and game.is_nolimit:
        return f"r{action.size}"
    return action.kind.char


def format_response(match_state: MatchState, action: Action) -> str:
    """The player's reply: the state it answers, ``:`` and the action."""
    return f"{format_match_state(match_state)}:{format_action(action, match_state.state.game)}"


_LENIENT_KINDS = {
    "f": ActionKind.FOLD,
    "c": ActionKind.CALL,
    "k": ActionKind.CALL,
    "r": ActionKind.RAISE,
    "b": ActionKind.RAISE,
}


def parse_action(text: str, game: Game) -> Action:
    """Read an action as the reference dealer does; raises ProtocolError when malformed.

    The kind is one of ``f c k r b`` in either case; a no-limit raise needs a size (the
    raise-to amount); a size given to anything else is dropped, as the dealer drops it.
    """
    if not text:
        raise ProtocolError("action: empty")
    kind = _LENIENT_KINDS.get(text[0].lower())
    if kind is None:
        raise ProtocolError(f"action at offset 0: {text[:20]!r} is not f, c or r")
    rest = text[1:]
    if kind is ActionKind.RAISE and game.is_nolimit:
        digits = rest[1:] if rest[:1] in ("+", "-") else rest
        if not digits or not _DIGITS.issuperset(digits) or len(digits) > _MAX_AMOUNT_DIGITS:
            raise ProtocolError(f"action at offset 1: no-limit raise needs a size, got {rest[:20]!r}")
        return Action(kind, int(rest))
    if rest and not (_DIGITS.issuperset(rest.lstrip("+-")) and len(rest) <= _MAX_AMOUNT_DIGITS + 1):
        raise ProtocolError(f"action at offset 1: unexpected {rest[:20]!r} after the action")
    return _PLAIN_ACTIONS[kind]


def parse_response(line: str, game: Game) -> tuple[MatchState, Action]:
    """Parse a player's reply ``MATCHSTATE:...:<action>``; raises ProtocolError."""
    fields = _split(line, 6, "a response")
    match_state = _parse_fields(fields[:5], game)
    return match_state, parse_action(fields[5], game)


def parse_version(line: str) -> tuple[int, int, int]:
    """Parse ``VERSION:a.b.c``; raises ProtocolError when malformed."""
    line = strip_terminator(line)
    _check_line(line)
    prefix = "VERSION:"
    if not line.startswith(prefix):
        raise ProtocolError(f"offset 0: expected {prefix!r}, got {line[:20]!r}")
    parts = line[len(prefix) :].split(".")
    if len(parts) != 3:
        raise ProtocolError(f"offset {len(prefix)}: version must be three numbers a.b.c")
    numbers = []
    offset = len(prefix)
    for part in parts:
        numbers.append(_number(part, "version", offset, 999))
        offset += len(part) + 1
    return numbers[0], numbers[1], numbers[2]
