"""Observations and action IDs of the reinforcement-learning environment (the encodings of Zha et al. (2019)).

An :class:`Encoding` turns one player's view of a :class:`~pokerbot.protocol.hand.HandState`
into a flat ``float32`` vector, and maps the environment's discrete action IDs to engine
actions and back. Every encoding reads only what the observing position knows: its own hole
cards, the board of the rounds reached, the betting.

Zha et al.'s (2019) encodings (the card-game toolkit's documentation), for two-player games:

``leduc`` (36 entries, Leduc hold'em)
    ``0..2`` the hole card's rank, ``3..5`` the public card's rank (all zero in round 1), lowest
    rank first (the toolkit's J, Q, K; ACPC writes Leduc's ranks Q, K, A); ``6..20`` one-hot of
    the chips the observing player has put in the pot (0 to 14, ante included), ``21..35`` the
    same for the opponent.
``leduc-infostate`` (30 entries, Leduc hold'em)
    The information state NFSP learns from in Zha et al. (2019): ``0..2`` hole rank, ``3..5`` public
    rank, then for each of the 2 rounds 4 action slots of 3 entries (fold, call, raise), one-hot
    per action taken: ``6 + 12 * round + 3 * slot + kind``. Unlike ``leduc``, two different
    bettings never share a vector.
``limit-holdem`` (72 entries, heads-up limit hold'em)
    ``0..51`` the observing player's hole cards plus the board so far, one entry per card in
    suit blocks spades, hearts, diamonds, clubs, each ace to king (index
    ``13 * block + (rank + 1) % 13`` with our ranks deuce = 0 .. ace = 12); ``52 + 5 * round +
    n`` one-hot of the number ``n`` (0 to 4) of raises in each of the 4 rounds (rounds not yet
    reached read 0 raises). Zha et al.'s (2019) table prints round 2's range as ``37~61``: it is ``57..61``.
``nolimit-holdem`` (54 entries, heads-up no-limit hold'em)
    ``0..51`` the cards as in ``limit-holdem``; ``52`` the chips the observing player has put in
    the pot, ``53`` the opponent's (blinds included; raw chips, from 0 to the stack).

``generic`` (any ACPC game; ``D`` cards in the deck, ``N`` players, ``R`` rounds)
    ``0..D-1`` own hole cards and ``D..2D-1`` the board so far, each one-hot over the game's deck
    (:attr:`~pokerbot.protocol.game.Game.deck` order); then per position, starting with the
    observing one and going round the table, the chips it has put in divided by its stack
    (``N`` entries) and whether it folded (``N``); the round, one-hot (``R``); per round the
    number of raises, one-hot from 0 to 4 and more (``5 * R``); the observing position,
    one-hot (``N``). Every entry lies in [0, 1].

Action IDs (Zha et al. 2019): limit games (Leduc, limit hold'em, any limit game) have 4 actions,
``0`` call, ``1`` raise, ``2`` fold, ``3`` check; no-limit games 6, ``0`` fold, ``1`` check,
``2`` call, ``3`` raise half the pot, ``4`` raise the pot, ``5`` all-in. "Raise half the pot"
puts ``pot // 2`` more chips in (the pot counted before the action, every player's chips in
it), "raise the pot" puts ``pot`` more chips in, as the toolkit does; each is legal only when
that total is a legal raise short of all-in (all-in is action 5). Check is legal with nothing
to call, call and fold only facing a bet (the ACPC rules: no fold when checking is free).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.cards import MAX_RANKS, rank_of, suit_of
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState

LIMIT_ACTIONS = ("call", "raise", "fold", "check")
"""Action names of limit games, by ID (Zha et al. 2019)."""
NOLIMIT_ACTIONS = ("fold", "check", "call", "raise-half-pot", "raise-pot", "all-in")
"""Action names of no-limit games, by ID (Zha et al. 2019)."""

CALL_ID, RAISE_ID, FOLD_ID, CHECK_ID = 0, 1, 2, 3
"""Limit action IDs."""
NL_FOLD, NL_CHECK, NL_CALL, NL_HALF_POT, NL_POT, NL_ALL_IN = range(6)
"""No-limit action IDs."""

LEDUC_MAX_CHIPS = 14
"""The largest chip count the ``leduc`` encoding has an entry for (larger counts read 14)."""
MAX_RAISES_ENCODED = 4
"""Raise counts above this read as this many in the hold'em and generic encodings."""


