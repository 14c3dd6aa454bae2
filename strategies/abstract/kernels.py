"""The numba hot loops: deal sampling, outcome-sampling MCCFR / MCRNR, external-sampling
MCCFR and MCTS over a :class:`~pokerbot.strategies.abstract.betting.BettingTree` and the card
abstraction's deal tables.

Every kernel takes three bundles: the tree (:class:`~pokerbot.strategies.betting.tree.TreeArrays`,
``base`` the information-set rows), the deal tables (:class:`DealArrays`) and the run's tables
(:class:`SolverArrays`); and it runs ``count`` iterations in one call from the generator state
(:func:`~pokerbot.protocol.analysis.splitmix.new_rng`) and the iteration counter, so a run cut
into chunks, or stopped and resumed from a checkpoint, does exactly what one call would.
Tables are ``float64[games, infosets, max_actions]`` (external sampling: float32 too); ``games``
is 1, or 2 for MCRNR (game ``g`` restricts position ``g``). Payoffs are chips.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba as nb
import numpy as np

from pokerbot.protocol.analysis.splitmix import next_below, next_float
from pokerbot.strategies.betting.tree import TreeArrays
from pokerbot.strategies.regret import regret_match

MAX_DEPTH = 64


class DealArrays(NamedTuple):
    """The deal tables the kernels sample from: ``hand_masks[hand]`` and ``board_masks[board]``
    (card bit sets), ``buckets[board, round, hand]``, ``strength[board, hand]`` (showdown rank
    on the full board)."""

    hand_masks: np.ndarray
    board_masks: np.ndarray
    buckets: np.ndarray
    strength: np.ndarray

    @classmethod
    def of(cls, tables: Any) -> DealArrays:
        """The arrays of a card abstraction's deal tables (any object with these attributes)."""
        return cls(tables.hand_masks, tables.board_masks, tables.buckets, tables.strength)


class SolverArrays(NamedTuple):
    """A run's tables: ``regrets`` and ``cumulative`` (``[games, infosets, max_actions]``; MCTS
    keeps its payoff sums in ``regrets`` and its visit counts in ``cumulative``) and
    ``last_visit[games, infosets]`` (the iteration that last updated a row's average)."""

    regrets: np.ndarray
    cumulative: np.ndarray
    last_visit: np.ndarray


@nb.njit(cache=True, inline="always")
def sample_deal(state: np.ndarray, deals: DealArrays, out: np.ndarray) -> int:
    """Draw a board and two disjoint hands; write ``out[position, round]`` buckets and return
    the showdown sign from position 0's side (+1 wins, 0 tie, -1 loses)."""
    hand_masks, board_masks, buckets, strength = deals.hand_masks, deals.board_masks, deals.buckets, deals.strength
    board = next_below(state, board_masks.shape[0])
    taken = board_masks[board]
    while True:
        first = next_below(state, hand_masks.shape[0])
        if hand_masks[first] & taken == 0:
            break
    taken |= hand_masks[first]
    while True:
        second = next_below(state, hand_masks.shape[0])
        if hand_masks[second] & taken == 0:
            break
    for r in range(buckets.shape[1]):
        out[0, r] = buckets[board, r, first]
        out[1, r] = buckets[board, r, second]
    a = strength[board, first]
    b = strength[board, second]
    return 1 if a > b else (0 if a == b else -1)


@nb.njit(cache=True, inline="always")
def terminal_value(tree: TreeArrays, node: int, sign: int) -> float:
    """Position 0's payoff in chips at terminal ``node`` (``sign``: the showdown's, +1 it wins)."""
    who = tree.folder[node]
    if who == 0:
        return -float(tree.spent[node, 0])
    if who == 1:
        return float(tree.spent[node, 1])
    return float(sign * tree.stake[node])


@nb.njit(cache=True, inline="always")
def _pick(state: np.ndarray, probabilities: np.ndarray, n: int) -> int:
    u = next_float(state)
    acc = 0.0
    for a in range(n - 1):
        acc += probabilities[a]
        if u < acc:
            return a
    return n - 1


