"""The ``miximax`` agent: a pre-flop chart, then miximax search with adapting opponent models.

:class:`MiximaxAgent` (Kündig's thesis, ch. 6 and 7) plays heads-up games (and
three-player hold'em, below):

* **pre-flop** in hold'em (52 cards, two hole cards), the packaged chart
  (:mod:`pokerbot.strategies.agent.preflop`) keyed by position, the opponent's chips in and the
  effective stack, both in big blinds; ``r`` raises to ``raise_multiple`` times the bet
  faced, ``a`` goes all-in (the limit raise in limit games), ``f`` folds (checks when free);
  adapted to the opponent's action model by :mod:`pokerbot.strategies.agent.preflop_adapt` (steal
  from an opponent who folds too often,
  call wider against one who raises too often, tighter against one who raises rarely);
* **after the flop** (and pre-flop in other games), :mod:`pokerbot.strategies.agent.search` from the
  current state: the opponent's decisions weighted by the adapting action model, showdowns
  valued by the adapting hand-strength model (:class:`~strategies.agent.equity.ModelWinModel`)
  or, with ``use_models=False``, by a uniform action model and exact equity against a random
  hand (:class:`~strategies.agent.equity.RangeWinModel`);
* after every hand (:meth:`MiximaxAgent.observe`) both models learn the opponent's
  decisions and, at a showdown, its revealed hand strength.

**Action probabilities** (:meth:`MiximaxAgent.action_probabilities`): the agent is
deterministic given its generator's state (miximax takes the best root action; with a
temperature, maximix samples the soft-max of the root values, which is then the
distribution), so a view is answered by running the decision and putting the generator and
the hand's showdown model back as they were; the answer and the state after it are kept,
and a :meth:`MiximaxAgent.decide` for the same view that follows replays them instead of
searching again. One answer after the chart costs one search (``costly_probabilities``).

The models and their prior (:func:`models.prior.models_for_game`) are made at the first
decision or observation. Each decision searches until ``min(deadline - safety_margin,
now + time_budget)`` (seconds). All randomness comes from the constructor's seed.

**Three-player hold'em** (52 cards, two hole cards):

* **models**: one (action, hand-strength) pair per opponent, kept by its seat offset
  ``(position - ours) % 3``: seats rotate together from hand to hand (or stay fixed), so
  an offset always names the same opponent. Each pair learns only its opponent's decisions
  and showdowns (``learn_hand(view, opponent=position)``); every pair starts from the
  shipped three-player prior of the game's betting (:func:`multiway_models`);
* **after the flop**: the same search, each opponent's decisions weighted by its own action
  model and showdowns valued by the product of one
  :class:`~strategies.agent.equity.ModelWinModel` per opponent still in (their hands taken
  as independent); without models, :class:`~strategies.agent.equity.RangeWinModel` against
  every opponent still in;
* **pre-flop** the heads-up chart does not apply; :func:`multiway_preflop_code` applies the
  chart's own deep-stack equity rule (:mod:`pokerbot.strategies.agent.make_preflop_chart`) to the
  multiway pot: our equity is the product of the chart's equities against each opponent
  still in, each holding the top ``min(1, 1.5 / b)`` of hands for ``b`` big blinds put in
  (a random hand for a blind or a limp; with models, the top ``q`` for ``q`` its action
  model's raise probability at its last raise), and the thresholds scale by the fair share:
  ``2 / (k + 1)`` for ``k`` opponents. No steal rule.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pokerbot.models.abstraction import RAISE_CLASSES, ActionClass
from pokerbot.models.features import action_context
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.models.prior import load_default_prior, models_for_game
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.agent.abstraction import AbstractionSettings
from pokerbot.strategies.agent.equity import ModelWinModel, RangeWinModel
from pokerbot.strategies.agent.make_preflop_chart import (
    ALL_IN_EQUITY,
    MIN_RANGE,
    OPEN_EQUITY,
    RAISE_EQUITY,
    REALISATION,
)
from pokerbot.strategies.agent.preflop import POSITIONS, PreflopChart, class_of, load_chart
from pokerbot.strategies.agent.preflop_adapt import (
    COMBINATIONS,
    PreflopAdaptation,
    assumed_share,
    equity_against_top,
    model_call,
    steal_action,
)
from pokerbot.strategies.agent.search import ActionModelFn, ActionModels, SearchResult, SearchSettings, WinModel, search
from pokerbot.strategies.base import ActionProbabilities, Strategy


class AgentSettings(BaseModel):
    """Everything that configures the agent (sizes, sampling, pruning, time)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    abstraction: AbstractionSettings = AbstractionSettings()
    search: SearchSettings = SearchSettings()
    time_budget: float = Field(0.05, gt=0.0)
    """Most seconds spent on one decision. 0.05: every strength figure in
    ``docs/experiments.md`` was measured at it, and 0.4 s was no stronger there (Time budget)."""
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
    """Weight, in showdowns, of the raise-implied range in P(win) (:mod:`pokerbot.strategies.agent.equity`)."""
    call_shrink: float = Field(0.75, gt=0.0, le=1.0)
    """Share of its range the opponent keeps with each call of a raise (without ``range_from_model``)."""
    range_from_model: bool = True
    """Narrow the opponent's range by its action model's frequencies (each raise keeps the share
    that raises at least as big, each call of a raise the share that does not fold) rather than
    the fixed halving per raise and ``call_shrink`` per call."""
    preflop: PreflopAdaptation = PreflopAdaptation()
    """How pre-flop play adapts to the opponent model (used when ``use_models``)."""


