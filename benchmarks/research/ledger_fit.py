"""Fit weights for the betting to come in the safe agent's ledger, and measure its spread.

The ledger books each hand's value less the luck of our cards (:func:`~pokerbot.strategies.
safe.values.hand_value`): chance corrections ``2 m_r (e_r - e_(r-1))`` a round, ``m_r`` the
chips matched when round ``r``'s cards came. Corrections ``2 (m_r + w_r b_r) (e_r -
e_(r-1))``, ``b_r`` the chips behind, would also count the betting to come: any weights ``w``
keep the value unbiased; good ones would lower its spread, and so the number of hands the
ledger needs to show an opponent's gifts (measured: by 0 to 3 %, so the ledger keeps ``w`` =
0). This script reads ACPC logs (both players'
cards), computes every hand's value and corrections from each player's side, fits ``w`` by
least squares (the value on the ``b`` terms, the ``m`` terms' weight kept at 1), and prints
the standard deviation of one hand's booked value with no corrections, with today's (``w``
= 0) and with the fitted weights, **cross-fitted**: the weights applied to each group of logs
are fitted on the other groups only:

    python benchmarks/research/ledger_fit.py --game holdem-nolimit-2p --group A.log B.log --group C.log ...

Amounts in big blinds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.matchlog import read_log
from pokerbot.strategies.safe.values import hand_value, luck_features


def rows(paths: list[Path], game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per hand and side: the all-in adjusted value, the ``m`` corrections' sum and the ``b``
    corrections by round (chips)."""
    values, matched, stake = [], [], []
    for path in paths:
        for hand in read_log(path.read_text().splitlines(), game).hands:
            for position in range(2):
                seed = hand.hand_number
                values.append(hand_value(hand.state, position, seed=seed, luck=False))
                m, b = luck_features(hand.state, position, seed=seed)
                matched.append(float(m.sum()))
                stake.append(b)
    return np.asarray(values), np.asarray(matched), np.asarray(stake)


def fit(values: np.ndarray, matched: np.ndarray, stake: np.ndarray) -> np.ndarray:
    """The weights ``w`` minimising the spread of ``values - matched - stake @ w``."""
    target = values - matched
    design = np.column_stack([stake, np.ones(len(target))])
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    return solution[:-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--group", nargs="+", type=Path, action="append", required=True, help="logs of one group")
    args = parser.parse_args()
    game = load_game(args.game)
    big_blind = game.big_blind
    data = [rows(group, game) for group in args.group]
    print(f"{'group':<40} {'hands':>6} {'raw':>8} {'today':>8} {'fitted':>8}   weights fitted on the others")
    for k, (values, matched, stake) in enumerate(data):
        if len(args.group) > 1:
            others = [d for j, d in enumerate(data) if j != k]
            weights = fit(*(np.concatenate(parts) for parts in zip(*others, strict=True)))
        else:
            weights = fit(values, matched, stake)
        raw = np.std(values) / big_blind
        today = np.std(values - matched) / big_blind
        fitted = np.std(values - matched - stake @ weights) / big_blind
        name = ",".join(p.parent.name + "/" + p.name for p in args.group[k])[:40]
        print(f"{name:<40} {len(values):>6} {raw:8.2f} {today:8.2f} {fitted:8.2f}   {np.round(weights, 4).tolist()}")
    everything = [np.concatenate(parts) for parts in zip(*data, strict=True)]
    print(f"weights fitted on every group: {np.round(fit(*everything), 4).tolist()}")


if __name__ == "__main__":
    main()
