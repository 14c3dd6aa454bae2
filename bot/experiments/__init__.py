"""Experiments: the studies and their simulators, apart from the runtime packages.

Nothing in ``protocol``, ``models`` or ``strategies`` imports from here; the ``pokerbot
experiment ...`` commands (:mod:`pokerbot.bot.experiments.cli`) do. What is here:

* the commands: :mod:`~pokerbot.bot.experiments.cli` (the ``experiment`` group),
  :mod:`~pokerbot.bot.experiments.model_learning` (``experiment model-learning``, scored
  by :mod:`~pokerbot.bot.experiments.model_evaluation`) and
  :mod:`~pokerbot.bot.experiments.small_games` (``experiment kuhn`` and ``experiment leduc``);
* Southey, Hoehn and Holte's (2009) Kuhn study: :mod:`~pokerbot.bot.experiments.kuhn_study`, its simulator
  :mod:`~pokerbot.bot.experiments.kuhn_sim`, its models
  (:mod:`~pokerbot.bot.experiments.kuhn_models`, :mod:`~pokerbot.bot.experiments.kuhn_p1_model`)
  and Exp4 strategy learning (:mod:`~pokerbot.bot.experiments.exp4`);
* Tansey's (2013) Leduc study: :mod:`~pokerbot.bot.experiments.leduc_study`, with the tree
  simulator (:mod:`~pokerbot.bot.experiments.simulate`), trials
  (:mod:`~pokerbot.bot.experiments.trials`), learners
  (:mod:`~pokerbot.bot.experiments.learners`), policy bootstrapping
  (:mod:`~pokerbot.bot.experiments.bootstrap_model`) and test opponents
  (:mod:`~pokerbot.bot.experiments.small_game_opponents`).

The generators of the shipped data files are in :mod:`pokerbot.bot.generators`. See
``docs/experiments.md``. Nothing is imported here: import the submodules.
"""
