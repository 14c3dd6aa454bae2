"""The ``miximax`` agent: a pre-flop chart, then miximax search with adapting opponent models.

:class:`MiximaxAgent` (Kündig's thesis, ch. 6 and 7) plays heads-up games:

* **pre-flop** in hold'em (52 cards, two hole cards), the packaged chart
  (:mod:`strategies.agent.preflop`) keyed by position, the opponent's chips in and the
  effective stack, both in big blinds; ``r`` raises to ``raise_multiple`` times the bet
  faced, ``a`` goes all-in (the limit raise in limit games), ``f`` folds (checks when free);
  adapted to the opponent's action model by :mod:`strategies.agent.preflop_adapt` (steal
  from an opponent who folds too often, call wider against one who raises too often, tighter against one who raises rarely);
* **after the flop** (and pre-flop in other games), :mod:`strategies.agent.search` from the
  current state: the opponent's decisions weighted by the adapting action model, showdowns
  valued by the adapting hand-strength model (:class:`~strategies.agent.equity.ModelWinModel`)
  or, with ``use_models=False``, by a uniform action model and exact equity against a random
  hand (:class:`~strategies.agent.equity.RangeWinModel`);
* after every hand (:meth:`MiximaxAgent.observe`) both models learn the opponent's
  decisions and, at a showdown, its revealed hand strength.

The models and their prior (:func:`models.prior.models_for_game`) are made at the first
decision or observation. Each decision searches until ``min(deadline - safety_margin,
now + time_budget)`` (seconds). All randomness comes from the constructor's seed.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from models.abstraction import ActionClass
from models.features import action_context
from models.hoeffding import ActionModel, HandStrengthModel
from models.prior import models_for_game
from protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from protocol.game import Game
from protocol.hand import HandState
from protocol.wire import MatchState
from strategies.agent.abstraction import AbstractionSettings
from strategies.agent.equity import ModelWinModel, RangeWinModel
from strategies.agent.preflop import POSITIONS, PreflopChart, class_of, load_chart
from strategies.agent.preflop_adapt import PreflopAdaptation, model_call, steal_action
from strategies.agent.search import ActionModelFn, SearchResult, SearchSettings, WinModel, search
from strategies.base import Strategy


class AgentSettings(BaseModel):
    """Everything that configures the agent (sizes, sampling, pruning, time)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    abstraction: AbstractionSettings = AbstractionSettings()
    search: SearchSettings = SearchSettings()
    time_budget: float = Field(0.4, gt=0.0)
    """Most seconds spent on one decision (0.4: the p95 decision time stays under 0.5 s)."""
    safety_margin: float = Field(0.05, ge=0.0)
    """Seconds kept free before the caller's deadline."""
    use_models: bool = True
    """False: uniform opponent actions and equity against a random hand (no learning)."""
    learn: bool = True
    """False: the models keep their prior (nothing learnt from the hands played)."""
    use_chart: bool = True
    """False: search pre-flop as well (slow in hold'em)."""
    chart_path: Path | None = None
    """A chart file other than the packaged one."""
    range_showdowns: float = Field(30.0, ge=0.0)
    """Weight, in showdowns, of the raise-implied range in P(win) (:mod:`strategies.agent.equity`)."""
    call_shrink: float = Field(0.75, gt=0.0, le=1.0)
    """Share of its range the opponent keeps with each call of a raise, in that range."""
    preflop: PreflopAdaptation = PreflopAdaptation()
    """How pre-flop play adapts to the opponent model (used when ``use_models``)."""


def plays(game: Game) -> bool:
    """True for the games the agent plays: heads-up, with the 52-card deck (hold'em)."""
    return game.num_players == 2 and game.is_standard_deck


def _uniform(state: HandState) -> Mapping[ActionClass, float]:
    return dict.fromkeys(ActionClass, 1.0)


