"""PHH hand histories (the Poker Hand History format, read and written through pokerkit).

Every finished ACPC hand (a log's ``STATE`` line) becomes one PHH hand: the game's forced
bets and stacks, the hole cards and boards as ``d dh``/``d db`` actions, every betting action
(``f``, ``cc``, ``cbr AMOUNT`` with pokerkit's per-round amount), the showdown (``sm``), the
hand number (``hand``) and who sat where (``players``); pokerkit writes the TOML. A match is
a ``.phhs`` file of numbered sections. Standard hold'em is PHH's ``FT``/``NT``; other games
are the variant ``ACPC`` with the game definition in ``_acpc_game`` (see
:mod:`pokerbot.protocol.pokerkit_games`). Every PHH hand also carries ``_acpc_game``, so
reading it back needs no ``--game``.

Reading a PHH hand replays its actions through :class:`~pokerbot.protocol.hand.HandState`
(the dealer's legality), giving the ACPC hand back; :func:`pokerkit_payoffs` replays the same
hand in pokerkit, an independent engine, whose payoffs must equal our values.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar, cast

from pokerkit import Automation, HandHistory, State

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.errors import CardError, GameDefinitionError, IllegalActionError, LogFormatError
from pokerbot.protocol.game import Game, format_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import LoggedHand, LogReport, same_value
from pokerbot.protocol.pokerkit_games import (
    ACPC_VARIANT,
    exact_divmod,
    first_round_base,
    holdem_variant,
    phh_forced_bets,
    pokerkit_cards,
    pokerkit_state,
)

GAME_FIELD = "_acpc_game"


class PokerbotHandHistory(HandHistory):
    """pokerkit's hand history, knowing the :data:`ACPC_VARIANT` too (built from ``_acpc_game``)."""

    required_field_names: ClassVar[dict[str, tuple[str, ...]]] = {
        **HandHistory.required_field_names,
        ACPC_VARIANT: ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"),
    }

    def create_state(self) -> State:
        """The initial pokerkit state: pokerkit's own game for FT/NT, else built from the game."""
        if self.variant != ACPC_VARIANT:
            return super().create_state()
        automations = tuple(a for a in self.automations if a is not Automation.CARD_BURNING)
        return pokerkit_state(acpc_game_of(self), automations, self.divmod)


def acpc_game_of(history: HandHistory) -> Game:
    """The ACPC game of a PHH hand: its ``_acpc_game`` field, else the FT/NT fields."""
    lines = history.user_defined_fields.get(GAME_FIELD)
    if lines is not None:
        try:
            return parse_game("\n".join(lines) if isinstance(lines, list) else str(lines))
        except GameDefinitionError as error:
            raise LogFormatError(f"{GAME_FIELD}: {error}") from None
    return _holdem_game(history)


def _holdem_game(history: HandHistory) -> Game:
    """The ACPC game of a standard FT/NT hand without ``_acpc_game`` (stacks as this hand's)."""
    if history.variant not in ("FT", "NT"):
        raise LogFormatError(f"variant {history.variant!r}: only FT, NT and ACPC hands can be read")
    n = len(history.starting_stacks)
    if any(history.antes):
        raise LogFormatError("antes: ACPC games have blinds only")
    blinds = [int(b) for b in history.blinds_or_straddles or [0] * n]
    if n == 2:
        blinds.reverse()
    elif any(blinds[2:]):
        raise LogFormatError("blinds_or_straddles: ACPC games have no straddles")
    stacks = " ".join(
        str(min(int(s), 2**31 - 1)) if s != float("inf") else str(2**31 - 1) for s in history.starting_stacks
    )
    first = "2 1 1 1" if n == 2 else "3 1 1 1"
    if history.variant == "NT":
        betting = "nolimit"
        sizes = ""
    else:
        betting = "limit"
        small, big = history.small_bet, history.big_bet
        sizes = f"raiseSize = {small} {small} {big} {big}\nmaxRaises = 3 4 4 4\n"
    text = (
        f"GAMEDEF\n{betting}\nnumPlayers = {n}\nnumRounds = 4\nstack = {stacks}\nblind = {' '.join(map(str, blinds))}\n"
        f"{sizes}firstPlayer = {first}\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\n"
        "END GAMEDEF\n"
    )
    return parse_game(text)


def phh_variant(game: Game) -> str:
    """The PHH variant code of ``game``: ``FT``, ``NT`` or ``ACPC``."""
    return holdem_variant(game) or ACPC_VARIANT


def _board_action(state: HandState, round_index: int) -> str | None:
    game = state.game
    start, count = game.board_start[round_index], game.num_board_cards[round_index]
    return f"d db {pokerkit_cards(state.board_cards[start : start + count])}" if count else None


