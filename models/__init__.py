"""Opponent models: what an opponent will do, and what it holds at a showdown.

* :mod:`pokerbot.models.opponent`: what a player asks of an opponent model (the protocols
  :class:`~models.opponent.OpponentActionModel` and :class:`~models.opponent.OpponentShowdownModel`),
  the default models (:func:`~models.opponent.hoeffding_models`) and an action model as class
  frequencies of a state (:class:`~models.opponent.ActionModelFrequencies`);
* :mod:`pokerbot.models.action_classes`: the action classes (fold, check, call, half-pot, pot, all-in)
  and the mapping of real bets to them, shared with the search;
* :mod:`pokerbot.models.features`: contexts as feature dictionaries, finished hands and ACPC log
  lines as training rows;
* :mod:`pokerbot.models.hoeffding`: :class:`~models.hoeffding.ActionModel` and
  :class:`~models.hoeffding.HandStrengthModel` (river interface, ``learn_hand``), built on
  :mod:`pokerbot.models.blended` (a frozen prior blended with opponent-specific estimates);
* :mod:`pokerbot.models.prior`: training, saving and loading priors, the shipped default priors;
* :mod:`pokerbot.models.round_trees`: the MCRNR opponent model (a tree per betting round) and its
  training from ACPC logs;
* :mod:`pokerbot.models.bayes`: Bayesian opponent models of the small games (Kuhn, Leduc);
* :mod:`pokerbot.models.persist`: the model file format (trusted input: pickle).

This package imports only :mod:`protocol` among pokerbot's packages (and river,
eval7 and pydantic). See ``docs/models.md``.
"""
