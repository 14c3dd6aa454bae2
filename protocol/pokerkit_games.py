"""ACPC games as pokerkit games: the bridge to an independent poker engine.

pokerkit (Kim, IEEE ToG 2023) plays hands with its own rules code; pokerbot uses it to read
and write PHH hand histories and to replay our hands as a check. Hold'em games of the usual
shape map to PHH's standard variants (``FT`` fixed-limit and ``NT`` no-limit Texas hold'em),
played by pokerkit's own game classes. Any other ACPC game (Kuhn, 3-player Kuhn, Leduc, or a
game file) is the variant :data:`ACPC_VARIANT`: a pokerkit ``State`` built from the game
definition (its deck, rounds, raise sizes and caps), with a hand ranking for hands of fewer
than five cards in the usual category order (high card < pair < two pair < trips < quads)
and pokerkit's standard ranking for five or more.

Equal blinds (Kuhn, Leduc) are antes in pokerkit's terms; a raise amount in PHH is the
player's bet in the current round, where ACPC counts the total over all rounds
(:func:`first_round_base`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache

from pokerkit import (
    Automation,
    BettingStructure,
    Card,
    CombinationHand,
    Mode,
    Opening,
    StandardHighHand,
    State,
    Street,
)
from pokerkit.lookups import Label, Lookup
from pokerkit.utilities import RankOrder

from pokerbot.protocol.cards import CARD_STRINGS
from pokerbot.protocol.game import UNLIMITED_RAISES, Game

ACPC_VARIANT = "ACPC"
"""PHH variant code of every ACPC game that is not standard hold'em; the PHH carries the
game definition in its ``_acpc_game`` field (pokerbot's extension: PHH has no code for it)."""


def exact_divmod(amount: int, parts: int) -> tuple[Fraction, int]:
    """Split pots exactly, as the ACPC dealer does (values may be fractional)."""
    return Fraction(amount, parts), 0


def holdem_variant(game: Game) -> str | None:
    """``FT`` or ``NT`` when ``game`` is Texas hold'em as PHH defines it, else None.

    That is: the 52-card deck, two hole cards, boards of 0/3/1/1 cards, the small blind and
    big blind in the usual seats (heads-up: position 0 the big blind, position 1 the button
    acting first before the flop), the player after the big blind first before the flop and
    position 0 after it; fixed-limit with a small bet for two rounds and a double one for two.
    """
    n = game.num_players
    shape = (
        game.is_standard_deck
        and game.num_hole_cards == 2
        and game.num_board_cards == (0, 3, 1, 1)
        and game.first_player[1:] == (0, 0, 0)
        and game.first_player[0] == (1 if n == 2 else 2 % n)
    )
    if not shape:
        return None
    small, big = (game.blinds[1], game.blinds[0]) if n == 2 else (game.blinds[0], game.blinds[1])
    if not 0 < small <= big or (n > 2 and any(game.blinds[2:])):
        return None
    if game.is_nolimit:
        return "NT"
    sizes = game.raise_sizes
    if sizes[0] == sizes[1] == big and sizes[2] == sizes[3] == 2 * big and max(game.max_raises) <= 4:
        return "FT"
    return None


def blinds_are_antes(game: Game) -> bool:
    """True when every position posts the same blind (Kuhn, Leduc): antes in pokerkit."""
    return game.blinds[0] > 0 and len(set(game.blinds)) == 1


def phh_forced_bets(game: Game) -> tuple[list[int], list[int]]:
    """PHH's ``antes`` and ``blinds_or_straddles`` for ``game`` (heads-up blinds are listed
    small blind first: PHH reverses them, so that position 0 posts the big blind)."""
    n = game.num_players
    if blinds_are_antes(game):
        return list(game.blinds), [0] * n
    blinds = list(game.blinds)
    if n == 2:
        blinds.reverse()
    return [0] * n, blinds


def first_round_base(game: Game) -> int:
    """Chips each position has in before the first round's bets, as pokerkit counts them
    (antes are in the pot; blinds are bets of the first round). In later rounds the base is
    the highest total at the round's start: a PHH raise amount is the total minus the base."""
    return game.blinds[0] if blinds_are_antes(game) else 0


def pokerkit_cards(cards: tuple[int, ...] | list[int]) -> str:
    """ACPC cards as PHH writes them (``AsKd``: the same two-character spelling)."""
    return "".join(CARD_STRINGS[c] for c in cards)


@cache
def _small_hand(card_count: int) -> type[CombinationHand]:
    """A pokerkit hand type for hands of ``card_count`` < 5 cards, ranked as ACPC ranks them."""

    def add_entries(self: Lookup) -> None:
        suitedness = (True,) if card_count == 1 else (False, True)
        shapes = [({1: card_count}, Label.HIGH_CARD)]
        if card_count >= 2:
            shapes.append(({2: 1, 1: card_count - 2} if card_count > 2 else {2: 1}, Label.ONE_PAIR))
        if card_count >= 4:
            shapes.append(({2: 2}, Label.TWO_PAIR))
        if card_count >= 3:
            shapes.append(({3: 1, 1: card_count - 3} if card_count > 3 else {3: 1}, Label.THREE_OF_A_KIND))
        if card_count >= 4:
            shapes.append(({4: 1}, Label.FOUR_OF_A_KIND))
        for shape, label in shapes:
            self._add_multisets(Counter({k: v for k, v in shape.items() if v}), suitedness, label)

    lookup_type = type(
        f"AcpcLookup{card_count}",
        (Lookup,),
        {"rank_order": RankOrder.STANDARD, "_add_entries": add_entries, "__module__": __name__},
    )
    return type(
        f"AcpcHand{card_count}",
        (CombinationHand,),
        {"lookup": lookup_type(), "low": False, "card_count": card_count, "__module__": __name__},
    )


def pokerkit_state(
    game: Game,
    automations: tuple[Automation, ...],
    divmod: Callable[[int, int], tuple[int | Fraction, int]] = exact_divmod,
) -> State:
    """A new pokerkit hand of ``game`` (the :data:`ACPC_VARIANT` construction)."""
    cards_per_hand = game.num_hole_cards + game.total_board_cards
    hand_type = StandardHighHand if cards_per_hand >= 5 else _small_hand(cards_per_hand)
    streets = tuple(
        Street(
            False,
            (False,) * game.num_hole_cards if round_index == 0 else (),
            game.num_board_cards[round_index],
            False,
            Opening.POSITION,
            game.raise_sizes[round_index] if not game.is_nolimit else game.big_blind,
            None if game.max_raises[round_index] >= UNLIMITED_RAISES else game.max_raises[round_index],
        )
        for round_index in range(game.num_rounds)
    )
    antes, blinds = phh_forced_bets(game)
    return State(
        automations,
        tuple(Card.parse(pokerkit_cards(game.deck))),  # type: ignore[arg-type]  # any tuple of cards is a deck
        (hand_type,),
        streets,
        BettingStructure.NO_LIMIT if game.is_nolimit else BettingStructure.FIXED_LIMIT,
        True,
        tuple(antes),
        tuple(blinds),
        0,
        tuple(game.stacks),
        game.num_players,
        mode=Mode.CASH_GAME,
        divmod=divmod,  # type: ignore[arg-type]  # fractions split pots as ACPC does
    )


__all__ = [
    "ACPC_VARIANT",
    "blinds_are_antes",
    "exact_divmod",
    "holdem_variant",
    "phh_forced_bets",
    "pokerkit_cards",
    "pokerkit_state",
    "first_round_base",
]
