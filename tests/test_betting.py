"""The betting abstraction (strategies/betting), the pot-fraction raise and the regret rules
(strategies/regret.py): known answers, the shipped trees rebuilt to their digests, and one
home for each (every definition of them in the package is found here)."""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from pokerbot.models.action_classes import pot_raise_to
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.betting import BLUEPRINT_SIZING, TREE_ARRAYS, build_betting_tree, tree_arrays
from pokerbot.strategies.abstract.policy import AbstractPolicy, _sizing_from_meta, _sizing_meta
from pokerbot.strategies.betting.sizing import BetSizing, BetSizingError
from pokerbot.strategies.betting.tree import (
    CHANCE,
    DECISION,
    LEAF,
    TERMINAL,
    BettingTreeError,
    TreeTooLargeError,
    walk,
)
from pokerbot.strategies.regret import RULES, UnknownRuleError, get_rule, regret_match, regret_match_groups
from pokerbot.strategies.solvers import CFR, SolverError, build_tree

ROOT = Path(__file__).resolve().parent.parent
NOLIMIT = load_game("holdem-nolimit-2p")
KUHN = load_game("kuhn")
LEDUC = load_game("leduc")


# ------------------------------------------------------------------ regret matching and rules
def _matched(regrets: list[list[float]], reverse: bool = False, dtype: type = np.float64) -> np.ndarray:
    table = np.array(regrets, dtype=dtype)
    out = np.zeros_like(table)
    total = np.empty(table.shape[1], dtype=dtype)
    regret_match_groups(table, out, np.array([0]), np.array([table.shape[0]]), total, reverse)
    return out


@njit(cache=False)
def _matched_vector(regrets: np.ndarray, reverse: bool) -> np.ndarray:
    out = np.zeros_like(regrets)
    regret_match(regrets, 0, regrets.shape[0], out, np.empty(1), reverse)
    return out


def test_regret_matching_is_positive_regret_over_its_sum_else_uniform():
    out = _matched([[1.0, -1.0, 0.0], [3.0, -2.0, 0.0], [-2.0, -3.0, 0.0]])  # [action, column]
    assert out[:, 0].tolist() == [0.25, 0.75, 0.0]
    assert out[:, 1].tolist() == [1 / 3] * 3 and out[:, 2].tolist() == [1 / 3] * 3
    assert _matched_vector(np.array([1.0, 3.0, -2.0]), False).tolist() == [0.25, 0.75, 0.0]  # one distribution
    assert _matched_vector(np.array([-1.0, 0.0]), False).tolist() == [0.5, 0.5]
    assert _matched_vector(np.array([0.1, 0.2, 0.3]), True)[2] == 0.5
    with pytest.raises(TypeError, match="numba"):
        regret_match(np.zeros(2), 0, 2, np.zeros(2), np.zeros(1), False)


def test_regret_matching_sums_in_the_order_asked():
    # (0.1 + 0.2) + 0.3 is 0.6000000000000001, 0.3 + 0.2 + 0.1 is 0.6 (NumPy's add.reduceat order)
    forward = _matched([[0.1], [0.2], [0.3]])
    backward = _matched([[0.1], [0.2], [0.3]], reverse=True)
    assert forward[2, 0] == 0.4999999999999999 and backward[2, 0] == 0.5
    positive = np.array([[0.1], [0.2], [0.3]])
    assert backward[2, 0] == (positive / np.add.reduceat(positive, [0], axis=0))[2, 0]
    half = _matched([[np.float32(0.1)], [np.float32(0.7)]], dtype=np.float32)  # float32 sums, as the gadget's
    assert half.dtype == np.float32 and half[0, 0] == np.float32(0.1) / (np.float32(0.1) + np.float32(0.7))


def test_update_rules_discount_and_weigh_as_documented():
    dcfr, linear, cfr = RULES["dcfr"], RULES["linear"], RULES["cfr"]
    assert dcfr.discounts(1) == (0.5, 0.5) and dcfr.discounts(4) == (8 / 9, 0.5)
    assert linear.discounts(3) == (0.75, 0.75) and cfr.discounts(3) == (1.0, 1.0)
    assert dcfr.weight(3) == 9.0 and RULES["cfr+"].weight(3) == 3.0 and cfr.weight(3) == 1.0
    # the decayed running sum of terms 1, 1, 1 is the t^2-weighted sum over the last weight
    running = 0.0
    for t in range(1, 4):
        running = running * (dcfr.average_decay(t - 1) if t > 1 else 0.0) + 1.0
    assert running == pytest.approx((1 + 4 + 9) / 9)
    assert np.array_equal(RULES["cfr+"].accumulate(np.array([1.0, -1.0]), np.array([-3.0, 0.5]), 2), [0.0, 0.0])
    assert get_rule(dcfr) is dcfr and get_rule("linear") is linear
    with pytest.raises(UnknownRuleError, match="unknown update rule 'bogus'"):
        get_rule("bogus")
    with pytest.raises(SolverError, match="unknown update rule"):
        CFR(build_tree(KUHN), rule="bogus")