class EncodingError(ValueError):
    """An encoding was asked for a game it does not describe, or an unknown encoding name."""


class Encoding(ABC):
    """One observation encoding and the action IDs of one game (see the module docstring)."""

    name: str = ""
    size: int = 0
    """Entries in an observation."""
    high: float = 1.0
    """The largest value an entry takes (every entry is at least 0)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.nolimit = game.is_nolimit
        self.num_actions = len(NOLIMIT_ACTIONS) if self.nolimit else len(LIMIT_ACTIONS)
        self.action_names = NOLIMIT_ACTIONS if self.nolimit else LIMIT_ACTIONS

    @abstractmethod
    def fill(self, state: HandState, position: int, out: np.ndarray) -> None:
        """Write the observation of ``position`` at ``state`` into ``out`` (zeros, ``size`` long)."""

    def encode(self, state: HandState, position: int) -> np.ndarray:
        """The observation of ``position`` at ``state``: a new ``float32`` vector of :attr:`size`."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(state, position, out)
        return out

    # ------------------------------------------------------------------ actions
    def legal_mask(self, state: HandState) -> np.ndarray:
        """``int8`` vector of :attr:`num_actions`: 1 for each legal action ID of the player to
        act at ``state`` (all zero when the hand is over)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        p = state.current_player
        if p is None:
            return mask
        legal = state.legal_actions()
        facing = state.spent[p] < state.max_spent
        if not self.nolimit:
            mask[CALL_ID if facing else CHECK_ID] = 1
            mask[FOLD_ID] = legal.can_fold
            mask[RAISE_ID] = legal.can_raise
            return mask
        mask[NL_CALL if facing else NL_CHECK] = 1
        mask[NL_FOLD] = legal.can_fold
        if legal.can_raise:
            mask[NL_ALL_IN] = 1
            for action_id in (NL_HALF_POT, NL_POT):
                added = state.pot // 2 if action_id == NL_HALF_POT else state.pot
                mask[action_id] = legal.min_raise_to <= state.spent[p] + added < legal.max_raise_to
        return mask

    def to_action(self, state: HandState, action_id: int) -> Action | None:
        """The engine action of ``action_id`` for the player to act, or None when illegal."""
        p = state.current_player
        if p is None or not 0 <= action_id < self.num_actions:
            return None
        legal = state.legal_actions()
        facing = state.spent[p] < state.max_spent
        if not self.nolimit:
            if action_id == CALL_ID:
                return CALL if facing else None
            if action_id == CHECK_ID:
                return None if facing else CALL
            if action_id == FOLD_ID:
                return FOLD if legal.can_fold else None
            return LIMIT_RAISE if legal.can_raise else None
        if action_id == NL_FOLD:
            return FOLD if legal.can_fold else None
        if action_id == NL_CHECK:
            return None if facing else CALL
        if action_id == NL_CALL:
            return CALL if facing else None
        if not legal.can_raise:
            return None
        if action_id == NL_ALL_IN:
            return Action.raise_to(legal.max_raise_to)
        added = state.pot // 2 if action_id == NL_HALF_POT else state.pot
        target = state.spent[p] + added
        if legal.min_raise_to <= target < legal.max_raise_to:
            return Action.raise_to(target)
        return None

    def action_id(self, state: HandState, action: Action) -> int | None:
        """The action ID that plays ``action`` for the player to act at ``state``, or None when
        no ID does (an illegal action, a no-limit raise of another size)."""
        p = state.current_player
        if p is None or not state.can(action):
            return None
        facing = state.spent[p] < state.max_spent
        kind = action.kind
        if not self.nolimit:
            if kind is ActionKind.CALL:
                return CALL_ID if facing else CHECK_ID
            return FOLD_ID if kind is ActionKind.FOLD else RAISE_ID
        if kind is ActionKind.FOLD:
            return NL_FOLD
        if kind is ActionKind.CALL:
            return NL_CALL if facing else NL_CHECK
        for action_id in (NL_ALL_IN, NL_POT, NL_HALF_POT):
            if self.to_action(state, action_id) == action:
                return action_id
        return None


# ---------------------------------------------------------------------------- Leduc
def _low_rank(game: Game) -> int:
    """The rank index (0 = deuce) of the game's lowest rank."""
    return MAX_RANKS - game.num_ranks


