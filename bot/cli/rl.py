"""``pokerbot rl train``: NFSP self-play in a small game, with exploitability checkpoints.

``rl train GAME --seconds S --out DIR [--seed N] [--eval-every S] [--checkpoint DIR]`` trains
:class:`~pokerbot.strategies.rl.nfsp.NFSP` for ``S`` seconds of this process's CPU time
(evaluations excluded; one thread), measures the exact exploitability of the average policy
(:func:`~pokerbot.strategies.solvers.exploitability.evaluate`) every ``--eval-every`` CPU
seconds, and writes ``DIR/policy.json`` (the average policy as a ``pokerbot.policy/1`` table:
``pokerbot exploitability GAME DIR/policy.json``, ``pokerbot match --players policy:DIR/policy.json``)
and ``DIR/curve.json`` (exploitability in chips per hand against CPU seconds and hands). With
``--checkpoint DIR`` the networks, buffers and curve are saved there at every evaluation, and the
same command run again goes on where it stopped (with the saved settings). ``--set KEY=VALUE``
changes one of :class:`~pokerbot.strategies.rl.nfsp.NfspSettings` (repeatable). CPU time, not
wall time: the figure does not depend on what else the machine runs. Needs the ``rl`` extra
(PyTorch, Gymnasium: :func:`pokerbot.bot.extras.install_hint`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, prepare_output
from pokerbot.bot.extras import install_hint
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import load_game

rl_app = typer.Typer(help="Reinforcement learning on the engine: NFSP self-play.", no_args_is_help=True)

CHECKPOINT_FILE = "nfsp.pt"


@rl_app.command("train")
def train(
    game: str = typer.Argument("leduc", help="A small limit game (leduc, kuhn) or a game definition file."),
    seconds: float = typer.Option(..., "--seconds", help="CPU seconds of training (evaluations excluded)."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for policy.json and curve.json."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the networks, the deals and the exploration."),
    eval_every: float = typer.Option(30.0, "--eval-every", help="CPU seconds between exploitability checkpoints."),
    checkpoint: Path | None = typer.Option(None, "--checkpoint", help="Save here; the same command resumes."),
    encoding: str | None = typer.Option(
        None, "--encoding", help="Observation encoding (default: leduc-infostate in Leduc, else the game's)."
    ),
    setting: list[str] = typer.Option(
        [], "--set", help="An NFSP setting, KEY=VALUE (repeatable; the keys of NfspSettings, e.g. optimizer=sgd)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
) -> None:
    """Train NFSP in GAME; write the average policy (tabular) and its exploitability curve."""
    try:
        import gymnasium  # noqa: F401 - the environment's
        import torch
    except ImportError:
        raise fail(f"NFSP needs PyTorch and Gymnasium, the rl extra: {install_hint('rl')}", status=1) from None
    from pokerbot.strategies.rl.encoding import EncodingError
    from pokerbot.strategies.rl.nfsp import NFSP, NfspSettings
    from pokerbot.strategies.solvers.errors import SolverError
    from pokerbot.strategies.solvers.exploitability import evaluate
    from pokerbot.strategies.solvers.tree import build_tree

    try:
        settings = NfspSettings.from_strings(setting)
    except ValueError as error:
        raise fail(str(error), "--set") from None
    if seconds <= 0 or eval_every <= 0:
        raise fail("--seconds and --eval-every must be positive", "--seconds" if seconds <= 0 else "--eval-every")
    try:
        definition = load_game(game)
        tree = build_tree(definition)
    except (GameDefinitionError, SolverError) as error:
        raise fail(str(error), "GAME") from None
    if definition.is_nolimit or definition.num_players != 2:
        raise fail("training measures exact exploitability: it needs a small two-player limit game", "GAME")
    if encoding is None and definition == load_game("leduc"):
        encoding = "leduc-infostate"
    try:
        prepare_output(out, folder=True)
        prepare_output(checkpoint, folder=True)
    except OutputFolderError as error:
        raise fail(str(error)) from None
    torch.set_num_threads(1)
    saved = checkpoint / CHECKPOINT_FILE if checkpoint is not None else None
    curve: list[dict[str, float]] = []
    try:
        if saved is not None and saved.exists():
            nfsp = NFSP.load(definition, str(saved))
            curve = json.loads((checkpoint / "curve.json").read_text(encoding="utf-8"))["points"]  # type: ignore[operator]
            if not quiet:
                typer.echo(f"resumed from {saved} at {curve[-1]['cpu_seconds']:.0f} CPU seconds", err=True)
        else:
            nfsp = NFSP(definition, encoding, settings, seed=seed)
    except (EncodingError, ValueError) as error:
        raise fail(str(error), "--encoding") from None
    trained = curve[-1]["cpu_seconds"] if curve else 0.0
    command = f"pokerbot rl train {game} --seconds {seconds:g} --seed {seed} --eval-every {eval_every:g}"
    command += "".join(f" --set {item}" for item in setting)

    def document() -> dict[str, Any]:
        return {
            "game": game,
            "algorithm": "nfsp",
            "seed": seed,
            "encoding": nfsp.encoding.name,
            "settings": nfsp.settings.to_dict(),
            "command": command,
            "time": "CPU seconds of the training process, one thread, evaluations excluded",
            "points": curve,
        }

    def measure() -> None:
        policy = nfsp.average_policy()
        exploitability = evaluate(tree, policy).exploitability
        curve.append({"cpu_seconds": round(trained, 2), "hands": nfsp.hands, "exploitability": exploitability})
        if not quiet:
            typer.echo(f"{trained:8.0f} CPU s  {nfsp.hands:>10,} hands  exploitability {exploitability:.4f}", err=True)
        if saved is not None and checkpoint is not None:
            nfsp.save(str(saved))
            (checkpoint / "curve.json").write_text(json.dumps(document(), indent=1) + "\n", encoding="utf-8")

    if not curve:
        measure()
    while trained < seconds - 1e-9:
        budget = min(eval_every, seconds - trained)
        start = time.process_time()
        while time.process_time() - start < budget:
            nfsp.play(2_000)
        trained += time.process_time() - start
        measure()
    policy_path, curve_path = out / "policy.json", out / "curve.json"
    meta = {"algorithm": "nfsp", "seed": seed, "cpu_seconds": round(trained, 2), "hands": nfsp.hands}
    nfsp.average_policy({**meta, "exploitability": curve[-1]["exploitability"]}).save(policy_path)
    curve_path.write_text(json.dumps(document(), indent=1) + "\n", encoding="utf-8")
    announce([policy_path, curve_path])
