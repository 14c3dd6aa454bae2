"""The player's side of a match: connect to a dealer seat and play a strategy there.

:mod:`~pokerbot.bot.client.play` (the client: connect, handshake, answer every request before
the deadline), :mod:`~pokerbot.bot.client.runner` (where the strategy runs: inline, in a worker
thread or in a process of its own) and :mod:`~pokerbot.bot.client.worker` (a strategy's calls in
a worker thread, cut off at a timeout). Nothing is imported here: import the submodules.
"""