class LeducEncoding(Encoding):
    """Zha et al.'s (2019) 36-entry Leduc observation: hole rank, public rank, both players' chips."""

    name = "leduc"
    size = 36

    def fill(self, state: HandState, position: int, out: np.ndarray) -> None:
        low = _low_rank(self.game)
        hole = state.hole_cards[position]
        if hole:
            out[rank_of(hole[0]) - low] = 1.0
        board = state.visible_board()
        if board:
            out[3 + rank_of(board[0]) - low] = 1.0
        out[6 + min(state.spent[position], LEDUC_MAX_CHIPS)] = 1.0
        out[21 + min(state.spent[1 - position], LEDUC_MAX_CHIPS)] = 1.0


class LeducInfostateEncoding(Encoding):
    """Zha et al.'s (2019) 30-entry Leduc information state: hole rank, public rank, every action."""

    name = "leduc-infostate"
    size = 30
    SLOTS = 4
    """Action slots per round: at most 4 actions (check, raise, raise, call) in a Leduc round."""

    def fill(self, state: HandState, position: int, out: np.ndarray) -> None:
        low = _low_rank(self.game)
        hole = state.hole_cards[position]
        if hole:
            out[rank_of(hole[0]) - low] = 1.0
        board = state.visible_board()
        if board:
            out[3 + rank_of(board[0]) - low] = 1.0
        for r in range(2):
            for slot, action in enumerate(state.actions[r][: self.SLOTS]):
                out[6 + 12 * r + 3 * slot + action.kind] = 1.0


# ---------------------------------------------------------------------------- hold'em
def card_index(card: int) -> int:
    """Zha et al.'s (2019) index of a card among 52: suit blocks spades, hearts, diamonds, clubs, each
    ace to king."""
    return 13 * (3 - suit_of(card)) + (rank_of(card) + 1) % 13


def _fill_cards(state: HandState, position: int, out: np.ndarray) -> None:
    hole = state.hole_cards[position]
    if hole:
        for card in hole:
            out[card_index(card)] = 1.0
    for card in state.visible_board():
        out[card_index(card)] = 1.0


class LimitHoldemEncoding(Encoding):
    """Zha et al.'s (2019) 72-entry limit hold'em observation: 52 cards, then raises per round."""

    name = "limit-holdem"
    size = 72

    def fill(self, state: HandState, position: int, out: np.ndarray) -> None:
        _fill_cards(state, position, out)
        for r in range(4):
            raises = sum(1 for action in state.actions[r] if action.kind is ActionKind.RAISE) if r <= state.round else 0
            out[52 + 5 * r + min(raises, MAX_RAISES_ENCODED)] = 1.0


class NolimitHoldemEncoding(Encoding):
    """Zha et al.'s (2019) 54-entry no-limit hold'em observation: 52 cards, then both players' chips."""

    name = "nolimit-holdem"
    size = 54

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.high = float(max(game.stacks))

    def fill(self, state: HandState, position: int, out: np.ndarray) -> None:
        _fill_cards(state, position, out)
        out[52] = state.spent[position]
        out[53] = state.spent[1 - position]


