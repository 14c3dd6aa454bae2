"""Pre-flop play of the hold'em agent: one policy object, with its rules and its constants.

:class:`PreflopPolicy` decides every pre-flop action of the agent in hold'em (52 cards, two
hole cards, four rounds). The rule behind it is the **deep-stack equity rule** below, with
the constants of this module (the chart generator,
``bot/experiments/make_preflop_chart.py``, builds the heads-up chart from the same constants):

* a player who has put ``b`` big blinds in is taken to hold the top
  ``q(b) = min(1, RANGE_SCALE / b)`` share of holdings (at least ``MIN_RANGE``; a blind or a
  limp: every holding);
* with ``e`` our equity against those ranges, we raise (to ``raise_multiple`` times the bet
  faced) when ``e >= RAISE_EQUITY`` (``OPEN_EQUITY`` unopened), go all-in instead when the
  raise would put more than a third of the stack in and ``e >= ALL_IN_EQUITY``, call when
  ``REALISATION x e`` pays the pot odds (``e`` alone against an all-in), else fold (check
  when free).

**One opponent** (heads-up): the answer is looked up in the packaged chart
(:mod:`pokerbot.strategies.miximax.preflop`), which holds the rule's answers computed offline
with exact equities, and the heads-up push/fold equilibrium for short stacks, by position,
bet faced and effective stack. With an action model the answer adapts (:class:`PreflopAdaptation`):

* **steal**: when nobody has raised beyond the blinds and the chart would fold or just call,
  raise anyway if the opponent folds to that raise often enough for a pure bluff to pay,
  ``P(fold) >= risk / (risk + pot) + steal_margin`` (``risk``: the chips the raise adds,
  ``pot``: the chips in before it; ``P(fold)``: the model's prediction after our raise);
* **calls against the raising range the model sees**: facing a raise, the model's
  probability ``q`` that the opponent raises at least as big as it did (by action class, at
  the state before its raise) replaces the chart's ``q(b)``: the chart's call rule,
  ``call_factor x equity(our class vs the top q) >= to_call / (pot + to_call)``, then turns
  a chart fold into a call (all-in when the raise committed a third of our stack) against a
  wider raiser, a chart call into a fold against a narrower one. A call that puts us
  all-in is not discounted by ``call_factor`` (no play follows).

**Several opponents**: the rule is applied to the pot directly (:func:`multiway_code`): our
equity is the product of the chart's equities against each opponent still in (with an
action model, its range is the top ``q`` for ``q`` the model's raise probability at its last
raise), and the thresholds scale by the fair share ``2 / (k + 1)`` for ``k`` opponents. No
steal rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pokerbot.models.action_classes import RAISE_CLASSES, ActionClass, classify
from pokerbot.models.opponent import Frequencies
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.analysis.preflop import class_combos, hand_class
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.miximax.preflop import POSITIONS, PreflopChart, load_chart

RANGE_SCALE = 1.5
"""A player with ``b`` big blinds in holds the top ``min(1, RANGE_SCALE / b)`` of holdings."""
MIN_RANGE = 0.02
"""The narrowest range assumed for a raiser (a share of holdings)."""
RAISE_MULTIPLE = 3.0
"""A raise goes to this many times the bet faced (the chart file records the one it used)."""
OPEN_EQUITY = 0.50
"""Equity (against the assumed ranges) to raise when nobody has raised beyond the blinds."""
RAISE_EQUITY = 0.56
"""Equity to raise facing a raise."""
ALL_IN_EQUITY = 0.62
"""Equity to go all-in when a raise would put more than a third of the stack in."""
REALISATION = 0.85
"""The share of its equity a calling hand is taken to realise when play goes on."""

COMBINATIONS = 1326
"""Two-card combinations of a 52-card deck."""


@dataclass(frozen=True)
class PreflopAdaptation:
    """Settings of the two heads-up rules (module docstring). ``steal_margin`` is a
    probability; ``widen`` also lets the multiway rule read the opponents' ranges off
    their models."""

    steal: bool = True
    steal_margin: float = 0.05
    widen: bool = True
    call_factor: float = REALISATION
    commit_share: float = 1 / 3


@cache
def _ranked(classes: tuple[str, ...], equity_vs_random: tuple[float, ...]) -> tuple[tuple[int, int], ...]:
    """(class index, combinations) by decreasing equity against a random hand."""
    order = sorted(range(len(classes)), key=lambda i: -equity_vs_random[i])
    return tuple((i, len(class_combos(classes[i]))) for i in order)


def equity_against_top(chart: PreflopChart, label: str, share: float) -> float:
    """All-in equity of class ``label`` against the top ``share`` (0..1] of combinations
    (ranked by equity against a random hand; the last class taken in part)."""
    if not 0.0 < share <= 1.0:
        raise ValueError(f"share must be in (0, 1], got {share}")
    mine = chart.index(label)
    wanted = share * COMBINATIONS
    total = weighted = 0.0
    for index, combos in _ranked(chart.classes, chart.equity_vs_random):
        take = min(float(combos), wanted - total)
        if take <= 0:
            break
        total += take
        weighted += take * chart.equity_matrix[mine][index]
    return weighted / total


def assumed_share(faced_bb: float) -> float:
    """The chart's assumed raising range for ``faced_bb`` big blinds put in (as a share)."""
    return min(1.0, RANGE_SCALE / max(faced_bb, 1e-9))


