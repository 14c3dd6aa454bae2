"""Tabular policies: per information set, probabilities over the legal actions.

A :class:`Policy` maps an information-set key (ACPC notation, see
:mod:`pokerbot.protocol.infosets`, e.g. ``Qh/Kh:rc/r``) to a probability for each legal action,
in the order fold, call, raise. It is bound to one game: it embeds the game definition and
refuses to be used with another game. Policies are immutable values.

JSON schema (``schema`` = ``pokerbot.policy/1``), written by :meth:`Policy.save`::

    {
      "schema": "pokerbot.policy/1",
      "game": "GAMEDEF\\nlimit\\nnumPlayers = 2\\n...END GAMEDEF\\n",
      "meta": {"algorithm": "cfr+", "iterations": 1000, "exploitability": 0.0004},
      "infosets": {
        "Ks:": {"c": 0.6667, "r": 0.3333},
        "Ks:r": {"f": 0.25, "c": 0.75}
      }
    }

``game`` is :func:`protocol.game.format_game` text; ``meta`` is free-form JSON (provenance);
``infosets`` gives, per key, the probability of each legal action character (``f``, ``c``,
``r``), each in [0, 1] and summing to 1 (within 1e-6; they are renormalised on load).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, format_game, parse_game
from pokerbot.strategies.solvers.errors import PolicyError, PolicyGameMismatchError

SCHEMA = "pokerbot.policy/1"
"""The ``schema`` value of policy files this module reads and writes."""
ACTION_ORDER = "fcr"
_SUM_TOLERANCE = 1e-6


def describe_game(game: Game) -> str:
    """A one-line summary of ``game`` for error messages."""
    return (
        f"{game.num_players}-player {game.betting}, {game.num_rounds} round(s), "
        f"{len(game.deck)} cards, blinds {list(game.blinds)}, raise sizes {list(game.raise_sizes)}"
    )


def check_game(expected: Game, actual: Game, what: str = "policy") -> None:
    """Raise :class:`PolicyGameMismatchError` unless the two games are the same."""
    if expected != actual:
        raise PolicyGameMismatchError(
            f"{what} was made for another game ({describe_game(actual)}) "
            f"than the one it is used with ({describe_game(expected)})"
        )


@dataclass(frozen=True)
class PolicyDistance:
    """How far apart two policies are, per common information set (total variation)."""

    max_tv: float
    """Largest total-variation distance ``0.5 * sum |p - q|`` over common info sets."""
    mean_tv: float
    """Average total-variation distance over common info sets."""
    common: int
    only_first: int
    only_second: int


class Policy:
    """An immutable tabular policy for one game (see the module docstring)."""

    __slots__ = ("_actions", "_game", "_meta", "_probs")

    def __init__(
        self,
        game: Game,
        table: Mapping[str, Mapping[str, float]],
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """``table`` maps each key to ``{action char: probability}`` (validated, renormalised)."""
        self._game = game
        actions: dict[str, str] = {}
        probs: dict[str, tuple[float, ...]] = {}
        for key, entry in table.items():
            chars, values = _check_entry(key, entry)
            actions[key] = chars
            probs[key] = values
        self._actions = actions
        self._probs = probs
        self._meta = MappingProxyType(dict(meta or {}))

    @classmethod
    def from_arrays(
        cls, game: Game, entries: Mapping[str, tuple[str, Sequence[float]]], meta: Mapping[str, Any] | None = None
    ) -> Policy:
        """A policy from ``{key: (action chars, probabilities)}``, trusted (no validation)."""
        policy = cls.__new__(cls)
        policy._game = game
        policy._actions = {key: chars for key, (chars, _) in entries.items()}
        policy._probs = {key: tuple(float(p) for p in values) for key, (_, values) in entries.items()}
        policy._meta = MappingProxyType(dict(meta or {}))
        return policy

    def __deepcopy__(self, memo: dict[int, Any]) -> Policy:
        """The policy itself: it never changes after it is made, so copies (a strategy's
        snapshot) share it."""
        return self

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> Game:
        """The game this policy plays."""
        return self._game

    @property
    def meta(self) -> Mapping[str, Any]:
        """Free-form provenance (algorithm, iterations, exploitability, ...)."""
        return self._meta

    def __len__(self) -> int:
        return len(self._probs)

    def __contains__(self, key: object) -> bool:
        return key in self._probs

    def __iter__(self) -> Iterator[str]:
        return iter(self._probs)

    def keys(self) -> list[str]:
        """Every information-set key, in insertion order."""
        return list(self._probs)

    def actions(self, key: str) -> str:
        """The legal action characters at ``key`` (``fcr`` order); KeyError if unknown."""
        return self._actions[key]

    def probabilities(self, key: str) -> tuple[float, ...]:
        """The probabilities of :meth:`actions` at ``key``; KeyError if unknown."""
        return self._probs[key]

    def action_probabilities(self, key: str) -> dict[str, float]:
        """``{action char: probability}`` at ``key``; KeyError if unknown."""
        return dict(zip(self._actions[key], self._probs[key], strict=True))

    def with_meta(self, **meta: Any) -> Policy:
        """A copy with ``meta`` merged into the provenance."""
        merged = {**self._meta, **meta}
        return Policy.from_arrays(self._game, {k: (self._actions[k], self._probs[k]) for k in self._probs}, merged)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Policy):
            return NotImplemented
        return self._game == other._game and self._actions == other._actions and self._probs == other._probs

    def __hash__(self) -> int:
        return hash((len(self._probs), self._game.num_players))

    def __repr__(self) -> str:
        return f"Policy({len(self)} information sets, {describe_game(self._game)})"

    # --------------------------------------------------------------------- JSON
    def to_json_dict(self) -> dict[str, Any]:
        """The JSON document (see the module docstring)."""
        return {
            "schema": SCHEMA,
            "game": format_game(self._game),
            "meta": dict(self._meta),
            "infosets": {key: self.action_probabilities(key) for key in self._probs},
        }

    @classmethod
    def from_json_dict(cls, data: Any, game: Game | None = None, source: str = "<policy>") -> Policy:
        """Read a JSON document; with ``game``, refuse a policy made for another game."""
        if not isinstance(data, dict):
            raise PolicyError(f"{source}: a policy file holds a JSON object, got {type(data).__name__}")
        if data.get("schema") != SCHEMA:
            raise PolicyError(f"{source}: schema is {data.get('schema')!r}, expected {SCHEMA!r}")
        text = data.get("game")
        if not isinstance(text, str):
            raise PolicyError(f"{source}: 'game' must be a GAMEDEF text")
        try:
            own_game = parse_game(text, source=f"{source} (embedded game)")
        except GameDefinitionError as error:
            raise PolicyError(f"{source}: bad embedded game: {error}") from None
        if game is not None:
            check_game(game, own_game, what=f"policy {source}")
        infosets = data.get("infosets")
        if not isinstance(infosets, dict):
            raise PolicyError(f"{source}: 'infosets' must be an object mapping keys to action probabilities")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise PolicyError(f"{source}: 'meta' must be an object")
        try:
            return cls(own_game, infosets, meta)
        except PolicyError as error:
            raise PolicyError(f"{source}: {error}") from None

    def save(self, path: str | Path) -> None:
        """Write the policy as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_json_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None) -> Policy:
        """Read a policy file; with ``game``, refuse a policy made for another game.

        Raises :class:`PolicyError` (unreadable, corrupt JSON, bad schema) or
        :class:`PolicyGameMismatchError`.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PolicyError(f"{path}: cannot read policy file: {error}") from None
        return cls.loads(text, game, source=str(path))

    @classmethod
    def loads(cls, text: str, game: Game | None = None, source: str = "<policy>") -> Policy:
        """Read a policy from JSON text (see :meth:`load`)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise PolicyError(f"{source}: corrupt JSON: {error}") from None
        return cls.from_json_dict(data, game, source)


