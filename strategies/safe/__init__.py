"""The safe exploiter of heads-up hold'em, registered as ``adaptive`` there (``docs/safe.md``).

* :mod:`pokerbot.strategies.safe.ledger`: the safety rule (risk only what was demonstrably
  won above the blueprint's value) and the all-in adjusted value of a hand;
* :mod:`pokerbot.strategies.safe.agent`: :class:`~pokerbot.strategies.safe.agent.SafeExploiter`,
  the blueprint or the ``miximax`` exploiter drawn per hand within the rule.

See ``docs/safe.md``. Nothing is imported here: import the submodules.
"""
