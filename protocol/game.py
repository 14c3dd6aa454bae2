"""ACPC game definitions: parse, validate, write and look up by name.

One :class:`Game` drives everything else (dealing, legality, the wire format, logs); nothing
in pokerbot hard-codes hold'em. The text format is the ACPC ``GAMEDEF`` block::

    GAMEDEF
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

Keywords are case-insensitive, ``=`` is optional, ``#`` starts a comment line. Absent
``stack`` means unlimited stacks, absent ``maxRaises`` unlimited raises, absent
``firstPlayer`` player 1 in every round. Amounts are in chips. Internally ``first_player``
is 0-based; the text format is 1-based.

Where the reference dealer silently ignores a line it does not know, or extra values past
the number of players or rounds, :func:`parse_game` rejects them with a clear error: in a
competition a typo must not silently change the game. The reference dealer also rejects a
game of more than four players that omits ``stack`` (an artefact of its C code); we accept it
as unlimited stacks.
"""

from __future__ import annotations

from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from pokerbot.protocol.cards import MAX_RANKS, MAX_SUITS, Card, deck_cards
from pokerbot.protocol.errors import GameDefinitionError

if TYPE_CHECKING:
    from pokerbot.protocol.analysis.ranking import HandRanker

MAX_PLAYERS = 10
MAX_ROUNDS = 4
MAX_HOLE_CARDS = 3
MAX_BOARD_CARDS = 7
UNLIMITED_STACK = 2**31 - 1
"""The stack of a player in a game without ``stack`` (the reference dealer's INT32_MAX)."""
UNLIMITED_RAISES = 255
"""The raise cap of a round without ``maxRaises`` (the reference dealer's UINT8_MAX)."""

BUILTIN_GAMES: dict[str, str] = {
    "kuhn": "kuhn.game",
    "kuhn3p": "kuhn3p.game",
    "leduc": "leduc.game",
    "holdem-limit-2p": "holdem-limit-2p.game",
    "holdem-nolimit-2p": "holdem-nolimit-2p.game",
    "holdem-limit-3p": "holdem-limit-3p.game",
    "holdem-nolimit-3p": "holdem-nolimit-3p.game",
}
"""Built-in game names and the files (in ``protocol/games/``) that define them."""


class Game(BaseModel):
    """An immutable ACPC game definition. Amounts in chips; ``first_player`` is 0-based."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    betting: Literal["limit", "nolimit"] = "limit"
    num_players: int
    num_rounds: int
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    raise_sizes: tuple[int, ...] = ()
    first_player: tuple[int, ...]
    max_raises: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]

    @model_validator(mode="after")
    def _check(self) -> Game:
        problem = _first_problem(self)
        if problem is not None:
            raise ValueError(problem)
        return self

    @cached_property
    def is_nolimit(self) -> bool:
        """True for no-limit betting (raises carry a raise-to size)."""
        return self.betting == "nolimit"

    @cached_property
    def big_blind(self) -> int:
        """The largest blind, in chips: the unit of mbb/hand."""
        return max(self.blinds)

    @cached_property
    def has_antes(self) -> bool:
        """True when every player posts the same forced bet (an ante, as in Kuhn and Leduc
        poker) rather than a small and a big blind; :attr:`big_blind` is then the ante."""
        return self.num_players > 1 and len(set(self.blinds)) == 1

    @cached_property
    def min_raise_by(self) -> int:
        """The smallest no-limit raise-by after the first round: the big blind, at least 1 chip."""
        return max(1, *self.blinds)

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The game's cards in the reference dealer's dealing order."""
        return deck_cards(self.num_ranks, self.num_suits)

    @cached_property
    def deck_set(self) -> frozenset[Card]:
        """The game's cards as a set, for membership tests."""
        return frozenset(self.deck)

    @cached_property
    def board_start(self) -> tuple[int, ...]:
        """Index of the first board card of each round within all board cards."""
        starts, total = [], 0
        for count in self.num_board_cards:
            starts.append(total)
            total += count
        return tuple(starts)

    @cached_property
    def total_board_cards(self) -> int:
        """Board cards dealt over all rounds."""
        return sum(self.num_board_cards)

    @cached_property
    def is_standard_deck(self) -> bool:
        """True for the 52-card deck, where the fast hand ranker applies."""
        return self.num_ranks == MAX_RANKS and self.num_suits == MAX_SUITS

    @cached_property
    def ranker(self) -> HandRanker:
        """Ranks a showdown hand (hole plus all board cards) of this game; larger is better."""
        from pokerbot.protocol.analysis.ranking import hand_ranker  # loaded at the first showdown

        return hand_ranker(self.is_standard_deck, self.num_hole_cards + self.total_board_cards)


