"""Card arithmetic: hand ranking, holdings, equity, hand strength and the pre-flop classes.

Pure computation below the models and strategies (numba where it is hot, eval7 where it
serves), one module per question:

* :mod:`~pokerbot.protocol.analysis.ranking`: the showdown value of a hand in any ACPC game
  (the dealer's ranker; pure Python, the compiled evaluator for the 52-card deck) and its
  name ("two pair, aces and sevens");
* :mod:`~pokerbot.protocol.analysis.holdings`: the 1,326 two-card holdings in one canonical
  order (:data:`HOLDINGS`, :data:`HOLDING_INDEX`), which every array over holdings follows;
* :mod:`~pokerbot.protocol.analysis.showdown`: the compiled evaluator, of one hand
  (:func:`rank_hand`) and of every holding on a board (:func:`rank_holdings`), and the deck
  a deal's remaining cards come from (:func:`unused_cards`);
* :mod:`~pokerbot.protocol.analysis.eval7_cards`: eval7's card objects, for the code that
  samples with eval7;
* :mod:`~pokerbot.protocol.analysis.equity`: the equity of a holding against a range or a
  random hand, exact and sampled, with card removal;
* :mod:`~pokerbot.protocol.analysis.headsup`: the equity of a holding against one known hand;
* :mod:`~pokerbot.protocol.analysis.matchups`: the holdings of any heads-up game with one or
  two hole cards, and every pair's expected showdown over the cards to come (the run-out
  matrix the re-solver values its leaves with);
* :mod:`~pokerbot.protocol.analysis.strength`: hand strength (percentile rank) and sampled
  equity of one holding in any game;
* :mod:`~pokerbot.protocol.analysis.preflop`: the 169 pre-flop classes and their equity
  against a random hand (a shipped table);
* :mod:`~pokerbot.protocol.analysis.ehs`: effective hand strength (hand strength and
  potential), the card abstraction's measure;
* :mod:`~pokerbot.protocol.analysis.splitmix`: the compiled random numbers the sampled
  kernels and the solvers draw.

The names listed in ``__all__`` can be imported from this package; each loads its module at
first use, so that importing one module (the dealer imports the ranking) loads neither numba
nor numpy. :mod:`pokerbot.protocol` itself does not import this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pokerbot.protocol.analysis.ehs import board_ehs as board_ehs
    from pokerbot.protocol.analysis.ehs import hand_ehs as hand_ehs
    from pokerbot.protocol.analysis.equity import Eval7Range as Eval7Range
    from pokerbot.protocol.analysis.equity import equity_vs_random as equity_vs_random
    from pokerbot.protocol.analysis.equity import equity_vs_random_all as equity_vs_random_all
    from pokerbot.protocol.analysis.equity import equity_vs_ranges as equity_vs_ranges
    from pokerbot.protocol.analysis.equity import multiway_share as multiway_share
    from pokerbot.protocol.analysis.equity import sampled_equity_vs_range as sampled_equity_vs_range
    from pokerbot.protocol.analysis.equity import sampled_preflop_equity as sampled_preflop_equity
    from pokerbot.protocol.analysis.equity import score_survival as score_survival
    from pokerbot.protocol.analysis.eval7_cards import eval7_cards as eval7_cards
    from pokerbot.protocol.analysis.headsup import EquityError as EquityError
    from pokerbot.protocol.analysis.headsup import equity_all_vs_holding as equity_all_vs_holding
    from pokerbot.protocol.analysis.headsup import heads_up_equity as heads_up_equity
    from pokerbot.protocol.analysis.holdings import HOLDING_INDEX as HOLDING_INDEX
    from pokerbot.protocol.analysis.holdings import HOLDING_MASKS as HOLDING_MASKS
    from pokerbot.protocol.analysis.holdings import HOLDINGS as HOLDINGS
    from pokerbot.protocol.analysis.holdings import NUM_HOLDINGS as NUM_HOLDINGS
    from pokerbot.protocol.analysis.holdings import conflict_mask as conflict_mask
    from pokerbot.protocol.analysis.holdings import holding_index as holding_index
    from pokerbot.protocol.analysis.matchups import HoldingSpace as HoldingSpace
    from pokerbot.protocol.analysis.matchups import holding_space as holding_space
    from pokerbot.protocol.analysis.preflop import CLASSES as CLASSES
    from pokerbot.protocol.analysis.preflop import class_combos as class_combos
    from pokerbot.protocol.analysis.preflop import class_of_holding as class_of_holding
    from pokerbot.protocol.analysis.preflop import hand_class as hand_class
    from pokerbot.protocol.analysis.preflop import preflop_class_equity as preflop_class_equity
    from pokerbot.protocol.analysis.preflop import preflop_equity as preflop_equity
    from pokerbot.protocol.analysis.ranking import CATEGORY_NAMES as CATEGORY_NAMES
    from pokerbot.protocol.analysis.ranking import CardGame as CardGame
    from pokerbot.protocol.analysis.ranking import HandRanker as HandRanker
    from pokerbot.protocol.analysis.ranking import category_of as category_of
    from pokerbot.protocol.analysis.ranking import hand_ranker as hand_ranker
    from pokerbot.protocol.analysis.ranking import rank_generic as rank_generic
    from pokerbot.protocol.analysis.ranking import rank_standard as rank_standard
    from pokerbot.protocol.analysis.showdown import rank_hand as rank_hand
    from pokerbot.protocol.analysis.showdown import rank_holdings as rank_holdings
    from pokerbot.protocol.analysis.showdown import unused_cards as unused_cards
    from pokerbot.protocol.analysis.strength import hand_strength as hand_strength
    from pokerbot.protocol.analysis.strength import sampled_equity_vs_random as sampled_equity_vs_random

_HOMES = {
    "ehs": ("board_ehs", "hand_ehs"),
    "equity": (
        "Eval7Range",
        "equity_vs_random",
        "equity_vs_random_all",
        "equity_vs_ranges",
        "multiway_share",
        "sampled_equity_vs_range",
        "sampled_preflop_equity",
        "score_survival",
    ),
    "eval7_cards": ("eval7_cards",),
    "headsup": ("EquityError", "equity_all_vs_holding", "heads_up_equity"),
    "holdings": ("HOLDINGS", "HOLDING_INDEX", "HOLDING_MASKS", "NUM_HOLDINGS", "conflict_mask", "holding_index"),
    "matchups": ("HoldingSpace", "holding_space"),
    "preflop": (
        "CLASSES",
        "class_combos",
        "class_of_holding",
        "hand_class",
        "preflop_class_equity",
        "preflop_equity",
    ),
    "ranking": (
        "CATEGORY_NAMES",
        "CardGame",
        "HandRanker",
        "category_of",
        "hand_ranker",
        "rank_generic",
        "rank_standard",
    ),
    "showdown": ("rank_hand", "rank_holdings", "unused_cards"),
    "strength": ("hand_strength", "sampled_equity_vs_random"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = sorted(_MODULE_OF)
