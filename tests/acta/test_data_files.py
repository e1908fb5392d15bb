"""The built-in ACTA data: unit files, the seed fighters' agreement with the seed, scenarios."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from dogfight.core.data import package_data
from dogfight.core.errors import DataError
from dogfight.core.scenario import load_scenario
from dogfight.rulesets.acta.importer import import_file
from dogfight.rulesets.acta.scenario import ActaScenarioSpec, parse_scenario
from dogfight.rulesets.acta.units import catalog, load_unit_file, units_dir

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_713b90d668744347.txt"

# How the seed fighters in data/acta/units were generated (see the importer's docstring).
SEED_SOURCE = "seed 000 (ACTA:SF fighter rules post)"
SEED_FLEETS = {
    "hornet": "Empire",
    "dragonfly": "Empire",
    "wasp": "Empire",
    "hummingbird": "Empire",
    "zketh": "Klingon",
    "zaresh": "Klingon",
    "zul": "Klingon",
}

UNIT_FILES = sorted(units_dir().glob("*.yaml"))
SCENARIO_FILES = sorted(package_data("acta", "scenarios").glob("*.yaml"))


# --- unit files ---------------------------------------------------------------------


@pytest.mark.parametrize("path", UNIT_FILES, ids=lambda p: p.stem)
def test_unit_file_loads(path: Path) -> None:
    unit = load_unit_file(path)
    assert unit.id == path.stem
    assert path.read_text(encoding="utf-8").startswith("#"), "comment header saying the source"


def test_catalog_holds_every_unit_file() -> None:
    assert sorted(catalog()) == [p.stem for p in UNIT_FILES]


def test_seed_fighters_are_the_seven_from_the_seed() -> None:
    seed = {uid: u for uid, u in catalog().items() if u.origin == "seed"}
    assert sorted(seed) == sorted(SEED_FLEETS)
    for uid, unit in seed.items():
        assert unit.is_fighter
        assert unit.fleet == SEED_FLEETS[uid]
        assert unit.source == SEED_SOURCE
        assert unit.points is None  # the seed gives no points costs


@pytest.mark.skipif(not SEED.exists(), reason=f"seed file not found at {SEED}")
def test_seed_fighter_files_match_the_importer(tmp_path: Path) -> None:
    # The committed files must be exactly what the importer makes of the seed, so
    # neither a hand edit nor an importer change can make them drift apart.
    written = import_file(SEED, tmp_path, origin="seed", source=SEED_SOURCE, fleets=SEED_FLEETS)
    assert sorted(p.stem for p in written) == sorted(SEED_FLEETS)
    for fresh in written:
        committed = units_dir() / fresh.name
        assert committed.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8"), (
            f"{committed} differs from the importer's output; re-run the importer"
        )


def test_original_ship_designs() -> None:
    ships = [u for u in catalog().values() if u.origin == "original"]
    assert len(ships) >= 6
    per_fleet = Counter(u.fleet for u in ships)
    assert per_fleet["Empire"] >= 3
    assert per_fleet["Klingon"] >= 3
    for ship in ships:
        assert ship.kind == "ship", ship.id
        assert "original dogfight design" in ship.description.lower(), ship.id
        assert "not from the seed" in ship.description.lower(), ship.id
        assert 0 < ship.crippled < ship.damage, ship.id
        assert ship.points is not None and ship.points > 0, ship.id
        assert ship.isd is not None, ship.id
        assert ship.turn is not None, ship.id
        assert ship.weapons, ship.id
    for fleet in ("Empire", "Klingon"):
        craft = sorted(u.craft for u in ships if u.fleet == fleet)
        assert craft[0] == 0, f"{fleet} needs an escort without fighters"
        assert craft[-1] >= 6, f"{fleet} needs a fleet carrier"
        assert any(2 <= c <= 4 for c in craft), f"{fleet} needs a light carrier"
    # Klingon ships carry drones, Empire ships photons
    for ship in ships:
        seeking = any(w.has("Seeking") for w in ship.weapons)
        assert seeking == (ship.fleet == "Klingon"), ship.id


# --- malformed unit files -------------------------------------------------------------

GOOD = """\
id: bad
name: Bad Fighter
kind: fighter
fleet: Test
speed: 8
turn: SM
damage: 2
traits: [Dodge 6+, Fighter]
weapons:
- {name: Phaser-3F, range: 2, arc: T, ad: 1, traits: [Precise]}
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        # an unclosed list: YAML notices it on the next line
        ("name: Bad Fighter", "name: [Bad", "line 3: bad YAML"),
        ("speed: 8", "speed: fast", "speed"),
        ("traits: [Dodge 6+, Fighter]", "traits: [Dodge 6+, Cloaked]", "traits"),
        ("damage: 2\n", "", "damage"),
        ("damage: 2\n", "damage: 2\ncolour: red\n", "colour"),
        ("arc: T", "arc: Q", "weapons[0].arc"),
        ("traits: [Precise]", "traits: [Sticky]", "weapons[0].traits"),
        ("range: 2", "range: -2", "weapons[0].range"),
        ("kind: fighter", "kind: starbase", "kind"),
        ("id: bad", "id: other", "id"),
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
    assert load_unit_file(path).weapons[0].has("Precise")