def _first_problem(game: Game) -> str | None:
    """The first reason the reference dealer (or common sense) rejects ``game``, or None."""
    if not 1 <= game.num_rounds <= MAX_ROUNDS:
        return f"numRounds: {game.num_rounds} is out of range 1..{MAX_ROUNDS}"
    if not 2 <= game.num_players <= MAX_PLAYERS:
        return f"numPlayers: {game.num_players} is out of range 2..{MAX_PLAYERS}"
    per_player = {"stack": game.stacks, "blind": game.blinds}
    for field, values in per_player.items():
        if len(values) != game.num_players:
            return f"{field}: {len(values)} values given, numPlayers is {game.num_players}"
    for position, (blind, stack) in enumerate(zip(game.blinds, game.stacks)):
        if stack <= 0:
            return f"stack: player {position + 1} has stack {stack}; stacks must be positive"
        if blind < 0:
            return f"blind: player {position + 1} has negative blind {blind}"
        if blind > stack:
            return f"blind: player {position + 1} has blind {blind} greater than stack {stack}"
    if game.betting == "limit":
        if len(game.raise_sizes) != game.num_rounds:
            return f"raiseSize: {len(game.raise_sizes)} values given, numRounds is {game.num_rounds}"
        if any(size <= 0 for size in game.raise_sizes):
            return f"raiseSize: sizes must be positive, got {list(game.raise_sizes)}"
    elif game.raise_sizes:
        return "raiseSize: only limit games have raise sizes"
    per_round = {
        "firstPlayer": game.first_player,
        "maxRaises": game.max_raises,
        "numBoardCards": game.num_board_cards,
    }
    for field, values in per_round.items():
        if len(values) != game.num_rounds:
            return f"{field}: {len(values)} values given, numRounds is {game.num_rounds}"
    for round_index, first in enumerate(game.first_player):
        if not 0 <= first < game.num_players:
            return f"firstPlayer: {first + 1} on round {round_index + 1} is out of range 1..{game.num_players}"
    if any(not 0 <= cap <= UNLIMITED_RAISES for cap in game.max_raises):
        return f"maxRaises: values must be in 0..{UNLIMITED_RAISES}, got {list(game.max_raises)}"
    if not 1 <= game.num_suits <= MAX_SUITS:
        return f"numSuits: {game.num_suits} is out of range 1..{MAX_SUITS}"
    if not 1 <= game.num_ranks <= MAX_RANKS:
        return f"numRanks: {game.num_ranks} is out of range 1..{MAX_RANKS}"
    if not 1 <= game.num_hole_cards <= MAX_HOLE_CARDS:
        return f"numHoleCards: {game.num_hole_cards} is out of range 1..{MAX_HOLE_CARDS}"
    if any(count < 0 for count in game.num_board_cards):
        return f"numBoardCards: counts must not be negative, got {list(game.num_board_cards)}"
    if sum(game.num_board_cards) > MAX_BOARD_CARDS:
        return f"numBoardCards: {sum(game.num_board_cards)} board cards in all, at most {MAX_BOARD_CARDS}"
    needed = game.num_hole_cards * game.num_players + sum(game.num_board_cards)
    if needed > game.num_suits * game.num_ranks:
        return f"numBoardCards: {needed} hole and board cards needed, the deck has {game.num_suits * game.num_ranks}"
    return None


_KEYWORDS = {
    "stack": "stack",
    "blind": "blind",
    "raisesize": "raiseSize",
    "numplayers": "numPlayers",
    "numrounds": "numRounds",
    "firstplayer": "firstPlayer",
    "maxraises": "maxRaises",
    "numsuits": "numSuits",
    "numranks": "numRanks",
    "numholecards": "numHoleCards",
    "numboardcards": "numBoardCards",
}
_SINGLE_VALUED = {"numPlayers", "numRounds", "numSuits", "numRanks", "numHoleCards"}


def parse_game(text: str, source: str = "<game>") -> Game:
    """Parse an ACPC ``GAMEDEF`` block.

    ``source`` names the text in error messages (a path or a built-in name). The block must
    end with ``END GAMEDEF`` (a file without it may have been cut short).
    Raises :class:`GameDefinitionError` naming the line, the field and the problem.
    """
    values: dict[str, tuple[int, ...]] = {}
    betting: Literal["limit", "nolimit"] = "limit"
    ended = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source}, line {number}"
        if ended:
            raise GameDefinitionError(f"{where}: {line!r} after END GAMEDEF")
        lowered = line.lower()
        if lowered.split() == ["end", "gamedef"]:
            ended = True
            continue
        if lowered == "gamedef":
            continue
        if lowered in ("limit", "nolimit"):
            betting = "limit" if lowered == "limit" else "nolimit"
            continue
        keyword, _, rest = line.replace("=", " = ", 1).partition(" ")
        field = _KEYWORDS.get(keyword.lower())
        if field is None:
            raise GameDefinitionError(f"{where}: unknown keyword {keyword!r}")
        rest = rest.strip()
        if rest.startswith("="):
            rest = rest[1:]
        items = rest.split()
        if not items:
            raise GameDefinitionError(f"{where}: {field} has no value")
        try:
            numbers = tuple(int(item, 10) for item in items)
        except ValueError:
            raise GameDefinitionError(f"{where}: {field} values must be integers, got {rest.strip()!r}") from None
        if field in _SINGLE_VALUED and len(numbers) != 1:
            raise GameDefinitionError(f"{where}: {field} takes one value, got {len(numbers)}")
        if field in values:
            raise GameDefinitionError(f"{where}: {field} is given twice")
        values[field] = numbers
    if not ended:
        raise GameDefinitionError(f"{source}: no END GAMEDEF line (the definition is cut short?)")
    return _build_game(values, betting, source)


