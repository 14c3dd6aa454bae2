"""The table of contents of the ``pokerbot`` command line: :data:`COMMANDS`.

Each command lives in its own module; a command's module is imported only when that command
runs (or its own ``--help`` is asked for): ``pokerbot --help`` imports none of them,
``pokerbot dealer`` only the dealer, so a command starts in a fraction of a second instead of
loading the models, the solvers, scipy and matplotlib first. A raw-argv command (the dealer,
which parses the reference's command line itself) does not even import Typer:
:func:`pokerbot.bot.cli.main` calls it directly, and the Typer application
(:mod:`pokerbot.bot.cli.app`) is built only for the other commands. The one-line help of each
entry is what ``pokerbot --help`` lists (tests/test_cli.py checks it against the command's
own help).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CommandEntry:
    """Where a command lives: ``module``'s ``attribute`` is a Typer app (a command group) or
    a command function; ``context`` names a module attribute holding its context settings."""

    module: str
    attribute: str
    help: str
    """The line ``pokerbot --help`` shows (the command's own short help)."""
    context: str | None = None
    raw_argv: bool = False
    """``attribute`` is ``run(argv: list[str]) -> int`` (exit status) that parses its own
    command line, as the reference's tools do; ``pokerbot NAME ...`` calls it without Typer."""


COMMANDS: dict[str, CommandEntry] = {
    "match": CommandEntry(
        "pokerbot.bot.cli.match",
        "match_command",
        "Play a match between strategies (by registry name) and report the winnings.",
        context="MATCH_CONTEXT_SETTINGS",
    ),
    "tournament": CommandEntry(
        "pokerbot.bot.cli.tournament",
        "tournament_command",
        "Play a round-robin tournament of heads-up strategies in parallel; print the cross-table.",
        context="TOURNAMENT_CONTEXT",
    ),
    "dealer": CommandEntry(
        "pokerbot.bot.cli.dealer",
        "run_dealer",
        "Run an ACPC match: pokerbot dealer MATCHNAME GAME HANDS SEED NAME1 NAME2 ... [options] (-h for all).",
        raw_argv=True,
    ),
    "play": CommandEntry(
        "pokerbot.bot.cli.play", "play", "Play STRATEGY at a dealer seat until the dealer closes the connection."
    ),
    "solve": CommandEntry(
        "pokerbot.bot.cli.solve",
        "solve",
        "Solve GAME with a CFR-family algorithm and write the average policy to --out.",
    ),
    "exploitability": CommandEntry(
        "pokerbot.bot.cli.solve",
        "exploitability",
        "How much a best response wins against STRATEGY in GAME (exact, or local best response).",
    ),
    "train-prior": CommandEntry(
        "pokerbot.bot.cli.prior",
        "train_prior",
        "Train the opponent-model prior (action and hand-strength trees) from ACPC logs.",
    ),
    "train-rnr": CommandEntry(
        "pokerbot.bot.cli.abstract",
        "train_rnr",
        "Learn Ponsen, de Jong and Lanctot's (2011) opponent model (a tree per round) from ACPC logs, for MCRNR.",
    ),
    "abstraction": CommandEntry(
        "pokerbot.bot.cli.card_abstraction",
        "abstraction_app",
        "Build the distribution-aware (k-means) card abstraction.",
    ),
    "kit": CommandEntry(
        "pokerbot.bot.cli.kit",
        "kit_app",
        "Make a competition kit (pokerbot kit OUTDIR ...) or check one (pokerbot kit check OUTDIR).",
    ),
    "web": CommandEntry(
        "pokerbot.bot.cli.web",
        "web",
        "Serve a web page where you take a seat against any strategy, or watch two play.",
    ),
    "log": CommandEntry(
        "pokerbot.bot.cli.log", "log_app", "Check and convert hand histories (ACPC logs, PHH, PokerStars)."
    ),
    "slumbot": CommandEntry(
        "pokerbot.bot.cli.slumbot",
        "slumbot_app",
        "Play Slumbot's HTTP API (slumbot.com), serve the same API with our strategies, or check the two agree.",
    ),
    "game": CommandEntry("pokerbot.bot.cli.game", "game_app", "Inspect ACPC game definitions."),
    "rl": CommandEntry("pokerbot.bot.cli.rl", "rl_app", "Reinforcement learning on the engine: NFSP self-play."),
    "experiment": CommandEntry(
        "pokerbot.bot.experiments.cli", "experiment_app", "Experiments that measure pokerbot's components."
    ),
}
"""Every ``pokerbot`` command by name, in the order ``pokerbot --help`` lists them."""
