"""SFA craft data: the stat block schema, the tables, pilots, the catalog and bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from dogfight.core.errors import DataError, UnknownName
from dogfight.rulesets.sfa.craft import (
    ACE,
    MISSILE,
    PILOT_TEMPLATES,
    REGULAR,
    ROOKIE,
    STARFIGHTER,
    STARSHIP,
    STREET_FIGHTER,
    TECHNOLOGIES,
    VETERAN,
    WEAPON_KINDS,
    AiSpec,
    CraftSpec,
    ai_pilot,
    ai_split,
    build_craft,
    catalog,
    describe,
    find_craft,
    load_craft_file,
    parse_accessory,
    parse_scale,
    pilot_template,
    scale_label,
    technology_kind,
    upscale_factor,
    weapon_kind,
)

SEED_CRAFT = (
    "alien-disk-fighter",
    "alien-mothership",
    "federation-battlesat",
    "federation-space-station",
    "rebel-fighter",
    "rebel-frigate",
)

BASE: dict[str, Any] = {
    "id": "test",
    "name": "Test Craft",
    "scale": "Starfighter",
    "handling": 0,
    "soak": 2,
    "move": 3,
    "power": 5,
    "structure": 10,
}


def write(tmp_path: Path, data: dict[str, Any] | str, name: str = "test") -> Path:
    """A craft file in tmp_path (a dict is dumped as YAML)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data), encoding="utf-8")
    return path


def craft_error(tmp_path: Path, **changes: Any) -> str:
    """The DataError message for BASE with `changes` (None deletes a field)."""
    data = {**BASE, **changes}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(DataError) as info:
        load_craft_file(write(tmp_path, data))
    return str(info.value)


# ---- scale ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("Street Fighter", STREET_FIGHTER),
        ("Streetfighter", STREET_FIGHTER),
        ("Starfighter", STARFIGHTER),
        ("Fighter", STARFIGHTER),
        ("fighter", STARFIGHTER),
        ("Starship", STARSHIP),
        ("Starship + 1", 3),
        ("starship+4", 6),
        (2, STARSHIP),
    ],
)
def test_parse_scale(text: str | int, level: int) -> None:
    assert parse_scale(text) == level


@pytest.mark.parametrize("text", ["Dreadnought", "Starfighter + 1", "", -1])
def test_parse_scale_refuses(text: str | int) -> None:
    with pytest.raises(ValueError):
        parse_scale(text)


def test_scale_ladder_is_ordered_and_labelled() -> None:
    assert STREET_FIGHTER < STARFIGHTER < STARSHIP < parse_scale("Starship + 1")
    assert [scale_label(n) for n in range(5)] == [
        "Street Fighter",
        "Starfighter",
        "Starship",
        "Starship + 1",
        "Starship + 2",
    ]
    assert [upscale_factor(n) for n in (1, 2, 3, 4)] == [1, 1, 5, 25]


# ---- tables ---------------------------------------------------------------------------


def test_weapon_table_matches_the_seed() -> None:
    table = {k.id: (k.speed, k.attack, k.range, k.cost) for k in WEAPON_KINDS.values()}
    assert table == {
        "light_laser": (1, 5, 5, 2),
        "medium_laser": (0, 10, 7, 4),
        "heavy_laser": (-2, 15, 10, 6),
        "railgun": (-1, 12, 8, 5),
        "missile": (-1, 10, 20, 4),
        "rocket_salvo": (1, 8, 5, 3),
    }
    assert WEAPON_KINDS["rocket_salvo"].damage_checks == 3
    assert WEAPON_KINDS["missile"].guided


def test_missile_facts_keep_both_pools() -> None:
    assert (MISSILE.pool_text, MISSILE.pool_table, MISSILE.pool) == (10, 20, 10)
    assert (MISSILE.soak, MISSILE.structure, MISSILE.move, MISSILE.max_hexes) == (10, 2, 5, 20)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Medium Laser", "medium_laser"),
        ("Missile/Torpedo", "missile"),
        ("Torpedo", "missile"),
        ("Rockets", "rocket_salvo"),
        ("railgun", "railgun"),
    ],
)
def test_weapon_kind_names(name: str, kind: str) -> None:
    assert weapon_kind(name).id == kind


