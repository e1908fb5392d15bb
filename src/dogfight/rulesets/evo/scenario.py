"""The EVO scenario schema: table, turn limit, sides and their flights."""

from __future__ import annotations

import math

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


class GateSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A jump gate: a point on the table through which flights leave or arrive
    (EVO-GATE-1). `heading` is the way arriving flights face; `radius` how near its
    centre a model must be to jump out."""

    id: str
    at: tuple[float, float]
    heading: float = 0.0
    radius: float = 3.0


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
    arrive: str = ""
    """A jump gate id: the flight starts in hyperspace and arrives through that gate
    when first activated from turn `arrive_turn` on (EVO-GATE-2); `at` is then unused."""
    arrive_turn: Count = 1


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
    jump_gates: list[GateSpec] = msgspec.field(default_factory=list)
    """Jump gates on the table (EVO-GATE-1)."""
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
    check_gates(spec, scenario.where)
    return spec


MAX_GATE_RADIUS = 12.0
"""The widest a jump gate may be (a sanity bound on data)."""


def check_gates(spec: EvoScenarioSpec, where: str) -> None:
    """Validate jump gates and the flights that arrive through them (EVO-GATE-1/2):
    finite numbers, on the table, sane radius, known gate, arrival within the battle."""
    table = spec.table
    ids: set[str] = set()
    for i, gate in enumerate(spec.jump_gates):
        field = f"jump_gates[{i}]"

        def bad(name: str, message: str, field: str = field) -> DataError:
            return DataError(f"{where}: field '{field}.{name}': {message}")

        if not gate.id:
            raise bad("id", "a jump gate needs an id")
        if gate.id in ids:
            raise bad("id", f"two jump gates are called {gate.id!r}")
        ids.add(gate.id)
        x, y = gate.at
        if not (math.isfinite(x) and math.isfinite(y)):
            raise bad("at", f"must be two finite numbers, not {list(gate.at)}")
        if not (0 <= x <= table.width and 0 <= y <= table.height):
            raise bad("at", f"({x:g}, {y:g}) is off the table")
        if not math.isfinite(gate.heading):
            raise bad("heading", f"must be a finite number, not {gate.heading}")
        if not (math.isfinite(gate.radius) and 0 < gate.radius <= MAX_GATE_RADIUS):
            raise bad(
                "radius", f"must be above 0 and at most {MAX_GATE_RADIUS:g}, not {gate.radius}"
            )
    for si, side in enumerate(spec.sides):
        for ui, entry in enumerate(side.units):
            field = f"sides[{si}].units[{ui}]"
            if entry.arrive and entry.arrive not in ids:
                raise DataError(
                    f"{where}: field '{field}.arrive': no jump gate called {entry.arrive!r}"
                )
            if not 1 <= entry.arrive_turn <= spec.turn_limit:
                raise DataError(
                    f"{where}: field '{field}.arrive_turn': must be between 1 and the turn "
                    f"limit {spec.turn_limit}, not {entry.arrive_turn}"
                )
