"""The registry of every built-in strategy, by the name used on the command line.

Baselines (:mod:`pokerbot.strategies.baselines`) and the styled opponents (:mod:`pokerbot.strategies.styled`:
``tight-aggressive``, ``tight-passive``, ``loose-aggressive``, ``loose-passive``,
``calling-station``, ``maniac``, ``nit``, ``bluffer``, ``switcher``), the agents, the strategies
that installed packages declare (entry-point group ``pokerbot.strategies``), and, through
:mod:`pokerbot.strategies.loading`, any class named as ``path/to/file.py:Class`` or
``module:Class``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.abstract.shipped import BLUEPRINTS, SHIPPED, blueprint_name, plays_shipped
from pokerbot.strategies.base import Strategy, StrategyFactory, StrategyInfo, StrategyRegistry
from pokerbot.strategies.baselines import (
    AlwaysAllIn,
    AlwaysCall,
    AlwaysFold,
    AlwaysRaise,
    PushFold,
    RandomPlayer,
)
from pokerbot.strategies.loading import (
    entry_point_factory,
    entry_point_summary,
    installed_strategies,
    is_spec,
    load_factory,
)
from pokerbot.strategies.styled import STYLES, SWITCHER_SUMMARY, Switcher, plays_styled, styled_factory

if TYPE_CHECKING:
    from pokerbot.strategies.solvers.policy import Policy

_SUMMARIES: tuple[tuple[type[Strategy], str], ...] = (
    (AlwaysCall, "Checks or calls every time."),
    (AlwaysFold, "Folds whenever it may, checks when checking is free."),
    (AlwaysRaise, "Makes the minimum (or the limit) raise; calls when it cannot raise."),
    (AlwaysAllIn, "Raises all-in (or the limit raise); calls when it cannot raise."),
    (RandomPlayer, "The ACPC example player: fold 6 %, call 47 %, raise 47 %, uniform sizes."),
    (PushFold, "All-in or fold from an equity-ranked hand chart sized by effective stack."),
)


def _policy_player(game: Game, seed: int | None, path: str) -> Strategy:
    """A saved policy: an abstract hold'em policy for ``.npz`` files, a tabular one otherwise."""
    if path.endswith(".npz"):
        from pokerbot.strategies.abstract.player import AbstractPolicyPlayer
        from pokerbot.strategies.abstract.policy import AbstractPolicy

        return AbstractPolicyPlayer(game, seed, AbstractPolicy.load(path, game))
    from pokerbot.strategies.solvers import Policy, PolicyStrategy

    return PolicyStrategy(game, seed, Policy.load(path, game))


def _equilibrium_player(game: Game, seed: int | None) -> Strategy:
    from pokerbot.strategies.solvers import PolicyStrategy, equilibrium_policy

    return PolicyStrategy(game, seed, equilibrium_policy(game))


def _has_equilibrium(game: Game) -> bool:
    from pokerbot.strategies.solvers import has_equilibrium

    return has_equilibrium(game)


NFSP_LEDUC_FILE = "nfsp-leduc.json"
"""The shipped learned agent: the ``policy.json`` that ``pokerbot rl train leduc`` wrote (NFSP's
average policy as a table; its ``meta`` says how long it trained and its exact exploitability),
in ``strategies/data/``. Played as ``nfsp`` without PyTorch."""


@cache
def nfsp_leduc_policy() -> Policy:
    """The shipped NFSP average policy of Leduc (:data:`NFSP_LEDUC_FILE`)."""
    from pokerbot.strategies.solvers.policy import Policy

    text = resources.files("pokerbot.strategies").joinpath("data", NFSP_LEDUC_FILE).read_text(encoding="utf-8")
    return Policy.loads(text, load_game("leduc"), source=f"strategies/data/{NFSP_LEDUC_FILE}")


def _nfsp(game: Game, seed: int | None) -> Strategy:
    from pokerbot.strategies.solvers import PolicyStrategy

    player = PolicyStrategy(game, seed, nfsp_leduc_policy())
    player.name = "nfsp"
    return player


