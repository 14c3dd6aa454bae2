"""The interface every strategy implements, and the registry of strategies by name.

A strategy sees only protocol objects, never wire strings or sockets:

* :meth:`Strategy.decide` gets the player's view of the hand (a
  :class:`~protocol.wire.MatchState` where it is the player's turn) and a deadline, and
  returns a legal :class:`~protocol.actions.Action`;
* :meth:`Strategy.observe` gets the final view of every finished hand (showdown cards
  included), so models can learn;
* :meth:`Strategy.action_probabilities` says, without acting, with which probability the
  strategy would take each legal action in a view: the distribution :meth:`Strategy.decide`
  samples from. Best responses (:mod:`pokerbot.strategies.exploit.lbr`) and variance
  reduction ask it, also at views with hole cards other than the ones dealt.
  :meth:`Strategy.action_probability` asks for one action, :meth:`Strategy.probability_key`
  says which holdings a strategy cannot tell apart.

Configuration is the constructor; randomness comes from the ``seed`` given there.
"""

from __future__ import annotations

import copy
import difflib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import MatchState


class UnknownStrategyError(ValueError):
    """A strategy name is not in the registry, does not play the game, or has a bad argument."""


class ActionProbabilitiesError(NotImplementedError):
    """The strategy cannot say its action probabilities (or not in this game)."""


