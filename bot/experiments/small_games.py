"""``pokerbot experiment kuhn`` and ``pokerbot experiment leduc``: the small-game studies.

``experiment kuhn`` reproduces Southey, Hoehn and Holte's (2009) explore-then-exploit study in Kuhn poker
(:mod:`pokerbot.bot.experiments.kuhn_study`) and adds the ``adaptive`` learner; ``experiment leduc``
reproduces Tansey's (2013) Leduc study (:mod:`pokerbot.bot.experiments.leduc_study`). Each writes a JSON
file of its figures (``--out``) and PNG plots next to it (``--plots``, default the JSON's
folder), prints a summary and the acceptance checks. Amounts are chips (per hand for rates
and curves); every figure is an exact expectation unless its name says ``chips``.

Bad options exit with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

import datetime
import json
import platform
import re
import sys
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import numpy as np
import typer

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.experiments.kuhn_study import KuhnStudyConfig, run_kuhn_study
from pokerbot.bot.experiments.leduc_study import (
    LEARNERS,
    OPPONENTS,
    POLICY_PREFIX,
    LeducStudyConfig,
    run_leduc_study,
)
from pokerbot.bot.matches.executor import ADDRESS_HELP, ExecutorError, make_executor
from pokerbot.strategies.bayes.exploiter import BayesExploiterConfig


def _names(text: str, allowed: tuple[str, ...], what: str, prefix: str | None = None) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    bad = [name for name in names if name not in allowed and not (prefix and name.startswith(prefix))]
    if not names or bad:
        raise fail(f"unknown {what} {', '.join(bad) or '(none)'}: choose from {', '.join(allowed)}")
    return names


def _adaptive_settings(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` overrides of the adaptive learner's settings (:class:`BayesExploiterConfig` fields)."""
    kinds: dict[str, type[Any]] = {field.name: type(field.default) for field in fields(BayesExploiterConfig)}
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, equals, text = pair.partition("=")
        kind = kinds.get(key.strip())
        if not equals or kind is None:
            raise fail(f"--adaptive {pair!r}: expected KEY=VALUE with KEY one of {', '.join(kinds)}")
        text = text.strip()
        try:
            if kind is bool:
                if text.lower() not in ("true", "false"):
                    raise ValueError(text)
                settings[key.strip()] = text.lower() == "true"
            else:
                settings[key.strip()] = kind(text)
        except ValueError:
            raise fail(f"--adaptive {pair!r}: {text!r} is not a {kind.__name__}") from None
    try:
        BayesExploiterConfig(**settings)
    except ValueError as error:
        raise fail(f"--adaptive: {error}") from None
    return settings


def _print_goals(goals: dict[str, Any]) -> None:
    """The study's checks, one line each (``holds``: whether it held); nothing when the run
    was too short for any."""
    for name, goal in goals.items():
        held = goal.get("holds") if isinstance(goal, dict) else None
        verdict = "" if held is None else ("holds: " if held else "does not hold: ")
        if isinstance(goal, dict):
            figures = ", ".join(f"{key} {_figure(value)}" for key, value in goal.items() if key != "holds")
        else:
            figures = _figure(goal)
        typer.echo(f"goal {name.replace('_', ' ')}: {verdict}{figures}")


