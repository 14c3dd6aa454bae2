"""The safety rule of the safe exploiter: risk only what was demonstrably won.

Ganzfried and Sandholm's "risk what you've won" (safe opponent exploitation), adapted to
hold'em, where neither the game value nor the opponent's mistakes can be computed exactly.
Amounts are chips; the settings are in big blinds.

**Ledger.** After every hand the ledger books ``v - r_p``: ``v`` the chips the hand won
with the luck of the cards taken out (:mod:`.values`: all-in adjusted, and AIVAT's
chance corrections with our equity as value function), and ``r_p`` the blueprint's reference value in the
position played (default 0 for both positions: the heads-up game is worth 0 over a pair of
hands, and positions alternate). ``total`` is their sum over the ``n`` hands so far, and the
*demonstrated* winnings are its lower confidence bound

    won  =  total  +  a n  -  z s sqrt(n)

with ``s`` the standard deviation of one hand's ``v`` (estimated from the hands, shrunk
towards a prior ``s0`` with the weight of ``prior_hands`` hands; each hand's deviation is
taken from the mean of the hands its part played, blueprint or exploiter, since the two
parts' means differ by what exploiting wins, which is not noise), ``z`` the one-sided
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
keeps one hand's luck from being spent); ``R`` is an estimate from the local best
response's winnings (``docs/safe.md``), not a proven bound. The small games
use the exact rule (:mod:`pokerbot.strategies.bayes.safety`).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field
from scipy.stats import norm


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
    (``docs/safe.md``)."""
    imaginary: bool = False
    """Value the blueprint's hands over every holding it could have held, weighted by its
    reach (:func:`~pokerbot.strategies.safe.values.range_hand_value`: AIVAT's imaginary
    observations of our own cards) rather than at the holding dealt
    (:func:`~pokerbot.strategies.safe.values.hand_value`, always used for the exploiter's
    hands, whose search gives no range). Less luck per hand, so winnings show sooner and luck
    opens the exploiter less often; no-limit's default is on (``docs/safe.md``)."""
    spread_by_part: bool = True
    """Estimate ``s`` from each hand's deviation from the mean of its own part's hands
    (blueprint or exploiter: the pooled within-part variance, which times ``n`` estimates the
    variance of the total) rather than from the mean of all hands. The two parts' means differ
    by what exploiting wins; around the common mean that difference reads as spread, so the
    better the exploiter does, the lower the bound (False: the deviation from the mean of all
    hands, for comparisons)."""
    cap: float | None = Field(None, gt=0.0)
    """The most one hand may book (big blinds; None, the default: no cap). Booking less than
    a hand won only delays the exploiter, so any cap keeps the rule safe; it stops one lucky
    all-in (the luck of the stake that went in after the cards, which the corrections leave
    in) from reading as demonstrated winnings, but it also keeps the exploiter off against
    weak players, whose gifts come in big pots too, hence no cap by default (``docs/safe.md``)."""


@dataclass
class _Sums:
    """Count, sum and sum of squares of some booked values (chips)."""

    hands: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.hands += 1
        self.total += value
        self.squares += value * value

    def remove(self, value: float) -> None:
        self.hands -= 1
        self.total -= value
        self.squares -= value * value

    def copy(self) -> _Sums:
        return _Sums(self.hands, self.total, self.squares)

    def merged(self, other: _Sums) -> _Sums:
        return _Sums(self.hands + other.hands, self.total + other.total, self.squares + other.squares)

    def deviations(self) -> float:
        """The sum of squared deviations from these values' own mean (chips squared)."""
        return max(self.squares - self.total * self.total / self.hands, 0.0) if self.hands else 0.0


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
        self._parts = [_Sums(), _Sums()]
        """Hands, sum and sum of squares of the booked values, by part (0: blueprint, 1:
        exploiter)."""
        self._best: list[tuple[float, int]] = []
        """The ``spare`` largest booked values and their parts (a min-heap)."""
        self._z = float(norm.ppf(settings.confidence))

    @property
    def hands(self) -> int:
        """Hands settled so far."""
        return self._parts[0].hands + self._parts[1].hands

    @property
    def total(self) -> float:
        """Sum of ``v - r_p`` over the hands (chips)."""
        return self._parts[0].total + self._parts[1].total

    def _counted(self) -> list[_Sums]:
        """The booked values the bound counts (chips), by part: without the spared hands."""
        counted = [part.copy() for part in self._parts]
        for value, part in self._best:
            if value > 0.0:
                counted[part].remove(value)
        if not self.settings.spread_by_part:
            return [counted[0].merged(counted[1])]
        return counted

    def spread(self) -> float:
        """``s``: the standard deviation of one hand's value (chips), each hand's deviation
        from its part's mean (``spread_by_part``), shrunk towards the prior."""
        s0 = self.settings.prior_spread * self.big_blind
        weight = self.settings.prior_hands
        parts = [part for part in self._counted() if part.hands > 0]
        freedom = sum(part.hands for part in parts) - len(parts)
        if weight + freedom <= 0.0:
            return s0
        deviations = sum(part.deviations() for part in parts)
        return math.sqrt((weight * s0 * s0 + deviations) / (weight + freedom))

    def won(self) -> float:
        """The demonstrated winnings (chips): the lower confidence bound of the module docstring
        (without the ``spare`` best hands)."""
        a = self.settings.allowance * self.big_blind
        parts = self._counted()
        hands = sum(part.hands for part in parts)
        total = sum(part.total for part in parts)
        return total + a * self.hands - self._z * self.spread() * math.sqrt(hands)

    def budget(self) -> float:
        """What the next hand may risk (chips): the demonstrated winnings plus ``B0``."""
        return self.won() + self.settings.initial * self.big_blind

    def share(self) -> float:
        """``lam``: the probability of playing the exploiter in the next hand."""
        return min(max(self.budget() / (self.settings.risk * self.big_blind), 0.0), 1.0)

    def settle(self, position: int, value: float, exploited: bool = False) -> LedgerEntry:
        """Book a finished hand played in ``position`` that won ``value`` chips, by the
        exploiter if ``exploited`` (else by the blueprint)."""
        if position not in (0, 1):
            raise ValueError(f"the ledger is for two players, got position {position}")
        booked = value - self.settings.reference[position] * self.big_blind
        if self.settings.cap is not None:
            booked = min(booked, self.settings.cap * self.big_blind)
        part = int(exploited)
        self._parts[part].add(booked)
        if self.settings.spare:
            if len(self._best) < self.settings.spare:
                heapq.heappush(self._best, (booked, part))
            elif booked > self._best[0][0]:
                heapq.heapreplace(self._best, (booked, part))
        return LedgerEntry(value, booked, self.won(), self.share())


__all__ = ["LedgerEntry", "RiskLedger", "SafetySettings"]