def _plays_nfsp(game: Game) -> bool:
    return game == load_game("leduc")


def _miximax(game: Game, seed: int | None, budget: str | None = None) -> Strategy:
    from pokerbot.strategies.miximax.player import miximax_factory  # imports river: slow, so only when asked

    return miximax_factory(game, seed, budget)


def _miximax_static(game: Game, seed: int | None, budget: str | None = None) -> Strategy:
    from pokerbot.strategies.miximax.player import miximax_factory

    return miximax_factory(game, seed, budget, learn=False)


def _miximax_argument(game: Game, argument: str) -> None:
    from pokerbot.strategies.miximax.arguments import parse_settings  # light: no agent, no river

    parse_settings(argument)


def _adaptive_argument(game: Game, argument: str) -> None:
    if _small_two_player_limit(game):
        raise ValueError("adaptive takes a time budget only in hold'em")
    from pokerbot.strategies.resolve.settings import parse_settings  # light: no solver, no numba

    parse_settings(argument)


def _resolve(game: Game, seed: int | None, budget: str | None = None) -> Strategy:
    from pokerbot.strategies.resolve import resolve_factory  # imports numba: only when asked
    from pokerbot.strategies.resolve.settings import parse_settings

    return resolve_factory(game, seed, parse_settings(budget))


def _resolve_exploit(game: Game, seed: int | None, budget: str | None = None) -> Strategy:
    from pokerbot.strategies.resolve import exploit_factory  # imports numba and river: only when asked
    from pokerbot.strategies.resolve.settings import parse_settings

    return exploit_factory(game, seed, parse_settings(budget))


def _resolve_games(game: Game) -> bool:
    from pokerbot.strategies.resolve import plays

    return plays(game)


def _adaptive(game: Game, seed: int | None, budget: str | None = None) -> Strategy:
    if _small_two_player_limit(game):
        if budget is not None:
            raise ValueError("adaptive takes a time budget only in hold'em")
        from pokerbot.strategies.bayes.agent import adaptive_factory

        return adaptive_factory(game, seed)
    from pokerbot.strategies.resolve import exploit_factory  # imports numba and river: only when asked
    from pokerbot.strategies.resolve.settings import parse_settings

    player = exploit_factory(game, seed, parse_settings(budget))
    player.name = "adaptive"
    return player


def _safe_miximax(game: Game, seed: int | None, budget: str | None = None) -> Strategy:
    from pokerbot.strategies.safe.agent import safe_exploiter_factory  # imports river and numba: only when asked

    return safe_exploiter_factory(game, seed, budget)


def _heads_up_blueprint(game: Game) -> bool:
    return game.num_players == 2 and _has_blueprint(game)


def _adaptive_games(game: Game) -> bool:
    """Small two-player limit games (the Bayesian agent) and heads-up hold'em with a blueprint
    (re-solving with the opponent model inside)."""
    return _small_two_player_limit(game) or _heads_up_blueprint(game)


def _small_two_player_limit(game: Game) -> bool:
    from pokerbot.strategies.bayes.agent import supports_adaptive

    return supports_adaptive(game)


def _miximax_games(game: Game) -> bool:
    """The games ``miximax`` plays (:func:`strategies.miximax.player.plays`, without importing
    it): heads-up hold'em, and three-player hold'em (52 cards, two hole cards)."""
    if game.num_players == 2:
        return game.is_standard_deck
    return game.num_players == 3 and game.is_standard_deck and game.num_hole_cards == 2


MATCH_BUDGET = "200nodes"
"""The search budget of ``miximax`` when ``pokerbot match`` picks it by default (3-player
hold'em): 200 nodes per decision,
about 0.02 s on an idle machine, and a node budget so that the same seed plays the same match
under any load (``pokerbot play``, against a server's clock, keeps the time budget, 0.05 s)."""
MATCH_ITERATIONS = "30iterations"
"""The re-solving budget of ``adaptive`` when ``pokerbot match`` picks it by default (heads-up
hold'em): 30 iterations per solve, about 0.7 s of CPU a hand (1,000 hands in about five
minutes), and an iteration budget so that the same seed plays the same match under any load
(``pokerbot play``, against a server's clock, keeps the time budget, 1 s)."""