def _figure(value: Any) -> str:
    """A goal's figure in words: signed to 4 places, yes/no, ``(key value, ...)`` for a group."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:+.4f}"
    if isinstance(value, dict):
        return "(" + ", ".join(f"{key} {_figure(item)}" for key, item in value.items()) + ")"
    return str(value)


def _meta(started: float, config: dict[str, Any]) -> dict[str, Any]:
    return {
        "command": " ".join(["pokerbot", *sys.argv[1:]]) if sys.argv else "pokerbot",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "config": config,
    }


def _write(data: dict[str, Any], out: Path) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {out}: {error}") from None


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# ----------------------------------------------------------------------------- kuhn
def experiment_kuhn(
    out: Path = typer.Option(Path("experiment-output/kuhn.json"), "--out", "-o", help="JSON file of the figures."),
    plots: Path | None = typer.Option(None, "--plots", help="Folder for the PNG plots (default: the JSON's)."),
    hands: int = typer.Option(200, "--hands", help="Hands per match (H)."),
    trials: int = typer.Option(10_000, "--trials", help="Trials of the switching methods (the paper: 30,000)."),
    adaptive_trials: int = typer.Option(300, "--adaptive-trials", help="Trials of the adaptive learner."),
    convergence_hands: int = typer.Option(400, "--convergence-hands", help="Longest switching hand studied."),
    tau: float = typer.Option(0.055, "--tau", help="Best-response value of the random opponents (chips/hand)."),
    opponents: str = typer.Option("O1,O2,O3,O4,O5,O6,tau", "--opponents", help="Comma-separated opponents."),
    seed: int = typer.Option(0, "--seed", help="Seed of every random draw."),
    block: int = typer.Option(10_000, "--block", help="Trials of the switching methods per task (memory: one block)."),
    jobs: int = typer.Option(
        1, "--jobs", help="Tasks at a time (blocks of trials): 1 in this process; more: a local Ray."
    ),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    adaptive_settings: list[str] = typer.Option(
        [], "--adaptive", help="KEY=VALUE setting of the adaptive learner (repeatable), e.g. allowance=0.01."
    ),
) -> None:
    """Southey, Hoehn and Holte's (2009) Kuhn study: parameter and strategy learning, and the adaptive learner."""
    names = _names(opponents, ("O1", "O2", "O3", "O4", "O5", "O6", "tau"), "opponent")
    if hands < 1 or trials < 2 or adaptive_trials < 2 or convergence_hands < hands or block < 1 or jobs < 1:
        raise fail(
            "need --hands >= 1, --trials and --adaptive-trials >= 2, --convergence-hands >= --hands, "
            "--block >= 1 and --jobs >= 1"
        )
    if tau <= -1.0 / 18.0:
        raise fail("--tau must exceed the game value -1/18")
    lengths = tuple(length for length in (50, 100, 200, 400) if length <= convergence_hands)
    config = KuhnStudyConfig(
        hands=hands,
        trials=trials,
        adaptive_trials=adaptive_trials,
        convergence_hands=convergence_hands,
        tau=tau,
        seed=seed,
        opponents=names,
        game_lengths=lengths or (hands,),
        adaptive=_adaptive_settings(adaptive_settings),
        block_trials=block,
    )
    started = time.perf_counter()
    try:
        with make_executor(jobs, address) as executor:
            result = run_kuhn_study(config, lambda message: typer.echo(message, err=True), executor)
    except ExecutorError as error:
        raise fail(str(error)) from None
    data = {"meta": _meta(started, _config_dict(config)), **result}
    _write(data, out)
    folder = plots or out.parent
    written = plot_kuhn(data, folder)
    _print_kuhn(data)
    typer.echo(f"figures: {out}; plots: {', '.join(str(path) for path in written)}")


def _config_dict(config: Any) -> dict[str, Any]:
    return asdict(config)


def _print_kuhn(data: dict[str, Any]) -> None:
    typer.echo("expected total winnings over the match (chips), best switching hand in brackets:")
    for name, entry in data["learners"].items():
        opponent = data["opponents"][name]
        parts = []
        for learner, summary in entry.items():
            if learner == "adaptive":
                parts.append(f"adaptive {summary['total']:+.2f} ± {summary['total_se']:.2f}")
            else:
                parts.append(
                    f"{learner} {summary['best_total']:+.2f} ± {summary['best_total_se']:.2f} "
                    f"[{summary['best_switch']}]"
                )
        typer.echo(
            f"  {name}: ceiling {opponent['ceiling_total']:+.2f}, Nash {opponent['nash_total']:+.2f}; "
            + "; ".join(parts)
        )
    _print_goals(data["goals"])


