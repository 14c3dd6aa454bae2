"""How often a player folds pre-flop when facing a raise above some size, from a match log.

Run: python benchmarks/research/preflop_folds.py LOG [--player-prefix miximax] [--above 10]

Reads an ACPC match log (``pokerbot match --out DIR`` writes ``DIR/match.log``; the game is
taken from its header) and counts the pre-flop decisions of the player whose name starts
with ``--player-prefix`` in which the largest commitment so far exceeded ``--above`` big
blinds, and how many of them were folds. Used for the three-player diagnostic in
docs/agent.md:

    pokerbot match --game holdem-nolimit-3p --players miximax random random --hands 300 --seed 1 --out D
    python benchmarks/research/preflop_folds.py D/match.log
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import game_from_header, read_header, read_log


def count(log: Path, prefix: str, above: float) -> tuple[int, int, int]:
    """(pre-flop decisions of the player, those facing more than ``above`` big blinds, folds among them)."""
    lines = log.read_text().splitlines()
    game, _ = game_from_header(read_header(lines), log.parent)
    threshold = above * game.big_blind
    decisions = facing = folds = 0
    for hand in read_log(lines, game).hands:
        seat = next(i for i, name in enumerate(hand.names) if name.startswith(prefix))
        replay = HandState(game, None, hand.state.board_cards)
        for round_, actor, action in hand.state.history():
            if round_ == 0 and actor == seat:
                decisions += 1
                if replay.max_spent > threshold:
                    facing += 1
                    folds += action.kind is ActionKind.FOLD
            replay.apply(action)
    return decisions, facing, folds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--player-prefix", default="miximax")
    parser.add_argument("--above", type=float, default=10.0, help="big blinds")
    args = parser.parse_args()
    decisions, facing, folds = count(args.log, args.player_prefix, args.above)
    print(
        f"{args.player_prefix}: {decisions} pre-flop decisions, {facing} facing more than {args.above:g} big blinds, "
        f"{folds} of those folded"
    )


if __name__ == "__main__":
    main()
