"""eval7's card objects, indexed by :mod:`pokerbot.protocol.cards` integers: the one place they are built.

The package ranks hands with its own evaluator
(:func:`pokerbot.protocol.analysis.showdown.rank_hand`); eval7 serves where its C loops are the
fastest tool from Python (its range Monte Carlo, the sampled pot shares of
:mod:`~pokerbot.protocol.analysis.equity`, :mod:`~pokerbot.protocol.analysis.strength`) and as
the tests' reference ranking. Every such use takes its cards from :func:`eval7_cards`, which
imports eval7 at its first call.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pokerbot.protocol.cards import CARD_STRINGS


@cache
def eval7_cards() -> tuple[Any, ...]:
    """``eval7_cards()[card]`` is eval7's object for ``card`` (all 52 cards of the standard
    deck, in :data:`~pokerbot.protocol.cards.CARD_STRINGS` order); eval7 is imported at the
    first call."""
    import eval7

    return tuple(eval7.Card(text) for text in CARD_STRINGS)


__all__ = ["eval7_cards"]
