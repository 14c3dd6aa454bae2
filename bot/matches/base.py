"""What every kind of match shares: its outcome, its errors, its players' check and seeds.

The in-process match (:mod:`pokerbot.bot.matches.inprocess`), the loopback match
(:mod:`pokerbot.bot.matches.loopback`) and the plans that run either
(:mod:`pokerbot.bot.matches.plan`) return a :class:`MatchOutcome`. Amounts are in chips.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pokerbot.protocol.errors import PlayerNameError
from pokerbot.protocol.game import Game
from pokerbot.protocol.names import check_player_names

HandCallback = Callable[[int], None]
"""Called with the hand number (0-based) of every hand that has just finished."""
StopCheck = Callable[[], "str | None"]
"""Asked during a match: why it must stop now (``stopped by Ctrl-C``), or None to go on."""


class MatchError(RuntimeError):
    """A match could not be played to the end (a strategy crashed, the dealer failed, ...)."""


class MatchConfigError(ValueError):
    """A match was asked for with the wrong players (count, names) for its game."""


@dataclass(frozen=True)
class MatchOutcome:
    """The result of one match. ``names`` are the players in seat order (as named)."""

    names: tuple[str, ...]
    totals: dict[str, float]
    """Chips won by each player over the match."""
    per_hand_values: list[dict[str, float]]
    """For every hand, chips won by each player (by name)."""
    hands_played: int
    log_path: Path | None = None
    illegal_actions: dict[str, int] = field(default_factory=dict)
    """Illegal actions each player returned, each repaired (in process: as the dealer repairs
    it; over the wire and in loopback: the client's fallback call)."""
    error: str | None = None
    stopped: str | None = None
    """Why the match was stopped before its last hand, nobody at fault (its log holds the
    hands finished, marked truncated); None when it was not."""


def strategy_seed(match_seed: int, name: str) -> int:
    """The seed of player ``name``'s strategy in a match seeded ``match_seed`` (a 63-bit int).

    It depends on the name, not the seat, so a duplicate match's swapped half gives each
    player the same randomness.
    """
    digest = hashlib.sha256(f"{match_seed}/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_players(game: Game, count: int, names: Sequence[str]) -> None:
    """Raise :class:`MatchConfigError` unless there are ``game.num_players`` players with one
    valid, distinct name each (the protocol's name rule)."""
    if count != game.num_players:
        raise MatchConfigError(
            f"the game has {game.num_players} players, {count} {'was' if count == 1 else 'were'} given"
        )
    try:
        check_player_names(names, count)
    except PlayerNameError as error:
        raise MatchConfigError(str(error)) from None
