"""Building the first position of an ACTA battle from a scenario."""

from __future__ import annotations

from dogfight.core.errors import DataError, UnknownName
from dogfight.core.scenario import Scenario
from dogfight.geometry import Pose, Table, Vec2, normalise_angle, overlaps
from dogfight.rulesets.acta.deployment import deployment_order
from dogfight.rulesets.acta.movement import free_spot_near, overlapping_fighter
from dogfight.rulesets.acta.scenario import ActaScenarioSpec, UnitEntry, parse_scenario
from dogfight.rulesets.acta.state import ActaState, UnitState
from dogfight.rulesets.acta.targets import support_problem
from dogfight.rulesets.acta.units import UnitType, build_unit, find_unit

PATROL_AHEAD = 2.0
"""Default placement of a combat space patrol: this far ahead of the ship's base edge."""


def build_state(scenario: Scenario) -> tuple[ActaState, ActaScenarioSpec]:
    """The initial state (before any dice) of a scenario; raises DataError on bad data."""
    spec = parse_scenario(scenario)
    where = scenario.where
    custom: dict[str, UnitType] = {}
    for i, uspec in enumerate(spec.custom_units):
        if uspec.id in custom:
            raise DataError(f"{where}: field 'custom_units[{i}].id': '{uspec.id}' defined twice")
        custom[uspec.id] = build_unit(uspec, f"{where}: custom_units[{i}]")
    table = Table(width=spec.table.width, height=spec.table.height)
    state = ActaState(
        turn=0,
        turn_limit=spec.turn_limit,
        table=table,
        sides=(spec.sides[0].name, spec.sides[1].name),
        initiative_bonus={s.name: s.initiative for s in spec.sides},
        units={},
        types={},
    )
    pending_support: list[tuple[UnitState, str, str]] = []
    for si, side in enumerate(spec.sides):
        if not side.units:
            # A side with nothing to fight with would lose before turn 1.
            raise DataError(f"{where}: field 'sides[{si}].units': {side.name} has no units")
        for ui, entry in enumerate(side.units):
            field = f"sides[{si}].units[{ui}]"
            utype = lookup(entry.type, where, field, custom)
            check_year(utype, spec.year, where, field)
            state.types[utype.id] = utype
            uid = entry.id or f"{side.name[:3].upper()}-{ui + 1}"
            if uid in state.units:
                raise DataError(f"{where}: field '{field}.id': duplicate unit id '{uid}'")
            pos = Vec2(float(entry.at[0]), float(entry.at[1]))
            if not table.contains(pos):
                raise DataError(
                    f"{where}: field '{field}.at': ({pos.x:g}, {pos.y:g}) is off "
                    f"the {table.width:g}x{table.height:g} table"
                )
            unit = UnitState(
                id=uid,
                type=utype.id,
                side=side.name,
                pose=Pose(pos, normalise_angle(entry.heading)),
                damage=utype.damage,
                shields=utype.shields,
                crew=utype.crew,
            )
            add_aboard(state, unit, utype, entry, spec.year, where, field, custom)
            if utype.is_fighter:
                if entry.aboard:
                    raise DataError(f"{where}: field '{field}.aboard': fighters carry no fighters")
                if entry.dogfight_drones and not any(w.dogfight_drones for w in utype.weapons):
                    raise DataError(
                        f"{where}: field '{field}.dogfight_drones': {utype.name} has "
                        "no weapon that may be swapped for dogfight drones"
                    )
                unit.dogfight_drones = bool(entry.dogfight_drones)
                unit.loadout_fixed = entry.dogfight_drones is not None
                if entry.supporting:
                    pending_support.append((unit, entry.supporting, field))
            elif entry.supporting:
                raise DataError(f"{where}: field '{field}.supporting': only fighters support")
            if utype.is_fighter:
                clash = overlapping_fighter(state, unit, pos)
                if clash is not None:
                    raise DataError(
                        f"{where}: field '{field}.at': overlaps fighter {clash.id} "
                        "(fighters may not stack, ACTA-FTR-3)"
                    )
            else:
                ship = overlapping_ship(state, utype, pos)
                if ship is not None:
                    raise DataError(
                        f"{where}: field '{field}.at': ({pos.x:g}, {pos.y:g}) is on top of "
                        f"ship {ship.id}: place ships with their bases apart"
                    )
            state.units[uid] = unit
            if not utype.is_fighter and entry.patrol and unit.aboard:
                deploy_patrol(state, unit, entry, where, field)
    # Set every support first, then check each: the checks look at the others, so
    # the order of the roster must not matter (ACTA-DEP-2, ACTA-SUP-1).
    for unit, target, _ in pending_support:
        unit.supporting = target
    for unit, target, field in pending_support:
        unit.supporting = ""
        problem = support_problem(state, unit, target)
        unit.supporting = target
        if problem:
            raise DataError(f"{where}: field '{field}.supporting': {problem}")
    state.zones = {
        side.name: (*side.deployment.x, *side.deployment.y)
        for side in spec.sides
        if side.deployment is not None
    }
    state.deploy_pending = deployment_order(state)
    if state.deploy_pending:
        state.phase = "deploy"
    state.loadout_pending = tuple(
        side
        for side in state.sides
        if loadout_fighters(state, side) or loadout_carriers(state, side)
    )
    state.start_strength = {
        s: sum(u.damage + sum(u.aboard_damage) for u in state.on_table(s)) for s in state.sides
    }
    return state, spec