def _check_entry(key: object, entry: object) -> tuple[str, tuple[float, ...]]:
    if not isinstance(key, str) or ":" not in key:
        raise PolicyError(f"information-set key {key!r} is not of the form 'cards:betting'")
    if not isinstance(entry, Mapping) or not entry:
        raise PolicyError(f"{key!r}: expected a non-empty object of action probabilities")
    chars = "".join(char for char in ACTION_ORDER if char in entry)
    if len(chars) != len(entry):
        bad = sorted(str(char) for char in entry if char not in ACTION_ORDER)
        raise PolicyError(f"{key!r}: unknown action(s) {bad}: actions are 'f', 'c' and 'r'")
    values = []
    for char in chars:
        value = entry[char]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise PolicyError(f"{key!r}: probability of {char!r} is {value!r}, not a number")
        if not -_SUM_TOLERANCE <= value <= 1 + _SUM_TOLERANCE:
            raise PolicyError(f"{key!r}: probability of {char!r} is {value}, outside [0, 1]")
        values.append(max(float(value), 0.0))
    total = sum(values)
    if abs(total - 1.0) > _SUM_TOLERANCE:
        raise PolicyError(f"{key!r}: probabilities sum to {total}, not 1")
    return chars, tuple(v / total for v in values)


# ------------------------------------------------------------------- operations
def mix(policies: Sequence[Policy], weights: Sequence[float]) -> Policy:
    """The per-information-set convex combination ``sum_k w_k * policy_k(I)``.

    Weights must be non-negative and sum to 1; every policy must be for the same game. An
    information set missing from some policies is mixed among those that have it
    (renormalised weights). Note that this mixes *behaviour*: to mix whole strategies (play
    policy k for the entire hand with probability w_k) use
    :func:`strategies.solvers.profile.mix_strategies`, which weights by reach.
    """
    if not policies or len(policies) != len(weights):
        raise PolicyError("mix needs as many weights as policies, and at least one policy")
    if any(w < 0 for w in weights) or abs(sum(weights) - 1.0) > 1e-9:
        raise PolicyError(f"mix weights must be non-negative and sum to 1, got {list(weights)}")
    game = policies[0].game
    for other in policies[1:]:
        check_game(game, other.game, what="mixed policy")
    keys: dict[str, None] = {}
    for policy in policies:
        keys.update(dict.fromkeys(policy))
    entries: dict[str, tuple[str, tuple[float, ...]]] = {}
    for key in keys:
        holders = [(p, w) for p, w in zip(policies, weights, strict=True) if key in p]
        chars = holders[0][0].actions(key)
        if any(p.actions(key) != chars for p, _ in holders):
            raise PolicyError(f"{key!r}: the policies disagree on the legal actions")
        total = sum(w for _, w in holders)
        if total <= 0:
            total, holders = float(len(holders)), [(p, 1.0) for p, _ in holders]
        mixed = [sum(w * p.probabilities(key)[j] for p, w in holders) / total for j in range(len(chars))]
        entries[key] = (chars, tuple(mixed))
    return Policy.from_arrays(game, entries, {"mixed": len(policies)})


def compare(first: Policy, second: Policy) -> PolicyDistance:
    """Total-variation distances between two policies of the same game, per common info set."""
    check_game(first.game, second.game, what="compared policy")
    common = [key for key in first if key in second]
    distances = []
    for key in common:
        a, b = first.action_probabilities(key), second.action_probabilities(key)
        chars = set(a) | set(b)
        distances.append(0.5 * sum(abs(a.get(c, 0.0) - b.get(c, 0.0)) for c in chars))
    return PolicyDistance(
        max_tv=max(distances, default=0.0),
        mean_tv=sum(distances) / len(distances) if distances else 0.0,
        common=len(common),
        only_first=sum(1 for key in first if key not in second),
        only_second=sum(1 for key in second if key not in first),
    )


__all__ = ["ACTION_ORDER", "SCHEMA", "Policy", "PolicyDistance", "check_game", "compare", "describe_game", "mix"]
