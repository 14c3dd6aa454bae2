"""AIVAT: an unbiased, low-variance estimate of a heads-up hand's value (Burch et al. 2018).

A hand's outcome ``u(z)`` is mostly luck: the cards, and the random choices of players who mix.
AIVAT subtracts the luck it can measure, using a value function ``v`` (:mod:`.values`) and the
action probabilities of the players whose strategy is known (:class:`Oracle`). For every
**chance event** (the deal, each round's board cards) and every **decision of a known
player**, the estimate adds a correction term

    k = sum_a p(a) v(h a) - v(h a*)

where ``h`` is the state before the event, ``a*`` what happened and ``p`` its probabilities:
the chance distribution over the cards left (card removal: the cards already dealt, both
players' hole cards included, cannot come), or the known player's action probabilities at
its view. Each term has mean zero given ``h``, so for ANY ``v`` the estimate

    F(z) = u(z) + sum of the k's

has the mean of ``u``: unbiased. With a good ``v`` the terms cancel most of the luck. A
chance-consistent ``v`` (its value before a chance event is the average after it, as
:class:`~pokerbot.strategies.aivat.values.EquityValue` and the default
:class:`~pokerbot.strategies.aivat.values.StakeValue`) makes ``sum_a p(a) v(h a) = v(h)``
at chance events; other value functions are averaged by enumerating the cards.

**Imaginary observations** (``imaginary=True``; Bowling et al. 2008, the part of AIVAT that
uses the known players' private cards): the known players' hole cards are not observed by
anyone else, so given the opponent's cards, the board and the betting, the known players'
holdings follow the posterior ``P(x) ~ pi(x)``, the product of their own action
probabilities along the betting (the deal being uniform over the holdings that clash with no
other card). The estimate is then the posterior mean of ``F`` over those holdings: a
conditional expectation of an unbiased estimate, hence unbiased, and never of higher
variance (Rao-Blackwell). It asks each known player's probabilities for every holding at
each of its decisions: in small decks (Kuhn, Leduc: at most :data:`MAX_IMAGINARY` holdings)
every holding is taken. In hold'em a **sample** stands in for the posterior: for each
imagined player ``S`` holdings drawn uniformly (with replacement, from a generator seeded by
the evaluator's ``seed`` and what the other player sees, never by the known players' cards),
plus its actual holding; with two imagined players, every pair of their drawn holdings that
shares no card. Were the draw truly random, the actual holdings would be, given these
multisets, distributed over them as the posterior restricted to them (by symmetry: the pairs
that share a card have probability 0), so the weighted mean over them would be a conditional
expectation of ``F``: unbiased over the deal and the draw, as any Monte Carlo estimate is over
its sampling, and never of higher variance than ``F``. A holding's reach is computed first,
so one the known players never play this way costs no value function. The imagined players
may be some of the known ones only (:meth:`Aivat.hand` ``imagined``): the posterior of their
holdings given everything else (the other known player's cards included) is still
proportional to their own reach, since the other player's reach does not depend on them.

Every card of the hand must be known (an ACPC log has them all). Amounts are chips won by
position 0 (position 1's are their negatives: the game is zero-sum).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pokerbot.protocol.actions import Action
from pokerbot.protocol.cards import Card, cards_to_string
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.aivat.values import AivatValue, StakeValue
from pokerbot.strategies.base import ActionProbabilities

Oracle = Callable[[MatchState], ActionProbabilities]
"""A known player's action probabilities at a view (its own turn; the view may be
hypothetical: other hole cards than the ones dealt)."""
MAX_IMAGINARY = 1000
"""The most holdings (combinations of the known players' hole cards) imaginary observations
average over in one hand."""
MAX_ENUMERATION = 100_000
"""The most card deals a chance correction enumerates for a value function that is not
chance-consistent."""


def imaginary_by_default(game: Game) -> bool:
    """True where imaginary observations are cheap enough to be the default: games whose
    two players' holdings make at most :data:`MAX_IMAGINARY` combinations (Kuhn, Leduc)."""
    return math.comb(len(game.deck), game.num_hole_cards) ** 2 <= MAX_IMAGINARY


class AivatError(ValueError):
    """The estimate cannot be made: a known player never plays the logged action, a card is
    missing, the game is not heads-up, or imaginary observations would be too many."""


@dataclass(frozen=True, slots=True)
class AivatHand:
    """AIVAT's estimate of one hand, for position 0, in chips: ``value = base + chance + action``."""

    value: float
    outcome: float
    """What position 0 actually won, ``u(z)``."""
    base: float
    """``u`` averaged over the imaginary holdings (``outcome`` without imaginary observations)."""
    chance: float
    """The chance corrections (the deal and the board cards)."""
    action: float
    """The known players' action corrections."""


@dataclass(frozen=True, slots=True)
class _Walk:
    outcome: float
    chance: float
    action: float
    weight: float


class Aivat:
    """AIVAT estimates of heads-up hands of ``game`` (module docstring).

    ``value`` is the value function (default :class:`StakeValue`); ``imaginary`` turns on
    imaginary observations of the known players' hole cards: every holding where there are at
    most :data:`MAX_IMAGINARY`, else ``sample`` of them drawn from ``seed`` (module docstring).
    """

    def __init__(
        self, game: Game, value: AivatValue | None = None, *, imaginary: bool = False, sample: int = 0, seed: int = 0
    ) -> None:
        if game.num_players != 2:
            raise AivatError(f"AIVAT here is for heads-up games; this game has {game.num_players} players")
        if sample < 0:
            raise AivatError(f"the sample of imaginary holdings must not be negative, got {sample}")
        self.game = game
        self.value_function: AivatValue = value or StakeValue(game)
        self.imaginary = imaginary
        self.sample = sample
        self.seed = seed

    def hand(
        self,
        final: HandState,
        hand_number: int,
        oracles: Mapping[int, Oracle],
        imagined: Collection[int] | None = None,
        *,
        walks: dict[tuple[object, ...], object] | None = None,
    ) -> AivatHand:
        """The estimate of the finished hand ``final`` (every card known): ``oracles`` give the
        action probabilities of the known players by position. With imaginary observations,
        ``imagined`` are the positions whose holdings are imagined (default: every known
        player's; a known player left out still gets its action corrections, at its actual
        cards only: for a player whose probabilities cost a search each). ``walks``, a dict
        the caller keeps across hands estimated by this evaluator with the same ``oracles``
        (each a function of the view alone), shares the walk of each assignment of hole cards
        among the hands with the same number, betting and board: hands that differ only in
        imagined holdings compute each holding's terms once (the estimates are the same).
        Raises :class:`AivatError`."""
        if not final.finished:
            raise AivatError(f"hand {hand_number} is not finished")
        actual = tuple(final.hole_cards)
        if any(cards is None for cards in actual):
            raise AivatError(f"hand {hand_number}: every player's hole cards are needed")
        known = {position: oracle for position, oracle in oracles.items() if oracle is not None}
        cache: dict[tuple[int, int, tuple[Card, ...]], ActionProbabilities] = {}
        skeleton = _Skeleton(final)
        total = _Walk(0.0, 0.0, 0.0, 0.0)
        actual_walk: _Walk | None = None
        chosen = known if imagined is None else [position for position in imagined if position in known]
        shared = (hand_number, final.betting_string(), final.visible_board())
        for holes, multiplicity in self._holdings(final, hand_number, actual, chosen):  # type: ignore[arg-type]
            strict = holes == actual
            walk = walks.get((*shared, holes)) if walks is not None else None
            if not isinstance(walk, _Walk) or (strict and walk.weight <= 0.0):
                walk = self._walk(skeleton, holes, hand_number, known, cache, strict=strict)
                if walks is not None:
                    walks[(*shared, holes)] = walk
            if holes == actual:
                actual_walk = walk
            w = walk.weight * multiplicity
            total = _Walk(
                total.outcome + w * walk.outcome,
                total.chance + w * walk.chance,
                total.action + w * walk.action,
                total.weight + w,
            )
        assert actual_walk is not None and total.weight > 0.0
        base, chance, action = (total.outcome / total.weight, total.chance / total.weight, total.action / total.weight)
        return AivatHand(base + chance + action, actual_walk.outcome, base, chance, action)

    # ------------------------------------------------------------------ holdings
    def _holdings(
        self,
        final: HandState,
        hand_number: int,
        actual: tuple[tuple[Card, ...], ...],
        chosen: Collection[int],
    ) -> list[tuple[tuple[tuple[Card, ...], ...], int]]:
        """The hole cards to average over, each with its multiplicity: the actual ones first,
        then (with imaginary observations) every other assignment of the ``chosen`` known
        players' holdings that clashes with no card, or a sample of them (module docstring)."""
        imagined = sorted(chosen) if self.imaginary else []
        if not imagined:
            return [(actual, 1)]
        fixed = {card for p, cards in enumerate(actual) if p not in imagined for card in cards}
        fixed.update(final.visible_board())
        free = [card for card in self.game.deck if card not in fixed]
        choices = list(itertools.combinations(free, self.game.num_hole_cards))
        count = len(choices) ** len(imagined)
        if count > MAX_IMAGINARY and not self.sample:
            raise AivatError(
                f"imaginary observations would average over {count} holdings (at most {MAX_IMAGINARY}): "
                "use them in small games (Kuhn, Leduc), or average over a sample of holdings (--sample N)"
            )

        def assignment(picks: Sequence[tuple[Card, ...]]) -> tuple[tuple[Card, ...], ...] | None:
            cards = [card for pick in picks for card in pick]
            if len(set(cards)) != len(cards):
                return None
            holes = list(actual)
            for p, pick in zip(imagined, picks):
                holes[p] = actual[p] if set(pick) == set(actual[p]) else pick
            return tuple(holes)

        counts: dict[tuple[tuple[Card, ...], ...], int] = {actual: 1}
        if count <= MAX_IMAGINARY:
            for picks in itertools.product(choices, repeat=len(imagined)):
                candidate = assignment(picks)
                if candidate is not None and candidate != actual:
                    counts[candidate] = 1
            return list(counts.items())
        observed = (self.seed, hand_number, sorted(fixed), final.betting_string(), tuple(imagined))
        rng = random.Random(hashlib.sha256(repr(observed).encode()).digest())
        per_player: list[dict[tuple[Card, ...], int]] = []
        for position in imagined:
            drawn: dict[tuple[Card, ...], int] = {actual[position]: 1}
            for _ in range(self.sample):
                pick = rng.choice(choices)
                key = actual[position] if set(pick) == set(actual[position]) else pick
                drawn[key] = drawn.get(key, 0) + 1
            per_player.append(drawn)
        grid: list[tuple[tuple[tuple[Card, ...], ...], int]] = []
        for combination in itertools.product(*(drawn.items() for drawn in per_player)):
            candidate = assignment([pick for pick, _count in combination])
            if candidate is not None:
                grid.append((candidate, math.prod(count for _pick, count in combination)))
        return grid

    # ------------------------------------------------------------------ one walk
    def _walk(
        self,
        skeleton: _Skeleton,
        holes: tuple[tuple[Card, ...], ...],
        hand_number: int,
        known: Mapping[int, Oracle],
        cache: dict[tuple[int, int, tuple[Card, ...]], ActionProbabilities],
        *,
        strict: bool,
    ) -> _Walk:
        """``F`` and the known players' reach probability for one assignment of hole cards
        (the reach first: a holding the known players never play this way costs no value)."""
        if not strict and self._reach(skeleton, holes, hand_number, known, cache) <= 0.0:
            return _Walk(0.0, 0.0, 0.0, 0.0)
        value = self._value
        chance = self._chance_mean(skeleton.start, (), holes, ()) - value(skeleton.start, holes, ())
        dealt: tuple[Card, ...] = ()
        action_total, weight = 0.0, 1.0
        for index, (position, played, before, board) in enumerate(skeleton.steps):
            if len(board) > len(dealt):
                chance += self._chance_mean(before, dealt, holes, board) - value(before, holes, board)
                dealt = board
            oracle = known.get(position)
            if oracle is None:
                continue
            probabilities = self._probabilities(oracle, position, index, before, holes, dealt, hand_number, cache)
            chosen = probabilities.get(played, 0.0)
            if chosen <= 0.0:
                if strict:
                    raise AivatError(
                        f"hand {hand_number}: the known player at position {position} never plays "
                        f"{played} after {before.betting_string()!r} with "
                        f"{cards_to_string(holes[position])} (its probabilities: "
                        f"{_describe(probabilities)}): the log was not played by this strategy"
                    )
                return _Walk(0.0, 0.0, 0.0, 0.0)
            weight *= chosen
            expected = sum(p * value(skeleton.after(index, a), holes, dealt) for a, p in probabilities.items())
            action_total += expected - value(skeleton.after(index, played), holes, dealt)
        end, board = skeleton.end, skeleton.end_board
        if len(board) > len(dealt):
            chance += self._chance_mean(end, dealt, holes, board) - value(end, holes, board)
        end.hole_cards, end.board_cards = list(holes), board
        return _Walk(end.values()[0], chance, action_total, weight)

    def _reach(
        self,
        skeleton: _Skeleton,
        holes: tuple[tuple[Card, ...], ...],
        hand_number: int,
        known: Mapping[int, Oracle],
        cache: dict[tuple[int, int, tuple[Card, ...]], ActionProbabilities],
    ) -> float:
        """The known players' probability of the hand's actions with these hole cards."""
        reach = 1.0
        for index, (position, played, before, board) in enumerate(skeleton.steps):
            oracle = known.get(position)
            if oracle is not None:
                probabilities = self._probabilities(oracle, position, index, before, holes, board, hand_number, cache)
                reach *= probabilities.get(played, 0.0)
                if reach <= 0.0:
                    return 0.0
        return reach

    @staticmethod
    def _probabilities(
        oracle: Oracle,
        position: int,
        index: int,
        before: HandState,
        holes: tuple[tuple[Card, ...], ...],
        board: tuple[Card, ...],
        hand_number: int,
        cache: dict[tuple[int, int, tuple[Card, ...]], ActionProbabilities],
    ) -> ActionProbabilities:
        """The probabilities of the known player at ``position`` at step ``index`` with these
        cards (cached)."""
        key = (position, index, holes[position])
        probabilities = cache.get(key)
        if probabilities is None:
            before.hole_cards, before.board_cards = list(holes), board
            view = MatchState(position, hand_number, before.view(position))
            probabilities = cache[key] = oracle(view)
        return probabilities

    def _value(self, state: HandState, holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...]) -> float:
        """The value function at the betting of ``state`` with these cards dealt."""
        state.hole_cards, state.board_cards = list(holes), board
        return self.value_function.value(state)

    def _chance_mean(
        self,
        state: HandState,
        board_before: tuple[Card, ...],
        holes: Sequence[tuple[Card, ...]],
        board_after: tuple[Card, ...],
    ) -> float:
        """The average value at ``state``'s betting over every way chance could have dealt the
        cards of this event (the hole cards when ``board_after`` is empty and no card was
        dealt, else the board cards ``board_after`` adds), uniform over the cards left."""
        if not board_after:  # the deal
            before_holes: Sequence[tuple[Card, ...] | None] = (None,) * len(holes)
        else:
            before_holes = holes
        if self.value_function.chance_consistent:
            return self._value(state, before_holes, board_before)
        game = self.game
        used = {card for cards in before_holes if cards for card in cards} | set(board_before)
        free = [card for card in game.deck if card not in used]
        total, count = 0.0, 0
        for deal_holes, deal_board in _deals(before_holes, board_before, len(board_after), free, game):
            total += self._value(state, deal_holes, deal_board)
            count += 1
            if count > MAX_ENUMERATION:
                raise AivatError(f"a chance correction would enumerate more than {MAX_ENUMERATION} deals")
        return total / count