def hand_to_phh(hand: LoggedHand, game: Game, **fields: Any) -> PokerbotHandHistory:
    """One finished ACPC hand (every card known) as a PHH hand; ``fields`` adds PHH fields.

    Besides the actions, PHH's ``winnings`` (the chips each player took from the pot, an
    uncalled bet not among them: it went back to its player, as it does in pokerkit's replay)
    and ``finishing_stacks`` (each stack after the hand)."""
    state = hand.state
    actions = [f"d dh p{p + 1} {pokerkit_cards(cards or ())}" for p, cards in enumerate(state.hole_cards)]
    replay = HandState(game)
    base = first_round_base(game)
    for _, position, action in state.history():
        if action.kind is ActionKind.FOLD:
            actions.append(f"p{position + 1} f")
        elif action.kind is ActionKind.CALL:
            actions.append(f"p{position + 1} cc")
        else:
            after = replay.copy()
            after.apply(action)
            actions.append(f"p{position + 1} cbr {after.spent[position] - base}")
        before_round = replay.round
        replay.apply(action)
        for reached in range(before_round + 1, replay.round + 1):
            base = replay.max_spent
            board = _board_action(state, reached)
            if board:
                actions.append(board)
    if state.showdown():
        actions.extend(
            f"p{p + 1} sm {pokerkit_cards(state.hole_cards[p] or ())}"
            for p in range(game.num_players)
            if not state.folded[p]
        )
    antes, blinds = phh_forced_bets(game)
    variant = phh_variant(game)
    values: dict[str, Any] = {"min_bet": game.big_blind} if variant == "NT" else {}
    if variant == "FT":
        values = {"small_bet": game.raise_sizes[0], "big_bet": game.raise_sizes[2]}
    won = state.values()
    return PokerbotHandHistory(
        variant=variant,
        antes=antes,
        blinds_or_straddles=blinds,
        starting_stacks=list(game.stacks),
        winnings=[_chips(amount) for amount in state.collected()],
        finishing_stacks=[_chips(stack + value) for stack, value in zip(game.stacks, won)],
        actions=actions,
        hand=hand.hand_number,
        players=list(hand.names),
        user_defined_fields={GAME_FIELD: format_game(game).strip().splitlines()},
        divmod=exact_divmod,  # type: ignore[arg-type]  # fractions split pots as ACPC does
        **values,
        **fields,
    )


def _chips(amount: float) -> Any:
    """A whole number of chips as an int (PHH's type); half chips of a split pot as they are."""
    return int(amount) if float(amount).is_integer() else amount


def phh_to_hand(history: HandHistory, game: Game | None = None, number: int = 0) -> LoggedHand:
    """The ACPC hand of a PHH hand, replayed by our engine; raises LogFormatError saying why not.

    ``game`` defaults to the hand's own (``_acpc_game``, or its FT/NT fields); ``number`` is
    the hand number when the PHH has none.
    """
    game = game or acpc_game_of(history)
    n = game.num_players
    if len(history.starting_stacks) != n:
        raise LogFormatError(f"starting_stacks: {len(history.starting_stacks)} players, the game has {n}")
    state = HandState(game)
    holes: list[tuple[int, ...] | None] = [None] * n
    board: list[int] = []
    base = first_round_base(game)
    for index, text in enumerate(history.actions):
        words = text.split("#", 1)[0].split()
        try:
            if words[:2] == ["d", "dh"] and len(words) == 4:
                holes[_player(words[2], n)] = _known_cards(words[3])
            elif words[:2] == ["d", "db"] and len(words) == 3:
                board.extend(_known_cards(words[2]))
            elif len(words) >= 2 and words[1] in ("f", "cc", "cbr"):
                position = _player(words[0], n)
                if state.current_player != position:
                    raise LogFormatError(f"it is p{(state.current_player or 0) + 1}'s turn, not {words[0]}'s")
                before_round = state.round
                if words[1] == "f":
                    state.apply(Action(ActionKind.FOLD))
                elif words[1] == "cc":
                    state.apply(Action(ActionKind.CALL))
                else:
                    total = base + int(float(words[2]))
                    state.apply(Action(ActionKind.RAISE, total if game.is_nolimit else 0))
                    if not game.is_nolimit and state.spent[position] != total:
                        raise LogFormatError(f"a limit raise goes to {state.spent[position]}, not {total}")
                if state.round != before_round:
                    base = state.max_spent
            elif len(words) >= 2 and words[1] == "sm":
                continue
            else:
                raise LogFormatError("not an action pokerbot reads (f, cc, cbr, sm, d dh, d db)")
        except (IllegalActionError, CardError, ValueError, IndexError) as error:
            raise LogFormatError(f"action {index + 1} {text!r}: {error}") from None
    if not state.finished:
        raise LogFormatError("the actions do not finish the hand")
    if any(cards is None for cards in holes):
        raise LogFormatError("hole cards: every player's must be dealt (d dh) for an ACPC hand")
    state.hole_cards = list(holes)
    state.board_cards = tuple(board)
    names = tuple(history.players or [f"p{p + 1}" for p in range(n)])
    try:
        values = state.values()
    except ValueError as error:
        raise LogFormatError(f"values: {error}") from None
    hand_number = history.hand if isinstance(history.hand, int) else number
    return LoggedHand(hand_number, state, values, names)


