"""Every `--help` and the ruleset commands' outputs, byte for byte as recorded before the
CLI stopped naming rulesets (issue 12): the commands a ruleset declares through
`Ruleset.commands()` must print what the hand-written ones printed.

The fixtures were recorded at commit b57b7c8 with COLUMNS=100 (`DOGFIGHT_RECORD=1 pytest
tests/cli/test_help_fixtures.py` writes them again; do that only on purpose).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.registry import all_rulesets, find_ruleset

FIXTURES = Path(__file__).parent / "fixtures"
HELP = FIXTURES / "help.json"
OUTPUTS = FIXTURES / "outputs.json"
ENV = {"COLUMNS": "100", "NO_COLOR": "1", "TERMINAL_WIDTH": "100"}
RECORD = os.environ.get("DOGFIGHT_RECORD") == "1"
BUILT_IN = {"acta", "evo", "sfa"}

runner = CliRunner()

# Commands whose output is recorded: (ruleset whose commands serve it, arguments).
RULESET_RUNS: list[tuple[str, list[str]]] = [
    ("acta", ["odds", "acta", "dogfight", "zaresh", "hummingbird"]),
    ("acta", ["odds", "acta", "dogfight", "zaresh", "hummingbird", "--json"]),
    (
        "acta",
        [
            "odds", "acta", "dogfight", "hummingbird", "zaresh", "--rule", "dogfight_tie=reroll",
            "--attacker-support", "1", "--defender-drones",
        ],
    ),
    ("acta", ["odds", "acta", "attack", "hornet", "Photon-F", "mantis", "--range", "3"]),
    ("acta", ["odds", "acta", "attack", "hornet", "Photon-F", "mantis", "--json"]),
    ("acta", ["odds", "acta", "attack", "dragonfly", "Phaser-3F", "zaresh", "--not-moved"]),
    (
        "acta",
        ["odds", "acta", "attack", "tiger", "Photon Torpedo", "kavrik", "--rule", "resolution=b5"],
    ),
    ("acta", ["odds", "acta", "attack", "hornet", "Photon-F", "mantis", "--range", "-1"]),
    ("acta", ["odds", "acta", "dogfight", "zaresh", "no-such-unit"]),
    ("acta", ["odds", "acta", "dogfight", "zaresh", "hummingbird", "--attacker-support", "-1"]),
    ("acta", ["odds", "acta", "dogfight", "zaresh", "hummingbird", "--rule", "nonsense=1"]),
    ("evo", ["odds", "evo", "attack", "nial", "Triple fusion cannon", "sentri", "--range", "12"]),
    ("evo", ["odds", "evo", "attack", "nial", "Triple fusion cannon", "sentri", "--json"]),
    (
        "evo",
        [
            "odds", "evo", "attack", "razik", "Light particle gun", "sentri", "--six",
            "--models", "2",
        ],
    ),
    ("evo", ["odds", "evo", "attack", "nial", "Triple fusion cannon", "sentri", "--models", "13"]),
    ("evo", ["odds", "evo", "attack", "nial", "no such gun", "sentri"]),
    ("sfa", ["odds", "sfa", "pool", "7"]),
    ("sfa", ["odds", "sfa", "pool", "7", "--json"]),
    ("sfa", ["odds", "sfa", "pool", "3", "--willpower", "--difficulty", "8"]),
    ("sfa", ["odds", "sfa", "pool", "0"]),
    ("sfa", ["odds", "sfa", "pool", "4", "--plot", "p.jpeg"]),
    ("sfa", ["design", "sfa", "rebel-frigate"]),
    ("sfa", ["design", "sfa", "alien-mothership", "--json"]),
    ("sfa", ["design", "sfa", "rebel-fighter", "--fire-link", "weapon", "--power-points", "7"]),
    ("sfa", ["design", "sfa", "rebel-fighter", "--power-points", "-3"]),
    ("sfa", ["design", "sfa", "rebel-fighter", "--out-of-scale", "guess"]),
    ("sfa", ["import", "trinity", "no-such-file.txt"]),
    ("acta", ["import", "acta", "no-such-file.txt"]),
    ("acta", ["import", "acta", "no-such-file.txt", "--origin", "stolen"]),
    ("acta", ["import", "acta", "craft.txt", "--out", "units", "--fleet", "Raiders"]),
    ("acta", ["import", "acta", "craft.txt", "--out", "units", "--fleet", "Raiders"]),
    (
        "acta",
        ["import", "acta", "craft.txt", "--out", "u2", "--fleet-of", "raptor=Klingon", "--json"],
    ),
    ("sfa", ["import", "trinity", "hybrid.yaml", "--out", "craft"]),
    ("sfa", ["import", "trinity", "hybrid.yaml", "--out", "craft2", "--json"]),
    ("sfa", ["odds", "sfa", "pool", "4", "--plot", "p.png"]),
    ("acta", ["odds", "acta", "dogfight", "wasp", "zul", "--json", "--plot", "d.svg"]),
]  # fmt: skip

# Input files the runs read, written to the working directory first.
SOURCES = {
    "craft.txt": (
        "Raptor Light Fighter (R1)\nA fast interceptor of our own design.\n"
        "Speed: 12, Turn: SM, Dogfight: +1, Damage: 1, Traits: Dodge 5+, Fighter\n"
        'ISD: 170+\nLaser-1F 2" T 2 Precise\n'
    ),
    "hybrid.yaml": (
        "name: Hybrid\nvt: Hybrid Fighter\nvs: 4\nhandling: 2\nsoak: 3 [Defense Add 5]\n"
        "weapons:\n- {name: Pulse Laser, accuracy: 3, damage: 7, scale: 5}\n"
    ),
}


def write_sources(where: Path) -> None:
    """The input files of the recorded runs, in `where`."""
    for name, text in SOURCES.items():
        (where / name).write_text(text, encoding="utf-8")


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command and group under `command`, as argument paths (the root is ())."""
    yield path
    # typer's click may be vendored: a group is whatever has sub-commands.
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