# ------------------------------------------------------------------ the pot-fraction raise
def test_a_pot_fraction_raise_rounds_the_raise_by_and_is_clamped():
    state = HandState(NOLIMIT)  # the small blind (50) to act against 100: 200 in the pot after calling
    assert [pot_raise_to(state, f) for f in (0.5, 0.75, 1.0, 2.0)] == [200, 250, 300, 500]
    assert pot_raise_to(state, 0.01) == 200 and pot_raise_to(state, 1000.0) == 20_000  # min raise, all-in
    three = HandState(load_game("holdem-nolimit-3p"))  # 100 to call, 250 in the pot after calling
    assert pot_raise_to(three, 0.75) == 100 + 188  # 187.5 to the even chip
    assert pot_raise_to(three, 1.25) == 100 + 312  # 312.5 to the even chip
    assert pot_raise_to(three, 0.75, rounding=int) == 100 + 187


def test_bet_sizing_counts_raises_over_the_round_or_from_the_root():
    state = HandState(NOLIMIT)
    state.apply(Action.raise_to(300))  # the big blind faces 300: 600 in the pot after calling
    per_round = BetSizing.uniform((1.0,), all_in=True, max_raises=1)
    from_root = BetSizing(
        bets=((0.5,),), raises=((1.0,),), all_in=True, max_raises=1, count_from="root", all_in_pots=None
    )
    assert per_round.raise_actions(state) == []
    assert from_root.raise_actions(state, raises_made=0) == [Action.raise_to(900), Action.raise_to(20_000)]
    assert from_root.raise_actions(state, raises_made=1) == []
    opening = HandState(NOLIMIT)
    opening.apply(CALL)  # the big blind's option, nothing to call: a first bet, half the pot of 200
    assert from_root.raise_actions(opening)[0] == Action.raise_to(200)
    assert per_round.is_uniform and not from_root.is_uniform
    for bad in ({"bets": ((0.0,),), "raises": ((1.0,),)}, {"bets": ((1.0,),), "raises": ()}, {"max_raises": -1}):
        with pytest.raises(BetSizingError):
            BetSizing(**bad)  # type: ignore[arg-type]
    with pytest.raises(BetSizingError, match="count_from"):
        BetSizing(count_from="hand")  # type: ignore[arg-type]


def test_the_default_sizing_shoves_only_within_two_pots_of_the_stack():
    deep = HandState(NOLIMIT, board_cards=tuple(range(5)))
    deep.apply(CALL)
    deep.apply(CALL)  # the flop: 200 in the pot, 19,900 behind each (an all-in of 99.5 pots)
    sizing = BetSizing()
    assert sizing.raise_actions(deep) == [Action.raise_to(100 + b) for b in (100, 150, 250)]  # 66: the min-bet
    assert BetSizing(all_in_pots=None).raise_actions(deep)[-1] == Action.raise_to(20_000)
    deep.apply(Action.raise_to(100 + 150))  # a bet of 0.75 pots: 19,750 behind after calling, 500 in the pot
    assert sizing.raise_actions(deep) == [Action.raise_to(250 + 500)]  # a pot raise, no all-in
    shallow = HandState(NOLIMIT, board_cards=tuple(range(5)))
    shallow.apply(Action.raise_to(5_000))
    shallow.apply(CALL)  # 10,000 in the pot, 15,000 behind each: an all-in of 1.5 pots
    assert BetSizing.all_in_size(shallow) == 1.5
    assert sizing.raise_actions(shallow) == [Action.raise_to(5_000 + b) for b in (3_300, 7_500, 12_500)] + [
        Action.raise_to(20_000)
    ]
    called_off = HandState(NOLIMIT, board_cards=tuple(range(5)))
    called_off.apply(Action.raise_to(1_000))
    called_off.apply(CALL)
    called_off.apply(Action.raise_to(8_000))  # 7,000 into 2,000: 12,000 behind a call, 16,000 in the pot
    assert sizing.raise_actions(called_off) == [Action.raise_to(20_000)]  # the pot raise is the call-off all-in
    with pytest.raises(BetSizingError, match="all_in_pots"):
        BetSizing(all_in_pots=0.0)


