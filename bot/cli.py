"""The ``pokerbot`` command line.

Each command lives in its own module and is registered here, so this file stays a table of
contents. Exit status: 0 on success, 1 when a check finds disagreements, 2 on bad usage or
input (the message says what and where).
"""

from __future__ import annotations

import typer

from pokerbot.bot.dealer_cli import DEALER_CONTEXT, dealer
from pokerbot.bot.game_cli import game_app
from pokerbot.bot.log_cli import log_app
from pokerbot.bot.match_cli import MATCH_CONTEXT_SETTINGS, match_command
from pokerbot.bot.model_experiment_cli import experiment_app
from pokerbot.bot.play_cli import play
from pokerbot.bot.prior_cli import train_prior
from pokerbot.bot.small_experiments import experiment_kuhn, experiment_leduc
from pokerbot.bot.solve_cli import exploitability, solve
from pokerbot.bot.web_cli import web

app = typer.Typer(
    name="pokerbot",
    help="An adaptive poker agent for the ACPC match-state protocol 2.0.0.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(log_app, name="log")
app.add_typer(game_app, name="game")
app.command("match", context_settings=MATCH_CONTEXT_SETTINGS)(match_command)
app.command("dealer", context_settings=DEALER_CONTEXT)(dealer)
app.command("play")(play)
app.command("solve")(solve)
app.command("exploitability")(exploitability)
app.command("train-prior")(train_prior)
app.command("web")(web)
experiment_app.command("kuhn")(experiment_kuhn)
experiment_app.command("leduc")(experiment_leduc)
app.add_typer(experiment_app, name="experiment")


def main() -> None:
    """Entry point of the ``pokerbot`` console script."""
    app()


if __name__ == "__main__":
    main()
