"""ACTA movement: ships by Speed and Turn, super-manoeuvrable fighters, carried supporters."""

from __future__ import annotations

import math

from dogfight.geometry import EPSILON, Pose, Vec2, normalise_angle, point_along
from dogfight.rulesets.acta.actions import Leg
from dogfight.rulesets.acta.context import BASE_RULES, Ctx
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.spatial import FighterGrid
from dogfight.rulesets.acta.state import ActaState, UnitState

MAX_TURN = 45.0
"""Largest single turn of a ship, in degrees (ACTA-MOV-2)."""

ALL_POWER = "All Power to Engines"
EVASIVE = "Take Evasive Action"
HIGH_ENERGY_TURN = "High Energy Turn"


def high_energy_limit(ship: UnitState, at_turn_point: bool) -> float:
    """Degrees of the one High Energy Turn a ship may make now, 0 if none (ACTA-SPA-11):
    45 more per extra segment declared on a normal turn, or the extra segments alone for
    a turn made before the Turn distance is run."""
    if ship.special != HIGH_ENERGY_TURN or ship.special_extra <= 0:
        return 0.0
    return MAX_TURN * (ship.special_extra + (1 if at_turn_point else 0))


def ship_max_speed(
    state: ActaState, ship: UnitState, crit_effects: bool, rules: ActaRules = BASE_RULES
) -> float:
    """How far a ship may move this turn (`ActaRules.ship_speed`)."""
    return rules.ship_speed(
        state.unit_type(ship).speed,
        all_power=ship.special == ALL_POWER,
        drive_crits=ship.criticals.get("drive", 0) if crit_effects else 0,
        slowed=ship.crippled or ship.special == EVASIVE or ship.power_drain,
    )


def ship_turn_inches(
    state: ActaState, ship: UnitState, rules: ActaRules = BASE_RULES
) -> float | None:
    """Inches straight before each turn; None means it may turn freely (SM)
    (`ActaRules.turn_inches`, ACTA-MOV-3)."""
    return rules.turn_inches(state.unit_type(ship).turn, ship.crippled)


def ship_path(
    state: ActaState,
    ship: UnitState,
    legs: tuple[Leg, ...],
    crit_effects: bool,
    rules: ActaRules = BASE_RULES,
) -> tuple[list[Vec2], Pose, str]:
    """The path a ship's legs trace, its final pose, and why it is illegal ('' if legal)."""
    pose = ship.pose
    path = [pose.position]
    total = 0.0
    straight = 0.0
    limit = ship_max_speed(state, ship, crit_effects, rules)
    need = ship_turn_inches(state, ship, rules)
    het_used = False
    for i, leg in enumerate(legs):
        if leg.distance < -EPSILON:
            return path, pose, f"leg {i + 1}: a ship cannot move backwards"
        if abs(leg.turn) > EPSILON:
            if ship.special == ALL_POWER:
                return path, pose, "a ship on All Power to Engines may not turn (ACTA-SPA-2)"
            at_point = need is None or straight >= need - EPSILON
            normal = abs(leg.turn) <= MAX_TURN + EPSILON and at_point
            if need is not None and not normal and not het_used:
                # ACTA-SPA-11: one turn of the move may be a High Energy Turn.
                allowed = high_energy_limit(ship, at_point)
                if allowed and abs(leg.turn) <= allowed + EPSILON:
                    het_used = True
                    pose = pose.turned(leg.turn)
                    straight = 0.0
                    pose = pose.forward(max(0.0, leg.distance))
                    total += max(0.0, leg.distance)
                    straight += max(0.0, leg.distance)
                    path.append(pose.position)
                    continue
            if need is not None:
                if abs(leg.turn) > MAX_TURN + EPSILON:
                    return (
                        path,
                        pose,
                        (f"leg {i + 1}: a turn may be at most {MAX_TURN:.0f} degrees (ACTA-MOV-2)"),
                    )
                if straight < need - EPSILON:
                    return (
                        path,
                        pose,
                        (
                            f'leg {i + 1}: must move {need:g}" straight before turning, '
                            f'has moved {straight:g}" (ACTA-MOV-2)'
                        ),
                    )
            pose = pose.turned(leg.turn)
            straight = 0.0
        pose = pose.forward(max(0.0, leg.distance))
        total += max(0.0, leg.distance)
        straight += max(0.0, leg.distance)
        path.append(pose.position)
    if total > limit + EPSILON:
        return path, pose, f'moves {total:g}" but may move at most {limit:g}" (ACTA-MOV-2)'
    if not state.table.contains(pose.position):
        return path, pose, "the move would leave the table"
    return path, pose, ""


def move_ship(ctx: Ctx, ship: UnitState, legs: tuple[Leg, ...]) -> None:
    """Move a ship and carry its supporting fighters along (ACTA-MOV-2, ACTA-SUP-2, -SUP-3)."""
    state = ctx.state
    path, end, _ = ship_path(state, ship, legs, bool(ctx.opt("crit_effects")), ctx.rules)
    start = ship.pose
    total = sum(max(0.0, leg.distance) for leg in legs)
    ship.pose = Pose(end.position.rounded(), round(end.heading, 3))
    ship.moved = total > EPSILON
    ship.distance_moved = total
    ctx.emit(
        "ACTA-MOV-2",
        f'{ctx.name(ship)} moves {total:g}" to ({ship.pose.position.x:.1f}, '
        f"{ship.pose.position.y:.1f}) facing {ship.pose.heading:.0f}",
        unit=ship.id,
        distance=total,
    )
    carry_supporters(ctx, ship, start, path, total)


