"""A person at the table: in a terminal or in a browser.

:mod:`~pokerbot.bot.human.table` (what a person at the table sees, from the protocol engine's
state), :mod:`~pokerbot.bot.human.terminal` (a human seat in a terminal, ``pokerbot play
--human``) and :mod:`~pokerbot.bot.human.web` (``pokerbot web``: a seat against any strategy,
or a match to watch, in a browser; the page is in ``webui/``). Nothing is imported here: import
the submodules.
"""
