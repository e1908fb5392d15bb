"""`dogfight odds evo attack` as the ruleset's own Command: its report, rendered as the
CLI renders it, prints exactly what the command printed before it moved (the expected
texts in cli_expected/ were captured from `dogfight odds evo attack ...` then)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dogfight.cli.output import print_json, print_table
from dogfight.core.errors import DogfightError
from dogfight.core.hooks import Command, Report, Table
from dogfight.core.options import resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.rulesets.evo.commands import MAX_ODDS_MODELS

EXPECTED = Path(__file__).parent / "cli_expected"


def command() -> Command:
    (found,) = [c for c in find_ruleset("evo").commands() if c.name == "attack"]
    return found


def run(*args: str, rules: dict[str, object] | None = None, **params: Any) -> Report:
    """Run the command as the CLI would: parameters by name (defaults filled in), the
    rule options in force."""
    cmd = command()
    values = {p.name: p.default for p in cmd.params}
    values.update(zip(["firer", "weapon", "target"], args, strict=True))
    values.update(params)
    values.setdefault("plot", None)
    for p in cmd.params:
        if p.check is not None:
            p.check(values[p.name])
    options = resolve_options(find_ruleset("evo").options, (rules or {}, "--rule"))
    return cmd.run(values, options)


def render(report: Report, *, json: bool = False) -> None:
    """The rendering contract: str blocks as lines, tables through print_table."""
    if json:
        print_json(report.json)
        return
    for block in report.blocks:
        if isinstance(block, Table):
            print_table(block.header, block.rows)
        else:
            print(block)


CASES = {
    "six": (("razik", "Light particle gun", "sentri"), {"range_inches": 8.0, "six": True}, None),
    "default": (("thunderbolt", "Missile rack", "frazi"), {}, None),
    "stealth": (
        ("starfury-aurora", "twin pulse cannons", "nial"),
        {"range_inches": 12.0, "models": 2, "firers": 5},
        {"free_allocation": "spread"},
    ),
    "target": (
        ("razik", "Light particle gun", "sentri"),
        {"range_inches": 9.0},
        {"free_allocation": "target", "close_range": 8},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_text_as_before(case: str, capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    """EVO-SHT-4, EVO-STL-1, EVO-SIX-1: the text report is byte for byte today's."""
    monkeypatch.delenv("COLUMNS", raising=False)
    args, params, rules = CASES[case]
    render(run(*args, rules=rules, **params))
    assert capsys.readouterr().out == (EXPECTED / f"{case}_text.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", ["six", "default", "stealth"])
def test_json_as_before(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints today's object, "plot": null included."""
    args, params, rules = CASES[case]
    render(run(*args, rules=rules, **params), json=True)
    assert capsys.readouterr().out == (EXPECTED / f"{case}_json.txt").read_text(encoding="utf-8")


def test_plot_path_in_json_and_plot_values() -> None:
    """With --plot the JSON names the file and the report carries the distribution."""
    report = run("razik", "Light particle gun", "sentri", plot=Path("out.png"))
    assert report.json["plot"] == "out.png"
    assert report.plot is not None and report.plot.xlabel == "models removed"
    assert sum(report.plot.odds.values()) == 1


@pytest.mark.parametrize("flag", ["models", "firers"])
@pytest.mark.parametrize("value", [0, MAX_ODDS_MODELS + 1])
def test_flight_size_bound(flag: str, value: int) -> None:
    """--models and --firers are refused outside 1..12 with today's message."""
    with pytest.raises(ValueError) as err:
        run("razik", "Light particle gun", "sentri", **{flag: value})
    assert str(err.value) == (
        f"exact odds are worked out for 1 to 12 models, not {value} "
        "(the cost grows steeply with the flight; simulate bigger fights instead)"
    )


@pytest.mark.parametrize(
    ("args", "params", "message"),
    [
        (
            ("razik", "Laser", "sentri"),
            {},
            "evo unit 'razik' has no weapon 'Laser'; its weapons: Light particle gun",
        ),
        (
            ("razik", "Light particle gun", "sentri"),
            {"range_inches": 40.0},
            "Light particle gun of 'razik' reaches 12 inches; the target at 40 is out of range",
        ),
        (
            ("razik", "Light particle gun", "sentri"),
            {"range_inches": 11.0, "six": True},
            "--six needs the firers within close range (10 inches), not 11",
        ),
    ],
)
def test_bad_input_messages(args: tuple[str, ...], params: dict[str, Any], message: str) -> None:
    """Bad input: today's one-line messages."""
    with pytest.raises(DogfightError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run(*args, **params)


def test_params_as_today() -> None:
    """The parameters keep their names, flags, defaults and help."""
    params = {p.name: p for p in command().params}
    assert list(params) == [
        "firer", "weapon", "target", "range_inches", "six", "models", "firers",
    ]  # fmt: skip
    assert params["range_inches"].flags == ("--range",)
    assert params["six"].flags == ("--six",) and params["six"].default is False
    assert params["models"].help == (
        "Models in the target flight, 1 to 12 (default: its standard flight)."
    )
    assert params["firers"].help == "Models firing, 1 to 12 (default: the firer's standard flight)."
    assert command().takes_plot and command().group == "odds"
