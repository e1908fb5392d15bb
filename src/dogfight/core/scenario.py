"""Scenarios: the ruleset, the table, the sides and their units, options, limits.

The core reads the parts every ruleset shares; the rest (`raw`) is handed to the
ruleset, which validates it with its own schema.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.data import read_yaml
from dogfight.core.errors import DataError, UnknownName
from dogfight.core.names import suggest

GAME_FILE_FORMAT = "dogfight-game"
"""The `format` field of a game file (core.gamefile), which is not a scenario."""


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    """A scenario as loaded: shared header fields plus the ruleset's raw body."""

    name: str
    ruleset: str
    title: str
    description: str
    where: str
    """The file it came from, or `builtin:NAME`: used in error messages."""
    raw: dict[str, Any]
    """The whole file as parsed, stored in game files so they stand alone."""

    @property
    def options(self) -> dict[str, Any]:
        """Rule options the scenario sets."""
        value = self.raw.get("options") or {}
        if not isinstance(value, dict):
            raise DataError(f"{self.where}: field 'options': must be a mapping of name: value")
        return value


def scenario_from_raw(raw: Any, where: str) -> Scenario:
    """Check the shared header of a parsed scenario file."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a scenario file must be a mapping (name:, ruleset:, sides: ...)")
    for key in ("name", "ruleset"):
        if key not in raw:
            raise DataError(f"{where}: field '{key}': missing")
        if not isinstance(raw[key], str) or not raw[key].strip():
            raise DataError(f"{where}: field '{key}': must be a non-empty text")
    for key in ("title", "description"):
        if key in raw and not isinstance(raw[key], str):
            raise DataError(f"{where}: field '{key}': must be text")
    return Scenario(
        name=str(raw["name"]),
        ruleset=str(raw["ruleset"]),
        title=str(raw.get("title") or raw["name"]),
        description=str(raw.get("description") or ""),
        where=where,
        raw=raw,
    )


def _data_folders(ruleset: str | None) -> list[Path]:
    """The data folders of `ruleset` (None: of every registered ruleset), each once, in
    ruleset name order. A subclass shares its parent's folder."""
    # The registry sits above this module (it imports the Ruleset, which imports this).
    from dogfight.core.registry import all_rulesets, find_ruleset

    if ruleset is not None:
        try:
            return [find_ruleset(ruleset).data_folder()]
        except UnknownName:
            return []
    return list(dict.fromkeys(r.data_folder() for r in all_rulesets()))


def builtin_scenario_files(ruleset: str | None = None) -> list[Path]:
    """The scenario files shipped with `ruleset` (None: with every ruleset), sorted by
    name within each ruleset's data folder (`<data folder>/scenarios/*.yaml`)."""
    files: list[Path] = []
    for folder in _data_folders(ruleset):
        d = folder / "scenarios"
        if d.is_dir():
            files.extend(sorted(d.glob("*.yaml")))
    return files


def builtin_scenarios(ruleset: str | None = None) -> list[Scenario]:
    """The built-in scenarios of `ruleset` (None: of every ruleset), loaded, in the
    order of `builtin_scenario_files`.

    Asked for a ruleset that shares its data folder with another (a subclass under a
    new name), each scenario is that ruleset's: it is played by it."""
    return [
        _bound(load_scenario(str(path)), ruleset) if ruleset else load_scenario(str(path))
        for path in builtin_scenario_files(ruleset)
    ]


def _bound(scenario: Scenario, ruleset: str) -> Scenario:
    """The scenario played by `ruleset` when it shares the data folder the scenario came
    from: its `ruleset` field (and the raw file's, kept in game files) renamed."""
    from dogfight.core.registry import find_ruleset

    rules = find_ruleset(ruleset)
    try:
        same = find_ruleset(scenario.ruleset) is rules
    except UnknownName:
        same = False
    if same:
        return scenario
    raw = dict(scenario.raw)
    raw["ruleset"] = rules.name
    return msgspec.structs.replace(scenario, ruleset=rules.name, raw=raw)


def load_scenario(name_or_path: str) -> Scenario:
    """A scenario from a file path, or a built-in one by name ('NAME' or 'RULESET/NAME').

    Named with a ruleset ('RULESET/NAME'), the scenario is that ruleset's even when the
    file belongs to the ruleset it inherits its data from."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        if not path.exists():
            raise DataError(f"{path}: no such file")
        raw = read_yaml(path)
        if isinstance(raw, dict) and raw.get("format") == GAME_FILE_FORMAT:
            raise DataError(
                f"{path}: is a saved game, not a scenario; play it again with "
                f"'dogfight replay {path}'"
            )
        return scenario_from_raw(raw, str(path))
    ruleset, _, bare = name_or_path.rpartition("/")
    matches = [f for f in builtin_scenario_files(ruleset or None) if f.stem == bare]
    if len(matches) > 1:
        names = ", ".join(f"{f.parent.parent.name}/{f.stem}" for f in matches)
        raise UnknownName(f"'{name_or_path}' names several built-in scenarios: {names}")
    if matches:
        found = scenario_from_raw(read_yaml(matches[0]), f"builtin:{matches[0].stem}")
        return _bound(found, ruleset) if ruleset else found
    stems = [f.stem for f in builtin_scenario_files()]
    hint = suggest(bare, stems)
    raise UnknownName(
        f"no scenario file or built-in scenario '{name_or_path}'{hint}; "
        f"built-in: {', '.join(stems)}"
    )


def inline_unit_files(scenario: Scenario) -> Scenario:
    """Read a scenario's `unit_files` (paths relative to the scenario file) into its
    `custom_units`, so that the scenario, and any game file made from it, stands alone.

    Built-in scenarios look beside themselves, in the package's data folder.
    """
    files = scenario.raw.get("unit_files")
    if not files:
        return scenario
    where = scenario.where
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise DataError(f"{where}: field 'unit_files': must be a list of file paths")
    builtin = where.startswith("builtin:")
    base = _builtin_folder(scenario) if builtin else Path(where).parent
    raw = dict(scenario.raw)
    custom = list(raw.get("custom_units") or [])
    for i, name in enumerate(files):
        path = base / name
        if not path.exists():
            raise DataError(f"{where}: field 'unit_files[{i}]': no such file {path}")
        if not path.is_file():
            # A folder, a FIFO or a device: reading it would fail or block forever.
            raise DataError(f"{where}: field 'unit_files[{i}]': {path} is not a regular file")
        data = read_yaml(path)
        if not isinstance(data, dict):
            raise DataError(f"{path}: a unit file must be a mapping of field: value")
        custom.append(data)
    raw["custom_units"] = custom
    del raw["unit_files"]
    return msgspec.structs.replace(scenario, raw=raw)


def _builtin_folder(scenario: Scenario) -> Path:
    """Where a built-in scenario's unit files are: its ruleset's data `scenarios/`."""
    from dogfight.core.registry import find_ruleset

    return find_ruleset(scenario.ruleset).data_folder() / "scenarios"
