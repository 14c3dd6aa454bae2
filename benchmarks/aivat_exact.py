"""AIVAT on Kuhn and Leduc, exactly: mean and standard deviation over every deal and every
action sequence, weighted by their probabilities, for each choice of known players.

Both positions play the shipped equilibrium (position 0 first to act; seats fixed). For each
setting the table gives E[u] and E[AIVAT] (equal: the estimator is unbiased) and the standard
deviation per hand of the outcome and of AIVAT's estimate, with no player known (chance
corrections only), one or both known (action corrections), and with imaginary observations
of the known players' cards.

    python benchmarks/aivat_exact.py
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence

from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.evaluation.aivat import Aivat
from pokerbot.strategies.solvers import PolicyStrategy, equilibrium_policy

SETTINGS = [((), False), ((0,), False), ((1,), False), ((0, 1), False), ((0,), True), ((0, 1), True)]


def terminals(game: Game, players: Sequence[Strategy]) -> list[tuple[float, HandState]]:
    """Every finished hand with its probability (every deal, every action the players take)."""
    out = []
    holdings = list(itertools.combinations(game.deck, game.num_hole_cards))
    for first in holdings:
        others = [h for h in holdings if not set(h) & set(first)]
        for second in others:
            rest = [c for c in game.deck if c not in first and c not in second]
            boards = list(itertools.permutations(rest, game.total_board_cards))
            deal = 1.0 / (len(holdings) * len(others) * len(boards))
            for board in boards:
                stack = [(HandState(game, [first, second], board), deal)]
                while stack:
                    state, p = stack.pop()
                    if state.finished:
                        out.append((p, state))
                        continue
                    position = state.current_player
                    assert position is not None
                    view = MatchState(position, 0, state.view(position))
                    for action, q in players[position].action_probabilities(view).items():
                        child = state.copy()
                        child.apply(action)
                        stack.append((child, p * q))
    return out


def main() -> None:
    """Print the table for Kuhn and Leduc."""
    header = ("game", "known", "imaginary", "E[u]", "E[AIVAT]", "sd u", "sd AIVAT", "ratio")
    print(f"{header[0]:<6} {header[1]:<7} {header[2]:<9} " + " ".join(f"{h:>10}" for h in header[3:]))
    for name in ("kuhn", "leduc"):
        game = load_game(name)
        player = PolicyStrategy(game, 1, equilibrium_policy(game))
        hands = terminals(game, [player, player])
        for known, imaginary in SETTINGS:
            started = time.perf_counter()
            aivat = Aivat(game, imaginary=imaginary)
            oracles = {position: player.action_probabilities for position in known}
            mean_u = mean_a = square_u = square_a = 0.0
            for p, state in hands:
                estimate = aivat.hand(state, 0, oracles)
                mean_u += p * estimate.outcome
                mean_a += p * estimate.value
                square_u += p * estimate.outcome**2
                square_a += p * estimate.value**2
            sd_u, sd_a = math.sqrt(square_u - mean_u**2), math.sqrt(square_a - mean_a**2)
            label = ",".join(str(k) for k in known) or "-"
            print(
                f"{name:<6} {label:<7} {imaginary!s:<9} {mean_u:>10.7f} {mean_a:>10.7f} {sd_u:>10.4f} {sd_a:>10.4f} "
                f"{sd_a / sd_u:>10.3f}  ({time.perf_counter() - started:.1f} s)"
            )


if __name__ == "__main__":
    main()
