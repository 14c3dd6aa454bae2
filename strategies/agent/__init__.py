"""The adaptive hold'em agent ``miximax`` (Kündig's thesis, ch. 3, 6 and 7).

* :mod:`pokerbot.strategies.agent.abstraction`: the search's bet sizes and the reverse mapping;
* :mod:`pokerbot.strategies.agent.search`: miximax / maximix search under a deadline;
* :mod:`pokerbot.strategies.agent.equity`: P(win) at showdown leaves (range equity or model);
* :mod:`pokerbot.strategies.agent.opponents`: what the agent needs from its opponent models;
* :mod:`pokerbot.strategies.agent.preflop`: the precomputed pre-flop chart (data file, validated);
* :mod:`pokerbot.strategies.agent.preflop_policy`: every pre-flop decision, with its constants;
* :mod:`pokerbot.strategies.agent.player`: :class:`~pokerbot.strategies.agent.player.MiximaxAgent`.

See ``docs/agent.md``. Nothing is imported here: import the submodules.
"""
