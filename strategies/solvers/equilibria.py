"""Precomputed equilibrium policies shipped as package data (``data/<game>.json``).

The files are made by :mod:`pokerbot.bot.generators.equilibria` (command, algorithm and
iterations are in its docstring and in each file's ``meta``) and loaded lazily, once per
process, by :func:`equilibrium_policy`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game
from pokerbot.strategies.solvers.errors import NoEquilibriumError
from pokerbot.strategies.solvers.policy import Policy

EQUILIBRIUM_GAMES: tuple[str, ...] = ("kuhn", "leduc", "kuhn3p")
"""Built-in games with a shipped equilibrium policy."""


def data_file_name(name: str) -> str:
    """The package-data file of built-in game ``name``."""
    return f"{name}.json"


def equilibrium_game_name(game: Game | str) -> str | None:
    """The built-in name of ``game`` if an equilibrium ships for it, else None."""
    if isinstance(game, str):
        return game if game in EQUILIBRIUM_GAMES else None
    for name in EQUILIBRIUM_GAMES:
        if name in BUILTIN_GAMES and load_game(name) == game:
            return name
    return None


def has_equilibrium(game: Game | str) -> bool:
    """True when :func:`equilibrium_policy` has a policy for ``game``."""
    return equilibrium_game_name(game) is not None


@cache
def _load(name: str) -> Policy:
    path = resources.files("pokerbot.strategies.solvers").joinpath("data", data_file_name(name))
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NoEquilibriumError(
            f"the equilibrium file for {name!r} is missing: run python -m pokerbot.bot.generators.equilibria"
        ) from None
    return Policy.loads(text, load_game(name), source=f"strategies/solvers/data/{data_file_name(name)}")


def equilibrium_policy(game: Game | str) -> Policy:
    """The shipped equilibrium policy of ``game`` (a :class:`Game` or a built-in name).

    Raises :class:`NoEquilibriumError` for other games.
    """
    name = equilibrium_game_name(game)
    if name is None:
        raise NoEquilibriumError(
            f"no precomputed equilibrium for this game: available for {', '.join(EQUILIBRIUM_GAMES)}"
        )
    return _load(name)


__all__ = ["EQUILIBRIUM_GAMES", "equilibrium_game_name", "equilibrium_policy", "has_equilibrium"]
