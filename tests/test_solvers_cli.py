"""``pokerbot solve`` and ``pokerbot exploitability`` (registered here on a local app)."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.cli.solve import exploitability, solve
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
    result = runner.invoke(app, ["exploitability", "kuhn", "uniform", "--json", "-"])
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


def test_exploitability_by_lbr_writes_the_report(tmp_path):
    out = tmp_path / "lbr.json"
    arguments = ["exploitability", "holdem-nolimit-2p", "always-fold", "--hands", "20", "--jobs", "1", "-q"]
    result = runner.invoke(app, [*arguments, "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "+750" in result.output
    data = json.loads(out.read_text())
    for key in ("method", "hands", "mbb_per_hand", "mbb_per_hand_ci95", "strategy", "game"):
        assert key in data
    assert data["method"] == "lbr" and data["hands"] == 20 and data["mbb_per_hand"] == pytest.approx(750.0)


def test_every_lbr_variant_plays_the_same_deals_and_the_highest_is_reported(tmp_path):
    out = tmp_path / "all.json"
    arguments = ["exploitability", "holdem-nolimit-2p", "always-call", "--hands", "8", "--jobs", "1", "-q"]
    result = runner.invoke(app, [*arguments, "--betting", "all", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    variants = data["variants"]
    assert set(variants) == {"fcp", "fcpa", "fc56", "fcp-called"}
    assert variants["fc56"]["settings"]["betting"] == "fc/fc/fcs/fcs"
    assert variants["fcp-called"]["settings"]["called_equity"] is True
    highest = max(variants, key=lambda name: variants[name]["mbb_per_hand"])
    assert data["maximum"]["variant"] == highest
    assert data["maximum"]["mbb_per_hand"] == variants[highest]["mbb_per_hand"]
    assert len({len(v["deal_values"]) for v in variants.values()}) == 1  # the same deals for each
    # one cell alone (--variant) is that column of the table
    alone = tmp_path / "called.json"
    result = runner.invoke(app, [*arguments, "--variant", "fcp-called", "--json", str(alone)])
    assert result.exit_code == 0, result.output
    cell = json.loads(alone.read_text())
    assert cell["settings"]["called_equity"] is True and cell["settings"]["betting"] == "fc/fc/fcp/fcpa"
    assert cell["deal_values"] == variants["fcp-called"]["deal_values"]


@pytest.mark.parametrize(
    "arguments",
    [
        ["exploitability", "leduc", "random", "--method", "lbr"],
        ["exploitability", "holdem-nolimit-2p", "no-such-strategy"],
        ["exploitability", "holdem-nolimit-2p", "random", "--hands", "7"],
        ["exploitability", "holdem-nolimit-2p", "random", "--betting", "fx"],
        ["exploitability", "holdem-nolimit-2p", "random", "--variant", "fcr-called"],
        ["exploitability", "holdem-nolimit-2p", "random", "--variant", "fcp", "--betting", "fc"],
        ["exploitability", "holdem-nolimit-2p", "random", "--method", "magic"],
        ["exploitability", "holdem-nolimit-2p", "random", "--jobs", "0"],
        ["exploitability", "holdem-nolimit-2p", "random", "--workers", "0"],
    ],
)
def test_bad_lbr_usage_exits_2(arguments):
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert "error:" in result.output


def test_lbr_against_a_strategy_without_action_probabilities_exits_2(tmp_path):
    bot = tmp_path / "mine.py"
    bot.write_text(
        "from pokerbot.protocol.actions import CALL\n"
        "from pokerbot.strategies.base import Strategy\n\n\n"
        "class Mine(Strategy):\n"
        "    name = 'mine'\n\n"
        "    def decide(self, view, deadline):\n"
        "        return CALL\n"
    )
    result = runner.invoke(app, ["exploitability", "holdem-nolimit-2p", f"{bot}:Mine", "--hands", "4", "--jobs", "1"])
    assert result.exit_code == 2
    assert "does not give its action probabilities" in result.output
