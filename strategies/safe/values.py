"""What a finished hand was worth to the safe agent, with the luck of the cards taken out.

The ledger (:mod:`.ledger`) books one value per hand; the less luck it holds, the sooner the
safety rule can tell a weak opponent's gifts from noise. Amounts are chips, two-player
52-card hold'em (other games: the chips won).

* :func:`hand_value`: the chips won, **all-in adjusted** (the run-out after all the money is
  in replaced by the holdings' equity) and with AIVAT's **chance corrections** for our own
  cards (Burch et al. 2018; value function: our equity against a random holding);
* :func:`range_hand_value`: the same averaged over **every holding we could have held**,
  weighted by the probability that our strategy plays the hand's betting with it (its
  reach, :class:`RangeReporter`): AIVAT's *imaginary observations* of our own cards. Given
  the opponent's cards, the board and the betting, our holding is distributed in proportion
  to its reach over the holdings that clash with none of them, so the weighted mean is the
  conditional expectation of :func:`hand_value`'s estimate: unbiased, and never of higher
  variance (Rao-Blackwell). Where the opponent folds its cards are not seen: the holdings
  that would clash with them keep their weight (a small approximation: about 8 % of the
  weight, whose values differ from the others' only through the chance corrections).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from pokerbot.protocol.analysis.equity import equity_vs_random, equity_vs_random_all
from pokerbot.protocol.analysis.headsup import equity_all_vs_holding, heads_up_equity
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, NUM_HOLDINGS, conflict_mask, holding_index
from pokerbot.protocol.analysis.preflop import preflop_equity
from pokerbot.protocol.analysis.showdown import unused_cards
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState

FLOP_SAMPLES = 4
"""Turn cards sampled to estimate a flop's equity (an exact flop costs about 20 times one turn)."""


@runtime_checkable
class RangeReporter(Protocol):
    """A strategy that knows its reach for every holding (its probability of playing a hand's
    betting with it): :class:`~pokerbot.strategies.abstract.player.AbstractPolicyPlayer`."""

    def reach(
        self, state: HandState, position: int, hand_number: int, board: Sequence[Card] | None = None
    ) -> np.ndarray | None:
        """The reach of every holding for ``position``'s actions in ``state`` (0 for holdings
        on a card of ``board``); None where it is not known."""


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
    last_round = last_action_round(state)
    theirs = state.hole_cards[1 - position]
    if state.showdown() and last_round < game.num_rounds - 1 and theirs is not None:
        board = board_through(state, last_round)
        equity = heads_up_equity(game, (mine, theirs), board, preflop_boards=samples, seed=seed)
        value = (2.0 * equity - 1.0) * min(state.spent)
    if luck:
        matched, _behind = luck_features(state, position, seed=seed)
        value -= float(matched.sum())
    return value


def range_hand_value(
    state: HandState,
    position: int,
    reach: np.ndarray,
    *,
    samples: int = 500,
    seed: int = 0,
    flop_samples: int | None = FLOP_SAMPLES,
) -> float:
    """:func:`hand_value`'s estimate averaged over every holding ``position`` could have held
    (the module docstring): ``sum_x w(x) (u(x) - c(x)) / sum_x w(x)``, where ``w`` is ``reach``
    (our strategy's reach of each holding, over the holdings indexed as
    :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`) with the holdings that clash with the
    board dealt before the last action or with the opponent's shown cards taken out; ``u(x)``
    what the hand won holding ``x`` (a fold: the chips won, the same for every holding; a
    showdown: ``x``'s equity against the opponent's holding over the cards dealt after the last
    action, times the matched chips, exact from the flop on and over ``samples`` boards drawn
    from ``seed`` pre-flop); ``c(x)`` the chance corrections for our deal and each board card
    dealt before the last action, ``2 m (e_after(x) - e_before(x))`` with ``e`` the equity
    against a random holding (the shipped pre-flop table for the deal; exact on the turn and
    river; on the flop exact, or with ``flop_samples`` (default :data:`FLOP_SAMPLES`; None:
    exact) the unbiased estimate of :func:`flop_equities`, a tenth of the cost) and ``m`` the
    chips matched when the card came. Two-player 52-card hold'em with our cards known; raises
    ``ValueError`` when ``reach`` gives our own holding no weight (it does not describe how we
    played)."""
    if not state.finished:
        raise ValueError("the hand is not over")
    game = state.game
    mine = state.hole_cards[position]
    if game.num_players != 2 or not _is_holdem(state) or mine is None:
        raise ValueError("a range value needs two-player hold'em and our hole cards")
    theirs = state.hole_cards[1 - position]
    last_round = last_action_round(state)
    board = board_through(state, last_round)
    weights = np.where(conflict_mask(board), 0.0, np.asarray(reach, dtype=float))
    if theirs is not None:
        weights[conflict_mask(theirs)] = 0.0
    if weights[holding_index(mine)] <= 0.0:
        raise ValueError(f"the range gives our holding {mine} no weight")
    if state.showdown():
        if theirs is None:
            raise ValueError("a showdown without the opponent's cards")
        equity = equity_all_vs_holding(board, theirs, samples=samples, seed=seed)
        values = (2.0 * equity - 1.0) * min(state.spent)
    else:
        values = np.full(NUM_HOLDINGS, float(state.values()[position]))
    matched, _most = _matched_at_deals(state)
    table = preflop_equity()
    before = np.asarray(table, dtype=float)
    values -= 2.0 * matched[0] * (before - float(table.mean()))
    generator = random.Random(seed)
    for r in range(1, last_round + 1):
        cards = board_through(state, r)
        after = flop_equities(cards, generator, flop_samples) if len(cards) == 3 else _equities(cards)
        values -= 2.0 * matched[r] * (after - before)
        before = after
    live = weights > 0.0
    return float(np.dot(weights[live], values[live]) / weights[live].sum())