def test_opens_in_big_blinds_size_a_rounds_first_raise_and_the_blueprint_re_raises_three_times():
    sizing = BLUEPRINT_SIZING
    state = HandState(NOLIMIT)  # the small blind opens: 2, 2.5, 3 big blinds and all-in
    assert sizing.raise_actions(state) == [Action.raise_to(x) for x in (200, 250, 300, 20_000)]
    limped = HandState(NOLIMIT)
    limped.apply(CALL)  # the big blind's first raise over a limp is sized in big blinds too
    assert sizing.raise_actions(limped) == [Action.raise_to(x) for x in (200, 250, 300, 20_000)]
    state.apply(Action.raise_to(250))  # a 3-bet of one pot is 3x: 750, then a 4-bet to 2,250
    assert sizing.raise_actions(state) == [Action.raise_to(750), Action.raise_to(20_000)]
    state.apply(Action.raise_to(750))
    assert sizing.raise_actions(state) == [Action.raise_to(2_250), Action.raise_to(20_000)]
    state.apply(Action.raise_to(2_250))
    assert sizing.raise_actions(state) == []  # three raises: fold or call
    state.apply(CALL)  # the flop: bets of a third, three quarters and five quarters of 4,500
    assert sizing.raise_actions(state) == [Action.raise_to(2_250 + x) for x in (1_485, 3_375, 5_625, 17_750)]
    clamped = BetSizing(bets=((1.0,),), raises=((1.0,),), all_in_pots=None, opens=((0.5, 300.0),))
    assert clamped.raise_actions(HandState(NOLIMIT)) == [Action.raise_to(200), Action.raise_to(20_000)]
    assert not BetSizing.uniform().opens and not clamped.is_uniform
    with pytest.raises(BetSizingError, match="big blinds"):
        BetSizing(opens=((0.0,),))


def test_a_policy_file_keeps_the_opens_and_reads_sizings_stored_without_them():
    stored = _sizing_meta(BLUEPRINT_SIZING)
    assert stored["opens"] == [[2.0, 2.5, 3.0]]
    assert _sizing_from_meta(json.loads(json.dumps(stored))) == BLUEPRINT_SIZING
    without = BetSizing(bets=((0.5,),), raises=((1.0,),), count_from="root")
    assert "opens" not in _sizing_meta(without) and _sizing_from_meta(_sizing_meta(without)) == without


# ------------------------------------------------------------------ the builder
def _histories(nodes) -> list[str]:  # type: ignore[no-untyped-def]
    return [state.betting_string() for state in nodes.states]


def test_kuhn_numbered_depth_first_and_breadth_first():
    depth = walk(HandState(KUHN), keep_states=True)
    breadth = walk(HandState(KUHN), order="breadth", keep_states=True)
    assert _histories(depth) == ["", "c", "cc", "cr", "crf", "crc", "r", "rf", "rc"]
    assert _histories(breadth) == ["", "c", "r", "cc", "cr", "rf", "rc", "crf", "crc"]
    d, t = DECISION, TERMINAL
    assert depth.kind.tolist() == [d, d, t, d, t, t, d, t, t]
    assert depth.folder.tolist() == [-1, -1, -1, -1, 0, -1, -1, 1, -1]
    assert depth.children_table().tolist()[0] == [1, 6] and breadth.children_table().tolist()[0] == [1, 2]
    assert depth.actions[0] == (CALL, LIMIT_RAISE) and depth.actions[3] == (FOLD, CALL)
    with pytest.raises(TreeTooLargeError):
        walk(HandState(KUHN), max_nodes=8)
    assert walk(HandState(KUHN), max_nodes=9).num_nodes == 9


def test_leduc_first_round_stops_at_leaves_and_deals_its_board_at_chance_nodes():
    first = walk(HandState(LEDUC), stop_at_round_end=True)
    assert int((first.kind == LEAF).sum()) == 5 and int((first.kind == TERMINAL).sum()) == 4  # calls, folds
    assert (first.folder[first.kind == TERMINAL] >= 0).all()
    whole = walk(HandState(LEDUC), deal_boards=True, order="breadth")
    chance = np.flatnonzero(whole.kind == CHANCE)
    assert len(chance) == 5 and whole.num_children[chance].tolist() == [6] * 5  # one card of six
    assert whole.num_nodes == build_tree(LEDUC).num_nodes


