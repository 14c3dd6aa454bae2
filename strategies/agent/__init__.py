"""The adaptive hold'em agent ``miximax`` (Kündig's thesis, ch. 3, 6 and 7).

* :mod:`strategies.agent.abstraction`: the search's bet sizes and the reverse mapping;
* :mod:`strategies.agent.search`: miximax / maximix search under a deadline;
* :mod:`strategies.agent.equity`: P(win) at showdown leaves (range equity or model);
* :mod:`strategies.agent.preflop`: the precomputed pre-flop chart (data file, validated);
* :mod:`strategies.agent.player`: :class:`~strategies.agent.player.MiximaxAgent`.

See ``docs/agent.md``. Nothing is imported here: import the submodules.
"""
