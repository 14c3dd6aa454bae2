"""``pokerbot solve`` and ``pokerbot exploitability`` (registered here on a local app)."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.solve_cli import exploitability, solve
from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers import Policy, kuhn

app = typer.Typer()
app.command("solve")(solve)
app.command("exploitability")(exploitability)
runner = CliRunner()


def test_solve_writes_policy_and_plot(tmp_path):
    out, plot = tmp_path / "kuhn.json", tmp_path / "kuhn.png"
    arguments = ["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "300", "--out", str(out), "--plot", str(plot)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert "exploitability" in result.output
    policy = Policy.load(out, load_game("kuhn"))
    assert len(policy) == 12 and policy.meta["iterations"] == 300
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_solve_by_seconds(tmp_path):
    out = tmp_path / "p.json"
    arguments = ["solve", "kuhn", "--algorithm", "es-mccfr", "--seconds", "0.3", "--seed", "1", "--out", str(out)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert Policy.load(out).meta["seed"] == 1


def test_exploitability_json_of_uniform():
    result = runner.invoke(app, ["exploitability", "kuhn", "uniform", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["nash_conv"] == pytest.approx(0.916667, abs=1e-6)
    assert data["exploitability"] == pytest.approx(0.458333, abs=1e-6)
    assert len(data["best_response_values"]) == len(data["values"]) == 2


def test_exploitability_text_of_a_policy(tmp_path):
    path = tmp_path / "nash.json"
    kuhn.nash_policy().save(path)
    result = runner.invoke(app, ["exploitability", "kuhn", str(path)])
    assert result.exit_code == 0, result.output
    assert "NashConv:       0.000000" in result.output


@pytest.mark.parametrize(
    "arguments",
    [
        ["exploitability", "no-such-game", "uniform"],
        ["exploitability", "holdem-nolimit-2p", "uniform"],
        ["solve", "kuhn", "--iterations", "5", "--seconds", "1", "--out", "x.json"],
        ["solve", "kuhn", "--out", "x.json"],
        ["solve", "kuhn", "--algorithm", "magic", "--iterations", "5", "--out", "x.json"],
    ],
)
def test_bad_usage_exits_2(arguments):
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert "error:" in result.output


def test_wrong_game_and_corrupt_policy_exit_2(tmp_path):
    path = tmp_path / "kuhn.json"
    kuhn.nash_policy().save(path)
    result = runner.invoke(app, ["exploitability", "leduc", str(path)])
    assert result.exit_code == 2 and "another game" in result.output
    path.write_text("{broken")
    result = runner.invoke(app, ["exploitability", "kuhn", str(path)])
    assert result.exit_code == 2 and "corrupt JSON" in result.output
