"""The safe adaptive agent's ledger against LBR, hand by hand: when its exploiter plays.

Plays one seating of an LBR match (:func:`pokerbot.bot.lbr.matches.play_lbr_match`, the
segment ``--seed`` deals from, as the first segment of ``pokerbot exploitability ... --method
lbr --seed S``) against ``adaptive`` (or ``adaptive:BUDGET``), keeps the agent, and prints
what LBR won, how many hands the exploiter played, and for the first ``--hands-shown`` hands
the value the ledger booked, its lower bound on the winnings and the exploiter's share
(big blinds):

    python benchmarks/research/lbr_ledger.py --strategy safe-miximax:500nodes --deals 250 --seed 2 [--lbr-second] \
        [--cap BB] [--spare N] [--defend]

``--cap BB`` sets the ledger's cap (:class:`SafetySettings` ``cap``: the most one hand books),
``--spare N`` the best hands its bound leaves out (``spare``); ``--defend`` plays the blueprint
part with its minimum defence.
"""

from __future__ import annotations

import argparse

from pokerbot.bot.lbr.matches import LbrMatch, play_lbr_match
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.exploit.lbr import LbrSettings
from pokerbot.strategies.safe.agent import SafeExploiter, default_settings, safe_exploiter_factory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--strategy", default="safe-miximax:500nodes")
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--lbr-second", action="store_true", help="LBR in the second seat")
    parser.add_argument("--hands-shown", type=int, default=24)
    parser.add_argument("--cap", type=float, help="the most one hand books (big blinds)")
    parser.add_argument("--spare", type=int, help="best hands the bound leaves out (default: the game's)")
    parser.add_argument("--defend", action="store_true", help="the blueprint part with its minimum defence")
    args = parser.parse_args()
    game = load_game(args.game)
    made: list[SafeExploiter] = []

    name, _, budget = args.strategy.partition(":")
    if name != "safe-miximax":
        raise SystemExit(f"--strategy must be safe-miximax or safe-miximax:BUDGET, got {args.strategy}")
    settings = default_settings(game).model_copy(update={"cap": args.cap})
    if args.spare is not None:
        settings = settings.model_copy(update={"spare": args.spare})

    def factory(game: Game, seed: int | None = None) -> Strategy:
        made.append(safe_exploiter_factory(game, seed, budget or None, settings, defend=args.defend))
        return made[-1]

    played = play_lbr_match(LbrMatch(game, factory, LbrSettings(), args.deals, args.seed, not args.lbr_second))
    agent = made[0]
    big_blind = game.big_blind
    mbb = 1000 * sum(played.values) / len(played.values) / big_blind
    print(f"{args.deals} deals, LBR {'second' if args.lbr_second else 'first'}: LBR won {mbb:+,.0f} mbb/hand")
    print(f"the exploiter played {agent.exploited_hands} of {len(agent.history)} hands")
    for hand, (entry, won) in enumerate(zip(agent.history[: args.hands_shown], played.values)):
        print(
            f"hand {hand}: LBR won {won / big_blind:+.1f}, booked {entry.booked / big_blind:+.1f}, "
            f"bound {entry.won / big_blind:+.1f}, exploiter's share next {entry.share:.2f}"
        )


if __name__ == "__main__":
    main()
