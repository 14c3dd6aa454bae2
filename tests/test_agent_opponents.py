"""The opponent-model protocols (models/opponent.py): the default models follow them, and any
pair of models that does can be plugged into the hold'em agent, heads-up and three-handed alike."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models.action_classes import ActionClass
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.models.opponent import (
    ActionModelFrequencies,
    OpponentActionModel,
    OpponentModels,
    OpponentShowdownModel,
    hoeffding_models,
)
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.miximax.player import AgentSettings, MiximaxAgent
from pokerbot.strategies.miximax.search import SearchSettings
from pokerbot.strategies.registry import default_registry


class Folder:
    """An action model that believes the opponent folds whenever it can; counts its use."""

    def __init__(self) -> None:
        self.asked = 0
        self.learnt: list[int] = []
        """The seat offset (opponent's position - ours) of every hand learnt."""

    def predict_proba_one(self, x: Mapping[str, float]) -> Mapping[int, float]:
        self.asked += 1
        return {ActionClass.FOLD: 0.9, ActionClass.CALL: 0.1}

    def learn_hand(self, final_view: MatchState, opponent: int | None = None) -> int:
        assert opponent is not None and opponent != final_view.position
        self.learnt.append((opponent - final_view.position) % final_view.state.game.num_players)
        return 1


class NeverBeats:
    """A showdown model that believes the opponent never holds the better hand."""

    def __init__(self) -> None:
        self.observations = 0
        self.asked = 0

    def prob_beats(self, x: Mapping[str, float], strength: float) -> float:
        self.asked += 1
        return 0.0

    def learn_hand(self, final_view: MatchState, opponent: int | None = None) -> int:
        self.observations += 1
        return 1


def test_the_default_models_follow_the_protocol() -> None:
    (models,) = hoeffding_models(load_game("holdem-nolimit-2p"), 1)
    assert isinstance(models.action, ActionModel) and isinstance(models.action, OpponentActionModel)
    assert isinstance(models.showdown, HandStrengthModel) and isinstance(models.showdown, OpponentShowdownModel)
    assert models.action.observations == 0 and models.showdown.observations == 0
    assert not isinstance(object(), OpponentActionModel)


@pytest.mark.parametrize("game_name", ["holdem-nolimit-2p", "holdem-limit-3p"])
def test_plugged_in_models_are_asked_and_taught(game_name: str) -> None:
    game = load_game(game_name)
    made: list[OpponentModels] = []

    def factory(game: Game, count: int) -> list[OpponentModels]:
        made.extend(OpponentModels(Folder(), NeverBeats()) for _ in range(count))
        return made[-count:]

    settings = AgentSettings(time_budget=30.0, search=SearchSettings(node_budget=300, river_samples=4))
    agent = MiximaxAgent(game, 3, settings, opponent_models=factory)
    registry = default_registry()
    others = [registry.create("calling-station", game, seat) for seat in range(1, game.num_players)]
    names = ["miximax", *(f"station-{seat}" for seat in range(1, game.num_players))]
    outcome = run_inprocess_match(game, 12, 4, [agent, *others], names, seconds_per_action=60.0)
    assert outcome.error is None and outcome.illegal_actions["miximax"] == 0
    assert len(made) == game.num_players - 1  # one pair per opponent, heads-up included
    for models in made:
        assert isinstance(models.action, Folder) and isinstance(models.showdown, NeverBeats)
        assert models.action.asked > 0 and models.showdown.asked > 0
        assert len(models.action.learnt) == 12 and models.showdown.observations == 12
    # Each pair learns one opponent (one seat offset, whatever the positions were); all differ.
    offsets = [set(models.action.learnt) for models in made]  # type: ignore[attr-defined]
    assert all(len(seen) == 1 for seen in offsets) and len(set.union(*offsets)) == len(made)


def test_the_frequency_adapter_memoises_per_state_until_cleared() -> None:
    game = load_game("holdem-nolimit-2p")
    folder = Folder()
    predict = ActionModelFrequencies(folder)
    hand = HandState(game, None, ())
    first = predict(hand)
    assert predict(hand) is first and folder.asked == 1
    assert first == {ActionClass.FOLD: 0.9, ActionClass.CALL: 0.1}
    predict.clear()
    assert predict(hand) == first and predict(hand) is not first and folder.asked == 2
