"""Game contexts as feature dictionaries, and finished hands as training rows.

**Action context** (:func:`action_context`): the situation of the player to act, with the
thesis' attributes (ch. 4.4, listing 5.2) plus no-limit ones. Every value is a number:

========================  ===============================================================
``stage``                 betting round: 0 pre-flop, 1 flop, 2 turn, 3 river
``pot``                   chips in the pot before the decision, in big blinds
``bets_actor``            bets and raises by the acting player in this round
``bets_other``            bets and raises by the other players in this round
``last_actor``            class (:class:`~models.action_classes.ActionClass` value) of the
                          acting player's previous action in the hand, -1 for none
``last_other``            class of the most recent action by another player, -1 for none
``button``                1 when the acting player is on the button (last position)
``face_cards``            board cards ranked J, Q, K or A
``suited``                the most board cards of one suit
``connected``             the most distinct board ranks within five consecutive ranks
``round_actions``         actions so far in this round (the thesis' action count)
``to_call``               chips to call / pot (0 when checking is free)
``bet_size``              the last bet or raise of this round: its raise-by amount / the pot
                          it was made into (pot plus the raiser's call), 0 without one
``spr``                   stack-to-pot ratio: the effective remaining stack (the smaller of
                          the actor's and the largest other unfolded player's; 0 facing
                          an all-in) / pot, capped at :data:`SPR_CAP`
========================  ===============================================================

plus :data:`LEGAL_KEY` (``"legal"``): the bit mask of legal action classes. It is not a
feature: models use it to give probability only to legal classes.

**Showdown context** (:func:`showdown_context`), the context of a hand-strength prediction
for one player at a showdown: ``pot``, ``bets_actor`` / ``bets_other`` (bets and raises in
the whole hand), ``late_bets_actor`` (in the last round with an action), ``last_actor``,
``last_other``, ``button``, the board texture, and ``end_stage`` (the round of the last
action: below 3 when the hand was all-in early). Stage is left out, as in the thesis: a
showdown is always on the river board.

**Rows**: :func:`action_rows` turns a finished hand, as one player (the *observer*) saw it,
into one ``(context, class)`` row per decision of the other players; :func:`showdown_rows`
gives the revealed hand strength of each other player at a showdown (label: the bin of
:func:`~pokerbot.protocol.analysis.strength.hand_strength`, percentile rank on the final board, in
:data:`~models.handstrength.STRENGTH_BINS` bins). :func:`log_line_rows` (a ``STATE`` line)
and :func:`logged_hand_rows` (a parsed one) do both for an ACPC log line from any player's
view (the log holds every card).

**Quantisation** (:func:`quantise`): counts are capped, ratios rounded to the nearest quarter
octave (``2 ** (k / 4)``); models learn and predict on quantised contexts, and cache
predictions by the quantised key.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from pokerbot.models.action_classes import LIMIT_RAISE_CLASS, ActionClass, classify, classify_raise, legal_mask
from pokerbot.models.handstrength import board_texture, strength_bin
from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.analysis.strength import hand_strength
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import LoggedHand, parse_state_line
from pokerbot.protocol.wire import MatchState

Context = dict[str, float]
"""A feature dictionary (feature name to number)."""

LEGAL_KEY = "legal"
NO_ACTION = -1
SPR_CAP = 64.0
"""The stack-to-pot ratio is capped here (unlimited-stack games would give huge ratios)."""

ACTION_FEATURES: tuple[str, ...] = (
    "stage",
    "pot",
    "bets_actor",
    "bets_other",
    "last_actor",
    "last_other",
    "button",
    "face_cards",
    "suited",
    "connected",
    "round_actions",
    "to_call",
    "bet_size",
    "spr",
)
SHOWDOWN_FEATURES: tuple[str, ...] = (
    "pot",
    "bets_actor",
    "bets_other",
    "late_bets_actor",
    "last_actor",
    "last_other",
    "button",
    "face_cards",
    "suited",
    "connected",
    "end_stage",
)

_RATIO = "ratio"
_QUANT: dict[str, tuple[str, float]] = {
    "pot": (_RATIO, 4096.0),
    "to_call": (_RATIO, 64.0),
    "bet_size": (_RATIO, 64.0),
    "spr": (_RATIO, SPR_CAP),
    "bets_actor": ("count", 4),
    "bets_other": ("count", 4),
    "late_bets_actor": ("count", 4),
    "round_actions": ("count", 8),
}
"""How each feature is quantised: ratios on a quarter-octave grid up to a cap, counts capped;
features not listed are small integers kept as they are."""


def _ratio_bucket(value: float, cap: float) -> float:
    """``value`` rounded to the nearest ``2 ** (k / 4)`` (0 stays 0), at most ``cap``."""
    if value <= 0.0:
        return 0.0
    if value >= cap:
        return cap
    return 2.0 ** (round(math.log2(value) * 4.0) / 4.0)


def quantise(x: Mapping[str, float], names: tuple[str, ...]) -> tuple[float, ...]:
    """The quantised values of features ``names`` of ``x`` (missing features count as 0),
    followed by ``x[LEGAL_KEY]`` when present (else -1). Quantising twice changes nothing."""
    values: list[float] = []
    append = values.append
    for name in names:
        value = x.get(name, 0.0)
        rule = _QUANT.get(name)
        if rule is None:
            append(value)
        elif rule[0] == _RATIO:
            append(_ratio_bucket(value, rule[1]))
        else:
            append(value if value < rule[1] else rule[1])
    append(x.get(LEGAL_KEY, -1))
    return tuple(values)


@dataclass(frozen=True, slots=True)
class _Step:
    """One action of a hand's history with what was known when it was taken."""

    round: int
    actor: int
    action_class: ActionClass
    pot_before: int
    """Chips in the pot before the action."""
    raise_fraction: float
    """For a bet or raise, its raise-by amount over the pot plus the raiser's call."""


