"""Matches between strategies, and the many matches of tournaments and long runs.

:mod:`~pokerbot.bot.matches.base` (outcome, errors, player checks, strategy seeds),
:mod:`~pokerbot.bot.matches.inprocess` (in memory, no sockets), :mod:`~pokerbot.bot.matches.loopback`
(through the dealer and one client per player on 127.0.0.1), :mod:`~pokerbot.bot.matches.plan`
(a checked plan, played in either mode), :mod:`~pokerbot.bot.matches.chunks` (a long match in
pieces, merged exactly), :mod:`~pokerbot.bot.matches.tournament` (every pairing of a list),
:mod:`~pokerbot.bot.matches.executor` (where many matches or trials run: this process or Ray)
and :mod:`~pokerbot.bot.matches.stats` (totals, mbb/hand, confidence intervals). Nothing is
imported here: import the submodules.
"""
