"""The ``miximax`` agent: a pre-flop policy, then miximax search with adapting opponent models.

:class:`MiximaxAgent` (Kündig's thesis, ch. 6 and 7) plays hold'em with two or three
players (52 cards; three players: two hole cards). It keeps one pair of opponent models
(:class:`~pokerbot.models.opponent.OpponentModels`: an action model and a
showdown model, any models that follow the protocols there; by default the adapting
Hoeffding-tree models) per opponent, by seat offset ``(position - ours) % players``: seats
rotate together from hand to hand (or stay fixed), so an offset always names the same
opponent. Heads-up is the one-opponent case of the same code:

* **pre-flop** in hold'em, :class:`~pokerbot.strategies.miximax.preflop_policy.PreflopPolicy`
  (the packaged chart against one opponent, adapted to its action model; the chart's
  equity rule on the whole pot against several);
* **after the flop** (and pre-flop in other games, or with ``use_chart=False``),
  :mod:`pokerbot.strategies.miximax.search` from the current state: each opponent's decisions
  weighted by its own action model, showdowns valued by the product of one
  :class:`~pokerbot.strategies.miximax.equity.ModelWinModel` per opponent still in (their
  hands taken as independent; with one opponent, its model alone) or, with
  ``use_models=False``, by a uniform action model and exact equity against random hands
  (:class:`~pokerbot.strategies.miximax.equity.RangeWinModel`);
* after every hand (:meth:`MiximaxAgent.observe`) each opponent's models learn its
  decisions and, at a showdown, its revealed hand strength.

**Action probabilities** (:meth:`MiximaxAgent.action_probabilities`): the agent is
deterministic given its generator's state (miximax takes the best root action; with a
temperature, maximix samples the soft-max of the root values, which is then the
distribution), so a view is answered by running the decision and putting the generator and
the hand's showdown model back as they were; the answer and the state after it are kept,
and a :meth:`MiximaxAgent.decide` for the same view that follows replays them instead of
searching again. One answer after the chart costs one search (``costly_probabilities``).

The models (from their prior, :func:`~pokerbot.models.opponent.hoeffding_models`)
are made at the first decision or observation. Each decision searches until
``min(deadline - margin, now + time_budget)`` (seconds), ``margin`` the smaller of
``safety_margin`` and :data:`MARGIN_SHARE` of the time left to the deadline: under a
competition's 100 ms response limit the client gives the strategy about 45 ms, and a fixed
0.05 s margin would leave no search at all; with a node budget
(``search.node_budget``, ``miximax:2000nodes``) it searches until the budget instead and never
reads the clock, so the same seed plays the same match on any machine and under any load (the
caller's deadline is then not watched: pick a budget well inside it). All randomness comes from
the constructor's seed.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pokerbot.models.action_classes import ActionClass
from pokerbot.models.opponent import (
    ActionModelFrequencies,
    Frequencies,
    OpponentActionModel,
    OpponentModelFactory,
    OpponentModels,
    hoeffding_models,
)
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.analysis.preflop import hand_class
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilities, Strategy, copied_generator
from pokerbot.strategies.miximax.arguments import parse_budget, parse_node_budget, parse_settings
from pokerbot.strategies.miximax.equity import ModelWinModel, RangeWinModel
from pokerbot.strategies.miximax.preflop import PreflopChart
from pokerbot.strategies.miximax.preflop_policy import PreflopAdaptation, PreflopPolicy
from pokerbot.strategies.miximax.search import (
    ActionModels,
    SearchResult,
    SearchSettings,
    WinModel,
    search,
)
from pokerbot.strategies.miximax.search_actions import AbstractionSettings

MARGIN_SHARE = 0.2
"""Share of the time left to the caller's deadline kept free at most (the search overshoots
its stop by about 3 ms at worst, docs/agent.md; the rest answers and sends)."""


class AgentSettings(BaseModel):
    """Everything that configures the agent (sizes, sampling, pruning, time)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    abstraction: AbstractionSettings = AbstractionSettings()
    search: SearchSettings = SearchSettings()
    time_budget: float = Field(0.05, gt=0.0)
    """Most seconds spent on one decision. 0.05: every strength figure in
    ``docs/experiments.md`` was measured at it, and 0.4 s was no stronger there (Time budget)."""
    safety_margin: float = Field(0.05, ge=0.0)
    """Most seconds kept free before the caller's deadline (less when the deadline is near:
    :data:`MARGIN_SHARE`)."""
    use_models: bool = True
    """False: uniform opponent actions and equity against a random hand (no learning)."""
    learn: bool = True
    """False: the models keep their prior (nothing learnt from the hands played)."""
    use_chart: bool = True
    """False: search pre-flop as well (slow in hold'em)."""
    chart_path: Path | None = None
    """A chart file other than the packaged one."""
    range_showdowns: float = Field(30.0, ge=0.0)
    """Weight, in showdowns, of the raise-implied range in P(win) (:mod:`pokerbot.strategies.miximax.equity`)."""
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