class MiximaxAgent(Strategy):
    """Pre-flop chart plus miximax search with adapting opponent models (module docstring)."""

    name = "miximax"

    def __init__(self, game: Game, seed: int | None = None, settings: AgentSettings | None = None) -> None:
        super().__init__(game, seed)
        if not plays(game):
            raise ValueError("the miximax agent plays heads-up hold'em (2 players, 52 cards) only")
        self.settings = settings or AgentSettings()
        self._chart: PreflopChart | None = None
        self._models: tuple[ActionModel, HandStrengthModel] | None = None
        self._hand: tuple[tuple[int, tuple[int, ...]], WinModel] | None = None
        self.last_result: SearchResult | None = None
        """The last search's result (for benchmarks and logs)."""

    # ---------------------------------------------------------------- parts
    def _uses_chart(self, state: HandState) -> bool:
        game = self.game
        return (self.settings.use_chart and state.round == 0 and game.is_standard_deck
                and game.num_hole_cards == 2 and game.num_rounds == 4)

    def chart(self) -> PreflopChart:
        """The pre-flop chart (loaded and validated on first use)."""
        if self._chart is None:
            self._chart = load_chart(self.settings.chart_path)
        return self._chart

    def models(self) -> tuple[ActionModel, HandStrengthModel]:
        """The (action, hand-strength) opponent models (made on first use)."""
        if self._models is None:
            self._models = models_for_game(self.game)
        return self._models

    # ------------------------------------------------------------- decisions
    def decide(self, view: MatchState, deadline: float) -> Action:
        """Chart pre-flop, search otherwise; always a legal action (check/call as fallback)."""
        state = view.state
        if self._uses_chart(state):
            return self._preflop(view)
        me = view.position
        hole = view.hole_cards
        win_model = self._win_model(view)
        if self.settings.use_models:
            predict: ActionModelFn = _ModelAdapter(self.models()[0])
        else:
            predict = _uniform
        now = time.monotonic()
        stop = min(deadline - self.settings.safety_margin, now + self.settings.time_budget)
        result = search(state.copy(), me, hole, predict, win_model, stop, self.settings.search,
                        self.settings.abstraction, self.rng)
        self.last_result = result
        return result.action if state.can(result.action) else CALL

    def _win_model(self, view: MatchState) -> WinModel:
        """The showdown model of this hand (kept through the hand: our equities are reused)."""
        key = (view.hand_number, view.hole_cards)
        if self._hand is None or self._hand[0] != key:
            seed = self.rng.getrandbits(32)
            hole = view.hole_cards
            model: WinModel
            if self.settings.use_models:
                model = ModelWinModel(self.game, hole, self.models()[1], 1 - view.position, seed,
                                      range_showdowns=self.settings.range_showdowns,
                                      call_shrink=self.settings.call_shrink)
            else:
                model = RangeWinModel(self.game, hole, seed)
            self._hand = (key, model)
        return self._hand[1]

    def _preflop(self, view: MatchState) -> Action:
        state = view.state
        game = self.game
        me = view.position
        position = POSITIONS[0] if me == game.first_player[0] else POSITIONS[1]
        bb = game.big_blind
        faced = max(s for p, s in enumerate(state.spent) if p != me) / bb
        stack = min(game.stacks) / bb
        label = class_of(view.hole_cards)
        code = self.chart().action_code(label, position, faced, stack)
        legal = state.legal_actions()
        if self.settings.use_models:
            code = self._adapt_preflop(state, me, label, code, faced, legal.can_raise)
            if isinstance(code, Action):
                return code
        if code == "f":
            return FOLD if legal.can_fold else CALL
        if code == "c" or not legal.can_raise:
            return CALL
        if not game.is_nolimit:
            return LIMIT_RAISE
        if code == "a":
            return Action.raise_to(legal.max_raise_to)
        return state.clamp(Action.raise_to(int(round(self.chart().raise_multiple * state.max_spent))))

    def _adapt_preflop(self, state: HandState, me: int, label: str, code: str, faced_bb: float,
                       can_raise: bool) -> str | Action:
        """The chart's ``code``, or what :mod:`strategies.agent.preflop_adapt` makes of it."""
        adaptation = self.settings.preflop
        predict = _ModelAdapter(self.models()[0])
        if can_raise and code in "fc" and faced_bb <= 1.0 and self.game.is_nolimit:
            target = int(round(self.chart().raise_multiple * state.max_spent))
            steal = steal_action(state, me, target, predict, adaptation)
            if steal is not None:
                return steal
        if faced_bb > 1.0:
            return model_call(state, me, label, self.chart(), code, faced_bb, predict, adaptation)
        return code

    def observe(self, view: MatchState) -> None:
        """Both opponent models learn the finished hand."""
        if not (self.settings.use_models and self.settings.learn):
            return
        action_model, strength_model = self.models()
        action_model.learn_hand(view)
        strength_model.learn_hand(view)


class _ModelAdapter:
    """The action model as the search's callable, memoised by betting and board per decision."""

    def __init__(self, model: ActionModel) -> None:
        self.model = model
        self._cache: dict[tuple[str, tuple[int, ...]], Mapping[ActionClass, float]] = {}

    def __call__(self, state: HandState) -> Mapping[ActionClass, float]:
        key = (state.betting_string(), state.visible_board())
        probabilities = self._cache.get(key)
        if probabilities is None:
            raw = self.model.predict_proba_one(action_context(state))
            probabilities = {ActionClass(k): v for k, v in raw.items()}
            self._cache[key] = probabilities
        return probabilities


def parse_budget(text: str) -> float:
    """A registry argument ``SECONDS`` (the time budget of a decision); ValueError if not one."""
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"the argument is a time budget in seconds per decision, got {text!r}") from None
    if not 0.0 < seconds <= 60.0:
        raise ValueError(f"the time budget must be in (0, 60] seconds per decision, got {text!r}")
    return seconds


def miximax_factory(game: Game, seed: int | None = None, budget: str | None = None, *,
                    learn: bool = True) -> Strategy:
    """The registry factory: ``miximax`` or ``miximax:SECONDS`` (the time budget of a decision);
    ``learn=False`` keeps the models' prior (the ``miximax-static`` strategy)."""
    settings = AgentSettings(learn=learn)
    if budget is not None:
        settings = settings.model_copy(update={"time_budget": parse_budget(budget)})
    return MiximaxAgent(game, seed, settings)


__all__ = ["AgentSettings", "MiximaxAgent", "miximax_factory", "parse_budget", "plays"]