@nb.njit(cache=True)
def os_mccfr(
    count: int,
    start: int,
    state: np.ndarray,
    tree: TreeArrays,
    deals: DealArrays,
    tables: SolverArrays,
    epsilon: float,
    fixed: np.ndarray,
    p_fixed: float,
) -> None:
    """Iterations ``start + 1 .. start + count`` of outcome-sampling MCCFR (Ponsen et al. Algorithm 1).

    With two games in the tables this is MCRNR (Algorithm 2): iteration ``t`` plays game
    ``t % 2`` whose position ``g`` is restricted; a hidden coin puts the iteration in the
    restricted subtree with probability ``p_fixed``, where position ``g`` follows ``fixed``
    (no regrets or averages for it there); otherwise both positions regret-match.
    """
    children, num_actions, player, rounds, base = tree.children, tree.num_actions, tree.player, tree.round, tree.base
    regrets, cumulative, last_visit = tables.regrets, tables.cumulative, tables.last_visit
    width = children.shape[1]
    games = regrets.shape[0]
    deal = np.zeros((2, deals.buckets.shape[1]), dtype=np.int64)
    path_row = np.zeros(MAX_DEPTH, dtype=np.int64)
    path_player = np.zeros(MAX_DEPTH, dtype=np.int64)
    path_action = np.zeros(MAX_DEPTH, dtype=np.int64)
    path_n = np.zeros(MAX_DEPTH, dtype=np.int64)
    path_fixed = np.zeros(MAX_DEPTH, dtype=np.bool_)
    path_own = np.zeros(MAX_DEPTH)
    path_other = np.zeros(MAX_DEPTH)
    path_sigma = np.zeros((MAX_DEPTH, width))
    total = np.zeros(1)
    sampling = np.zeros(width)
    reach = np.zeros(2)
    for step in range(count):
        t = start + step + 1
        g = t % games
        sign = sample_deal(state, deals, deal)
        restricted = games == 2 and next_float(state) < p_fixed
        reach[0] = 1.0
        reach[1] = 1.0
        q = 1.0
        node = 0
        depth = 0
        while num_actions[node] > 0:
            p = player[node]
            n = num_actions[node]
            row = base[node] + deal[p, rounds[node]]
            sigma = path_sigma[depth]
            is_fixed = restricted and p == g
            if is_fixed:
                for a in range(n):
                    sigma[a] = fixed[row, a]
            else:
                regret_match(regrets[g, row], 0, n, sigma, total, False)
            for a in range(n):
                sampling[a] = epsilon / n + (1.0 - epsilon) * sigma[a]
            a = _pick(state, sampling, n)
            path_row[depth] = row
            path_player[depth] = p
            path_action[depth] = a
            path_n[depth] = n
            path_fixed[depth] = is_fixed
            path_own[depth] = reach[p]
            path_other[depth] = reach[1 - p]
            reach[p] *= sigma[a]
            q *= sampling[a]
            node = children[node, a]
            depth += 1
        value0 = terminal_value(tree, node, sign)
        tail = 1.0
        for d in range(depth - 1, -1, -1):
            a = path_action[d]
            sigma = path_sigma[d]
            if not path_fixed[d]:
                p = path_player[d]
                row = path_row[d]
                n = path_n[d]
                utility = value0 if p == 0 else -value0
                w = utility * path_other[d] / q
                lag = t - last_visit[g, row]
                for b in range(n):
                    if b == a:
                        regrets[g, row, b] += w * tail * (1.0 - sigma[a])
                    else:
                        regrets[g, row, b] -= w * tail * sigma[a]
                    cumulative[g, row, b] += lag * path_own[d] * sigma[b]
                last_visit[g, row] = t
            tail *= sigma[a]


