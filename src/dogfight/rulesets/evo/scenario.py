"""The EVO scenario schema: table, turn limit, sides and their flights."""

from __future__ import annotations

import msgspec

from dogfight.core.data import convert
from dogfight.core.errors import DataError
from dogfight.core.limits import Count, Degrees, Inches, Position, TableSide, TurnLimit
from dogfight.core.scenario import Scenario
from dogfight.rulesets.evo.units import UnitSpec


class TableSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table size in inches."""

    width: TableSide = 48.0
    height: TableSide = 48.0


class FlightEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One flight on a side's roster.

    `at` is the leader's position and `heading` the flight's facing (degrees, 0 = +x,
    anticlockwise). The other models are placed in line abreast `spacing` inches
    apart, unless `models_at` gives each model's position (leader first).
    """

    type: str
    at: tuple[Position, Position]
    heading: Degrees = 0.0
    id: str = ""
    models: Count = 0
    """Models in the flight (0: the type's standard flight)."""
    spacing: Inches = 2.0
    models_at: list[tuple[Position, Position]] = msgspec.field(default_factory=list)


class SideSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side: its name and flights."""

    name: str
    units: list[FlightEntry]


class EvoScenarioSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The whole scenario file for the `evo` ruleset."""

    name: str
    ruleset: str
    sides: list[SideSpec]
    title: str = ""
    description: str = ""
    table: TableSpec = msgspec.field(default_factory=TableSpec)
    turn_limit: TurnLimit = 6
    first: str = ""
    """The side that takes the first turn; empty: a roll-off decides (EVO-SEQ-1)."""
    options: dict[str, bool | int | float | str] = msgspec.field(default_factory=dict)
    custom_units: list[UnitSpec] = msgspec.field(default_factory=list)
    unit_files: list[str] = msgspec.field(default_factory=list)


def parse_scenario(scenario: Scenario) -> EvoScenarioSpec:
    """Validate a scenario's body against the EVO schema."""
    spec = convert(scenario.raw, EvoScenarioSpec, scenario.where)
    if len(spec.sides) != 2:
        raise DataError(f"{scenario.where}: field 'sides': an evo battle has exactly two sides")
    names = [s.name for s in spec.sides]
    if len(set(names)) != 2:
        raise DataError(f"{scenario.where}: field 'sides': the two sides need different names")
    if spec.first and spec.first not in names:
        raise DataError(f"{scenario.where}: field 'first': no side called {spec.first!r}")
    if spec.turn_limit < 1:
        raise DataError(f"{scenario.where}: field 'turn_limit': must be at least 1")
    if spec.table.width <= 0 or spec.table.height <= 0:
        raise DataError(f"{scenario.where}: field 'table': width and height must be positive")
    return spec
