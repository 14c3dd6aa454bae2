"""The interface every strategy implements, and the registry of strategies by name.

A strategy sees only protocol objects, never wire strings or sockets:

* :meth:`Strategy.decide` gets the player's view of the hand (a
  :class:`~protocol.wire.MatchState` where it is the player's turn) and a deadline, and
  returns a legal :class:`~protocol.actions.Action`;
* :meth:`Strategy.observe` gets the final view of every finished hand (showdown cards
  included), so models can learn.

Configuration is the constructor; randomness comes from the ``seed`` given there.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import MatchState


class UnknownStrategyError(ValueError):
    """A strategy name is not in the registry, does not play the game, or has a bad argument."""


class Strategy(ABC):
    """Decides actions for one player of one game."""

    name: str = "strategy"
    cheap: ClassVar[bool] = False
    """True for a strategy that decides in microseconds and never blocks (a rule-based
    baseline): a client then calls it directly instead of running it in a process of its own."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)

    @abstractmethod
    def decide(self, view: MatchState, deadline: float) -> Action:
        """The action to take in ``view`` (the player's turn), before ``deadline``.

        ``deadline`` is a :func:`time.monotonic` timestamp in seconds; a strategy that
        searches should return its best action found so far when it is reached.
        """

    def observe(self, view: MatchState) -> None:  # noqa: B027 - optional hook
        """Learn from a finished hand (``view.state.finished`` is True)."""


StrategyFactory = Callable[..., Strategy]
"""``factory(game, seed)``, or ``factory(game, seed, argument)`` for a strategy that takes one."""


@dataclass(frozen=True)
class StrategyInfo:
    """A registered strategy: how to build it and what it is.

    A strategy with an ``argument`` (its name, e.g. ``"PATH"``) is asked for as
    ``name:value`` (``policy:leduc.json``) and built with ``factory(game, seed, value)``.
    """

    name: str
    factory: StrategyFactory
    summary: str
    supports: Callable[[Game], bool] = lambda game: True
    argument: str | None = None
    argument_optional: bool = False
    """True: ``name`` alone is built with ``factory(game, seed)``, ``name:value`` with the argument."""


class StrategyRegistry:
    """Strategies by name. :func:`default_registry` holds the built-in ones."""

    def __init__(self) -> None:
        self._entries: dict[str, StrategyInfo] = {}

    def register(self, info: StrategyInfo) -> None:
        """Add ``info``; a name may be registered once."""
        if info.name in self._entries:
            raise ValueError(f"strategy {info.name!r} is registered twice")
        self._entries[info.name] = info

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._entries)

    def info(self, name: str) -> StrategyInfo:
        """The entry for ``name``; raises UnknownStrategyError listing the known names."""
        entry = self._entries.get(name)
        if entry is None:
            raise UnknownStrategyError(f"unknown strategy {name!r}: known strategies are {', '.join(self.names())}")
        return entry

    def create(self, name: str, game: Game, seed: int | None = None) -> Strategy:
        """A new strategy ``name`` (or ``name:argument``) for ``game``."""
        base, has_argument, argument = name.partition(":")
        entry = self.info(base)
        if entry.argument is not None and not entry.argument_optional and not (has_argument and argument):
            raise UnknownStrategyError(f"strategy {base!r} needs an argument: {base}:{entry.argument}")
        if entry.argument is None and has_argument:
            raise UnknownStrategyError(f"strategy {base!r} takes no argument, got {name!r}")
        if not entry.supports(game):
            raise UnknownStrategyError(f"strategy {base!r} does not play this game")
        if entry.argument is None or not (has_argument or argument):
            return entry.factory(game, seed)
        try:
            return entry.factory(game, seed, argument)
        except (OSError, ValueError) as error:
            raise UnknownStrategyError(f"strategy {name!r}: {error}") from None
