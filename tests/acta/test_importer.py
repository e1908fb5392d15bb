"""The stat-line importer: the seed's sample fighters, and clear errors for bad text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dogfight.core.errors import DataError
from dogfight.rulesets.acta.importer import (
    craft_id,
    import_file,
    parse_craft_text,
    to_yaml,
)
from dogfight.rulesets.acta.units import load_unit_file

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_713b90d668744347.txt"

needs_seed = pytest.mark.skipif(not SEED.exists(), reason=f"seed file not found at {SEED}")

ZUL = """\
Zul Space Superiority Fighter (Z2)
A fighter for tests.
Speed: 12, Turn: SM, Dogfight: +2, Damage: 2, Traits: Dodge 6+, Fighter
ISD: 179+
Phaser-3F 2" 2 Precise
Drone 6" 1 Seeking, Devastating +1, (*)
"""


@pytest.fixture(scope="module")
def seed_units() -> dict[str, dict[str, Any]]:
    if not SEED.exists():
        pytest.skip(f"seed file not found at {SEED}")
    units = parse_craft_text(SEED.read_text(encoding="utf-8"), str(SEED), origin="seed")
    return {u["id"]: u for u in units}


def weapon(unit: dict[str, Any], name: str) -> dict[str, Any]:
    matches: list[dict[str, Any]] = [w for w in unit["weapons"] if w["name"] == name]
    assert len(matches) == 1
    return matches[0]


# --- the real seed ---------------------------------------------------------------


@needs_seed
def test_seed_gives_exactly_the_seven_sample_fighters(seed_units: dict[str, Any]) -> None:
    # the seed repeats its whole text: each craft is kept once, in order
    assert list(seed_units) == [
        "hornet",
        "dragonfly",
        "wasp",
        "hummingbird",
        "zketh",
        "zaresh",
        "zul",
    ]
    for unit in seed_units.values():
        assert unit["kind"] == "fighter"
        assert unit["turn"] == "SM"
        assert unit["origin"] == "seed"
        assert unit["fleet"] == "Unknown"
        assert unit["points"] is None
        assert "Fighter" in unit["traits"]


@needs_seed
def test_seed_wasp(seed_units: dict[str, Any]) -> None:
    wasp = seed_units["wasp"]
    assert wasp["name"] == "Huángfēng (Wasp) Fighter-Bomber"
    assert wasp["designation"] == "F-5"
    assert (wasp["speed"], wasp["dogfight"], wasp["damage"], wasp["isd"]) == (12, 2, 2, 174)
    assert wasp["traits"] == ["Dodge 5+", "Fighter"]
    assert wasp["weapons"] == [
        {
            "name": "Phaser-3F",
            "range": 2,
            "arc": "T",
            "ad": 3,
            "traits": ["Precise"],
            "dogfight_drones": False,
        }
    ]
    assert wasp["description"].startswith("Even as the first production models")


@needs_seed
def test_seed_zketh_drone_has_no_arc_and_dogfight_drones(seed_units: dict[str, Any]) -> None:
    zketh = seed_units["zketh"]
    assert zketh["name"] == "Z'keth Assault Fighter"
    assert (zketh["speed"], zketh["dogfight"], zketh["damage"], zketh["isd"]) == (6, 0, 3, 158)
    drone = weapon(zketh, "Drone")
    assert drone["arc"] is None
    assert drone["dogfight_drones"] is True
    assert drone["traits"] == ["Seeking", "Multihit 2"]
    assert (drone["range"], drone["ad"]) == (6, 1)
    phaser = weapon(zketh, "Phaser-2F")
    # "Accurate+1" in the seed
    assert phaser["traits"] == ["Accurate +1", "Precise"]
    assert phaser["arc"] is None
    assert phaser["dogfight_drones"] is False


@needs_seed
def test_seed_hummingbird_normalises_fighter_killer(seed_units: dict[str, Any]) -> None:
    hummingbird = seed_units["hummingbird"]
    assert (hummingbird["dogfight"], hummingbird["damage"]) == (3, 1)
    gun = weapon(hummingbird, "Phaser-GF")
    # "Accurate +1, Fighter Killer, Weak," with a trailing comma
    assert gun["traits"] == ["Accurate +1", "Fighter-Killer", "Weak"]
    assert (gun["range"], gun["arc"], gun["ad"]) == (2, "T", 4)


@needs_seed
def test_seed_hornet_photon_spelling(seed_units: dict[str, Any]) -> None:
    photon = weapon(seed_units["hornet"], "Photon-F")
    # "Devestating+1, Multihit 2," in the seed
    assert photon["traits"] == ["Devastating +1", "Multihit 2"]
    assert (photon["range"], photon["arc"], photon["ad"]) == (6, "T", 1)


@needs_seed
def test_seed_klingon_weapons(seed_units: dict[str, Any]) -> None:
    for unit_id, phaser_ad in (("zaresh", 1), ("zul", 2)):
        unit = seed_units[unit_id]
        assert weapon(unit, "Phaser-3F")["ad"] == phaser_ad
        drone = weapon(unit, "Drone")
        assert drone["traits"] == ["Seeking", "Devastating +1"]
        assert drone["dogfight_drones"] is True
    assert (seed_units["zaresh"]["speed"], seed_units["zaresh"]["dogfight"]) == (10, 1)
    assert seed_units["zul"]["isd"] == 179


# --- ids, fleets, origin ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Mǎfēng (Hornet) Assault Fighter", "hornet"),
        ("Qīngtíng (Dragonfly) Fighter", "dragonfly"),
        ("Fēngniǎo (Hummingbird) Interceptor", "hummingbird"),
        ("Z'keth Assault Fighter", "zketh"),
        ("Zaresh Superiority Fighter", "zaresh"),
        # an ASCII first word keeps itself even if a gloss follows
        ("Viper (Mk II) Fighter", "viper"),
        # no gloss: the non-ASCII word is folded to ASCII
        ("Mǎfēng Assault Fighter", "mafeng"),
    ],
)
def test_craft_id(name: str, expected: str) -> None:
    assert craft_id(name) == expected


def test_fleet_origin_and_source_are_copied() -> None:
    [unit] = parse_craft_text(ZUL, "t.txt", fleet="Klingon", origin="seed", source="a test")
    assert (unit["fleet"], unit["origin"], unit["source"]) == ("Klingon", "seed", "a test")
    [unit] = parse_craft_text(ZUL, "t.txt")
    assert (unit["fleet"], unit["origin"]) == ("Unknown", "original")


def test_fleets_mapping_overrides_the_default_fleet() -> None:
    text = ZUL + "\n" + ZUL.replace("Zul Space", "Zorn Space").replace("(Z2)", "(Z3)")
    units = parse_craft_text(text, "t.txt", fleet="Kzinti", fleets={"zul": "Klingon"})
    assert [(u["id"], u["fleet"]) for u in units] == [("zul", "Klingon"), ("zorn", "Kzinti")]


def test_fleets_mapping_naming_an_unknown_craft_is_an_error() -> None:
    with pytest.raises(DataError, match=r"t\.txt: fleet given for craft not in the text: zull"):
        parse_craft_text(ZUL, "t.txt", fleets={"zull": "Klingon"})


def test_bad_origin_is_refused() -> None:
    with pytest.raises(DataError, match="origin must be one of seed, original"):
        parse_craft_text(ZUL, "t.txt", origin="canon")


def test_ship_without_fighter_trait_is_a_ship() -> None:
    text = (
        "Picket Cutter (PC)\n"
        "Speed: 10, Turn: 2, Dogfight: 0, Damage: 6, Traits: Interceptors 1\n"
        'Phaser-1 12" FH 2 Precise\n'
    )
    [unit] = parse_craft_text(text, "t.txt")
    assert unit["kind"] == "ship"
    assert unit["turn"] == 2
    assert unit["isd"] is None
    assert unit["weapons"][0]["arc"] == "FH"


# --- robustness --------------------------------------------------------------------


def test_prose_before_between_and_after_craft_is_skipped() -> None:
    text = (
        "Some rules prose (with a remark in parentheses that is much too long)\n"
        "Fighter -Killer\n"
        "some sample fighters:\n"
        + ZUL
        + "(*) At the start of the game you may swap this weapon for dogfight drones\n"
        "Rules Additions 1. Fighters\n"
        "Up to 4 fighters may be moved onto the base of a friendly ship.\n"
    )
    [unit] = parse_craft_text(text, "t.txt")
    assert unit["id"] == "zul"
    assert unit["description"] == "A fighter for tests."
    assert len(unit["weapons"]) == 2


def test_blank_lines_inside_a_craft_are_allowed() -> None:
    text = ZUL.replace("\n", "\n\n")
    [unit] = parse_craft_text(text, "t.txt")
    assert unit["isd"] == 179
    assert len(unit["weapons"]) == 2


def test_repeated_craft_with_different_stats_is_an_error() -> None:
    text = ZUL + "\n" + ZUL.replace("Damage: 2", "Damage: 3")
    with pytest.raises(DataError, match=r"t\.txt:8: craft 'zul' appears again .*line 1"):
        parse_craft_text(text, "t.txt")


@pytest.mark.parametrize(
    "text",
    ["", "Just some prose.\nNo craft here (none at all)\n", "Speed of light: fast\n"],
)
def test_no_craft_found(text: str) -> None:
    with pytest.raises(DataError, match=r"^notes\.txt: no craft found"):
        parse_craft_text(text, "notes.txt")


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("Speed: 12, Turn", "Turn", 3, "field 'Speed' missing"),
        ("Damage: 2", "Damage: two", 3, "Damage must be a whole number"),
        ("Damage: 2", "Damage: 0", 3, "Damage must be a whole number of at least 1"),
        ("Speed: 12", "Speed: fast", 3, "Speed must be a number"),
        ("Turn: SM", "Turn: sharp", 3, "Turn must be SM or a number"),
        ("Dogfight: +2", "Dogfight: good", 3, "Dogfight must be a whole number"),
        ("Dogfight: +2", "Dogfight: +2, Hull: 5", 3, "unknown field 'hull'"),
        ("Dodge 6+", "Dodge 6+, Cloaked", 3, "unknown trait 'Cloaked'"),
        ("Dodge 6+", "Dodge 9+", 3, "Dodge needs a target of 2\\+ to 6\\+"),
        ("ISD: 179+", "ISD: soon", 4, "ISD line: expected a year"),
        ('Phaser-3F 2" 2', 'Phaser-3F 2" X 2', 5, "unknown arc 'X'"),
        ("Precise", "Precise, Sticky", 5, "unknown trait 'Sticky'"),
        ('Drone 6" 1', 'Drone 6" many', 6, "weapon line: cannot read"),
        ("Seeking,", "Seeking 3,", 6, "Seeking takes no number"),
    ],
)
def test_malformed_text_names_file_and_line(old: str, new: str, line: int, message: str) -> None:
    assert old in ZUL
    with pytest.raises(DataError, match=rf"^craft\.txt:{line}: .*{message}") as info:
        parse_craft_text(ZUL.replace(old, new, 1), "craft.txt")
    assert "\n" not in str(info.value)


def test_stat_line_without_title_names_the_line() -> None:
    text = "Some prose.\nSpeed: 8, Turn: SM, Dogfight: 0, Damage: 2, Traits: Fighter\n"
    with pytest.raises(DataError, match=r"^t\.txt:2: stat line without a title line"):
        parse_craft_text(text, "t.txt")


# --- YAML output and files ----------------------------------------------------------


@needs_seed
def test_to_yaml_round_trips(seed_units: dict[str, Any]) -> None:
    for unit in seed_units.values():
        text = to_yaml(unit, header="first line\nsecond line")
        assert text.startswith("# first line\n# second line\nid: ")
        assert yaml.safe_load(text) == unit


def test_import_file_writes_loadable_files(tmp_path: Path) -> None:
    src = tmp_path / "craft.txt"
    src.write_text(ZUL, encoding="utf-8")
    out = tmp_path / "units"
    written = import_file(src, out, fleet="Klingon")
    assert written == [out / "zul.yaml"]
    unit = load_unit_file(written[0])
    assert unit.fleet == "Klingon"
    assert unit.source == "imported from craft.txt"
    assert unit.weapons[1].dogfight_drones
    # no temporary files left behind by the atomic write
    assert sorted(p.name for p in out.iterdir()) == ["zul.yaml"]
    assert written[0].read_text(encoding="utf-8").startswith("# Generated by")


def test_import_file_refuses_to_overwrite(tmp_path: Path) -> None:
    src = tmp_path / "craft.txt"
    src.write_text(ZUL, encoding="utf-8")
    target = tmp_path / "zul.yaml"
    target.write_text("keep me\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"not overwriting existing unit files: .*zul\.yaml"):
        import_file(src, tmp_path)
    assert target.read_text(encoding="utf-8") == "keep me\n"
    import_file(src, tmp_path, overwrite=True)
    assert load_unit_file(target).id == "zul"


def test_import_file_writes_nothing_if_any_craft_is_bad(tmp_path: Path) -> None:
    src = tmp_path / "craft.txt"
    bad = ZUL.replace("Zul Space", "Zorn Space").replace("Damage: 2", "Damage: x")
    src.write_text(ZUL + bad, encoding="utf-8")
    out = tmp_path / "units"
    with pytest.raises(DataError, match=r"craft\.txt:9: "):
        import_file(src, out)
    assert not out.exists()


def test_import_file_missing_source(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"nope\.txt: no such file"):
        import_file(tmp_path / "nope.txt", tmp_path)


def test_command_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dogfight.cli.main import app

    src = tmp_path / "craft.txt"
    src.write_text(ZUL, encoding="utf-8")
    args = [
        "import",
        "acta",
        str(src),
        "--out",
        str(tmp_path / "out"),
        "--origin",
        "seed",
        "--fleet-of",
        "zul=Klingon",
    ]
    runner = CliRunner()
    assert runner.invoke(app, args).exit_code == 0
    assert load_unit_file(tmp_path / "out" / "zul.yaml").fleet == "Klingon"
    again = runner.invoke(app, args)
    assert again.exit_code == 1
    assert "not overwriting" in again.output
    bad = runner.invoke(app, [*args, "--overwrite", "--fleet-of", "nobody"])
    assert bad.exit_code == 1
    assert "--fleet-of takes IDS=FLEET" in bad.output
