"""The CLI with every player kind (issue 14 items 4-6): `battle --explain`, `ladder`, and
`simulate`, `duel`, `balance`, `compare` with the search player at a tiny budget over
two worker processes. Budgets and battle counts are the smallest that still check
something: how well the search plays is in docs/players.md."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app

runner = CliRunner()
ENV = {"COLUMNS": "120", "NO_COLOR": "1"}


def run(*args: Any) -> Any:
    result = runner.invoke(app, [str(a) for a in args], env=ENV)
    return result


@functools.cache
def ok(*args: Any) -> str:
    """The output of a command that must succeed (kept: several tests read one battle)."""
    result = run(*args)
    assert result.exit_code == 0, result.output
    return str(result.stdout)


def one_json(*args: Any) -> Any:
    return json.loads(ok(*args, "--json"))


# ---- battle --explain -----------------------------------------------------------------


EXPLAINED = (
    "battle", "skirmish", "--seed", "3", "--ai", "Earth Alliance=search:8",
    "--ai", "Narn Regime=random",
)  # fmt: skip


def test_explain_shows_the_search_candidates_and_says_when_a_player_cannot() -> None:
    text = ok(*EXPLAINED, "--explain")
    lines = text.splitlines()
    weighed = [
        line for line in lines if line.startswith("  why: Earth Alliance (search:8) weighed")
    ]
    assert weighed, text[:2000]
    at = lines.index(weighed[0])
    first, second = lines[at + 1], lines[at + 2]
    assert first.startswith("    1. ") and "simulations worth" in first
    assert second.startswith("    2. ") and "on average" in second
    assert any(
        line.startswith("  why: Narn Regime (random) chose")
        and line.endswith("a random player cannot show the candidates it weighed")
        for line in lines
    )
    assert any("had one legal action" in line for line in lines)


def test_explain_plays_the_same_battle() -> None:
    """Weighing instead of deciding changes nothing: the log without the `why` lines
    is the log of the battle played without --explain."""
    plain = ok(*EXPLAINED)
    explained = ok(*EXPLAINED, "--explain")
    reason = re.compile(r"^(  why: |    \d+\. |    \.\.\. and \d+ more$)")
    kept = [line for line in explained.splitlines() if not reason.match(line)]
    assert kept == plain.splitlines()
    assert len(kept) < len(explained.splitlines())


def test_explain_json_lists_each_decision() -> None:
    data = one_json(*EXPLAINED, "--explain", "--quiet")
    decisions = data["decisions"]
    assert len(decisions) == data["actions"]
    searched = [d for d in decisions if d["kind"] == "search:8" and d["legal"] > 1]
    assert searched and all(len(d["candidates"]) >= 1 for d in searched)
    assert searched[0]["candidates"][0]["label"] == searched[0]["chosen"]
    assert {"label", "score", "reason"} == set(searched[0]["candidates"][0])


def test_explain_quiet_prints_only_the_reasons() -> None:
    text = ok(*EXPLAINED, "--explain", "--quiet")
    assert "[EVO-" not in text and "  why: " in text


# ---- every command takes every kind, over two processes --------------------------------


def test_simulate_with_search_gives_the_same_results_over_one_or_two_processes() -> None:
    args = ("simulate", "skirmish", "-n", "2", "--swap-sides", "--ai", "Narn Regime=search:8")
    one = one_json(*args, "--jobs", "1")
    two = one_json(*args, "--jobs", "2")
    assert one["players"] == {"Earth Alliance": "heuristic", "Narn Regime": "search:8"}
    assert one["sides"] == two["sides"] and one["turns"] == two["turns"]


def test_duel_with_search() -> None:
    data = one_json(
        "duel", "evo", "frazi", "razik", "--count", "1", "--battles", "2", "--ai", "search:8",
        "--jobs", "2",
    )  # fmt: skip
    assert data["ai"] == "search:8" and data["battles"] == 2


def test_balance_with_search() -> None:
    # 30 points field 1 frazi (20) against 2 razik (15): the equal-points round is played,
    # at other numbers than the equal-numbers one, with the fewest units that do so (64
    # points fielded 3 against 4 and cost four times the time).
    data = one_json(
        "balance", "evo", "frazi", "razik", "--count", "1", "--battles", "2", "--points", "30",
        "--ai", "search:8", "--jobs", "2",
    )  # fmt: skip
    assert data["ai"] == "search:8"
    assert data["equal_numbers"]["matrix"]["names"] == ["frazi", "razik"]
    assert data["equal_points"]["counts"] == {"frazi": 1, "razik": 2}
    assert data["equal_points"]["matrix"]["battles"] == [[0, 2], [2, 0]]


def test_compare_with_search() -> None:
    data = one_json(
        "compare", "skirmish", "--rule", "suppression=off", "--battles", "2",
        "--ai", "Earth Alliance=search:8", "--jobs", "2",
    )  # fmt: skip
    assert data["players"]["Earth Alliance"] == "search:8"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["simulate", "skirmish", "--ai", "Narn Regime=search:0"], "from 1 to 100000"),
        (["duel", "evo", "frazi", "razik", "--ai", "search:x"], "--ai search:x: search:x: the"),
        (["duel", "evo", "frazi", "razik", "--ai", "clever"], "no player kind 'clever'"),
        (["ladder", "evo", "--players", "random"], "at least two player kinds"),
        (["ladder", "evo", "--players", "random,random"], "random is listed twice"),
        (["ladder", "evo", "--players", "random,clever"], "--players clever: no player kind"),
        (["ladder", "evo", "--scenario", "nowhere"], "--scenario nowhere: no built-in evo"),
    ],
)
def test_bad_kinds_are_one_clear_line(args: list[str], expected: str) -> None:
    result = run(*args)
    assert result.exit_code != 0
    assert expected in result.stderr, result.stderr
    assert "Traceback" not in result.output


# ---- ladder ---------------------------------------------------------------------------


LADDER = (
    "ladder", "evo", "--players", "random,heuristic,search:8", "--scenario", "skirmish",
    "--battles", "2", "--jobs", "2",
)  # fmt: skip


def test_ladder_rates_every_kind_with_an_interval_and_draws_them(tmp_path: Path) -> None:
    plot = tmp_path / "ladder.svg"
    data = json.loads(run(*LADDER, "--plot", plot, "--json").stdout)
    assert data["scenarios"] == ["skirmish"] and data["battles"] == 2
    kinds = {r["kind"] for r in data["rungs"]}
    assert kinds == {"random", "heuristic", "search:8"}
    for rung in data["rungs"]:
        assert rung["low"] < rung["rating"] < rung["high"]
        assert rung["battles"] == 4  # two opponents, two battles each
    ratings = [r["rating"] for r in data["rungs"]]
    assert ratings == sorted(ratings, reverse=True)
    matrix = data["matrix"]
    assert matrix["names"] == ["random", "heuristic", "search:8"]
    assert matrix["score"][0][1] + matrix["score"][1][0] == 2
    assert plot.stat().st_size > 0 and "search:8" in plot.read_text()


def test_ladder_text_has_the_ratings_and_the_matrix() -> None:
    text = ok(*LADDER)
    assert text.startswith("evo ladder of 3 player kinds over skirmish; 2 battles")
    assert "Ratings (Bradley-Terry" in text and "Score rate of row against column" in text
