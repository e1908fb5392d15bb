"""The ACTA scenario schema: table, year, turn limit, sides and their units."""

from __future__ import annotations

import math

import msgspec

from dogfight.core.data import convert
from dogfight.core.errors import DataError
from dogfight.core.limits import Count, Degrees, Position, Score, TableSide, TurnLimit
from dogfight.core.scenario import Scenario
from dogfight.rulesets.acta.units import UnitSpec


class TableSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Table size in inches."""

    width: TableSide = 48.0
    height: TableSide = 48.0


class UnitEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One unit on a side's roster.

    `at` is the base centre (inches) and `heading` its facing in degrees (0 = +x,
    anticlockwise). Ships may carry fighters (`aboard`, a map of fighter type to
    count, at most the ship's Craft score). By the seed's combat-space-patrol rule
    (ACTA-DEP-1) each carrier deploys one fighter at the start unless `patrol`
    is false; `patrol_at` says where (default: 2" ahead of the ship).
    """

    type: str
    at: tuple[Position, Position]
    heading: Degrees = 0.0
    id: str = ""
    aboard: dict[str, Count] = msgspec.field(default_factory=dict)
    patrol: bool = True
    patrol_at: tuple[Position, Position] | None = None
    supporting: str = ""
    """Fighters only: start on this friendly ship's base, supporting it (ACTA-SUP-1)."""
    dogfight_drones: bool | None = None
    """Fighters with a (*) weapon: true/false presets the swap; omitted, the player decides."""


class ZoneSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A deployment zone: the rectangle x[0] <= x <= x[1], y[0] <= y <= y[1] (inches)."""

    x: tuple[float, float]
    y: tuple[float, float]


class SideSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side: its name, initiative bonus and units."""

    name: str
    units: list[UnitEntry]
    initiative: Score = 0
    """The fleet's Initiative bonus added to its d6 (ACTA-INI-1)."""
    deployment: ZoneSpec | None = None
    """The side's deployment zone: if given, the side places its units in it before the
    battle (ACTA-DEP-4); if not, they stand where `at` puts them."""


class ActaScenarioSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The whole scenario file for the `acta` ruleset."""

    name: str
    ruleset: str
    sides: list[SideSpec]
    title: str = ""
    description: str = ""
    table: TableSpec = msgspec.field(default_factory=TableSpec)
    turn_limit: TurnLimit = 8
    year: int | None = None
    """The campaign year: units whose in-service date (ISD) is later are refused."""
    options: dict[str, bool | int | float | str] = msgspec.field(default_factory=dict)
    custom_units: list[UnitSpec] = msgspec.field(default_factory=list)
    """Unit types defined in the scenario itself (same fields as a unit file)."""
    unit_files: list[str] = msgspec.field(default_factory=list)
    """Unit files to use, relative to the scenario file; read into `custom_units` when
    the game starts, so that game files stand alone."""


def parse_scenario(scenario: Scenario) -> ActaScenarioSpec:
    """Validate a scenario's body against the ACTA schema."""
    spec = convert(scenario.raw, ActaScenarioSpec, scenario.where)
    if len(spec.sides) != 2:
        raise DataError(f"{scenario.where}: field 'sides': an acta battle has exactly two sides")
    names = [s.name for s in spec.sides]
    if len(set(names)) != 2:
        raise DataError(f"{scenario.where}: field 'sides': the two sides need different names")
    if spec.turn_limit < 1:
        raise DataError(f"{scenario.where}: field 'turn_limit': must be at least 1")
    if spec.table.width <= 0 or spec.table.height <= 0:
        raise DataError(f"{scenario.where}: field 'table': width and height must be positive")
    for index, side in enumerate(spec.sides):
        if side.deployment is not None:
            check_zone(side.deployment, spec.table, scenario.where, f"sides[{index}].deployment")
    return spec


def check_zone(zone: ZoneSpec, table: TableSpec, where: str, field: str) -> None:
    """A deployment zone must be a finite rectangle on the table (ACTA-DEP-4)."""
    for axis, (low, high), size in (("x", zone.x, table.width), ("y", zone.y, table.height)):
        name = f"{field}.{axis}"
        if not (math.isfinite(low) and math.isfinite(high)):
            raise DataError(f"{where}: field '{name}': the bounds must be finite numbers")
        if low > high:
            raise DataError(f"{where}: field '{name}': the low bound {low:g} is above {high:g}")
        if low < 0 or high > size:
            raise DataError(
                f"{where}: field '{name}': [{low:g}, {high:g}] is not inside the table's "
                f"0 to {size:g}"
            )