class _Skeleton:
    """A hand's betting without its cards: the state before each action (with the board dealt
    by then) and the states after each action tried, shared by every assignment of hole cards."""

    def __init__(self, final: HandState) -> None:
        game = final.game
        board = final.visible_board()
        state = HandState(game, None, ())
        self.start = state.copy()
        self.steps: list[tuple[int, Action, HandState, tuple[Card, ...]]] = []
        for _round, position, played in final.history():
            self.steps.append((position, played, state.copy(), self._board(state, board)))
            state.apply(played)
        self.end = state
        self.end_board = self._board(state, board)
        self._after: dict[tuple[int, Action], HandState] = {}

    @staticmethod
    def _board(state: HandState, board: tuple[Card, ...]) -> tuple[Card, ...]:
        """The board cards dealt by the round ``state`` has reached (``board``: the hand's)."""
        game = state.game
        return board[: game.board_start[state.round] + game.num_board_cards[state.round]]

    def after(self, index: int, action: Action) -> HandState:
        """The state after ``action`` at step ``index`` (the next round's cards not dealt)."""
        key = (index, action)
        state = self._after.get(key)
        if state is None:
            state = self.steps[index][2].copy()
            state.apply(action)
            self._after[key] = state
        return state


def _deals(
    holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...], board_size: int, free: list[Card], game: Game
) -> Iterator[tuple[list[tuple[Card, ...] | None], tuple[Card, ...]]]:
    """Every (hole cards, board) chance could deal: both holdings when ``holes`` are unknown,
    else the board cards from ``board`` up to ``board_size`` cards."""
    if holes[0] is None:
        per_player = game.num_hole_cards
        for first in itertools.combinations(free, per_player):
            rest = [card for card in free if card not in first]
            for second in itertools.combinations(rest, per_player):
                yield [first, second], board
        return
    for extra in itertools.combinations(free, board_size - len(board)):
        yield list(holes), (*board, *extra)


def _describe(probabilities: ActionProbabilities) -> str:
    return ", ".join(f"{action} {p:.3g}" for action, p in probabilities.items()) or "none"


__all__ = ["MAX_IMAGINARY", "Aivat", "AivatError", "AivatHand", "Oracle", "imaginary_by_default"]