def test_thirty_technologies() -> None:
    assert len(TECHNOLOGIES) == 30
    assert {t.id for t in TECHNOLOGIES.values() if t.abort} == {
        "boosters",
        "force_field",
        "plasma_field",
        "teleport",
    }
    costs = {t.id: (t.cost, t.per_level) for t in TECHNOLOGIES.values()}
    assert costs["force_field"] == (5, False)
    assert costs["artificial_intelligence"] == (1, True)
    assert costs["armor_piercing"] == (2, True)
    assert costs["transformation"] == (2, True)
    assert costs["pi_tac_cannon"] == (5, False)
    assert {k: c for k, (c, _) in costs.items()} == {
        "armor_piercing": 2,
        "artificial_intelligence": 1,
        "auto_turrets": 2,
        "boosters": 3,
        "cargo_hold": 1,
        "death_blossom": 5,
        "disruptor": 2,
        "duplicator": 5,
        "emp": 4,
        "enhanced_soak": 3,
        "enhanced_lasers": 3,
        "enhanced_missiles": 3,
        "enhanced_sensors": 4,
        "force_field": 5,
        "hangar_bay": 1,
        "holo_projector": 1,
        "hyper_ram": 4,
        "passengers": 1,
        "pi_tac_cannon": 5,
        "plasma_field": 3,
        "plasma_missile": 1,
        "plasma_trail": 3,
        "remote_bits": 2,
        "remote_laser": 1,
        "stealth": 5,
        "targeting_computer": 2,
        "teleport": 5,
        "temporal_displacement": 5,
        "tractor_beam": 4,
        "transformation": 2,
    }
    each = {k for k, (_, per_level) in costs.items() if per_level}
    assert each == {
        "armor_piercing",
        "artificial_intelligence",
        "cargo_hold",
        "disruptor",
        "hangar_bay",
        "passengers",
        "plasma_missile",
        "transformation",
    }
    assert all(t.rule for t in TECHNOLOGIES.values())
    death = TECHNOLOGIES["death_blossom"]
    assert (death.power, death.power_per, death.speed) == (7, "use", -3)
    assert TECHNOLOGIES["teleport"].power_per == "hex"


@pytest.mark.parametrize(
    ("name", "tech"),
    [
        ("Pi-Tac Cannon", "pi_tac_cannon"),
        ("Electromagnetic Pulse (EMP)", "emp"),
        ("AI", "artificial_intelligence"),
        ("Temporal Displacement Device", "temporal_displacement"),
        ("Armor-Piercing Weapons", "armor_piercing"),
        ("Holo-Projector", "holo_projector"),
    ],
)
def test_technology_names(name: str, tech: str) -> None:
    assert technology_kind(name).id == tech


def test_accessory_counts() -> None:
    assert parse_accessory("FTL (2)").count == 2
    assert parse_accessory("Crew Quarters(9)").name == "Crew Quarters"
    assert parse_accessory("Sensors").label() == "Sensors"


# ---- pilots ---------------------------------------------------------------------------


def test_pilot_templates() -> None:
    rows = {
        name: (p.dexterity, p.wits, p.piloting, p.gunnery, p.willpower)
        for name, p in PILOT_TEMPLATES.items()
    }
    assert rows == {
        "rookie": (2, 2, 1, 0, 3),
        "regular": (3, 3, 2, 1, 5),
        "veteran": (4, 3, 3, 2, 6),
        "ace": (5, 4, 4, 3, 8),
    }
    assert pilot_template("Veteran") is VETERAN
    assert (ROOKIE.name, REGULAR.name, ACE.name) == ("Rookie", "Regular", "Ace")
    with pytest.raises(UnknownName):
        pilot_template("admiral")


def test_ai_pilot_gets_two_points_a_level() -> None:
    assert ai_split(10) == (4, 3, 3)
    assert ai_split(2) == (1, 1, 0)
    pilot = ai_pilot(5)
    assert (pilot.dexterity, pilot.piloting, pilot.gunnery) == (4, 3, 3)
    assert pilot.ai and pilot.willpower == 0
    custom = ai_pilot(3, AiSpec(dexterity=2, piloting=0, gunnery=4))
    assert (custom.dexterity, custom.piloting, custom.gunnery) == (2, 0, 4)


# ---- the catalog ------------------------------------------------------------------------


