"""Issue 19: the playtest report agrees with the lab it is built on, resumes, and opens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.options import Option
from dogfight.core.scenario import load_scenario
from dogfight.sim import report as report_module
from dogfight.sim.balance import round_robin
from dogfight.sim.compare import compare
from dogfight.sim.report import (
    Plan,
    RulePart,
    adjusted,
    alternatives,
    make_plan,
    partial_path,
    planned_battles,
    run_report,
    scenario_verdict,
)
from dogfight.sim.report_html import render
from dogfight.sim.runner import simulate
from dogfight.sim.stats import interval

CHROMIUM = Path("/usr/bin/chromium")


def small_plan(**changes: Any) -> Plan:
    """sfa's fighter duel, three battles a part, a few options: seconds to run."""
    plan = make_plan(
        "sfa",
        players="random",
        battles=3,
        scenarios=["fighter-duel"],
        sections=["scenarios", "rules"],
    )
    arms = [a for a in plan.arms if a[0] in ("turn_limit_result", "speed_ties", "zero_destroys")]
    return msgspec.structs.replace(plan, arms=arms, **changes)


@pytest.fixture(scope="module")
def made() -> report_module.Report:
    return run_report(small_plan(), jobs=1)


def test_the_scenario_figures_are_simulates(made: report_module.Report) -> None:
    scenario = load_scenario("sfa/fighter-duel")
    sides = list(Game(scenario, seed=0).sides())
    players = dict.fromkeys(sides, "random")
    results = simulate(scenario, 3, seed=1, jobs=1, players=players)
    part = made.scenarios[0]
    for side in sides:
        assert part.as_written[side] == interval(sum(r.winner == side for r in results), 3)
    assert (
        sum(part.as_written[s].count for s in sides)
        + sum(part.swapped[s].count for s in sides)
        + part.draws.count
        == 6
    )


def test_the_rule_figures_are_compares(made: report_module.Report) -> None:
    scenario = load_scenario("sfa/fighter-duel")
    sides = list(Game(scenario, seed=0).sides())
    for part in made.rules:
        expected = compare(
            scenario,
            {part.option: part.value},
            3,
            seed=1,
            players=dict.fromkeys(sides, "random"),
            jobs=1,
        )
        assert part.comparison == expected, part.option


def test_the_unit_figures_are_balances() -> None:
    plan = make_plan("acta", players="random", battles=2, sections=["units"])
    plan = msgspec.structs.replace(plan, units=plan.units[:3])
    made = run_report(plan, jobs=1)
    expected = round_robin("acta", plan.units, battles=2, seed=1, jobs=1, ai="random")
    assert made.units == expected
    assert "strongest" in made.verdicts["units"]


