"""Building the first position of an EVO battle from a scenario."""

from __future__ import annotations

from dogfight.core.errors import DataError, UnknownName
from dogfight.core.scenario import Scenario
from dogfight.geometry import Pose, Table, Vec2, normalise_angle, overlaps
from dogfight.rulesets.evo.scenario import parse_scenario
from dogfight.rulesets.evo.state import EvoState, Flight, Gate, Model
from dogfight.rulesets.evo.units import UnitType, build_unit, find_unit


def build_state(scenario: Scenario) -> EvoState:
    """The initial state (before any dice) of a scenario; raises DataError on bad data."""
    spec = parse_scenario(scenario)
    where = scenario.where
    custom: dict[str, UnitType] = {}
    for i, uspec in enumerate(spec.custom_units):
        custom[uspec.id] = build_unit(uspec, f"{where}: custom_units[{i}]")
    table = Table(width=spec.table.width, height=spec.table.height)
    state = EvoState(
        turn=0,
        turn_limit=spec.turn_limit,
        table=table,
        sides=(spec.sides[0].name, spec.sides[1].name),
        flights={},
        models={},
        types={},
        first=spec.first,
    )
    state.gates = {
        g.id: Gate(
            id=g.id,
            position=Vec2(float(g.at[0]), float(g.at[1])),
            heading=normalise_angle(g.heading),
            radius=float(g.radius),
        )
        for g in spec.jump_gates
    }
    radius: dict[str, float] = {}
    for si, side in enumerate(spec.sides):
        if not side.units:
            # A side with nothing to fight with would lose before turn 1.
            raise DataError(f"{where}: field 'sides[{si}].units': {side.name} has no flights")
        for ui, entry in enumerate(side.units):
            field = f"sides[{si}].units[{ui}]"
            try:
                utype = find_unit(entry.type, custom)
            except UnknownName as exc:
                raise DataError(f"{where}: field '{field}.type': {exc}") from None
            state.types[utype.id] = utype
            fid = entry.id or f"{side.name[:3].upper()}-{ui + 1}"
            if fid in state.flights:
                raise DataError(f"{where}: field '{field}.id': duplicate flight id '{fid}'")
            count = entry.models or utype.models
            if entry.models_at and len(entry.models_at) != count:
                if entry.models:
                    raise DataError(
                        f"{where}: field '{field}.models_at': {len(entry.models_at)} "
                        f"positions for {count} models"
                    )
                count = len(entry.models_at)
            heading = normalise_angle(entry.heading)
            if entry.arrive:
                # EVO-GATE-2: in hyperspace until it arrives; its models have no place yet.
                ids = [f"{fid}.{mi + 1}" for mi in range(count)]
                state.flights[fid] = Flight(
                    id=fid,
                    type=utype.id,
                    side=side.name,
                    models=(),
                    leader=ids[0],
                    start_models=count,
                    reserve=entry.arrive,
                    arrive_turn=entry.arrive_turn,
                    waiting=tuple(ids),
                )
                continue
            spots = [Vec2(float(x), float(y)) for x, y in entry.models_at] or line_abreast(
                Vec2(float(entry.at[0]), float(entry.at[1])), heading, count, entry.spacing
            )
            ids = []
            for mi, spot in enumerate(spots):
                if not table.contains(spot):
                    raise DataError(
                        f"{where}: field '{field}': model {mi + 1} at "
                        f"({spot.x:g}, {spot.y:g}) is off the table"
                    )
                for other in state.models.values():
                    if overlaps(
                        spot,
                        utype.base_radius,
                        other.pose.position,
                        radius[other.id],
                    ):
                        raise DataError(
                            f"{where}: field '{field}': model {mi + 1} overlaps {other.id}"
                        )
                mid = f"{fid}.{mi + 1}"
                radius[mid] = utype.base_radius
                state.models[mid] = Model(id=mid, unit=fid, pose=Pose(spot, heading))
                ids.append(mid)
            state.flights[fid] = Flight(
                id=fid,
                type=utype.id,
                side=side.name,
                models=tuple(ids),
                leader=ids[0],
                start_models=len(ids),
            )
    state.start_points = {
        s: sum(
            state.types[f.type].points * f.start_models
            for f in state.flights.values()
            if f.side == s
        )
        for s in state.sides
    }
    return state


def line_abreast(leader: Vec2, heading: float, count: int, spacing: float) -> list[Vec2]:
    """Positions for a flight in line abreast: the leader, then alternately to its
    right and left, `spacing` inches apart."""
    spots = [leader]
    for i in range(1, count):
        side = -1 if i % 2 else 1
        step = (i + 1) // 2
        spots.append((leader + Vec2.polar(spacing * step, heading + 90 * side)).rounded())
    return spots
