"""A leak report of one player's decisions in a heads-up match log (sans-I/O).

:func:`audit` replays every hand of a log (:class:`~pokerbot.protocol.matchlog.LoggedHand`)
and classifies each decision of one player (:class:`Decision`): fold, check, call, call of an
all-in, bet or raise by size, all-in by stack-to-pot ratio. The bets, raises and calls of
all-ins get the equity of the player's holding against a random holding and against the
opponent's actual cards; folds get the latter. The definitions, all in chips before the
action:

* **pot**: every chip in the pot, blinds included, before the action;
* **size** of a bet or raise, in pots: the raise-by amount (chips above a call) over the pot
  after the raiser's call, the convention of the action classes
  (``models/action_classes.py``): a pot-sized raise is 1;
* **stack-to-pot ratio** (SPR): the effective stack behind (the smaller of the player's chips
  behind and the most any other player still in has behind) over the pot; None with
  unlimited stacks;
* **all-in**: a raise to the raiser's whole stack, or to the whole stack of the deepest
  other player still in when that is smaller;
* **call of an all-in**: a call of a bet after which nobody can bet again (the bettor or the
  caller is all-in); the hand runs out to a showdown;
* **price** of a call: the call over the pot after the call;
* **equity**: the share of a showdown won (ties half), the rest of the board dealt at random
  from the cards left. Against a random holding, in hold'em: the shipped pre-flop table
  (:func:`~pokerbot.protocol.analysis.preflop.preflop_class_equity`) pre-flop, eval7's Monte
  Carlo of :data:`FLOP_SAMPLES` draws seeded by the cards on the flop
  (:func:`~pokerbot.protocol.analysis.equity.sampled_equity_vs_range`), exact on the turn and
  the river (:func:`~pokerbot.protocol.analysis.equity.equity_vs_random`); in other games,
  exact enumeration (up to :data:`MAX_ENUMERATED` cases). Against the opponent's cards (the
  log holds both players' cards in every hand, even those that ended by a fold: a player saw
  them only at a showdown, which :attr:`Decision.showdown` says):
  :func:`~pokerbot.protocol.analysis.headsup.heads_up_equity`, exact after the flop, pre-flop
  over :data:`PREFLOP_BOARDS` boards seeded by the two holdings;
* **the hands the opponent has shown shoving** before a call of a pre-flop all-in: the
  holdings of the opponent's pre-flop all-ins in earlier hands of the log that reached a
  showdown; the equity against them is the mean equity against those of them that share no
  card with the player's holding (:data:`HOLDINGS_BOARDS` boards shared among them), given
  once :data:`SHOWN_SHOVES` have been shown.

Every estimate is seeded by the cards alone: an audit gives the same figures in every run.
The leak checks (:data:`CHECKS`: ``deep``, ``weak``, ``shove-call``, ``best-fold``) pick out
decisions (:meth:`Audit.failing`). Only heads-up games are audited: a log of more players
raises :class:`AuditError`.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import UNLIMITED_STACK, Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import LoggedHand

if TYPE_CHECKING:
    from pokerbot.protocol.analysis.equity import Eval7Range

FLOP_SAMPLES = 20_000
"""Draws (an opponent holding and a run-out each) of the flop's equity against a random holding
(standard deviation below 0.0036)."""
PREFLOP_BOARDS = 5_000
"""Boards of the pre-flop equity against the opponent's cards (standard deviation below 0.0071)."""
MAX_ENUMERATED = 2_000_000
"""The most (opponent holding, run-out) pairs the equity against a random holding enumerates
outside hold'em (beyond it the equity is not given)."""
HOLDINGS_BOARDS = 20_000
"""Pre-flop boards of the mean equity against several holdings, shared out among them (the
mean's standard deviation below 0.0036, or 0.016 / sqrt(holdings) past 20)."""
MIN_BOARDS = 1_000
"""The fewest pre-flop boards against one of several holdings."""
SHOWN_SHOVES = 5
"""The opponent's shown all-ins needed before the equity against them is given."""

