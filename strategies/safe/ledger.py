"""The safety rule of the adaptive hold'em agent: risk only what was demonstrably won.

Ganzfried and Sandholm's "risk what you've won" (safe opponent exploitation), adapted to
hold'em, where neither the game value nor the opponent's mistakes can be computed exactly.
Amounts are chips; the settings are in big blinds.

**Ledger.** After every hand the ledger books ``v - r_p``: ``v`` the chips the hand won
with the luck of the cards taken out (:func:`hand_value`: all-in adjusted, and AIVAT's
chance corrections with our equity as value function), and ``r_p`` the blueprint's reference value in the
position played (default 0 for both positions: the heads-up game is worth 0 over a pair of
hands, and positions alternate). ``total`` is their sum over the ``n`` hands so far, and the
*demonstrated* winnings are its lower confidence bound

    won  =  total  +  a n  -  z s sqrt(n)

with ``s`` the standard deviation of one hand's ``v`` (estimated from the hands, shrunk
towards a prior ``s0`` with the weight of ``prior_hands`` hands), ``z`` the one-sided
normal quantile of ``confidence`` and ``a`` an allowance per hand (default 0); the
``spare`` best hands (no-limit's default: 1) count neither in ``total`` nor in ``s`` and ``n``.

**Draw.** Before each hand the agent plays its exploiter for the whole hand with
probability ``lam = clip((won + B0) / R, 0, 1)`` and the blueprint otherwise, where ``B0``
(``initial``, default 0) is a stake risked before anything was won and ``R``
(``risk``) is what one hand of the exploiter may lose beyond the blueprint's value against
the worst opponent for it. So a hand never risks, in expectation, more than what the
ledger shows was won: against an opponent who gives nothing away ``total`` is noise around
0 (or negative: the blueprint's exploitability), ``won`` stays below 0 with probability
``confidence``, and the blueprint plays; against a weak one ``total`` grows linearly and
``won`` passes ``R`` after about ``(z s / edge)^2`` hands.

**What it does not prove.** Ganzfried and Sandholm's guarantee needs the opponent's
mistakes measured in expectation (RWYWE): realised winnings include luck, and an opponent
who controls the variance can make the ledger look richer than it is. The all-in adjustment
and the chance corrections remove the luck of the cards that can be removed without bias
(the run-out after all the money is in, and our own cards' fortunes street by street), and
the confidence bound keeps the rest of the noise from being spent (and ``cap``, when set,
keeps one hand's luck from being spent); ``R`` is a measured
estimate (local best response, ``docs/experiments.md``), not a proven bound. The small games
use the exact rule (:mod:`pokerbot.strategies.bayes.safety`).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict, Field
from scipy.stats import norm

from pokerbot.models.buckets.evaluator import HAND_INDEX
from pokerbot.models.buckets.preflop import preflop_ehs_table
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.showdown import NUM_HOLDINGS, equity_vs_ranges, holding_index


class SafetySettings(BaseModel):
    """The parameters of the ledger (module docstring), in big blinds per hand."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    risk: float = Field(20.0, gt=0.0)
    """``R``: what one hand of the exploiter may lose beyond the blueprint (big blinds)."""
    confidence: float = Field(0.95, ge=0.5, lt=1.0)
    """One-sided confidence of the lower bound on the winnings."""
    prior_spread: float = Field(15.0, gt=0.0)
    """``s0``: the prior standard deviation of one hand (big blinds)."""
    prior_hands: float = Field(30.0, ge=0.0)
    """Weight of ``s0`` in the estimate of ``s``, in hands."""
    allowance: float = Field(0.0, ge=0.0)
    """``a``: credited per hand (big blinds; 0: only winnings are risked)."""
    initial: float = Field(0.0, ge=0.0)
    """``B0``: what may be risked before anything was won (big blinds; 0: only winnings are
    risked). An epsilon-safe rule: over a match the agent may lose about this much (plus one
    hand's ``R``) more than the blueprint would, in exchange for exploiting from the first hand."""
    reference: tuple[float, float] = (0.0, 0.0)
    """``r_p``: the blueprint's value in positions 0 and 1 (big blinds per hand)."""
    spare: int = Field(0, ge=0)
    """How many of the best booked hands the bound leaves out (their values neither count
    in the total nor in the spread): winnings must show without the luckiest ``spare`` hands.
    Against a player who gives nothing away one lucky all-in is most of the total (the luck
    of the stake that went in after the cards, which the corrections leave in); a weak
    player's gifts come in many hands and survive it, some tens of hands later. Booking
    less only delays the exploiter, so the rule stays safe. No-limit's default is 1
    (``docs/experiments.md``: against LBR and the issue's opponents)."""
    cap: float | None = Field(None, gt=0.0)
    """The most one hand may book (big blinds; None, the default: no cap). Booking less than
    a hand won only delays the exploiter, so any cap keeps the rule safe; it stops one lucky
    all-in (the luck of the stake that went in after the cards, which the corrections leave
    in) from reading as demonstrated winnings. Measured in no-limit (``docs/experiments.md``,
    LBR against ``adaptive``): a cap of 20 or 50 big blinds also keeps the exploiter off
    against most weak players, whose gifts come in big pots too, hence no cap by default."""


