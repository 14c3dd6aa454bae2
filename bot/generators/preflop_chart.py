"""Generate the pre-flop chart data file (``strategies/data/preflop_chart.json``).

Run ``python -m pokerbot.bot.generators.preflop_chart [--out PATH] [--iterations N]``; it takes
under a minute on one core (38 s measured under load) and is deterministic (fixed seeds). Nothing in the chart is
typed by hand: every entry follows from the equity matrix and the rules below.

**Equity matrix.** For the 169 starting-hand classes, ``M[i][j]`` is the all-in pre-flop
equity (ties half) of class ``i`` against class ``j``: one representative combination of
``i`` (the first in card order) against every combination of ``j`` that shares no card
with it, by eval7's Monte Carlo
(:func:`pokerbot.protocol.analysis.equity.sampled_equity_vs_range`, :data:`ITERATIONS` boards,
eval7's generator seeded once with :data:`SEED`), then symmetrised, ``M <- (M + 1 - M^T) / 2``.
Error: each estimate has a standard deviation of at most ``0.5 / sqrt(ITERATIONS)`` (0.0035 at 20 000), 0.0025 after
symmetrising; the representative combination adds a suit effect of about 0.01 at most
(e.g. flush blockers). ``W[i][j]`` counts the combinations of ``j`` compatible with a
combination of ``i`` (averaged over ``i``'s combinations, exact), so ranges weigh classes
by combinations with card removal. Each class's equity against a random hand, which ranks
the classes for the ranges below, is the protocol's pre-flop table
(:func:`pokerbot.protocol.analysis.preflop.preflop_class_equity`,
:mod:`pokerbot.bot.generators.preflop_equity`), not in the chart file.

**Short stacks** (effective stack up to :data:`PUSH_FOLD_MAX_BB` big blinds): the heads-up
push/fold game (the button pushes all-in or folds; the big blind calls or folds) is solved
by fictitious play (:data:`FICTITIOUS_PLAY_ITERATIONS` iterations) on ``M`` and ``W`` at each
stack bucket. Actions: the button pushes its push range (``a``) else folds; facing any raise
a player goes all-in (``a``) with the equilibrium calling range, else folds; the big blind
facing a limp shoves the push range and checks the rest.

**Deep stacks**: an equity-threshold rule. A player who has put ``b`` big blinds in is taken
to hold the top ``q(b) = min(1, RANGE_SCALE / b)`` share of combinations (ranked by equity
against a random hand; at least :data:`MIN_RANGE`); ``b = 1`` (the big blind's forced bet)
is the random range. With ``e`` our equity against that range and ``own`` our chips in
(0.5 big blind for the button's first action, 1 for the big blind facing an open or limp,
``b / 3`` facing a re-raise), pot odds are ``(b - own) / (2 b)``. We raise (``r``: to
:data:`RAISE_MULTIPLE` times ``b``) when ``e >= RAISE_EQUITY`` (``OPEN_EQUITY`` unopened),
or go all-in (``a``) instead when ``e >= ALL_IN_EQUITY`` and the raise would put more than a
third of the stack in; else we call (``c``) when ``e * REALISATION >= pot odds`` (``e`` alone
against an all-in), else fold (``f``; the agent checks when checking is free).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from pokerbot.protocol.analysis.equity import Eval7Range, sampled_equity_vs_range
from pokerbot.protocol.analysis.preflop import CLASSES, class_combos, preflop_class_equity
from pokerbot.strategies.miximax.preflop import (
    ACTION_CODES,
    CHART_FORMAT,
    CHART_VERSION,
    DEFAULT_CHART_PATH,
    POSITIONS,
)
from pokerbot.strategies.miximax.preflop_policy import (
    ALL_IN_EQUITY,
    MIN_RANGE,
    OPEN_EQUITY,
    RAISE_EQUITY,
    RAISE_MULTIPLE,
    RANGE_SCALE,
    REALISATION,
)

ITERATIONS = 20_000
SEED = 20_260_522
PUSH_FOLD_MAX_BB = 20.0
STACK_BUCKETS_BB = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 30.0, 50.0, 100.0, 200.0, 400.0)
"""Effective stacks (big blinds) the chart is computed at; a stack uses the smallest >= it."""
FACED_BUCKETS_BB = (1.0, 2.0, 3.0, 4.0, 6.0, 9.0, 13.0, 20.0, 30.0, 50.0, 100.0, 200.0, 400.0)
"""The opponent's chips in (big blinds) the chart is computed at; same lookup rule."""
FICTITIOUS_PLAY_ITERATIONS = 400


