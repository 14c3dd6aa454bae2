"""P(win) at a showdown leaf of the search: the two :class:`~strategies.miximax.search.WinModel` s.

* :class:`RangeWinModel` (no opponent model): our equity against a uniformly random
  opponent holding with card removal (wins 1, ties 1/2), ignoring the betting. On a complete
  hold'em board it is exact (:func:`pokerbot.protocol.analysis.equity.equity_vs_random`: the
  percentile rank among the 990 holdings left). With up to ``exact_missing`` cards missing
  (default 0; 1 is exact on the turn): the exact values averaged over every run-out. More
  missing: eval7's Monte Carlo over run-outs and holdings
  (:func:`~pokerbot.protocol.analysis.equity.sampled_equity_vs_range`, ``mc_iterations``
  draws, standard deviation at most ``0.5 / sqrt(mc_iterations)``: 0.011 at 2000), eval7's
  generator seeded from the instance's seeded generator before each call (reproducible).
  Other decks: :func:`~pokerbot.protocol.analysis.strength.hand_strength`, averaged over
  every run-out.
* :class:`ModelWinModel`: the thesis' way (ch. 5.3): the hand-strength model predicts the
  opponent's showdown strength bin from the showdown context of the betting, and
  ``P(win) = 1 - P(opponent beats our strength)``
  (:meth:`models.hoeffding.HandStrengthModel.prob_beats`). With the board incomplete, our
  strength is the equity above (its expectation over run-outs: an approximation).
  Blended with equity against the range the opponent's raises imply (``range_showdowns >
  0``): an opponent that raised ``k`` times in the hand is taken to hold a uniformly random
  hand from the top ``range_shrink ** k`` of holdings, where our strength ``s`` (a
  percentile) wins with probability ``(s - (1 - share)) / share`` clipped to [0, 1]. The
  blend (a call of a raise keeps ``call_shrink`` of the range, 1 by default) gives the range
  estimate weight ``r / (r + n)`` for ``n`` showdowns the model has
  learnt (its ``observations``, the prior's excluded) and ``r = range_showdowns``: a new
  model's showdown predictions come from the prior population and price raising wars badly,
  the range argument is right against any opponent who raises for value; as the opponent's
  own showdowns accumulate the learnt model takes over. Without raises the model is used alone.

**Three or more players.** :class:`RangeWinModel` answers P(win) against every opponent
still in (it counts the folds in the state): against one it is the heads-up equity above;
against ``k >= 2`` random holdings it is ``s ** k`` on a complete board (``s`` the exact
equity against one holding: the opponents' holdings are independent given the board, card
removal between them ignored, a tie with each counts half), and with cards missing a seeded
Monte Carlo of our share of the pot (ties split,
:func:`~pokerbot.protocol.analysis.equity.multiway_share`): ``multiway_iterations`` draws
(default 600, standard deviation at most 0.02) of run-out and holdings, from a generator
seeded from the instance's. (eval7's range Monte Carlo handles
one opponent only; ``s ** k`` with the expected ``s`` would underrate weak hands, which win
mostly on boards where they improve.) Other decks: the heads-up value to the power ``k``.
:class:`ModelWinModel` stays per opponent (``opponent``): the agent makes one per opponent,
each with that opponent's hand-strength model, sharing one equity memo
(:meth:`RangeWinModel.share_equities`), and the search multiplies their answers
(:class:`strategies.miximax.search.ProductWinModel`).

Values are memoised by board inside the instance (the agent keeps one instance per hand).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

from pokerbot.models.action_classes import RAISE_CLASSES, ActionClass, classify
from pokerbot.models.features import showdown_context
from pokerbot.models.handstrength import board_texture
from pokerbot.models.opponent import OpponentShowdownModel
from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.analysis.equity import Eval7Range, equity_vs_random, multiway_share, sampled_equity_vs_range
from pokerbot.protocol.analysis.strength import hand_strength
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState

MC_ITERATIONS = 2000
"""Default Monte Carlo draws when two or more board cards are missing."""
MULTIWAY_ITERATIONS = 600
"""Default Monte Carlo draws against two or more opponents with board cards missing."""


class RangeWinModel:
    """Equity of ``hole`` against a uniform random holding (module docstring)."""

    betting_independent = True

    def __init__(
        self,
        game: Game,
        hole: Sequence[Card],
        seed: int = 0,
        mc_iterations: int = MC_ITERATIONS,
        exact_missing: int = 0,
        multiway_iterations: int = MULTIWAY_ITERATIONS,
    ) -> None:
        self.game = game
        self.hole = tuple(hole)
        self.rng = random.Random(seed)
        self.mc_iterations = mc_iterations
        self.exact_missing = exact_missing
        self.multiway_iterations = multiway_iterations
        if game.num_players > 2:
            self.betting_independent = False  # P(win) depends on how many opponents folded
        self._fast = game.is_standard_deck and game.num_hole_cards == 2
        self._equity: dict[tuple[Card, ...], float] = {}
        self._multiway: dict[tuple[tuple[Card, ...], int], float] = {}
        self._range: Eval7Range | None = None
        if self._fast:
            used = set(self.hole)
            rest = [card for card in game.deck if card not in used]
            self._range = Eval7Range(itertools.combinations(rest, 2))

    def read_only_parts(self) -> list[object]:
        """What the model never changes after it is made (the opponent's holdings as eval7's,
        which cannot be deep-copied): a copy of the model may share them."""
        return [self._range] if self._range is not None else []

    def equity(self, board: Sequence[Card]) -> float:
        """Our equity in [0, 1] on ``board`` (complete or not; memoised)."""
        key = tuple(board)
        value = self._equity.get(key)
        if value is None:
            value = self._compute(key)
            self._equity[key] = value
        return value

    def _compute(self, board: tuple[Card, ...]) -> float:
        missing = self.game.total_board_cards - len(board)
        used = set(self.hole) | set(board)
        if self._range is None:
            rest = [card for card in self.game.deck if card not in used]
            runouts = list(itertools.combinations(rest, missing))
            return sum(hand_strength(self.game, self.hole, board + r) for r in runouts) / len(runouts)
        if missing == 0:
            if self.game.total_board_cards != 5:
                return hand_strength(self.game, self.hole, board)
            return equity_vs_random(self.hole, board)
        if missing <= self.exact_missing:
            rest = [card for card in self.game.deck if card not in used]
            return sum(self.equity((*board, card)) for card in rest) / len(rest)
        seed = self.rng.getrandbits(32)
        return sampled_equity_vs_range(self.hole, self._range, board, self.mc_iterations, seed=seed)

    def share_equities(self, source: RangeWinModel) -> None:
        """Use ``source``'s memo of :meth:`equity` (same game and hole cards: the agent's
        per-opponent models compute each board's equity once)."""
        if source.game != self.game or source.hole != self.hole:
            raise ValueError("equities can be shared only between models of the same game and hole cards")
        self._equity = source._equity

    def multiway_equity(self, board: Sequence[Card], opponents: int) -> float:
        """Our share of the pot against ``opponents`` random holdings on ``board`` and its
        run-outs (module docstring; memoised). One opponent: :meth:`equity`."""
        key = (tuple(board), opponents)
        if opponents <= 1:
            return self.equity(key[0])
        value = self._multiway.get(key)
        if value is None:
            missing = self.game.total_board_cards - len(key[0])
            if missing == 0 or not self._fast:
                value = self.equity(key[0]) ** opponents
            else:
                rng = random.Random(self.rng.getrandbits(32))
                value = multiway_share(self.game, self.hole, key[0], opponents, self.multiway_iterations, rng)
            self._multiway[key] = value
        return value

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        """P(win), ties half, against a random holding of every opponent still in (the
        betting is ignored but for the folds)."""
        if self.game.num_players == 2:
            return self.equity(board)
        return self.multiway_equity(board, state.folded.count(False) - 1)