@dataclass
class LedgerEntry:
    """One settled hand (chips): its value, what was booked, and afterwards the demonstrated
    winnings and the exploiter's probability."""

    value: float
    booked: float
    won: float
    share: float


class RiskLedger:
    """The ledger of the safety rule (module docstring); amounts in chips."""

    def __init__(self, settings: SafetySettings, big_blind: float) -> None:
        if big_blind <= 0:
            raise ValueError(f"the big blind must be positive, got {big_blind}")
        self.settings = settings
        self.big_blind = float(big_blind)
        self.hands = 0
        self.total = 0.0
        """Sum of ``v - r_p`` over the hands (chips)."""
        self._squares = 0.0
        self._best: list[float] = []
        """The ``spare`` largest booked values (a min-heap)."""
        self._z = float(norm.ppf(settings.confidence))

    def _counted(self) -> tuple[int, float, float]:
        """Hands, sum and sum of squares of the booked values the bound counts (chips)."""
        spared = [x for x in self._best if x > 0.0]
        return (
            self.hands - len(spared),
            self.total - sum(spared),
            self._squares - sum(x * x for x in spared),
        )

    def spread(self) -> float:
        """``s``: the standard deviation of one hand's value (chips), shrunk towards the prior."""
        s0 = self.settings.prior_spread * self.big_blind
        weight = self.settings.prior_hands
        hands, total, squares = self._counted()
        if hands + weight <= 1.0:
            return s0
        deviations = max(squares - total * total / hands, 0.0) if hands > 0 else 0.0
        return math.sqrt((weight * s0 * s0 + deviations) / (weight + max(hands - 1, 0)))

    def won(self) -> float:
        """The demonstrated winnings (chips): the lower confidence bound of the module docstring
        (without the ``spare`` best hands)."""
        a = self.settings.allowance * self.big_blind
        hands, total, _squares = self._counted()
        return total + a * self.hands - self._z * self.spread() * math.sqrt(hands)

    def budget(self) -> float:
        """What the next hand may risk (chips): the demonstrated winnings plus ``B0``."""
        return self.won() + self.settings.initial * self.big_blind

    def share(self) -> float:
        """``lam``: the probability of playing the exploiter in the next hand."""
        return min(max(self.budget() / (self.settings.risk * self.big_blind), 0.0), 1.0)

    def settle(self, position: int, value: float) -> LedgerEntry:
        """Book a finished hand played in ``position`` that won ``value`` chips."""
        if position not in (0, 1):
            raise ValueError(f"the ledger is for two players, got position {position}")
        booked = value - self.settings.reference[position] * self.big_blind
        if self.settings.cap is not None:
            booked = min(booked, self.settings.cap * self.big_blind)
        self.hands += 1
        self.total += booked
        self._squares += booked * booked
        if self.settings.spare:
            if len(self._best) < self.settings.spare:
                heapq.heappush(self._best, booked)
            elif booked > self._best[0]:
                heapq.heapreplace(self._best, booked)
        return LedgerEntry(value, booked, self.won(), self.share())


def hand_value(state: HandState, position: int, *, samples: int = 2000, seed: int = 0, luck: bool = True) -> float:
    """The chips ``position`` won in the finished hand ``state``, with the luck of the cards
    taken out where that can be done without bias (two-player 52-card hold'em):

    * **all-in adjustment**: when the money went in before the river and the hand went to a
      showdown with both holdings known, the equity of the holdings over the board cards
      dealt after the last action (exact from the flop on, a Monte Carlo of ``samples`` boards
      pre-flop) times the matched chips replaces the board that came;
    * **chance corrections** (``luck``; AIVAT's, Burch et al. 2018, with a value function of
      our cards alone): for our deal and each board card dealt before the last action, minus
      ``2 m (e_after - e_before)``, ``e`` our equity against a random holding (exact on the
      turn and river; on the flop an unbiased estimate from sampled turn cards drawn from
      ``seed``, :func:`board_equity`; pre-flop the shipped table, whose mean over the deals
      is the expectation) and ``m`` the chips matched when the card came. Each term has mean
      zero over the card whatever anyone plays (up to the removal of the opponent's two
      cards, which we do not see), so the value stays an unbiased estimate of what the hand
      was worth; only the variance falls (:func:`luck_features`, round by round).

    Other games: the chips won."""
    if not state.finished:
        raise ValueError("the hand is not over")
    value = float(state.values()[position])
    game = state.game
    mine = state.hole_cards[position]
    if game.num_players != 2 or not _is_holdem(state) or mine is None:
        return value
    history = state.history()
    last_round = max((r for r, _actor, _action in history), default=0)
    theirs = state.hole_cards[1 - position]
    if state.showdown() and last_round < game.num_rounds - 1 and theirs is not None:
        board = state.board_cards[: game.board_start[last_round] + game.num_board_cards[last_round]]
        weights = np.zeros(NUM_HOLDINGS)
        weights[holding_index(theirs)] = 1.0
        equity = float(equity_vs_ranges(mine, board, weights, samples=samples, seed=seed)[0])
        value = (2.0 * equity - 1.0) * min(state.spent)
    if luck:
        matched, _behind = luck_features(state, position, seed=seed)
        value -= float(matched.sum())
    return value


