"""Opponent-model speed and size: predictions per second (cached, uncached), update time per
hand, model size.

Run: python benchmarks/bench_models.py [--game holdem-nolimit-2p] [--hands 500] [--repeats 3]

Setup: the hero (tight-aggressive) plays ``--hands`` in-process hands against each of four
opponents (tight-aggressive, maniac, calling-station, random; seed 1). The action and
hand-strength models (shipped prior, default configuration) learn the tight-aggressive
opponent's hands, timed per hand (``learn_hand`` of both models). Then every opponent
decision context of all four matches is predicted:

* **uncached**: the cache is emptied before each prediction (the full blend is computed);
* **cached**: the same contexts again with the cache warm (what a search sees when it asks
  about the same situation many times).

Size: the pickled size of the adapted action model, and the memory its construction and
learning allocated (tracemalloc, peak). Targets: >= 100,000 cached and >= 20,000 uncached
predictions/s, an update after a hand under 5 ms. Figures are medians of ``--repeats``.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
import tracemalloc

from rich.console import Console
from rich.table import Table

from pokerbot.bot.experiments.model_learning import play_views
from pokerbot.models.features import action_rows
from pokerbot.models.prior import models_for_game
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState

OPPONENTS = ("tight-aggressive", "maniac", "calling-station", "random")


def update_ms(game_name: str, views: list[MatchState]) -> float:
    """Mean milliseconds per hand to learn it in both models (action and hand strength)."""
    action_model, strength_model = models_for_game(load_game(game_name))
    start = time.perf_counter()
    for view in views:
        action_model.learn_hand(view)
        strength_model.learn_hand(view)
    return 1000.0 * (time.perf_counter() - start) / len(views)


def model_size(game_name: str, views: list[MatchState]) -> tuple[float, int]:
    """(KB allocated at peak while building and adapting both models, pickled bytes of the
    adapted action model); timed separately, as tracemalloc slows Python down."""
    tracemalloc.start()
    action_model, strength_model = models_for_game(load_game(game_name))
    for view in views:
        action_model.learn_hand(view)
        strength_model.learn_hand(view)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024, len(pickle.dumps(action_model))


def prediction_rates(game_name: str, learn_views: list[MatchState], contexts: list[dict]) -> tuple[float, float]:
    """(uncached, cached) predictions per second of an action model adapted to ``learn_views``."""
    model, _ = models_for_game(load_game(game_name))
    for view in learn_views:
        model.learn_hand(view)
    predict, clear = model.predict_proba_one, model.clear_cache
    start = time.perf_counter()
    for x in contexts:
        clear()
        predict(x)
    uncached = len(contexts) / (time.perf_counter() - start)
    rounds = 5
    start = time.perf_counter()
    for _ in range(rounds):
        for x in contexts:
            predict(x)
    cached = rounds * len(contexts) / (time.perf_counter() - start)
    return uncached, cached


def main() -> None:
    """Parse the arguments, play the matches, print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--hands", type=int, default=500, help="hands per match (default 500)")
    parser.add_argument("--repeats", type=int, default=3, help="measurements per figure; the median is shown")
    args = parser.parse_args()
    game = load_game(args.game)
    matches = {name: play_views(game, "tight-aggressive", name, args.hands, 1) for name in OPPONENTS}
    learn_views = matches["tight-aggressive"]
    contexts = [row.x for views in matches.values() for view in views for row in action_rows(view.state, view.position)]
    updates = [update_ms(args.game, learn_views) for _ in range(args.repeats)]
    peak_kb, pickled = model_size(args.game, learn_views)
    rates = [prediction_rates(args.game, learn_views, contexts) for _ in range(args.repeats)]
    table = Table(
        title=f"opponent models, {args.game}: {len(contexts):,} contexts, "
        f"{len(learn_views)} hands learnt, median of {args.repeats}"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    table.add_row("predictions/s, uncached", f"{statistics.median(r[0] for r in rates):,.0f}", ">= 20,000")
    table.add_row("predictions/s, cached", f"{statistics.median(r[1] for r in rates):,.0f}", ">= 100,000")
    table.add_row("update after a hand (both models), ms", f"{statistics.median(updates):.2f}", "< 5")
    table.add_row("allocated while adapting (peak), KB", f"{peak_kb:,.0f}", "")
    table.add_row("adapted action model, pickled bytes", f"{pickled:,}", "")
    Console().print(table)


if __name__ == "__main__":
    main()
