"""The safe agent (``safe-miximax``) with and without an initial stake, side by side on the same deals.

``python benchmarks/research/adaptive_stake.py --stakes 0 20 --hands 200 --seed 11`` plays, for every
opponent of the issue-17 tables (``--opponents`` to choose), one duplicate match in process
(``--hands`` deals, each played twice with the seats exchanged) of ``safe-miximax:BUDGET`` whose
ledger has each initial stake ``B0`` of ``--stakes`` (big blinds; :class:`SafetySettings`
``initial``), every other setting the game's default. The same seed deals the same cards to
every variant, so the difference between two columns is paired. Prints mbb/hand with the 95 %
interval per opponent and stake, and how many hands the exploiter played. ``--cap BB`` sets
the ledger's cap in every variant (:class:`SafetySettings` ``cap``: the most one hand books);
``--plain`` values every hand at the holding dealt (``imaginary`` off); ``--pooled-spread``
takes each hand's deviation from the mean of all hands, not of its part's (``spread_by_part``
off).
"""

from __future__ import annotations

import argparse
import time

from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.stats import mean_and_ci95
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.safe.agent import SafeExploiter, default_settings, safe_exploiter_factory

OPPONENTS = (
    "always-fold",
    "always-call",
    "always-raise",
    "always-allin",
    "random",
    "push-fold",
    "calling-station",
    "loose-passive",
    "maniac",
    "loose-aggressive",
    "bluffer",
    "switcher",
    "tight-passive",
    "tight-aggressive",
    "nit",
    "blueprint",
)


def agent(game: Game, seed: int, budget: str, changes: dict[str, object], defend: bool = False) -> SafeExploiter:
    """``safe-miximax:BUDGET`` with the game's default ledger settings changed by ``changes``
    (:class:`SafetySettings` fields: ``initial``, ``cap``, ``spare``, ``imaginary``,
    ``spread_by_part``) and the blueprint's minimum defence when ``defend``."""
    settings = default_settings(game).model_copy(update=changes)
    return safe_exploiter_factory(game, seed, budget, settings, defend=defend)


def duplicate(
    game: Game,
    opponent: str,
    deals: int,
    seed: int,
    budget: str,
    changes: dict[str, object],
    defend: bool = False,
) -> tuple[list[float], int]:
    """The agent's mean winnings per deal over the two seatings (chips), and its exploiter's hands."""
    registry = default_registry()
    values: list[list[float]] = []
    exploited = 0
    for first in (True, False):
        hero = agent(game, strategy_seed(seed, "adaptive"), budget, changes, defend)
        other = registry.create(opponent, game, strategy_seed(seed, opponent))
        players, names = [hero, other], ["adaptive", "opponent"]
        if not first:
            players, names = players[::-1], names[::-1]
        outcome = run_inprocess_match(game, deals, seed, players, names)
        values.append([hand["adaptive"] for hand in outcome.per_hand_values])
        exploited += hero.exploited_hands
    return [(a + b) / 2 for a, b in zip(*values, strict=True)], exploited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--stakes", type=float, nargs="+", default=[0.0, 20.0])
    parser.add_argument("--hands", type=int, default=200, help="deals per match (each played twice)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--budget", default="500nodes", help="the exploiter's budget per decision")
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS))
    parser.add_argument("--cap", type=float, help="the ledger's cap in every variant (big blinds a hand)")
    parser.add_argument(
        "--spare", type=int, help="best hands the bound leaves out, every variant (default: the game's)"
    )
    parser.add_argument("--defend", action="store_true", help="the blueprint part with its minimum defence")
    parser.add_argument(
        "--plain", action="store_true", help="every hand valued at the holding dealt (no imaginary observations)"
    )
    parser.add_argument(
        "--pooled-spread",
        action="store_true",
        help="the spread around the mean of all hands, not of each part's (spread_by_part off)",
    )
    args = parser.parse_args()
    game = load_game(args.game)
    base: dict[str, object] = {"cap": args.cap, "imaginary": not args.plain, "spread_by_part": not args.pooled_spread}
    if args.spare is not None:
        base["spare"] = args.spare
    scale = 1000.0 / game.big_blind
    heads = " | ".join(f"B0 = {stake:g} BB (exploiter hands)" for stake in args.stakes)
    capped = f", cap {args.cap:g} BB" if args.cap is not None else ""
    spare = default_settings(game).spare if args.spare is None else args.spare
    capped += f", spare {spare}"
    capped += ", defended blueprint" if args.defend else ""
    capped += ", hands valued at the holding dealt" if args.plain else ", the blueprint's hands valued over its range"
    capped += ", spread around all hands' mean" if args.pooled_spread else ", spread around each part's mean"
    print(f"{args.game}, adaptive:{args.budget}{capped}, {args.hands} deals in duplicate, seed {args.seed}")
    print(f"| opponent | {heads} | seconds |")
    print("|---|" + "---|" * (len(args.stakes) + 1))
    for opponent in args.opponents:
        start = time.monotonic()
        cells = []
        for stake in args.stakes:
            changes = base | {"initial": stake}
            deals, exploited = duplicate(game, opponent, args.hands, args.seed, args.budget, changes, args.defend)
            mean, interval = mean_and_ci95(deals)
            cells.append(f"{mean * scale:+,.0f} +- {interval * scale:,.0f} ({exploited})")
        print(f"| {opponent} | {' | '.join(cells)} | {time.monotonic() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
