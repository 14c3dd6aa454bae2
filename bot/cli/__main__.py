"""``python -m pokerbot.bot.cli``: the ``pokerbot`` command."""

from pokerbot.bot.cli import main

main()
