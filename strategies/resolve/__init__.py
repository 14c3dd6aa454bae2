"""Real-time re-solving for heads-up games: subgames solved at every decision.

* :mod:`.tree`: the public betting tree of a subgame, from a real state to its round's end;
* :mod:`.cfr`: vector-form Discounted CFR over a subgame, with the re-solving gadget;
* :mod:`.continual`: continual re-solving along a hand (our range, the opponent's values);
* :mod:`.player`: the ``resolve`` strategy (a blueprint's trunk, then re-solving);
* :mod:`.exact`: the player's whole strategy as a table in small games (exact exploitability).
"""

from __future__ import annotations

import re

from pokerbot.protocol.game import Game
from pokerbot.strategies.base import Strategy

DEFAULT_SECONDS = 1.0
"""The clock budget of a re-solve when ``resolve`` is named without one."""
_ITERATIONS = re.compile(r"^(\d+)iterations?$")


def plays(game: Game) -> bool:
    """The games ``resolve`` plays: heads-up hold'em with a blueprint (limit and no-limit), and
    small two-player limit games with one hole card (Leduc, Kuhn), re-solved from the start."""
    from pokerbot.strategies.abstract.shipped import blueprint_name

    if game.num_players != 2:
        return False
    if blueprint_name(game) is not None:
        return True
    return not game.is_nolimit and game.num_hole_cards == 1 and len(game.deck) <= 13


def resolve_factory(game: Game, seed: int | None = None, argument: str | None = None) -> Strategy:
    """``resolve`` (a clock budget of :data:`DEFAULT_SECONDS` per decision), ``resolve:SECONDS``
    or ``resolve:Niterations`` (an iteration budget: reproducible play)."""
    from pokerbot.strategies.resolve.player import ResolveSettings, ResolvingPlayer

    settings = ResolveSettings(iterations=100_000, seconds=DEFAULT_SECONDS)
    if argument:
        match = _ITERATIONS.match(argument)
        if match:
            count = int(match.group(1))
            if count < 1:
                raise ValueError("the iteration budget must be at least 1")
            settings = ResolveSettings(iterations=count, seconds=None)
        else:
            try:
                seconds = float(argument)
            except ValueError:
                raise ValueError(f"expected SECONDS or Niterations, got {argument!r}") from None
            if not seconds > 0:
                raise ValueError("the time budget must be positive")
            settings = ResolveSettings(iterations=100_000, seconds=seconds)
    from pokerbot.strategies.abstract.shipped import blueprint_name

    if blueprint_name(game) is not None:
        from pokerbot.strategies.abstract.player import AbstractPolicyPlayer, blueprint_factory
        from pokerbot.strategies.resolve.player import PlayerRange

        blueprint = blueprint_factory(game, seed)
        assert isinstance(blueprint, AbstractPolicyPlayer)
        return ResolvingPlayer(
            game, seed, trunk=blueprint, range_of=PlayerRange(blueprint), first_round=1, settings=settings
        )
    if not plays(game):
        raise ValueError("resolve plays heads-up hold'em and small two-player limit games")
    return ResolvingPlayer(game, seed, trunk=None, range_of=None, first_round=0, settings=settings)


__all__ = ["DEFAULT_SECONDS", "plays", "resolve_factory"]
