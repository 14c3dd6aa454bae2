"""Player names: the one check of what a match log can carry, and a maker of safe names.

An ACPC ``STATE`` or ``SCORE`` line separates its fields with ``:`` and the players' names
with ``|``, and the dealer's command line splits on white space: a player name is a non-empty
string without ``:``, ``|`` or white space, distinct from the other names of its match.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pokerbot.protocol.errors import PlayerNameError


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None when it can."""
    if not name:
        return "a player name must not be empty"
    for ch in name:
        if ch in ":|" or ch.isspace():
            return f"player name {name!r} holds {ch!r}: names must not hold ':', '|' or white space"
    return None


def check_player_names(names: Sequence[str], players: int) -> tuple[str, ...]:
    """``names`` as a tuple when there is one valid, distinct name per player.

    Raises :class:`~pokerbot.protocol.errors.PlayerNameError` saying what is wrong.
    """
    if len(names) != players:
        given = f"{len(names)} player {'name' if len(names) == 1 else 'names'} given"
        raise PlayerNameError(f"{given}, the game has {players} players")
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise PlayerNameError(problem)
    if len(set(names)) != len(names):
        raise PlayerNameError(f"player names must be distinct, got {', '.join(names)}")
    return tuple(names)


def safe_player_name(text: str) -> str:
    """``text`` made into a valid player name: ``:`` becomes ``=`` (so ``policy:p.json`` reads
    ``policy=p.json``), ``|`` and white space ``_``; an empty text becomes ``player``."""
    name = "".join("_" if ch == "|" or ch.isspace() else ch for ch in text.replace(":", "="))
    return name or "player"


def unique_player_names(texts: Iterable[str]) -> list[str]:
    """Valid, distinct player names from ``texts`` (strategy names, say), in order: each made
    safe by :func:`safe_player_name`, repeats numbered (``random, random`` -> ``random,
    random-2``)."""
    names: list[str] = []
    for text in texts:
        base = safe_player_name(text)
        name, copy = base, 1
        while name in names:
            copy += 1
            name = f"{base}-{copy}"
        names.append(name)
    return names


__all__ = ["check_player_names", "name_problem", "safe_player_name", "unique_player_names"]
