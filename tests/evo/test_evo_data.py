"""The built-in EVO data: unit files (original designs, the seed's Nova facts), scenarios,
and clear errors for malformed unit and scenario files."""

from __future__ import annotations

from pathlib import Path

import pytest

from dogfight.core.data import package_data
from dogfight.core.errors import DataError
from dogfight.core.scenario import load_scenario
from dogfight.rulesets.evo.scenario import EvoScenarioSpec, FlightEntry, parse_scenario
from dogfight.rulesets.evo.units import UnitType, catalog, load_unit_file, units_dir

UNIT_FILES = sorted(units_dir().glob("*.yaml"))
SCENARIO_FILES = sorted(package_data("evo", "scenarios").glob("*.yaml"))

BIG_FOUR = {
    "starfury-aurora": "Earth Alliance",
    "nial": "Minbari Federation",
    "frazi": "Narn Regime",
    "sentri": "Centauri Republic",
}


# --- unit files ---------------------------------------------------------------------


@pytest.mark.parametrize("path", UNIT_FILES, ids=lambda p: p.stem)
def test_unit_file_loads(path: Path) -> None:
    unit = load_unit_file(path)
    assert unit.id == path.stem
    header = path.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("# Original dogfight design"), "comment header saying the source"


def test_catalog_holds_every_unit_file() -> None:
    assert sorted(catalog()) == sorted(p.stem for p in UNIT_FILES)


def test_every_unit_is_an_original_design() -> None:
    # Seed 001 promises stat lines but gives none: every number is ours.
    for unit in catalog().values():
        assert unit.origin == "original", unit.id
        assert "original dogfight design" in unit.source.lower(), unit.id
        assert "original dogfight design" in unit.description.lower(), unit.id


def test_the_big_four_and_the_nova_exist() -> None:
    units = catalog()
    for uid, power in {**BIG_FOUR, "starfury-nova": "Earth Alliance"}.items():
        assert uid in units, uid
        assert units[uid].power == power, uid


def test_nova_has_the_seeds_two_facts() -> None:
    # The seed: the Nova moves 4" per manoeuvre; its twin mini-pulse cannons are FaF.
    nova = catalog()["starfury-nova"]
    assert nova.agility == 4
    cannons = [w for w in nova.weapons if "mini-pulse" in w.name.lower()]
    assert len(cannons) == 1
    assert cannons[0].name.lower().startswith("twin")
    assert cannons[0].arc == "FaF"


def test_big_four_follow_the_notes_proposal() -> None:
    # rules-notes.md B.10.7: agility, target, save, kill, dodge, main weapon.
    table = {
        "starfury-aurora": (4, 4, None, 5, 6, 6, 18, 2),
        "starfury-nova": (4, 4, None, 5, 6, 6, 15, 2),
        "nial": (5, 4, 6, 5, 6, 5, 18, 3),
        "frazi": (3, 4, None, 4, 6, None, 18, 2),
        "sentri": (5, 5, None, 6, 6, 5, 15, 2),
    }
    units = catalog()
    for uid, (agility, target, stealth, save, kill, dodge, rng, dice) in table.items():
        unit = units[uid]
        main = unit.weapons[0]
        got = (unit.agility, unit.target, unit.stealth_target, unit.save, unit.kill)
        assert got == (agility, target, stealth, save, kill), uid
        assert unit.trait("Dodge") == dodge, uid
        assert (main.range, main.dice, main.die, main.arc) == (rng, dice, 6, "FaF"), uid


def test_nial_has_stealth() -> None:
    nial = catalog()["nial"]
    assert nial.stealth_target is not None
    assert nial.stealth_target > nial.target
    # Only the Minbari rely on stealth.
    assert [u.id for u in catalog().values() if u.stealth_target is not None] == ["nial"]


def test_heavier_and_support_craft() -> None:
    units = catalog()
    heavy = [u for u in units.values() if u.kill >= 7]  # only d10s kill them outright
    assert len(heavy) >= 2
    thunderbolt = units["thunderbolt"]
    assert thunderbolt.kill >= 7
    assert any(w.arc == "FaA" for w in thunderbolt.weapons), "a tail gun"
    assert any(w.trait("Lock-on") is not None and w.die == 10 for w in thunderbolt.weapons)
    shuttle = units["ea-shuttle"]
    assert shuttle.kill >= 7
    assert shuttle.agility <= 2
    assert sum(w.dice for w in shuttle.weapons) <= 1, "weak guns: it is there to be escorted"


@pytest.mark.parametrize("uid", sorted(catalog()))
def test_unit_values_are_in_the_designed_ranges(uid: str) -> None:
    unit = catalog()[uid]
    assert 2 <= unit.agility <= 6
    assert 2 <= unit.models <= 6
    assert unit.points > 0
    assert unit.kill >= 6
    assert unit.weapons
    for w in unit.weapons:
        assert 8 <= w.range <= 24, w.name
        assert 1 <= w.dice <= 4, w.name


def test_points_follow_strength() -> None:
    units = catalog()
    pts = {uid: u.points for uid, u in units.items()}
    assert pts["nial"] > max(pts[u] for u in ("starfury-aurora", "frazi", "sentri"))
    assert pts["starfury-nova"] <= pts["starfury-aurora"], "shorter guns, otherwise the same"
    assert pts["razik"] < pts["sentri"]
    assert pts["ea-shuttle"] < pts["starfury-aurora"]


# --- malformed unit files ---------------------------------------------------------------