ActionProbabilities = dict[Action, float]
"""Probability of each action at a decision: legal actions only (no-limit raises with their
size, the limit raise as ``LIMIT_RAISE``), values summing to 1; actions left out have 0."""


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

    def quick_action(self, view: MatchState) -> Action | None:
        """An action for ``view`` that costs a few milliseconds at most, for a client to send
        when :meth:`decide` is late (a searching strategy's blueprint); None (the default):
        the client checks or calls. A client asks it of its own copy of the strategy, which
        sees no hand's end: the answer must not depend on what the strategy learns."""
        return None

    def prepare(self) -> None:  # noqa: B027 - optional hook
        """Load now what the first decision would otherwise load on first use (data files,
        tables, models), outside any time limit: a client calls it once before it connects,
        so the first hand is not played against the clock of a cold start. Idempotent."""

    def snapshot(self) -> Strategy:
        """A copy of the strategy as it stands now (its generator, what it has learnt, what it
        keeps within a hand) that answers and decides as this one would from here; using the
        copy changes nothing in this one. By default a deep copy (a strategy holding large
        read-only data shares it instead); the game is shared."""
        return copy.deepcopy(self, self.snapshot_memo())

    def snapshot_memo(self) -> dict[int, object]:
        """The :func:`copy.deepcopy` memo of :meth:`snapshot`: the game shared, the generator
        copied through its state (a deep copy of its 625 numbers one by one is slow)."""
        return {id(self.game): self.game, id(self.rng): copied_generator(self.rng)}

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The probability of each action the strategy would take in ``view`` (its turn),
        without taking it: the distribution :meth:`decide` samples from, given everything the
        strategy has learnt so far (a deterministic strategy gives its action 1.0).

        ``view`` may be hypothetical: the same hand with other hole cards, or a betting the
        hand never had. Asking changes nothing the strategy will do (no learning, no draw from
        the generator its decisions use); a strategy may keep the answer to reuse in the
        :meth:`decide` that follows for the same view. Raises :class:`ActionProbabilitiesError`
        when the strategy cannot say.
        """
        raise ActionProbabilitiesError(f"strategy {self.name!r} does not give its action probabilities")

    def costly_probabilities(self, view: MatchState) -> bool:
        """True when :meth:`action_probabilities` at ``view`` costs a search (tens of
        milliseconds): a best response then asks it for a sample of holdings, not for each."""
        return False

    def action_probability(self, view: MatchState, action: Action) -> float:
        """The probability of ``action`` in ``view`` (:meth:`action_probabilities`; a strategy
        with many actions may answer faster)."""
        return self.action_probabilities(view).get(action, 0.0)

    def probability_key(self, view: MatchState) -> Hashable:
        """A key of the private cards :meth:`action_probabilities` depends on in ``view``:
        two views that differ only in the acting player's hole cards and have equal keys get
        equal probabilities (so a best response asks once per key). By default the hole
        cards themselves; ``()`` for a strategy that ignores its cards (then also set
        :attr:`ignores_cards`)."""
        return view.hole_cards

    ignores_cards: bool = False
    """True for a strategy whose action probabilities never depend on its own hole cards
    (:meth:`probability_key` always ``()``): a best response asks it once for a whole range
    instead of grouping the 1,326 holdings by key."""


def copied_generator(rng: random.Random) -> random.Random:
    """A generator in the same state as ``rng`` that draws apart from it."""
    copied = random.Random()
    copied.setstate(rng.getstate())
    return copied


def normalized(weights: Mapping[Action, float]) -> ActionProbabilities:
    """``weights`` (non-negative, positive sum) scaled to sum to 1, zero weights dropped."""
    total = sum(weights.values())
    if total <= 0.0:
        raise ValueError("action weights must have a positive sum")
    return {action: weight / total for action, weight in weights.items() if weight > 0.0}


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
    check_argument: Callable[[Game, str], None] | None = None
    """Raises ValueError when an argument is malformed, without building the strategy (cheap:
    a bad argument is refused before anything slow is loaded)."""


class StrategyRegistry:
    """Strategies by name. :func:`default_registry` holds the built-in ones.

    With a ``spec_loader``, a name that is not registered is handed to it: it returns the
    factory of a strategy loaded from a file or module (``mybot.py:MyBot``), or None when
    the name is no such spec (see :mod:`pokerbot.strategies.loading`).
    """

    def __init__(self, spec_loader: Callable[[str], StrategyFactory | None] | None = None) -> None:
        self._entries: dict[str, StrategyInfo] = {}
        self._spec_loader = spec_loader
        self._loaded: dict[str, StrategyInfo] = {}

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
            how = ", or a class of your own as path/to/file.py:Class or module:Class" if self._spec_loader else ""
            close = difflib.get_close_matches(name, self.names(), n=1)
            guess = f"; did you mean {close[0]}?" if close else ""
            raise UnknownStrategyError(
                f"unknown strategy {name!r}{guess} The known strategies are {', '.join(self.names())}{how}"
                if guess
                else f"unknown strategy {name!r}: known strategies are {', '.join(self.names())}{how}"
            )
        return entry

    def lookup(self, name: str) -> StrategyInfo:
        """The entry for ``name``, ``name:argument`` or a loadable spec (``file.py:Class``,
        ``module:Class``, which is imported here); raises UnknownStrategyError."""
        base = name.partition(":")[0]
        if base in self._entries or self._spec_loader is None:
            return self.info(base)
        loaded = self._loaded.get(name)
        if loaded is None:
            factory = self._spec_loader(name)
            if factory is None:
                return self.info(base)
            loaded = StrategyInfo(name=name, factory=factory, summary=f"Loaded from {name}.")
            self._loaded[name] = loaded
        return loaded

    def check(self, name: str, game: Game) -> StrategyInfo:
        """The entry of ``name`` once it is known to play ``game`` with its argument as given
        (checked without building the strategy); raises UnknownStrategyError saying why not."""
        entry = self.lookup(name)
        if entry.name == name and name not in self._entries:  # loaded from a file or module
            return entry
        base, has_argument, argument = name.partition(":")
        if entry.argument is not None and not entry.argument_optional and not (has_argument and argument):
            raise UnknownStrategyError(f"strategy {base!r} needs an argument: {base}:{entry.argument}")
        if entry.argument is None and has_argument:
            raise UnknownStrategyError(f"strategy {base!r} takes no argument, got {name!r}")
        if not entry.supports(game):
            raise UnknownStrategyError(f"strategy {base!r} does not play this game")
        if entry.check_argument is not None and has_argument and argument:
            try:
                entry.check_argument(game, argument)
            except ValueError as error:
                raise UnknownStrategyError(f"strategy {name!r}: {error}") from None
        return entry

    def create(self, name: str, game: Game, seed: int | None = None) -> Strategy:
        """A new strategy ``name`` (or ``name:argument``, or a loadable spec) for ``game``."""
        entry = self.check(name, game)
        if entry.name == name and name not in self._entries:  # loaded from a file or module
            return entry.factory(game, seed)
        _, has_argument, argument = name.partition(":")
        if entry.argument is None or not (has_argument or argument):
            return entry.factory(game, seed)
        try:
            return entry.factory(game, seed, argument)
        except (OSError, ValueError) as error:
            raise UnknownStrategyError(f"strategy {name!r}: {error}") from None