def steal_action(
    state: HandState, me: int, raise_to: int, predict: Frequencies, settings: PreflopAdaptation
) -> Action | None:
    """The raise to ``raise_to`` chips if the steal rule says the opponent folds enough, else None."""
    if not settings.steal:
        return None
    action = state.clamp(Action.raise_to(raise_to))
    risk = action.size - state.spent[me]
    pot = state.pot
    after = state.copy()
    after.apply(action)
    if after.finished or after.current_player is None:
        return None
    fold = predict(after).get(ActionClass.FOLD, 0.0)
    total = sum(predict(after).values()) or 1.0
    return action if fold / total >= risk / (risk + pot) + settings.steal_margin else None


def raise_probability(state: HandState, predict: Frequencies) -> float | None:
    """The model's probability that the opponent raises at least as big as it just did, at
    the state before its last action (None when the last action was not a raise).

    "At least as big" by action class (:func:`models.action_classes.classify`: half pot, pot,
    all-in): a 200-big-blind shove is made by the all-in part of a range, not by the share
    of hands that would open for three big blinds."""
    history = state.history()
    if not history or history[-1][2].kind is not ActionKind.RAISE:
        return None
    before = HandState(state.game, state.hole_cards, state.board_cards)
    for _round, _actor, action in history[:-1]:
        before.apply(action)
    made = classify(before, history[-1][2])
    probabilities = predict(before)
    total = sum(probabilities.values()) or 1.0
    return sum(probabilities.get(c, 0.0) for c in RAISE_CLASSES if c >= made) / total


def model_call(
    state: HandState,
    me: int,
    label: str,
    chart: PreflopChart,
    code: str,
    faced_bb: float,
    predict: Frequencies,
    settings: PreflopAdaptation,
) -> str:
    """The chart's ``code`` facing a raise, re-decided with the raising range the model implies.

    Only ``f`` and ``c`` are re-decided (raises stay): with ``q`` the model's raise
    probability, a fold becomes a call (or all-in) when ``q`` is wider than the chart assumed
    and the call rule passes against the top-``q`` range; a call becomes a fold when ``q`` is
    narrower and the rule fails. ``call_factor`` discounts equity for the disadvantage of
    playing on after the flop; a call that puts us all-in has no later play and is not discounted.
    """
    if not settings.widen or code not in "fc":
        return code
    q = raise_probability(state, predict)
    to_call = state.max_spent - state.spent[me]
    if q is None or to_call <= 0:
        return code
    assumed = assumed_share(faced_bb)
    if (code == "f" and q <= assumed) or (code == "c" and q >= assumed):
        return code
    stack = state.game.stacks[me]
    factor = 1.0 if state.max_spent >= stack else settings.call_factor
    equity = equity_against_top(chart, label, max(q, 1.0 / COMBINATIONS))
    if factor * equity < to_call / (state.pot + to_call):
        return "f"
    return "a" if code == "f" and state.max_spent >= settings.commit_share * stack else "c"


def multiway_code(state: HandState, me: int, equity: float, opponents: int, raise_multiple: float) -> str:
    """The deep-stack rule (module docstring) in a pot with ``opponents`` opponents still in:
    ``equity`` is our share of the pot against them; the chart code (``f``, ``c``, ``r``, ``a``).

    With ``scale = 2 / (opponents + 1)`` (the fair share relative to heads-up), ``odds =
    to_call / (pot + to_call)``: facing an all-in, call (``c``) when ``equity >= odds``;
    else raise (``r``) when ``equity >= scale x OPEN_EQUITY`` unopened (nobody beyond the big
    blind), ``scale x RAISE_EQUITY`` facing a raise, and the raise to ``raise_multiple``
    times the bet puts at most a third of the stack in; all-in (``a``) when it would put
    more and ``equity >= scale x ALL_IN_EQUITY``; call when ``REALISATION x equity >= odds``
    (always when checking is free); else fold (``f``). Limit games have no all-in and no
    stack limit on raising. Heads-up (``opponents = 1``) it is the chart's rule, with the
    real pot odds."""
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


