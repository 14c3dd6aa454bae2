"""The betting abstraction: how betting trees are sized and built.

* :mod:`~pokerbot.strategies.betting.sizing` - :class:`~.sizing.BetSizing`, which raises a
  no-limit tree holds, and :func:`~.sizing.pot_raise_to`, the raise to a fraction of the pot.
"""
