"""``pokerbot experiment model-learning``: how fast the opponent models learn an opponent.

Plays ``--hands`` hands in-process between ``--hero`` (default ``tight-aggressive``) and
``--opponent``, records the hero's final view of every hand, then scores the models
prequentially (:func:`bot.experiments.model_evaluation.prequential`, thesis ch. 5.4): every opponent
decision and revealed showdown hand is predicted before the model learns the hand. Two
model pairs are scored: ``prior`` (the shipped or given prior alone, never learning) and
``adapting`` (the same prior blended with what it learns, :mod:`pokerbot.models.blended`).

Output: a table per block of ``--every`` hands (quadratic loss and accuracy of the action
prediction, quadratic loss of the hand-strength prediction, for both), optionally ``--json``
and a ``--plot`` PNG of the learning curves. The opponent ``switcher`` changes style at
half the match. Exit status 2 on bad input. Also runs as
``python -m pokerbot.bot.experiments.model_learning model-learning ...``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path

import typer
from rich.table import Table

from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, plural, prepare_output, print_table
from pokerbot.bot.experiments.model_evaluation import Report, Totals, prequential
from pokerbot.bot.matches.base import MatchError, strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models.config import ModelConfig
from pokerbot.models.errors import ModelError
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.models.prior import Prior, load_default_prior, load_prior
from pokerbot.protocol.actions import Action
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy, UnknownStrategyError
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.styled import Switcher, make_styled

experiment_app = typer.Typer(help="Experiments that measure pokerbot's components.", no_args_is_help=True)
HERO = "tight-aggressive"
HERO_POSITION_NAME = "hero"


@experiment_app.callback()
def experiments() -> None:
    """Experiments that measure pokerbot's components (a command group, even with one command)."""


class _Recorder(Strategy):
    """Plays like ``inner`` and keeps every final view it observes."""

    def __init__(self, inner: Strategy) -> None:
        super().__init__(inner.game)
        self.inner = inner
        self.views: list[MatchState] = []

    def decide(self, view: MatchState, deadline: float) -> Action:
        """The inner strategy's action."""
        return self.inner.decide(view, deadline)

    def observe(self, view: MatchState) -> None:
        """Keep ``view`` and let the inner strategy observe it."""
        self.views.append(view)
        self.inner.observe(view)