def _steps(state: HandState) -> list[_Step]:
    """The history of ``state`` with pots and classes, from chip arithmetic alone."""
    game = state.game
    stacks = game.stacks
    spent = list(game.blinds)
    max_spent = max(spent)
    nolimit = game.is_nolimit
    steps: list[_Step] = []
    for round_index, actor, action in state.history():
        pot = sum(spent)
        kind = action.kind
        fraction = 0.0
        if kind is ActionKind.FOLD:
            action_class = ActionClass.FOLD
        else:
            call = min(max_spent, stacks[actor]) - spent[actor]
            if kind is ActionKind.CALL:
                action_class = ActionClass.CALL if call else ActionClass.CHECK
                spent[actor] += call
            else:
                if nolimit:
                    new = action.size
                    action_class = classify_raise(new, max_spent, pot, call, stacks[actor])
                else:
                    new = min(max_spent + game.raise_sizes[round_index], stacks[actor])
                    action_class = LIMIT_RAISE_CLASS
                fraction = (new - max_spent) / (pot + call) if pot + call else 0.0
                spent[actor] = new
                max_spent = new
        steps.append(_Step(round_index, actor, action_class, pot, fraction))
    return steps


def _is_raise(action_class: int) -> bool:
    return action_class >= ActionClass.HALF_POT


def action_context(state: HandState) -> Context:
    """The context of the player to act in ``state`` (see the module docstring)."""
    game = state.game
    actor = state.current_player
    if actor is None:
        raise ValueError("the hand is over: nobody is to act")
    steps = _steps(state)
    current = state.round
    last_actor = last_other = NO_ACTION
    bets_actor = bets_other = round_actions = 0
    bet_size = 0.0
    for step in steps:
        if step.actor == actor:
            last_actor = step.action_class
        else:
            last_other = step.action_class
        if step.round == current:
            round_actions += 1
            if _is_raise(step.action_class):
                bet_size = step.raise_fraction
                if step.actor == actor:
                    bets_actor += 1
                else:
                    bets_other += 1
    pot = max(state.pot, 1)
    legal = state.legal_actions()
    stacks, spent = game.stacks, state.spent
    others = [stacks[p] - spent[p] for p in range(game.num_players) if p != actor and not state.folded[p]]
    mine = stacks[actor] - spent[actor]
    effective = min(mine, max(others, default=mine))
    faces, suited, connected = board_texture(state.visible_board())
    return {
        "stage": current,
        "pot": pot / game.big_blind,
        "bets_actor": bets_actor,
        "bets_other": bets_other,
        "last_actor": last_actor,
        "last_other": last_other,
        "button": int(actor == game.num_players - 1),
        "face_cards": faces,
        "suited": suited,
        "connected": connected,
        "round_actions": round_actions,
        "to_call": legal.call_amount / pot,
        "bet_size": bet_size,
        "spr": min(effective / pot, SPR_CAP),
        LEGAL_KEY: legal_mask(state),
    }


