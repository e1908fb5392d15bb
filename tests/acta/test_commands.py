"""The acta ruleset's own commands (rulesets/acta/commands.py) print what the
hand-written CLI commands printed.

The expected outputs in cli_outputs/ were captured from the CLI before the commands
moved into the ruleset (`COLUMNS=120 dogfight odds acta ...`, `dogfight import acta
...`; cli_outputs/cases.txt lists the command lines). Each test runs the Command's
`run` with the parameters the CLI would pass (the declared defaults, then the given
ones) and renders the Report by the CLI's contract: a str block is one line, a Table
goes through cli/output.print_table, --json prints `report.json`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer

from dogfight.cli import output as out
from dogfight.core.errors import DogfightError
from dogfight.core.hooks import Command, Report, Table
from dogfight.core.options import resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.rulesets.acta.ruleset import ActaRuleset

OUTPUTS = Path(__file__).parent / "cli_outputs"


def acta() -> ActaRuleset:
    ruleset = find_ruleset("acta")
    assert isinstance(ruleset, ActaRuleset)
    return ruleset


def command(group: str, name: str) -> Command:
    [found] = [c for c in acta().commands() if c.group == group and c.name == name]
    return found


def run(cmd: Command, given: dict[str, Any], rules: dict[str, object] | None = None) -> Report:
    """`cmd.run` with the declared defaults overridden by `given`, as the CLI calls it."""
    params: dict[str, Any] = {p.name: p.default for p in cmd.params}
    if "fleet_of" in params and params["fleet_of"] is None:
        params["fleet_of"] = []  # a repeatable option arrives as a (possibly empty) list
    if cmd.takes_plot:
        params["plot"] = None
    params.update(given)
    options = resolve_options(acta().options, (rules or {}, "--rule"))
    return cmd.run(params, options)


def render(report: Report, capsys: pytest.CaptureFixture[str], *, json_out: bool) -> str:
    """What the CLI prints for the report (the plot itself is the CLI's to draw)."""
    capsys.readouterr()
    if json_out:
        out.print_json(report.json)
    else:
        for block in report.blocks:
            if isinstance(block, Table):
                out.print_table(list(block.header), block.rows)
            else:
                typer.echo(block)
    return capsys.readouterr().out


def expected(name: str) -> str:
    return (OUTPUTS / name).read_text(encoding="utf-8")


ODDS_CASES = [
    ("dogfight_plain", "dogfight", {"attacker": "wasp", "defender": "zaresh"}, {}, False),
    (
        "dogfight_support",
        "dogfight",
        {
            "attacker": "wasp",
            "defender": "zaresh",
            "attacker_support": 1,
            "defender_support": 2,
            "defender_drones": True,
        },
        {"dogfight_tie": "reroll", "dogfight_loser": "damage"},
        False,
    ),
    (
        "dogfight_json",
        "dogfight",
        {"attacker": "zaresh", "defender": "wasp", "attacker_drones": True},
        {},
        True,
    ),
    (
        "attack_fighter",
        "attack",
        {
            "firer": "kavrik",
            "weapon": "Phaser-3",
            "target": "wasp",
            "range_inches": 3.0,
            "moved": False,
        },
        {},
        False,
    ),
    (
        "attack_fighter_json",
        "attack",
        {"firer": "zaresh", "weapon": "phaser-3f", "target": "wasp", "range_inches": 1.5},
        {},
        True,
    ),
    (
        "attack_ship",
        "attack",
        {"firer": "tiger", "weapon": "Photon Torpedo", "target": "kavrik", "range_inches": 10.0},
        {},
        False,
    ),
    (
        "attack_ship_b5_json",
        "attack",
        {"firer": "tiger", "weapon": "Phaser-1 PH", "target": "kavrik", "range_inches": 2.0},
        {"resolution": "b5"},
        True,
    ),
    (
        "attack_drone",
        "attack",
        {"firer": "zaresh", "weapon": "Drone", "target": "tiger"},
        {},
        False,
    ),
]


@pytest.mark.parametrize(("case", "kind", "given", "rules", "json_out"), ODDS_CASES)
def test_odds_commands_print_what_the_cli_printed(
    case: str,
    kind: str,
    given: dict[str, Any],
    rules: dict[str, object],
    json_out: bool,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ACTA-DOG-5/6 (dogfight) and ACTA-ATK-2, ACTA-FTR-6, ACTA-DMG-* (attack): the
    ruleset's odds commands give today's text and --json, byte for byte."""
    report = run(command("odds", kind), given, rules)
    assert render(report, capsys, json_out=json_out) == expected(f"{case}.out")


@pytest.mark.parametrize(
    ("case", "kind", "given"),
    [
        ("dogfight_ship", "dogfight", {"attacker": "wasp", "defender": "kavrik"}),
        (
            "dogfight_nodrones",
            "dogfight",
            {"attacker": "wasp", "defender": "zaresh", "attacker_drones": True},
        ),
        (
            "attack_far",
            "attack",
            {"firer": "zaresh", "weapon": "Drone", "target": "tiger", "range_inches": 40.0},
        ),
        ("attack_noweapon", "attack", {"firer": "zaresh", "weapon": "Disruptor", "target": "wasp"}),
    ],
)
def test_odds_commands_refuse_bad_input_with_todays_message(
    case: str, kind: str, given: dict[str, Any]
) -> None:
    """Bad input is refused with the message the CLI printed after 'error: '."""
    with pytest.raises(DogfightError) as info:
        run(command("odds", kind), given)
    assert f"error: {info.value}\n" == expected(f"{case}.err")


def test_odds_json_names_the_plot_and_the_report_carries_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With --plot the JSON names the file, and the report holds the distribution the
    CLI draws (it prints 'Plot: FILE' itself, after the blocks)."""
    plot = Path("/tmp/cap/d.png")
    report = run(
        command("odds", "dogfight"), {"attacker": "wasp", "defender": "zaresh", "plot": plot}
    )
    assert render(report, capsys, json_out=True) == expected("plot_json.out")
    assert report.plot is not None
    assert sum(report.plot.odds.values()) == 1
    attack = run(
        command("odds", "attack"), {"firer": "zaresh", "weapon": "phaser-3f", "target": "wasp"}
    )
    text = render(attack, capsys, json_out=False) + "Plot: /tmp/cap/a.png\n"
    assert text == expected("plot_text.out")
    assert attack.plot is not None and attack.plot.xlabel == "damage points"


def test_import_acta_prints_what_the_cli_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`import acta` writes the unit files and lists them as today, text and --json."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "craft.txt").write_text(expected("craft.txt"), encoding="utf-8")
    cmd = command("import", "acta")
    assert not cmd.takes_rules
    text = run(
        cmd,
        {
            "file": Path("craft.txt"),
            "out_dir": Path("o1"),
            "fleet_of": ["zul=Klingon"],
            "origin": "seed",
        },
    )
    assert render(text, capsys, json_out=False) == expected("import_text.out")
    assert "fleet: Klingon" in (tmp_path / "o1" / "zul.yaml").read_text(encoding="utf-8")
    data = run(
        cmd,
        {"file": Path("craft.txt"), "out_dir": Path("o2"), "fleet": "Kzinti", "source": "a test"},
    )
    assert render(data, capsys, json_out=True) == expected("import_json.out")
    with pytest.raises(DogfightError) as info:
        run(cmd, {"file": Path("craft.txt"), "out_dir": Path("o1")})
    assert f"error: {info.value}\n" == expected("import_exists.err")
    with pytest.raises(DogfightError) as info:
        run(cmd, {"file": Path("craft.txt"), "out_dir": Path("o1"), "origin": "canon"})
    assert f"error: {info.value}\n" == expected("import_origin.err")


def test_command_declarations_keep_todays_names_defaults_and_flags() -> None:
    """Every parameter keeps the hand-written command's name, default and spelling."""
    dogfight = command("odds", "dogfight")
    assert [p.name for p in dogfight.params] == [
        "attacker",
        "defender",
        "attacker_support",
        "defender_support",
        "attacker_drones",
        "defender_drones",
    ]
    assert dogfight.takes_plot and dogfight.takes_rules
    attack = {p.name: p for p in command("odds", "attack").params}
    assert attack["range_inches"].flags == ("--range",)
    assert attack["moved"].flags == ("--moved/--not-moved",) and attack["moved"].default is True
    imports = {p.name: p for p in command("import", "acta").params}
    assert imports["out_dir"].flags == ("--out",) and imports["out_dir"].default == Path(".")
    assert imports["fleet_of"].flags == ("--fleet-of",)
    assert imports["origin"].default == "original" and imports["fleet"].default == "Unknown"
