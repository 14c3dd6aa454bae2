"""The generators of the data files shipped in the package; each runs with ``python -m``.

* :mod:`~pokerbot.bot.generators.equilibria`: the small games' near-equilibria
  (``strategies/solvers/data/``);
* :mod:`~pokerbot.bot.generators.preflop_chart`: the hold'em pre-flop chart
  (``strategies/data/preflop_chart.json``);
* :mod:`~pokerbot.bot.generators.preflop_equity`: the pre-flop equity table, each hand
  class against a random hand (``protocol/analysis/data/preflop_equity.json``);
* :mod:`~pokerbot.bot.generators.priors`: the default opponent-model priors
  (``models/data/*.prior``).

Nothing is imported here: import the submodules.
"""
