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
_PREFIX_NAME = _PREFIX[:-1]
_CARD_BY_STRING = {text: index for index, text in enumerate(CARD_STRINGS)}
_DIGITS = frozenset("0123456789")
_MAX_AMOUNT_DIGITS = 10
_MAX_RAISE = 2**31 - 1


class MatchState:
    """One player's view of a hand: its position, the hand number and the hand so far.

    ``state`` belongs to this object: copy it (``state.copy()``) before changing it. A view is
    immutable (its attributes cannot be set) and compares equal to another of the same
    position, hand number and state object.

    A view made by a :class:`MatchStateReader` takes its state when ``state`` is first read:
    while the reader has read no later line, the state it holds (no copy); after that, the
    line read alone (the same state, by the reader's contract). The view and the reader each
    take the state in one atomic step, so a view may be read in another thread while the
    reader goes on. Reading ``position``, ``hand_number`` or :attr:`is_my_turn` never needs
    the state.
    """

    __slots__ = ("_position", "_hand_number", "_state", "_cell", "_line", "_game", "_turn")

    def __init__(self, position: int, hand_number: int, state: HandState) -> None:
        self._position = position
        self._hand_number = hand_number
        self._state: HandState | None = state
        self._cell: list[HandState] | None = None
        self._line = ""
        self._game: Game | None = None
        self._turn: bool | None = None

    @property
    def position(self) -> int:
        """The receiving player's position in the hand (0-based, relative to the button)."""
        return self._position

    @property
    def hand_number(self) -> int:
        """The hand's number in the match (0-based)."""
        return self._hand_number

    @property
    def state(self) -> HandState:
        """The hand as this player sees it after the line that made this view."""
        state = self._state
        if state is None:
            cell = self._cell
            assert cell is not None and self._game is not None
            try:
                state = cell.pop()  # the reader read no later line: take the state it holds
            except IndexError:  # it did, and kept that state: read this view's line alone
                state = _parse_fields(_split(self._line, 5, "a match state"), self._game)[2]
            self._state = state
        return state

    @property
    def is_my_turn(self) -> bool:
        """True when the receiving player is the one to act."""
        turn = self._turn
        if turn is None:
            return self.state.current_player == self._position
        return turn

    @property
    def hole_cards(self) -> tuple[Card, ...]:
        """The receiving player's hole cards."""
        cards = self.state.hole_cards[self._position]
        assert cards is not None
        return cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return (self._position, self._hand_number, self.state) == (other._position, other._hand_number, other.state)

    def __hash__(self) -> int:
        return hash((self._position, self._hand_number, self.state))

    def __repr__(self) -> str:
        return f"MatchState(position={self._position}, hand_number={self._hand_number}, state={self.state!r})"

    def __reduce__(self) -> tuple[type[MatchState], tuple[int, int, HandState]]:
        return MatchState, (self._position, self._hand_number, self.state)


def strip_terminator(line: str) -> str:
    """``line`` without one trailing ``\\r\\n`` or ``\\n``."""
    if line[-1:] != "\n":  # the common case, once a transport has taken the terminator off
        return line
    return line[:-2] if line[-2:-1] == "\r" else line[:-1]


def is_comment(line: str) -> bool:
    """True for protocol comment lines (starting with ``#`` or ``;``), which both sides ignore."""
    return line.startswith(("#", ";"))


_SEATS_COMMENT = "# seats connected: "


def seats_comment(connected: int, seats: int) -> str:
    """The comment line our dealer sends the connected seats while the match waits for the
    others: ``# seats connected: 1 of 2`` (a client of the reference ignores it)."""
    return f"{_SEATS_COMMENT}{connected} of {seats}"


def parse_seats_comment(line: str) -> tuple[int, int] | None:
    """``(connected, seats)`` from a :func:`seats_comment` line; None for any other line."""
    if not line.startswith(_SEATS_COMMENT):
        return None
    connected, _, seats = line[len(_SEATS_COMMENT) :].partition(" of ")
    if not (connected.isdigit() and seats.isdigit()):
        return None
    return int(connected), int(seats)


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
    return MatchState(*_parse_fields(_split(line, 5, "a match state"), game))


