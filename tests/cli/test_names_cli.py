"""Unit, scenario, option and field names on the command line (issue 18 item 1): the
seed's printed names work wherever a unit is named, and near misses get "did you mean"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.data import package_data

runner = CliRunner()
FURBALL = package_data("acta", "scenarios", "furball.yaml")


def run(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def ok(*args: str | Path) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return str(result.stdout)


def refused(*args: str | Path) -> str:
    result = run(*args)
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return str(lines[0])


@pytest.mark.parametrize(
    ("ruleset", "name", "printed"),
    [
        ("acta", "zaresh", "Zaresh Superiority Fighter"),
        ("acta", "Zaresh", "Zaresh Superiority Fighter"),
        ("acta", "ZARESH", "Zaresh Superiority Fighter"),
        ("acta", "Z'keth", "Z'keth Assault Fighter"),
        ("acta", "Hornet", "Mǎfēng (Hornet) Assault Fighter"),
        ("acta", "Zaresh Superiority Fighter", "Zaresh Superiority Fighter"),
        ("acta", "Mǎfēng (Hornet) Assault Fighter", "Mǎfēng (Hornet) Assault Fighter"),
        ("acta", "Mafeng", "Mǎfēng (Hornet) Assault Fighter"),
        ("evo", "Nova", "Starfury Nova"),
        ("evo", "FRAZI HEAVY FIGHTER", "Frazi Heavy Fighter"),
        ("sfa", "Rebel Fighter", "Rebel Fighter"),
        ("sfa", "alien disk-fighter", "Alien Disk-Fighter"),
    ],
)
def test_show_takes_the_printed_names(ruleset: str, name: str, printed: str) -> None:
    assert ok("show", ruleset, name).splitlines()[0].strip() == printed


def test_show_refuses_an_ambiguous_name_listing_the_candidates() -> None:
    line = refused("show", "evo", "Starfury")
    assert line.startswith("error: 'Starfury' could be more than one evo unit: ")
    assert "starfury-aurora (Starfury Aurora)" in line and "starfury-nova (Starfury Nova)" in line


def test_show_says_did_you_mean() -> None:
    line = refused("show", "acta", "zaresj")
    assert line.startswith("error: no acta unit 'zaresj' (did you mean 'zaresh'?); known: crane")


def test_odds_takes_the_printed_names() -> None:
    by_id = ok("odds", "acta", "dogfight", "zaresh", "hummingbird")
    by_name = ok("odds", "acta", "dogfight", "ZARESH", "Fēngniǎo (Hummingbird) Interceptor")
    assert by_name == by_id
    by_id = ok("odds", "acta", "attack", "hornet", "Photon-F", "mantis")
    assert ok("odds", "acta", "attack", "Mǎfēng", "Photon-F", "Mantis") == by_id


def test_duel_and_balance_take_the_printed_names() -> None:
    common = ["--battles", "2", "--ai", "random", "--jobs", "1"]
    by_id = ok("duel", "acta", "wasp", "zul", "--count", "1v1", *common)
    by_name = ok("duel", "acta", "Wasp", "Zul Space Superiority Fighter", "--count", "1v1", *common)
    assert by_name == by_id
    assert "zul wins" in by_name  # the id is what the report names
    line = refused("duel", "acta", "Wasp", "huangfeng", *common)
    assert line == "error: unit types named more than once: wasp"
    by_id = ok("balance", "acta", "wasp", "zul", "--count", "1", *common, "--json")
    assert ok("balance", "acta", "WASP", "Zul", "--count", "1", *common, "--json") == by_id


def test_a_scenario_type_takes_the_printed_names(tmp_path: Path) -> None:
    raw = yaml.safe_load(FURBALL.read_text())
    named = yaml.safe_load(FURBALL.read_text())
    for side in named["sides"]:
        for unit in side["units"]:
            unit["type"] = {
                "wasp": "Huángfēng (Wasp) Fighter-Bomber",
                "hummingbird": "HUMMINGBIRD",
                "zaresh": "Zaresh",
                "zul": "Zul Space Superiority Fighter",
            }[unit["type"]]
    plain, fancy = tmp_path / "plain.yaml", tmp_path / "fancy.yaml"
    plain.write_text(yaml.safe_dump(raw))
    fancy.write_text(yaml.safe_dump(named))
    assert ok("battle", fancy, "--json").replace("fancy", "plain") == ok("battle", plain, "--json")
    named["sides"][0]["units"][0]["type"] = "Waps"
    fancy.write_text(yaml.safe_dump(named))
    line = refused("validate", fancy)
    assert "field 'sides[0].units[0].type': no acta unit 'Waps' (did you mean 'wasp'?)" in line


def test_unknown_scenario_option_and_field_names_get_did_you_mean(tmp_path: Path) -> None:
    line = refused("battle", "furbal")
    assert line.startswith(
        "error: no scenario file or built-in scenario 'furbal' (did you mean 'furball'?); built-in:"
    )
    line = refused("battle", "furball", "--rule", "dogfight_ti=reroll")
    assert "unknown rule option 'dogfight_ti' (did you mean 'dogfight_tie'" in line
    raw = yaml.safe_load(FURBALL.read_text())
    raw["sides"][0]["units"][0]["headng"] = raw["sides"][0]["units"][0].pop("heading")
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw))
    assert refused("validate", path).endswith(
        "field 'sides[0].units[0].headng': unknown field (did you mean 'heading'?)"
    )
    raw = yaml.safe_load(FURBALL.read_text())
    raw["turnlimit"] = raw.pop("turn_limit")
    path.write_text(yaml.safe_dump(raw))
    assert refused("validate", path).endswith(
        "field 'turnlimit': unknown field (did you mean 'turn_limit'?)"
    )
    assert refused("units", "acts") == (
        "error: no ruleset 'acts' (did you mean 'acta'?); known rulesets: acta, evo, sfa"
    )


RENAMES = {
    "starfury-aurora": "STARFURY AURORA",
    "starfury-nova": "Nova",
    "frazi": "Frazi Heavy Fighter",
    "rebel-fighter": "rebel fighter",
    "alien-disk-fighter": "Alien Disk-Fighter",
    "brawler": "Brawler",
    "reogi": "REOGI",
    "thug": "Street Thug (original)",
}


def _renamed(node: Any) -> Any:
    """The scenario data with every unit `type:` given by a printed name instead."""
    if isinstance(node, dict):
        return {
            k: RENAMES.get(v, v) if k == "type" and isinstance(v, str) else _renamed(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_renamed(v) for v in node]
    return node


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [("evo", "skirmish"), ("sfa", "fighter-duel"), ("sfa", "street-brawl")],
)
def test_evo_and_sfa_scenario_types_take_the_printed_names(
    tmp_path: Path, ruleset: str, scenario: str
) -> None:
    raw = yaml.safe_load(package_data(ruleset, "scenarios", f"{scenario}.yaml").read_text())
    renamed = _renamed(raw)
    assert renamed != raw
    plain, fancy = tmp_path / "plain.yaml", tmp_path / "fancy.yaml"
    plain.write_text(yaml.safe_dump(raw))
    fancy.write_text(yaml.safe_dump(renamed))
    assert ok("battle", fancy, "--quiet") == ok("battle", plain, "--quiet").replace(
        "plain.yaml", "fancy.yaml"
    )


def test_design_sfa_takes_a_built_in_craft_by_name() -> None:
    by_name = ok("design", "sfa", "Rebel Fighter", "--json")
    by_id = ok("design", "sfa", "rebel-fighter", "--json")
    assert by_name.replace('"file": "Rebel Fighter"', '"file": "rebel-fighter"') == by_id
    line = refused("design", "sfa", "rebel-figher")
    assert line.startswith(
        "error: rebel-figher: no such file, and no sfa craft 'rebel-figher' (did you mean"
    )


def test_unknown_sides_and_player_kinds_get_did_you_mean() -> None:
    line = refused("battle", "furball", "--ai", "Empir=random", "--quiet")
    assert "no side 'Empir' in this scenario (did you mean 'Empire'?); sides: Empire" in line
    line = refused("battle", "furball", "--ai", "Empire=rando", "--quiet")
    assert "no player kind 'rando' (did you mean 'random'?)" in line
