"""Competition kits: a folder that plays one strategy at an ACPC dealer seat.

:mod:`~pokerbot.bot.kit.build` (make a kit, read one back, list changed files) and
:mod:`~pokerbot.bot.kit.check` (check a kit as the reference's submission validator does).
Nothing is imported here: import the submodules.
"""