def test_an_interrupted_report_resumes_from_its_saved_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: report_module.Report
) -> None:
    partial = partial_path(tmp_path / "r.html")
    plan = small_plan()

    def stop(*_: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(report_module, "_rule_parts", stop)
    with pytest.raises(KeyboardInterrupt):
        run_report(plan, jobs=1, partial=partial)
    saved = json.loads(partial.read_text())
    assert list(saved["done"]) == ["scenario:fighter-duel"]
    monkeypatch.undo()

    def never(*_: Any) -> Any:
        raise AssertionError("a saved part was played again")

    monkeypatch.setattr(report_module, "_scenario_part", never)
    resumed = run_report(plan, jobs=1, partial=partial)
    assert resumed.scenarios == made.scenarios
    assert resumed.rules == made.rules
    assert not partial.exists()  # the report holds it all now


def test_partial_results_of_another_plan_are_kept_and_refused(tmp_path: Path) -> None:
    partial = partial_path(tmp_path / "r.html")
    other = small_plan(seed=2)
    partial.write_bytes(msgspec.json.encode(report_module.Partial(plan=other)))
    with pytest.raises(DogfightError, match="another report"):
        run_report(small_plan(), jobs=1, partial=partial)
    assert partial.exists()


def test_option_values_swept() -> None:
    assert alternatives(Option(name="x", default=True, doc=""))[0] == ["false"]
    assert alternatives(Option(name="x", default="a", doc="", choices=("a", "b", "c")))[0] == [
        "b",
        "c",
    ]
    assert alternatives(Option(name="x", default=3, doc="", minimum=3))[0] == ["4"]
    assert alternatives(Option(name="x", default=6.0, doc=""))[0] == ["3", "9"]
    plan = make_plan("acta", battles=1, scenarios=["furball"])
    assert ("dogfight_tie", "reroll") in plan.arms
    assert planned_battles(plan) > 0


def test_bad_plans_name_what_is_wrong() -> None:
    with pytest.raises(DogfightError, match="no built-in sfa scenario"):
        make_plan("sfa", scenarios=["furbal"])
    with pytest.raises(DogfightError, match="no section"):
        make_plan("sfa", sections=["unit"])


def part(p: float) -> RulePart:
    comparison: Any = None
    return RulePart(
        option="o",
        value="v",
        scenario="s",
        comparison=comparison,
        changed=1,
        effect=0.1,
        p_value=p,
    )


def test_q_values_follow_benjamini_hochberg() -> None:
    qs = [r.q_value for r in adjusted([part(0.01), part(0.04), part(0.03), part(0.5)])]
    assert qs == pytest.approx([0.04, 0.0533333, 0.0533333, 0.5], rel=1e-4)


def test_scenario_verdicts_tell_force_from_place() -> None:
    strong, weak = interval(18, 20), interval(2, 20)
    assert "force" in scenario_verdict(
        ["A", "B"], {"A": strong, "B": weak}, {"A": strong, "B": weak}
    )
    assert "place" in scenario_verdict(
        ["A", "B"], {"A": strong, "B": weak}, {"A": weak, "B": strong}
    )
    even = interval(10, 20)
    assert scenario_verdict(["A", "B"], {"A": even, "B": even}, {"A": even, "B": even}).startswith(
        "No side"
    )


@pytest.mark.parametrize("ruleset", ["acta", "evo", "sfa"])
def test_a_small_report_for_each_ruleset(tmp_path: Path, ruleset: str) -> None:
    """What CI runs for each ruleset: the command, its HTML and its JSON."""
    scenario = {"acta": "furball", "evo": "skirmish", "sfa": "fighter-duel"}[ruleset]
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        app,
        [
            "report",
            ruleset,
            "--quick",
            "--battles",
            "1",
            "--scenario",
            scenario,
            "--sections",
            "scenarios,rules",
            "--players",
            "random",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout[result.stdout.index("{") :])
    assert figures["plan"]["ruleset"] == ruleset
    assert figures["scenarios"][0]["scenario"] == scenario
    assert len(figures["rules"]) == len(figures["plan"]["arms"])
    page = out.read_text()
    assert '<section id="rules">' in page and "<svg" in page
    assert figures["plan"]["quick"] and "quick</b> report" in page  # it says so


def test_the_report_opens_in_chromium(tmp_path: Path, made: report_module.Report) -> None:
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing (CI installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "report.html"
    page_file.write_text(render(made))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.route(
                "**/*",
                lambda route: (
                    route.abort()
                    if not route.request.url.startswith("file:")
                    else route.continue_()
                ),
            )
            page.goto(page_file.as_uri())
            for section in ("summary", "scenarios", "rules", "run"):
                assert page.locator(f"section#{section} h2").count() == 1, section
            assert page.locator("section#scenarios svg").count() >= 1
            assert page.locator("section#rules table tbody tr").count() == len(made.rules)
            assert page.locator("section#run").inner_text().count("fighter-duel") >= 1
        finally:
            browser.close()


def test_the_units_section_opens_in_chromium(tmp_path: Path) -> None:
    """The round robin's tables and its heatmap (one per basis), drawn in the page."""
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing (CI installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    plan = make_plan("acta", players="random", battles=2, sections=["units"])
    made = run_report(msgspec.structs.replace(plan, units=plan.units[:3]), jobs=1)
    assert made.units is not None
    bases = [b for b in (made.units.equal_numbers, made.units.equal_points) if b is not None]
    page_file = tmp_path / "report.html"
    page_file.write_text(render(made))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(page_file.as_uri())
            units = page.locator("section#units")
            assert units.locator("h2").inner_text() == "Units"
            assert units.locator("svg").count() == len(bases)
            # each basis's table ranks the three types, strongest first
            first_table = units.locator("table").first
            assert first_table.locator("tbody tr").count() == 3
            ranked = sorted(bases[0].strengths, key=lambda s: -s.rating)
            shown = first_table.locator("tbody tr td:first-child").all_inner_texts()
            assert shown == [s.unit for s in ranked]
        finally:
            browser.close()


def test_the_cli_refuses_bad_arguments(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["report", "sfa", "--out", str(tmp_path / "r.txt")])
    assert bad.exit_code != 0 and "HTML" in bad.output
    kind = runner.invoke(
        app, ["report", "sfa", "--players", "genius", "--out", str(tmp_path / "r.html")]
    )
    assert kind.exit_code != 0 and "no player kind" in kind.output