@nb.njit(cache=True)
def _es_traverse(
    traverser: int,
    sign: int,
    deal: np.ndarray,
    state: np.ndarray,
    tree: TreeArrays,
    regrets: np.ndarray,
    cumulative: np.ndarray,
    frames: np.ndarray,
    sigmas: np.ndarray,
    values: np.ndarray,
    explored: np.ndarray,
    total: np.ndarray,
    prune: bool,
    prune_below: float,
    floor: float,
) -> float:
    """One external-sampling traversal for ``traverser`` (depth first, with an explicit stack:
    ``frames[depth] = (node, phase, action, row)``, phase 0 entering, 1 exploring, 2 passing).
    With ``prune``, the traverser skips the actions whose regret is below ``prune_below``,
    except those that end the hand and those of the last round; regrets are floored at ``floor``."""
    children, num_actions, player, rounds, base = tree.children, tree.num_actions, tree.player, tree.round, tree.base
    last_round = 0
    for r in rounds:
        last_round = max(last_round, r)
    depth = 0
    frames[0, 0] = 0
    frames[0, 1] = 0
    result = 0.0
    while depth >= 0:
        node = frames[depth, 0]
        phase = frames[depth, 1]
        if phase == 0:
            n = num_actions[node]
            if n == 0:
                value0 = terminal_value(tree, node, sign)
                result = value0 if traverser == 0 else -value0
                depth -= 1
                continue
            p = player[node]
            row = base[node] + deal[p, rounds[node]]
            frames[depth, 3] = row
            sigma = sigmas[depth]
            regret_match(regrets[0, row], 0, n, sigma, total, False)
            if p != traverser:
                for a in range(n):
                    cumulative[0, row, a] += sigma[a]
                a = _pick(state, sigma, n)
                frames[depth, 1] = 2
            else:
                a = -1
                for b in range(n):
                    keep = (
                        not prune
                        or rounds[node] == last_round
                        or regrets[0, row, b] >= prune_below
                        or num_actions[children[node, b]] == 0
                    )
                    explored[depth, b] = keep
                    if keep and a < 0:
                        a = b
                if a < 0:  # every action pruned: explore them all
                    for b in range(n):
                        explored[depth, b] = True
                    a = 0
                frames[depth, 1] = 1
            frames[depth, 2] = a
            frames[depth + 1, 0] = children[node, a]
            frames[depth + 1, 1] = 0
            depth += 1
        elif phase == 1:
            a = frames[depth, 2]
            values[depth, a] = result
            n = num_actions[node]
            following = a + 1
            while following < n and not explored[depth, following]:
                following += 1
            if following < n:
                frames[depth, 2] = following
                frames[depth + 1, 0] = children[node, following]
                frames[depth + 1, 1] = 0
                depth += 1
            else:
                row = frames[depth, 3]
                sigma = sigmas[depth]
                value = 0.0
                for b in range(n):
                    if explored[depth, b]:
                        value += sigma[b] * values[depth, b]
                for b in range(n):
                    if explored[depth, b]:
                        r = regrets[0, row, b] + (values[depth, b] - value)
                        regrets[0, row, b] = r if r > floor else floor
                result = value
                depth -= 1
        else:
            depth -= 1
    return result


@nb.njit(cache=True)
def es_mccfr(
    count: int,
    start: int,
    state: np.ndarray,
    tree: TreeArrays,
    deals: DealArrays,
    tables: SolverArrays,
    prune_after: int = -1,
    prune_share: float = 0.0,
    prune_below: float = 0.0,
    floor: float = -np.inf,
) -> None:
    """Iterations ``start + 1 .. start + count`` of external-sampling MCCFR: each iteration deals
    once per traverser (position 0, then 1), explores all the traverser's actions and samples
    the opponent's; the opponent's average strategy accumulates its current strategy where it
    acts. Tables may be float32 or float64.

    Negative-regret pruning (Pluribus: Brown and Sandholm 2019, *Science*), from iteration
    ``prune_after + 1`` on when ``prune_after >= 0``: an iteration prunes with probability
    ``prune_share`` (one draw of the generator per iteration, none before), and a pruning
    traversal skips the traverser's actions whose regret is below ``prune_below`` (chips) except
    actions that end the hand and actions in the last round. Accumulated regrets are floored
    at ``floor`` (default: no floor) so that pruned actions can come back."""
    deal = np.zeros((2, deals.buckets.shape[1]), dtype=np.int64)
    frames = np.zeros((MAX_DEPTH, 4), dtype=np.int64)
    sigmas = np.zeros((MAX_DEPTH, tree.children.shape[1]))
    values = np.zeros((MAX_DEPTH, tree.children.shape[1]))
    explored = np.ones((MAX_DEPTH, tree.children.shape[1]), dtype=np.bool_)
    total = np.zeros(1)
    for step in range(count):
        t = start + step + 1
        prune = False
        if prune_after >= 0 and t > prune_after:
            prune = next_float(state) < prune_share
        for traverser in range(2):
            sign = sample_deal(state, deals, deal)
            _es_traverse(
                traverser, sign, deal, state, tree, tables.regrets, tables.cumulative, frames, sigmas, values,
                explored, total, prune, prune_below, floor,
            )  # fmt: skip


