"""The opponent model of the MCRNR of Ponsen, de Jong and Lanctot (2011): one decision tree per betting round.

Ponsen et al. (section 4.3.2) models a player's action in each round from five features:

=================  =============================================================
``seat``           the player's position in the hand (0 or 1; 1 is the button in
                   heads-up ACPC hold'em)
``raises``         bets and raises so far in the hand, by anyone (blinds not counted)
``round_raises``   bets and raises so far in the current round
``own_raises``     bets and raises so far in the hand by the modelled player
``bucket``         the modelled player's card bucket in this round, when its cards
                   were seen (absent otherwise)
=================  =============================================================

and predicts fold, call or raise. The seed used Weka's J48; here each round has a river
Hoeffding tree (``leaf_prediction="mc"``: a leaf predicts its observed action frequencies).
:func:`decision_rows` turns a finished hand into rows; with ``cards="showdown"`` (the
seed's setting: what a player sitting with the opponent sees) the bucket is known only when
the modelled player showed its cards at a showdown, with ``cards="all"`` whenever the log
holds them (a dealer's log holds every card). :func:`learn_from_logs` trains a model on the
hands of one player in ACPC ``STATE`` lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from river import tree

from pokerbot.models.errors import ModelDataError
from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import parse_state_line

FEATURES = ("seat", "raises", "round_raises", "own_raises", "bucket")
ACTION_CHARS = "fcr"
CARD_MODES = ("showdown", "all")

BucketFunction = Callable[[Sequence[Card], Sequence[Card], int], int]
"""``bucket(hole, board, round)``, e.g. a card abstraction's :meth:`bucket`."""


class RoundTreeModel:
    """Per round, P(fold, call, raise | the five features) (see the module docstring)."""

    def __init__(self, num_rounds: int, grace_period: int = 100) -> None:
        self.trees = [
            tree.HoeffdingTreeClassifier(grace_period=grace_period, leaf_prediction="mc") for _ in range(num_rounds)
        ]
        self.rows = [0] * num_rounds

    def learn(self, round_index: int, features: dict[str, float], action: str) -> None:
        """Learn that the player took ``action`` (``f``, ``c`` or ``r``) in this situation."""
        self.trees[round_index].learn_one(features, action)
        self.rows[round_index] += 1

    def predict(self, round_index: int, features: dict[str, float]) -> dict[str, float]:
        """The predicted probability of each of ``f``, ``c``, ``r`` (uniform before any data)."""
        raw = self.trees[round_index].predict_proba_one(features) if self.rows[round_index] else {}
        total = sum(raw.get(c, 0.0) for c in ACTION_CHARS)
        if total <= 0.0:
            return dict.fromkeys(ACTION_CHARS, 1.0 / 3.0)
        return {c: raw.get(c, 0.0) / total for c in ACTION_CHARS}

    def summary(self) -> dict[str, Any]:
        """Rows learned and tree sizes per round."""
        return {"rows": list(self.rows), "leaves": [t.summary["n_leaves"] for t in self.trees]}


def features(seat: int, raises: int, round_raises: int, own_raises: int, bucket: int | None) -> dict[str, float]:
    """The feature dictionary (``bucket`` None: not seen)."""
    x: dict[str, float] = {"seat": seat, "raises": raises, "round_raises": round_raises, "own_raises": own_raises}
    if bucket is not None:
        x["bucket"] = bucket
    return x


def decision_rows(
    final: HandState, player: int, bucket: BucketFunction, cards: str = "showdown"
) -> list[tuple[int, dict[str, float], str]]:
    """``(round, features, action char)`` for each decision of position ``player`` in a finished hand."""
    if cards not in CARD_MODES:
        raise ValueError(f"cards must be one of {', '.join(CARD_MODES)}, got {cards!r}")
    hole = final.hole_cards[player]
    shown = hole is not None and (cards == "all" or (final.showdown() and not final.folded[player]))
    rows: list[tuple[int, dict[str, float], str]] = []
    raises = own = 0
    for r in range(final.game.num_rounds):
        round_raises = 0
        seen = final.game.board_start[r] + final.game.num_board_cards[r]
        known = shown and len(final.board_cards) >= seen
        round_bucket = bucket(hole, final.board_cards[:seen], r) if known and hole is not None else None
        for actor, action in zip(final.actors[r], final.actions[r], strict=True):
            if actor == player:
                x = features(player, raises, round_raises, own, round_bucket)
                rows.append((r, x, action.kind.char))
            if action.kind == ActionKind.RAISE:
                raises += 1
                round_raises += 1
                if actor == player:
                    own += 1
    return rows


def learn_from_logs(
    lines: Iterable[str], game: Game, player: str, bucket: BucketFunction, cards: str = "showdown"
) -> tuple[RoundTreeModel, int]:
    """A model of the player named ``player`` from ACPC log lines (``STATE`` lines; others
    skipped), its cards bucketed by ``bucket``, and the number of hands it played;
    :class:`~pokerbot.models.errors.ModelDataError` when a ``STATE`` line is not a hand of
    ``game`` or the player played none."""
    model = RoundTreeModel(game.num_rounds)
    hands = 0
    for number, line in enumerate(lines, 1):
        if not line.startswith("STATE:"):
            continue
        try:
            logged = parse_state_line(line, game)
        except ValueError as error:
            raise ModelDataError(f"line {number}: {error}") from None
        if player not in logged.names:
            continue
        hands += 1
        position = logged.names.index(player)
        for r, x, action in decision_rows(logged.state, position, bucket, cards):
            model.learn(r, x, action)
    if hands == 0:
        raise ModelDataError(f"no hand of a player named {player!r} in the logs")
    return model, hands


__all__ = [
    "ACTION_CHARS",
    "CARD_MODES",
    "FEATURES",
    "BucketFunction",
    "RoundTreeModel",
    "decision_rows",
    "features",
    "learn_from_logs",
]
