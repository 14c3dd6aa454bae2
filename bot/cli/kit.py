"""``pokerbot kit``: make a competition kit, and check it as the reference validator does.

    pokerbot kit OUTDIR --strategy S --game G [--t_response MS --t_hand MS --t_per_hand MS]
    pokerbot kit check OUTDIR [--hands N] [--dealer PROGRAM]

``pokerbot kit build OUTDIR ...`` is the long form of the first (needed only for a folder
named ``check``). Exit status: 0 when the kit was made or passed its check, 1 when the check
failed, 2 on bad usage or input.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperGroup

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import plural
from pokerbot.bot.extras import DISTRIBUTION
from pokerbot.bot.kit.build import ACPC_FOLDER_NAMES, KitError, build_kit, read_kit
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.limits import TimeLimits

_DEFAULTS = TimeLimits()


class _KitGroup(TyperGroup):
    """``kit`` with a default command: ``pokerbot kit OUTDIR`` means ``pokerbot kit build OUTDIR``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["build", *args]
        return super().parse_args(ctx, args)


kit_app = typer.Typer(
    cls=_KitGroup,
    help="Make a competition kit (pokerbot kit OUTDIR ...) or check one (pokerbot kit check OUTDIR).",
    no_args_is_help=True,
    add_completion=False,
)


@kit_app.command("build")
def build(
    outdir: Path = typer.Argument(..., help="The kit's folder (new, or empty)."),
    game: str = typer.Option(..., "--game", "-g", help="A built-in game name or a game definition file."),
    strategy: str | None = typer.Option(
        None, "--strategy", help="The strategy to play (default: the game's strongest, as pokerbot play)."
    ),
    t_response: float = typer.Option(_DEFAULTS.response_ms, "--t_response", help="Response limit, ms."),
    t_hand: float = typer.Option(_DEFAULTS.hand_ms, "--t_hand", help="Limit per hand, ms."),
    t_per_hand: float = typer.Option(_DEFAULTS.per_hand_ms, "--t_per_hand", help="Average per hand, ms."),
    data: list[Path] = typer.Option([], "--data", help="A file or folder the strategy needs (repeatable)."),
    wheel: Path | None = typer.Option(
        None,
        "--wheel",
        help="The pokerbot wheel install.sh installs (default: the one this pokerbot was installed from, or the "
        "source tree's dist/ build of this version; else install.sh installs from the package index).",
    ),
) -> None:
    """Write a competition kit: start script (HOST PORT), game, data files, README, manifest."""
    from pokerbot.protocol.game import load_game
    from pokerbot.strategies.base import UnknownStrategyError
    from pokerbot.strategies.registry import default_registry, default_strategy

    try:
        limits = TimeLimits(t_response, t_hand, t_per_hand)
        game_definition = load_game(game)
    except (GameDefinitionError, ValueError, OSError) as error:
        raise fail(str(error)) from None
    name = strategy or default_strategy(game_definition)
    registry = default_registry()
    try:
        registry.create(name, game_definition, 0)  # fails now rather than at the competition
    except UnknownStrategyError as error:
        raise fail(str(error)) from None
    try:
        summary = registry.info(name.partition(":")[0]).summary
    except UnknownStrategyError:  # a bot of the user's own (file.py:Class, module:Class)
        summary = ""
    try:
        kit = build_kit(outdir, name, game, limits, summary=summary, data=data, wheel=wheel)
    except (KitError, OSError) as error:
        raise fail(str(error), "--wheel" if "--wheel" in str(error) else None) from None
    typer.echo(f"kit written to {outdir}: ./startme.sh HOST PORT plays {kit.strategy} in {kit.game_name}")
    source = kit.wheel or f"{DISTRIBUTION} {kit.pokerbot_version} from the package index"
    typer.echo(f"on the machine that plays, ./install.sh installs pokerbot ({source}) in {outdir}/venv first")
    wanted = ACPC_FOLDER_NAMES.get(kit.game_name)
    if wanted and outdir.name != wanted:
        typer.echo(f"note: the reference validator wants the folder named {wanted}")
    typer.echo(f"check it with: pokerbot kit check {shlex.quote(str(outdir))}")


@kit_app.command("check")
def check(
    kitdir: Path = typer.Argument(..., help="A folder made by pokerbot kit."),
    hands: int = typer.Option(300, "--hands", min=1, help="Hands per match (one match per seat)."),
    seed: int = typer.Option(0, "--seed", help="Dealer seed of the first match (the next seats: +1, +2)."),
    opponent: str = typer.Option("random", "--opponent", help="The opponents' strategy (random: the ACPC chump)."),
    dealer: str | None = typer.Option(
        None, "--dealer", help="A dealer program with the reference's command line (default: pokerbot dealer)."
    ),
    out: Path | None = typer.Option(None, "--out", help="Where the match files go (default: KITDIR.check)."),
) -> None:
    """Play the kit in every seat under its limits, as the reference validator does."""
    from pokerbot.bot.kit.check import MatchReport, check_kit

    try:
        kit = read_kit(kitdir)
    except KitError as error:
        raise fail(str(error)) from None
    folder = out or kitdir.with_name(kitdir.name + ".check")
    limits = kit.limits
    typer.echo(
        f"checking {kitdir} ({kit.strategy} in {kit.game_name}; --t_response {limits.response_ms:.0f} "
        f"--t_hand {limits.hand_ms:.0f} --t_per_hand {limits.per_hand_ms:.0f}); files in {folder}"
    )

    def show(match: MatchReport) -> None:
        chips = sum(match.kit_chips)
        verdict = "ok" if match.ok else "FAILED"
        typer.echo(
            f"  seat {match.seat}: {plural(match.hands, 'hand')} in {match.seconds:.1f} s, "
            f"kit won {chips:+.0f} chips: {verdict}"
        )
        for problem in match.problems:
            typer.echo(f"    {problem}")

    report = check_kit(
        kit,
        folder,
        hands=hands,
        seed=seed,
        opponent=opponent,
        dealer=shlex.split(dealer) if dealer else None,
        on_match=show,
    )
    for problem in report.problems:
        typer.echo(f"  {problem}")
    chips = report.kit_chips
    if chips:
        from pokerbot.bot.matches.stats import mean_and_ci95

        mean, ci = mean_and_ci95(chips)
        big_blind = kit.game.big_blind
        typer.echo(
            f"kit against {opponent}: {1000 * mean / big_blind:+.0f} ± {1000 * ci / big_blind:.0f} mbb/hand "
            f"over {len(chips)} hands"
        )
    if not report.ok:
        typer.echo("kit check FAILED")
        raise typer.Exit(1)
    typer.echo("kit check PASSED")
