"""Card abstraction: the hands a solver cannot tell apart, grouped into buckets.

A hold'em game has far too many information sets to solve directly. A card abstraction
replaces a player's private view of the cards (its hole cards and the board so far) by a
*bucket*, a small integer per betting round, and the solvers play the *abstract game* in
which a player knows only its bucket: hands in one bucket share one strategy. The finer the
buckets, the closer the abstract game is to the real one and the larger it is to solve.
Only the current round's bucket enters an information set (imperfect recall, as Ponsen, de
Jong and Lanctot 2011); earlier buckets are forgotten.

* :mod:`.abstraction`: the interface :class:`~.abstraction.CardAbstraction` (buckets per
  round, the bucket of a hand, a JSON ``spec`` that :func:`~.abstraction.abstraction_from_spec`
  rebuilds it from, the deal tables of the abstract game) and its implementations:
  :class:`~.abstraction.EhsAbstraction` (buckets of effective hand strength, hold'em),
  :class:`~.abstraction.DistributionAbstraction` (hold'em: the 169 pre-flop classes, then
  k-means over each holding's distribution of river equity) and
  :class:`~.abstraction.ExactAbstraction` (one bucket per card combination, small decks);
* :mod:`.distribution`: fitting the distribution-aware abstraction from a seed, its deal
  tables and files, the shipped one (``data/kmeans.npz``); its parts :mod:`.equity_distribution`
  (the equity distributions, numba), :mod:`.kmeans` (seeded k-means) and :mod:`.suits` (suit
  isomorphism);
* :mod:`.tables`: :class:`~.tables.DealTables`, the abstract game's chance model (boards,
  hands, each hand's bucket per round and showdown strength) as arrays the solvers sample
  from, and :class:`~.tables.EhsTables`, the effective hand strength of every hand on sampled
  hold'em boards that hold'em deal tables are made from.

This package imports only :mod:`pokerbot.protocol`. See ``docs/abstraction.md``. Nothing is
imported here: import the submodules.
"""
