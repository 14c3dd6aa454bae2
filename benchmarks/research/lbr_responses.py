"""How a strategy answers LBR: its actions facing a bet and not, before and after the flop.

``python benchmarks/research/lbr_responses.py GAME STRATEGY --deals N --seed S --log OUT.log`` plays one
LBR match in process (LBR in the first seat, the players and seeds of the first match of
``pokerbot exploitability GAME STRATEGY --method lbr --seed S``), writes its ACPC log, and
counts the strategy's folds, calls and raises from the log: facing a bet or raise (or, first
to act pre-flop, the big blind) and not. Heads-up games. It explains an LBR figure: a strategy
that folds most hands to one bet after the flop gives LBR the pot every time it bets.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from pokerbot.bot.lbr.matches import LBR_NAME, OPPONENT_NAME, RegistryStrategy
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import read_log
from pokerbot.strategies.exploit.lbr import LbrSettings, LocalBestResponse


def count_responses(log: Path, game_name: str, name: str) -> dict[tuple[str, bool], collections.Counter[str]]:
    """(street, facing a bet) -> the counts of ``name``'s actions (``f``, ``c``, ``r``) in ``log``."""
    game = load_game(game_name)
    counts: dict[tuple[str, bool], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for hand in read_log(log.read_text().splitlines(), game).hands:
        position = hand.names.index(name)
        last: dict[int, ActionKind | None] = {}
        for round_index, actor, action in hand.state.history():
            previous = last.get(round_index)
            facing = previous is ActionKind.RAISE or (round_index == 0 and round_index not in last)
            if actor == position:
                street = "pre-flop" if round_index == 0 else "after the flop"
                counts[street, facing][action.kind.name[0].lower()] += 1
            last[round_index] = action.kind
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("strategy")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, required=True)
    args = parser.parse_args()
    game = load_game(args.game)
    opponent = RegistryStrategy(args.strategy)(game, strategy_seed(args.seed, OPPONENT_NAME))
    lbr = LocalBestResponse(game, strategy_seed(args.seed, LBR_NAME), opponent, LbrSettings())
    names = [LBR_NAME, OPPONENT_NAME]
    outcome = run_inprocess_match(game, args.deals, args.seed, [lbr, opponent], names, log_path=args.log)
    won = outcome.totals[LBR_NAME] / outcome.hands_played * 1000 / game.big_blind
    print(f"{args.strategy}, {outcome.hands_played} hands: LBR wins {won:+,.0f} mbb/hand (log {args.log})")
    for (street, facing), counter in sorted(count_responses(args.log, args.game, OPPONENT_NAME).items()):
        total = sum(counter.values())
        shares = ", ".join(f"{kind} {counter[kind]} ({counter[kind] / total:.0%})" for kind in "fcr")
        print(f"  {street}, {'facing a bet' if facing else 'no bet to call'}: {shares}")


if __name__ == "__main__":
    main()