def _parse_fields(fields: list[str], game: Game, fresh: HandState | None = None) -> tuple[int, int, HandState]:
    """The position, hand number and state of a ``MATCHSTATE`` line's five fields; ``fresh``,
    when given, is a new hand of ``game`` to start from (copied)."""
    _, position_text, hand_text, betting, cards = fields
    offset = len(_PREFIX)
    position = _number(position_text, "position", offset, game.num_players - 1)
    offset += len(position_text) + 1
    hand_number = _number(hand_text, "hand number", offset, MAX_HAND_NUMBER)
    offset += len(hand_text) + 1
    state = HandState(game) if fresh is None else fresh.copy()
    if betting:
        replay_betting(betting, state, offset)
    offset += len(betting) + 1
    read_cards(cards, state, position, offset)
    return position, hand_number, state


_new_view = MatchState.__new__


class MatchStateReader:
    """Reads the successive ``MATCHSTATE`` lines one player receives, applying only what is new.

    Within a hand every line extends the previous one: the same position and hand number,
    the betting so far plus the latest actions, the cards plus any new board or hole cards
    shown. When a line starts with the previous line up to the end of its betting,
    :meth:`parse` applies the new actions alone to the state it holds (each checked by
    :meth:`HandState.apply`; the actions already held are not checked again) and reads only
    what changed in the cards field. The first line of the next hand, at any position, is
    read from its hole cards alone. Any other line (a resumed match, a line that rewrites an
    earlier action) is parsed from scratch. The view is always what :func:`parse_match_state`
    returns for the line, and a bad line raises the same ProtocolError.

    No state is copied unless it must be: a view takes the reader's state when its ``state``
    is first read (see :class:`MatchState`), and only then does the next line of the hand
    work on a copy.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._head = ""
        """The last line up to the end of its betting ("" when the next line is read whole)."""
        self._cards = ""
        self._position = 0
        self._hand_number = 0
        self._state: HandState | None = None
        self._cell: list[HandState] = []
        """Holds ``_state`` until the last view takes it."""
        self._fresh = HandState(game)
        self._next_hand = "-"
        """What follows the position in the first line of the next hand ("-" before any line)."""
        self._positions = {str(p): p for p in range(game.num_players)}
        """Each position's spelling (the only one :func:`parse_match_state` accepts)."""
        self._nolimit = game.is_nolimit
        self._news = dict(_SIMPLE_NEWS)
        if not game.is_nolimit:
            self._news["r"] = (_RAISE_ACTION, 0)

    def peek(self) -> HandState:
        """The state of the last line read, without a view taking it: read it, never change
        or keep it (the next line may change it). Raises LookupError before the first line
        and after a bad one."""
        if self._state is None:
            raise LookupError("no line has been read")
        return self._state

    def parse(self, line: str) -> MatchState:
        """The view of ``line`` (terminator allowed); raises ProtocolError."""
        if "\n" in line:
            line = strip_terminator(line)
        state = None
        if len(line) < MAX_LINE_LENGTH and line.isascii():
            front, _, cards = line.rpartition(":")
            head = self._head
            known = len(head)
            if front[:known] != head or not head:
                state = self._next(front, cards)
            else:  # the line extends the last one: apply its new actions to the state held
                state = self._state
                assert state is not None
                try:
                    self._cell.pop()  # no view took it: change it in place (one atomic step, as the view's)
                except IndexError:
                    state = state.copy()  # the last view has it: leave it as it was
                self._head = ""  # until the line is read: a failure leaves nothing to extend
                round_before = state.round
                sound = True
                if len(front) > known:
                    simple = self._news.get(front[known:])
                    if simple is None:
                        sound = self._apply(front, known, state)
                    else:  # one action, and the rounds it ends: the most common news
                        try:
                            state.apply(simple[0])
                        except IllegalActionError:
                            sound = False
                        else:
                            sound = state.round == round_before + simple[1]
                if not sound:
                    state = None
                # The same cards in the same round read as before (a fold ending the hand only
                # widens what may be shown); otherwise only what changed is read.
                elif cards == self._cards and state.round == round_before:
                    self._head = front
                elif _update_cards(self._cards, cards, state, round_before, self._position):
                    self._head, self._cards = front, cards
                else:
                    state = None
                self._state = state
        if state is None:
            state = self._read_whole(line)
        self._cell = cell = [state]
        view = _new_view(MatchState)
        view._position = position = self._position
        view._hand_number = self._hand_number
        view._state = None
        view._cell = cell
        view._line = line
        view._game = self.game
        view._turn = state._to_act == position
        return view

    def _apply(self, front: str, known: int, state: HandState) -> bool:
        """Apply the actions of ``front[known:]``, the betting a line adds to the last one's:
        True when all are sound and legal, else False. A single no-limit raise is remembered
        as a simple news (its size, not its legality)."""
        news = front[known:]
        size_text = news[1:]
        if news[0] != "r" or not size_text.isdigit() or not self._nolimit:
            return _apply_betting(front, known, len(front), state, self._nolimit)
        if size_text[0] == "0" or len(size_text) > _MAX_AMOUNT_DIGITS or int(size_text) > _MAX_RAISE:
            return False
        action = Action(ActionKind.RAISE, int(size_text))
        round_before = state.round
        try:
            state.apply(action)
        except IllegalActionError:
            return False
        if state.round != round_before:
            return False
        if len(self._news) < _MAX_NEWS:
            self._news[news] = (action, 0)
        return True

    def _read_whole(self, line: str) -> HandState:
        """Read ``line`` from scratch (noting what the next line may extend); ProtocolError."""
        self._head, self._state = "", None
        fields = _split(line, 5, "a match state")
        self._position, self._hand_number, state = _parse_fields(fields, self.game, self._fresh)
        cards = fields[4]
        end = len(line) - len(cards) - 1
        self._head, self._cards, self._state = line[:end], cards, state
        self._next_hand = f"{self._hand_number + 1}:"
        return state

    def _next(self, front: str, cards: str) -> HandState | None:
        """The state of a line that is the first line of the next hand (any position), with
        the receiving player's hole cards alone; else None (the line is then read whole).
        ``front`` is the line up to its last ``:``, ``cards`` the rest."""
        prefix, _, rest = front.partition(":")
        position_text, _, tail = rest.partition(":")
        position = self._positions.get(position_text)
        if tail != self._next_hand or position is None or prefix != _PREFIX_NAME:
            return None
        if self._hand_number >= MAX_HAND_NUMBER:
            return None
        state = self._fresh.copy()
        if not _read_own_hole(cards, state, position):
            return None
        self._position = position
        self._hand_number += 1
        self._head, self._cards, self._state = front, cards, state
        self._next_hand = f"{self._hand_number + 1}:"
        return state