BIG_BET = 3.0
"""Pots above which a bet or raise is big (the checks ``deep`` and ``weak``)."""
DEEP_SPR = 6.0
"""Stack-to-pot ratio above which a big bet on the flop or turn is a ``deep`` leak."""
WEAK_SPR = 4.0
"""Stack-to-pot ratio above which a big bet on the flop or turn from a weak holding is a ``weak`` leak."""
WEAK_EQUITY = 0.5
"""Equity against a random holding below which a holding is weak."""
SHOVE_CALL_BIG_BLINDS = 50.0
"""Big blinds (the caller's chips in the pot after the call) above which a call of a pre-flop
all-in is checked against the opponent's shown shoves."""

BEST_HAND_EQUITY = 0.5
"""Equity against the opponent's cards above which a folded holding was the best hand."""

SIZE_EDGES = (0.5, 1.0, 2.0, 3.0)
"""Upper bounds (pots, inclusive) of the bet-and-raise rows; the last row is above 3 pots."""
SPR_EDGES = (1.0, 2.0, 4.0, 6.0)
"""Upper bounds (inclusive) of the all-in rows' stack-to-pot ratios; the last row is above 6."""


class AuditError(ValueError):
    """A log that cannot be audited (more than two players, an unknown player)."""


class Kind(StrEnum):
    """What a decision did."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    CALL_ALL_IN = "call of an all-in"
    BET = "bet or raise"
    ALL_IN = "all-in"


def _bounds(edges: Sequence[float]) -> list[str]:
    labels, low = [], 0.0
    for high in edges:
        labels.append(f"{low:g}-{high:g}" if low else f"up to {high:g}")
        low = high
    return [*labels, f"above {low:g}"]


ROWS: tuple[str, ...] = (
    Kind.FOLD.value,
    Kind.CHECK.value,
    Kind.CALL.value,
    Kind.CALL_ALL_IN.value,
    *(f"bet or raise, {label} pots" for label in _bounds(SIZE_EDGES)),
    *(f"all-in, SPR {label}" for label in _bounds(SPR_EDGES)),
)
"""The rows of the decision counts, in order (:meth:`Decision.row`): every decision is in one."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the audited player. Chips are the log's; equities in [0, 1] or None
    when not computed (see the module docstring for every definition)."""

    hand_number: int
    round: int
    kind: Kind
    hole: tuple[Card, ...] | None
    board: tuple[Card, ...]
    """The board cards of the decision's round."""
    opponent_hole: tuple[Card, ...] | None
    pot: int
    to_call: int
    raise_to: int
    """The chips the player has in the pot after a bet or raise (0 for the other kinds)."""
    size: float | None
    """A bet or raise's raise-by over the pot after the call, in pots (None otherwise)."""
    spr: float | None
    """Effective stack behind over the pot (None with unlimited stacks)."""
    price: float | None
    """The call over the pot after the call (None with nothing to call)."""
    stake: int
    """The player's chips in the pot after the action (all rounds)."""
    showdown: bool
    """The hand reached a showdown (the opponent's cards were shown)."""
    won: float
    """The player's winnings in the hand, in chips."""
    equity_random: float | None = None
    equity_opponent: float | None = None
    equity_shown_shoves: float | None = None
    shown_shoves: int = 0
    """The opponent's shown pre-flop all-ins before this hand (calls of pre-flop all-ins)."""

    def row(self) -> str:
        """The row of :data:`ROWS` that counts this decision."""
        if self.kind is Kind.BET:
            return f"bet or raise, {_bucket(self.size or 0.0, SIZE_EDGES)} pots"
        if self.kind is Kind.ALL_IN:
            return f"all-in, SPR {_bucket(math.inf if self.spr is None else self.spr, SPR_EDGES)}"
        return self.kind.value


def _bucket(value: float, edges: Sequence[float]) -> str:
    """The label of :func:`_bounds` that ``value`` falls in."""
    return _bounds(edges)[next((i for i, high in enumerate(edges) if value <= high), len(edges))]


@dataclass(frozen=True, slots=True)
class Check:
    """A leak check: its name, what it counts, and which decisions fail it."""

    name: str
    description: str
    fails: Callable[[Decision, int], bool]
    """``fails(decision, big_blind)``."""


def _big_bet(decision: Decision, spr: float) -> bool:
    return (
        decision.kind in (Kind.BET, Kind.ALL_IN)
        and decision.round in (1, 2)
        and (decision.size or 0.0) > BIG_BET
        and (decision.spr is None or decision.spr > spr)
    )


