"""AIVAT over a series of hands: a match's log, in order, with some players known.

:func:`aivat_hands` estimates every hand of a log (:class:`~pokerbot.protocol.matchlog.LoggedHand`
objects, in the order played), asking each known player (:class:`KnownPlayer`, by name) for
its oracle of the hand and telling it when the hand is done. Values are chips by player name.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import LoggedHand
from pokerbot.strategies.aivat.aivat import Aivat, AivatHand, Oracle


class KnownPlayer(Protocol):
    """A player whose action probabilities AIVAT uses: recorded in a match
    (:class:`~pokerbot.strategies.aivat.recording.RecordingStrategy`) or replayed from a
    log (:class:`~pokerbot.strategies.aivat.recording.ReplayedStrategy`)."""

    def oracle(self, hand_number: int, position: int, final: HandState) -> Oracle | None:
        """The oracle of hand ``hand_number``, played at ``position`` (None: not known)."""
        ...

    def finish(self, hand_number: int, position: int, final: HandState) -> None:
        """Hand ``hand_number`` has been estimated."""
        ...


@dataclass(frozen=True, slots=True)
class AivatRecord:
    """One hand: what each player won and AIVAT's estimate of it (chips, by name)."""

    hand_number: int
    outcomes: dict[str, float]
    estimates: dict[str, float]
    parts: AivatHand
    """The estimate's terms, for position 0 of the hand."""
    known: tuple[str, ...]
    """The players whose probabilities were used."""


def aivat_hands(
    aivat: Aivat,
    hands: Iterable[LoggedHand],
    players: Mapping[str, KnownPlayer] | None = None,
    imagine: Collection[str] | None = None,
) -> Iterator[AivatRecord]:
    """AIVAT's estimate of each hand of ``hands`` with the known ``players`` (by name); with
    imaginary observations, over the holdings of the known players named in ``imagine``
    (default: all of them; :meth:`Aivat.hand`)."""
    players = players or {}
    for hand in hands:
        oracles: dict[int, Oracle] = {}
        for position, name in enumerate(hand.names):
            player = players.get(name)
            if player is not None:
                oracle = player.oracle(hand.hand_number, position, hand.state)
                if oracle is not None:
                    oracles[position] = oracle
        imagined = None if imagine is None else [p for p, name in enumerate(hand.names) if name in imagine]
        parts = aivat.hand(hand.state, hand.hand_number, oracles, imagined)
        for position, name in enumerate(hand.names):
            player = players.get(name)
            if player is not None:
                player.finish(hand.hand_number, position, hand.state)
        first, second = hand.names
        yield AivatRecord(
            hand.hand_number,
            {first: parts.outcome, second: -parts.outcome},
            {first: parts.value, second: -parts.value},
            parts,
            tuple(hand.names[p] for p in sorted(oracles)),
        )


__all__ = ["AivatRecord", "KnownPlayer", "aivat_hands"]
