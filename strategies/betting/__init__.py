"""The betting abstraction: how betting trees are sized and built.

* :mod:`~pokerbot.strategies.betting.sizing` - :class:`~.sizing.BetSizing`, which raises a
  no-limit tree holds, and :func:`~.sizing.pot_raise_to`, the raise to a fraction of the pot;
* :mod:`~pokerbot.strategies.betting.tree` - :func:`~.tree.walk`, the one builder of betting
  trees, from any state of any ACPC game, and the node kinds every tree shares.

The small-game public trees (:mod:`~pokerbot.strategies.solvers.tree`), the abstract games'
betting trees (:mod:`~pokerbot.strategies.abstract.betting`) and the re-solver's subgames
(:mod:`~pokerbot.strategies.resolve.tree`) are views over :func:`~.tree.walk`'s output.
"""
