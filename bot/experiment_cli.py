"""``pokerbot experiment ...``: the experiment commands gathered in one group.

The model-learning experiment (:mod:`pokerbot.bot.model_experiment_cli`) and the Kuhn and
Leduc studies (:mod:`pokerbot.bot.small_experiments`) share the group; ``pokerbot`` imports
this module only when an experiment runs.
"""

from __future__ import annotations

from pokerbot.bot.model_experiment_cli import experiment_app
from pokerbot.bot.small_experiments import experiment_kuhn, experiment_leduc

experiment_app.command("kuhn")(experiment_kuhn)
experiment_app.command("leduc")(experiment_leduc)

__all__ = ["experiment_app"]