def overlapping_ship(state: ActaState, utype: UnitType, at: Vec2) -> UnitState | None:
    """A ship already placed whose base overlaps a new ship's base at `at` (a scenario
    check: two ships set up on top of each other is a typo, not a position)."""
    for other in state.units.values():
        kind = state.types[other.type]
        if not kind.is_fighter and overlaps(
            at, utype.base_radius, other.pose.position, kind.base_radius
        ):
            return other
    return None


def has_drone_swap(state: ActaState, ftype: str) -> bool:
    """True if a fighter type has a (*) weapon it may swap for dogfight drones."""
    return any(w.dogfight_drones for w in state.types[ftype].weapons)


def loadout_fighters(state: ActaState, side: str) -> list[UnitState]:
    """The side's fighters on the table whose drone swap is still the player's to choose."""
    return [
        f
        for f in state.fighters(side)
        if not f.loadout_fixed and not f.dogfight_drones and has_drone_swap(state, f.type)
    ]


def loadout_carriers(state: ActaState, side: str) -> list[UnitState]:
    """The side's ships carrying fighters that may swap their drones (ACTA-FTR-9)."""
    return [
        s
        for s in state.ships(side)
        if any(
            has_drone_swap(state, t) and not d
            for t, d in zip(s.aboard, s.aboard_drones, strict=True)
        )
    ]


def lookup(name: str, where: str, field: str, custom: dict[str, UnitType]) -> UnitType:
    """A unit type (the scenario's own first), as a DataError naming the field when unknown."""
    try:
        return find_unit(name, custom)
    except UnknownName as exc:
        raise DataError(f"{where}: field '{field}.type': {exc}") from None


def check_year(utype: UnitType, year: int | None, where: str, field: str) -> None:
    """Refuse a unit not yet in service in the scenario's year (ACTA-DEP-3)."""
    if year is not None and utype.isd is not None and utype.isd > year:
        raise DataError(
            f"{where}: field '{field}.type': {utype.name} enters service in "
            f"Y{utype.isd}, after the scenario's year Y{year} (ACTA-DEP-3)"
        )


def add_aboard(
    state: ActaState,
    unit: UnitState,
    utype: UnitType,
    entry: UnitEntry,
    year: int | None,
    where: str,
    field: str,
    custom: dict[str, UnitType],
) -> None:
    """Load a ship's fighters, checking its Craft score."""
    carried: list[str] = []
    for name, count in entry.aboard.items():
        ftype = lookup(name, where, f"{field}.aboard", custom)
        if not ftype.is_fighter:
            raise DataError(f"{where}: field '{field}.aboard': {name} is not a fighter")
        if count < 0:
            raise DataError(f"{where}: field '{field}.aboard.{name}': must not be negative")
        check_year(ftype, year, where, f"{field}.aboard")
        state.types[ftype.id] = ftype
        carried.extend([ftype.id] * count)
    if len(carried) > utype.craft:
        raise DataError(
            f"{where}: field '{field}.aboard': {len(carried)} fighters exceed "
            f"{utype.name}'s Craft score of {utype.craft} (ACTA-LCH-3)"
        )
    for ftype_id in carried:
        unit.take_aboard(ftype_id, state.types[ftype_id].damage, False)


def deploy_patrol(
    state: ActaState, ship: UnitState, entry: UnitEntry, where: str, field: str
) -> None:
    """Each carrier starts with one of its fighters flying: the combat space patrol
    (ACTA-DEP-1)."""
    ftype = ship.aboard[0]
    if entry.patrol_at is not None:
        spot: Vec2 | None = Vec2(float(entry.patrol_at[0]), float(entry.patrol_at[1]))
    else:
        ahead = state.radius(ship) + state.types[ftype].base_radius + PATROL_AHEAD
        spot = free_spot_near(
            state, state_probe(state, ftype), ship.pose.position, ahead, ship.pose.heading
        )
    if spot is None or not state.table.contains(spot):
        raise DataError(
            f"{where}: field '{field}.patrol_at': no room on the table for "
            f"{ship.id}'s patrol fighter"
        )
    _, damage, drones = ship.take_off(0)
    new_fighter(
        state,
        ftype,
        ship.side,
        spot.x,
        spot.y,
        ship.pose.heading,
        damage,
        prefix=f"{ship.id}-P",
        drones=drones,
    )


def state_probe(state: ActaState, ftype: str) -> UnitState:
    """A throwaway fighter used to test where a new fighter's base would fit."""
    return UnitState(id="?", type=ftype, side="", pose=Pose(Vec2(0, 0), 0), damage=1)


def new_fighter(
    state: ActaState,
    ftype: str,
    side: str,
    x: float,
    y: float,
    heading: float,
    damage: int,
    prefix: str = "",
    drones: bool = False,
) -> UnitState:
    """Put a new fighter on the table with a fresh id."""
    state.serial += 1
    uid = f"{prefix or side[:3].upper() + '-L'}{state.serial}"
    while uid in state.units:
        state.serial += 1
        uid = f"{prefix or side[:3].upper() + '-L'}{state.serial}"
    fighter = UnitState(
        id=uid,
        type=ftype,
        side=side,
        pose=Pose(Vec2(x, y), normalise_angle(heading)),
        damage=damage,
        dogfight_drones=drones,
    )
    # Launched fighters are placed at the end of the turn: they act from the next (ACTA-LCH-2).
    fighter.move_done = fighter.attack_done = True
    state.units[uid] = fighter
    return fighter
