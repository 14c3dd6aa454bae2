from pathlib import Path

import pydantic
import pytest

from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import (
    BUILTIN_GAMES,
    UNLIMITED_RAISES,
    UNLIMITED_STACK,
    format_game,
    load_game,
    parse_game,
)
from tests.conftest import FIXTURES

NOLIMIT = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def test_nolimit_holdem_fields():
    game = parse_game(NOLIMIT)
    assert game.is_nolimit and game.num_players == 2 and game.num_rounds == 4
    assert game.stacks == (20000, 20000) and game.blinds == (100, 50)
    assert game.first_player == (1, 0, 0, 0)  # 0-based inside
    assert game.max_raises == (UNLIMITED_RAISES,) * 4
    assert game.num_board_cards == (0, 3, 1, 1) and game.big_blind == 100
    assert game.board_start == (0, 0, 3, 4) and len(game.deck) == 52


def test_builtin_games_match_the_reference_definitions():
    pairs = {
        "kuhn": "kuhn2p_s16",
        "kuhn3p": "kuhn3p_s15",
        "leduc": "leduc2p_s17",
        "holdem-limit-2p": "limit2p_s11",
        "holdem-limit-3p": "limit3p_s13",
        "holdem-nolimit-2p": "nolimit2p_s12",
        "holdem-nolimit-3p": "nolimit3p_s14",
    }
    assert set(pairs) == set(BUILTIN_GAMES)
    for name, folder in pairs.items():
        assert load_game(name) == parse_game((FIXTURES / folder / "game.txt").read_text())


def test_every_builtin_game_round_trips_through_the_writer(builtin_game):
    assert parse_game(format_game(builtin_game)) == builtin_game


def test_defaults_case_comments_and_optional_equals():
    text = """# a comment
gamedef
LIMIT
NumPlayers 3
numrounds= 1
blind = 1 1 1
raisesize 1
numSuits = 1
numRanks = 4
numHoleCards = 1
numBoardCards = 0
end gamedef
"""
    game = parse_game(text)
    assert game.betting == "limit" and game.num_players == 3
    assert game.stacks == (UNLIMITED_STACK,) * 3
    assert game.first_player == (0,) and game.max_raises == (UNLIMITED_RAISES,)
    assert "stack" not in format_game(game) and "maxRaises" not in format_game(game)


def test_load_game_accepts_a_path(tmp_path: Path):
    path = tmp_path / "mine.game"
    path.write_text(NOLIMIT)
    assert load_game(path) == parse_game(NOLIMIT) == load_game(str(path))


def test_unknown_game_name_lists_the_builtins():
    with pytest.raises(GameDefinitionError, match="holdem-nolimit-2p"):
        load_game("no-such-game")


def _replace(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("numRounds = 4", "numRounds = 0", "numRounds: 0 is out of range"),
        ("numRounds = 4", "numRounds = 5", "numRounds: 5 is out of range"),
        ("numPlayers = 2", "numPlayers = 1", "numPlayers: 1 is out of range"),
        ("numPlayers = 2", "numPlayers = 11", "numPlayers: 11 is out of range"),
        ("stack = 20000 20000", "stack = 20000", "stack: 1 values given"),
        ("blind = 100 50", "blind = 100", "blind: 1 values given"),
        ("blind = 100 50", "blind = 30000 50", "blind 30000 greater than stack 20000"),
        ("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1", "firstPlayer: 3 on round 1 is out of range"),
        ("firstPlayer = 2 1 1 1", "firstPlayer = 0 1 1 1", "firstPlayer: 0 on round 1"),
        ("numSuits = 4", "numSuits = 0", "numSuits: 0 is out of range"),
        ("numSuits = 4", "numSuits = 5", "numSuits: 5 is out of range"),
        ("numRanks = 13", "numRanks = 14", "numRanks: 14 is out of range"),
        ("numHoleCards = 2", "numHoleCards = 4", "numHoleCards: 4 is out of range"),
        ("numHoleCards = 2", "numHoleCards = 0", "numHoleCards: 0 is out of range"),
        ("numBoardCards = 0 3 1 1", "numBoardCards = 0 3 1", "numBoardCards: 3 values given"),
        ("numBoardCards = 0 3 1 1", "numBoardCards = 0 3 3 2", "8 board cards in all"),
        ("numRanks = 13", "numRanks = 2", "hole and board cards needed"),
        ("numRanks = 13", "numRanks = thirteen", "line 9: numRanks values must be integers"),
        ("numRanks = 13", "numRank = 13", "line 9: unknown keyword 'numRank'"),
        ("numRanks = 13", "numRanks = 13 13", "numRanks takes one value"),
        ("numSuits = 4", "numSuits = 4\nnumSuits = 4", "numSuits is given twice"),
        ("numSuits = 4\n", "", "numSuits is missing"),
        ("END GAMEDEF\n", "END GAMEDEF\nnumRanks = 3\n", "after END GAMEDEF"),
        ("END GAMEDEF\n", "", "no END GAMEDEF line"),
    ],
)
def test_rejected_definitions_name_the_field(old, new, message):
    with pytest.raises(GameDefinitionError, match=message):
        parse_game(_replace(NOLIMIT, old, new))


def test_limit_game_needs_raise_sizes():
    text = _replace(NOLIMIT, "nolimit\n", "limit\n")
    with pytest.raises(GameDefinitionError, match="raiseSize is missing"):
        parse_game(text)
    with pytest.raises(GameDefinitionError, match="raiseSize: 2 values given, numRounds is 4"):
        parse_game(_replace(text, "blind = 100 50\n", "blind = 100 50\nraiseSize = 100 100\n"))
    with pytest.raises(GameDefinitionError, match="only limit games have raise sizes"):
        parse_game(_replace(NOLIMIT, "blind = 100 50\n", "blind = 100 50\nraiseSize = 1 1 1 1\n"))


def test_game_is_immutable():
    game = parse_game(NOLIMIT)
    with pytest.raises(pydantic.ValidationError):
        game.num_players = 3  # type: ignore[misc]
