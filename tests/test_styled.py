"""Styled opponents: registered, legal in limit and no-limit, seeded, and true to style."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.styled import STYLES, StyledPlayer, Switcher, make_styled

REGISTRY = default_registry()
STYLED = [*STYLES, Switcher.name]
GAMES = ["holdem-nolimit-2p", "holdem-limit-2p", "holdem-nolimit-3p"]


def test_every_style_is_registered_with_a_summary() -> None:
    for name in STYLED:
        info = REGISTRY.info(name)
        assert info.summary and "\n" not in info.summary
        assert info.supports(load_game("holdem-limit-2p")) and not info.supports(load_game("leduc"))
    named = {"tight-aggressive", "loose-passive", "calling-station", "maniac", "nit", "bluffer", "switcher"}
    assert named <= set(STYLED)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("name", STYLED)
def test_only_legal_actions(name: str, game_name: str) -> None:
    game = load_game(game_name)
    dealer = Dealer(game, 17)
    others = [REGISTRY.create("random", game, 4 + p) for p in range(game.num_players - 1)]
    players = [REGISTRY.create(name, game, 3), *others]
    for hand_number in range(40):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            position = state.current_player
            assert position is not None
            seat = (position + hand_number) % game.num_players
            action = players[seat].decide(MatchState(position, hand_number, state.view(position)), math.inf)
            state.verify(action)  # raises IllegalActionError saying why
            state.apply(action)


def play(name: str, hands: int, seed: int) -> list[tuple[int, str]]:
    """(hand number, betting string) of each hand of an in-process no-limit match of ``name``
    against a calling station."""
    game = load_game("holdem-nolimit-2p")
    record: list[tuple[int, str]] = []

    class Watcher(StyledPlayer):
        def observe(self, view: MatchState) -> None:
            record.append((view.hand_number, view.state.betting_string()))

    watcher = Watcher(game, 9, STYLES["calling-station"])
    outcome = run_inprocess_match(game, hands, seed, [REGISTRY.create(name, game, seed), watcher], [name, "watcher"])
    assert outcome.illegal_actions == {name: 0, "watcher": 0}
    return record


def test_seeded_play_is_reproducible() -> None:
    assert play("bluffer", 30, 4) == play("bluffer", 30, 4)
    assert play("bluffer", 30, 4) != play("bluffer", 30, 5)


def raise_share(name: str, seed: int = 2, hands: int = 150) -> float:
    """The share of the player's actions that are raises in no-limit hands against a calling
    station, the player on the button in every hand."""
    game = load_game("holdem-nolimit-2p")
    player = make_styled(name, game, seed)
    dealer = Dealer(game, seed)
    kinds: Counter[ActionKind] = Counter()
    station = make_styled("calling-station", game, seed + 1)
    for hand_number in range(hands):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            position = state.current_player
            assert position is not None
            view = MatchState(position, hand_number, state.view(position))
            actor = player if position == 1 else station
            action = actor.decide(view, math.inf)
            if actor is player:
                kinds[action.kind] += 1
            state.apply(action)
    return kinds[ActionKind.RAISE] / sum(kinds.values())


def test_styles_differ_as_named() -> None:
    names = ("maniac", "tight-aggressive", "nit", "calling-station")
    maniac, tag, nit, station = (raise_share(name) for name in names)
    assert maniac > 0.6 > tag > nit
    assert station < 0.15 and nit < 0.15


def test_switcher_changes_style_at_the_given_hand() -> None:
    game = load_game("holdem-nolimit-2p")
    switcher = make_styled("switcher", game, 1, switch_hand=10)
    state = HandState(game)
    assert switcher.current_style(MatchState(1, 9, state)).name == "tight-aggressive"
    assert switcher.current_style(MatchState(1, 10, state)).name == "maniac"
    with pytest.raises(KeyError, match="unknown style"):
        make_styled("shark", game)