def _deep(decision: Decision, big_blind: int) -> bool:
    return _big_bet(decision, DEEP_SPR)


def _weak(decision: Decision, big_blind: int) -> bool:
    equity = decision.equity_random
    return _big_bet(decision, WEAK_SPR) and equity is not None and equity < WEAK_EQUITY


def _shove_call(decision: Decision, big_blind: int) -> bool:
    equity, price = decision.equity_shown_shoves, decision.price
    return (
        decision.kind is Kind.CALL_ALL_IN
        and decision.round == 0
        and decision.stake > SHOVE_CALL_BIG_BLINDS * big_blind
        and equity is not None
        and price is not None
        and equity < price
    )


def _best_fold(decision: Decision, big_blind: int) -> bool:
    equity = decision.equity_opponent
    return decision.kind is Kind.FOLD and equity is not None and equity > BEST_HAND_EQUITY


CHECKS: tuple[Check, ...] = (
    Check(
        "deep",
        f"bet or raise above {BIG_BET:g} pots on the flop or turn at a stack-to-pot ratio above {DEEP_SPR:g}",
        _deep,
    ),
    Check(
        "weak",
        f"bet or raise above {BIG_BET:g} pots on the flop or turn at a stack-to-pot ratio above {WEAK_SPR:g}, "
        f"under {WEAK_EQUITY:.0%} equity against a random holding",
        _weak,
    ),
    Check(
        "shove-call",
        f"call of a pre-flop all-in above {SHOVE_CALL_BIG_BLINDS:g} big blinds, under its price in equity against "
        f"the opponent's shown pre-flop all-ins ({SHOWN_SHOVES} or more)",
        _shove_call,
    ),
    Check(
        "best-fold",
        f"fold of the best hand: above {BEST_HAND_EQUITY:.0%} equity against the opponent's cards",
        _best_fold,
    ),
)
"""The leak checks, by name: ``deep``, ``weak``, ``shove-call`` and ``best-fold``."""


@dataclass(frozen=True)
class Audit:
    """The decisions of ``player`` over ``hands`` hands of a game with ``num_rounds`` rounds."""

    player: str
    hands: int
    big_blind: int
    num_rounds: int
    decisions: tuple[Decision, ...]

    def counts(self) -> dict[str, list[int]]:
        """Per row of :data:`ROWS`, the decisions counted in each round."""
        table = {row: [0] * self.num_rounds for row in ROWS}
        for decision in self.decisions:
            table[decision.row()][decision.round] += 1
        return table

    def per_thousand(self, count: int) -> float:
        """``count`` per 1,000 hands of the log."""
        return 1000.0 * count / self.hands if self.hands else 0.0

    def failing(self, check: Check) -> list[Decision]:
        """The decisions that fail ``check``, in the log's order."""
        return [d for d in self.decisions if check.fails(d, self.big_blind)]


def players(hands: Sequence[LoggedHand]) -> tuple[str, ...]:
    """Every player of the log, in the order of first appearance."""
    seen: dict[str, None] = {}
    for hand in hands:
        seen.update(dict.fromkeys(hand.names))
    return tuple(seen)


def audit(hands: Sequence[LoggedHand], player: str, on_hand: Callable[[], None] | None = None) -> Audit:
    """Every decision of ``player`` in ``hands`` (one heads-up game, in the log's order) with
    its equities; ``on_hand`` is called after each hand. Raises :class:`AuditError` for more
    players or an unknown player."""
    if not hands:
        raise AuditError("the log has no hand")
    game = hands[0].state.game
    if game.num_players != 2:
        raise AuditError(f"the audit is for heads-up games; this log's game has {game.num_players} players")
    if player not in players(hands):
        raise AuditError(f"{player!r} played no hand of the log (players: {', '.join(players(hands))})")
    shown: dict[str, list[tuple[Card, ...]]] = {}
    """Each player's holdings of its pre-flop all-ins that reached a showdown, so far."""
    decisions: list[Decision] = []
    played = 0
    for hand in hands:
        steps = _replay(hand.state)
        if player in hand.names:
            played += 1
            position = hand.names.index(player)
            opponent = hand.names[1 - position]
            for decision in _decisions(hand, position, steps):
                decisions.append(_with_equities(game, decision, shown.get(opponent, ())))
        if hand.state.showdown():
            for before, position, after in steps:
                holding = hand.state.hole_cards[position]
                if holding is not None and before.round == 0 and _is_all_in(before, position, after):
                    shown.setdefault(hand.names[position], []).append(holding)
        if on_hand is not None:
            on_hand()
    return Audit(player, played, game.big_blind, game.num_rounds, tuple(decisions))