def test_a_forced_path_is_in_the_tree_and_an_illegal_one_is_refused():
    state = HandState(NOLIMIT, board_cards=tuple(range(5)))
    state.apply(CALL)
    state.apply(CALL)  # the flop, 200 in the pot
    odd = Action.raise_to(100 + 137)
    nodes = walk(state, BetSizing(), path=[odd, CALL], stop_at_round_end=True)
    root = nodes.actions[0]
    assert odd in root and root == tuple(sorted(root, key=lambda a: (int(a.kind), a.size)))
    assert odd not in walk(state, BetSizing(), stop_at_round_end=True).actions[0]
    with pytest.raises(BettingTreeError, match="not legal"):
        walk(state, BetSizing(), path=[Action.raise_to(150)], stop_at_round_end=True)


@pytest.mark.slow
def test_the_shipped_no_limit_tree_is_rebuilt_to_its_stored_arrays_and_digest():
    """Policies are bound to the digest of their tree (kind, player, round, children, spent,
    buckets): the builder must give the stored tree back, node kinds encoded as stored."""
    assert (DECISION, TERMINAL) == (0, 1)
    path = resources.files("pokerbot.strategies").joinpath("abstract", "data", "mccfr10-nl.npz")
    with resources.as_file(path) as file:
        with np.load(file) as data:
            stored = {name: data[f"tree_{name}"] for name in TREE_ARRAYS}
            meta = json.loads(str(data["meta"]))
        shipped = AbstractPolicy.load(file, NOLIMIT)
    assert set(np.unique(stored["kind"]).tolist()) == {DECISION, TERMINAL}
    rebuilt = build_betting_tree(NOLIMIT, shipped.tree.num_buckets, shipped.tree.sizing)
    assert rebuilt.digest == meta["tree"] == shipped.tree.digest
    again = tree_arrays(rebuilt)
    for name in TREE_ARRAYS:
        assert np.array_equal(again[name], stored[name]), name
        assert again[name].dtype == stored[name].dtype, name


# ------------------------------------------------------------------ one home for each
def _package_sources() -> list[tuple[str, ast.Module, str]]:
    found = []
    for package in ("protocol", "models", "strategies", "bot"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text()
            found.append((str(path.relative_to(ROOT)), ast.parse(text), text))
    return found


KINDS = {"DECISION", "TERMINAL", "CHANCE", "LEAF", "FOLD_NODE", "SHOWDOWN"}
HELPERS = ("_regret_match", "_match", "_normalise_into")
"""Names regret matching had in the solvers' modules before it had one home."""


def _functions(module: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in ast.walk(module) if isinstance(node, ast.FunctionDef)]


def test_regret_matching_the_rules_and_the_node_kinds_are_defined_once():
    matching, constants, kinds = [], [], []
    for name, module, _text in _package_sources():
        matching += [(name, f.name) for f in _functions(module) if f.name in ("regret_match", *HELPERS)]
        for node in module.body:
            targets = [t for a in [node] if isinstance(a, ast.Assign) for t in a.targets]
            names = [
                e.id for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t]) if isinstance(e, ast.Name)
            ]
            constants += [(name, n) for n in names if n.endswith(("ALPHA", "BETA", "GAMMA")) or n == "RULES"]
            kinds += [(name, n) for n in names if n in KINDS]
    assert {name for name, _ in matching} == {"strategies/regret.py"}  # its overload's compiled forms too
    assert [f for name, f in matching].count("regret_match") == 1
    assert {n for n, _ in constants} == {"strategies/regret.py"}
    assert {n for n, _ in kinds} == {"strategies/betting/tree.py"}


def test_the_pot_fraction_raise_is_computed_in_one_place():
    """A product of a fraction and the pot (``fraction * (state.pot + ...)``, ``f * pot_after_call``)."""
    places = []
    for name, module, text in _package_sources():
        for node in ast.walk(module):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
                left, right = (ast.get_source_segment(text, side) or "" for side in (node.left, node.right))
                sides = {left, right}
                if any("pot" in s for s in sides) and any(s in ("f", "fraction") or "fraction" in s for s in sides):
                    places.append(name)
    assert places == ["models/action_classes.py"]


def test_one_function_builds_betting_trees():
    """A builder walks hand states (copies, applies actions) and records node kinds as it goes."""
    builders = []
    for name, module, _text in _package_sources():
        for function in _functions(module):
            for loop in (n for n in ast.walk(function) if isinstance(n, ast.While)):
                calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
                methods = {c.func.attr for c in calls if isinstance(c.func, ast.Attribute)}
                records = any(isinstance(a, ast.Name) and a.id in KINDS for c in calls for a in c.args)
                if {"copy", "apply"} <= methods and records:
                    builders.append((name, function.name))
    assert builders == [("strategies/betting/tree.py", "walk")]
