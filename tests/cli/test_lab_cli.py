"""The lab commands (duel, balance, compare) and `odds --plot`: output, JSON, bad input.

Battles use random players and a handful of battles, so the tests stay quick.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app

runner = CliRunner()


def run(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def one_json(*args: str | Path) -> dict[str, Any]:
    result = run(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def fails(*args: str | Path) -> str:
    result = run(*args)
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return str(lines[0])


def test_duel_json_names_the_types_and_adds_up(tmp_path: Path) -> None:
    plot = tmp_path / "turns.svg"
    data = one_json(
        "duel",
        "acta",
        "wasp",
        "zul",
        "--count",
        "2v1",
        "--battles",
        "4",
        "--ai",
        "random",
        "--jobs",
        "1",
        "--json",
        "--plot",
        plot,
    )
    assert data["a"] == "wasp" and data["b"] == "zul"
    assert data["count"] == {"wasp": 2, "zul": 1}
    results = data["results"]
    assert results["wasp"]["count"] + results["zul"]["count"] + results["draw"]["count"] == 4
    assert data["battles"] == 4
    assert plot.stat().st_size > 0 and b"turn each battle ended" in plot.read_bytes()


def test_duel_text_says_who_won() -> None:
    result = run(
        "duel",
        "evo",
        "frazi",
        "razik",
        "--count",
        "1",
        "--battles",
        "2",
        "--ai",
        "random",
        "--jobs",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert "Duel: 1 frazi v 1 razik" in result.stdout
    assert "frazi wins" in result.stdout and "razik wins" in result.stdout


def test_duel_is_reproducible() -> None:
    args = (
        "duel",
        "acta",
        "wasp",
        "zaresh",
        "--count",
        "1",
        "--battles",
        "4",
        "--ai",
        "random",
        "--json",
    )
    assert one_json(*args, "--jobs", "1") == one_json(*args, "--jobs", "2")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["duel", "acta", "wasp", "zorg"], "no acta unit type 'zorg'; known: crane"),
        (["duel", "acta", "wasp", "zul", "--count", "4x4"], "--count takes NvM or N"),
        (["duel", "acta", "wasp", "wasp"], "unit types named more than once: wasp"),
        (["duel", "acta", "wasp", "zul", "-j", "2", "--cluster", "tcp://x:1"], "drop --jobs"),
        (["balance", "acta", "-j", "2", "--cluster", "tcp://x:1"], "drop --jobs"),
        (
            ["compare", "furball", "--rule", "scramble=true", "-j", "2", "--cluster", "tcp://x:1"],
            "drop --jobs",
        ),
        (["duel", "acta", "wasp", "zul", "--ai", "clever"], "no player kind 'clever'"),
        (["duel", "acta", "wasp", "zul", "--rule", "nope=1"], "unknown rule option 'nope'"),
        (["duel", "acta", "wasp", "zul", "--plot", "x.gif"], "must end in .png or .svg"),
        (["duel", "nosuch", "a", "b"], "nosuch"),
        (["balance", "acta", "wasp", "zorg"], "no acta unit type 'zorg'"),
        (["balance", "acta", "--count", "2v3"], "a round robin fields equal numbers"),
        (["balance", "acta", "wasp"], "at least two unit types"),
        (["compare", "furball"], "needs at least one --rule"),
        (["compare", "furball", "--rule", "nope=1"], "unknown rule option 'nope'"),
        (["compare", "furball", "--rule", "dogfight_tie=maybe"], "dogfight_tie"),
        (["compare", "nowhere"], "no scenario file or built-in scenario 'nowhere'"),
        (["odds", "sfa", "pool", "5", "--plot", "p.jpeg"], "must end in .png or .svg"),
        (["duel", "acta", "wasp", "zul", "-n", "2", "--plot", "missing/t.png"], "no such folder"),
        (["balance", "acta", "wasp", "zul", "-n", "2", "--plot", "no/m.svg"], "no such folder"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], expected: str) -> None:
    assert expected in fails(*args)


def test_a_plot_that_cannot_be_written_is_refused_before_any_battle(tmp_path: Path) -> None:
    # Found only after the run, it would cost the whole run and its summary.
    rows = tmp_path / "rows.csv"
    args = ["simulate", "furball", "-n", "2", "--jobs", "1", "--out", rows]
    line = fails(*args, "--plot", tmp_path / "missing" / "t.png")
    assert "no such folder" in line
    assert not rows.exists()


def test_balance_json_has_matrix_strengths_points_and_plots(tmp_path: Path) -> None:
    plot = tmp_path / "rr.png"
    data = one_json(
        "balance",
        "evo",
        "frazi",
        "razik",
        "nial",
        "--count",
        "1",
        "--battles",
        "2",
        "--points",
        "64",
        "--ai",
        "random",
        "--jobs",
        "1",
        "--json",
        "--plot",
        plot,
    )
    numbers = data["equal_numbers"]
    assert numbers["matrix"]["names"] == ["frazi", "razik", "nial"]
    rate = numbers["matrix"]["rate"]
    assert rate[0][0] is None and rate[0][1] + rate[1][0] == pytest.approx(1)
    assert [s["unit"] for s in numbers["strengths"]] == ["frazi", "razik", "nial"]
    assert data["equal_points"]["counts"] == {"frazi": 3, "razik": 4, "nial": 2}
    assert data["budget"] == 64
    assert set(data["forces"]["theta"]) == {"frazi", "razik", "nial"}
    assert {s["unit"] for s in data["suggested_points"]} == {"frazi", "razik", "nial"}
    assert data["plots"] == [str(plot), str(tmp_path / "rr-points.png")]
    assert all(Path(p).stat().st_size > 0 for p in data["plots"])


def test_balance_heatmap_rows_run_by_rating(tmp_path: Path) -> None:
    plot = tmp_path / "rr.svg"
    data = one_json(
        "balance", "evo", "frazi", "razik", "nial", "--count", "1", "--battles", "4",
        "--ai", "random", "--jobs", "1", "--json", "--plot", plot,
    )  # fmt: skip
    strengths = sorted(data["equal_numbers"]["strengths"], key=lambda s: -s["rating"])
    rows = [f"{s['unit']} ({s['rating']:.0f})" for s in strengths]
    svg = plot.read_text()
    assert all(row in svg for row in rows)
    assert [svg.index(row) for row in rows] == sorted(svg.index(row) for row in rows)


def test_balance_text_reports_skipped_points_for_acta() -> None:
    result = run(
        "balance",
        "acta",
        "wasp",
        "zul",
        "--count",
        "1",
        "--battles",
        "2",
        "--ai",
        "random",
        "--jobs",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert "note: no acta unit type here has points" in result.stdout
    assert "Bradley-Terry strength" in result.stdout
    assert "Suggested points" in result.stdout


def test_compare_json_and_text() -> None:
    args = (
        "compare",
        "furball",
        "--rule",
        "dogfight_tie=reroll",
        "--battles",
        "3",
        "--ai",
        "Empire=random",
        "--ai",
        "Klingon=random",
        "--jobs",
        "1",
    )
    data = one_json(*args, "--json")
    assert data["rules"] == {"dogfight_tie": "reroll"}
    assert [s["side"] for s in data["sides"]] == ["Empire", "Klingon"]
    assert data["verdict"].startswith("With dogfight_tie=reroll, ")
    assert data["test"].startswith("McNemar")
    text = run(*args)
    assert text.exit_code == 0
    assert data["verdict"] in text.stdout


def test_odds_plot_writes_the_distribution(tmp_path: Path) -> None:
    plot = tmp_path / "pool.svg"
    result = run("odds", "sfa", "pool", "4", "--plot", plot)
    assert result.exit_code == 0, result.output
    assert f"Plot: {plot}" in result.stdout
    assert b"Pool of 4d10 at difficulty 6" in plot.read_bytes()
    dog = tmp_path / "dog.png"
    data = one_json("odds", "acta", "dogfight", "wasp", "zul", "--json", "--plot", dog)
    assert data["plot"] == str(dog) and dog.read_bytes().startswith(b"\x89PNG")