def _update_cards(previous: str, cards: str, state: HandState, round_before: int, viewer: int) -> bool:
    """Read the cards field ``cards`` of a line of a hand whose previous line had ``previous``
    (sound): ``state`` holds that line's cards and the new line's betting, which went on from
    round ``round_before``. The boards of new rounds and hole cards shown at a showdown are
    read alone; anything else is read whole by :func:`read_cards`. True when the field is
    sound (``state`` then has its cards), False when it is not."""
    game = state.game
    known = len(previous)
    if state.round == round_before + 1 and cards[known : known + 1] == "/" and cards[:known] == previous:
        text = cards[known + 1 :]  # the board of the one new round, the most common change
        if len(text) != 2 * game.num_board_cards[state.round]:
            return False
        dealt = [_CARD_BY_STRING.get(text[i : i + 2], -1) for i in range(0, len(text), 2)]
        seen = set(state.board_cards).union(*filter(None, state.hole_cards))
        if len(seen.union(dealt)) != len(seen) + len(dealt) or not game.deck_set.issuperset(dealt):
            return False
        state.board_cards += tuple(dealt)
        return True
    rounds = cards.split("/")
    old_rounds = previous.split("/")
    reached = len(old_rounds)
    if len(rounds) != state.round + 1 or reached > len(rounds) or game.num_board_cards[0]:
        return _read_cards(cards, state, viewer)
    if rounds[1:reached] != old_rounds[1:]:  # an earlier round's board changed
        return False
    new: list[Card] = []
    for r in range(reached, len(rounds)):
        text = rounds[r]
        if len(text) != 2 * game.num_board_cards[r]:
            return False
        for i in range(0, len(text), 2):
            new.append(_CARD_BY_STRING.get(text[i : i + 2], -1))
    board = state.board_cards + tuple(new) if new else state.board_cards
    hole_cards = state.hole_cards
    if rounds[0] != old_rounds[0]:  # hole cards shown at a showdown
        groups, old_groups = rounds[0].split("|"), old_rounds[0].split("|")
        if len(groups) != len(old_groups) or not state.showdown():
            return False
        hole_cards = hole_cards[:]
        folded, size = state.folded, 2 * game.num_hole_cards
        for p, text in enumerate(groups):
            if text != old_groups[p]:
                if old_groups[p] or folded[p] or len(text) != size:
                    return False
                shown = tuple([_CARD_BY_STRING.get(text[i : i + 2], -1) for i in range(0, size, 2)])
                new += shown
                hole_cards[p] = shown
    if not new:
        return True  # nothing new: the same field
    seen = set(state.board_cards).union(*filter(None, state.hole_cards))
    if len(seen.union(new)) != len(seen) + len(new) or not game.deck_set.issuperset(new):
        return False
    state.board_cards = board
    state.hole_cards = hole_cards
    return True