def showdown_context(state: HandState, player: int) -> Context:
    """The context of ``player``'s hand strength at the end of ``state`` (module docstring)."""
    game = state.game
    steps = _steps(state)
    last_round = steps[-1].round if steps else 0
    last_actor = last_other = NO_ACTION
    bets_actor = bets_other = late_bets = 0
    for step in steps:
        raised = _is_raise(step.action_class)
        if step.actor == player:
            last_actor = step.action_class
            bets_actor += raised
            if step.round == last_round:
                late_bets += raised
        else:
            last_other = step.action_class
            bets_other += raised
    faces, suited, connected = board_texture(state.visible_board())
    return {
        "pot": state.pot / game.big_blind,
        "bets_actor": bets_actor,
        "bets_other": bets_other,
        "late_bets_actor": late_bets,
        "last_actor": last_actor,
        "last_other": last_other,
        "button": int(player == game.num_players - 1),
        "face_cards": faces,
        "suited": suited,
        "connected": connected,
        "end_stage": last_round,
    }


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One decision: its context, the class taken and who took it (a position)."""

    x: Context
    y: ActionClass
    actor: int


@dataclass(frozen=True, slots=True)
class ShowdownRow:
    """One revealed hand: the showdown context, the strength bin, the strength, the position."""

    x: Context
    y: int
    strength: float
    actor: int


def _targets(game: Game, observer: int, players: Iterable[int] | None) -> frozenset[int]:
    if players is None:
        return frozenset(p for p in range(game.num_players) if p != observer)
    return frozenset(players)


def action_rows(state: HandState, observer: int, players: Iterable[int] | None = None) -> list[ActionRow]:
    """A row for every decision of ``players`` (default: everyone but ``observer``) in the
    finished (or unfinished) hand ``state``. Uses only public information: the betting and
    the board as it was when each decision was made."""
    game = state.game
    targets = _targets(game, observer, players)
    replay = HandState(game, None, state.board_cards)
    rows: list[ActionRow] = []
    for _round, actor, action in state.history():
        if actor in targets:
            rows.append(ActionRow(action_context(replay), classify(replay, action), actor))
        replay.apply(action)
    return rows


def showdown_rows(
    state: HandState,
    observer: int,
    players: Iterable[int] | None = None,
    strength: Callable[[Game, tuple[int, ...], tuple[int, ...]], float] = hand_strength,
) -> list[ShowdownRow]:
    """A row for every player of ``players`` (default: everyone but ``observer``) whose hole
    cards are known at the showdown of ``state``; empty when the hand had no showdown."""
    if not state.showdown():
        return []
    game = state.game
    board = state.visible_board()
    rows: list[ShowdownRow] = []
    for player in sorted(_targets(game, observer, players)):
        hole = state.hole_cards[player]
        if hole is None or state.folded[player]:
            continue
        value = strength(game, hole, board)
        rows.append(ShowdownRow(showdown_context(state, player), strength_bin(value), value, player))
    return rows


def view_rows(view: MatchState, players: Iterable[int] | None = None) -> tuple[list[ActionRow], list[ShowdownRow]]:
    """Action and showdown rows of a finished hand as the receiving player saw it."""
    return action_rows(view.state, view.position, players), showdown_rows(view.state, view.position, players)


def logged_hand_rows(hand: LoggedHand, observer: int) -> tuple[list[ActionRow], list[ShowdownRow]]:
    """Rows of an ACPC log line's hand from position ``observer``'s view (its view hides
    what that player could not see: folded players' cards)."""
    return view_rows(MatchState(observer, hand.hand_number, hand.state.view(observer)))


def log_line_rows(line: str, game: Game, observer: int) -> tuple[list[ActionRow], list[ShowdownRow]]:
    """Rows of one ACPC log ``STATE`` line from position ``observer``'s view; raises
    :class:`~protocol.errors.LogFormatError` for a malformed line."""
    return logged_hand_rows(parse_state_line(line, game), observer)


__all__ = [
    "ACTION_FEATURES",
    "LEGAL_KEY",
    "NO_ACTION",
    "SHOWDOWN_FEATURES",
    "SPR_CAP",
    "ActionRow",
    "Context",
    "ShowdownRow",
    "action_context",
    "action_rows",
    "log_line_rows",
    "logged_hand_rows",
    "quantise",
    "showdown_context",
    "showdown_rows",
    "view_rows",
]
