"""Bad input from files, options and the command line: each refused with one line
naming what and where, nothing written, no traceback, no hang (issue 17)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.cli.output import finite_or_null
from dogfight.core.data import convert, package_data, parse_yaml, read_yaml
from dogfight.core.errors import DataError, OptionError
from dogfight.core.game import Game
from dogfight.core.gamefile import parse_gamefile, save_game
from dogfight.core.limits import MAX_DEPTH, MAX_MESSAGE, cap_message
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.scenario import builtin_scenario_files, load_scenario

runner = CliRunner()
FURBALL = package_data("acta", "scenarios", "furball.yaml")
RANDOM = ["--ai", "Empire=random", "--ai", "Klingon=random"]


def refused(*args: str | Path, code: int | None = None) -> str:
    """Run a command that must fail with one `error:` line; that line."""
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    assert len(lines[0]) <= MAX_MESSAGE + 100
    return lines[0]


def furball_with(tmp_path: Path, **changes: Any) -> Path:
    raw = yaml.safe_load(FURBALL.read_text())
    raw.update(changes)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


# ---- numbers in options -------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-5", "1e400", "100000"])
def test_number_options_are_finite_and_in_range(value: str) -> None:
    line = refused("battle", "furball", "--quiet", "--rule", f"seeking_range={value}", *RANDOM)
    assert "seeking_range" in line


@pytest.mark.parametrize(
    ("scenario", "rule"),
    [
        ("furball", "anti_fighter_range=nan"),
        ("skirmish", "fire_zone=nan"),
        ("skirmish", "fire_zone=inf"),
        ("skirmish", "fire_zone=-3"),
        ("skirmish", "close_range=-1"),
        ("furball", f"b5_fighter_hull={2**70}"),
    ],
)
def test_other_number_options_are_checked(scenario: str, rule: str) -> None:
    assert rule.split("=")[0] in refused("battle", scenario, "--quiet", "--rule", rule)


def test_scenario_options_are_checked_and_named(tmp_path: Path) -> None:
    path = furball_with(tmp_path, options={"seeking_range": float("nan")})
    line = refused("battle", path, "--quiet")
    assert "seeking_range" in line and "s.yaml" in line
    option = next(o for o in find_ruleset("acta").options if o.name == "seeking_range")
    for bad in (float("inf"), -1.0, 2**70, "nan"):
        with pytest.raises(OptionError, match="seeking_range"):
            option.parse(bad, "here")
    assert option.parse("12.5") == 12.5


# ---- numbers and structure in files -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("a: .inf\n", "a"),
        ("a: {b: [1, .nan]}\n", "a.b[1]"),
        ("turn_limit: 1000000000000000000000000000000\n", "turn_limit"),
        ("table: {width: -.inf}\n", "table.width"),
    ],
)
def test_files_hold_finite_numbers_within_64_bits(text: str, field: str) -> None:
    # Numbers are checked when the data is converted, where the unit can be named too.
    raw = parse_yaml(text, "f.yaml")
    with pytest.raises(DataError, match=re.escape(f"f.yaml: unit 'u': field '{field}'")):
        convert(raw, dict, "f.yaml: unit 'u'")


def test_a_scenario_with_an_infinite_heading_is_one_line(tmp_path: Path) -> None:
    raw = yaml.safe_load(FURBALL.read_text())
    raw["sides"][0]["units"][0]["heading"] = float("inf")
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw))
    line = refused("battle", path, "--quiet")
    assert "s.yaml" in line and "heading" in line


def test_deep_nesting_is_refused_quickly() -> None:
    with pytest.raises(DataError, match="nested"):
        parse_yaml("[" * 5000 + "]" * 5000, "deep.yaml")
    with pytest.raises(DataError, match=f"more than {MAX_DEPTH} deep"):
        parse_yaml("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2), "deep.yaml")
    # msgspec either gives up (RecursionError: "nested too deeply") or decodes it, and
    # then the depth limit refuses it ("nested more than 64 deep"), by its release.
    with pytest.raises(DataError, match=r"nested (too deeply|more than)"):
        parse_gamefile(b"[" * 5000 + b"]" * 5000, "g.json")


def test_yaml_alias_bombs_are_refused() -> None:
    # Nine levels of ten aliases each: 10**9 values once expanded, 600 bytes written.
    lines = ['a0: &a0 ["x"]']
    for i in range(1, 10):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    with pytest.raises(DataError, match="more than 1,000,000 values"):
        parse_yaml("\n".join(lines) + "\n", "bomb.yaml")


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_yaml(fifo)  # returns at once: a FIFO is never opened
    with pytest.raises(DataError, match="is a folder"):
        read_yaml(tmp_path)


def test_unit_files_naming_a_folder_or_fifo_name_the_field(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "units.yaml")
    for name in (".", "units.yaml"):
        path = furball_with(tmp_path, unit_files=[name])
        line = refused("battle", path, "--quiet")
        assert "s.yaml" in line and "unit_files[0]" in line


def test_error_lines_are_capped() -> None:
    long = "x" * 50_000
    capped = cap_message(long)
    assert len(capped) < MAX_MESSAGE + 40 and "49,000 more characters" in capped
    line = refused("battle", "furball", "--rule", f"resolution={long}")
    assert "more characters" in line


# ---- the command line -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [str(2**70), "-1", str(2**63)])
def test_seeds_beyond_63_bits_are_refused_not_wrapped(seed: str) -> None:
    assert "--seed" in refused("battle", "furball", "--seed", seed, code=2)
    assert "--seed" in refused("simulate", "furball", "-n", "1", "--seed", seed, code=2)


def test_battle_counts_are_bounded() -> None:
    assert "--battles" in refused("simulate", "furball", "-n", "18446744073709551619", code=2)
    assert "--battles" in refused("simulate", "furball", "-n", "0", code=2)


def test_a_seed_from_the_api_is_checked() -> None:
    with pytest.raises(DataError, match="seed"):
        Game(load_scenario("furball"), seed=-3)
    with pytest.raises(DataError, match="seed"):
        Game(load_scenario("furball"), seed=2**64)


def test_save_is_checked_before_the_battle(tmp_path: Path) -> None:
    line = refused("battle", "furball", "--save", tmp_path / "nodir" / "g.json", *RANDOM)
    assert "--save" in line and "no such folder" in line
    assert "--save" in refused("battle", "furball", "--save", tmp_path, *RANDOM)
    assert list(tmp_path.iterdir()) == []


def test_a_game_file_is_not_a_scenario(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    save_game(Game(load_scenario("furball"), seed=1), path)
    line = refused("battle", path)
    assert "saved game" in line and "dogfight replay" in line


def test_json_never_prints_nan() -> None:
    data = finite_or_null({"a": float("nan"), "b": [1.5, float("inf")], "c": "x"})
    assert data == {"a": None, "b": [1.5, None], "c": "x"}
    json.dumps(data, allow_nan=False)


def test_cluster_without_the_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_distributed(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "distributed":
            raise ImportError("No module named 'distributed'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    line = refused("simulate", "furball", "-n", "2", "--cluster", "tcp://127.0.0.1:1")
    assert "pip install 'dogfight[cluster]'" in line


# ---- nonsense positions and expensive requests -----------------------------------------------


@pytest.mark.parametrize("scenario", ["furball", "skirmish"])
def test_a_side_with_no_units_is_refused(tmp_path: Path, scenario: str) -> None:
    source = next(p for p in builtin_scenario_files() if p.stem == scenario)
    raw = yaml.safe_load(source.read_text())
    raw["sides"][1]["units"] = []
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw))
    line = refused("validate", path)
    assert "s.yaml" in line and "sides[1].units" in line and "no " in line


def test_ships_on_top_of_ships_are_refused(tmp_path: Path) -> None:
    source = next(p for p in builtin_scenario_files() if p.stem == "escort-mission")
    raw = yaml.safe_load(source.read_text())
    ships = [
        (si, ui)
        for si, side in enumerate(raw["sides"])
        for ui, unit in enumerate(side["units"])
        if find_ruleset("acta").describe_unit(unit["type"]).get("kind") == "ship"
    ]
    (s0, u0), (s1, u1) = ships[0], ships[1]
    raw["sides"][s1]["units"][u1]["at"] = raw["sides"][s0]["units"][u0]["at"]
    raw["sides"][s1]["units"][u1].pop("patrol_at", None)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw))
    line = refused("validate", path)
    assert f"sides[{s1}].units[{u1}].at" in line and "on top of ship" in line


def test_exact_odds_refuse_flights_too_big_to_work_out() -> None:
    line = refused(
        "odds", "evo", "attack", "starfury-aurora", "Twin pulse cannons", "nial",
        "--models", "100000",
    )  # fmt: skip
    assert "--models" in line and "1 to 12 models" in line
    assert "--firers" in refused(
        "odds", "evo", "attack", "starfury-aurora", "Twin pulse cannons", "nial",
        "--firers", "13",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value"),
    [("speed", -1), ("crew_quality", -2), ("base_radius", -0.5), ("crew_quality", 1e9)],
)
def test_acta_unit_numbers_are_in_range(tmp_path: Path, field: str, value: float) -> None:
    raw = yaml.safe_load(package_data("acta", "units", "sky-dragon.yaml").read_text())
    raw[field] = value
    path = tmp_path / "sky-dragon.yaml"
    path.write_text(yaml.safe_dump(raw))
    line = refused("validate", path)
    assert "sky-dragon.yaml" in line and "unit 'sky-dragon'" in line and f"'{field}'" in line


def test_every_number_option_declares_its_range() -> None:
    # A number option without bounds would take -5 for a distance or a count.
    for ruleset in all_rulesets():
        for option in ruleset.options:
            if isinstance(option.default, int | float) and not isinstance(option.default, bool):
                assert option.minimum is not None and option.maximum is not None, option.name