def _read_cards(cards: str, state: HandState, viewer: int) -> bool:
    """:func:`read_cards` as a bool: True when ``cards`` is sound (``state`` then has them)."""
    try:
        read_cards(cards, state, viewer)
    except ProtocolError:
        return False
    return True


def _apply_betting(line: str, start: int, end: int, state: HandState, nolimit: bool) -> bool:
    """Apply the actions of ``line[start:end]``, the rest of a betting whose first part
    ``state`` holds (it ends at an action or ``/``): True when all are sound and legal, False
    at the first problem (``state`` is then half-changed; :func:`replay_betting` says what
    the problem is)."""
    apply = state.apply
    separators = state.round
    i = start
    try:
        while i < end:
            char = line[i]
            i += 1
            if char == "/":
                separators += 1
                if separators > state.round:
                    return False
                continue
            if separators != state.round:
                return False
            if char == "c":
                apply(_CALL_ACTION)
            elif char == "f":
                apply(_FOLD_ACTION)
            elif char != "r":
                return False
            elif nolimit:
                first = i
                while i < end and line[i] in _DIGITS:
                    i += 1
                size_text = line[first:i]
                if not size_text or size_text[0] == "0" or len(size_text) > _MAX_AMOUNT_DIGITS:
                    return False
                size = int(size_text)
                if size > _MAX_RAISE:
                    return False
                apply(Action(ActionKind.RAISE, size))
            else:
                apply(_RAISE_ACTION)
    except IllegalActionError:
        return False
    return separators == state.round


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
                action = Action(ActionKind.RAISE, _number(size_text, "raise size", offset + start, _MAX_RAISE))
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
_SIMPLE_NEWS = {"c": (_CALL_ACTION, 0), "f": (_FOLD_ACTION, 0), "c/": (_CALL_ACTION, 1)}
"""What a line most often adds to the betting: one action, and the rounds it ends."""
_MAX_NEWS = 4096
"""The most news a :class:`MatchStateReader` remembers (no-limit raises are added as read)."""


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


def _read_own_hole(text: str, state: HandState, viewer: int) -> bool:
    """The common field of a hand's first round, ``viewer``'s hole cards alone and no board:
    True when ``text`` is that and sound (then ``state`` has the cards), else False, with
    ``state`` untouched."""
    game = state.game
    hole_text = text.split("|")
    size = 2 * game.num_hole_cards
    num_players = len(state.folded)
    if len(hole_text) != num_players or len(text) != size + num_players - 1 or game.num_board_cards[0]:
        return False
    mine = hole_text[viewer]
    if len(mine) != size:
        return False
    if size == 4:
        cards: tuple[Card, ...] = (_CARD_BY_STRING.get(mine[:2], -1), _CARD_BY_STRING.get(mine[2:], -1))
        if cards[0] == cards[1]:
            return False
    else:
        cards = tuple([_CARD_BY_STRING.get(mine[i : i + 2], -1) for i in range(0, size, 2)])
        if len(set(cards)) != len(cards):
            return False
    if not game.deck_set.issuperset(cards):
        return False
    hole_cards: list[tuple[Card, ...] | None] = [None] * num_players
    hole_cards[viewer] = cards
    state.hole_cards = hole_cards
    state.board_cards = ()
    return True


def read_cards(text: str, state: HandState, viewer: int | None, offset: int = 0) -> None:
    """Fill ``state``'s cards from a cards field; raises ProtocolError.

    ``viewer`` is the receiving position, whose own cards must be there and who may see
    others' cards only at a showdown; None reads a log line, where every hole card is shown.
    ``offset`` is where the field starts in its line, for error messages.
    """
    if viewer is not None and not state.round and _read_own_hole(text, state, viewer):
        return
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
    return MatchState(*_parse_fields(fields[:5], game)), parse_action(fields[5], game)


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
