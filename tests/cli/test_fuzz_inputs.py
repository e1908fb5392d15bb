"""Property-based fuzzing of what users feed the engine (issue 17): built-in scenario,
unit and game files with one value replaced by something hostile, rule options, command
lines and actions.

Each property: the input is either accepted (exit 0) or refused with exactly one
stderr line `error: ...` that names the file (or the option), never a traceback, never
a hang (hypothesis' deadline), and the file on disk is never changed or joined by
another.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.data import package_data
from dogfight.core.errors import DogfightError, IllegalAction, OptionError
from dogfight.core.game import Game
from dogfight.core.limits import MAX_MESSAGE
from dogfight.core.registry import all_rulesets
from dogfight.core.scenario import builtin_scenario_files, load_scenario

runner = CliRunner()
FUZZ = settings(
    max_examples=40,
    deadline=20_000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


def _deep(levels: int) -> Any:
    value: Any = "deep"
    for _ in range(levels):
        value = [value]
    return value


DEEP = _deep(80)
HOSTILE = st.sampled_from(
    [
        math.nan,
        math.inf,
        -math.inf,
        2**70,
        -(2**70),
        10**30,
        "",
        "x" * 5000,
        None,
        [],
        {},
        True,
        DEEP,
    ]
)


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside plain data."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_of(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths_of(item, (*prefix, index))
    return found


def replaced(data: Any, path: tuple[Any, ...], new: Any) -> Any:
    copy = json.loads(json.dumps(data))
    target = copy
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = new
    return copy


def assert_accepted_or_one_line(args: list[str], names: str) -> None:
    result = runner.invoke(app, args)
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        return
    assert not isinstance(result.exception, AssertionError)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert names in lines[0], lines[0]
    assert len(lines[0]) <= MAX_MESSAGE + 100


SCENARIOS = [yaml.safe_load(p.read_text()) for p in builtin_scenario_files()]
UNIT_FILES = sorted(package_data().glob("*/units/*.yaml")) + sorted(
    package_data().glob("sfa/craft/*.yaml")
)
UNITS = [(p.name, yaml.safe_load(p.read_text())) for p in UNIT_FILES]


@st.composite
def mutated(draw: st.DrawFn, documents: list[Any]) -> tuple[int, Any]:
    index = draw(st.integers(0, len(documents) - 1))
    doc = documents[index][1] if isinstance(documents[index], tuple) else documents[index]
    path = draw(st.sampled_from(paths_of(doc)))
    return index, replaced(doc, path, draw(HOSTILE))


@FUZZ
@given(case=mutated(SCENARIOS))
def test_mutated_scenarios(tmp_path: Path, case: tuple[int, Any]) -> None:
    _, doc = case
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    before = path.read_bytes()
    assert_accepted_or_one_line(["validate", str(path)], "scenario.yaml")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["scenario.yaml"]


@FUZZ
@given(case=mutated(UNITS))
def test_mutated_unit_files(tmp_path: Path, case: tuple[int, Any]) -> None:
    index, doc = case
    name = UNITS[index][0]
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    before = path.read_bytes()
    assert_accepted_or_one_line(["validate", str(path)], name)
    assert path.read_bytes() == before


def _saved_game(ruleset_dir: str) -> dict[str, Any]:
    scenario = load_scenario(builtin_scenario_files(ruleset_dir)[0].stem)
    game = Game(scenario, seed=3)
    for _ in range(12):
        actions = game.legal_actions()
        if not actions:
            break
        game.apply(actions[len(actions) // 2])
    data: dict[str, Any] = json.loads(msgspec.json.encode(_gamefile(game)))
    return data


def _gamefile(game: Game) -> Any:
    from dogfight.core.gamefile import to_gamefile

    return to_gamefile(game)


GAMES = [_saved_game(r.name) for r in all_rulesets()]


@FUZZ
@given(case=mutated(GAMES))
def test_mutated_game_files(tmp_path: Path, case: tuple[int, Any]) -> None:
    _, doc = case
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = path.read_bytes()
    for command in ("validate", "replay"):
        assert_accepted_or_one_line(
            [command, str(path), *(["--quiet"] * (command == "replay"))], "game.json"
        )
    assert path.read_bytes() == before


OPTIONS = [(r, o) for r in all_rulesets() for o in r.options]
OPTION_TEXT = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "1e400", "-1", "0", "99999999999999999999999", ""]),
    st.text(max_size=30),
    st.integers(-(2**80), 2**80).map(str),
    st.floats().map(str),
)


@FUZZ
@given(pick=st.sampled_from(OPTIONS), raw=st.one_of(OPTION_TEXT, HOSTILE))
def test_rule_options(pick: Any, raw: Any) -> None:
    _, option = pick
    try:
        value = option.parse(raw, "fuzz")
    except OptionError as exc:
        assert option.name in str(exc)
        return
    assert type(value) is type(option.default)
    if isinstance(value, float):
        assert math.isfinite(value)
    if option.minimum is not None:
        assert value >= option.minimum
    if option.maximum is not None:
        assert value <= option.maximum
    if option.choices:
        assert value in option.choices


COMMAND_WORDS = st.sampled_from(
    [
        "battle", "simulate", "validate", "replay", "show", "units", "odds", "duel",
        "furball", "skirmish", "fighter-duel", "acta", "evo", "sfa", "zaresh", "--seed",
        "-n", "--rule", "--ai", "--json", "--quiet", "--save", "--out", "nan", "-1",
        str(2**70), "Empire=random", "k=v", "", "/dev/null", "/", "x.parquet",
    ]
)  # fmt: skip


@settings(FUZZ, max_examples=60)
@given(words=st.lists(COMMAND_WORDS, min_size=1, max_size=6))
def test_command_lines(tmp_path: Path, words: list[str]) -> None:
    if words[0] in ("battle", "simulate", "duel") and "-n" not in words:
        words = [*words, "-n", "1"] if words[0] != "battle" else words
    result = runner.invoke(app, words)
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, AssertionError | TypeError | ValueError | KeyError)
    if result.exit_code not in (0,):
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        # A usage error from a group without a command prints its help instead.
        if lines and lines[0].startswith("error: "):
            assert len(lines) == 1, result.stderr


NUMBERS = st.sampled_from([math.nan, math.inf, -math.inf])


@pytest.mark.parametrize("ruleset", [r.name for r in all_rulesets()])
@FUZZ
@given(data=st.data())
def test_actions_with_bad_numbers_are_illegal(ruleset: str, data: st.DataObject) -> None:
    scenario = load_scenario(builtin_scenario_files(ruleset)[0].stem)
    game = Game(scenario, seed=data.draw(st.integers(0, 1000)))
    for _ in range(data.draw(st.integers(0, 10))):
        actions = game.legal_actions()
        if not actions:
            return
        game.apply(data.draw(st.sampled_from(actions)))
    actions = game.legal_actions()
    if not actions:
        return
    raw = msgspec.to_builtins(data.draw(st.sampled_from(actions)))
    spots = [p for p in paths_of(raw) if isinstance(_at(raw, p), float | int)]
    spots = [p for p in spots if not isinstance(_at(raw, p), bool)]
    if not spots:
        return
    bad = replaced(raw, data.draw(st.sampled_from(spots)), data.draw(NUMBERS))
    try:
        action = msgspec.convert(bad, game.ruleset.action_type)
    except msgspec.ValidationError:
        return  # the type itself refuses it
    with pytest.raises(IllegalAction):
        game.check(action)
    try:
        game.apply(action)
    except IllegalAction:
        pass
    except DogfightError as exc:  # pragma: no cover - would be a failure below
        raise AssertionError(f"apply raised {exc!r}, not IllegalAction") from exc
    save_path_check(game)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def save_path_check(game: Game) -> None:
    """The game still saves to a file that reloads (nothing non-finite got in)."""
    text = msgspec.json.encode(_gamefile(game))
    assert b"NaN" not in text and b"Infinity" not in text
