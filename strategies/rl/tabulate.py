"""A network's policy written as a tabular policy: every information set of a small game.

:func:`tabulate` asks a function for the action probabilities of a batch of encoded
observations, one per information set of the game's public tree, and returns them as a
:class:`~pokerbot.strategies.solvers.policy.Policy` (``pokerbot.policy/1`` JSON, ACPC keys):
then ``pokerbot exploitability``, ``pokerbot match --players policy:PATH`` and every other tool
read the learned policy exactly. Limit games only (the action IDs ``call``/``check``,
``raise``, ``fold`` are the table's ``c``, ``r``, ``f``), small enough for
:func:`~pokerbot.strategies.solvers.tree.build_tree`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.rl.encoding import CALL_ID, CHECK_ID, FOLD_ID, RAISE_ID, Encoding, EncodingError
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import uniform_policy

ProbabilityFunction = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""``(observations, masks, positions) -> probabilities``: one row per observation (of the
player in that position), over the action IDs, zero outside each row's mask."""

_ACTIONS: Mapping[str, Action] = {"f": FOLD, "c": CALL, "r": LIMIT_RAISE}


def infoset_state(game: Game, key: str) -> HandState:
    """The state of information-set ``key`` (``Qh/Kh:rc/r``): the betting replayed, the acting
    position's hole cards and the board it has seen set (the others' cards unknown)."""
    cards, _, betting = key.partition(":")
    groups = cards.split("/")
    hole_count = game.num_hole_cards
    hole = cards_from_string(groups[0][: 2 * hole_count])
    board = cards_from_string(groups[0][2 * hole_count :] + "".join(groups[1:]))
    state = HandState(game, None, board)
    for r, actions in enumerate(betting.split("/")):
        if r != state.round:
            raise ValueError(f"information-set key {key!r}: its betting does not reach round {r}")
        for char in actions:
            state.apply(_ACTIONS[char])
    position = state.current_player
    if position is None:
        raise ValueError(f"information-set key {key!r}: nobody is to act")
    state.hole_cards[position] = hole
    return state


def tabulate(
    game: Game, encoding: Encoding, probabilities: ProbabilityFunction, meta: Mapping[str, Any] | None = None
) -> Policy:
    """The tabular policy of ``probabilities`` at every information set of ``game``."""
    if game.is_nolimit:
        raise EncodingError("a tabular policy needs a limit game: no-limit raises have sizes")
    keys = uniform_policy(game).keys()
    states = [infoset_state(game, key) for key in keys]
    observations = np.stack([encoding.encode(state, state.current_player or 0) for state in states])
    masks = np.stack([encoding.legal_mask(state) for state in states])
    positions = np.array([state.current_player for state in states])
    rows = probabilities(observations, masks, positions)
    entries: dict[str, tuple[str, tuple[float, ...]]] = {}
    for key, state, row in zip(keys, states, rows):
        legal = state.legal_actions()
        facing = state.spent[state.current_player or 0] < state.max_spent
        chars, values = [], []
        if legal.can_fold:
            chars.append("f")
            values.append(float(row[FOLD_ID]))
        chars.append("c")
        values.append(float(row[CALL_ID if facing else CHECK_ID]))
        if legal.can_raise:
            chars.append("r")
            values.append(float(row[RAISE_ID]))
        total = sum(values)
        entries[key] = (
            "".join(chars),
            tuple(v / total for v in values) if total > 0 else (1 / len(values),) * len(values),
        )
    return Policy.from_arrays(game, entries, meta)


__all__ = ["ProbabilityFunction", "infoset_state", "tabulate"]