def carry_supporters(
    ctx: Ctx, leader: UnitState, start: Pose, path: list[Vec2], total: float
) -> None:
    """Supporters move with the unit they support, unless it goes beyond their Speed."""
    state = ctx.state
    if total <= EPSILON:
        return
    turn = normalise_angle(leader.pose.heading - start.heading)
    for fighter in state.supporters_of(leader.id):
        speed = state.unit_type(fighter).speed - fighter.carried - fighter.distance_moved
        if state.engaged(fighter):
            # ACTA-DOG-1 outranks ACTA-SUP-2: a supporter locked in a dogfight stays put.
            fighter.supporting = ""
            ctx.emit(
                "ACTA-DOG-1",
                f"{ctx.name(fighter)} is locked in a dogfight and stays as "
                f"{ctx.name(leader)} moves on",
                unit=fighter.id,
            )
            continue
        if total <= speed + EPSILON:
            offset = (fighter.pose.position - start.position).rotated(turn)
            fighter.pose = Pose(
                state.table.clamp(leader.pose.position + offset).rounded(),
                normalise_angle(fighter.pose.heading + turn),
            )
            fighter.carried += total
            ctx.emit(
                "ACTA-SUP-2",
                f"{ctx.name(fighter)} is carried along with {ctx.name(leader)}",
                unit=fighter.id,
            )
        else:
            fighter.supporting = ""
            if ctx.opt("carried_fighters_left_on_path") and speed > 0:
                point, heading = point_along(path, speed)
                fighter.pose = Pose(point.rounded(), round(heading, 3))
                fighter.carried += speed
            ctx.emit(
                "ACTA-SUP-3",
                f"{ctx.name(fighter)} cannot keep up with {ctx.name(leader)} "
                f'({total:g}" > its Speed) and is left behind',
                unit=fighter.id,
            )


def fighter_budget(state: ActaState, fighter: UnitState, rules: ActaRules = BASE_RULES) -> float:
    """Inches a fighter may still move this turn (`ActaRules.fighter_budget`)."""
    return rules.fighter_budget(
        state.unit_type(fighter).speed, fighter.carried, fighter.distance_moved
    )


def overlapping_fighter(
    state: ActaState,
    unit: UnitState,
    at: Vec2,
    ignore: tuple[str, ...] = (),
    grid: FighterGrid | None = None,
) -> UnitState | None:
    """A fighter whose base this unit's base would overlap at `at` (no stacking, ACTA-FTR-3);
    `grid`, a snapshot of this very position, answers the same from the cells near `at`."""
    r = state.radius(unit)
    if grid is not None:
        return grid.overlapping(unit, r, at.x, at.y, ignore)
    types = state.types
    x, y = at.x, at.y
    # Asked for every spot a fighter is offered: one pass over the units, no lists built,
    # and `overlaps` inlined (the same sums, so the same answer).
    for other in state.units.values():
        otype = types[other.type]
        if not otype.is_fighter or other.id == unit.id or other.id in ignore:
            continue
        pos = other.pose.position
        if math.hypot(x - pos.x, y - pos.y) < r + otype.base_radius - EPSILON:
            return other
    return None


def stacking_discs(state: ActaState, unit: UnitState) -> list[tuple[UnitState, Vec2, float]]:
    """Where this unit's base may not end a move (no stacking, ACTA-FTR-3): for each
    other fighter, its centre and the distance within which `overlapping_fighter` names
    it (the same sum, so a point is refused exactly when it lies inside one)."""
    r = state.radius(unit)
    types = state.types
    return [
        (other, other.pose.position, r + types[other.type].base_radius - EPSILON)
        for other in state.units.values()
        if types[other.type].is_fighter and other.id != unit.id
    ]


def free_spot_near(
    state: ActaState,
    unit: UnitState,
    centre: Vec2,
    distance: float,
    prefer: float,
    ignore: tuple[str, ...] = (),
    grid: FighterGrid | None = None,
) -> Vec2 | None:
    """A point `distance` from `centre`, as near bearing `prefer` as possible, where the
    unit overlaps no fighter and stays on the table (`grid`: as for `overlapping_fighter`)."""
    table = state.table
    cx, cy = centre.x, centre.y
    r = state.radius(unit)
    for offset in _SPOT_OFFSETS:
        # `(centre + Vec2.polar(distance, prefer + offset)).rounded()` and
        # `table.contains`, written out: asked some twenty times for each candidate
        # move, and the same operations in the same order give the same floats.
        rad = math.radians(prefer + offset)
        x = round(cx + distance * math.cos(rad), 4)
        y = round(cy + distance * math.sin(rad), 4)
        if not (-EPSILON <= x <= table.width + EPSILON and -EPSILON <= y <= table.height + EPSILON):
            continue
        if grid is not None:
            clash = grid.overlapping(unit, r, x, y, ignore)  # overlapping_fighter's answer
        else:
            clash = overlapping_fighter(state, unit, Vec2(x, y), ignore)
        if clash is None:
            return Vec2(x, y)
    return None


_SPOT_OFFSETS: tuple[int, ...] = (0, *(o for step in range(15, 181, 15) for o in (step, -step)))
"""The bearings `free_spot_near` tries, in its order: the preferred one, then 15, 30, ...
180 degrees to either side (left first)."""
