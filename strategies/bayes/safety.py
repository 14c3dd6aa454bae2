"""Safe exploitation: risk only what the opponent has given away (Ganzfried and Sandholm).

The rule is Ganzfried and Sandholm's "risk what you've won in expectation" (RWYWE, "Safe
opponent exploitation", EC 2012 / TEAC 2015) on the public tree of a small two-player
zero-sum game, with the gifts of a hand measured from what the hand revealed. Amounts are
chips; values are per hand for the position played.

**Ledger.** ``r_p`` is the value our equilibrium ``pi*`` guarantees in position ``p`` (its
worst case: the game value up to the equilibrium's own exploitability). The *budget* ``k``
is what may be risked in the next hand; it starts at the *allowance* ``a`` (chips per hand,
default 0). Before a hand in position ``p`` the learner draws a response ``beta`` with
probability ``lam`` and ``pi*`` otherwise, where ``lam (r_p - w(beta)) <= k`` and ``w(beta)``
is ``beta``'s value against a best response (:meth:`SafetyLedger.share` gives the largest
such ``lam``). After the hand

    k  <-  k  -  lam (r_p - w(beta))  +  g  +  a

where ``g >= 0`` is a lower bound, computable from the hand record, of the opponent's
*mistakes* against the profile actually played (below). So ``k >= a >= 0`` always.

**Gifts.** At an information set ``I`` of the opponent (its cards ``c`` and the public
history) let ``Q(I, b)`` be what it expects from action ``b`` followed by a best response
to our profile ``sigma``, given its information (our cards weighted by ``sigma``'s reach and
by chance), and ``Q(I) = max_b Q(I, b)``. Its *regret* for playing ``b`` is ``Q(I) - Q(I, b)
>= 0``. The expected value of any opponent behaviour ``tau`` telescopes along the hand:

    u(sigma, tau)  =  w(sigma)  +  E[ sum over the opponent's decisions d of Q(I_d) - Q(I_d, b_d) ]

(the opponent's best-response value minus its expected regrets; every other step of the
telescoping sum has conditional mean zero given the opponent's information; a test checks
the identity exactly). After a showdown the opponent's cards are known and the sum is
exact; after a fold they are not, and ``g`` is its minimum over the opponent hands
consistent with the view, so ``g`` never exceeds the true sum. Chips actually won are
never used: luck is not a gift (Ganzfried and Sandholm show that risking realised
winnings, RWYW, is not safe).

**Guarantee.** For every opponent, adaptive or not, and every number of hands ``T``:

    E[ total winnings ]  >=  sum over hands t of r_{p_t}  -  a T,

i.e. with ``a = 0`` the learner never does worse in expectation than its equilibrium
guarantees. Proof: conditioned on the history before hand ``t`` (which fixes ``k_t``,
``beta_t``, ``lam_t`` and the opponent's behaviour ``tau_t`` for the hand, which cannot see
our draw), the identity gives ``E[u_t] = (1 - lam) (r + E[G(pi*)]) + lam (w(beta) + E[G(beta)])
>= r - lam (r - w(beta)) + E[g_t] = r + E[k_{t+1} - k_t] - a`` (``G``: the true regrets,
``g_t <= G`` of the profile drawn). Summing over ``t`` telescopes ``k`` from ``k_1 = a`` to
``k_{T+1} >= a``.

**Why an allowance.** A strictly safe rule (``a = 0``) may leave ``pi*`` only after gifts,
and some weak opponents never give any: in Kuhn every P2 strategy of the family of
Southey, Hoehn and Holte (2009), (eta, xi), O1-O6 included, is a best response to every P1 equilibrium, so against them
every P1 equilibrium earns exactly the game value, no gift is ever booked, and *no*
strictly safe rule can earn more (a rule that leaves the equilibrium after some history
reachable by such an opponent can be punished there by one that switches to a best
response). An allowance pays for leaning towards a response; the opponent's choices then
stop being indifferent against the profile played and its mistakes become gifts.

**Drawing, not mixing.** The response is drawn for the whole hand, and the gifts are
measured against the profile drawn: against a best response the opponent's mistakes show
at showdowns, whereas against a behavioural mixture of ``beta`` and ``pi*`` (equally safe)
they hide more often behind folds. Against the equilibrium itself the opponent makes no
mistakes, ``k`` stays at the allowance and, with ``a = 0``, ``pi*`` is played.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.records import HandRecord
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.solvers.payoffs import deal_probability, hand_bitmasks
from pokerbot.strategies.solvers.tree import CHANCE


class LedgerError(ValueError):
    """A hand record that does not fit the public tree (unknown betting or hands)."""


@dataclass(frozen=True)
class Regrets:
    """The opponent's regrets against one profile of ours, and that profile's worst case."""

    regret: np.ndarray
    """``[node, hand]``: for an edge of the opponent, ``Q(I) - Q(I, a)`` (chips, >= 0) at the
    information set (parent node, hand); 0 elsewhere."""
    worst_case: float
    """Our value against a best response to the profile (chips per hand)."""


@dataclass(frozen=True)
class Settlement:
    """One hand's entry in the ledger (chips)."""

    gift: float
    """Lower bound of the opponent's regrets in the hand."""
    risked: float
    """``r_p - w(sigma)``: what the profile played could lose against the equilibrium's guarantee."""
    budget: float
    """The budget after the hand."""


