"""``pokerbot experiment ...``: the experiment commands gathered in one group.

The model-learning experiment (:mod:`pokerbot.bot.experiments.model_learning`), the learning
curves (:mod:`pokerbot.bot.experiments.learning_curves`) and the Kuhn and Leduc studies
(:mod:`pokerbot.bot.experiments.small_games`) share the group; ``pokerbot`` imports
this module only when an experiment runs.
"""

from __future__ import annotations

from pokerbot.bot.experiments.learning_curves import learning_curves
from pokerbot.bot.experiments.model_learning import experiment_app
from pokerbot.bot.experiments.small_games import experiment_kuhn, experiment_leduc

experiment_app.command("learning-curves", context_settings={"allow_extra_args": True})(learning_curves)
experiment_app.command("kuhn")(experiment_kuhn)
experiment_app.command("leduc")(experiment_leduc)

__all__ = ["experiment_app"]