GOOD = """\
id: bad
name: Bad Fighter
power: Test
agility: 4
target: "4-6"
save: 5
kill: 6
traits: [Dodge 5+]
weapons:
- {name: Gun, range: 12, dice: 2, die: 6, arc: FaF}
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        # an unclosed list: YAML notices it on the next line
        ("name: Bad Fighter", "name: [Bad", "line 3: bad YAML"),
        ('target: "4-6"', 'target: "4-x"', "field 'target'"),
        ("traits: [Dodge 5+]", "traits: [Cloaked]", "field 'traits'"),
        ("traits: [Dodge 5+]", "traits: [Dodge]", "field 'traits'"),
        ("arc: FaF", "arc: XaF", "field 'weapons[0].arc'"),
        ("kill: 6\n", "", "field 'kill'"),
        ("kill: 6\n", "kill: 6\ncolour: red\n", "field 'colour'"),
        ("die: 6", "die: 8", "field 'weapons[0].die'"),
        ("dice: 2", "dice: two", "field 'weapons[0].dice'"),
        ("save: 5", "save: 9", "field 'save'"),
        ("id: bad", "id: other", "field 'id'"),
    ],
)
def test_malformed_unit_file(tmp_path: Path, old: str, new: str, field: str) -> None:
    path = tmp_path / "bad.yaml"
    assert old in GOOD
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_file(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert field in message


def test_good_unit_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD, encoding="utf-8")
    unit = load_unit_file(path)
    assert (unit.target, unit.stealth_target) == (4, 6)
    assert unit.trait("Dodge") == 5


# --- scenarios -------------------------------------------------------------------------


def scenario(path: Path) -> EvoScenarioSpec:
    return parse_scenario(load_scenario(str(path)))


def side_points(side_units: list[FlightEntry], units: dict[str, UnitType]) -> int:
    """Points of a side's flights: points per model times models flown."""
    return sum(units[e.type].points * (e.models or units[e.type].models) for e in side_units)


def test_the_built_in_scenarios_exist() -> None:
    assert [p.stem for p in SCENARIO_FILES] == [
        "jump-point",
        "shuttle-escort",
        "skirmish",
        "squadron-battle",
        "stealth-ambush",
    ]


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_scenario_is_valid(path: Path) -> None:
    spec = scenario(path)
    units = catalog()
    assert spec.name == path.stem
    assert spec.ruleset == "evo"
    assert spec.description
    assert path.read_text(encoding="utf-8").startswith("#"), "comment header"
    assert 4 <= spec.turn_limit <= 8
    ids = [e.id for side in spec.sides for e in side.units]
    assert all(ids), "every flight has an explicit id"
    assert len(ids) == len(set(ids)), "flight ids are unique"
    for side in spec.sides:
        for entry in side.units:
            assert entry.type in units, f"{entry.id}: no unit type {entry.type!r}"
            assert units[entry.type].power == side.name, entry.id
            x, y = entry.at
            # room for a line-abreast flight and a few turns of drift
            assert 4 <= x <= spec.table.width - 4, entry.id
            assert 4 <= y <= spec.table.height - 4, entry.id
    # the two sides are within about 25% of each other on points
    a, b = (side_points(s.units, units) for s in spec.sides)
    assert max(a, b) <= 1.25 * min(a, b), (a, b)


def test_skirmish_is_three_flights_a_side_matched_on_points() -> None:
    spec = scenario(package_data("evo", "scenarios", "skirmish.yaml"))
    units = catalog()
    assert [len(s.units) for s in spec.sides] == [3, 3]
    a, b = (side_points(s.units, units) for s in spec.sides)
    assert abs(a - b) <= 0.25 * min(a, b)


def test_stealth_ambush_has_nials_against_an_ea_patrol() -> None:
    spec = scenario(package_data("evo", "scenarios", "stealth-ambush.yaml"))
    types = {s.name: {e.type for e in s.units} for s in spec.sides}
    assert types["Minbari Federation"] == {"nial"}
    assert types["Earth Alliance"] & {"starfury-aurora", "starfury-nova", "thunderbolt"}
    assert spec.first == "Minbari Federation"


def test_escort_mission_escorts_a_shuttle() -> None:
    spec = scenario(package_data("evo", "scenarios", "shuttle-escort.yaml"))
    types = {s.name: [e.type for e in s.units] for s in spec.sides}
    assert "ea-shuttle" in types["Earth Alliance"]
    assert any(t.startswith("starfury") for t in types["Earth Alliance"])
    assert "sentri" in types["Centauri Republic"]


GOOD_SCENARIO = """\
name: test
ruleset: evo
sides:
- name: A
  units:
  - {id: A1, type: starfury-aurora, at: [6, 24], heading: 0}
- name: B
  units:
  - {id: B1, type: frazi, at: [42, 24], heading: 180}
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("heading: 0}", "heading: 0, colour: red}", "field 'sides[0].units[0].colour'"),
        ("at: [6, 24], ", "", "field 'sides[0].units[0].at'"),
        ("heading: 180}", "heading: west}", "field 'sides[1].units[0].heading'"),
        ("- name: B", "- name: A", "field 'sides'"),
        ("ruleset: evo\n", "ruleset: evo\nfirst: C\n", "field 'first'"),
        ("ruleset: evo\n", "ruleset: evo\nturn_limit: 0\n", "field 'turn_limit'"),
    ],
)
def test_malformed_scenario(tmp_path: Path, old: str, new: str, field: str) -> None:
    path = tmp_path / "bad.yaml"
    assert old in GOOD_SCENARIO
    path.write_text(GOOD_SCENARIO.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        parse_scenario(load_scenario(str(path)))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert field in message


def test_good_scenario_parses(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(GOOD_SCENARIO, encoding="utf-8")
    spec = parse_scenario(load_scenario(str(path)))
    assert spec.table.width == 48 and spec.turn_limit == 6
