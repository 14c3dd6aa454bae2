"""The dealer: serve an ACPC match over a transport, as the reference dealer does.

:mod:`~pokerbot.bot.dealer.server` (:func:`~pokerbot.bot.dealer.server.serve_match`),
:mod:`~pokerbot.bot.dealer.config` (what a served match needs and how it ended),
:mod:`~pokerbot.bot.dealer.output` (what it sends and writes, event by event) and
:mod:`~pokerbot.bot.dealer.match_files` (its log and transaction files, and resuming from them).
Nothing is imported here: import the submodules.
"""