def _player(word: str, count: int) -> int:
    if not word.startswith("p") or not word[1:].isdigit() or not 1 <= int(word[1:]) <= count:
        raise LogFormatError(f"{word!r} is not a player p1..p{count}")
    return int(word[1:]) - 1


def _known_cards(text: str) -> tuple[int, ...]:
    if "?" in text:
        raise LogFormatError(f"cards {text!r} are unknown; ACPC hands need every card")
    return cards_from_string(text)


def pokerkit_payoffs(history: HandHistory) -> list[float]:
    """Each player's chips won, by pokerkit replaying the PHH hand (split pots exact)."""
    replay = history if isinstance(history, PokerbotHandHistory) else _as_pokerbot(history)
    replay.divmod = exact_divmod  # type: ignore[assignment]  # fractions split pots as ACPC does
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = None
        for state in replay:
            final = state
    if final is None or final.status:
        raise LogFormatError("pokerkit did not reach the end of the hand")
    return [float(value) for value in final.payoffs]


def _as_pokerbot(history: HandHistory) -> PokerbotHandHistory:
    return cast(PokerbotHandHistory, PokerbotHandHistory.loads(history.dumps()))


def dumps_phh(hands: Iterable[PokerbotHandHistory]) -> str:
    """A ``.phhs`` text: the hands as numbered TOML sections (pokerkit's writer)."""
    return PokerbotHandHistory.dumps_all(hands) + "\n"


def loads_phh(text: str) -> Iterator[PokerbotHandHistory]:
    """The hands of a ``.phh`` (one hand) or ``.phhs`` (sections) text; raises LogFormatError."""
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            yield from cast(Iterator[PokerbotHandHistory], PokerbotHandHistory.loads_all(text))
        else:
            yield cast(PokerbotHandHistory, PokerbotHandHistory.loads(text))
    except (ValueError, TypeError, KeyError) as error:
        raise LogFormatError(f"not a PHH file: {str(error).splitlines()[0]}") from None


def looks_like_phh(text: str) -> bool:
    """True when ``text`` starts like PHH (a TOML section or key) rather than an ACPC log."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        return stripped.startswith("[") or "=" in stripped.split(":", 1)[0]
    return False


def check_phh(histories: Iterable[HandHistory], game: Game | None = None, max_problems: int = 50) -> LogReport:
    """Replay every PHH hand twice, by our engine (the dealer's legality, ACPC values) and by
    pokerkit, and report disagreements as ``hand N: ...``; stops at ``max_problems``."""
    report = LogReport()
    for index, history in enumerate(histories):
        if len(report.problems) >= max_problems:
            report.stopped_at = index
            break
        label = f"hand {history.hand if history.hand is not None else index + 1}"
        try:
            hand = phh_to_hand(history, game, index)
            payoffs = pokerkit_payoffs(history)
        except (LogFormatError, ValueError) as error:
            report.problems.append(f"{label}: {error}")
            continue
        report.hands += 1
        for position, (ours, theirs) in enumerate(zip(hand.values, payoffs)):
            if not same_value(theirs, ours):
                report.problems.append(f"{label}: p{position + 1} wins {ours:g} by our rules, {theirs:g} by pokerkit's")
            name = hand.names[position]
            report.totals[name] = report.totals.get(name, 0.0) + ours
    return report


def names_in_seat_order(hands: Sequence[LoggedHand]) -> list[str]:
    """The players in the order of the first hand's positions (the match's seat order)."""
    return list(hands[0].names) if hands else []


__all__ = [
    "GAME_FIELD",
    "PokerbotHandHistory",
    "acpc_game_of",
    "check_phh",
    "dumps_phh",
    "hand_to_phh",
    "loads_phh",
    "looks_like_phh",
    "names_in_seat_order",
    "phh_to_hand",
    "phh_variant",
    "pokerkit_payoffs",
]
