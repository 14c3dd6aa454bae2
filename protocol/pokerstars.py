"""PokerStars-style hand histories, the text that players' tools (trackers, replayers) read.

Only Texas hold'em can be written this way (PHH's ``FT`` and ``NT`` shapes: see
:func:`~pokerbot.protocol.pokerkit_games.holdem_variant`). Seats are fixed at the table in
the order the players were named, and the button moves, as at a real table; every player's
hole cards are shown (``Dealt to``), since an ACPC log knows them all. Amounts are chips;
a raise is written as PokerStars does, ``raises BY to TO`` within the current round.
pokerkit's PokerStars reader parses what :func:`format_pokerstars` writes for no-limit
hands (a test replays them and compares payoffs).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.analysis.ranking import CATEGORY_NAMES, category_of, rank_generic
from pokerbot.protocol.cards import CARD_STRINGS
from pokerbot.protocol.errors import LogFormatError
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import LoggedHand, format_value
from pokerbot.protocol.pokerkit_games import holdem_variant

_STREETS = ("FLOP", "TURN", "RIVER")


def _cards(cards: Sequence[int]) -> str:
    return " ".join(CARD_STRINGS[c] for c in cards)


def _chips(amount: float) -> str:
    return format_value(amount)


def check_pokerstars_game(game: Game) -> str:
    """``Hold'em No Limit`` or ``Hold'em Limit``; raises LogFormatError for other games."""
    variant = holdem_variant(game)
    if variant is None:
        raise LogFormatError("PokerStars hand histories are Texas hold'em only; convert this game to PHH instead")
    return "Hold'em No Limit" if variant == "NT" else "Hold'em Limit"


def _blind_positions(game: Game) -> tuple[int, int]:
    """(small blind, big blind) positions."""
    return (1, 0) if game.num_players == 2 else (0, 1)


def format_pokerstars(
    hand: LoggedHand,
    game: Game,
    seat_order: Sequence[str],
    table: str = "pokerbot",
    when: datetime.datetime | None = None,
) -> str:
    """One hand as PokerStars writes it; ``seat_order`` names the players by seat (1..n)."""
    kind = check_pokerstars_game(game)
    state = hand.state
    n = game.num_players
    names = list(hand.names)
    seat_of = {name: seat_order.index(name) + 1 for name in names}
    small, big = _blind_positions(game)
    button = n - 1  # the last position acts last after the flop: the button
    stamp = (when or datetime.datetime(2000, 1, 1)).strftime("%Y/%m/%d %H:%M:%S")
    stakes = (
        f"{game.blinds[small]}/{game.blinds[big]}"
        if game.is_nolimit
        else f"{game.raise_sizes[0]}/{game.raise_sizes[2]}"
    )
    lines = [
        f"PokerStars Hand #{hand.hand_number + 1}: {kind} ({stakes}) - {stamp} ET",
        f"Table '{table}' {n}-max Seat #{seat_of[names[button]]} is the button",
    ]
    for name in sorted(names, key=seat_of.__getitem__):
        lines.append(f"Seat {seat_of[name]}: {name} ({game.stacks[names.index(name)]} in chips)")
    lines.append(f"{names[small]}: posts small blind {game.blinds[small]}")
    lines.append(f"{names[big]}: posts big blind {game.blinds[big]}")
    lines.append("*** HOLE CARDS ***")
    lines.extend(f"Dealt to {names[p]} [{_cards(state.hole_cards[p] or ())}]" for p in range(n))
    replay = HandState(game)
    round_base = 0  # chips in before the current round (the blinds are bets of the first)
    for _, position, action in state.history():
        name = names[position]
        owed = replay.max_spent - replay.spent[position]
        before_round = replay.round
        if action.kind is ActionKind.FOLD:
            lines.append(f"{name}: folds")
            replay.apply(action)
        elif action.kind is ActionKind.CALL:
            before = replay.spent[position]
            replay.apply(action)
            paid = replay.spent[position] - before
            lines.append(f"{name}: calls {paid}" if owed else f"{name}: checks")
            if owed and replay.is_all_in(position):
                lines[-1] += " and is all-in"
        else:
            current = replay.max_spent - round_base
            replay.apply(action)
            to = replay.spent[position] - round_base
            text = f"{name}: raises {to - current} to {to}" if current else f"{name}: bets {to}"
            lines.append(text + (" and is all-in" if replay.is_all_in(position) else ""))
        if replay.round != before_round:
            round_base = replay.max_spent
        for reached in range(before_round + 1, replay.round + 1):
            lines.append(_street_line(state, game, reached))
    lines.extend(_results(hand, game, names, seat_of, button, small, big))
    return "\n".join(lines) + "\n"


def _street_line(state: HandState, game: Game, round_index: int) -> str:
    start, count = game.board_start[round_index], game.num_board_cards[round_index]
    board = state.board_cards
    if round_index == 1:
        return f"*** FLOP *** [{_cards(board[start : start + count])}]"
    return f"*** {_STREETS[round_index - 1]} *** [{_cards(board[:start])}] [{_cards(board[start : start + count])}]"


def _results(
    hand: LoggedHand, game: Game, names: list[str], seat_of: dict[str, int], button: int, small: int, big: int
) -> list[str]:
    state = hand.state
    lines = []
    top, uncalled = state.uncalled_bet() or (0, 0)
    if uncalled:
        lines.append(f"Uncalled bet ({uncalled}) returned to {names[top]}")
    board = state.visible_board()
    if state.showdown():
        lines.append("*** SHOW DOWN ***")
        for p in range(game.num_players):
            if not state.folded[p]:
                cards = state.hole_cards[p] or ()
                category = CATEGORY_NAMES[category_of(rank_generic((*cards, *board)))]
                lines.append(f"{names[p]}: shows [{_cards(cards)}] ({category})")
    collected = {p: amount for p, amount in enumerate(state.collected()) if amount > 0}
    lines.extend(f"{names[p]} collected {_chips(amount)} from pot" for p, amount in collected.items())
    lines.append("*** SUMMARY ***")
    lines.append(f"Total pot {_chips(state.pot - uncalled)} | Rake 0")
    if board:
        lines.append(f"Board [{_cards(board)}]")
    for p in sorted(range(game.num_players), key=lambda q: seat_of[names[q]]):
        role = " (button)" if p == button else ""
        role += " (small blind)" if p == small else (" (big blind)" if p == big else "")
        if state.folded[p]:
            outcome = "folded"
        elif p in collected:  # as PokerStars says it: "collected" a pot nobody contested
            outcome = f"collected ({_chips(collected[p])})"
            if state.showdown():
                outcome = f"showed [{_cards(state.hole_cards[p] or ())}] and won ({_chips(collected[p])})"
        else:
            outcome = f"showed [{_cards(state.hole_cards[p] or ())}] and lost" if state.showdown() else "lost"
        lines.append(f"Seat {seat_of[names[p]]}: {names[p]}{role} {outcome}")
    return lines


def format_pokerstars_match(
    hands: Sequence[LoggedHand], game: Game, table: str = "pokerbot", when: datetime.datetime | None = None
) -> str:
    """Every hand, separated by blank lines, seats in the first hand's order."""
    check_pokerstars_game(game)
    seat_order = list(hands[0].names) if hands else []
    texts = []
    for hand in hands:
        missing = [name for name in hand.names if name not in seat_order]
        if missing:
            raise LogFormatError(f"hand {hand.hand_number}: {missing[0]} was not at the table in the first hand")
        texts.append(format_pokerstars(hand, game, seat_order, table, when))
    return "\n\n".join(texts)


__all__ = ["check_pokerstars_game", "format_pokerstars", "format_pokerstars_match"]