def test_catalog_holds_the_seed_craft() -> None:
    assert tuple(catalog()) == SEED_CRAFT
    for craft in catalog().values():
        assert craft.origin == "seed"
        assert craft.source == "seed 003, Appendix 1"
        assert not craft.soak_divided


@pytest.mark.parametrize(
    ("craft_id", "row"),
    [
        ("rebel-fighter", ("Starfighter", 2, -1, 2, 1, 0, 15)),
        ("rebel-frigate", ("Starship", 120, -2, 3, 4, 7, 6)),
        ("alien-disk-fighter", ("Starfighter", 1, 1, 1, 4, 10, 7)),
        ("alien-mothership", ("Starship", 270, -4, 5, 2, 7, 14)),
        ("federation-battlesat", ("Starfighter", 0, 1, 3, 0, 0, 15)),
        ("federation-space-station", ("Starship + 1", 1200, -1, 4, 0, 5, 15)),
    ],
)
def test_seed_craft_stat_blocks(craft_id: str, row: tuple[Any, ...]) -> None:
    c = find_craft(craft_id)
    assert (
        c.scale_label,
        c.crew,
        c.handling,
        c.soak,
        c.move,
        c.power,
        c.structure,
    ) == row


def test_rebel_fighter_weapons_include_enhanced_lasers() -> None:
    lasers, missile = find_craft("rebel-fighter").weapons
    assert (lasers.kind, lasers.count, lasers.fire_linked, lasers.arc) == (
        "light_laser",
        2,
        True,
        "forward",
    )
    assert (lasers.attack, lasers.range, lasers.bonus, lasers.speed) == (10, 10, 5, 1)
    assert (missile.attack, missile.range, missile.bonus) == (10, 20, 0)
    assert missile.guided and not missile.turret


def test_disk_fighter_turret_and_gunners() -> None:
    disk = find_craft("alien-disk-fighter")
    assert disk.weapons[0].turret and disk.weapons[0].arc == "all"
    assert disk.turret_weapons() == 1
    assert disk.gunners_needed() == 0  # Auto-Turrets
    assert find_craft("alien-mothership").gunners_needed() == 5


def test_battlesat_has_an_ai_pilot() -> None:
    sat = find_craft("federation-battlesat")
    pilot = sat.ai_pilot()
    assert pilot is not None and pilot.ai
    assert (pilot.dexterity, pilot.piloting, pilot.gunnery) == (4, 3, 3)
    assert find_craft("rebel-fighter").ai_pilot() is None


def test_station_capacities_match_the_seed() -> None:
    station = find_craft("federation-space-station")
    assert station.capacity("cargo_hold") == 250
    assert station.capacity("hangar_bay") == 15
    assert station.capacity("passengers") == 250
    assert station.level("hangar_bay") == 3
    assert station.technology("force_field") is not None
    assert station.technology("force_field").points == 3  # type: ignore[union-attr]


def test_find_craft_unknown() -> None:
    with pytest.raises(UnknownName, match="rebel-fighter"):
        find_craft("x-wing")


def test_describe_is_plain_json() -> None:
    data = describe(find_craft("rebel-frigate"))
    text = json.dumps(data)
    assert json.loads(text)["weapons"][0]["arc"] == "all"
    assert data["technologies"] == ["Pi-Tac Cannon", "Enhanced Lasers"]
    assert data["scale"] == "Starship"


def test_crafts_serialise() -> None:
    for craft in catalog().values():
        assert msgspec.json.decode(msgspec.json.encode(craft))["id"] == craft.id


# ---- loading your own files -------------------------------------------------------------


def test_minimal_file_loads_with_defaults(tmp_path: Path) -> None:
    craft = load_craft_file(write(tmp_path, BASE))
    assert (craft.crew, craft.armor, craft.shields, craft.origin) == (1, 2, 0, "original")
    assert craft.weapons == () and craft.technologies == ()


def test_armor_and_shields(tmp_path: Path) -> None:
    craft = load_craft_file(write(tmp_path, {**BASE, "soak": None, "armor": 1, "shields": 2}))
    assert (craft.soak, craft.armor, craft.shields, craft.soak_divided) == (3, 1, 2, True)
    craft = load_craft_file(write(tmp_path, {**BASE, "soak": 3, "armor": 1, "shields": 2}))
    assert craft.soak == 3


