"""Exception types raised by the protocol layer.

Every error the protocol layer raises on bad input is one of these. They all derive
from :class:`PokerError` and from :class:`ValueError`, so callers may catch either.
"""

from __future__ import annotations


class PokerError(ValueError):
    """Base class of every error raised by pokerbot's protocol layer."""


class GameDefinitionError(PokerError):
    """A game definition is malformed or describes a game the ACPC dealer rejects.

    The message names the field (and the line, when parsing text) and the problem.
    """


class CardError(PokerError):
    """A card string is malformed or names a card outside the game's deck."""


class IllegalActionError(PokerError):
    """An action is not legal in the hand state it was applied to."""


class IncompleteHandError(PokerError):
    """A question needs information the hand does not have (unknown cards, unfinished hand)."""


class ProtocolError(PokerError):
    """A line of the ACPC match-state protocol is malformed, impossible or unreachable.

    The message says what is wrong and where (field name and character offset).
    """


class LogFormatError(PokerError):
    """A line of an ACPC match log is malformed or disagrees with the rules."""


class PlayerNameError(PokerError):
    """Player names that cannot go into a match log: wrong count, empty, repeated, or holding
    ``:``, ``|`` or white space."""