def equity_matrix(iterations: int = ITERATIONS, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """``(M, W)`` of the module docstring, over :data:`~pokerbot.protocol.analysis.preflop.CLASSES` in order."""
    classes = CLASSES
    combos = [class_combos(label) for label in classes]
    n = len(classes)
    next_seed: int | None = seed  # eval7's generator is seeded once, before the first estimate
    raw = np.zeros((n, n))
    weights = np.zeros((n, n))
    for i in range(n):
        hero = combos[i][0]
        for j in range(n):
            counts = [sum(1 for other in combos[j] if not set(other) & set(mine)) for mine in combos[i]]
            weights[i, j] = sum(counts) / len(counts)
            if j < i:
                continue
            villain = Eval7Range((a, b) for a, b in combos[j] if not {a, b} & set(hero))
            raw[i, j] = sampled_equity_vs_range(hero, villain, (), iterations, seed=next_seed)
            next_seed = None
    for i in range(n):
        for j in range(i):
            raw[i, j] = 1.0 - raw[j, i]
    matrix = (raw + 1.0 - raw.T) / 2.0
    return matrix, weights


def push_fold(
    matrix: np.ndarray, weights: np.ndarray, stack_bb: float, iterations: int = FICTITIOUS_PLAY_ITERATIONS
) -> tuple[np.ndarray, np.ndarray]:
    """The button's push and the big blind's call probabilities per class at ``stack_bb``
    (fictitious play; values in big blinds, blinds 0.5 and 1)."""
    n = matrix.shape[0]
    push = np.ones(n)
    call = np.ones(n)
    showdown = 2.0 * stack_bb * matrix - stack_bb  # the button's net when called, per (i, j)
    for t in range(1, iterations + 1):
        # the button's best response to the average call strategy
        w_call = weights * call[None, :]
        ev_push = ((weights - w_call) * 1.0 + w_call * showdown).sum(1) / weights.sum(1)
        best_push = (ev_push > -0.5).astype(float)
        # the big blind's best response to the average push strategy: call for hand j
        w_push = weights.T * push[None, :]  # rows: big blind class j, columns: pusher i
        mass = w_push.sum(1)
        ev_call = np.where(
            mass > 0, (w_push * (2.0 * stack_bb * matrix - stack_bb)).sum(1) / np.maximum(mass, 1e-12), 0.0
        )
        best_call = (ev_call > -1.0).astype(float)
        push += (best_push - push) / (t + 1)
        call += (best_call - call) / (t + 1)
    return push, call


def _top_range(order: np.ndarray, combos: np.ndarray, share: float) -> np.ndarray:
    """Indicator weights of the top ``share`` of combinations (classes in ``order``)."""
    total = combos.sum()
    chosen = np.zeros(len(order))
    taken = 0.0
    for index in order:
        if taken >= share * total:
            break
        chosen[index] = 1.0
        taken += combos[index]
    return chosen


def _deep_codes(
    matrix: np.ndarray, weights: np.ndarray, vs_random: np.ndarray, position: str, faced: float, stack: float
) -> str:
    order = np.argsort(-vs_random, kind="stable")
    combos = weights.sum(0) / weights.sum(0).max() * 1.0
    share = 1.0 if faced <= 1.0 else max(MIN_RANGE, min(1.0, RANGE_SCALE / faced))
    villain = _top_range(order, combos, share) if share < 1.0 else np.ones(len(order))
    w = weights * villain[None, :]
    equity = (w * matrix).sum(1) / w.sum(1)
    unopened = position == POSITIONS[0] and faced <= 1.0
    own = 0.5 if unopened else 1.0 if faced <= 4.0 else faced / RAISE_MULTIPLE
    own = min(own, faced)
    all_in_faced = faced >= stack
    odds = (faced - own) / (2.0 * faced)
    codes = []
    for e in equity:
        raise_to = RAISE_MULTIPLE * faced
        threshold = OPEN_EQUITY if unopened else RAISE_EQUITY
        if all_in_faced:
            codes.append("c" if e >= odds else "f")
        elif e >= threshold and raise_to <= stack / 3.0:
            codes.append("r")
        elif e >= ALL_IN_EQUITY and raise_to > stack / 3.0:
            codes.append("a")
        elif e * REALISATION >= odds:
            codes.append("c")
        else:
            codes.append("f")
    return "".join(codes)


def _short_codes(push: np.ndarray, call: np.ndarray, position: str, faced: float) -> str:
    shove = push >= 0.5
    calls = call >= 0.5
    if position == POSITIONS[0] and faced <= 1.0:
        return "".join("a" if s else "f" for s in shove)
    if faced <= 1.0:  # the big blind facing a limp
        return "".join("a" if s else "c" for s in shove)
    return "".join("a" if c else "f" for c in calls)


def build_chart(iterations: int = ITERATIONS) -> dict[str, object]:
    """The whole data file as a JSON-ready dictionary."""
    classes = CLASSES
    matrix, weights = equity_matrix(iterations)
    by_class = preflop_class_equity()
    vs_random = np.array([by_class[label] for label in classes])
    charts: dict[str, list[list[str]]] = {position: [] for position in POSITIONS}
    equilibria = {stack: push_fold(matrix, weights, stack) for stack in STACK_BUCKETS_BB if stack <= PUSH_FOLD_MAX_BB}
    for position in POSITIONS:
        for faced in FACED_BUCKETS_BB:
            row = []
            for stack in STACK_BUCKETS_BB:
                if stack <= PUSH_FOLD_MAX_BB:
                    push, call = equilibria[stack]
                    row.append(_short_codes(push, call, position, faced))
                else:
                    row.append(_deep_codes(matrix, weights, vs_random, position, faced, stack))
            charts[position].append(row)
    assert all(set(code) <= set(ACTION_CODES) for rows in charts.values() for row in rows for code in row)
    return {
        "format": CHART_FORMAT,
        "version": CHART_VERSION,
        "method": {
            "iterations": iterations,
            "seed": SEED,
            "push_fold_max_bb": PUSH_FOLD_MAX_BB,
            "fictitious_play_iterations": FICTITIOUS_PLAY_ITERATIONS,
            "range_scale": RANGE_SCALE,
            "min_range": MIN_RANGE,
            "raise_multiple": RAISE_MULTIPLE,
            "open_equity": OPEN_EQUITY,
            "raise_equity": RAISE_EQUITY,
            "all_in_equity": ALL_IN_EQUITY,
            "realisation": REALISATION,
            "generator": "python -m pokerbot.bot.generators.preflop_chart",
        },
        "classes": list(classes),
        "equity_matrix": [[round(float(v), 4) for v in row] for row in matrix],
        "stack_buckets_bb": list(STACK_BUCKETS_BB),
        "faced_buckets_bb": list(FACED_BUCKETS_BB),
        "raise_multiple": RAISE_MULTIPLE,
        "charts": charts,
    }


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: write the chart file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_CHART_PATH)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    args = parser.parse_args(argv)
    start = time.monotonic()
    data = build_chart(args.iterations)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {args.out} in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main()
