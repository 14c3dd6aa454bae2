"""The reference dealer's transaction file (``MATCHNAME.tlog``): every action of a match.

With ``-T`` the reference dealer appends one line per action taken, flushed at once::

    <action> <handNumber> <sent> <received>

``action`` as on the wire (``f``, ``c``, ``r``, ``r<size>`` in no-limit), ``handNumber`` the
hand it belongs to, ``sent`` and ``received`` the wall-clock times (Unix seconds, six
decimals) when the state asking for the action was sent and the action arrived. A dealer
restarted on the same file replays it: the same seed deals the same cards, the actions
rebuild every hand played so far, the times count against the players' limits, and the match
goes on from the hand (even the action) where it stopped. Files are byte-compatible with the
reference's: either dealer resumes the other's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pokerbot.protocol.actions import Action
from pokerbot.protocol.errors import PokerError, ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import MAX_HAND_NUMBER, format_action, parse_action


class TransactionFormatError(PokerError):
    """A transaction line is malformed or does not fit the match it is replayed into."""


@dataclass(frozen=True, slots=True)
class Transaction:
    """One action of a match: what, in which hand, and when (Unix seconds) it was asked and came."""

    action: Action
    hand_number: int
    sent: float
    received: float

    @property
    def seconds(self) -> float:
        """The response time counted against the player, in seconds (never negative)."""
        return max(0.0, self.received - self.sent)


def _stamp(seconds: float) -> str:
    whole, micros = divmod(round(seconds * 1_000_000), 1_000_000)
    return f"{whole}.{micros:06d}"


def format_transaction(transaction: Transaction, game: Game) -> str:
    """The transaction file line of ``transaction`` (no terminator), as the reference writes it."""
    action = format_action(transaction.action, game)
    return f"{action} {transaction.hand_number} {_stamp(transaction.sent)} {_stamp(transaction.received)}"


def _seconds(text: str, what: str) -> float:
    whole, dot, micros = text.partition(".")
    if not whole.isdigit() or (dot and not (micros.isdigit() and len(micros) <= 6)):
        raise TransactionFormatError(f"{what}: {text[:30]!r} is not a time in seconds")
    return int(whole) + (int(micros.ljust(6, "0")) / 1_000_000 if dot else 0.0)


def parse_transaction(line: str, game: Game) -> Transaction:
    """Read one transaction line; raises :class:`TransactionFormatError` saying what is wrong."""
    fields = line.strip().split()
    if len(fields) != 4:
        raise TransactionFormatError(f"expected '<action> <hand> <sent> <received>', got {line.strip()[:60]!r}")
    action_text, hand_text, sent_text, received_text = fields
    try:
        action = parse_action(action_text, game)
    except ProtocolError as error:
        raise TransactionFormatError(f"action: {error}") from None
    if not hand_text.isdigit() or len(hand_text) > 10 or int(hand_text) > MAX_HAND_NUMBER:
        raise TransactionFormatError(f"hand number: {hand_text[:20]!r} is not a hand number")
    return Transaction(action, int(hand_text), _seconds(sent_text, "sent"), _seconds(received_text, "received"))


def read_transactions(lines: Iterable[str], game: Game) -> Iterator[Transaction]:
    """The transactions of a file's lines, in order; blank lines are skipped.

    A last line without its terminator (the dealer was killed while writing it) is dropped:
    its action was never taken. Errors name the line: ``line N: ...``.
    """
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if not line.endswith("\n"):
            return
        try:
            yield parse_transaction(line, game)
        except TransactionFormatError as error:
            raise TransactionFormatError(f"line {number}: {error}") from None


__all__ = ["Transaction", "TransactionFormatError", "format_transaction", "parse_transaction", "read_transactions"]