def _uniform(state: HandState) -> Mapping[ActionClass, float]:
    return dict.fromkeys(ActionClass, 1.0)


class MiximaxAgent(Strategy):
    """Pre-flop policy plus miximax search with adapting opponent models (module docstring).

    ``opponent_models`` makes the opponents' models (default:
    :func:`~pokerbot.models.opponent.hoeffding_models`).
    """

    name = "miximax"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        settings: AgentSettings | None = None,
        opponent_models: OpponentModelFactory | None = None,
    ) -> None:
        super().__init__(game, seed)
        if not plays(game):
            raise ValueError(
                "the miximax agent plays hold'em with 2 players (52 cards) or 3 players (52 cards, 2 hole cards) only"
            )
        self.settings = settings or AgentSettings()
        self.preflop = PreflopPolicy(game, self.settings.preflop, self.settings.chart_path)
        self._make_models = opponent_models or hoeffding_models
        self._models: dict[int, OpponentModels] | None = None
        """The opponents' models by seat offset (``(position - ours) % players``)."""
        self._hand: tuple[tuple[int, tuple[int, ...]], WinModel | Mapping[int, WinModel]] | None = None
        self.last_result: SearchResult | None = None
        """The last search's result (for benchmarks and logs)."""
        self._asked: tuple[Hashable, ActionProbabilities, Action, tuple[Any, ...]] | None = None
        """The last :meth:`action_probabilities` answer: view key, probabilities, action, state after."""

    # ---------------------------------------------------------------- parts
    def _uses_chart(self, state: HandState) -> bool:
        return self.settings.use_chart and self.preflop.applies(state)

    def chart(self) -> PreflopChart:
        """The pre-flop chart (loaded and validated on first use)."""
        return self.preflop.chart()

    def prepare(self) -> None:
        """Load the pre-flop chart and make the opponents' models now (about 0.15 s, else
        paid by the first decision of the match)."""
        if self.settings.use_chart:
            self.chart()
        self.opponent_models(0)

    def opponent_models(self, me: int) -> dict[int, OpponentModels]:
        """Each opponent position's models in a hand where we are at position ``me`` (kept by
        seat offset, module docstring; made on first use)."""
        n = self.game.num_players
        if self._models is None:
            made = self._make_models(self.game, n - 1)
            self._models = {offset: made[offset - 1] for offset in range(1, n)}
        return {p: self._models[(p - me) % n] for p in range(n) if p != me}

    def _predictors(self, me: int) -> dict[int, Frequencies]:
        """Each opponent position's action model as the search's callable (for one decision)."""
        return {p: ActionModelFrequencies(models.action) for p, models in self.opponent_models(me).items()}

    def snapshot(self) -> MiximaxAgent:
        """A copy as the agent stands (:meth:`Strategy.snapshot`) that shares what never
        changes within a hand rather than copying it: the game, the pre-flop chart, the
        opponents' models (they learn only in :meth:`observe`; a snapshot is for the hand
        under way) and the showdown models' lists of holdings."""
        memo = self.snapshot_memo()
        shared: list[Any] = [self.preflop]
        for models in (self._models or {}).values():
            shared += [models, models.action, models.showdown]
        if self._hand is not None:
            win_models = self._hand[1].values() if isinstance(self._hand[1], Mapping) else [self._hand[1]]
            for model in win_models:
                if isinstance(model, RangeWinModel):
                    shared += model.read_only_parts()
                    memo[id(model.rng)] = copied_generator(model.rng)
        memo.update({id(item): item for item in shared})
        return copy.deepcopy(self, memo)

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
        return hand_class(view.hole_cards) if self._uses_chart(view.state) else view.hole_cards

    def _decide(self, view: MatchState, deadline: float) -> Action:
        state = view.state
        me = view.position
        use_models = self.settings.use_models
        if self._uses_chart(state):
            others = [p for p in range(self.game.num_players) if p != me]
            predictors: Mapping[int, Frequencies | None] = self._predictors(me) if use_models else dict.fromkeys(others)
            return self.preflop.decide(view, predictors)
        win_model = self._win_model(view)
        predict: ActionModels = self._predictors(me) if use_models else _uniform
        if self.settings.search.node_budget is None:
            now = time.monotonic()
            margin = min(self.settings.safety_margin, MARGIN_SHARE * max(0.0, deadline - now))
            stop = min(deadline - margin, now + self.settings.time_budget)
        else:
            stop = math.inf  # the node budget alone ends the search: reproducible (module docstring)
        result = search(
            state.copy(),
            me,
            view.hole_cards,
            predict,
            win_model,
            stop,
            self.settings.search,
            self.settings.abstraction,
            self.rng,
        )
        self.last_result = result
        return result.action if state.can(result.action) else CALL

    def _win_model(self, view: MatchState) -> WinModel | Mapping[int, WinModel]:
        """The showdown model of this hand (kept through the hand: our equities are reused):
        with models, one per opponent position (the search multiplies them)."""
        key = (view.hand_number, view.hole_cards)
        if self._hand is None or self._hand[0] != key:
            seed = self.rng.getrandbits(32)
            hole = view.hole_cards
            model: WinModel | Mapping[int, WinModel]
            if not self.settings.use_models:
                model = RangeWinModel(self.game, hole, seed)
            else:
                per_opponent: dict[int, ModelWinModel] = {}
                for p, models in self.opponent_models(view.position).items():
                    per_opponent[p] = ModelWinModel(
                        self.game,
                        hole,
                        models.showdown,
                        p,
                        seed,
                        range_showdowns=self.settings.range_showdowns,
                        call_shrink=self.settings.call_shrink,
                        action_model=self._range_predictor(models.action),
                    )
                first = next(iter(per_opponent.values()))
                for other in per_opponent.values():
                    if other is not first:
                        other.share_equities(first)
                model = per_opponent
            self._hand = (key, model)
        return self._hand[1]

    def _range_predictor(self, model: OpponentActionModel) -> Frequencies | None:
        """The action model that narrows the opponent's range in P(win), if the settings say so."""
        return ActionModelFrequencies(model) if self.settings.range_from_model else None

    def observe(self, view: MatchState) -> None:
        """Each opponent's models learn what it did (and showed) in the finished hand."""
        if not (self.settings.use_models and self.settings.learn):
            return
        for position, models in self.opponent_models(view.position).items():
            models.learn_hand(view, position)