class ModelWinModel(RangeWinModel):
    """P(win) from the hand-strength model's prediction for the opponent (thesis ch. 5.3)."""

    betting_independent = False

    def __init__(
        self,
        game: Game,
        hole: Sequence[Card],
        model: OpponentShowdownModel,
        opponent: int,
        seed: int = 0,
        mc_iterations: int = MC_ITERATIONS,
        exact_missing: int = 0,
        range_showdowns: float = 0.0,
        range_shrink: float = 0.5,
        call_shrink: float = 1.0,
        action_model: Callable[[HandState], Mapping[ActionClass, float]] | None = None,
        min_keep: float = 0.05,
    ) -> None:
        super().__init__(game, hole, seed, mc_iterations, exact_missing)
        self.model = model
        self.opponent = opponent
        self.range_showdowns = range_showdowns
        """Weight of the range estimate, in showdowns (0: the model alone; module docstring)."""
        self.range_shrink = range_shrink
        """Share of its range an opponent keeps with each raise."""
        self.call_shrink = call_shrink
        """Share of its range an opponent keeps with each call of a raise (1: calls say nothing)."""
        self.action_model = action_model
        """The opponent's action model: when given, each raise keeps the share of the range
        that raises at least as big there, each call of a raise the share that does not fold
        (instead of ``range_shrink`` and ``call_shrink``), at least ``min_keep``."""
        self.min_keep = min_keep
        self._context: dict[str, dict[str, float]] = {}
        self._share: dict[str, float] = {}

    def range_share(self, state: HandState) -> float:
        """The share of holdings the opponent's raises and calls of raises in ``state`` leave it."""
        share = 1.0
        replay = HandState(state.game, state.hole_cards, state.board_cards) if self.action_model else None
        for actions, actors in zip(state.actions, state.actors):
            raised = False
            for action, actor in zip(actions, actors):
                if actor == self.opponent and (
                    action.kind is ActionKind.RAISE or (action.kind is ActionKind.CALL and raised)
                ):
                    share *= self._keep(replay, action)
                raised = raised or action.kind is ActionKind.RAISE
                if replay is not None:
                    replay.apply(action)
        return share

    def _keep(self, before: HandState | None, action: Action) -> float:
        """The share of its range the opponent keeps by taking ``action`` at ``before``."""
        raising = action.kind is ActionKind.RAISE
        if before is None or self.action_model is None:
            return self.range_shrink if raising else self.call_shrink
        probabilities = self.action_model(before)
        total = sum(probabilities.values()) or 1.0
        if raising:
            made = classify(before, action)
            kept = sum(p for c, p in probabilities.items() if c >= made and c in RAISE_CLASSES) / total
        else:
            kept = 1.0 - probabilities.get(ActionClass.FOLD, 0.0) / total
        return min(1.0, max(self.min_keep, kept))

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        """``1 - prob_beats(showdown context, our strength)`` for the opponent; the context's
        board texture is taken from ``board``."""
        betting = state.betting_string()
        context = self._context.get(betting)
        if context is None:
            context = showdown_context(state, self.opponent)
            self._context[betting] = context
        context = dict(context)
        context["face_cards"], context["suited"], context["connected"] = board_texture(board)
        strength = self.equity(board)
        learned = 1.0 - self.model.prob_beats(context, strength)
        share = self._share.get(betting)
        if share is None:
            share = self.range_share(state)
            self._share[betting] = share
        if self.range_showdowns <= 0 or share >= 1.0:
            return learned
        implied = min(1.0, max(0.0, (strength - (1.0 - share)) / share))
        seen = self.model.observations
        weight = seen / (seen + self.range_showdowns)
        return weight * learned + (1.0 - weight) * implied


__all__ = ["MC_ITERATIONS", "MULTIWAY_ITERATIONS", "ModelWinModel", "RangeWinModel"]
