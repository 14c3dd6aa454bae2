"""Real-time re-solving for heads-up games: subgames solved at every decision.

* :mod:`.tree`: the public betting tree of a subgame, from a real state to its round's end;
* :mod:`.cfr`: vector-form Discounted CFR over a subgame, with the re-solving gadget;
* :mod:`.leaves`: multi-valued leaves (the opponent's choice among continuation strategies);
* :mod:`.continual`: continual re-solving along a hand (our range, the opponent's values);
* :mod:`.player`: the ``resolve`` strategy (a blueprint's trunk, then re-solving);
* :mod:`.exact`: the player's whole strategy as a table in small games (exact exploitability);
* :mod:`.opponent`: the opponent model inside a subgame (its strategy for every holding);
* :mod:`.shown`: that model's ranges moved toward the holdings shown at showdowns;
* :mod:`.exploiter`: the ``resolve-exploit`` strategy (a restricted Nash response to the model
  at every decision, its weight set by the safety rule);
* :mod:`.settings`: the player's settings, and the registry argument that sets them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerbot.protocol.game import Game
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.resolve.settings import DEFAULT_SECONDS, ResolveSettings, parse_settings

if TYPE_CHECKING:
    from pokerbot.strategies.resolve.player import PlayerSetup

LIMIT_FIRST_ROUND = 3
"""The first round re-solved in limit hold'em (the river, solved to the showdowns); the
blueprint plays the rounds before. In limit the betting goes on, at twice the size, after a
flop or turn solve's leaves, which their run-out values leave out: re-solving from the flop
lost to the blueprint (``docs/resolve.md``)."""
LIMIT_EXPLOIT_FIRST_ROUND = 1
"""The first round ``resolve-exploit`` re-solves in limit hold'em in a hand where the model
has weight (``p > 0``): from the flop, so that the model shapes the flop's and the turn's
betting too; a hand at ``p = 0`` is re-solved from :data:`LIMIT_FIRST_ROUND`."""
NOLIMIT_EXPLOIT_FIRST_ROUND = 0
"""The first round ``adaptive`` re-solves in no-limit hold'em in a hand where the model has
weight (``p > 0``): the pre-flop round, so that the model shapes the whole hand (leaves at the
flop valued by the pre-flop run-out matrix); a hand at ``p = 0`` plays the blueprint before the
flop."""


def plays(game: Game) -> bool:
    """The games ``resolve`` plays: heads-up hold'em with a blueprint (limit and no-limit), and
    small two-player limit games with one hole card (Leduc, Kuhn), re-solved from the start."""
    from pokerbot.strategies.abstract.shipped import blueprint_name

    if game.num_players != 2:
        return False
    if blueprint_name(game) is not None:
        return True
    return not game.is_nolimit and game.num_hole_cards == 1 and len(game.deck) <= 13


def player_setup(game: Game, seed: int | None, settings: ResolveSettings | None = None) -> PlayerSetup:
    """The :class:`~.player.ResolvingPlayer`'s setup for ``game``: the blueprint's trunk where
    one is shipped (re-solving from the flop in no-limit, from :data:`LIMIT_FIRST_ROUND` in
    limit), else re-solved from the first round; ``settings`` (default: the registry's, a clock
    of :data:`DEFAULT_SECONDS` per decision, :func:`~.settings.parse_settings`)."""
    from pokerbot.strategies.abstract.shipped import blueprint_name
    from pokerbot.strategies.resolve.player import PlayerSetup

    if settings is None:
        settings = parse_settings(None)
    if blueprint_name(game) is not None:
        from pokerbot.strategies.abstract.player import AbstractPolicyPlayer, blueprint_factory
        from pokerbot.strategies.resolve.player import PlayerRange

        blueprint = blueprint_factory(game, seed)
        assert isinstance(blueprint, AbstractPolicyPlayer)
        first_round = 1 if game.is_nolimit else LIMIT_FIRST_ROUND
        return PlayerSetup(trunk=blueprint, range_of=PlayerRange(blueprint), first_round=first_round, settings=settings)
    if not plays(game):
        raise ValueError("resolve plays heads-up hold'em and small two-player limit games")
    return PlayerSetup(settings=settings)


def resolve_factory(game: Game, seed: int | None = None, settings: ResolveSettings | None = None) -> Strategy:
    """The ``resolve`` strategy with ``settings`` (default as :func:`player_setup`)."""
    from pokerbot.strategies.resolve.player import ResolvingPlayer

    return ResolvingPlayer(game, seed, player_setup(game, seed, settings))


def exploit_factory(game: Game, seed: int | None = None, settings: ResolveSettings | None = None) -> Strategy:
    """The ``resolve-exploit`` strategy (``settings`` as :func:`resolve_factory`): the re-solver
    with the opponent model inside (:mod:`.exploiter`), the model learning from every hand, its
    weight set by the safety ledger (:func:`~.exploiter.exploit_settings`)."""
    from pokerbot.models.opponent import ActionModelFrequencies
    from pokerbot.models.prior import models_for_game
    from pokerbot.protocol.analysis.matchups import holding_space
    from pokerbot.strategies.resolve.exploiter import ExploiterSettings, ResolvingExploiter, exploit_settings
    from pokerbot.strategies.resolve.opponent import HoldingModel

    setup = player_setup(game, seed, settings)
    action_model = models_for_game(game)[0]
    model = HoldingModel(holding_space(game), ActionModelFrequencies(action_model))
    exploit_from = None
    if setup.first_round != 0:
        exploit_from = NOLIMIT_EXPLOIT_FIRST_ROUND if game.is_nolimit else LIMIT_EXPLOIT_FIRST_ROUND
    return ResolvingExploiter(
        game,
        seed,
        setup=setup,
        model=model,
        learner=action_model,
        settings=ExploiterSettings(safety=exploit_settings(game), exploit_from=exploit_from),
    )


__all__ = [
    "DEFAULT_SECONDS",
    "LIMIT_EXPLOIT_FIRST_ROUND",
    "LIMIT_FIRST_ROUND",
    "NOLIMIT_EXPLOIT_FIRST_ROUND",
    "ResolveSettings",
    "exploit_factory",
    "parse_settings",
    "player_setup",
    "plays",
    "resolve_factory",
]