def default_strategy(game: Game, *, fast: bool = False) -> str:
    """The strongest built-in strategy for ``game`` (the default of ``pokerbot play`` and the
    first seat of ``pokerbot match``): ``adaptive`` in heads-up hold'em with a blueprint (the
    built-in limit and no-limit games; when ``fast``, ``adaptive:30iterations``) and in two-player small
    limit games (Kuhn, Leduc); ``miximax`` in the other games it plays, heads-up with the
    52-card deck and three-player hold'em (``miximax:200nodes`` when ``fast``); ``equilibrium``
    where a shipped equilibrium exists (3-player Kuhn), else ``always-raise`` (the best
    baseline against ``random``)."""
    if game.num_players == 2 and _has_blueprint(game):
        if not fast:
            return "adaptive"
        return f"adaptive:{MATCH_ITERATIONS}"
    if _miximax_games(game):
        return f"miximax:{MATCH_BUDGET}" if fast else "miximax"
    if game.num_players == 2 and not game.is_nolimit and _small_two_player_limit(game):
        return "adaptive"
    if _has_equilibrium(game):
        return "equilibrium"
    return "always-raise"


def _shipped(name: str) -> StrategyFactory:
    def factory(game: Game, seed: int | None = None) -> Strategy:
        from pokerbot.strategies.abstract.player import shipped_factory

        return shipped_factory(name)(game, seed)

    return factory


def _plays_shipped(name: str) -> Callable[[Game], bool]:
    return lambda game: plays_shipped(game, name)


def _blueprint(game: Game, seed: int | None = None) -> Strategy:
    from pokerbot.strategies.abstract.player import blueprint_factory

    return blueprint_factory(game, seed)


def _blueprint_defended(game: Game, seed: int | None = None) -> Strategy:
    from pokerbot.strategies.abstract.player import blueprint_factory

    return blueprint_factory(game, seed, defend=True)


def _has_nolimit_blueprint(game: Game) -> bool:
    return game.is_nolimit and _has_blueprint(game)


def _has_blueprint(game: Game) -> bool:
    return blueprint_name(game) is not None


def _load_spec(name: str) -> StrategyFactory | None:
    return load_factory(name) if is_spec(name) else None


