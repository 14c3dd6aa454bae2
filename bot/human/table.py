"""What a person at the table sees: one hand described from the protocol engine's state.

:func:`describe` turns a player's :class:`~pokerbot.protocol.wire.MatchState` (or a finished
hand with every card, as a log line has it) into a :class:`TableView`: each seat's name, its
blind or ante and the dealer button, chips bet in this round and behind, the cards that seat
may be seen with (and at a showdown what they make), the board, the pot, every action of the
hand by round in the words players use, the winners, and the legal actions with their
amounts and the usual bet sizes. The terminal seat prints it, the web page gets it as JSON;
neither repeats the rules. :func:`parse_typed_action` reads an action a person typed and has
the engine judge it.

Amounts are in chips and, as players say them, counted within the round: "bet 100" puts 100
chips in on this street, "raise to 600" makes this street's bet 600 (the blinds count in the
first round). The protocol's raise is TO a total over the whole hand: :attr:`Choices.base`
is what the player had put in before this round, and a wire raise-to is ``base`` plus the
street amount. Seats are counted from 1 in everything a person reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from pokerbot.models.action_classes import pot_raise_to
from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.analysis.ranking import hand_name
from pokerbot.protocol.cards import CARD_STRINGS
from pokerbot.protocol.errors import IllegalActionError, IncompleteHandError
from pokerbot.protocol.game import UNLIMITED_STACK, Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import format_action

HOLDEM_ROUNDS = ("preflop", "flop", "turn", "river")
BET_SIZES = (("½ pot", 0.5), ("⅔ pot", 2 / 3), ("pot", 1.0))
"""The bet sizes offered besides all-in, as fractions of the pot a bet or raise is sized on."""


class TypedActionError(ValueError):
    """What a person typed is not an action, or not a legal one here (the message says why)."""


def round_name(game: Game, round_index: int) -> str:
    """``preflop``/``flop``/``turn``/``river`` in 4-round games, else ``round N`` (1-based)."""
    if game.num_rounds == 4:
        return HOLDEM_ROUNDS[round_index]
    return f"round {round_index + 1}"


def facing_bet(state: HandState) -> bool:
    """True when the round has a bet to raise (the first round's big blind counts)."""
    blinds = state.game.blinds
    return state.num_raises() > 0 or (state.round == 0 and len(set(blinds)) > 1)


def raise_word(state: HandState) -> str:
    """``raise`` when the round has a bet to raise, else ``bet``."""
    return "raise" if facing_bet(state) else "bet"


def action_words(action: Action, state: HandState, base: int = 0) -> str:
    """``fold``, ``check``, ``call 100``, ``bet 100`` or ``raise to 600`` (a raise's amount
    counted within the round; ``base``: what the player to act had in before it), with
    `` (all-in)`` when the action puts the player's whole stack in. Limit raises carry
    their amount too."""
    position = state.current_player
    assert position is not None
    if action.kind is ActionKind.FOLD:
        return "fold"
    game = state.game
    stack = game.stacks[position]
    if action.kind is ActionKind.CALL:
        owed = min(state.max_spent, stack) - state.spent[position]
        words = f"call {owed}" if owed else "check"
        all_in = owed > 0 and state.max_spent >= stack
    else:
        total = action.size if game.is_nolimit else min(state.max_spent + game.raise_sizes[state.round], stack)
        words = f"raise to {total - base}" if facing_bet(state) else f"bet {total - base}"
        all_in = total >= stack
    return words + (" (all-in)" if all_in and stack < UNLIMITED_STACK else "")


@dataclass(frozen=True)
class Seat:
    """One position in one hand: who, its forced bet and whether it has the button, chips
    bet in this round, in the pot in all and behind (None: unlimited), its cards (None:
    hidden), and at a showdown the name of its hand."""

    position: int
    name: str
    in_round: int
    in_pot: int
    behind: float | None
    """Chips not in the pot; once the hand is over and its values known, the seat's stack
    after the hand (its winnings or losses counted, an uncalled bet back in it)."""
    cards: list[str] | None
    folded: bool
    all_in: bool
    blind: str | None = None
    """``small blind 50``, ``big blind 100`` or ``ante 1``; None for a seat that posts nothing."""
    button: bool = False
    hand: str | None = None
    """At a showdown, what the seat's cards make (``two pair, aces and sevens``)."""


@dataclass(frozen=True)
class Step:
    """One action of the history: its round, who acted (position and name), the words
    players use (``raise to 600``), the sentence (``bot raises to 600``, ``you call 50``)
    and the protocol's letters (``r600``)."""

    round: int
    position: int
    name: str
    words: str
    wire: str

    @property
    def text(self) -> str:
        """``NAME VERB...``: ``you bet 100``, ``bot bets 100``."""
        if self.name == "you":
            return f"you {self.words}"
        verb, _, rest = self.words.partition(" ")
        return f"{self.name} {verb}s" + (f" {rest}" if rest else "")


@dataclass(frozen=True)
class Choices:
    """The legal actions of the position to act. Amounts in chips within the round (a bet
    or raise TO this round's total); the protocol's raise-to is ``base`` plus the amount."""

    can_fold: bool
    call_amount: int
    can_raise: bool
    min_amount: int
    max_amount: int
    base: int
    """What the player had put in before this round: wire raise-to = ``base`` + amount."""
    nolimit: bool
    raise_word: str
    """``raise`` (a bet to raise) or ``bet`` (none yet in this round)."""
    sizes: list[tuple[str, int]] = field(default_factory=list)
    """The usual sizes: (``½ pot``, amount), (``⅔ pot``, ...), (``pot``, ...), (``all-in``,
    ...), each within the legal range, no amount twice (no-limit only)."""

    @property
    def min_raise_to(self) -> int:
        """The smallest raise TO, all rounds counted (the protocol's amount)."""
        return self.base + self.min_amount

    @property
    def max_raise_to(self) -> int:
        """The largest raise TO, all rounds counted (all-in in no-limit)."""
        return self.base + self.max_amount


@dataclass(frozen=True)
class TableView:
    """One hand as a player (``viewer``) sees it; ``viewer`` None shows every card."""

    hand_number: int
    viewer: int | None
    round: int
    round_name: str
    pot: int
    """Chips in the pot; once the hand is over, the pot as it was won: an uncalled bet
    (:attr:`returned`) is not in it."""
    board: list[str]
    seats: list[Seat]
    history: list[Step]
    to_act: int | None
    choices: Choices | None
    finished: bool
    values: list[float] | None = None
    """Chips won per position once the hand is over and its values are known."""
    big_blind: int = 1
    antes: bool = False
    """The forced bets are antes (Kuhn, Leduc): results are counted in antes, not big blinds."""
    showdown: bool = False
    winners: list[int] = field(default_factory=list)
    """The positions that won the pot (or split it) in a finished hand."""
    returned: int = 0
    """In a finished hand, the chips of a bet nobody called, returned to :attr:`returned_to`."""
    returned_to: int | None = None
    hole_cards: int = 0
    """Cards each player holds (how many backs to draw for hidden ones)."""
    board_cards: int = 0
    """Board cards dealt over the whole hand (how many places the board has)."""
    round_names: list[str] = field(default_factory=list)
    """The name of every round of the game (``preflop``, ``flop``, ...)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary (the web page's view of the hand)."""
        data = asdict(self)
        for step, entry in zip(self.history, data["history"], strict=True):
            entry["text"] = step.text
        if self.choices is not None:
            data["choices"]["min_raise_to"] = self.choices.min_raise_to
            data["choices"]["max_raise_to"] = self.choices.max_raise_to
        return data


def seat_names(
    names: Sequence[str] | None, game: Game, hand_number: int, viewer: int | None, *, you: bool = True
) -> list[str]:
    """The name of each position in hand ``hand_number``: ``names`` are the players in seat
    order (the dealer's), and seats rotate as the dealer rotates them (position ``p`` is seat
    ``(p + hand) % players``); the viewer is ``you`` (unless ``you`` is False: a spectator's
    view of one player's cards). Without names, the opponent of a heads-up game is
    ``opponent``, else seats are ``seat N`` (from 1)."""
    players = game.num_players
    shown = []
    for position in range(players):
        seat = (position + hand_number) % players
        if position == viewer and you:
            shown.append("you")
        elif names is not None and len(names) == players:
            shown.append(names[seat])
        else:
            shown.append("opponent" if players == 2 and viewer is not None else f"seat {seat + 1}")
    return shown


def button_position(game: Game) -> int:
    """The position with the dealer button: the last to act after the first round (in
    heads-up hold'em, the small blind)."""
    later = game.first_player[1] if game.num_rounds > 1 else game.first_player[0]
    return (later - 1) % game.num_players


def blind_label(game: Game, position: int) -> str | None:
    """``small blind 50``, ``big blind 100``, ``ante 1`` or None for ``position``."""
    blind = game.blinds[position]
    if blind <= 0:
        return None
    if game.has_antes:
        return f"ante {blind}"
    return f"big blind {blind}" if blind == game.big_blind else f"small blind {blind}"


def _first_bases(game: Game) -> list[int]:
    """What counts as put in before the first round's betting: antes (blinds are bets)."""
    return list(game.blinds) if game.has_antes else [0] * game.num_players


def _history(state: HandState, names: list[str]) -> list[Step]:
    game = state.game
    replay = HandState(game)
    base = _first_bases(game)
    steps = []
    for round_index, position, action in state.history():
        words = action_words(action, replay, base[position])
        steps.append(Step(round_index, position, names[position], words, format_action(action, game)))
        replay.apply(action)
        if replay.round != round_index:
            base = list(replay.spent)
    return steps


def _bases(state: HandState) -> list[int]:
    """What each position had put in before the current round's betting."""
    replay = HandState(state.game)
    base = _first_bases(state.game)
    for round_index, _, action in state.history():
        if replay.round == state.round:
            break
        replay.apply(action)
        if replay.round != round_index:
            base = list(replay.spent)
    return base


def _sizes(state: HandState, base: int, high: int) -> list[tuple[str, int]]:
    """The usual bet sizes (street amounts, ``high`` all-in): a fraction of the pot after
    calling, added to the bet being called
    (:func:`~pokerbot.models.action_classes.pot_raise_to`)."""
    sizes: list[tuple[str, int]] = []
    for label, fraction in BET_SIZES:
        amount = pot_raise_to(state, fraction) - base
        if all(amount != taken for _, taken in sizes) and amount < high:
            sizes.append((label, amount))
    sizes.append(("all-in", high))
    return sizes


def _choices(state: HandState) -> Choices:
    game = state.game
    legal = state.legal_actions()
    base = _bases(state)[legal.player]
    low = legal.min_raise_to - base if legal.can_raise else 0
    high = legal.max_raise_to - base if legal.can_raise else 0
    sizes = _sizes(state, base, high) if legal.can_raise and game.is_nolimit else []
    return Choices(
        legal.can_fold, legal.call_amount, legal.can_raise, low, high, base, game.is_nolimit, raise_word(state), sizes
    )


def describe(
    state: HandState,
    hand_number: int,
    viewer: int | None,
    names: Sequence[str] | None = None,
    *,
    you: bool = True,
) -> TableView:
    """The :class:`TableView` of ``state`` (cards as given: hidden ones stay hidden);
    ``names``: the players in seat order, ``you``: the viewer is called ``you`` (see
    :func:`seat_names`)."""
    game = state.game
    shown_names = seat_names(names, game, hand_number, viewer, you=you)
    bases = _bases(state)
    board = [CARD_STRINGS[c] for c in state.visible_board()]
    showdown = state.finished and state.showdown()
    button = button_position(game)
    seats = []
    for position in range(game.num_players):
        stack = game.stacks[position]
        cards = state.hole_cards[position]
        shown = None if cards is None else [CARD_STRINGS[c] for c in cards]
        named = None
        if showdown and cards is not None and not state.folded[position]:
            named = hand_name([*cards, *state.visible_board()])
        seats.append(
            Seat(
                position=position,
                name=shown_names[position],
                in_round=state.spent[position] - bases[position],
                in_pot=state.spent[position],
                behind=None if stack >= UNLIMITED_STACK else stack - state.spent[position],
                cards=shown,
                folded=state.folded[position],
                all_in=state.is_all_in(position),
                blind=blind_label(game, position),
                button=position == button and game.num_players > 1,
                hand=named,
            )
        )
    values = None
    winners: list[int] = []
    returned_to, returned = (state.uncalled_bet() or (None, 0)) if state.finished else (None, 0)
    if state.finished:
        try:
            values = list(state.values())
            winners = [p for p, value in enumerate(values) if value > 0]
            if showdown and not winners:  # a tie: the pot split back, nobody up a chip
                ranks = state.showdown_ranks()
                winners = [p for p, rank in enumerate(ranks) if rank == max(ranks)]
        except IncompleteHandError:  # a showdown whose cards this viewer does not know
            values = None
    if values is not None:  # the hand is settled: each stack as it ends the hand
        seats = [
            replace(seat, behind=None if seat.behind is None else game.stacks[seat.position] + values[seat.position])
            for seat in seats
        ]
    return TableView(
        hand_number=hand_number,
        viewer=viewer,
        round=state.round,
        round_name=round_name(game, state.round),
        pot=state.pot - returned,
        board=board,
        seats=seats,
        history=_history(state, shown_names),
        to_act=state.current_player,
        choices=None if state.finished else _choices(state),
        finished=state.finished,
        values=values,
        big_blind=game.big_blind,
        antes=game.has_antes,
        showdown=showdown,
        winners=winners,
        hole_cards=game.num_hole_cards,
        board_cards=game.total_board_cards,
        round_names=[round_name(game, index) for index in range(game.num_rounds)],
        returned=returned,
        returned_to=returned_to,
    )


_WORDS = {
    "f": "fold",
    "fold": "fold",
    "c": "call",
    "call": "call",
    "k": "check",
    "check": "check",
    "r": "raise",
    "raise": "raise",
    "b": "bet",
    "bet": "bet",
    "a": "allin",
    "allin": "allin",
    "all-in": "allin",
    "shove": "allin",
}
HINT = "f (fold), c (check or call), b AMOUNT (bet), r AMOUNT (raise to), a (all-in)"


def parse_typed_action(text: str, state: HandState) -> Action:
    """The action a person typed, judged legal by the engine; raises TypedActionError saying
    why not, in a player's words (seats counted from 1).

    Accepted: ``f``/``fold``, ``c``/``call``, ``k``/``check`` (only with nothing to call),
    ``b AMOUNT``/``bet AMOUNT`` (only with no bet to raise), ``r AMOUNT``/``raise AMOUNT``
    (raise to, or a bet where there is none yet) and ``a``/``all-in``. An amount is counted
    within the round, as the table shows it (``r 600``: this round's bet becomes 600); a
    limit game's bets and raises take no amount (or their one amount).
    """
    stripped = text.strip().lower()
    if not stripped:
        raise TypedActionError(f"type an action: {HINT}")
    typed = re.fullmatch(r"([a-z-]+)\s*(\d+)?", stripped)
    kind = _WORDS.get(typed.group(1)) if typed else None
    if typed is None or kind is None:
        raise TypedActionError(f"{text.strip()!r} is not an action: {HINT}")
    amount = int(typed.group(2)) if typed.group(2) is not None else None
    legal = state.legal_actions()
    game = state.game
    owed = legal.call_amount
    if amount is not None and kind not in ("bet", "raise"):
        raise TypedActionError(f"{kind} takes no amount")
    if kind == "fold":
        if not legal.can_fold:
            raise TypedActionError("there is nothing to call: check (c) rather than fold")
        return Action(ActionKind.FOLD)
    if kind == "check" and owed:
        raise TypedActionError(f"there is a bet to you: call {owed} (c), raise (r AMOUNT) or fold (f)")
    if kind in ("call", "check"):
        return Action(ActionKind.CALL)
    if not legal.can_raise:
        raise TypedActionError(_why_no_raise(state, owed))
    choices = _choices(state)
    if kind == "bet" and facing_bet(state):
        raise TypedActionError(
            f"there is a bet to raise: r AMOUNT raises to {choices.min_amount}..{choices.max_amount}, or c calls {owed}"
        )
    if not game.is_nolimit:
        if amount is not None and amount != choices.min_amount:
            raise TypedActionError(f"in this limit game the {choices.raise_word} is {choices.min_amount}")
        return Action(ActionKind.RAISE, 0)
    if kind == "allin":
        total = choices.max_raise_to
    elif amount is None:
        verb = "raise to" if facing_bet(state) else "bet"
        raise TypedActionError(
            f"say how much: {typed.group(1)} AMOUNT, to {verb} {choices.min_amount}..{choices.max_amount}"
        )
    else:
        if not choices.min_amount <= amount <= choices.max_amount:
            verb = "a raise goes to" if facing_bet(state) else "a bet is"
            raise TypedActionError(
                f"{verb} {choices.min_amount}..{choices.max_amount} here ({choices.max_amount} is all-in), not {amount}"
            )
        total = choices.base + amount
    action = Action.raise_to(total)
    try:
        state.verify(action)
    except IllegalActionError as error:  # the engine disagrees with the table: say so plainly
        raise TypedActionError(str(error)) from None
    return action


def _why_no_raise(state: HandState, owed: int) -> str:
    after = f"call {owed} (c) or fold (f)" if owed else "check (c)"
    if state.num_raises() >= state.game.max_raises[state.round]:
        return f"no more raises in this round (the cap is {state.game.max_raises[state.round]}): {after}"
    return f"no raise is possible here: {after}"


__all__ = [
    "BET_SIZES",
    "Choices",
    "Seat",
    "Step",
    "TableView",
    "TypedActionError",
    "action_words",
    "blind_label",
    "button_position",
    "describe",
    "facing_bet",
    "parse_typed_action",
    "raise_word",
    "round_name",
    "seat_names",
]