@nb.njit(cache=True)
def discount(tables: SolverArrays, positive: float, negative: float, average: float) -> None:
    """Multiply the positive regrets by ``positive``, the negative ones by ``negative`` and the
    average strategy's sums by ``average`` (a discounted rule's step,
    :meth:`~pokerbot.strategies.regret.UpdateRule.discounts`)."""
    regrets = tables.regrets.reshape(-1)
    cumulative = tables.cumulative.reshape(-1)
    for i in range(regrets.shape[0]):
        r = regrets[i]
        regrets[i] = r * positive if r > 0.0 else r * negative
        cumulative[i] *= average


@nb.njit(cache=True)
def mcts(
    count: int, state: np.ndarray, tree: TreeArrays, deals: DealArrays, tables: SolverArrays, exploration: float
) -> None:
    """Monte-Carlo tree search over information sets with UCT (Ponsen et al. section 3.2.1).

    ``visits[0, row, a]`` (``tables.cumulative``) counts the simulations that took action ``a``
    at information set ``row``, ``totals[0, row, a]`` (``tables.regrets``) sums the acting
    player's payoffs (chips) that followed.
    Selection and the on-policy simulation both take ``argmax v_a + C sqrt(ln n_I / n_a)``
    (untried actions first, ties to a random one); the policy is the visit shares.
    """
    children, num_actions, player, rounds, base = tree.children, tree.num_actions, tree.player, tree.round, tree.base
    visits, totals = tables.cumulative, tables.regrets
    deal = np.zeros((2, deals.buckets.shape[1]), dtype=np.int64)
    path_row = np.zeros(MAX_DEPTH, dtype=np.int64)
    path_player = np.zeros(MAX_DEPTH, dtype=np.int64)
    path_action = np.zeros(MAX_DEPTH, dtype=np.int64)
    for _ in range(count):
        sign = sample_deal(state, deals, deal)
        node = 0
        depth = 0
        while num_actions[node] > 0:
            p = player[node]
            n = num_actions[node]
            row = base[node] + deal[p, rounds[node]]
            seen = 0.0
            untried = 0
            for a in range(n):
                seen += visits[0, row, a]
                if visits[0, row, a] == 0.0:
                    untried += 1
            if untried > 0:
                k = next_below(state, untried)
                for a in range(n):
                    if visits[0, row, a] == 0.0:
                        if k == 0:
                            choice = a
                            break
                        k -= 1
            else:
                best = -np.inf
                ties = 0
                choice = 0
                log_seen = np.log(seen)
                for a in range(n):
                    score = totals[0, row, a] / visits[0, row, a] + exploration * np.sqrt(log_seen / visits[0, row, a])
                    if score > best:
                        best = score
                        choice = a
                        ties = 1
                    elif score == best:
                        ties += 1
                        if next_below(state, ties) == 0:
                            choice = a
            path_row[depth] = row
            path_player[depth] = p
            path_action[depth] = choice
            node = children[node, choice]
            depth += 1
        value0 = terminal_value(tree, node, sign)
        for d in range(depth):
            row = path_row[d]
            a = path_action[d]
            visits[0, row, a] += 1.0
            totals[0, row, a] += value0 if path_player[d] == 0 else -value0


__all__ = ["DealArrays", "SolverArrays", "discount", "es_mccfr", "mcts", "os_mccfr", "sample_deal", "terminal_value"]
