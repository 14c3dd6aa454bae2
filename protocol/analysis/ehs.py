"""Effective hand strength (Ponsen, de Jong and Lanctot 2011, section 3.1, after Billings): hand strength and potential.

For a two-card hand on a board of 3, 4 or 5 cards of the 52-card deck, against one opponent
holding any two of the unseen cards (uniformly, card removal included):

* **hand strength** ``HS``: the share of opponent hands it beats now, ties counting half;
* **positive potential** ``PPot``: the chance that a hand behind (or tied) now is ahead after
  the next board card, **negative potential** ``NPot``: the chance that a hand ahead (or
  tied) now falls behind, with Billings' half weights for ties::

      PPot = (HP[behind][ahead] + HP[behind][tied] / 2 + HP[tied][ahead] / 2) / (HP[behind] + HP[tied] / 2)
      NPot = (HP[ahead][behind] + HP[tied][behind] / 2 + HP[ahead][tied] / 2) / (HP[ahead] + HP[tied] / 2)

  counted over every opponent hand and every next card (one-card look-ahead, Billings'
  ``PPot1``: on the flop the turn, on the turn the river);
* **effective hand strength** ``EHS = HS * (1 - NPot) + (1 - HS) * PPot``, the chance of
  being ahead after the next card. On the river there is no potential: ``EHS = HS``.

Pre-flop (no board) the value is the hand's all-in equity against a random hand, a table
of the 169 hand classes (:func:`pokerbot.protocol.analysis.preflop.preflop_equity`).

:func:`board_ehs` computes every hand on one board at once (sorting and a Fenwick tree
count the opponent hands by their order now and after each next card; hands sharing a card
with the one measured are removed directly). Hands are indexed as
:data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDINGS
from pokerbot.protocol.analysis.showdown import rank_hand, unused_cards

_AHEAD, _TIED, _BEHIND = 0, 1, 2


@nb.njit(cache=True)
def _ranks_on(board: np.ndarray, size: int, hands: np.ndarray, hand_cards: np.ndarray, out: np.ndarray) -> None:
    cards = np.empty(7, dtype=np.int64)
    cards[:size] = board[:size]
    for k in range(hands.shape[0]):
        h = hands[k]
        cards[size] = hand_cards[h, 0]
        cards[size + 1] = hand_cards[h, 1]
        out[k] = rank_hand(cards, size + 2)


@nb.njit(cache=True)
def _dense(values: np.ndarray) -> np.ndarray:
    """Dense ranks (0 = smallest) of ``values``."""
    order = np.argsort(values, kind="mergesort")
    dense = np.empty(values.shape[0], dtype=np.int64)
    rank = -1
    previous = -1
    for i in range(order.shape[0]):
        v = values[order[i]]
        if i == 0 or v != previous:
            rank += 1
            previous = v
        dense[order[i]] = rank
    return dense


@nb.njit(cache=True)
def _sign(a: int, b: int) -> int:
    """From the measured hand's side: ahead (its value ``a`` is larger), tied or behind."""
    if a > b:
        return _AHEAD
    if a == b:
        return _TIED
    return _BEHIND


@nb.njit(cache=True)
def _joint_counts(now: np.ndarray, nxt: np.ndarray, counts: np.ndarray) -> None:
    """``counts[k, s_now, s_next]`` = opponents (all entries, the hand itself included) by status now and next."""
    m = now.shape[0]
    a = _dense(now)
    b = _dense(nxt)
    nb_values = b.max() + 2
    tree = np.zeros(nb_values + 1, dtype=np.int64)
    b_less = np.zeros(nb_values + 1, dtype=np.int64)
    for k in range(m):
        b_less[b[k] + 1] += 1
    for v in range(1, nb_values + 1):
        b_less[v] += b_less[v - 1]
    order = np.argsort(a, kind="mergesort")
    start = 0
    while start < m:
        stop = start
        while stop < m and a[order[stop]] == a[order[start]]:
            stop += 1
        group_b = np.sort(b[order[start:stop]])
        for i in range(start, stop):
            k = order[i]
            bk = b[k]
            # Fenwick prefix sums over b among hands with a smaller a (the measured hand is ahead now)
            less = 0
            j = bk
            while j > 0:
                less += tree[j]
                j -= j & -j
            upto = less
            j = bk + 1
            while j > 0 and j != bk:
                break
            j = bk + 1
            upto = 0
            while j > 0:
                upto += tree[j]
                j -= j & -j
            ll = less
            le = upto - less
            el = np.searchsorted(group_b, bk, side="left")
            ee = np.searchsorted(group_b, bk, side="right") - el
            a_less = start
            a_equal = stop - start
            b_l = b_less[bk]
            b_e = b_less[bk + 1] - b_less[bk]
            # ahead now: opponents with smaller a
            counts[k, _AHEAD, _AHEAD] += ll
            counts[k, _AHEAD, _TIED] += le
            counts[k, _AHEAD, _BEHIND] += a_less - ll - le
            counts[k, _TIED, _AHEAD] += el
            counts[k, _TIED, _TIED] += ee
            counts[k, _TIED, _BEHIND] += a_equal - el - ee
            behind_ahead = b_l - ll - el
            behind_tied = b_e - le - ee
            counts[k, _BEHIND, _AHEAD] += behind_ahead
            counts[k, _BEHIND, _TIED] += behind_tied
            counts[k, _BEHIND, _BEHIND] += (m - a_less - a_equal) - behind_ahead - behind_tied
        for i in range(start, stop):
            j = b[order[i]] + 1
            while j <= nb_values:
                tree[j] += 1
                j += j & -j
        start = stop