def invoke(target: typer.Typer, args: list[str]) -> dict[str, Any]:
    """Run the CLI in-process at a fixed width: exit code, stdout and stderr."""
    result = runner.invoke(target, args, env=ENV, prog_name="dogfight")
    return {"code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}


def help_outputs(target: typer.Typer) -> dict[str, dict[str, Any]]:
    """`--help` of every command of `target`, by command path."""
    root = typer.main.get_command(target)
    return {" ".join(p): invoke(target, [*p, "--help"]) for p in command_paths(root)}


def serves(ruleset: str) -> bool:
    """Whether the ruleset declares its own commands yet (they are wired at merge)."""
    return bool(find_ruleset(ruleset).commands())


def ruleset_of(path: str) -> str | None:
    """The ruleset whose own command this help path is (None: a generic command)."""
    words = path.split()
    if len(words) >= 2 and words[0] == "odds":
        return words[1]
    if len(words) == 2 and words[0] in ("import", "design", "tactics"):
        return {"acta": "acta", "trinity": "sfa", "sfa": "sfa"}.get(words[1], words[1])
    return None


def _record(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def test_record_fixtures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Write the fixtures (only with DOGFIGHT_RECORD=1)."""
    if not RECORD:
        pytest.skip("set DOGFIGHT_RECORD=1 to record the fixtures")
    FIXTURES.mkdir(exist_ok=True)
    _record(HELP, help_outputs(app))
    monkeypatch.chdir(tmp_path)
    write_sources(tmp_path)
    outputs: dict[str, list[dict[str, Any]]] = {}
    for _, args in RULESET_RUNS:  # a run listed twice is recorded twice (the second differs)
        outputs.setdefault(" ".join(args), []).append(invoke(app, args))
    _record(OUTPUTS, outputs)


def test_every_help_reads_as_recorded() -> None:
    """Every command and group prints the same help as before the rulesets' commands
    were built from their declarations (issue 12: every --help identical)."""
    recorded = json.loads(HELP.read_text())
    now = help_outputs(app)
    assert all(serves(r) for r in BUILT_IN)
    missing = set(recorded) - set(now)
    assert not missing, f"commands gone: {sorted(missing)}"
    # A plugin ruleset registered in this run (a test's subclass) adds its own odds group.
    plugins = {r.name for r in all_rulesets()} - BUILT_IN
    added = {p for p in set(now) - set(recorded) if ruleset_of(p) not in plugins}
    assert not added, f"new commands: record their help on purpose: {sorted(added)}"
    for path, output in recorded.items():
        if path == "odds" and plugins:
            continue  # its listing has the plugins' groups too
        assert now[path] == output, f"dogfight {path} --help differs"


UNIQUE_RUNS = {" ".join(args): (ruleset, args) for ruleset, args in RULESET_RUNS}