def _build_game(values: dict[str, tuple[int, ...]], betting: Literal["limit", "nolimit"], source: str) -> Game:
    for field in ("numPlayers", "numRounds", "numSuits", "numRanks", "numHoleCards", "blind", "numBoardCards"):
        if field not in values:
            raise GameDefinitionError(f"{source}: {field} is missing")
    if betting == "limit" and "raiseSize" not in values:
        raise GameDefinitionError(f"{source}: raiseSize is missing (a limit game needs one per round)")
    num_players = values["numPlayers"][0]
    num_rounds = values["numRounds"][0]
    try:
        return Game(
            betting=betting,
            num_players=num_players,
            num_rounds=num_rounds,
            stacks=values.get("stack", (UNLIMITED_STACK,) * max(num_players, 0)),
            blinds=values["blind"],
            raise_sizes=values.get("raiseSize", ()),
            first_player=tuple(v - 1 for v in values.get("firstPlayer", (1,) * max(num_rounds, 0))),
            max_raises=values.get("maxRaises", (UNLIMITED_RAISES,) * max(num_rounds, 0)),
            num_suits=values["numSuits"][0],
            num_ranks=values["numRanks"][0],
            num_hole_cards=values["numHoleCards"][0],
            num_board_cards=values["numBoardCards"],
        )
    except ValidationError as error:
        messages = "; ".join(_clean(detail["msg"]) for detail in error.errors())
        raise GameDefinitionError(f"{source}: {messages}") from None


def _clean(message: str) -> str:
    return message.removeprefix("Value error, ")


def format_game(game: Game) -> str:
    """Write ``game`` as an ACPC ``GAMEDEF`` block that :func:`parse_game` reads back equal."""

    def join(values: tuple[int, ...]) -> str:
        return " ".join(str(v) for v in values)

    lines = ["GAMEDEF", game.betting, f"numPlayers = {game.num_players}", f"numRounds = {game.num_rounds}"]
    if any(stack < UNLIMITED_STACK for stack in game.stacks):
        lines.append(f"stack = {join(game.stacks)}")
    lines.append(f"blind = {join(game.blinds)}")
    if game.betting == "limit":
        lines.append(f"raiseSize = {join(game.raise_sizes)}")
    lines.append(f"firstPlayer = {join(tuple(p + 1 for p in game.first_player))}")
    if any(cap != UNLIMITED_RAISES for cap in game.max_raises):
        lines.append(f"maxRaises = {join(game.max_raises)}")
    lines += [
        f"numSuits = {game.num_suits}",
        f"numRanks = {game.num_ranks}",
        f"numHoleCards = {game.num_hole_cards}",
        f"numBoardCards = {join(game.num_board_cards)}",
        "END GAMEDEF",
    ]
    return "\n".join(lines) + "\n"


def builtin_game_text(name: str) -> str:
    """The GAMEDEF text of a built-in game (see :data:`BUILTIN_GAMES`)."""
    file_name = BUILTIN_GAMES.get(name)
    if file_name is None:
        raise GameDefinitionError(f"unknown game {name!r}: built-in games are {', '.join(BUILTIN_GAMES)}")
    return resources.files("pokerbot.protocol.games").joinpath(file_name).read_text(encoding="utf-8")


@cache
def _builtin_game(name: str) -> Game:
    return parse_game(builtin_game_text(name), source=name)


def load_game(name_or_path: str | Path) -> Game:
    """A built-in game by name (``leduc``, ``holdem-nolimit-2p``, ...) or a game file by path."""
    key = str(name_or_path)
    if key in BUILTIN_GAMES:
        return _builtin_game(key)
    path = Path(name_or_path)
    if not path.is_file():
        raise GameDefinitionError(f"{key!r} is neither a built-in game ({', '.join(BUILTIN_GAMES)}) nor a game file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GameDefinitionError(f"{path}: cannot read game file: {error}") from None
    return parse_game(text, source=str(path))
