"""The dealer's side of an ACPC match, sans-I/O: the one match engine.

:class:`DealerSession` is the reference dealer's match logic. It deals with
:class:`~pokerbot.protocol.dealing.Dealer` (same seed, same cards), rotates seats, accepts the
acting seat's reply, ignores un-requested or non-matching lines with a warning, clamps
no-limit sizes, turns malformed or invalid actions into calls (ending the match after too
many), enforces the time limits (:class:`~pokerbot.protocol.limits.TimeLimits`) and produces
the log lines. Like :class:`~pokerbot.protocol.session.ClientSession` it never reads a clock
or touches a socket: the caller passes ``now`` (monotonic seconds) and carries out the
events it gets back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.cards import CARD_STRINGS
from pokerbot.protocol.dealer_events import (
    Acted,
    DealerEvent,
    DealerWarning,
    HandLogged,
    MatchAborted,
    MatchFinished,
    Send,
)
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.errors import IllegalActionError, ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.limits import Remaining, TimeLimits
from pokerbot.protocol.matchlog import format_score_line
from pokerbot.protocol.names import check_player_names
from pokerbot.protocol.session import SessionStateError
from pokerbot.protocol.transactions import Transaction, TransactionFormatError
from pokerbot.protocol.wire import (
    MatchState,
    format_action,
    is_comment,
    parse_action,
    parse_match_state,
    shown_holes,
    strip_terminator,
)


class DealerSession:
    """The dealer's side of a match of ``hands`` hands between ``names`` (seat order).

    Call :meth:`start`, then :meth:`receive` with every line read from a seat, and
    :meth:`timeout` when :meth:`deadline` passes or :meth:`disconnect` when a seat goes
    away. Each returns the events to carry out, in order. A match played in memory may skip
    the wire: :meth:`view` is what the awaited seat's line says, and :meth:`act` takes its
    action as an :class:`~pokerbot.protocol.actions.Action`. Seats are 0-based and fixed per
    connection; unless ``fixed_seats``, position ``p`` of hand ``h`` is played by seat
    ``(p + h) % players``. ``max_invalid`` is how many invalid or malformed actions a seat
    may make (each becomes a call); one more ends the match. None means no limit. With
    ``wire=False`` the session formats no lines and returns no :class:`Send` events (a match
    in memory asks :meth:`view` instead, which is several times faster); :meth:`receive` is
    then refused. With ``transactions=True`` every action taken is also an :class:`Acted`
    event (the transaction file), and :meth:`resume`, called before :meth:`start`, replays a
    transaction file: the match then goes on where it stopped. ``first_hand`` starts the
    match at that hand of the seed's deals (the earlier deals are skipped; hand numbers and
    seat rotation go on from there): a long match played in pieces deals and seats each piece
    exactly as the long match would. ``hand_values``: :attr:`per_hand_values` keeps every
    hand's values; False keeps the totals alone, so the session's memory does not grow with
    the number of hands (a dealer, whose log keeps the hands).
    """

    def __init__(
        self,
        game: Game,
        hands: int,
        seed: int,
        names: Sequence[str],
        *,
        fixed_seats: bool = False,
        max_invalid: int | None = None,
        limits: TimeLimits | None = None,
        wire: bool = True,
        transactions: bool = False,
        first_hand: int = 0,
        hand_values: bool = True,
    ) -> None:
        if hands < 0:
            raise ValueError(f"the number of hands must be at least 0, got {hands}")
        if first_hand < 0:
            raise ValueError(f"the first hand must be at least 0, got {first_hand}")
        self.game = game
        self.hands = hands
        self.names = check_player_names(names, game.num_players)
        self.fixed_seats = fixed_seats
        self.max_invalid = max_invalid
        self.limits = limits or TimeLimits()
        self.wire = wire
        self.transactions = transactions
        self._resumed = False
        self._dealer = Dealer(game, seed)
        self._dealer.skip(first_hand)
        self.first_hand = first_hand
        n = game.num_players
        self.totals: dict[str, float] = dict.fromkeys(self.names, 0.0)
        self.per_hand_values: list[dict[str, float]] = []
        """Each finished hand's values by player name (empty unless ``hand_values``)."""
        self._hand_values = hand_values
        self._hands_played = 0
        self.invalid_actions = [0] * n
        self.match_seconds = [0.0] * n
        """Each seat's response time so far in the match, in seconds."""
        self.error: str | None = None
        self.stopped: str | None = None
        """Why the match was stopped before its last hand (:meth:`stop`), or None."""
        self.finished = False
        self._started = False
        self._hand_number = first_hand - 1
        self._state: HandState | None = None
        self._sent = [""] * n
        self._awaiting: int | None = None
        self._request_time = 0.0
        self._deadline = 0.0
        """When the awaited seat runs out of time (monotonic seconds), fixed at the request."""
        self._hand_seconds = [0.0] * n
        self._holes_fields: dict[tuple[int, bool], str] = {}
        """The current hand's hole-cards part of the cards field, by (position, hand over):
        what a position sees changes only at the end (a showdown shows the others' cards)."""
        self._card_texts: tuple[list[str], list[str]] | None = None
        """The current hand's hole cards by position, and its board field after each round
        (the rounds' cards ``/``-joined), as text."""
        self._betting = ""
        """The current hand's betting field, extended action by action (never rebuilt)."""
        self._betting_round = 0

    # ---------------------------------------------------------------- queries
    @property
    def hands_played(self) -> int:
        """Hands finished and logged so far."""
        return self._hands_played

    @property
    def awaiting(self) -> int | None:
        """The seat whose response is awaited, or None."""
        return self._awaiting

    @property
    def hand_number(self) -> int:
        """The number of the current hand (``first_hand - 1`` before the first)."""
        return self._hand_number

    def seat_of(self, position: int) -> int:
        """The seat playing ``position`` in the current hand."""
        return position if self.fixed_seats else (position + self._hand_number) % self.game.num_players

    def position_of(self, seat: int) -> int:
        """The position ``seat`` plays in the current hand."""
        return seat if self.fixed_seats else (seat - self._hand_number) % self.game.num_players

    def view(self, seat: int) -> MatchState:
        """The current hand as ``seat`` sees it: what the last line sent to it says, unparsed."""
        state = self._state
        if state is None:
            raise SessionStateError("view() before start()")
        position = self.position_of(seat)
        return MatchState(position, self._hand_number, state.view(position))

    def deadline(self) -> float | None:
        """When the awaited seat runs out of time (monotonic seconds), or None if nobody is awaited."""
        if self._awaiting is None:
            return None
        return self._deadline

    def score_line(self) -> str:
        """The ``SCORE`` line of the hands played so far (totals in the order of ``names``)."""
        return format_score_line([self.totals[name] for name in self.names], self.names)

    def _remaining(self, seat: int) -> Remaining:
        return self.limits.remaining(
            hand_seconds=self._hand_seconds[seat], match_seconds=self.match_seconds[seat], hands=self.hands
        )

    def _seat_label(self, seat: int) -> str:
        return f"seat {seat + 1} ({self.names[seat]})"

    # ---------------------------------------------------------------- inputs
    def start(self, now: float) -> list[DealerEvent]:
        """Begin the match at ``now`` (monotonic seconds): the first hand's states (after
        :meth:`resume`, the states of the hand where the replay stopped)."""
        if self._started:
            raise SessionStateError("the match has already started")
        self._started = True
        if self.hands_played >= self.hands:
            return self._finish_match()
        if self._state is None:
            return self._new_hand(now)
        self._betting, self._betting_round = self._state.betting_string(), self._state.round  # resumed
        events = self._broadcast()
        self._request(now)
        return events

    def resume(self, transactions: Iterable[Transaction]) -> list[DealerEvent]:
        """Replay a transaction file before :meth:`start`: its actions, hand by hand, with the
        same dealing, rotation and time limits; a :class:`HandLogged` for every hand they
        finish. Raises TransactionFormatError when an action does not fit (another hand, an
        illegal action, a player out of time, more actions than the match has), as the
        reference dealer refuses such a file."""
        if self._started or self._resumed:
            raise SessionStateError("resume() is only possible once, before start()")
        self._resumed = True
        events: list[DealerEvent] = []
        for number, transaction in enumerate(transactions, start=1):
            if self.hands_played >= self.hands:
                raise TransactionFormatError(f"transaction {number}: the match's {self.hands} hands are already over")
            if self._state is None:
                self._deal()
            state = self._state
            assert state is not None and state.current_player is not None
            where = f"transaction {number}"
            if transaction.hand_number != self._hand_number:
                raise TransactionFormatError(f"{where}: hand {transaction.hand_number}, expected {self._hand_number}")
            if not state.can(transaction.action):
                raise TransactionFormatError(
                    f"{where}: {transaction.action} is not legal in hand {self._hand_number} "
                    f"after {state.betting_string()!r}"
                )
            seat = self.seat_of(state.current_player)
            if transaction.seconds > self._remaining(seat).seconds:
                raise TransactionFormatError(f"{where}: {self._seat_label(seat)} ran out of time")
            self._hand_seconds[seat] += transaction.seconds
            self.match_seconds[seat] += transaction.seconds
            state.apply(transaction.action)
            if state.finished:
                events.append(self._log_hand(state))
                self._state = None
        return events

    def receive(self, seat: int, line: str, now: float) -> list[DealerEvent]:
        """Handle one ``line`` (terminator allowed) from ``seat``, read at ``now``."""
        if not self._started:
            raise SessionStateError("receive() before start()")
        if not self.wire:
            raise SessionStateError("receive() on a session without a wire: use act()")
        if self.finished:
            return []
        text = strip_terminator(line)
        if is_comment(text):
            return []
        if seat != self._awaiting:
            return [DealerWarning(seat, f"{self._seat_label(seat)}: ignoring un-requested line {text[:80]!r}")]
        if now > self._deadline:
            return self.timeout(now)
        if not text:  # the reference dealer warns too ("bad state format in response")
            return [DealerWarning(seat, f"{self._seat_label(seat)}: empty line in response, ignored")]
        sent = self._sent[seat]
        if not text.startswith(sent):
            return [DealerWarning(seat, self._mismatch(seat, text))]
        rest = text[len(sent) :]
        if rest[:1] != ":":
            if rest:
                return [DealerWarning(seat, self._mismatch(seat, text))]
            return self._invalid(seat, "response has no action", now)
        try:
            action = parse_action(rest[1:], self.game)
        except ProtocolError as error:
            return self._invalid(seat, f"malformed action {rest[1:][:40]!r} ({error})", now)
        return self._take(seat, action, rest[1:][:40], now)

    def act(self, seat: int, action: Action, now: float) -> list[DealerEvent]:
        """The awaited ``seat`` plays ``action`` at ``now``, as if its response line said so.

        What :meth:`receive` does with a response once parsed: a late action is a timeout, a
        no-limit raise out of range is clamped, an illegal action becomes a call (counted
        towards ``max_invalid``). Raises :class:`SessionStateError` when ``seat`` is not the
        awaited seat (a caller without a wire knows whom it asks).
        """
        if not self._started:
            raise SessionStateError("act() before start()")
        if self.finished:
            return []
        if seat != self._awaiting:
            raise SessionStateError(f"{self._seat_label(seat)} is not to act (awaiting seat {self._awaiting})")
        if now > self._request_time and now > self._deadline:
            return self.timeout(now)
        return self._take(seat, action, None, now)

    def _take(self, seat: int, action: Action, text: str | None, now: float) -> list[DealerEvent]:
        """Play the awaited ``seat``'s ``action`` (``text``: how it was given, when it came as
        a line), repaired as the reference dealer repairs it."""
        state = self._state
        assert state is not None
        try:
            played = state.apply_clamped(action)
        except IllegalActionError as error:
            given = str(action) if text is None else text
            return self._invalid(seat, f"invalid action {given!r} ({error})", now)
        events = self._after(seat, played, now)
        if played.size != action.size:
            message = f"{self._seat_label(seat)}: raise to {action.size} clamped to {played.size}"
            events.insert(0, DealerWarning(seat, message))
        return events

    def timeout(self, now: float) -> list[DealerEvent]:
        """The awaited seat ran out of time at ``now``: the match ends."""
        seat = self._awaiting
        if seat is None or self.finished:
            return []
        limit_text = self.limits.describe(self._remaining(seat).limit, self.hands)
        waited_ms = (now - self._request_time) * 1000
        return self._abort(
            seat,
            f"{self._seat_label(seat)} ran out of time in hand {self._hand_number}: no response "
            f"after {waited_ms:.0f} ms ({limit_text})",
        )

    def disconnect(self, seat: int, reason: str = "closed the connection") -> list[DealerEvent]:
        """``seat`` went away (``reason`` says how): the match ends, unless it is already over."""
        if self.finished:
            return []
        where = f" in hand {self._hand_number}" if self._started and self._hand_number >= self.first_hand else ""
        return self._abort(seat, f"{self._seat_label(seat)} {reason}{where}")

    def abort(self, reason: str) -> list[DealerEvent]:
        """End the match for a reason outside the protocol (the caller's message)."""
        if self.finished:
            return []
        return self._abort(None, reason)

    def stop(self, cause: str) -> list[DealerEvent]:
        """End the match now, nobody at fault, as a shorter match of the hands finished: the
        hand under way is dropped, and :class:`MatchFinished` says ``stopped by CAUSE after N
        of M hands`` (its log lines mark the log truncated before the ``SCORE`` line of the
        hands played); :attr:`stopped` keeps it."""
        if self.finished:
            return []
        self.finished = True
        self._awaiting = None
        self.stopped = f"stopped by {cause} after {self._hands_played} of {self.hands} hands"
        return [MatchFinished(self.score_line(), dict(self.totals), stopped=self.stopped)]

    # ---------------------------------------------------------------- internals
    def _mismatch(self, seat: int, text: str) -> str:
        state_text = text.rpartition(":")[0] if text.count(":") >= 5 else text  # a state needs 4
        try:
            parse_match_state(state_text, self.game)
        except ProtocolError as error:
            return f"{self._seat_label(seat)}: ignoring response with a bad state ({error}): {text[:80]!r}"
        return (
            f"{self._seat_label(seat)}: ignoring response to another state: got {state_text[:80]!r}, "
            f"awaiting {self._sent[seat][:80]!r}"
        )

    def _invalid(self, seat: int, why: str, now: float) -> list[DealerEvent]:
        self.invalid_actions[seat] += 1
        count = self.invalid_actions[seat]
        if self.max_invalid is not None and count > self.max_invalid:
            return self._abort(
                seat,
                f"{self._seat_label(seat)} made {count} invalid actions, more than the limit of "
                f"{self.max_invalid}; the last in hand {self._hand_number}: {why}",
            )
        warning = DealerWarning(seat, f"{self._seat_label(seat)}: {why}; changed to a call")
        return [warning, *self._play(seat, CALL, now)]

    def _play(self, seat: int, action: Action, now: float) -> list[DealerEvent]:
        """Play a legal ``action`` of the awaited ``seat``; what follows."""
        state = self._state
        assert state is not None
        state.apply(action)
        return self._after(seat, action, now)

    def _after(self, seat: int, played: Action, now: float) -> list[DealerEvent]:
        """``seat`` has played ``played`` at ``now``: charge its time, tell everyone, go on."""
        elapsed = max(0.0, now - self._request_time)
        self._hand_seconds[seat] += elapsed
        self.match_seconds[seat] += elapsed
        state = self._state
        assert state is not None
        events: list[DealerEvent] = []
        if self.transactions:
            events.append(Acted(seat, self._hand_number, played, self._request_time, now))
        if self.wire:
            # The betting field grows by the action, and a '/' for every round it closed.
            self._betting += format_action(played, self.game) + "/" * (state.round - self._betting_round)
            self._betting_round = state.round
        events += self._broadcast()
        if not state.finished:
            self._request(now)
            return events
        self._awaiting = None
        events.append(self._log_hand(state))
        if self.hands_played < self.hands:
            events.extend(self._new_hand(now))
        else:
            events.extend(self._finish_match())
        return events

    def _deal(self) -> None:
        """The next hand's cards, and its clocks at zero."""
        self._hand_number += 1
        deal = self._dealer.deal()
        self._state = HandState(self.game, deal.hole_cards, deal.board_cards)
        self._hand_seconds = [0.0] * self.game.num_players
        self._holes_fields.clear()
        self._card_texts = None
        self._betting, self._betting_round = "", 0

    def _new_hand(self, now: float) -> list[DealerEvent]:
        self._deal()
        assert self._state is not None
        events = self._broadcast()
        if self._state.current_player is None:
            raise SessionStateError("the game leaves nobody to act at the start of a hand")
        self._request(now)
        return events

    def _request(self, now: float) -> None:
        state = self._state
        assert state is not None and state.current_player is not None
        seat = self._awaiting = self.seat_of(state.current_player)
        self._request_time = now
        # The seat's time used changes only when it acts: its deadline is fixed until then.
        self._deadline = now + self._remaining(seat).seconds

    def _broadcast(self) -> list[DealerEvent]:
        """The current state, sent to every seat as that seat's position sees it."""
        state = self._state
        assert state is not None
        if not self.wire:
            return []
        hand, betting, holes_fields = self._hand_number, self._betting, self._holes_fields
        texts = self._card_texts or self._format_cards(state)
        board = texts[1][state.round]
        finished = state.finished
        n = self.game.num_players
        events: list[DealerEvent] = []
        for seat in range(n):
            position = seat if self.fixed_seats else (seat - hand) % n
            holes = holes_fields.get((position, finished))
            if holes is None:
                shown = shown_holes(state, position)
                holes = "|".join([hole if seen else "" for hole, seen in zip(texts[0], shown, strict=True)])
                holes_fields[position, finished] = holes
            line = f"MATCHSTATE:{position}:{hand}:{betting}:{holes}{board}"
            self._sent[seat] = line
            events.append(Send(seat, line))
        return events

    def _format_cards(self, state: HandState) -> tuple[list[str], list[str]]:
        """The hand's hole cards by position, and its board field after each round, as text:
        the parts of what :func:`format_cards` gives, formatted once per hand."""
        game = state.game
        holes = ["".join(CARD_STRINGS[card] for card in cards or ()) for cards in state.hole_cards]
        board = state.board_cards
        rounds = [
            "".join(CARD_STRINGS[card] for card in board[start : start + count])
            for start, count in zip(game.board_start, game.num_board_cards)
        ]
        boards = [rounds[0]]
        for text in rounds[1:]:
            boards.append(f"{boards[-1]}/{text}")
        texts = self._card_texts = (holes, boards)
        return texts

    def _log_hand(self, state: HandState) -> HandLogged:
        seats = tuple(self.seat_of(position) for position in range(self.game.num_players))
        names = [self.names[seat] for seat in seats]
        values = dict(zip(names, state.values()))
        for name, value in values.items():
            self.totals[name] += value
        self._hands_played += 1
        if self._hand_values:
            self.per_hand_values.append(values)
        return HandLogged(self._hand_number, values, state, seats)

    def _finish_match(self) -> list[DealerEvent]:
        self.finished = True
        self._awaiting = None
        return [MatchFinished(self.score_line(), dict(self.totals))]

    def _abort(self, seat: int | None, reason: str) -> list[DealerEvent]:
        self.finished = True
        self._awaiting = None
        self.error = reason
        return [MatchAborted(seat, reason)]


__all__ = ["DealerSession", "TimeLimits"]
