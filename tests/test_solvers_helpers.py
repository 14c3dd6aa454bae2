"""Helpers for the solver tests: an independent brute-force evaluator and self-play."""

from __future__ import annotations

from itertools import permutations

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.infosets import infoset_key
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.solvers.policy import Policy

_ACTIONS = {"f": FOLD, "c": CALL, "r": LIMIT_RAISE}


def brute_force_values(game: Game, policy: Policy) -> list[float]:
    """Expected chips per position of ``policy`` by walking every deal and every history.

    Independent of the solver package's tree, payoff tables and engine: it uses only
    :class:`HandState` and the key function. One hole card per player, missing keys uniform.
    """
    assert game.num_hole_cards == 1
    deck = list(game.deck)
    deals = list(permutations(deck, game.num_players))
    totals = [0.0] * game.num_players

    def walk(state: HandState, holes: tuple[int, ...], weight: float) -> None:
        if state.finished and (not state.showdown() or len(state.board_cards) >= game.total_board_cards):
            for p, value in enumerate(state.values()):
                totals[p] += weight * value
            return
        needed = game.board_start[state.round] + game.num_board_cards[state.round]
        if state.showdown() or len(state.board_cards) < needed:
            rest = [c for c in deck if c not in holes and c not in state.board_cards]
            for card in rest:
                child = state.copy()
                child.board_cards = (*state.board_cards, card)
                walk(child, holes, weight / len(rest))
            return
        player = state.current_player
        assert player is not None
        legal = "".join(c for c in "fcr" if state.can(_ACTIONS[c]))
        key = infoset_key((holes[player],), state)
        probs = policy.action_probabilities(key) if key in policy else {c: 1 / len(legal) for c in legal}
        for char in legal:
            if probs.get(char, 0.0) > 0:
                child = state.copy()
                child.apply(_ACTIONS[char])
                walk(child, holes, weight * probs[char])

    for deal in deals:
        walk(HandState(game, [(c,) for c in deal]), deal, 1.0 / len(deals))
    return totals


def self_play(game: Game, players: list[Strategy], hands: int, seed: int = 0) -> list[HandState]:
    """Play ``hands`` hands with reference dealing; every action goes through ``HandState.apply``."""
    finished = []
    for number in range(hands):
        deal = Dealer(game, seed + number).deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            position = state.current_player
            assert position is not None
            action: Action = players[position].decide(MatchState(position, number, state.view(position)), float("inf"))
            state.apply(action)
        finished.append(state)
    return finished
