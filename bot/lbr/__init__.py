"""How exploitable a strategy is: local best response (LBR) runs.

:mod:`~pokerbot.bot.lbr.matches` (the duplicate LBR matches, on the executor) and
:mod:`~pokerbot.bot.lbr.checkpoint` (each match's progress on disk, so a stopped run goes on).
The response itself is :class:`pokerbot.strategies.exploit.lbr.LocalBestResponse`. Nothing is
imported here: import the submodules.
"""