class SafetyLedger:
    """The budget of safe exploitation on ``solver``'s tree (see the module docstring).

    ``equilibrium_sigma`` is ``pi*`` for both positions; its worst cases are the reference
    values ``r_p`` (computed exactly here). ``allowance`` is credited to the budget before
    every hand (chips per hand, default 0: strictly safe).
    """

    def __init__(self, solver: ResponseSolver, equilibrium_sigma: np.ndarray, allowance: float = 0.0) -> None:
        if allowance < 0:
            raise ValueError(f"the allowance must be non-negative, got {allowance}")
        tree = solver.tree
        if tree.num_players != 2:
            raise ValueError("safe exploitation needs a two-player game")
        self.solver = solver
        self.tree = tree
        self.equilibrium = equilibrium_sigma
        self.reference = tuple(solver.worst_case(p, equilibrium_sigma) for p in (0, 1))
        """``r_p``: the equilibrium's worst case in each position (chips per hand)."""
        self.allowance = allowance
        self.budget = allowance
        """``k``: what may be risked in the next hand, in chips."""
        self.settled = 0
        self.unreadable = 0
        """Hands booked without a gift because their record did not fit the tree."""
        bits = hand_bitmasks(tree.hands)
        self._disjoint = ((bits[:, None] & bits[None, :]) == 0).astype(np.float64)
        board_size = np.zeros(tree.num_nodes, dtype=np.int64)
        for node in range(1, tree.num_nodes):
            parent = int(tree.parent[node])
            board_size[node] = board_size[parent] + (len(tree.label[node]) // 2 if tree.kind[parent] == CHANCE else 0)
        sizes = {int(s): deal_probability(tree.game, int(s)) for s in np.unique(board_size)}
        self._deal = np.array([sizes[int(s)] for s in board_size])
        self._node_of = {tree.suffix[int(n)]: int(n) for n in tree.decision_nodes}
        self._cache: dict[tuple[int, int], tuple[np.ndarray, Regrets]] = {}

    # ------------------------------------------------------------------ values
    def regrets(self, position: int, sigma: np.ndarray) -> Regrets:
        """The opponent's regrets against ``sigma`` played in ``position`` (cached per array)."""
        key = (position, id(sigma))
        hit = self._cache.get(key)
        if hit is not None and hit[0] is sigma:
            return hit[1]
        tree, engine = self.tree, self.solver.engine
        opponent = 1 - position
        own = engine.reach(sigma)[position]
        reach = np.ones((2, tree.num_nodes, tree.num_hands))
        reach[position] = own
        values = engine.values(opponent, reach, np.ones_like(own), best_response=True)
        # P(opponent hand, our hand, board so far) * our reach, summed over our hands: the
        # weight of reaching the information set from the opponent's point of view.
        valid = tree.valid.astype(np.float64)
        counterfactual = ((own * valid) @ self._disjoint) * valid * self._deal[:, None]
        regret = np.zeros_like(values)
        for node in engine.players[opponent].nodes:
            children = tree.children(int(node))
            block = values[children.start : children.stop]
            weight = counterfactual[node]
            with np.errstate(invalid="ignore", divide="ignore"):
                normalised = np.where(weight > 0, (block.max(axis=0) - block) / weight, 0.0)
            regret[children.start : children.stop] = np.maximum(normalised, 0.0)
        result = Regrets(regret, -float(values[0].sum()))
        if len(self._cache) > 8:
            self._cache.clear()
        self._cache[key] = (sigma, result)
        return result

    def worst_case(self, position: int, sigma: np.ndarray) -> float:
        """``w(sigma)``: the value of ``sigma`` in ``position`` against a best response."""
        return self.regrets(position, sigma).worst_case

    def gift(self, record: HandRecord, sigma: np.ndarray) -> float:
        """``g``: the opponent's regrets in the hand of ``record`` against ``sigma``, minimised
        over the opponent hands consistent with the record (exact after a showdown)."""
        tree = self.tree
        regret = self.regrets(record.position, sigma).regret
        steps = []
        for decision in record.decisions:
            node = self._node_of.get(decision.suffix)
            if node is None:
                raise LedgerError(f"betting {decision.suffix!r} is not in the game's tree")
            child = next((c for c in tree.children(node) if tree.label[c] == decision.action), None)
            if child is None:
                raise LedgerError(f"action {decision.action!r} is not legal at {decision.suffix!r}")
            steps.append(child)
        try:
            hands = [tree.hand_index[text] for text in record.candidates]
        except KeyError as error:
            raise LedgerError(f"unknown opponent hand {error.args[0]!r} in the record") from None
        if not hands:
            raise LedgerError("the record has no candidate opponent hand")
        if not steps:
            return 0.0
        totals = regret[np.array(steps)][:, np.array(hands)].sum(axis=0)
        return float(totals.min())

    # ------------------------------------------------------------------ budget
    def share(self, position: int, worst_case: float) -> float:
        """The largest probability ``lam`` in [0, 1] with which the budget allows a response
        whose worst case is ``worst_case`` to be played instead of ``pi*``."""
        risk = self.reference[position] - worst_case
        if risk <= 0.0:
            return 1.0
        return float(min(1.0, max(0.0, self.budget) / risk))

    def settle(self, record: HandRecord, sigma: np.ndarray, risked: float | None = None) -> Settlement:
        """Book the hand of ``record``, played with ``sigma`` in ``record.position`` (a record
        that does not fit the tree books no gift and is counted in :attr:`unreadable`).

        ``risked`` is what the choice of ``sigma`` put at stake: by default ``r_p - w(sigma)``;
        for a profile drawn with probability ``lam`` instead of ``pi*``, ``lam * (r_p - w)``
        of the response (:meth:`share`), whichever was drawn."""
        if risked is None:
            risked = self.reference[record.position] - self.worst_case(record.position, sigma)
        try:
            gift = self.gift(record, sigma)
        except LedgerError:
            gift = 0.0  # nothing is credited for a hand the tree cannot read: still safe
            self.unreadable += 1
        self.budget += gift - risked + self.allowance
        self.settled += 1
        return Settlement(gift, risked, self.budget)


__all__ = ["LedgerError", "Regrets", "SafetyLedger", "Settlement"]