# ---------------------------------------------------------------------------- any game
class GenericEncoding(Encoding):
    """Cards one-hot over the game's deck, chips, folds, round, raises, position (any game)."""

    name = "generic"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._card_slot = {card: i for i, card in enumerate(game.deck)}
        deck, n, rounds = len(game.deck), game.num_players, game.num_rounds
        self._chips = 2 * deck
        self._folds = self._chips + n
        self._round = self._folds + n
        self._raises = self._round + rounds
        self._position = self._raises + (MAX_RAISES_ENCODED + 1) * rounds
        self.size = self._position + n

    def fill(self, state: HandState, position: int, out: np.ndarray) -> None:
        game, slot = self.game, self._card_slot
        deck, n = len(game.deck), game.num_players
        hole = state.hole_cards[position]
        if hole:
            for card in hole:
                out[slot[card]] = 1.0
        for card in state.visible_board():
            out[deck + slot[card]] = 1.0
        for k in range(n):
            p = (position + k) % n
            out[self._chips + k] = state.spent[p] / game.stacks[p]
            out[self._folds + k] = float(state.folded[p])
        out[self._round + state.round] = 1.0
        for r in range(game.num_rounds):
            raises = sum(1 for action in state.actions[r] if action.kind is ActionKind.RAISE) if r <= state.round else 0
            out[self._raises + (MAX_RAISES_ENCODED + 1) * r + min(raises, MAX_RAISES_ENCODED)] = 1.0
        out[self._position + position] = 1.0


# ---------------------------------------------------------------------------- choice
def _is_leduc(game: Game) -> bool:
    return game == load_game("leduc")


def _is_heads_up_holdem(game: Game) -> bool:
    return (
        game.num_players == 2
        and game.is_standard_deck
        and game.num_hole_cards == 2
        and game.num_rounds == 4
        and game.num_board_cards == (0, 3, 1, 1)
    )


def _fits_limit_holdem(game: Game) -> bool:
    return _is_heads_up_holdem(game) and not game.is_nolimit


def _fits_nolimit_holdem(game: Game) -> bool:
    return _is_heads_up_holdem(game) and game.is_nolimit


ENCODINGS: dict[str, tuple[Callable[[Game], Encoding], Callable[[Game], bool], str]] = {
    "leduc": (LeducEncoding, _is_leduc, "Leduc hold'em"),
    "leduc-infostate": (LeducInfostateEncoding, _is_leduc, "Leduc hold'em"),
    "limit-holdem": (LimitHoldemEncoding, _fits_limit_holdem, "heads-up limit hold'em"),
    "nolimit-holdem": (NolimitHoldemEncoding, _fits_nolimit_holdem, "heads-up no-limit hold'em"),
    "generic": (GenericEncoding, lambda game: True, "any game"),
}
"""Encodings by name: the class, which games it describes, and those games in words."""


def default_encoding_name(game: Game) -> str:
    """Zha et al.'s (2019) encoding of ``game`` (Leduc, heads-up limit or no-limit hold'em), else ``generic``."""
    for name in ("leduc", "limit-holdem", "nolimit-holdem"):
        if ENCODINGS[name][1](game):
            return name
    return "generic"


def make_encoding(game: Game, name: str | None = None) -> Encoding:
    """The encoding ``name`` (default: :func:`default_encoding_name`) for ``game``; raises
    :class:`EncodingError` for an unknown name or a game the encoding does not describe."""
    name = name or default_encoding_name(game)
    entry = ENCODINGS.get(name)
    if entry is None:
        raise EncodingError(f"unknown encoding {name!r}: choose from {', '.join(ENCODINGS)}")
    factory, fits, games = entry
    if not fits(game):
        raise EncodingError(f"encoding {name!r} describes {games} only, not this game")
    return factory(game)


__all__ = [
    "CALL_ID",
    "CHECK_ID",
    "ENCODINGS",
    "FOLD_ID",
    "LEDUC_MAX_CHIPS",
    "LIMIT_ACTIONS",
    "NOLIMIT_ACTIONS",
    "RAISE_ID",
    "Encoding",
    "EncodingError",
    "GenericEncoding",
    "LeducEncoding",
    "LeducInfostateEncoding",
    "LimitHoldemEncoding",
    "NolimitHoldemEncoding",
    "card_index",
    "default_encoding_name",
    "make_encoding",
]
