"""The sfa ruleset's own commands (`odds sfa pool`, `design sfa`, `import trinity`):
their reports, rendered as the CLI renders a Report, print exactly what the commands
printed before they moved into the ruleset (captured from the CLI of commit b57b7c8
into tests/sfa/cli_expected/), text and --json alike."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from dogfight.cli import ruleset_commands
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.hooks import Report
from dogfight.core.options import resolve_options
from dogfight.core.registry import find_ruleset

EXPECTED = Path(__file__).parent / "cli_expected"


def render(report: Report) -> None:
    """Print a report as the CLI does (its own renderer, text form)."""
    ruleset_commands.render(report, None, json_out=False)


def command(group: str, name: str) -> Any:
    found = [c for c in find_ruleset("sfa").commands() if (c.group, c.name) == (group, name)]
    assert len(found) == 1
    return found[0]


def run(group: str, name: str, rules: dict[str, Any] | None = None, **params: Any) -> Report:
    """A command's report, with every parameter not given at its default."""
    cmd = command(group, name)
    values = {p.name: p.default for p in cmd.params}
    values.update(params)
    options = resolve_options(find_ruleset("sfa").options, (rules or {}, "--rule"))
    report: Report = cmd.run(values, options)
    return report


def text(report: Report, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    render(report)
    return capsys.readouterr().out


def as_json(report: Report, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    ruleset_commands.render(report, None, json_out=True)
    return capsys.readouterr().out


@pytest.fixture(autouse=True)
def _piped(monkeypatch: pytest.MonkeyPatch) -> None:
    # The captured outputs were printed to a pipe with no COLUMNS set.
    monkeypatch.delenv("COLUMNS", raising=False)


def expected(name: str) -> str:
    return (EXPECTED / name).read_text(encoding="utf-8")


def test_the_ruleset_offers_its_four_commands() -> None:
    names = {(c.group, c.name) for c in find_ruleset("sfa").commands()}
    assert names == {("odds", "pool"), ("design", "sfa"), ("import", "trinity"), ("tactics", "sfa")}
    pool = command("odds", "pool")
    assert pool.takes_rules and pool.takes_plot
    assert [p.name for p in pool.params] == ["dice", "willpower", "difficulty"]
    design = command("design", "sfa")
    assert [p.name for p in design.params] == [
        "file",
        "weapon_points",
        "power_points",
        "accessory_points",
        "upscale_budgets",
        "fire_link",
        "out_of_scale",
    ]
    trinity = command("import", "trinity")
    assert [p.flags for p in trinity.params if p.name == "out_dir"] == [("--out",)]


def test_pool_prints_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    """SFA-ATK-3: `dogfight odds sfa pool 5`, text and --json."""
    report = run("odds", "pool", dice=5)
    assert text(report, capsys) == expected("pool5.txt")
    assert as_json(report, capsys) == expected("pool5.json")
    assert report.plot is not None and report.plot.xlabel == "net successes"


def test_pool_with_willpower_and_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    """SFA-ATK-5: `dogfight odds sfa pool 3 --willpower --difficulty 8`."""
    report = run("odds", "pool", dice=3, willpower=True, difficulty=8)
    assert text(report, capsys) == expected("pool3w.txt")


def test_pool_lists_changed_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    report = run("odds", "pool", rules={"zero_destroys": "true"}, dice=4)
    assert as_json(report, capsys) == expected("pool4_rule.json")


def test_pool_passes_the_plot_path_into_its_json() -> None:
    report = run("odds", "pool", dice=2, plot=Path("odds.png"))
    assert report.json["plot"] == "odds.png"


@pytest.mark.parametrize(
    ("dice", "difficulty", "message"),
    [
        (0, 6, "a pool has at least one die, not 0"),
        (3, 1, "difficulty must be 2..10, got 1"),
        (201, 6, "201 dice is too many to count exactly (at most 200)"),
    ],
)
def test_pool_refuses_bad_input(dice: int, difficulty: int, message: str) -> None:
    with pytest.raises(DogfightError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run("odds", "pool", dice=dice, difficulty=difficulty)


def test_design_prints_the_card_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    """SFA-CON-1: `dogfight design sfa rebel-fighter`, text and --json."""
    report = run("design", "sfa", file="rebel-fighter")
    assert text(report, capsys) == expected("design_rebel.txt")
    assert as_json(report, capsys) == expected("design_rebel.json")


def test_design_readings_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    """SFA-CON-3: the Storyteller's readings and budgets."""
    report = run(
        "design",
        "sfa",
        file="rebel-frigate",
        fire_link="weapon",
        out_of_scale="example",
        weapon_points=3,
        upscale_budgets=True,
    )
    assert text(report, capsys) == expected("design_frig.txt")
    report = run(
        "design", "sfa", file="rebel-frigate", fire_link="weapon", out_of_scale="example",
        weapon_points=3,
    )  # fmt: skip
    assert as_json(report, capsys) == expected("design_frig.json")


def test_design_refuses_an_unknown_reading() -> None:
    fire_link = next(p for p in command("design", "sfa").params if p.name == "fire_link")
    assert fire_link.choices == ("group", "weapon")  # the CLI refuses any other value
    with pytest.raises(DataError, match="nosuch: no such file"):
        run("design", "sfa", file="nosuch")


def test_import_trinity_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 003, Appendix 2: `dogfight import trinity hybrid.yaml --out out1`, then
    --json into out2, then a refusal to overwrite."""
    shutil.copy(EXPECTED / "hybrid.yaml", tmp_path / "hybrid.yaml")
    monkeypatch.chdir(tmp_path)
    report = run("import", "trinity", file=Path("hybrid.yaml"), out_dir=Path("out1"))
    assert text(report, capsys) == expected("trin.txt")
    assert (tmp_path / "out1" / "hybrid.yaml").exists()
    report = run("import", "trinity", file=Path("hybrid.yaml"), out_dir=Path("out2"))
    assert as_json(report, capsys) == expected("trin.json")
    with pytest.raises(DataError, match="already exists"):
        run("import", "trinity", file=Path("hybrid.yaml"), out_dir=Path("out1"))
    again = run("import", "trinity", file=Path("hybrid.yaml"), out_dir=Path("out1"), overwrite=True)
    assert json.loads(json.dumps(again.json))["written"] == "out1/hybrid.yaml"
