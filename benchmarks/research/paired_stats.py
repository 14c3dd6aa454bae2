"""Paired comparison of two duplicate matches played on the same deals (same seed).

Run: python benchmarks/research/paired_stats.py DIR_A DIR_B [DIR_A2 DIR_B2 ...] [--player-prefix miximax] [--game GAME]

Each DIR is the ``--out`` folder of ``pokerbot match --duplicate`` (``match.log`` and
``match-swapped.log``). For every deal the player's value is the mean of its two hands
(one in each seat), as ``pokerbot match --duplicate`` computes it; the script prints each
match's mean and the mean of the per-deal differences A - B, in mbb/hand with the 95 %
interval over deals. With the same seed both matches see the same cards, so the paired
difference cancels much of the card luck. Given several pairs (each pair its own game of
deals, for example one per opponent), it also prints the differences pooled with
inverse-variance weights. Used for the learning-on vs learning-off study in
docs/agent.md:

    pokerbot match --players miximax:0.05 bluffer --hands 1000 --in-process --duplicate --seed 12 --out on
    pokerbot match --players miximax-static:0.05 bluffer --hands 1000 --in-process --duplicate --seed 12 --out off
    python benchmarks/research/paired_stats.py on off
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.matchlog import parse_state_line


def per_deal(folder: Path, prefix: str, game: Game) -> dict[int, float]:
    """Deal number -> mean chips of the player whose name starts with ``prefix``."""
    values: dict[int, list[float]] = {}
    for name in ("match.log", "match-swapped.log"):
        for line in (folder / name).read_text().splitlines():
            if not line.startswith("STATE:"):
                continue
            hand = parse_state_line(line, game)
            seat = next(i for i, player in enumerate(hand.names) if player.startswith(prefix))
            values.setdefault(hand.hand_number, []).append(hand.values[seat])
    return {deal: sum(pair) / 2 for deal, pair in values.items() if len(pair) == 2}


def mean_and_interval(samples: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95 % interval (1.96 standard errors)."""
    mean = sum(samples) / len(samples)
    variance = sum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
    return mean, 1.96 * math.sqrt(variance / len(samples))


def pooled(estimates: list[tuple[float, float]]) -> tuple[float, float]:
    """Inverse-variance weighted mean of ``(mean, 95 % half-width)`` estimates, and its half-width."""
    weights = [1.0 / half**2 for _, half in estimates]
    total = sum(weights)
    return sum(w * mean for w, (mean, _) in zip(weights, estimates)) / total, math.sqrt(1.0 / total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="DIR_A DIR_B, then more pairs to pool")
    parser.add_argument("--player-prefix", default="miximax")
    parser.add_argument("--game", default="holdem-nolimit-2p")
    args = parser.parse_args()
    if len(args.folders) % 2:
        parser.error("folders come in pairs: DIR_A DIR_B [DIR_A2 DIR_B2 ...]")
    game = load_game(args.game)
    scale = 1000.0 / game.big_blind
    differences: list[tuple[float, float]] = []
    for first, second in zip(args.folders[::2], args.folders[1::2]):
        a, b = per_deal(first, args.player_prefix, game), per_deal(second, args.player_prefix, game)
        deals = sorted(set(a) & set(b))
        print(f"{first} - {second}:")
        for label, series in (
            ("A", [a[d] for d in deals]),
            ("B", [b[d] for d in deals]),
            ("A - B", [a[d] - b[d] for d in deals]),
        ):
            mean, half = mean_and_interval(series)
            print(f"{label:6s} {mean * scale:+10.0f} +- {half * scale:.0f} mbb/hand ({len(deals)} deals)")
        differences.append((mean * scale, half * scale))
    if len(differences) > 1:
        mean, half = pooled(differences)
        print(f"pooled A - B {mean:+10.0f} +- {half:.0f} mbb/hand (inverse-variance weights, {len(differences)} pairs)")


if __name__ == "__main__":
    main()