def flop_equities(flop: Sequence[Card], generator: random.Random, samples: int | None = FLOP_SAMPLES) -> np.ndarray:
    """The equity of every holding against a random holding on the three-card ``flop`` (0 for
    holdings on a flop card): exact with ``samples`` None; else, for each holding, the mean of
    the exact equities after ``samples`` turn cards drawn without replacement from the unseen
    ones (those of the holding's own cards left out), an unbiased estimate at a fraction of the
    cost, as :func:`board_equity` makes for one holding."""
    if samples is None:
        return _equities(flop)
    unseen = unused_cards(np.array(flop, dtype=np.int64)).tolist()
    total = np.zeros(NUM_HOLDINGS)
    count = np.zeros(NUM_HOLDINGS)
    for card in generator.sample(unseen, samples):
        valid = ~conflict_mask((card,))
        total += np.where(valid, _equities((*flop, card)), 0.0)
        count += valid
    return np.where(count > 0, total / np.maximum(count, 1.0), 0.0)


def _equities(board: Sequence[Card]) -> np.ndarray:
    """Every holding's exact equity (wins plus half the ties) against a random holding."""
    wins, ties = equity_vs_random_all(board)
    return wins + ties / 2.0


def last_action_round(state: HandState) -> int:
    """The round of the hand's last action (0 when nobody acted): the cards dealt after it are
    the run-out of an all-in, or were never shown."""
    return max((r for r, _actor, _action in state.history()), default=0)


def board_through(state: HandState, round_index: int) -> tuple[Card, ...]:
    """The board cards dealt by round ``round_index``."""
    game = state.game
    return tuple(state.board_cards[: game.board_start[round_index] + game.num_board_cards[round_index]])


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
    the luck of the betting to come, lowers the spread little even when fitted
    (``benchmarks/research/ledger_fit.py``, ``docs/safe.md``), so it is not subtracted."""
    game = state.game
    mine = state.hole_cards[position]
    if mine is None:
        raise ValueError("our hole cards are needed")
    last_round = last_action_round(state)
    table = preflop_equity()
    before = float(table[int(HOLDING_INDEX[mine[0], mine[1]])])
    matched, most = _matched_at_deals(state)
    moves = np.zeros(game.num_rounds)
    moves[0] = 2.0 * (before - float(table.mean()))
    generator = random.Random(seed)
    for r in range(1, last_round + 1):
        after = board_equity(mine, board_through(state, r), generator)
        moves[r] = 2.0 * (after - before)
        before = after
    stake = np.asarray([game.stacks[position] - most[r] for r in range(game.num_rounds)], dtype=float)
    return moves * np.asarray(matched, dtype=float), moves * stake


def board_equity(hole: Sequence[Card], board: Sequence[Card], generator: random.Random) -> float:
    """The equity of ``hole`` against a random holding on ``board`` (4 or 5 cards: exact). On
    a flop, an unbiased estimate for a fraction of the cost: the mean of the exact equities
    after :data:`FLOP_SAMPLES` next cards drawn without replacement from the unseen ones (the
    mean over every unseen next card is the flop's equity), from ``generator``."""
    if len(board) != 3:
        return equity_vs_random(hole, board)
    unseen = unused_cards(np.array((*hole, *board), dtype=np.int64)).tolist()
    picks = generator.sample(unseen, FLOP_SAMPLES)
    return sum(equity_vs_random(hole, (*board, card)) for card in picks) / FLOP_SAMPLES


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


__all__ = [
    "FLOP_SAMPLES",
    "RangeReporter",
    "board_equity",
    "board_through",
    "flop_equities",
    "hand_value",
    "last_action_round",
    "luck_features",
    "range_hand_value",
]
