"""The shipped pre-flop equity table against its generator's computation."""

import json

import numpy as np
import pytest

from pokerbot.bot.generators.preflop_equity import (
    COMMAND,
    DEFAULT_SAMPLES,
    DIGITS,
    SEED,
    class_equity,
    class_order,
    preflop_equities,
)
from pokerbot.protocol.analysis.equity import PREFLOP_DRAWS_PER_DEAL, sampled_preflop_equity
from pokerbot.protocol.analysis.preflop import CLASSES, DATA_FILE, preflop_class_equity
from pokerbot.protocol.analysis.splitmix import new_rng


def test_the_file_says_how_it_was_made():
    from importlib import resources

    document = json.loads(resources.files("pokerbot.protocol.analysis").joinpath("data", DATA_FILE).read_text())
    assert (document["samples_per_class"], document["seed"], document["command"]) == (DEFAULT_SAMPLES, SEED, COMMAND)


@pytest.mark.parametrize("label", ["22", "T9s", "AA"])  # the first class to draw, one between, the last
def test_the_shipped_equity_is_the_generators_exact_computation(label):
    assert round(class_equity(label), DIGITS) == preflop_class_equity()[label]


def test_a_class_computed_alone_draws_what_the_whole_run_gives_it():
    whole = preflop_equities(samples=300)
    assert list(whole) == [label for label, _first, _second in class_order()]
    assert sorted(whole) == sorted(CLASSES)
    for label in ("22", "32o", "T9s", "AKo", "AA"):
        assert class_equity(label, samples=300) == whole[label]


def test_a_generator_can_start_where_draws_before_it_would_end():
    state = new_rng(7)
    sampled_preflop_equity(0, 1, 100, state)
    assert new_rng(7, skip=100 * PREFLOP_DRAWS_PER_DEAL)[0] == state[0]
    assert new_rng(7, skip=0)[0] == new_rng(7)[0] == np.uint64(7)
