"""The `dogfight` command line: every command's happy path, JSON output, and errors.

Battles here use random players on both sides so that the tests neither wait for
nor depend on the heuristic player.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import dogfight.sim.bench as bench_module
from dogfight.ai import make_player
from dogfight.cli.main import app
from dogfight.core.data import package_data
from dogfight.core.errors import UnknownName
from dogfight.core.scenario import builtin_scenario_files, load_scenario

RANDOM = ["--ai", "Empire=random", "--ai", "Klingon=random"]
FURBALL = package_data("acta", "scenarios", "furball.yaml")
WASP = package_data("acta", "units", "wasp.yaml")

runner = CliRunner()


def run(*args: str | Path) -> Any:
    """Invoke the CLI in-process; the result has exit_code, stdout and stderr."""
    return runner.invoke(app, [str(a) for a in args])


def ok(*args: str | Path) -> str:
    """Run a command that must succeed; its stdout."""
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return str(result.stdout)


def one_json(*args: str | Path) -> dict[str, Any]:
    """Run a --json command: stdout must be exactly one JSON object."""
    out = ok(*args)
    data = json.loads(out)  # fails on anything after the object
    assert isinstance(data, dict)
    return data


def fails(*args: str | Path, code: int | None = None) -> str:
    """Run a command that must fail with one `error:` line on stderr; that line."""
    result = run(*args)
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return str(lines[0])


# ---- catalog commands -----------------------------------------------------------------


def test_rulesets() -> None:
    assert "acta" in ok("rulesets")
    data = one_json("rulesets", "--json")
    acta = next(r for r in data["rulesets"] if r["name"] == "acta")
    assert acta["units"] >= 7 and acta["scenarios"] >= 3 and acta["options"] > 0


def test_units() -> None:
    out = ok("units", "acta")
    for unit in ("wasp", "zaresh", "sky-dragon"):
        assert unit in out
    data = one_json("units", "acta", "--json")
    ids = [u["id"] for u in data["units"]]
    assert "hummingbird" in ids and ids == sorted(ids)


def test_show() -> None:
    out = ok("show", "acta", "wasp")
    assert "Wasp" in out and "Phaser-3F" in out and "Dodge 5+" in out
    data = one_json("show", "acta", "wasp", "--json")
    assert data["id"] == "wasp" and data["kind"] == "fighter"
    assert data["weapons"][0]["name"] == "Phaser-3F"


def test_scenarios() -> None:
    out = ok("scenarios")
    for name in ("carrier-strike", "escort-mission", "furball"):
        assert name in out
    data = one_json("scenarios", "acta", "--json")
    assert {s["name"] for s in data["scenarios"]} >= {"carrier-strike", "furball"}
    assert all(s["ruleset"] == "acta" for s in data["scenarios"])


def test_options() -> None:
    out = ok("options", "acta")
    assert "resolution = sf" in out and "ACTA-RES-1" in out
    data = one_json("options", "acta", "--json")
    resolution = next(o for o in data["options"] if o["name"] == "resolution")
    assert resolution["default"] == "sf"
    assert resolution["choices"] == ["sf", "b5"]
    assert resolution["doc"]


# ---- battle ---------------------------------------------------------------------------

LOG_LINE = re.compile(r"^T\d+ \[ACTA-[A-Z]+-\d+\] \S")


def test_battle_prints_the_cited_log_and_outcome() -> None:
    out = ok("battle", "furball", "--seed", "3", *RANDOM)
    lines = out.splitlines()
    assert lines[0].startswith("Furball (acta")
    log = [ln for ln in lines if LOG_LINE.match(ln)]
    assert len(log) > 20
    assert any(re.search(r"\[ACTA-INI-1\] turn 1: .*\(d6: \d, \d\)$", ln) for ln in log)
    assert any(ln.startswith("Result: ") for ln in lines)
    assert "Survivors:" in out


def test_battle_output_is_byte_identical_for_the_same_seed() -> None:
    args = ("battle", "furball", "--seed", "4", *RANDOM)
    assert ok(*args) == ok(*args)
    assert ok(*args) != ok("battle", "furball", "--seed", "5", *RANDOM)


def test_battle_json() -> None:
    args = ("battle", "furball", "--seed", "2", *RANDOM, "--json")
    first = run(*args).stdout
    assert first == run(*args).stdout
    data = one_json(*args)
    for key in ("ruleset", "scenario", "seed", "winner", "turns", "reason", "survivors"):
        assert key in data
    assert (data["ruleset"], data["scenario"], data["seed"]) == ("acta", "furball", 2)
    assert data["winner"] in (None, "Empire", "Klingon")
    assert set(data["survivors"]) == {"Empire", "Klingon"}
    assert all("id" in u and "type" in u for u in data["survivors"]["Empire"])
    assert data["options"]["resolution"] == "sf"
    assert isinstance(data["events"], int) and data["events"] > data["actions"] > 0
    assert data["players"] == {"Empire": "random", "Klingon": "random"}


def test_battle_quiet_and_rules() -> None:
    out = ok("battle", "furball", *RANDOM, "--quiet", "--rule", "resolution=b5")
    assert not any(LOG_LINE.match(ln) for ln in out.splitlines())
    assert "options resolution=b5" in out.splitlines()[0]
    assert "Result: " in out
    data = one_json("battle", "furball", *RANDOM, "--rule", "resolution=b5", "--json")
    assert data["options"]["resolution"] == "b5"
    assert data["rules"] == {"resolution": "b5"}


def test_battle_from_a_scenario_file() -> None:
    data = one_json("battle", FURBALL, *RANDOM, "--json")
    assert data["scenario"] == "furball"


# ---- save, replay, validate ---------------------------------------------------------


def test_battle_save_then_replay_reproduces(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    out = ok("battle", "furball", "--seed", "6", *RANDOM, "--save", game)
    assert f"Saved game file: {game}" in out
    assert game.exists()
    replayed = ok("replay", game)
    assert "Replay: reproduced exactly" in replayed
    # the replayed log is the battle's log
    battle_log = [ln for ln in out.splitlines() if LOG_LINE.match(ln)]
    assert [ln for ln in replayed.splitlines() if LOG_LINE.match(ln)] == battle_log
    data = one_json("replay", game, "--json")
    assert data["replay_matches"] is True
    assert data["seed"] == 6
    assert "Replay: reproduced exactly" in ok("replay", game, "--quiet")
    assert ok("validate", game).startswith("ok: game file")


def test_replay_that_does_not_reproduce_exits_1(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    ok("battle", "furball", *RANDOM, "--save", game, "--quiet")
    data = json.loads(game.read_text())
    data["log_digest"] = "0" * 64
    game.write_text(json.dumps(data))
    result = run("replay", game, "--quiet")
    assert result.exit_code == 1
    assert "did NOT reproduce" in result.stdout
    result = run("replay", game, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["replay_matches"] is False
    assert "event log differs" in fails("validate", game)


def test_validate_scenario_and_unit_files(tmp_path: Path) -> None:
    assert ok("validate", FURBALL).startswith("ok: scenario")
    out = ok("validate", WASP)
    assert out.startswith("ok: acta unit file") and "'wasp'" in out
    other = tmp_path / "notes.yaml"
    other.write_text("just: some notes\n")
    assert "not a unit, scenario or game file" in fails("validate", other)


# ---- simulate -------------------------------------------------------------------------


def test_simulate_summary() -> None:
    out = ok("simulate", "furball", "-n", "4", "--jobs", "1", *RANDOM)
    assert "4 battles" in out
    assert "Empire wins" in out and "Klingon wins" in out and "draw" in out
    assert "95% interval" in out and "Turns: mean" in out
    data = one_json("simulate", "furball", "-n", "4", "--jobs", "1", *RANDOM, "--json")
    assert data["battles"] == 4
    assert set(data["sides"]) == {"Empire", "Klingon"}
    wins = sum(s["wins"] for s in data["sides"].values()) + data["draws"]["count"]
    assert wins == 4
    for side in data["sides"].values():
        assert 0.0 <= side["low"] <= side["rate"] <= side["high"] <= 1.0
    assert data["turns"]["mean"] > 0


def test_simulate_jobs_do_not_change_results(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    base = ("simulate", "furball", "-n", "6", "--seed", "9", *RANDOM, "--json", "--out")
    first = one_json(*base, one, "--jobs", "1")
    second = one_json(*base, two, "--jobs", "2")
    assert one.read_text() == two.read_text()
    rows = [json.loads(line) for line in one.read_text().splitlines()]
    assert [r["game"] for r in rows] == list(range(6))
    first.pop("out")
    second.pop("out")
    assert first == second


def test_simulate_csv_out(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv"
    out = ok("simulate", "furball", "-n", "3", "--jobs", "1", *RANDOM, "--out", path)
    assert f"Wrote 3 rows to {path}" in out
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3
    assert set(rows[0]) >= {"game", "seed", "winner", "turns", "reason", "actions", "events"}
    assert "survivors_Empire" in rows[0] and "survivors_Klingon" in rows[0]


# ---- import ---------------------------------------------------------------------------

CRAFT = """Raptor Light Fighter (R1)
A fast interceptor of our own design.
Speed: 12, Turn: SM, Dogfight: +1, Damage: 1, Traits: Dodge 5+, Fighter
ISD: 170+
Laser-1F 2" T 2 Precise
"""


def test_import_acta(tmp_path: Path) -> None:
    source = tmp_path / "craft.txt"
    source.write_text(CRAFT)
    units = tmp_path / "units"
    out = ok("import", "acta", source, "--out", units, "--fleet", "Raiders")
    written = units / "raptor.yaml"
    assert written.exists()
    assert "Raptor Light Fighter" in out and str(written) in out
    assert "fleet: Raiders" in written.read_text()
    assert ok("validate", written).startswith("ok: acta unit file")
    assert "not overwriting" in fails("import", "acta", source, "--out", units)
    data = one_json("import", "acta", source, "--out", units, "--overwrite", "--json")
    assert data["written"][0]["id"] == "raptor"


def test_import_acta_bad_line(tmp_path: Path) -> None:
    source = tmp_path / "bad.txt"
    source.write_text("Raptor (R1)\nSpeed: fast, Turn: SM, Dogfight: 0, Damage: 1\n")
    message = fails("import", "acta", source, "--out", tmp_path)
    assert f"{source}:2:" in message and "Speed" in message


# ---- bench ----------------------------------------------------------------------------


def test_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    # Random players keep this fast; speeds are printed, never checked.
    monkeypatch.setattr(bench_module, "bench_kind", lambda ruleset: "random")
    data = one_json("bench", "acta", "--battles", "1", "--json")
    assert {r["scenario"] for r in data["results"]} >= {"furball", "carrier-strike"}
    assert all(r["battles_per_s"] > 0 and r["actions_per_s"] > 0 for r in data["results"])
    out = ok("bench", "acta", "--battles", "1")
    assert "battles/s" in out and "actions/s" in out and "furball" in out


# ---- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["battle", "no-such-scenario"], "no scenario file or built-in scenario"),
        (["units", "nope"], "no ruleset 'nope'"),
        (["show", "acta", "nope"], "no acta unit 'nope'"),
        (["scenarios", "nope"], "no ruleset 'nope'"),
        (["options", "nope"], "no ruleset 'nope'"),
        (["bench", "nope"], "no ruleset 'nope'"),
        (["battle", "furball", *RANDOM, "--rule", "nosuch=1"], "unknown rule option 'nosuch'"),
        (["battle", "furball", *RANDOM, "--rule", "resolution=x"], "option 'resolution'"),
        (["battle", "furball", *RANDOM, "--rule", "resolution"], "KEY=VALUE"),
        (["simulate", "furball", "-n", "2", "--rule", "nosuch=1"], "unknown rule option"),
        (["battle", "furball", "--ai", "Romulan=random"], "no side 'Romulan'"),
        (["battle", "furball", "--ai", "Empire=genius"], "no player kind 'genius'"),
        (["battle", "furball", "--ai", "Empire"], "SIDE=KIND"),
        (["simulate", "furball", "-n", "2", "--ai", "Romulan=random"], "no side 'Romulan'"),
        (["replay", "no-such-file.json"], "no-such-file.json: no such file"),
        (["validate", "no-such-file.yaml"], "no-such-file.yaml: no such file"),
        (["import", "acta", "no-such-file.txt"], "no-such-file.txt: no such file"),
    ],
)
def test_errors_are_one_line(args: list[str], expected: str) -> None:
    assert expected in fails(*args, code=1)


@pytest.mark.parametrize(
    "args",
    [
        ["battle", "furball", "--seed", "x"],
        ["battle"],
        ["no-such-command"],
        ["simulate", "furball", "-n", "0"],
        ["battle", "furball", "--no-such-option"],
    ],
)
def test_bad_parameters_are_one_line(args: list[str]) -> None:
    fails(*args, code=2)


GOOD_SCENARIO = FURBALL.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("name: x\nruleset: acta\nsides: [\n", "bad YAML"),
        (GOOD_SCENARIO.replace("turn_limit: 8", "turn_limit: lots"), "field 'turn_limit'"),
        (GOOD_SCENARIO.replace("type: zul,", "type: zorg,", 1), "field 'sides[1].units[1].type'"),
        (GOOD_SCENARIO.split("sides:")[0], "field 'sides'"),
        (GOOD_SCENARIO.replace("ruleset: acta", "ruleset: nope"), "field 'ruleset'"),
        (GOOD_SCENARIO.replace("name: furball\n", ""), "field 'name'"),
        ("- just\n- a list\n", "must be a mapping"),
    ],
)
@pytest.mark.parametrize("command", ["battle", "simulate", "validate"])
def test_malformed_scenario_file(tmp_path: Path, command: str, text: str, field: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    extra = RANDOM if command != "validate" else []
    if command == "validate" and "list" in text:
        field = "not a unit, scenario or game file"
    message = fails(command, path, *extra)
    assert str(path) in message
    assert field in message


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("saved") / "game.json"
    ok("battle", "furball", *RANDOM, "--save", path, "--quiet")
    return path.read_text()


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda text: text[: len(text) // 2], "damaged JSON"),
        (lambda text: text.replace('"dogfight-game"', '"something-else"'), "field 'format'"),
        (lambda text: text.replace('"format_version": 1', '"format_version": 99'), "99"),
        (lambda text: "", "damaged JSON"),
    ],
)
@pytest.mark.parametrize("command", ["replay", "validate"])
def test_damaged_game_file(
    tmp_path: Path, saved_game: str, command: str, damage: Any, expected: str
) -> None:
    path = tmp_path / "damaged.json"
    path.write_text(damage(saved_game))
    message = fails(command, path)
    assert str(path) in message
    assert expected in message


def test_version() -> None:
    assert ok("--version").startswith("dogfight ")


def test_no_command_prints_help_not_an_error() -> None:
    result = run()
    assert "Usage:" in result.output and "battle" in result.output
    assert "error:" not in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "scenario",
    [f"{p.parent.parent.name}/{p.stem}" for p in builtin_scenario_files()],
)
def test_battle_json_is_deterministic_for_every_scenario(scenario: str) -> None:
    """`dogfight battle SCENARIO --seed 7 --json` twice prints the same bytes, with the
    default (heuristic) players where the ruleset has one."""
    ruleset = scenario.split("/")[0]
    try:
        make_player("heuristic", ruleset)
        players: tuple[str, ...] = ()
    except UnknownName:
        players = tuple(
            arg
            for side in load_scenario(scenario).raw["sides"]
            for arg in ("--ai", f"{side['name']}=random")
        )
    args = ("battle", scenario, "--seed", "7", *players, "--json")
    first = run(*args).stdout
    assert first == run(*args).stdout
    data = json.loads(first)
    assert data["seed"] == 7 and data["ruleset"] == ruleset


@pytest.mark.parametrize(
    ("path", "says"),
    [
        (("evo", "units", "nial.yaml"), "ok: evo unit file"),
        (("sfa", "craft", "rebel-fighter.yaml"), "ok: sfa unit file"),
        (("sfa", "fighters", "reogi.yaml"), "Street Fighter"),
    ],
)
def test_validate_unit_files_of_every_ruleset(path: tuple[str, ...], says: str) -> None:
    assert says in ok("validate", package_data(*path))


def test_import_trinity_writes_a_craft_file(tmp_path: Path) -> None:
    """The seed's Trinity conversion (Appendix 2) from the command line."""
    vehicle = tmp_path / "hybrid.yaml"
    vehicle.write_text(
        "name: Hybrid\nvt: Hybrid Fighter\nvs: 4\nhandling: 2\nsoak: 3 [Defense Add 5]\n"
        "weapons:\n- {name: Pulse Laser, accuracy: 3, damage: 7, scale: 5}\n",
        encoding="utf-8",
    )
    out = ok("import", "trinity", vehicle, "--out", tmp_path / "craft")
    assert "Starfighter" in out
    assert "ok: sfa unit file" in ok("validate", tmp_path / "craft" / "hybrid.yaml")
    again = run("import", "trinity", vehicle, "--out", tmp_path / "craft")
    assert again.exit_code == 1 and "already exists" in again.output