def plot_kuhn(data: dict[str, Any], folder: Path) -> list[Path]:
    """The Kuhn study's plots (PNG) in ``folder``; returns their paths."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []

    def save(figure: Any, name: str) -> None:
        path = folder / name
        figure.tight_layout()
        figure.savefig(path, dpi=100)
        plt.close(figure)
        paths.append(path)

    for name, entry in data["learners"].items():
        opponent = data["opponents"][name]
        figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
        for learner, summary in entry.items():
            if learner == "adaptive":
                for axis, key in ((left, "total"), (right, "proportion_chips")):
                    axis.axhline(summary[key], color="black", linestyle="-", label=f"adaptive ({key})")
                right.axhline(summary["proportion_expected"], color="black", linestyle=":", label="adaptive (expected)")
                continue
            left.plot(summary["total"], label=learner)
            right.plot(summary["chips_switches"], summary["proportion_chips"], label=f"{learner} (chips)")
            right.plot(summary["proportion_expected"], linestyle=":", label=f"{learner} (expected)")
        left.axhline(opponent["nash_total"], color="grey", linestyle="--", label="Nash")
        left.axhline(opponent["ceiling_total"], color="grey", linestyle="-.", label="best response")
        left.set(xlabel="switching hand", ylabel="expected total winnings (chips)", title=f"Kuhn vs {name}")
        right.set(xlabel="switching hand", ylabel="proportion of trials >= Nash expectation", ylim=(0, 1.02))
        for axis in (left, right):
            axis.grid(alpha=0.3)
            axis.legend(fontsize=7)
        save(figure, f"kuhn_comparison_{name}.png")
    for study, ylabel in (
        ("priors", "expected total winnings (chips)"),
        ("nash_exploration", "expected total winnings (chips)"),
    ):
        for name, entry in data[study].items():
            figure, axis = plt.subplots(figsize=(6.5, 4.5))
            for label, summary in entry.items():
                axis.plot(summary["total"], label=label)
            axis.axhline(data["opponents"][name]["nash_total"], color="grey", linestyle="--", label="Nash")
            axis.set(xlabel="switching hand", ylabel=ylabel, title=f"{study.replace('_', ' ')} vs {name}")
            axis.grid(alpha=0.3)
            axis.legend(fontsize=8)
            save(figure, f"kuhn_{study}_{name}.png")
    for name, entry in data["convergence"].items():
        figure, axis = plt.subplots(figsize=(6.5, 4.5))
        for learner, summary in entry.items():
            axis.plot(summary["rate"], label=learner)
        axis.axhline(
            data["opponents"][name]["best_response_value"], color="grey", linestyle="-.", label="best response"
        )
        axis.axhline(-1.0 / 18.0, color="grey", linestyle="--", label="Nash")
        axis.set(
            xlabel="switching hand",
            ylabel="expected payoff rate after switching (chips/hand)",
            title=f"convergence vs {name}",
        )
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
        save(figure, f"kuhn_convergence_{name}.png")
    for name, entry in data["game_length"].items():
        figure, axis = plt.subplots(figsize=(6.5, 4.5))
        for length, summary in entry.items():
            axis.plot(summary["total"], label=f"{length} hands")
        axis.set(xlabel="switching hand", ylabel="expected total winnings (chips)", title=f"game length vs {name}")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
        save(figure, f"kuhn_game_length_{name}.png")
    figure, axis = plt.subplots(figsize=(7, 4.5))
    for name, entry in data["learners"].items():
        axis.plot(entry["adaptive"]["curve"], label=name)
    axis.axhline(-1.0 / 18.0, color="grey", linestyle="--", label="Nash")
    axis.set(xlabel="hand", ylabel="expected winnings (chips/hand)", title="adaptive learner, hand by hand")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    save(figure, "kuhn_adaptive_curves.png")
    return paths


# ---------------------------------------------------------------------------- leduc
def experiment_leduc(
    out: Path = typer.Option(Path("experiment-output/leduc.json"), "--out", "-o", help="JSON file of the figures."),
    plots: Path | None = typer.Option(None, "--plots", help="Folder for the PNG plots (default: the JSON's)."),
    hands: int = typer.Option(1000, "--hands", help="Hands per trial."),
    trials: int = typer.Option(10, "--trials", help="Trials per learner and opponent (the full run: 200)."),
    opponents: str = typer.Option(
        "skewed,random,equilibrium,near-equilibrium",
        "--opponents",
        help="Comma-separated opponents (or policy:PATH, a saved Leduc policy).",
    ),
    learners: str = typer.Option(",".join(LEARNERS), "--learners", help="Comma-separated learners."),
    kappa: float = typer.Option(0.5, "--kappa", help="Skew strength of the skewed opponents, in [0, 1]."),
    jobs: int = typer.Option(
        1, "--jobs", help="Tasks at a time (chunks of the trials): 1 plays in this process; more start a local Ray."
    ),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    seed: int = typer.Option(0, "--seed", help="Seed of every random draw."),
    adaptive_settings: list[str] = typer.Option(
        [], "--adaptive", help="KEY=VALUE setting of the adaptive learner (repeatable), e.g. allowance=0.01."
    ),
) -> None:
    """Tansey's (2013) Leduc study: explicit, implicit, bootstrapped and adaptive learners."""
    config = LeducStudyConfig(
        hands=hands,
        trials=trials,
        seed=seed,
        opponents=_names(opponents, OPPONENTS, "opponent", POLICY_PREFIX),
        learners=_names(learners, LEARNERS, "learner"),
        kappa=kappa,
        jobs=jobs,
        adaptive=_adaptive_settings(adaptive_settings),
    )
    if hands < 2 or trials < 2 or jobs < 1 or not 0.0 <= kappa <= 1.0:
        raise fail("need --hands >= 2, --trials >= 2, --jobs >= 1 and --kappa in [0, 1]")
    started = time.perf_counter()
    try:
        with make_executor(jobs, address) as executor:
            result = run_leduc_study(config, lambda message: typer.echo(message, err=True), executor)
    except ExecutorError as error:
        raise fail(str(error)) from None
    data = {"meta": _meta(started, result.pop("config")), **result}
    _write(data, out)
    written = plot_leduc(data, plots or out.parent)
    at = 2 * (min(500, hands) // 2)  # the point the study's "at_500" figures are read at (pairs of hands)
    typer.echo(f"expected winnings (chips/hand): whole match, at hand {at}; ceiling = best-response value")
    for opponent, entry in data["results"].items():
        for learner, summary in entry.items():
            typer.echo(
                f"  {opponent:<15} {learner:<10} {summary['per_hand']:+.4f}  {summary['at_500']:+.4f}  "
                f"(ceiling {summary['best_response_value']:.4f}, equilibrium {summary['equilibrium_value']:+.4f})"
            )
    _print_goals(data["goals"])
    typer.echo(f"figures: {out}; plots: {', '.join(str(path) for path in written)}")


def plot_leduc(data: dict[str, Any], folder: Path) -> list[Path]:
    """One plot per opponent: every learner's curve with its 95 % band (PNG)."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for opponent, entry in data["results"].items():
        figure, axis = plt.subplots(figsize=(8, 5))
        ceiling = equilibrium = None
        for learner, summary in entry.items():
            x = summary["hands"]
            line = axis.plot(x, summary["curve"], label=learner)[0]
            axis.fill_between(x, summary["band_low"], summary["band_high"], color=line.get_color(), alpha=0.2)
            ceiling, equilibrium = summary["best_response_value"], summary["equilibrium_value"]
        if ceiling is not None:
            axis.axhline(ceiling, color="grey", linestyle="-.", label="best response (ceiling)")
            axis.axhline(equilibrium, color="grey", linestyle=":", label="equilibrium's value")
            axis.axhline(0.0, color="grey", linestyle="--", label="game value")
        axis.set(xlabel="hand", ylabel="expected winnings (chips/hand, pairs of hands)", title=f"Leduc vs {opponent}")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
        path = folder / f"leduc_{re.sub(r'[^A-Za-z0-9_.-]+', '_', opponent)}.png"
        figure.tight_layout()
        figure.savefig(path, dpi=100)
        plt.close(figure)
        paths.append(path)
    return paths


__all__ = ["experiment_kuhn", "experiment_leduc", "plot_kuhn", "plot_leduc"]
