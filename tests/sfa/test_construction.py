"""The SFA construction checker: budgets, out-of-scale costs, each seed craft's findings,
the stat card, and `dogfight design sfa`."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.console import Console
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.data import convert, package_data
from dogfight.rulesets.sfa.construction import (
    DesignReport,
    DesignRules,
    accessory_kind,
    best_priorities,
    card,
    check_design,
    weapon_cost,
)
from dogfight.rulesets.sfa.craft import Craft, CraftSpec, build_craft, find_craft

BASE: dict[str, Any] = {
    "id": "test",
    "name": "Test Craft",
    "scale": "Starfighter",
    "concept": "a test",
    "crew": 1,
    "handling": 0,
    "soak": 0,
    "move": 0,
    "power": 0,
    "structure": 10,
}


def make(**changes: Any) -> Craft:
    """A craft from BASE with `changes`."""
    return build_craft(convert({**BASE, **changes}, CraftSpec, "test"), "test")


def check(**changes: Any) -> DesignReport:
    return check_design(make(**changes))


def spent(report: DesignReport, name: str) -> tuple[int | float, int | float]:
    budget = report.budget(name)
    return budget.allowed, budget.spent


def breaches(report: DesignReport) -> list[str]:
    return report.codes("breach")


# ---- attributes and freebies -----------------------------------------------------------


def test_priorities_go_to_the_biggest_attributes() -> None:
    assert best_priorities(make(handling=0, soak=1, move=2)) == {
        "handling": 0,
        "soak": 1,
        "move": 2,
    }
    assert best_priorities(make(handling=2, soak=1, move=0)) == {
        "handling": 2,
        "soak": 1,
        "move": 0,
    }
    # Negative Handling never wastes priority dots.
    assert best_priorities(make(handling=-3, soak=2, move=1))["handling"] == 0


def test_a_design_within_the_priorities_costs_no_freebies() -> None:
    report = check(handling=2, soak=1, move=0, accessories=["Sensors", "Life Support"])
    # No weapons: the 5 unspent weapon points give 10 freebies.
    assert spent(report, "freebies") == (15 + 10, 0)
    assert report.conforming


def test_freebie_costs_per_dot() -> None:
    # Handling 3 (2 free + 1), Soak 2 (1 free + 1), Move 1 (0 free + 1): 3 x 5 = 15.
    assert spent(check(handling=3, soak=2, move=1), "freebies") == (25, 15)
    # Power costs 1 a dot; Structure 2 a point above 10.
    assert spent(check(power=5, structure=12), "freebies") == (25, 9)


def test_freebie_refunds_for_low_structure_and_handling() -> None:
    report = check(handling=-2, structure=7, soak=0, move=0)
    assert report.budget("freebies").allowed == 15 + 2 * 3 + 5 * 2 + 2 * 5


def test_unspent_weapon_points_become_freebies() -> None:
    report = check(weapons=[{"kind": "light_laser"}])  # 2 of 5 weapon points
    assert spent(report, "weapons") == (5, 2)
    assert report.budget("freebies").allowed == 15 + 2 * 3


def test_too_many_freebies_is_a_breach() -> None:
    report = check(handling=5, soak=5, move=5)
    assert "freebies.over" in breaches(report)
    assert not report.conforming
    assert report.budget("freebies").over


def test_extra_accessories_come_out_of_freebies() -> None:
    accessories = ["Sensors", "Life Support", "Landing Gear", "FTL (5)", "Legs (4)"]
    report = check(accessories=accessories)
    assert spent(report, "accessories") == (10, 12)
    assert spent(report, "freebies") == (25, 2)
    assert "accessories.extra" in report.codes("note")
    assert report.conforming


def test_ranges_are_breaches_but_load() -> None:
    report = check(handling=6, soak=6, move=6, power=11, structure=21)
    for field in ("handling", "soak", "move", "power", "structure"):
        assert f"range.{field}" in breaches(report)


def test_big_structure_is_allowed_on_a_starship() -> None:
    report = check(scale="Starship", structure=25, crew=30)
    assert "range.structure" in report.codes("note")
    assert "range.structure" not in breaches(report)


# ---- weapons ----------------------------------------------------------------------------


def test_weapon_costs_with_turret_and_fire_link() -> None:
    craft = make(
        scale="Starship",
        weapons=[
            {"kind": "heavy_laser", "count": 2, "turret": True},
            {"kind": "light_laser", "count": 2, "fire_linked": True},
            {"kind": "missile", "count": 3},
        ],
    )
    costs = [weapon_cost(w, craft.scale) for w in craft.weapons]
    assert costs == [2 * (6 + 1), 2 * 2 + 1, 3 * 4]  # turret +1 a weapon, link +1 a group


def test_smaller_scale_weapons_cost_a_fifth() -> None:
    # Two turreted starfighter Medium Lasers on a starship: 2 x (4 + 1) / 5 = 2 points.
    craft = make(
        scale="Starship",
        crew=20,
        weapons=[{"kind": "medium_laser", "count": 2, "turret": True, "scale": "Starfighter"}],
    )
    assert weapon_cost(craft.weapons[0], craft.scale) == 2
    report = check_design(craft)
    assert spent(report, "weapons") == (15, 2)
    assert "weapon.smaller_scale" in report.codes("note")
    # Two steps down: a 25th.
    sf = make(scale="Starship", weapons=[{"kind": "light_laser", "scale": "Street Fighter"}])
    assert weapon_cost(sf.weapons[0], sf.scale) == Fraction(2, 25)
    assert spent(check_design(sf), "weapons") == (15, 0.08)


def test_only_whole_weapon_points_are_exchanged() -> None:
    craft = make(weapons=[{"kind": "medium_laser", "scale": "Street Fighter"}])  # 4/5 point
    report = check_design(craft)
    assert spent(report, "weapons") == (5, 0.8)
    assert report.budget("freebies").allowed == 15 + 2 * 4


def test_larger_scale_weapon_is_a_breach() -> None:
    report = check(weapons=[{"kind": "heavy_laser", "scale": "Starship"}])
    assert "weapon.larger_scale" in breaches(report)


def test_weapon_budget_starfighter_and_starship() -> None:
    assert spent(check(weapons=[{"kind": "railgun", "count": 2}]), "weapons") == (5, 10)
    assert "weapons.over" in breaches(check(weapons=[{"kind": "railgun", "count": 2}]))
    assert spent(check(scale="Starship", crew=10), "weapons") == (15, 0)


def test_custom_and_lonely_fire_linked_weapons() -> None:
    report = check(weapons=[{"kind": "railgun", "attack": 14, "fire_linked": True}])
    assert {"weapon.custom", "weapon.fire_link_single"} <= set(breaches(report))
    # An override equal to the table is not custom.
    assert "weapon.custom" not in breaches(check(weapons=[{"kind": "railgun", "attack": 12}]))


# ---- technologies -------------------------------------------------------------------------


def test_power_point_budget() -> None:
    report = check(technologies=["stealth"], power=5)
    assert spent(report, "power points") == (5, 5)
    report = check(technologies=["stealth", "holo_projector"], power=5)
    assert "power_points.over" in breaches(report)
    report = check_design(
        make(technologies=["stealth", "holo_projector"], power=5), DesignRules(power_points=8)
    )
    assert "power_points.over" not in breaches(report)
    assert spent(check(scale="Starship", crew=10), "power points") == (10, 0)


def test_technology_that_needs_more_power_than_the_craft_has() -> None:
    assert "technology.no_power" in breaches(check(technologies=["death_blossom"], power=6))
    assert "technology.no_power" not in breaches(check(technologies=["death_blossom"], power=7))
    assert "technology.no_power" in breaches(check(technologies=["stealth"], power=0))
    assert "power.zero" in check(technologies=["enhanced_soak"]).codes("note")


def test_listed_costs_and_names() -> None:
    report = check(
        technologies=[
            {"name": "force_field", "points": 3},
            {"name": "enhanced_lasers", "written": "High Powered Lasers"},
        ],
        power=5,
    )
    assert report.codes("warning") == ["technology.cost_differs", "technology.undefined"]
    report = check(technologies=[{"name": "hangar_bay", "written": "15 vessel Hangar Bay"}])
    assert "technology.renamed" in report.codes("note")


def test_ai_points_must_add_up() -> None:
    good = check(
        crew=0,
        technologies=[{"name": "artificial_intelligence", "level": 2}],
        ai={"dexterity": 2, "piloting": 1, "gunnery": 1},
    )
    assert "ai.points" not in breaches(good)
    bad = check(
        crew=0,
        technologies=[{"name": "artificial_intelligence", "level": 2}],
        ai={"dexterity": 5},
    )
    assert "ai.points" in breaches(bad)


# ---- accessories and crew -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Airlock", "airlocks"),
        ("Communications", "communications_systems"),
        ("FTL", "ftl_drive"),
        ("additional Crew Quarters", "crew_quarters"),
        ("Science Laboratory", "science_laboratories"),
        ("Engine Access Panel", "engine_access_panels"),
        ("Additional Crew Stations", "crew_station"),
        ("Ejection Seat", None),
        ("Recreation Deck", None),
    ],
)
def test_accessory_names(name: str, kind: str | None) -> None:
    found = accessory_kind(name)
    assert (found.id if found else None) == kind


def test_accessory_rules() -> None:
    report = check(accessories=["Escape Pods", "FTL (6)", "Holodeck"])
    assert breaches(report) == [
        "accessory.wrong_scale",
        "accessory.too_many",
        "accessory.unknown",
    ]


def test_crew_rules() -> None:
    turrets = [{"kind": "light_laser", "count": 2, "turret": True}]
    assert "crew.too_few" in breaches(check(move=2, crew=2, weapons=turrets))
    assert "crew.too_few" not in breaches(check(move=2, crew=3, weapons=turrets))
    auto = check(move=2, crew=1, weapons=turrets, technologies=["auto_turrets"])
    assert "crew.too_few" not in breaches(auto)
    assert "crew.auto_turrets" in auto.codes("note")
    assert "crew.none" in breaches(check(crew=0))


def test_starship_crew_by_structure() -> None:
    assert "crew.starship_minimum" in breaches(check(scale="Starship", structure=12, crew=11))
    assert "crew.starship_minimum" not in breaches(check(scale="Starship", structure=12, crew=12))
    assert "crew.starship_maximum" in check(scale="Starship", structure=5, crew=51).codes("warning")
    # Starship + 1 multiplies by 5.
    big = check(scale="Starship + 1", structure=10, crew=49)
    assert "crew.starship_minimum" in breaches(big)
    assert "scale.above_starship" in big.codes("note")


# ---- the seed's example craft -------------------------------------------------------------


def seed(craft_id: str) -> DesignReport:
    return check_design(find_craft(craft_id))


def budgets(report: DesignReport) -> dict[str, tuple[int | float, int | float]]:
    return {b.name: (b.allowed, b.spent) for b in report.budgets}


def test_rebel_fighter() -> None:
    report = seed("rebel-fighter")
    assert breaches(report) == ["weapons.over", "accessory.unknown"]
    assert budgets(report) == {
        "weapons": (5, 9),  # 2 x 2 + 1 fire-link for the pair (SFA-CON-3) + missile 4
        "power points": (5, 3),
        "accessories": (10, 12),
        "freebies": (20, 12),  # 15 + 5 (Handling -1); Structure 15 (10) + 2 accessories
    }
    assert report.codes("warning") == ["technology.undefined"]  # High Powered Lasers
    assert "power.zero" in report.codes("note")
    assert not report.conforming


def test_rebel_frigate() -> None:
    report = seed("rebel-frigate")
    assert breaches(report) == ["weapons.over"]
    assert budgets(report) == {
        "weapons": (15, 18),  # 2 x (2 + 1 turret) + 3 missiles x 4
        "power points": (10, 8),
        "accessories": (20, 22),
        "freebies": (33, 29),  # 15 + 8 (Structure 6) + 10 (Handling -2)
    }
    assert report.codes("warning") == ["technology.undefined", "crew.starship_maximum"]


def test_alien_disk_fighter() -> None:
    report = seed("alien-disk-fighter")
    assert breaches(report) == [
        "power_points.over",
        "accessory.unknown",
        "accessory.unknown",
        "freebies.over",
    ]
    assert budgets(report) == {
        "weapons": (5, 5),
        "power points": (5, 7),  # Force Field 5 (listed 3) + Auto-Turrets 2
        "accessories": (10, 10),
        "freebies": (21, 25),  # Soak +1 (5), Move +2 (10), Power 10
    }
    messages = " ".join(f.message for f in report.findings)
    assert "Ejection Seat" in messages and "Science Station" in messages
    assert report.codes("warning") == ["technology.cost_differs"]
    assert "crew.too_few" not in breaches(report)  # Auto-Turrets man the turret


def test_alien_mothership() -> None:
    report = seed("alien-mothership")
    assert breaches(report) == ["freebies.over"]
    assert budgets(report) == {
        "weapons": (15, 15),
        "power points": (10, 10),  # Force Field 5 (listed 3) + Pi-Tac 5
        "accessories": (20, 22),
        "freebies": (35, 37),  # 15 + 20 (Handling -4); Soak +3, Move +1, Power 7, Structure +4, 2
    }
    assert report.codes("warning") == ["technology.cost_differs", "crew.starship_maximum"]


def test_federation_battlesat() -> None:
    report = seed("federation-battlesat")
    assert report.conforming
    assert breaches(report) == []
    assert report.codes("warning") == []
    assert budgets(report) == {
        "weapons": (5, 5),
        "power points": (5, 5),
        "accessories": (10, 0),
        "freebies": (15, 15),  # Soak +1 (5), Structure 15 (10)
    }
    assert "accessory.recommended" in report.codes("note")


def test_federation_space_station() -> None:
    report = seed("federation-space-station")
    assert breaches(report) == ["power_points.over", "accessory.unknown", "freebies.over"]
    assert budgets(report) == {
        "weapons": (15, 15),
        "power points": (10, 12),  # Force Field 5 (listed 3) + 2 + 3 + 2
        "accessories": (20, 20),
        "freebies": (20, 25),
    }
    assert "Recreation Deck" in " ".join(f.message for f in report.findings)
    assert report.codes("warning") == ["technology.cost_differs", "crew.starship_maximum"]


# ---- output -------------------------------------------------------------------------------


def test_report_as_dict_is_json() -> None:
    data = json.loads(json.dumps(seed("rebel-fighter").as_dict()))
    assert data["conforming"] is False
    assert data["craft"]["id"] == "rebel-fighter"
    assert data["budgets"][0]["name"] == "weapons" and data["budgets"][0]["left"] == -4
    assert {f["severity"] for f in data["findings"]} == {"breach", "warning", "note"}


def test_card_renders() -> None:
    console = Console(width=100, record=True)
    console.print(card(seed("alien-disk-fighter")))
    text = console.export_text()
    assert "Alien Disk-Fighter" in text
    assert "does not conform: 4 breach(es)" in text
    console = Console(width=100, record=True)
    console.print(card(seed("federation-battlesat")))
    assert "conforms to the construction rules" in console.export_text()


# ---- the command --------------------------------------------------------------------------

runner = CliRunner()


def test_design_sfa_builtin_and_file() -> None:
    result = runner.invoke(app, ["design", "sfa", "rebel-frigate"])
    assert result.exit_code == 0, result.output
    assert "Rebel Frigate" in result.stdout and "does not conform" in result.stdout
    path = package_data("sfa", "craft", "federation-battlesat.yaml")
    result = runner.invoke(app, ["design", "sfa", str(path)])
    assert result.exit_code == 0, result.output
    assert "conforms to the construction rules" in result.stdout


def test_design_sfa_json() -> None:
    result = runner.invoke(app, ["design", "sfa", "alien-mothership", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == "sfa" and data["conforming"] is False
    assert [f["code"] for f in data["findings"] if f["severity"] == "breach"] == ["freebies.over"]


def test_design_sfa_over_budget_homebrew_exits_zero(tmp_path: Path) -> None:
    path = tmp_path / "brick.yaml"
    path.write_text(
        yaml.safe_dump({**BASE, "id": "brick", "handling": 5, "soak": 5, "move": 5}),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["design", "sfa", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["conforming"] is False


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ({**BASE, "id": "bad", "structure": -3}, "field 'structure'"),
        ({**BASE, "id": "bad", "weapons": [{"kind": "blaster"}]}, "field 'weapons[0].kind'"),
        ({**BASE, "id": "bad", "technologies": ["warp"]}, "field 'technologies[0].name'"),
    ],
)
def test_design_sfa_malformed_file_fails(
    tmp_path: Path, content: dict[str, Any], words: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(content), encoding="utf-8")
    result = runner.invoke(app, ["design", "sfa", str(path)])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert str(path) in lines[0] and "craft 'bad'" in lines[0] and words in lines[0]


def test_design_sfa_missing_file() -> None:
    result = runner.invoke(app, ["design", "sfa", "no-such-craft.yaml"])
    assert result.exit_code == 1
    assert "no such file" in result.stderr


# ---- the Storyteller's choices (SFA-CON-1..4) ----------------------------------------------


def test_fire_link_costs_one_for_the_linked_group_SFA_CON_3() -> None:
    """SFA-CON-3: fire-linking costs +1 for the linked group."""
    # Seed table: Fire-Linked +1 "allows two or more weapons to be fired at the same
    # time", so the +1 buys the link: the Rebel Fighter's pair is 2 + 2 + 1 = 5.
    pair = make(weapons=[{"kind": "light_laser", "count": 2, "fire_linked": True}])
    assert weapon_cost(pair.weapons[0], pair.scale) == 5
    assert spent(check_design(pair), "weapons") == (5, 5)
    assert "weapons.over" not in breaches(check_design(pair))
    three = make(weapons=[{"kind": "light_laser", "count": 3, "fire_linked": True}])
    assert weapon_cost(three.weapons[0], three.scale) == 7
    # The other reading, +1 a weapon, is the Storyteller's option.
    per_weapon = DesignRules(fire_link="weapon")
    assert weapon_cost(pair.weapons[0], pair.scale, per_weapon) == 6
    assert "weapons.over" in breaches(check_design(pair, per_weapon))


def test_budgets_are_the_storytellers_SFA_CON_1() -> None:
    """SFA-CON-1: the Storyteller sets the weapon, Power Point and accessory budgets."""
    craft = make(
        technologies=["stealth", "holo_projector"],
        power=5,
        weapons=[{"kind": "railgun", "count": 2}],
        accessories=["Sensors", "Life Support", "Landing Gear"],
    )
    seed_report = check_design(craft)
    assert spent(seed_report, "weapons") == (5, 10)
    assert {"weapons.over", "power_points.over"} <= set(breaches(seed_report))
    report = check_design(craft, DesignRules(weapon_points=10, power_points=8, accessory_points=2))
    assert spent(report, "weapons") == (10, 10)
    assert spent(report, "power points") == (8, 6)
    assert spent(report, "accessories") == (2, 3)
    assert "weapons.over" not in breaches(report)
    assert "power_points.over" not in breaches(report)
    assert "accessories.extra" in report.codes("note")  # the third accessory costs a freebie
    with pytest.raises(ValueError, match="power_points"):
        DesignRules(power_points=-1)


def test_higher_scale_budgets_are_multiplied_on_request_SFA_CON_2() -> None:
    """SFA-CON-2: --upscale-budgets multiplies the budgets by 5 a step above Starship."""
    station = find_craft("federation-space-station")  # Starship + 1
    plain = check_design(station)
    assert spent(plain, "power points") == (10, 12)
    assert "power_points.over" in breaches(plain)
    up = check_design(station, DesignRules(upscale_budgets=True))
    assert budgets(up)["weapons"][0] == 75
    assert spent(up, "power points") == (50, 12)
    assert budgets(up)["accessories"][0] == 100
    assert "power_points.over" not in breaches(up)
    # A starship or starfighter is not changed by it.
    assert budgets(
        check_design(find_craft("rebel-frigate"), DesignRules(upscale_budgets=True))
    ) == (budgets(seed("rebel-frigate")))
    # An explicit budget wins over the multiplied one.
    assert spent(
        check_design(station, DesignRules(upscale_budgets=True, power_points=11)), "power points"
    ) == (11, 12)


def test_the_out_of_scale_contradiction_is_reported_and_an_option_SFA_CON_4() -> None:
    """SFA-CON-4: the seed's two prices for a smaller-scale weapon: noted, and an option."""
    # Seed: two turreted starfighter Medium Lasers on a starship "for 1 Weapon Point";
    # its divide-by-5 rule gives 2 x (4 + 1) / 5 = 2.
    craft = make(
        scale="Starship",
        crew=20,
        weapons=[{"kind": "medium_laser", "count": 2, "turret": True, "scale": "Starfighter"}],
    )
    arithmetic = check_design(craft)
    assert spent(arithmetic, "weapons") == (15, 2)
    notes = [f for f in arithmetic.findings if f.code == "seed.out_of_scale_contradiction"]
    assert len(notes) == 1
    assert "2 by dividing the price by 5, 1 by its worked example" in notes[0].message
    assert "arithmetic reading" in notes[0].message
    example = check_design(craft, DesignRules(out_of_scale="example"))
    assert spent(example, "weapons") == (15, 1)
    assert "example reading" in next(
        f.message for f in example.findings if f.code == "seed.out_of_scale_contradiction"
    )
    # A weapon at the craft's own scale is not affected and gets no note.
    own = make(weapons=[{"kind": "medium_laser"}])
    assert "seed.out_of_scale_contradiction" not in check_design(own).codes()
    assert spent(check_design(own, DesignRules(out_of_scale="example")), "weapons") == (5, 4)


def test_design_cli_takes_the_storytellers_options(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["design", "sfa", "alien-disk-fighter", "--power-points", "7", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"]["power_points"] == 7
    power = next(b for b in data["budgets"] if b["name"] == "power points")
    assert (power["allowed"], power["spent"], power["over"]) == (7, 7, False)
    result = runner.invoke(
        app, ["design", "sfa", "rebel-fighter", "--fire-link", "weapon", "--json"]
    )
    weapons = next(b for b in json.loads(result.stdout)["budgets"] if b["name"] == "weapons")
    assert weapons["spent"] == 10
    bad = runner.invoke(app, ["design", "sfa", "rebel-fighter", "--power-points", "-3"])
    assert bad.exit_code == 2 and "--power-points" in bad.output
    bad = runner.invoke(app, ["design", "sfa", "rebel-fighter", "--out-of-scale", "guess"])
    assert bad.exit_code == 2 and "--out-of-scale" in bad.output