@nb.njit(cache=True)
def _board_ehs(board: np.ndarray, size: int, hand_cards: np.ndarray, hand_index: np.ndarray) -> np.ndarray:
    """EHS of every hand on ``board[:size]`` (3 to 5 cards); NaN for hands that use a board card."""
    remaining = unused_cards(board[:size])
    n = remaining.shape[0]
    m = n * (n - 1) // 2
    hands = np.empty(m, dtype=np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            hands[k] = hand_index[remaining[i], remaining[j]]
            k += 1
    position = np.full(hand_cards.shape[0], -1, dtype=np.int64)
    for k in range(m):
        position[hands[k]] = k
    # hands holding each card, by position in ``hands``
    holding = np.empty((52, n - 1), dtype=np.int64)
    filled = np.zeros(52, dtype=np.int64)
    for k in range(m):
        for c in (hand_cards[hands[k], 0], hand_cards[hands[k], 1]):
            holding[c, filled[c]] = k
            filled[c] += 1
    now = np.empty(m, dtype=np.int64)
    _ranks_on(board, size, hands, hand_cards, now)
    out = np.full(hand_cards.shape[0], np.nan)
    # hand strength now
    dense_now = _dense(now)
    top = dense_now.max() + 2
    below = np.zeros(top + 1, dtype=np.int64)
    for k in range(m):
        below[dense_now[k] + 1] += 1
    for v in range(1, top + 1):
        below[v] += below[v - 1]
    strength = np.empty(m)
    for k in range(m):
        d = dense_now[k]
        ahead = below[d]
        tied = below[d + 1] - below[d]
        for c in (hand_cards[hands[k], 0], hand_cards[hands[k], 1]):
            for q in holding[c]:
                dq = dense_now[q]
                if dq < d:
                    ahead -= 1
                elif dq == d:
                    tied -= 1
        tied += 1  # the hand itself sits in both card lists and was removed twice
        total = m - (2 * n - 3)
        behind = total - ahead - tied
        strength[k] = (ahead + 0.5 * tied) / (ahead + tied + behind)
    if size == 5:
        for k in range(m):
            out[hands[k]] = strength[k]
        return out
    # one-card look-ahead
    transitions = np.zeros((m, 3, 3), dtype=np.int64)
    nxt_board = np.empty(7, dtype=np.int64)
    nxt_board[:size] = board[:size]
    keep = np.empty(m - (n - 1), dtype=np.int64)
    for ci in range(n):
        card = remaining[ci]
        nxt_board[size] = card
        q = 0
        for k in range(m):
            if hand_cards[hands[k], 0] != card and hand_cards[hands[k], 1] != card:
                keep[q] = k
                q += 1
        sub_hands = hands[keep]
        nxt = np.empty(q, dtype=np.int64)
        _ranks_on(nxt_board, size + 1, sub_hands, hand_cards, nxt)
        sub_now = now[keep]
        counts = np.zeros((q, 3, 3), dtype=np.int64)
        _joint_counts(sub_now, nxt, counts)
        # remove opponents sharing a card with the measured hand (the hand itself included)
        sub_pos = np.full(m, -1, dtype=np.int64)
        for i in range(q):
            sub_pos[keep[i]] = i
        for i in range(q):
            k = keep[i]
            a0 = sub_now[i]
            b0 = nxt[i]
            first = hand_cards[hands[k], 0]
            second = hand_cards[hands[k], 1]
            for c in (first, second):
                for other in holding[c]:
                    j = sub_pos[other]
                    if j < 0:
                        continue
                    if c == second and (hand_cards[hands[other], 0] == first or hand_cards[hands[other], 1] == first):
                        continue  # already removed with the first card
                    counts[i, _sign(a0, sub_now[j]), _sign(b0, nxt[j])] -= 1
            for s in range(3):
                for t in range(3):
                    transitions[k, s, t] += counts[i, s, t]
    for k in range(m):
        hp = transitions[k]
        behind_total = hp[_BEHIND, 0] + hp[_BEHIND, 1] + hp[_BEHIND, 2]
        tied_total = hp[_TIED, 0] + hp[_TIED, 1] + hp[_TIED, 2]
        ahead_total = hp[_AHEAD, 0] + hp[_AHEAD, 1] + hp[_AHEAD, 2]
        pden = behind_total + 0.5 * tied_total
        nden = ahead_total + 0.5 * tied_total
        ppot = (hp[_BEHIND, _AHEAD] + 0.5 * hp[_BEHIND, _TIED] + 0.5 * hp[_TIED, _AHEAD]) / pden if pden > 0 else 0.0
        npot = (hp[_AHEAD, _BEHIND] + 0.5 * hp[_TIED, _BEHIND] + 0.5 * hp[_AHEAD, _TIED]) / nden if nden > 0 else 0.0
        hs = strength[k]
        out[hands[k]] = hs * (1.0 - npot) + (1.0 - hs) * ppot
    return out


@nb.njit(cache=True)
def _hand_ehs(first: int, second: int, board: np.ndarray, size: int) -> float:
    """EHS of one hand by direct enumeration (the same numbers as :func:`_board_ehs`)."""
    known = np.empty(size + 2, dtype=np.int64)
    known[:size] = board[:size]
    known[size] = first
    known[size + 1] = second
    rest = unused_cards(known)
    n = rest.shape[0]
    cards = np.empty(7, dtype=np.int64)
    cards[:size] = board[:size]
    cards[size] = first
    cards[size + 1] = second
    mine_now = rank_hand(cards, size + 2)
    m = n * (n - 1) // 2
    opp0 = np.empty(m, dtype=np.int64)
    opp1 = np.empty(m, dtype=np.int64)
    now = np.empty(m, dtype=np.int64)
    k = 0
    status = np.zeros(3)
    for i in range(n):
        for j in range(i + 1, n):
            opp0[k] = rest[i]
            opp1[k] = rest[j]
            cards[size] = rest[i]
            cards[size + 1] = rest[j]
            now[k] = rank_hand(cards, size + 2)
            status[_sign(mine_now, now[k])] += 1
            k += 1
    hs = (status[_AHEAD] + 0.5 * status[_TIED]) / m
    if size == 5:
        return float(hs)
    hp = np.zeros((3, 3))
    for ci in range(n):
        c = rest[ci]
        cards[size] = c
        cards[size + 1] = first
        cards[size + 2] = second
        mine = rank_hand(cards, size + 3)
        for k in range(m):
            if opp0[k] == c or opp1[k] == c:
                continue
            cards[size + 1] = opp0[k]
            cards[size + 2] = opp1[k]
            hp[_sign(mine_now, now[k]), _sign(mine, rank_hand(cards, size + 3))] += 1
        cards[size + 1] = first
        cards[size + 2] = second
    behind_total = hp[_BEHIND].sum()
    tied_total = hp[_TIED].sum()
    ahead_total = hp[_AHEAD].sum()
    pden = behind_total + 0.5 * tied_total
    nden = ahead_total + 0.5 * tied_total
    ppot = (hp[_BEHIND, _AHEAD] + 0.5 * hp[_BEHIND, _TIED] + 0.5 * hp[_TIED, _AHEAD]) / pden if pden > 0 else 0.0
    npot = (hp[_AHEAD, _BEHIND] + 0.5 * hp[_TIED, _BEHIND] + 0.5 * hp[_AHEAD, _TIED]) / nden if nden > 0 else 0.0
    return float(hs * (1.0 - npot) + (1.0 - hs) * ppot)


def hand_ehs(hole: Sequence[int], board: Sequence[int]) -> float:
    """EHS of one two-card ``hole`` on ``board`` (3 to 5 cards)."""
    if len(hole) != 2 or not 3 <= len(board) <= 5 or len(set(hole) | set(board)) != len(hole) + len(board):
        raise ValueError(f"need two hole cards and 3 to 5 board cards, all distinct: {list(hole)}, {list(board)}")
    cards = np.zeros(7, dtype=np.int64)
    cards[: len(board)] = board
    return float(_hand_ehs(int(hole[0]), int(hole[1]), cards, len(board)))


def board_ehs(board: Sequence[int] | np.ndarray) -> np.ndarray:
    """EHS (see the module docstring) of all 1326 hands on ``board`` (3 to 5 cards); NaN where a
    hand uses a board card, over :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`."""
    if not 3 <= len(board) <= 5 or len(set(board)) != len(board):
        raise ValueError(f"a board has 3 to 5 distinct cards, got {list(board)}")
    cards = np.zeros(7, dtype=np.int64)
    cards[: len(board)] = board
    return _board_ehs(cards, len(board), HOLDINGS, HOLDING_INDEX)


__all__ = ["board_ehs", "hand_ehs"]
