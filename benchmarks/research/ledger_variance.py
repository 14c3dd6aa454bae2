"""The safe agent's two hand values side by side on the blueprint's hands: spread, mean, time.

``python benchmarks/research/ledger_variance.py --game holdem-nolimit-2p --hands 300 --seed 11`` plays
``blueprint`` against each opponent (``--opponents``; in process, seats alternating) and
values every finished hand from the blueprint's seat both ways: at the holding dealt
(:func:`~pokerbot.strategies.safe.values.hand_value`, the ledger before imaginary
observations) and over the blueprint's range
(:func:`~pokerbot.strategies.safe.values.range_hand_value`, the default). Prints, in big
blinds a hand, the chips won, both values' means and standard deviations, the paired
difference of the two values with its 95 % interval (both are unbiased estimates of the same
expectation, so it should include 0), the ratio of the variances (the ledger needs about that
fraction of the hands to show the same edge), each value's median and largest time per
hand (seconds), and how soon a ledger with the game's default settings
(:func:`~pokerbot.strategies.safe.agent.default_settings`) fed each value stream shows
winnings (its bound ``won`` above 0, when the exploiter may first play): the median hand
over ``--orders`` random orders of the same hands (seeded; "never" when fewer than half of
the orders get there within the match).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

import numpy as np

from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.stats import mean_and_ci95
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.abstract.player import AbstractPolicyPlayer
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.safe.agent import default_settings
from pokerbot.strategies.safe.ledger import RiskLedger
from pokerbot.strategies.safe.values import hand_value, range_hand_value

OPPONENTS = ("always-call", "calling-station", "loose-passive", "random", "maniac", "tight-aggressive", "blueprint")


class Valued(AbstractPolicyPlayer):
    """The blueprint, valuing each of its finished hands both ways."""

    rows: list[tuple[float, float, float, float, float, int]]

    def observe(self, view: MatchState) -> None:
        state, position = view.state, view.position
        last = max((r for r, _actor, _action in state.history()), default=0)
        board = state.board_cards[: self.game.board_start[last] + self.game.num_board_cards[last]]
        start = time.perf_counter()
        plain = hand_value(state, position, seed=view.hand_number)
        middle = time.perf_counter()
        reach = self.reach(state, position, view.hand_number, board)
        assert reach is not None
        ranged = range_hand_value(state, position, reach, seed=view.hand_number)
        end = time.perf_counter()
        self.rows.append((float(state.values()[position]), plain, ranged, middle - start, end - middle, position))


def first_winnings(values: np.ndarray, positions: np.ndarray, game: Game, orders: int, seed: int) -> float:
    """The median, over ``orders`` random orders of the hands (``values`` in chips, played in
    ``positions``), of the first hand after which the default ledger's bound is above 0
    (infinity where it never is)."""
    generator = np.random.default_rng(seed)
    firsts = []
    for _ in range(orders):
        ledger = RiskLedger(default_settings(game), game.big_blind)
        first = math.inf
        for hand in generator.permutation(len(values)):
            ledger.settle(int(positions[hand]), float(values[hand]))
            if ledger.won() > 0.0:
                first = ledger.hands
                break
        firsts.append(first)
    return float(np.median(firsts))


def measure(game_name: str, opponent: str, hands: int, seed: int, orders: int = 200) -> dict[str, Any]:
    """One match of the blueprint against ``opponent``; the figures of the module docstring."""
    game = load_game(game_name)
    registry = default_registry()
    blueprint = registry.create("blueprint", game, strategy_seed(seed, "blueprint"))
    assert isinstance(blueprint, AbstractPolicyPlayer)
    blueprint.__class__ = Valued
    valued: Any = blueprint
    valued.rows = []
    other = registry.create(opponent, game, strategy_seed(seed, opponent))
    run_inprocess_match(game, hands, seed, [blueprint, other], ["blueprint", "opponent"])
    rows = np.asarray(valued.rows)
    big = game.big_blind
    chips, plain, ranged = rows[:, 0] / big, rows[:, 1] / big, rows[:, 2] / big
    difference, interval = mean_and_ci95(list(ranged - plain))
    return {
        "opponent": opponent,
        "hands": len(rows),
        "won": float(chips.mean()),
        "plain": (float(plain.mean()), float(plain.std(ddof=1))),
        "range": (float(ranged.mean()), float(ranged.std(ddof=1))),
        "difference": (difference, interval),
        "variance_ratio": float(ranged.var(ddof=1) / plain.var(ddof=1)),
        "first_winnings": tuple(first_winnings(rows[:, k], rows[:, 5], game, orders, seed) for k in (1, 2)),
        "seconds": (
            statistics.median(rows[:, 3]),
            float(rows[:, 3].max()),
            statistics.median(rows[:, 4]),
            float(rows[:, 4].max()),
        ),
    }


def _hands(first: float) -> str:
    return "never" if math.isinf(first) else f"{first:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS))
    parser.add_argument("--orders", type=int, default=200, help="random orders of the hands for the ledger's pace")
    args = parser.parse_args()
    print(f"{args.game}, blueprint against each opponent, {args.hands} hands, seed {args.seed} (big blinds a hand)")
    print(
        "| opponent | chips won | hand_value mean (sd) | range value mean (sd) | range - hand_value | "
        "variance ratio | seconds a hand: hand_value median/max, range median/max | "
        "winnings shown after (hands): hand_value, range |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for opponent in args.opponents:
        r = measure(args.game, opponent, args.hands, args.seed, args.orders)
        t = r["seconds"]
        print(
            f"| {opponent} | {r['won']:+.2f} | {r['plain'][0]:+.2f} ({r['plain'][1]:.1f}) | "
            f"{r['range'][0]:+.2f} ({r['range'][1]:.1f}) | {r['difference'][0]:+.2f} +- {r['difference'][1]:.2f} | "
            f"{r['variance_ratio']:.2f} | {t[0]:.3f}/{t[1]:.2f}, {t[2]:.3f}/{t[3]:.2f} | "
            f"{_hands(r['first_winnings'][0])}, {_hands(r['first_winnings'][1])} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
