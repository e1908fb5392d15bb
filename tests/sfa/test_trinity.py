"""Converting Trinity vehicles to SFA craft (seed 003, Appendix 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dogfight.core.errors import DataError
from dogfight.rulesets.sfa.construction import check_design
from dogfight.rulesets.sfa.craft import STARFIGHTER, STARSHIP, load_craft_file
from dogfight.rulesets.sfa.trinity import convert_trinity, craft_yaml, load_trinity_file

# The worked example of docs/sfa-construction.md (our own numbers, not a Trinity vehicle).
EXAMPLE = """\
name: Example Hybrid Fighter
vt: Hybrid Fighter
tech: Hardtech
vs: 4
handling: 2
soak: 3 [Defense Add 5]
construction_points: 45
weapons:
- {name: Pulse Laser, accuracy: 3, damage: 7, scale: 5, count: 2, fire_linked: true}
- {name: Smart Missile, accuracy: 2, damage: 8}
"""

SHIP: dict[str, Any] = {
    "name": "Example Frigate",
    "vt": "Frigate",
    "vs": 2,
    "handling": -1,
    "soak": 4,
    "crew": 40,
    "structure": 12,
    "power": 6,
    "construction_points": 100,
    "weapons": [
        {"name": "Heavy Laser Battery", "accuracy": 4, "damage": 12, "scale": "[10]"},
        {"name": "Mass Driver", "accuracy": 1, "damage": 6, "scale": 5, "turret": True},
        {"name": "Fusion Warhead", "accuracy": 0, "damage": 20},
    ],
}


def example(tmp_path: Path) -> Path:
    path = tmp_path / "example-fighter.yaml"
    path.write_text(EXAMPLE, encoding="utf-8")
    return path


def test_worked_example(tmp_path: Path) -> None:
    conversion = load_trinity_file(example(tmp_path))
    craft = conversion.craft
    assert craft.id == "example-fighter"
    assert craft.origin == "converted"
    assert craft.scale == STARFIGHTER  # Hybrid Fighter (and Defense Add 5 agrees)
    assert (craft.move, craft.handling, craft.soak) == (4, 2, 3)
    assert (craft.structure, craft.power) == (10, 0)  # not Trinity stats: defaults
    laser, missile = craft.weapons
    # Accuracy 3 + Damage 7 = +10: nearest laser is the Medium Laser; Speed +0.
    assert (laser.kind, laser.attack, laser.speed, laser.range, laser.scale) == (
        "medium_laser",
        10,
        0,
        7,
        STARFIGHTER,
    )
    assert laser.fire_linked and laser.count == 2 and not laser.custom
    # Smart Missiles are one scale above Starship.
    assert (missile.kind, missile.attack, missile.speed, missile.scale) == (
        "missile",
        10,
        0,
        STARSHIP + 1,
    )
    assert missile.custom  # Speed +0 instead of the table's -1
    assert conversion.resources == 2  # 45 / 30, rounded up
    assert any("Tech Hardtech" in note for note in conversion.notes)


def test_converted_craft_is_checked_like_any_other(tmp_path: Path) -> None:
    report = check_design(load_trinity_file(example(tmp_path)).craft)
    assert "weapon.larger_scale" in report.codes("breach")  # the smart missile
    assert "weapon.custom" in report.codes("breach")


def test_written_craft_file_loads_back(tmp_path: Path) -> None:
    conversion = load_trinity_file(example(tmp_path))
    out = tmp_path / "out" / "example-fighter.yaml"
    out.parent.mkdir()
    out.write_text(craft_yaml(conversion), encoding="utf-8")
    assert load_craft_file(out) == conversion.craft


def test_starship_conversion() -> None:
    conversion = convert_trinity(SHIP, "ship.yaml", default_id="ship")
    craft = conversion.craft
    assert craft.scale == STARSHIP
    battery, driver, warhead = craft.weapons
    assert (battery.kind, battery.attack, battery.scale) == ("heavy_laser", 16, STARSHIP)
    assert (driver.kind, driver.attack, driver.scale, driver.turret) == (
        "railgun",
        7,
        STARFIGHTER,
        True,
    )
    assert (warhead.kind, warhead.attack, warhead.scale) == ("missile", 20, STARSHIP + 4)
    assert conversion.resources == 7  # 100 / 15, rounded up
    assert (craft.structure, craft.power, craft.crew) == (12, 6, 40)


def test_scale_from_defense_add_alone_and_conflicts() -> None:
    data = {**SHIP, "vt": None, "soak": "4 [Defense Add 10]", "weapons": []}
    data = {k: v for k, v in data.items() if v is not None}
    assert convert_trinity(data, "x.yaml").craft.scale == STARSHIP
    clash = convert_trinity({**SHIP, "defense_add": 5, "weapons": []}, "x.yaml")
    assert clash.craft.scale == STARSHIP
    assert any("vehicle type wins" in note for note in clash.notes)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"vt": "Battlecruiser"}, "vt"),
        ({"vt": None}, "vt"),
        ({"soak": "lots"}, "soak"),
        ({"defense_add": 7}, "defense_add"),
        ({"soak": "4 [Defense Add 10]", "defense_add": 5}, "defense_add"),
        ({"construction_points": -1}, "construction_points"),
        ({"vs": None}, "vs"),
        ({"warp": 9}, "warp"),
        ({"weapons": [{"name": "Blaster", "accuracy": 1, "damage": 2}]}, "weapons[0].type"),
        (
            {"weapons": [{"name": "Laser", "accuracy": 1, "damage": 2, "type": "phaser"}]},
            "weapons[0].type",
        ),
        (
            {"weapons": [{"name": "Laser", "accuracy": 1, "damage": 2, "scale": "[3]"}]},
            "weapons[0].scale",
        ),
        ({"weapons": [{"name": "Laser", "damage": 2}]}, "weapons[0].accuracy"),
    ],
)
def test_errors_name_file_and_field(tmp_path: Path, changes: dict[str, Any], field: str) -> None:
    data = {k: v for k, v in {**SHIP, **changes}.items() if v is not None}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_trinity_file(path)
    assert str(info.value).startswith(f"{path}: field '{field}'")


def test_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- a\n", encoding="utf-8")
    with pytest.raises(DataError, match="must be a mapping"):
        load_trinity_file(path)
