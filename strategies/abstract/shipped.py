"""Names of the shipped abstract-game policies and the per-game ``blueprint`` table.

Kept free of numba and the solvers so that the strategy registry can list these names
without importing them (the players load in :mod:`pokerbot.strategies.abstract.player`).
"""

from __future__ import annotations

from pokerbot.protocol.game import Game, load_game

SHIPPED: dict[str, str] = {
    "mccfr10": "Outcome-sampling MCCFR policy, 10 equal-width EHS buckets (Ponsen et al.), heads-up limit hold'em.",
    "mccfr100": "Outcome-sampling MCCFR policy (4.5B iterations), 100 percentile EHS buckets, heads-up limit hold'em.",
    "mcts10": "MCTS (UCT, C = 17 big blinds) policy, 10 EHS buckets, heads-up limit hold'em.",
    "mcrnr10": "MCRNR (p = 0.75, 2B iterations) counter-strategy to a model of calling-station, 10 EHS buckets, "
    "limit hold'em.",
    "mccfr10-nl": "Outcome-sampling MCCFR policy (2B iterations), 10 percentile EHS buckets, fold/call/half "
    "pot/pot/all-in (pseudo-harmonic translation), heads-up no-limit hold'em.",
}
"""Shipped policy names (files ``strategies/abstract/data/NAME.npz``) and their summaries."""
SHIPPED_GAMES: dict[str, str] = {
    "mccfr10": "holdem-limit-2p",
    "mccfr100": "holdem-limit-2p",
    "mcts10": "holdem-limit-2p",
    "mcrnr10": "holdem-limit-2p",
    "mccfr10-nl": "holdem-nolimit-2p",
}
"""The built-in game each shipped policy plays."""
BLUEPRINTS: dict[str, str] = {"holdem-limit-2p": "mccfr100", "holdem-nolimit-2p": "mccfr10-nl"}
"""Built-in game name to the shipped policy that ``blueprint`` plays there (one entry per game)."""


def plays_shipped(game: Game, name: str | None = None) -> bool:
    """True when the shipped policy ``name`` plays ``game`` (without ``name``: when any does)."""
    names = [name] if name is not None else list(SHIPPED_GAMES)
    return any(game == load_game(SHIPPED_GAMES[n]) for n in names)


def blueprint_name(game: Game) -> str | None:
    """The shipped policy ``blueprint`` plays in ``game``, or None."""
    for game_name, policy_name in BLUEPRINTS.items():
        if game == load_game(game_name):
            return policy_name
    return None


__all__ = ["BLUEPRINTS", "SHIPPED", "SHIPPED_GAMES", "blueprint_name", "plays_shipped"]
