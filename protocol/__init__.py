"""ACPC rules and wire format: pure objects, no sockets, no asyncio, no threads.

The main entry points: :func:`load_game` (a built-in name or a game file),
:class:`HandState` (legality and values), :func:`parse_match_state` and
:func:`format_match_state` (the wire), :class:`Dealer` (the reference dealer's dealing),
:class:`TimeLimits` (the time limits), :func:`check_player_names` (the name rule),
:mod:`pokerbot.protocol.session` and :mod:`pokerbot.protocol.dealer_session` (the two sides of
a match, sans-I/O) and :mod:`pokerbot.protocol.matchlog` (ACPC match logs).
"""

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind, LegalActions
from pokerbot.protocol.dealing import Deal, Dealer, MersenneTwister
from pokerbot.protocol.errors import (
    CardError,
    GameDefinitionError,
    IllegalActionError,
    IncompleteHandError,
    LogFormatError,
    PlayerNameError,
    PokerError,
    ProtocolError,
)
from pokerbot.protocol.game import BUILTIN_GAMES, Game, format_game, load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.names import check_player_names, unique_player_names
from pokerbot.protocol.wire import (
    VERSION_LINE,
    MatchState,
    format_action,
    format_match_state,
    format_response,
    parse_action,
    parse_match_state,
    parse_response,
    parse_version,
)

__all__ = [
    "BUILTIN_GAMES",
    "CALL",
    "FOLD",
    "LIMIT_RAISE",
    "VERSION_LINE",
    "Action",
    "ActionKind",
    "CardError",
    "Deal",
    "Dealer",
    "Game",
    "GameDefinitionError",
    "HandState",
    "IllegalActionError",
    "IncompleteHandError",
    "LegalActions",
    "LogFormatError",
    "MatchState",
    "MersenneTwister",
    "PlayerNameError",
    "PokerError",
    "ProtocolError",
    "TimeLimits",
    "check_player_names",
    "format_action",
    "format_game",
    "format_match_state",
    "format_response",
    "load_game",
    "parse_action",
    "parse_game",
    "parse_match_state",
    "parse_response",
    "parse_version",
    "unique_player_names",
]