# --- scenarios -------------------------------------------------------------------------


def scenario(path: Path) -> ActaScenarioSpec:
    return parse_scenario(load_scenario(str(path)))


def test_the_three_built_in_scenarios_exist() -> None:
    assert [p.stem for p in SCENARIO_FILES] == ["carrier-strike", "escort-mission", "furball"]


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_scenario_units_are_valid(path: Path) -> None:
    spec = scenario(path)
    units = catalog()
    assert spec.name == path.stem
    assert spec.ruleset == "acta"
    assert spec.year is not None
    ids = [u.id for side in spec.sides for u in side.units]
    assert all(ids), "every unit has an explicit id"
    assert len(ids) == len(set(ids)), "unit ids are unique"
    for side in spec.sides:
        ships = {u.id: u for u in side.units if not units[u.type].is_fighter}
        supporters: Counter[str] = Counter()
        for entry in side.units:
            assert entry.type in units, f"{entry.id}: no unit type {entry.type!r}"
            unit = units[entry.type]
            assert unit.fleet == side.name, f"{entry.id}: {unit.fleet} unit on {side.name}"
            assert unit.isd is not None and unit.isd <= spec.year, f"{entry.id}: ISD {unit.isd}"
            x, y = entry.at
            assert 0 < x < spec.table.width and 0 < y < spec.table.height, entry.id
            if entry.aboard:
                assert not unit.is_fighter, entry.id
                assert sum(entry.aboard.values()) <= unit.craft, f"{entry.id}: over Craft"
                for fighter_type, count in entry.aboard.items():
                    assert count > 0
                    assert units[fighter_type].is_fighter, f"{entry.id}: {fighter_type}"
                    assert units[fighter_type].fleet == side.name
                    isd = units[fighter_type].isd
                    assert isd is not None and isd <= spec.year
            if entry.supporting:
                assert unit.is_fighter, entry.id
                ship = ships[entry.supporting]  # a friendly ship on the same side
                assert math.dist(entry.at, ship.at) <= 1.5, f"{entry.id}: not on the base"
                supporters[entry.supporting] += 1
            if entry.dogfight_drones:
                assert any(w.dogfight_drones for w in unit.weapons), entry.id
        assert all(n <= 4 for n in supporters.values()), "at most 4 fighters support a ship"


def test_furball_is_fighters_only() -> None:
    spec = scenario(package_data("acta", "scenarios", "furball.yaml"))
    units = catalog()
    assert all(units[u.type].is_fighter for side in spec.sides for u in side.units)
    assert (spec.table.width, spec.table.height) == (36, 36)
    assert spec.year == 180
    assert spec.turn_limit == 8


def test_carrier_strike_has_loaded_carriers() -> None:
    spec = scenario(package_data("acta", "scenarios", "carrier-strike.yaml"))
    units = catalog()
    for side in spec.sides:
        carriers = [u for u in side.units if u.aboard]
        assert carriers, side.name
        assert any(units[u.type].is_fighter for u in side.units), "fighters already flying"
        escorts = [u for u in side.units if not units[u.type].is_fighter and not u.aboard]
        assert escorts, side.name


def test_escort_mission_has_supporting_fighters() -> None:
    spec = scenario(package_data("acta", "scenarios", "escort-mission.yaml"))
    supporting = [u for side in spec.sides for u in side.units if u.supporting]
    assert supporting