def _view_key(view: MatchState) -> Hashable:
    """What identifies a decision: hand, seat, cards and betting."""
    state = view.state
    return (view.hand_number, view.position, view.hole_cards, state.visible_board(), state.betting_string())


def miximax_factory(
    game: Game, seed: int | None = None, argument: str | None = None, *, learn: bool = True
) -> Strategy:
    """The registry factory: ``miximax``, ``miximax:SECONDS`` (the time budget of a decision),
    ``miximax:NODESnodes`` (a node budget: reproducible play) or
    ``miximax:[BUDGET,]KEY=VALUE,...`` (settings, :func:`parse_settings`); ``learn=False``
    keeps the models' prior (the ``miximax-static`` strategy)."""
    budget, updates = parse_settings(argument) if argument is not None else (None, {})
    fields: dict[str, Any] = {"learn": learn, **updates}
    if budget is not None:
        fields["time_budget"] = budget
    try:
        settings = AgentSettings(**fields)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}" for problem in error.errors()
        )
        raise ValueError(f"bad setting ({problems})") from None
    return MiximaxAgent(game, seed, settings)


__all__ = [
    "AgentSettings",
    "MiximaxAgent",
    "miximax_factory",
    "parse_budget",
    "parse_node_budget",
    "parse_settings",
    "plays",
]
