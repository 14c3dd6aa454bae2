"""An abstract game: a betting tree, a card abstraction and the deal tables that go with it."""

from __future__ import annotations

from dataclasses import dataclass

from pokerbot.protocol.game import Game
from pokerbot.strategies.abstract.betting import BettingTree, build_betting_tree
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.card_abstraction.abstraction import CardAbstraction, EhsAbstraction, ExactAbstraction
from pokerbot.strategies.card_abstraction.tables import DealTables, EhsTables


@dataclass(frozen=True, eq=False)
class AbstractGame:
    """The game the solvers play: ``tree`` x ``abstraction``, dealt from ``tables``."""

    tree: BettingTree
    abstraction: CardAbstraction
    tables: DealTables

    @property
    def game(self) -> Game:
        """The real game abstracted."""
        return self.tree.game

    @classmethod
    def build(
        cls,
        abstraction: CardAbstraction,
        source: EhsTables | DealTables | None = None,
        sizing: BetSizing | None = None,
    ) -> AbstractGame:
        """The abstract game of ``abstraction`` (hold'em: dealt from the sampled ``source`` tables,
        EHS tables or deal tables made for the abstraction; ``sizing``: a no-limit tree's raises)."""
        tree = build_betting_tree(abstraction.game, abstraction.num_buckets, sizing)
        return cls(tree, abstraction, abstraction.deal_tables(source))

    @classmethod
    def exact(cls, game: Game) -> AbstractGame:
        """A small game with one bucket per card combination: the abstract game is the game."""
        return cls.build(ExactAbstraction(game))

    @classmethod
    def ehs(cls, game: Game, buckets: int, kind: str, source: EhsTables) -> AbstractGame:
        """Hold'em with ``buckets`` EHS buckets per round (``width`` or ``percentile``)."""
        return cls.build(EhsAbstraction.create(game, buckets, kind, source), source)


__all__ = ["AbstractGame"]
