"""The hold'em agent ``miximax``: search against adapting opponent models (Kündig's thesis, ch. 3, 6 and 7).

* :mod:`pokerbot.strategies.miximax.search_actions`: the search's bet sizes and the reverse mapping;
* :mod:`pokerbot.strategies.miximax.search`: miximax / maximix search under a deadline;
* :mod:`pokerbot.strategies.miximax.equity`: P(win) at showdown leaves (range equity or model);
* :mod:`pokerbot.strategies.miximax.preflop`: the precomputed pre-flop chart (data file, validated);
* :mod:`pokerbot.strategies.miximax.preflop_policy`: every pre-flop decision, with its constants;
* :mod:`pokerbot.strategies.miximax.player`: :class:`~pokerbot.strategies.miximax.player.MiximaxAgent`.

The opponent models it asks follow the protocols of :mod:`pokerbot.models.opponent`. See
``docs/agent.md``. Nothing is imported here: import the submodules.
"""