def _strategy(name: str, game: Game, seed: int, hands: int) -> Strategy:
    if name == Switcher.name:
        return make_styled(name, game, seed, switch_hand=hands // 2)
    return default_registry().create(name, game, seed)


def play_views(game: Game, hero: str, opponent: str, hands: int, seed: int) -> list[MatchState]:
    """The hero's final views of ``hands`` in-process hands against ``opponent`` (seats rotate)."""
    names = [HERO_POSITION_NAME, opponent if opponent != HERO_POSITION_NAME else f"{opponent}-2"]
    recorder = _Recorder(_strategy(hero, game, strategy_seed(seed, names[0]), hands))
    other = _strategy(opponent, game, strategy_seed(seed, names[1]), hands)
    run_inprocess_match(game, hands, seed, [recorder, other], names)
    return recorder.views


def run_model_learning(
    game: Game,
    opponent: str,
    hands: int,
    every: int,
    seed: int,
    hero: str = HERO,
    prior: Prior | None = None,
    config: ModelConfig | None = None,
    strength_config: ModelConfig | None = None,
) -> Report:
    """Play the match and score the prior-only and adapting models (module docstring);
    ``config`` and ``strength_config`` default to each model's default configuration."""
    if prior is None:
        prior = load_default_prior(game)
    action_prior = prior.action if prior is not None else None
    strength_prior = prior.strength if prior is not None else None
    frozen = ModelConfig(adapt=False)
    models = {
        "prior": (ActionModel(action_prior, frozen), HandStrengthModel(strength_prior, frozen)),
        "adapting": (ActionModel(action_prior, config), HandStrengthModel(strength_prior, strength_config)),
    }
    views = play_views(game, hero, opponent, hands, seed)
    return prequential(views, models, every)


def _fmt(value: float | int | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _table(report: Report, title: str) -> Table:
    table = Table(title=title, caption="P: the prior alone, A: adapting. Losses are quadratic (lower is better).")
    for column in (
        "hands",
        "decisions",
        "action loss P",
        "action loss A",
        "accuracy P",
        "accuracy A",
        "showdowns",
        "strength loss P",
        "strength loss A",
    ):
        table.add_column(column, justify="right")
    for block in report.blocks:
        table.add_row(*_row(f"{block.first + 1}-{block.last + 1}", block.scores))
    table.add_row(*_row("all", report.overall), end_section=True)
    return table


def _row(label: str, scores: Mapping[str, Totals]) -> list[str]:
    """One line of the table: the prior's and the adapting model's figures side by side."""
    prior, adapting = scores["prior"].summary(), scores["adapting"].summary()
    return [
        label,
        str(prior["decisions"]),
        _fmt(prior["action_loss"]),
        _fmt(adapting["action_loss"]),
        _fmt(prior["accuracy"]),
        _fmt(adapting["accuracy"]),
        str(prior["showdowns"]),
        _fmt(prior["strength_loss"]),
        _fmt(adapting["strength_loss"]),
    ]


def write_plot(report: Report, path: Path, title: str) -> None:
    """Learning curves: action loss, action accuracy and strength loss per block of hands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ends = [block.last + 1 for block in report.blocks]
    figure, axes = plt.subplots(1, 3, figsize=(14, 4))
    panels = (
        ("action_loss", "action quadratic loss"),
        ("accuracy", "action accuracy"),
        ("strength_loss", "hand-strength quadratic loss"),
    )
    for axis, (key, label) in zip(axes, panels):
        for name, style in (("prior", "--"), ("adapting", "-")):
            values = [block.scores[name].summary()[key] for block in report.blocks]
            points = [(x, y) for x, y in zip(ends, values) if y is not None]
            axis.plot([p[0] for p in points], [p[1] for p in points], style, marker="o", label=name)
        axis.set_xlabel(f"hands (blocks of {report.every})")
        axis.set_ylabel(label)
        axis.grid(True, alpha=0.3)
        axis.legend()
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


@experiment_app.command("model-learning")
def model_learning(
    opponent_argument: str | None = typer.Argument(
        None, metavar="OPPONENT", help="The opponent's strategy (a registry name or file.py:Class)."
    ),
    opponent_option: str | None = typer.Option(None, "--opponent", help="The same as OPPONENT (older spelling)."),
    hands: int = typer.Option(500, "--hands", "-n", help="Hands to play."),
    every: int = typer.Option(50, "--every", "-k", help="Report every K hands."),
    game: str = typer.Option("holdem-nolimit-2p", "--game", "-g", help="A built-in game name or a game file."),
    seed: int = typer.Option(1, "--seed", "-s", help="Dealing seed; the players' seeds derive from it."),
    hero: str = typer.Option(HERO, "--hero", help="The strategy the models watch the opponent play against."),
    prior_path: Path | None = typer.Option(None, "--prior", help="A prior file (default: the shipped prior)."),
    json_path: Path | None = typer.Option(None, "--json", help="Write the figures to this JSON file."),
    plot: Path | None = typer.Option(None, "--plot", help="Write the learning curves to this PNG file."),
) -> None:
    """Measure how fast the opponent models learn OPPONENT, against the prior alone."""
    if opponent_argument and opponent_option and opponent_argument != opponent_option:
        raise fail(f"two opponents given: {opponent_argument} and --opponent {opponent_option}")
    opponent = opponent_argument or opponent_option
    if not opponent:
        raise fail("name the opponent: pokerbot experiment model-learning OPPONENT (e.g. calling-station)")
    if hands < 1 or every < 1:
        raise fail(f"--hands and --every must be positive, got {hands} and {every}")
    try:
        prepare_output(json_path)
        prepare_output(plot)
    except OutputFolderError as error:
        raise fail(str(error)) from None
    try:
        game_definition = load_game(game)
        prior = load_prior(prior_path) if prior_path is not None else None
        if prior is not None and not prior.fits(game_definition):
            raise fail(
                f"{prior_path} was trained on {prior.num_players}-player {prior.betting} games, not {game}", "--prior"
            )
        if game_definition.num_players != 2:
            raise fail(
                f"the experiment needs a 2-player game, {game} has {game_definition.num_players} players", "--game"
            )
        registry = default_registry()
        for name in (hero, opponent):
            registry.lookup(name)
        started = time.perf_counter()
        report = run_model_learning(game_definition, opponent, hands, every, seed, hero, prior)
    except (GameDefinitionError, UnknownStrategyError, ModelError) as error:
        raise fail(str(error)) from None
    except MatchError as error:
        raise fail(str(error), status=FAILED) from None
    elapsed = time.perf_counter() - started
    title = f"model learning: {opponent} ({game}, {plural(hands, 'hand')}, hero {hero}, seed {seed}, {elapsed:.1f} s)"
    print_table(_table(report, title))
    try:
        if json_path is not None:
            data = {
                "opponent": opponent,
                "hero": hero,
                "game": game,
                "hands": hands,
                "seed": seed,
                "seconds": round(elapsed, 3),
                **report.to_dict(),
            }
            json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        if plot is not None:
            write_plot(report, plot, title)
    except OSError as error:
        raise fail(f"cannot write output: {error}") from None
    announce([json_path, plot])


__all__ = ["experiment_app", "model_learning", "play_views", "run_model_learning", "write_plot"]


if __name__ == "__main__":
    experiment_app()