def _is_holdem(state: HandState) -> bool:
    game = state.game
    return game.is_standard_deck and game.num_hole_cards == 2 and game.num_board_cards[0] == 0


def luck_features(state: HandState, position: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The chance corrections of :func:`hand_value` round by round (chips, one entry a round,
    0 for the rounds after the last action): ``2 m_r (e_r - e_(r-1))`` and ``2 b_r (e_r -
    e_(r-1))``, ``m_r`` the chips matched and ``b_r`` the chips behind (the stack less the
    larger amount put in) when round ``r``'s cards came, ``e`` our equity against a random
    holding (round 0: our deal, against the mean of the pre-flop table). Two-player 52-card
    hold'em with our hole cards known. :func:`hand_value` subtracts the first; the second,
    the luck of the betting to come, lowers the spread by 0 to 3 % only when fitted
    (``benchmarks/ledger_fit.py``, ``docs/experiments.md``), so it is not subtracted."""
    game = state.game
    mine = state.hole_cards[position]
    if mine is None:
        raise ValueError("our hole cards are needed")
    history = state.history()
    last_round = max((r for r, _actor, _action in history), default=0)
    table = preflop_ehs_table()
    before = float(table[int(HAND_INDEX[mine[0], mine[1]])])
    matched, most = _matched_at_deals(state)
    moves = np.zeros(game.num_rounds)
    moves[0] = 2.0 * (before - float(table.mean()))
    generator = random.Random(seed)
    for r in range(1, last_round + 1):
        board = state.board_cards[: game.board_start[r] + game.num_board_cards[r]]
        after = board_equity(mine, board, generator)
        moves[r] = 2.0 * (after - before)
        before = after
    stake = np.asarray([game.stacks[position] - most[r] for r in range(game.num_rounds)], dtype=float)
    return moves * np.asarray(matched, dtype=float), moves * stake


def board_equity(hole: Sequence[Card], board: Sequence[Card], generator: random.Random) -> float:
    """The equity of ``hole`` against a random holding on ``board`` (4 or 5 cards: exact). On
    a flop, an unbiased estimate for a fraction of the cost: the mean of the exact equities
    after :data:`FLOP_SAMPLES` next cards drawn without replacement from the unseen ones (the
    mean over every unseen next card is the flop's equity), from ``generator``."""
    uniform = np.ones(NUM_HOLDINGS)
    if len(board) != 3:
        return float(equity_vs_ranges(hole, board, uniform)[0])
    seen = set(hole) | set(board)
    unseen = [card for card in range(52) if card not in seen]
    picks = generator.sample(unseen, FLOP_SAMPLES)
    return sum(float(equity_vs_ranges(hole, (*board, card), uniform)[0]) for card in picks) / FLOP_SAMPLES


FLOP_SAMPLES = 4
"""Turn cards sampled to estimate a flop's equity (an exact flop costs about 20 times one turn)."""


def _matched_at_deals(state: HandState) -> tuple[list[int], list[int]]:
    """The chips matched (the smaller amount put in) and the larger amount put in when each
    round's cards were dealt."""
    game = state.game
    replay = HandState(game)
    matched, most = [min(replay.spent)], [max(replay.spent)]
    for _round, _actor, action in state.history():
        replay.apply(action)
        while len(matched) <= replay.round and not replay.finished:
            matched.append(min(replay.spent))
            most.append(max(replay.spent))
    while len(matched) < game.num_rounds:
        matched.append(min(replay.spent))
        most.append(max(replay.spent))
    return matched, most


__all__ = ["FLOP_SAMPLES", "LedgerEntry", "RiskLedger", "SafetySettings", "board_equity", "hand_value", "luck_features"]