class PreflopPolicy:
    """Every pre-flop action of the agent in hold'em (module docstring).

    ``adaptation`` sets the two model-driven rules; ``chart_path`` names a chart file other
    than the packaged one (loaded and validated on first use).
    """

    def __init__(self, game: Game, adaptation: PreflopAdaptation, chart_path: Path | None = None) -> None:
        self.game = game
        self.adaptation = adaptation
        self.chart_path = chart_path
        self._chart: PreflopChart | None = None

    def applies(self, state: HandState) -> bool:
        """True where the policy decides: the first round of hold'em (52 cards, 2 hole cards)."""
        game = self.game
        return state.round == 0 and game.is_standard_deck and game.num_hole_cards == 2 and game.num_rounds == 4

    def chart(self) -> PreflopChart:
        """The heads-up chart (loaded and validated on first use)."""
        if self._chart is None:
            self._chart = load_chart(self.chart_path)
        return self._chart

    def decide(self, view: MatchState, opponents: Mapping[int, Frequencies | None]) -> Action:
        """The action in ``view``: ``opponents`` maps each opponent position to its action
        model, or to None when the agent plays without models."""
        if len(opponents) == 1:
            return self._heads_up(view, next(iter(opponents.values())))
        return self._multiway(view, opponents)

    def action(self, state: HandState, code: str) -> Action:
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

    def _heads_up(self, view: MatchState, predict: Frequencies | None) -> Action:
        """The chart's code for our position, bet faced and stack, adapted by the model."""
        state = view.state
        game = self.game
        me = view.position
        position = POSITIONS[0] if me == game.first_player[0] else POSITIONS[1]
        bb = game.big_blind
        faced = max(s for p, s in enumerate(state.spent) if p != me) / bb
        stack = min(game.stacks) / bb
        label = hand_class(view.hole_cards)
        chart = self.chart()
        code = chart.action_code(label, position, faced, stack)
        if predict is not None:
            adaptation = self.adaptation
            if state.legal_actions().can_raise and code in "fc" and faced <= 1.0 and game.is_nolimit:
                target = int(round(chart.raise_multiple * state.max_spent))
                steal = steal_action(state, me, target, predict, adaptation)
                if steal is not None:
                    return steal
            if faced > 1.0:
                code = model_call(state, me, label, chart, code, faced, predict, adaptation)
        return self.action(state, code)

    def _multiway(self, view: MatchState, opponents: Mapping[int, Frequencies | None]) -> Action:
        """:func:`multiway_code` on the product of the chart's equities against each range."""
        state = view.state
        me = view.position
        chart = self.chart()
        label = hand_class(view.hole_cards)
        equity = 1.0
        live = [p for p in opponents if not state.folded[p]]
        for p in sorted(live):
            predict = opponents[p] if self.adaptation.widen else None
            share = self._range_share(state, p, predict)
            equity *= chart.equity(label) if share >= 1.0 else equity_against_top(chart, label, share)
        code = multiway_code(state, me, equity, len(live), chart.raise_multiple)
        return self.action(state, code)

    @staticmethod
    def _range_share(state: HandState, player: int, predict: Frequencies | None) -> float:
        """The share of holdings ``player`` is taken to hold: its action model's raise
        probability at its last raise (with a model), else the rule's ``q(b)`` for its chips in."""
        history = state.history()
        last = max(
            (i for i, (_r, actor, action) in enumerate(history) if actor == player and action.kind is ActionKind.RAISE),
            default=None,
        )
        if predict is not None and last is not None:
            before = HandState(state.game, None, state.board_cards)
            for _round, _actor, action in history[:last]:
                before.apply(action)
            probabilities = predict(before)
            total = sum(probabilities.values()) or 1.0
            raised = sum(probabilities.get(c, 0.0) for c in RAISE_CLASSES) / total
            return min(1.0, max(raised, 1.0 / COMBINATIONS))
        faced = state.spent[player] / state.game.big_blind
        if faced <= 1.0:
            return 1.0
        return max(MIN_RANGE, assumed_share(faced))


__all__ = [
    "ALL_IN_EQUITY",
    "MIN_RANGE",
    "OPEN_EQUITY",
    "RAISE_EQUITY",
    "RAISE_MULTIPLE",
    "RANGE_SCALE",
    "REALISATION",
    "PreflopAdaptation",
    "PreflopPolicy",
    "assumed_share",
    "equity_against_top",
    "model_call",
    "multiway_code",
    "raise_probability",
    "steal_action",
]
