"""The action loss of the true model of ``random`` beside the prior and the adapting model.

Run: python benchmarks/research/true_action_loss.py [--game holdem-limit-2p] [--hands 500] [--every 100] [--seed 1]

``pokerbot experiment model-learning random`` scores the opponent-action model prequentially
(quadratic loss over the action classes). ``random``'s own action distribution is known
(:meth:`RandomPlayer.action_probabilities`: fold, call and raise weights, a no-limit raise
spread evenly over every legal size, each size put in its action class), so its loss is
the floor no model can beat on average. This script plays the same match as the experiment
(hero ``tight-aggressive``, the same seed), scores the true distribution on every decision
of ``random``, and prints it per block of ``--every`` hands beside the prior's and the
adapting model's losses from the experiment's own code. Used for the bound quoted in
docs/models.md.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from pokerbot.bot.experiments.model_evaluation import quadratic_loss
from pokerbot.bot.experiments.model_learning import HERO, play_views, run_model_learning
from pokerbot.models.action_classes import ActionClass, classify, classify_raise
from pokerbot.protocol.actions import CALL, LIMIT_RAISE
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.baselines import RandomPlayer


def true_distribution(game: Game, state: HandState, player: RandomPlayer) -> dict[ActionClass, float]:
    """``random``'s probability of each action class for the player to act in ``state``."""
    view = MatchState(state.current_player or 0, 0, state)
    fold, call, raise_ = player._weights(view)  # the weights decide() draws from
    classes: dict[ActionClass, float] = defaultdict(float)
    if fold:
        classes[ActionClass.FOLD] += fold
    legal = state.legal_actions()
    classes[classify(state, CALL)] += call
    if raise_:
        if not game.is_nolimit:
            classes[classify(state, LIMIT_RAISE)] += raise_
        else:
            stack = game.stacks[legal.player]
            sizes = range(legal.min_raise_to, legal.max_raise_to + 1)
            share = raise_ / len(sizes)
            for size in sizes:
                classes[classify_raise(size, state.max_spent, state.pot, legal.call_amount, stack)] += share
    return dict(classes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-limit-2p")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game)
    views = play_views(game, HERO, "random", args.hands, args.seed)
    player = RandomPlayer(game, 0)
    blocks: dict[int, list[float]] = defaultdict(list)
    for index, view in enumerate(views):
        state = view.state
        replay = HandState(game, None, state.board_cards)
        for _round, actor, action in state.history():
            if actor != view.position:
                blocks[index // args.every].append(
                    quadratic_loss(true_distribution(game, replay, player), classify(replay, action))
                )
            replay.apply(action)
    report = run_model_learning(game, "random", args.hands, args.every, args.seed)
    print(f"{args.game}, hero {HERO} against random, seed {args.seed}: mean action loss per block")
    print(f"{'hands':>10} {'true':>8} {'prior':>8} {'adapting':>9}")
    for number, block in enumerate(report.blocks):
        true = blocks[number]
        prior = block.scores["prior"].summary()["action_loss"]
        adapting = block.scores["adapting"].summary()["action_loss"]
        print(
            f"{block.first + 1:>4}-{block.last + 1:<5} {sum(true) / len(true):8.3f} {prior:8.3f} {adapting:9.3f}"
            f"   ({len(true)} decisions; the experiment scored {block.scores['prior'].decisions})"
        )


if __name__ == "__main__":
    main()