Step = tuple[HandState, int, HandState]
"""(the state before an action, the position that acted, the state after it)."""


def _replay(final: HandState) -> list[Step]:
    """Every action of the finished hand ``final`` as a :data:`Step`."""
    state = HandState(final.game, final.hole_cards, final.board_cards)
    steps = []
    for _, position, action in final.history():
        before = state.copy()
        state.apply(action)
        steps.append((before, position, state.copy()))
    return steps


def _effective(state: HandState, position: int) -> int:
    """The effective stack behind of ``position``: its chips behind, capped by the most any
    other player still in has behind."""
    game = state.game
    mine = game.stacks[position] - state.spent[position]
    others = [game.stacks[p] - state.spent[p] for p in range(game.num_players) if p != position and not state.folded[p]]
    return min(mine, max(others, default=mine))


def _is_all_in(before: HandState, position: int, after: HandState) -> bool:
    """True when the action from ``before`` to ``after`` is a raise to the raiser's whole stack,
    or to the whole stack of the deepest other player still in."""
    if after.actions[before.round][-1].kind is not ActionKind.RAISE:
        return False
    stacks = before.game.stacks
    others = [stacks[p] for p in range(len(stacks)) if p != position and not before.folded[p]]
    return after.spent[position] >= min(stacks[position], max(others, default=stacks[position]))


def _decisions(hand: LoggedHand, position: int, steps: Sequence[Step]) -> list[Decision]:
    """The decisions of ``position`` in ``hand`` (replayed as ``steps``), without equities."""
    final = hand.state
    game = final.game
    unlimited = min(game.stacks) >= UNLIMITED_STACK
    out = []
    for before, actor, after in steps:
        if actor != position:
            continue
        r = before.round
        action = after.actions[r][-1]
        pot = before.pot
        to_call = min(before.max_spent, game.stacks[actor]) - before.spent[actor]
        effective = _effective(before, actor)
        spr = None if unlimited else effective / pot
        price = to_call / (pot + to_call) if to_call > 0 else None
        size = None
        raise_to = 0
        if action.kind is ActionKind.FOLD:
            kind = Kind.FOLD
        elif action.kind is ActionKind.CALL:
            kind = Kind.CHECK if to_call == 0 else Kind.CALL_ALL_IN if after.num_active() <= 1 else Kind.CALL
        else:
            raise_to = after.spent[actor]
            size = (raise_to - before.max_spent) / (pot + to_call)
            kind = Kind.ALL_IN if _is_all_in(before, actor, after) else Kind.BET
        out.append(
            Decision(
                hand_number=hand.hand_number,
                round=r,
                kind=kind,
                hole=final.hole_cards[actor],
                board=before.visible_board(),
                opponent_hole=final.hole_cards[1 - actor],
                pot=pot,
                to_call=to_call,
                raise_to=raise_to,
                size=size,
                spr=spr,
                price=price,
                stake=after.spent[actor],
                showdown=final.showdown(),
                won=hand.values[actor],
            )
        )
    return out


def _with_equities(game: Game, decision: Decision, shown: Sequence[tuple[Card, ...]]) -> Decision:
    """``decision`` with the equities its kind is given (module docstring)."""
    kind, hole, board = decision.kind, decision.hole, decision.board
    if hole is None or kind in (Kind.CHECK, Kind.CALL):
        return decision
    theirs = decision.opponent_hole
    against_them = None if theirs is None else equity_against(game, hole, theirs, board)
    if kind is Kind.FOLD:
        return dataclasses.replace(decision, equity_opponent=against_them)
    shoves: float | None = None
    preflop_call = kind is Kind.CALL_ALL_IN and decision.round == 0
    if preflop_call and len(shown) >= SHOWN_SHOVES:
        shoves = equity_against_holdings(game, hole, shown, board)
    return dataclasses.replace(
        decision,
        equity_random=equity_vs_random(game, hole, board),
        equity_opponent=against_them,
        equity_shown_shoves=shoves,
        shown_shoves=len(shown) if preflop_call else 0,
    )