def test_homebrew_out_of_range_values_load(tmp_path: Path) -> None:
    craft = load_craft_file(
        write(tmp_path, {**BASE, "handling": 7, "soak": 6, "move": 6, "power": 12, "structure": 25})
    )
    assert (craft.handling, craft.soak, craft.structure) == (7, 6, 25)


def test_technologies_as_names_and_mappings(tmp_path: Path) -> None:
    data = {
        **BASE,
        "technologies": ["Boosters", {"name": "armor_piercing", "level": 2}],
        "weapons": [{"kind": "Heavy Laser", "arc": "front"}],
    }
    craft = load_craft_file(write(tmp_path, data))
    assert [(t.id, t.level, t.cost) for t in craft.technologies] == [
        ("boosters", 1, 3),
        ("armor_piercing", 2, 4),
    ]
    assert craft.weapons[0].arc == "front" and craft.weapons[0].turret


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"structure": -1}, "structure", "at least 1"),
        ({"structure": 0}, "structure", "at least 1"),
        ({"move": -2}, "move", "negative"),
        ({"crew": -1}, "crew", "negative"),
        ({"scale": "Dreadnought"}, "scale", "unknown scale"),
        ({"origin": "fan"}, "origin", "must be one of"),
        ({"soak": None}, "soak", "missing"),
        ({"armor": 2, "shields": 1}, "soak", "armor 2 + shields 1"),
        ({"weapons": [{"kind": "plasma_cannon"}]}, "weapons[0].kind", "unknown weapon kind"),
        ({"weapons": [{"kind": "railgun", "count": 0}]}, "weapons[0].count", "at least 1"),
        ({"weapons": [{"kind": "railgun", "arc": "aft"}]}, "weapons[0].arc", "must be one of"),
        (
            {"weapons": [{"kind": "railgun", "turret": False, "arc": "all"}]},
            "weapons[0].turret",
            "contradicts",
        ),
        (
            {"weapons": [{"kind": "railgun", "scale": "Huge"}]},
            "weapons[0].scale",
            "unknown scale",
        ),
        ({"technologies": ["warp_drive"]}, "technologies[0].name", "unknown advanced"),
        (
            {"technologies": [{"name": "force_field", "level": 2}]},
            "technologies[0].level",
            "bought once",
        ),
        (
            {"technologies": ["stealth", "Stealth"]},
            "technologies[1].name",
            "listed twice",
        ),
        ({"ai": {"dexterity": 2}}, "ai", "no Artificial Intelligence"),
        ({"accessories": ["(2)"]}, "accessories[0]", "needs a name"),
    ],
)
def test_bad_values_name_file_craft_and_field(
    tmp_path: Path, changes: dict[str, Any], field: str, words: str
) -> None:
    message = craft_error(tmp_path, **changes)
    assert message.startswith(f"{tmp_path / 'test.yaml'}: craft 'test': field '{field}': ")
    assert words in message


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"handling": None}, "handling", "missing"),
        ({"speed": 3}, "speed", "unknown field"),
        ({"handling": "fast"}, "handling", "Expected `int`"),
        ({"weapons": [{"kind": "railgun", "dmg": 3}]}, "weapons[0].dmg", "unknown field"),
    ],
)
def test_schema_errors_name_file_craft_and_field(
    tmp_path: Path, changes: dict[str, Any], field: str, words: str
) -> None:
    message = craft_error(tmp_path, **changes)
    assert message.startswith(f"{tmp_path / 'test.yaml'}: craft 'test': field '{field}'")
    assert words in message


def test_file_level_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="must be a mapping"):
        load_craft_file(write(tmp_path, "- just a list\n"))
    with pytest.raises(DataError, match="bad YAML"):
        load_craft_file(write(tmp_path, "id: [unclosed\n"))
    with pytest.raises(DataError, match="must match the file name"):
        load_craft_file(write(tmp_path, BASE, name="other"))
    with pytest.raises(DataError, match="no such file"):
        load_craft_file(tmp_path / "missing.yaml")


def test_build_craft_directly() -> None:
    spec = CraftSpec(id="x", name="X", scale=1, handling=0, soak=1, move=1, power=0, structure=5)
    assert build_craft(spec, "memory").structure == 5