def plays(game: Game) -> bool:
    """True for the games the agent plays: heads-up with the 52-card deck, or three players
    with the 52-card deck and two hole cards (hold'em)."""
    if game.num_players == 2:
        return game.is_standard_deck
    return game.num_players == 3 and game.is_standard_deck and game.num_hole_cards == 2


ModelPair = tuple[ActionModel, HandStrengthModel]


def multiway_models(game: Game, count: int) -> list[ModelPair]:
    """``count`` fresh (action, hand-strength) pairs for ``game``, from the shipped prior
    that fits it (:func:`models.prior.models_for_game`; uniform priors when none does)."""
    prior = load_default_prior(game)
    return [models_for_game(game, prior=prior) for _ in range(count)]


def multiway_preflop_code(state: HandState, me: int, equity: float, opponents: int, raise_multiple: float) -> str:
    """The chart's deep-stack rule (:mod:`pokerbot.strategies.agent.make_preflop_chart`) in a
    multiway pot: ``equity`` is our share of the pot against the ``opponents`` still in.

    With ``scale = 2 / (opponents + 1)`` (the fair share relative to heads-up), ``odds =
    to_call / (pot + to_call)``: facing an all-in, call (``c``) when ``equity >= odds``;
    else raise (``r``) when ``equity >= scale x 0.50`` unopened (nobody beyond the big
    blind), ``scale x 0.56`` facing a raise, and the raise to ``raise_multiple`` times the
    bet puts at most a third of the stack in; all-in (``a``) when it would put more and
    ``equity >= scale x 0.62``; call when ``0.85 x equity >= odds`` (always when checking
    is free); else fold (``f``). Limit games have no all-in and no stack limit on raising.
    Heads-up (``opponents = 1``) it is the chart's rule, with the real pot odds."""
    game = state.game
    to_call = state.max_spent - state.spent[me]
    odds = to_call / (state.pot + to_call) if to_call > 0 else 0.0
    scale = 2.0 / (opponents + 1)
    stack = game.stacks[me]
    if game.is_nolimit and state.max_spent >= stack:
        return "c" if equity >= odds else "f"
    big = game.is_nolimit and raise_multiple * state.max_spent > stack / 3.0
    unopened = state.max_spent <= game.big_blind
    threshold = (OPEN_EQUITY if unopened else RAISE_EQUITY) * scale
    if state.legal_actions().can_raise:
        if equity >= threshold and not big:
            return "r"
        if equity >= ALL_IN_EQUITY * scale and big:
            return "a"
    if REALISATION * equity >= odds:
        return "c"
    return "f"