def equity_vs_random(game: Game, hole: Sequence[Card], board: Sequence[Card]) -> float | None:
    """The equity of ``hole`` against one random holding on ``board`` (module docstring);
    None outside hold'em when there are more than :data:`MAX_ENUMERATED` cases."""
    return _vs_random(game, tuple(hole), tuple(board))


@functools.lru_cache(maxsize=4096)
def _vs_random(game: Game, hole: tuple[Card, ...], board: tuple[Card, ...]) -> float | None:
    from pokerbot.protocol.analysis.headsup import is_holdem

    if is_holdem(game):
        if not board:
            from pokerbot.protocol.analysis.preflop import hand_class, preflop_class_equity

            return preflop_class_equity()[hand_class(hole)]
        if len(board) == 3:
            from pokerbot.protocol.analysis.equity import sampled_equity_vs_range

            return sampled_equity_vs_range(hole, _all_holdings(), board, FLOP_SAMPLES, seed=_seed(hole, board))
        if len(board) > 3:
            from pokerbot.protocol.analysis.equity import equity_vs_random as exact

            return exact(hole, board)
    used = {*hole, *board}
    rest = [card for card in game.deck if card not in used]
    holes, missing = game.num_hole_cards, game.total_board_cards - len(board)
    if math.comb(len(rest), holes) * math.comb(len(rest) - holes, missing) > MAX_ENUMERATED:
        return None
    ranker = game.ranker
    score, count = 0.0, 0
    for other in itertools.combinations(rest, holes):
        left = [card for card in rest if card not in other]
        for extra in itertools.combinations(left, missing):
            mine, theirs = ranker((*hole, *board, *extra)), ranker((*other, *board, *extra))
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            count += 1
    return score / count if count else None


@functools.cache
def _all_holdings() -> Eval7Range:
    """Every hold'em holding, weighing 1: a random holding."""
    from pokerbot.protocol.analysis.equity import Eval7Range
    from pokerbot.protocol.analysis.holdings import HOLDINGS

    return Eval7Range((int(a), int(b)) for a, b in HOLDINGS)


def _seed(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The seed of a sampled equity: a function of the cards alone (the same answer in every run)."""
    seed = 0
    for card in (*sorted(hole), *sorted(board)):
        seed = (seed * 53 + card + 1) % (2**31 - 1)
    return seed or 1


def equity_against(
    game: Game,
    hole: Sequence[Card],
    theirs: Sequence[Card],
    board: Sequence[Card],
    preflop_boards: int = PREFLOP_BOARDS,
) -> float | None:
    """The equity of ``hole`` against the holding ``theirs`` on ``board`` (module docstring;
    pre-flop in hold'em over ``preflop_boards`` boards); None when the cards clash or the game
    is too big to enumerate."""
    from pokerbot.protocol.analysis.headsup import EquityError, heads_up_equity

    try:
        return heads_up_equity(game, (tuple(hole), tuple(theirs)), tuple(board), preflop_boards=preflop_boards)
    except EquityError:
        return None


def equity_against_holdings(
    game: Game, hole: Sequence[Card], holdings: Sequence[Sequence[Card]], board: Sequence[Card]
) -> float | None:
    """The mean equity of ``hole`` against each of ``holdings`` that shares no card with it or
    ``board`` (pre-flop in hold'em, :data:`HOLDINGS_BOARDS` boards shared out among them);
    None when none is left."""
    used = {*hole, *board}
    kept = [holding for holding in holdings if not used.intersection(holding)]
    boards = max(MIN_BOARDS, HOLDINGS_BOARDS // max(len(kept), 1))
    values = [equity_against(game, hole, holding, board, boards) for holding in kept]
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else None


__all__ = [
    "CHECKS",
    "PREFLOP_BOARDS",
    "ROWS",
    "SHOWN_SHOVES",
    "Audit",
    "AuditError",
    "Check",
    "Decision",
    "Kind",
    "audit",
    "equity_against",
    "equity_against_holdings",
    "equity_vs_random",
    "players",
]