def default_registry() -> StrategyRegistry:
    """A new registry holding every built-in strategy, each with a one-line summary, then the
    installed ones (a name already taken by a built-in strategy keeps its built-in meaning);
    names of the form ``file.py:Class`` or ``module:Class`` are loaded when asked for."""
    registry = StrategyRegistry(spec_loader=_load_spec)
    for cls, summary in _SUMMARIES:
        registry.register(StrategyInfo(name=cls.name, factory=cls, summary=summary))
    registry.register(
        StrategyInfo(
            name="policy",
            factory=_policy_player,
            summary="Plays a saved policy file from pokerbot solve --out (.json tabular, .npz abstract): policy:PATH.",
            argument="PATH",
        )
    )
    registry.register(
        StrategyInfo(
            name="equilibrium",
            factory=_equilibrium_player,
            summary="Plays the shipped near-equilibrium policy (kuhn, kuhn3p, leduc).",
            supports=_has_equilibrium,
        )
    )
    registry.register(
        StrategyInfo(
            name="nfsp",
            factory=_nfsp,
            summary="Leduc: the average policy NFSP learnt in self-play (pokerbot rl train), as a table.",
            supports=_plays_nfsp,
        )
    )
    registry.register(
        StrategyInfo(
            name="miximax",
            factory=_miximax,
            summary="Pre-flop chart, then miximax search with adapting opponent models (2- and 3-player "
            "hold'em); miximax:SECONDS sets the time per decision (default 0.05), miximax:NODESnodes a node "
            "budget instead (reproducible), miximax:SECONDS,KEY=VALUE,... also the agent's settings "
            "(range_showdowns=0, use_models=false, search.temperature=0).",
            supports=_miximax_games,
            argument="SECONDS",
            argument_optional=True,
            check_argument=_miximax_argument,
        )
    )
    registry.register(
        StrategyInfo(
            name="miximax-static",
            factory=_miximax_static,
            summary="miximax with learning switched off: its opponent models keep their prior.",
            supports=_miximax_games,
            argument="SECONDS",
            argument_optional=True,
            check_argument=_miximax_argument,
        )
    )
    registry.register(
        StrategyInfo(
            name="resolve",
            factory=_resolve,
            summary="Real-time search: the blueprint pre-flop, then every decision re-solved in the real game "
            "(continual re-solving, safe); resolve:SECONDS sets the time per decision (default 1), "
            "resolve:Niterations an iteration budget instead (reproducible). Heads-up hold'em, and Leduc "
            "re-solved from the first round.",
            supports=_resolve_games,
            argument="SECONDS",
            argument_optional=True,
        )
    )
    registry.register(
        StrategyInfo(
            name="resolve-exploit",
            factory=_resolve_exploit,
            summary="resolve with the opponent model inside every solve: a restricted Nash response to what the "
            "model predicts for each holding, weighted by the winnings shown so far (the safety ledger); "
            "budgets as resolve. Heads-up hold'em and Leduc.",
            supports=_resolve_games,
            argument="SECONDS",
            argument_optional=True,
        )
    )
    registry.register(
        StrategyInfo(
            name="adaptive",
            factory=_adaptive,
            summary="The strongest adaptive agent: in heads-up hold'em resolve-exploit (real-time re-solving "
            "with the opponent model inside, weighted by the winnings shown; adaptive:SECONDS sets the time per "
            "decision, default 1, adaptive:Niterations an iteration budget); in Kuhn and Leduc the equilibrium, "
            "then Bayesian best responses as the posterior sharpens.",
            supports=_adaptive_games,
            argument="SECONDS",
            argument_optional=True,
            check_argument=_adaptive_argument,
        )
    )
    registry.register(
        StrategyInfo(
            name="safe-miximax",
            factory=_safe_miximax,
            summary="Heads-up hold'em: the blueprint, moving to miximax hand by hand as the winnings shown allow "
            "(safe-miximax:SECONDS sets miximax's time per decision, NODESnodes a node budget).",
            supports=_heads_up_blueprint,
            argument="SECONDS",
            argument_optional=True,
            check_argument=_miximax_argument,
        )
    )
    for name, summary in SHIPPED.items():
        registry.register(
            StrategyInfo(name=name, factory=_shipped(name), summary=summary, supports=_plays_shipped(name))
        )
    registry.register(
        StrategyInfo(
            name="blueprint",
            factory=_blueprint,
            summary="The game's strongest equilibrium-style policy ("
            + ", ".join(f"{g}: {n}" for g, n in BLUEPRINTS.items())
            + ").",
            supports=_has_blueprint,
        )
    )
    registry.register(
        StrategyInfo(
            name="blueprint-defended",
            factory=_blueprint_defended,
            summary="The no-limit blueprint with the minimum defence: facing a bet it never folds more of "
            "its range than the bet's price.",
            supports=_has_nolimit_blueprint,
        )
    )
    for name, style in STYLES.items():
        registry.register(
            StrategyInfo(name=name, factory=styled_factory(name), summary=style.summary, supports=plays_styled)
        )
    registry.register(
        StrategyInfo(
            name=Switcher.name, factory=styled_factory(Switcher.name), summary=SWITCHER_SUMMARY, supports=plays_styled
        )
    )
    taken = set(registry.names())
    for name, entry in installed_strategies():
        if name not in taken:
            taken.add(name)
            registry.register(
                StrategyInfo(name=name, factory=entry_point_factory(entry), summary=entry_point_summary(entry))
            )
    return registry