def _uniform(state: HandState) -> Mapping[ActionClass, float]:
    return dict.fromkeys(ActionClass, 1.0)


class MiximaxAgent(Strategy):
    """Pre-flop chart plus miximax search with adapting opponent models (module docstring)."""

    name = "miximax"

    def __init__(self, game: Game, seed: int | None = None, settings: AgentSettings | None = None) -> None:
        super().__init__(game, seed)
        if not plays(game):
            raise ValueError(
                "the miximax agent plays hold'em with 2 players (52 cards) or 3 players (52 cards, 2 hole cards) only"
            )
        self.settings = settings or AgentSettings()
        self._chart: PreflopChart | None = None
        self._models: ModelPair | None = None
        self._seat_models: dict[int, ModelPair] | None = None
        """Multiway: the opponents' model pairs by seat offset (``(position - ours) % n``)."""
        self._hand: tuple[tuple[int, tuple[int, ...]], WinModel | Mapping[int, WinModel]] | None = None
        self.last_result: SearchResult | None = None
        """The last search's result (for benchmarks and logs)."""
        self._asked: tuple[Hashable, ActionProbabilities, Action, tuple[Any, ...]] | None = None
        """The last :meth:`action_probabilities` answer: view key, probabilities, action, state after."""

    # ---------------------------------------------------------------- parts
    def _uses_chart(self, state: HandState) -> bool:
        game = self.game
        return (
            self.settings.use_chart
            and state.round == 0
            and game.is_standard_deck
            and game.num_hole_cards == 2
            and game.num_rounds == 4
        )

    def chart(self) -> PreflopChart:
        """The pre-flop chart (loaded and validated on first use)."""
        if self._chart is None:
            self._chart = load_chart(self.settings.chart_path)
        return self._chart

    def models(self) -> tuple[ActionModel, HandStrengthModel]:
        """The (action, hand-strength) opponent models of a heads-up game (made on first use)."""
        if self._models is None:
            self._models = models_for_game(self.game)
        return self._models

    def opponent_models(self, me: int) -> dict[int, ModelPair]:
        """Each opponent position's (action, hand-strength) models in a hand where we are at
        position ``me``: heads-up the pair of :meth:`models`; multiway one pair per opponent,
        kept by seat offset (module docstring), made on first use (:func:`multiway_models`)."""
        n = self.game.num_players
        if n == 2:
            return {1 - me: self.models()}
        if self._seat_models is None:
            pairs = multiway_models(self.game, n - 1)
            self._seat_models = {offset: pairs[offset - 1] for offset in range(1, n)}
        return {p: self._seat_models[(p - me) % n] for p in range(n) if p != me}

    # ------------------------------------------------------------- decisions
    def decide(self, view: MatchState, deadline: float) -> Action:
        """Chart pre-flop, search otherwise; always a legal action (check/call as fallback).
        Right after :meth:`action_probabilities` for the same view, its decision is replayed."""
        asked, self._asked = self._asked, None
        if asked is not None and asked[0] == _view_key(view):
            self.rng.setstate(asked[3][0])
            self._hand, self.last_result = asked[3][1], asked[3][2]
            return asked[2]
        return self._decide(view, deadline)

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The distribution :meth:`decide` takes its action from in ``view`` (module docstring):
        one search (the time budget from now), the agent's state left as it was."""
        key = _view_key(view)
        if self._asked is not None and self._asked[0] == key:
            return dict(self._asked[1])
        before = (self.rng.getstate(), self._hand, self.last_result)
        action = self._decide(view, time.monotonic() + self.settings.time_budget + self.settings.safety_margin)
        after = (self.rng.getstate(), self._hand, self.last_result)
        self.rng.setstate(before[0])
        self._hand, self.last_result = before[1], before[2]
        probabilities = {action: 1.0}
        result = after[2]
        temperature = self.settings.search.temperature * self.game.big_blind
        if temperature > 0.0 and result is not None and result.values and not self._uses_chart(view.state):
            top = max(value for _, value in result.values)
            probabilities = {}
            for branch, value in result.values:
                weight = math.exp((value - top) / temperature)
                probabilities[branch.action] = probabilities.get(branch.action, 0.0) + weight
            total = sum(probabilities.values())
            probabilities = {a: w / total for a, w in probabilities.items()}
        self._asked = (key, probabilities, action, after)
        return dict(probabilities)

    def costly_probabilities(self, view: MatchState) -> bool:
        """True where a search decides (everywhere but the pre-flop chart)."""
        return not self._uses_chart(view.state)

    def probability_key(self, view: MatchState) -> Hashable:
        """The starting-hand class where the pre-flop chart decides, else the hole cards."""
        return class_of(view.hole_cards) if self._uses_chart(view.state) else view.hole_cards

    def _decide(self, view: MatchState, deadline: float) -> Action:
        state = view.state
        if self._uses_chart(state):
            if self.game.num_players == 2:
                return self._preflop(view)
            return self._multiway_preflop(view)
        me = view.position
        hole = view.hole_cards
        win_model = self._win_model(view)
        predict: ActionModels
        if not self.settings.use_models:
            predict = _uniform
        elif self.game.num_players == 2:
            predict = _ModelAdapter(self.models()[0])
        else:
            predict = {p: _ModelAdapter(pair[0]) for p, pair in self.opponent_models(me).items()}
        now = time.monotonic()
        stop = min(deadline - self.settings.safety_margin, now + self.settings.time_budget)
        result = search(
            state.copy(), me, hole, predict, win_model, stop, self.settings.search, self.settings.abstraction, self.rng
        )
        self.last_result = result
        return result.action if state.can(result.action) else CALL

    def _win_model(self, view: MatchState) -> WinModel | Mapping[int, WinModel]:
        """The showdown model of this hand (kept through the hand: our equities are reused);
        multiway with models, one per opponent position (the search multiplies them)."""
        key = (view.hand_number, view.hole_cards)
        if self._hand is None or self._hand[0] != key:
            seed = self.rng.getrandbits(32)
            hole = view.hole_cards
            model: WinModel | Mapping[int, WinModel]
            if not self.settings.use_models:
                model = RangeWinModel(self.game, hole, seed)
            elif self.game.num_players == 2:
                model = ModelWinModel(
                    self.game,
                    hole,
                    self.models()[1],
                    1 - view.position,
                    seed,
                    range_showdowns=self.settings.range_showdowns,
                    call_shrink=self.settings.call_shrink,
                    action_model=self._range_predictor(self.models()[0]),
                )
            else:
                per_opponent: dict[int, ModelWinModel] = {}
                for p, pair in self.opponent_models(view.position).items():
                    per_opponent[p] = ModelWinModel(
                        self.game,
                        hole,
                        pair[1],
                        p,
                        seed,
                        range_showdowns=self.settings.range_showdowns,
                        call_shrink=self.settings.call_shrink,
                        action_model=self._range_predictor(pair[0]),
                    )
                first = next(iter(per_opponent.values()))
                for other in per_opponent.values():
                    if other is not first:
                        other.share_equities(first)
                model = per_opponent
            self._hand = (key, model)
        return self._hand[1]

    def _range_predictor(self, model: ActionModel) -> ActionModelFn | None:
        """The action model that narrows the opponent's range in P(win), if the settings say so."""
        return _ModelAdapter(model) if self.settings.range_from_model else None

    def _multiway_preflop(self, view: MatchState) -> Action:
        """Pre-flop with two or more opponents: :func:`multiway_preflop_code` on the product
        of the chart's equities against each opponent's range (module docstring)."""
        state = view.state
        game = self.game
        me = view.position
        chart = self.chart()
        label = class_of(view.hole_cards)
        live = [p for p in range(game.num_players) if p != me and not state.folded[p]]
        models = self.opponent_models(me) if self.settings.use_models and self.settings.preflop.widen else {}
        equity = 1.0
        for p in live:
            share = self._range_share(state, p, models.get(p))
            equity *= chart.equity(label) if share >= 1.0 else equity_against_top(chart, label, share)
        code = multiway_preflop_code(state, me, equity, len(live), chart.raise_multiple)
        return self._chart_action(state, code)

    def _range_share(self, state: HandState, player: int, models: ModelPair | None) -> float:
        """The share of holdings ``player`` is taken to hold pre-flop: its action model's
        raise probability at its last raise (with ``models``), else the chart's assumption
        for its chips in (all hands for a blind or a limp, at least ``MIN_RANGE`` otherwise)."""
        history = state.history()
        last = max(
            (i for i, (_r, actor, action) in enumerate(history) if actor == player and action.kind is ActionKind.RAISE),
            default=None,
        )
        if models is not None and last is not None:
            before = HandState(state.game, None, state.board_cards)
            for _round, _actor, action in history[:last]:
                before.apply(action)
            probabilities = _ModelAdapter(models[0])(before)
            total = sum(probabilities.values()) or 1.0
            raised = sum(probabilities.get(c, 0.0) for c in RAISE_CLASSES) / total
            return min(1.0, max(raised, 1.0 / COMBINATIONS))
        faced = state.spent[player] / state.game.big_blind
        if faced <= 1.0:
            return 1.0
        return max(MIN_RANGE, assumed_share(faced))

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
        return self._chart_action(state, code)

    def _chart_action(self, state: HandState, code: str) -> Action:
        """The legal action of a chart code: ``f`` fold (check when free), ``c`` check or call,
        ``a`` all-in, ``r`` raise to ``raise_multiple`` times the bet faced (limit: the raise)."""
        legal = state.legal_actions()
        if code == "f":
            return FOLD if legal.can_fold else CALL
        if code == "c" or not legal.can_raise:
            return CALL
        if not self.game.is_nolimit:
            return LIMIT_RAISE
        if code == "a":
            return Action.raise_to(legal.max_raise_to)
        return state.clamp(Action.raise_to(int(round(self.chart().raise_multiple * state.max_spent))))

    def _adapt_preflop(
        self, state: HandState, me: int, label: str, code: str, faced_bb: float, can_raise: bool
    ) -> str | Action:
        """The chart's ``code``, or what :mod:`pokerbot.strategies.agent.preflop_adapt` makes of it."""
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
        if self.game.num_players == 2:
            action_model, strength_model = self.models()
            action_model.learn_hand(view)
            strength_model.learn_hand(view)
            return
        for position, (action_model, strength_model) in self.opponent_models(view.position).items():
            action_model.learn_hand(view, opponent=position)
            strength_model.learn_hand(view, opponent=position)


def _view_key(view: MatchState) -> Hashable:
    """What identifies a decision: hand, seat, cards and betting."""
    state = view.state
    return (view.hand_number, view.position, view.hole_cards, state.visible_board(), state.betting_string())


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


def miximax_factory(game: Game, seed: int | None = None, budget: str | None = None, *, learn: bool = True) -> Strategy:
    """The registry factory: ``miximax`` or ``miximax:SECONDS`` (the time budget of a decision);
    ``learn=False`` keeps the models' prior (the ``miximax-static`` strategy)."""
    settings = AgentSettings(learn=learn)
    if budget is not None:
        settings = settings.model_copy(update={"time_budget": parse_budget(budget)})
    return MiximaxAgent(game, seed, settings)


__all__ = [
    "AgentSettings",
    "MiximaxAgent",
    "miximax_factory",
    "multiway_models",
    "multiway_preflop_code",
    "parse_budget",
    "plays",
]
