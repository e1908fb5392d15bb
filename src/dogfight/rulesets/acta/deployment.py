"""Deployment before the battle (ACTA-DEP-4): each side with a deployment zone places
its units in it, one unit at a time, through the Game API.

Ships are placed first, then fighters, the sides taking turns (the first side of
the scenario first). A carrier's combat space patrol may go anywhere in the zone
or onto its carrier's base (supporting it); fighters bought on their own go in the
zone like ships. A side with no zone keeps the scenario's positions.
"""

from __future__ import annotations

import math
from itertools import zip_longest

from dogfight.geometry import EPSILON, Pose, Vec2, normalise_angle
from dogfight.rulesets.acta.actions import Deploy
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.movement import free_spot_near, overlapping_fighter
from dogfight.rulesets.acta.state import ActaState, UnitState
from dogfight.rulesets.acta.targets import support_problem

Zone = tuple[float, float, float, float]
"""x_min, x_max, y_min, y_max in inches."""


def in_zone(zone: Zone, spot: Vec2) -> bool:
    """True if a base centre lies in the zone (its edges included)."""
    x0, x1, y0, y1 = zone
    return x0 - EPSILON <= spot.x <= x1 + EPSILON and y0 - EPSILON <= spot.y <= y1 + EPSILON


def zone_centre(zone: Zone) -> Vec2:
    """The middle of a zone."""
    return Vec2((zone[0] + zone[1]) / 2, (zone[2] + zone[3]) / 2)


def clamp_to(zone: Zone, spot: Vec2) -> Vec2:
    """The point of the zone nearest to a spot."""
    return Vec2(min(max(spot.x, zone[0]), zone[1]), min(max(spot.y, zone[2]), zone[3]))


def deployment_order(state: ActaState) -> tuple[str, ...]:
    """Units to place: ships, then fighters, the sides alternating (ACTA-DEP-4).

    Fighters that start supporting a ship (ACTA-DEP-2) go with it, not on their own."""
    order: list[str] = []
    for ships in (True, False):
        lists = [
            sorted(
                u.id
                for u in state.on_table(side)
                if side in state.zones
                and state.is_fighter(u) != ships
                and not (not ships and u.supporting)
            )
            for side in state.sides
        ]
        for pair in zip_longest(*lists):
            order.extend(uid for uid in pair if uid is not None)
    return tuple(order)


def patrol_carrier(state: ActaState, fighter: UnitState) -> str:
    """The ship whose combat space patrol this fighter is ('' if none)."""
    for ship in state.ships(fighter.side):
        if fighter.id.startswith(f"{ship.id}-P"):
            return ship.id
    return ""


def facing(state: ActaState, side: str, spot: Vec2) -> float:
    """Towards the enemy's zone, or the table's centre when it has none."""
    enemy = state.zones.get(state.other(side))
    target = (
        zone_centre(enemy)
        if enemy is not None
        else Vec2(state.table.width / 2, state.table.height / 2)
    )
    if target.distance(spot) < EPSILON:
        return 0.0
    return round((target - spot).angle() % 360, 2)


def deploy_problem(ctx: Ctx, action: Deploy) -> str:
    """Why this placement is not allowed ('' if it is) (ACTA-DEP-4)."""
    state = ctx.state
    if not state.deploy_pending:
        return "nothing is left to deploy"
    if action.unit != state.deploy_pending[0]:
        return f"{state.deploy_pending[0]} is placed next (ACTA-DEP-4)"
    unit = state.units[action.unit]
    spot = Vec2(action.x, action.y)
    if not all(math.isfinite(v) for v in (action.x, action.y, action.heading)):
        return "the position and heading must be finite numbers"
    if not state.table.contains(spot):
        return f"({action.x:g}, {action.y:g}) is off the table"
    zone = state.zones[unit.side]
    if action.support:
        if not state.is_fighter(unit) or action.support != patrol_carrier(state, unit):
            return (
                "only a carrier's combat space patrol may deploy onto a base, and only its "
                "own carrier's (ACTA-DEP-4)"
            )
    elif not in_zone(zone, spot):
        x0, x1, y0, y1 = zone
        return (
            f"({action.x:g}, {action.y:g}) is outside {unit.side}'s deployment zone "
            f"x {x0:g}-{x1:g}, y {y0:g}-{y1:g} (ACTA-DEP-4)"
        )
    if state.is_fighter(unit):
        clash = overlapping_fighter(state, unit, spot)
        if clash is not None:
            return f"{unit.id} would overlap fighter {clash.id} (ACTA-FTR-3)"
        if action.support:
            saved = unit.pose
            unit.pose = Pose(spot, saved.heading)
            problem = support_problem(state, unit, action.support)
            unit.pose = saved
            if problem:
                return problem
    return ""


def deploy_choices(ctx: Ctx) -> list[Deploy]:
    """A representative set of legal placements for the unit to place next: the zone's
    centre, the middle and ends of its edge nearest the enemy, its corners on that side,
    the scenario's spot if in the zone, beside each friendly ship, and, for a patrol,
    onto its carrier's base. `check` accepts any legal spot."""
    state = ctx.state
    unit = state.units[state.deploy_pending[0]]
    zone = state.zones[unit.side]
    x0, x1, y0, y1 = zone
    centre = zone_centre(zone)
    enemy = state.zones.get(state.other(unit.side))
    aim = (
        zone_centre(enemy)
        if enemy is not None
        else Vec2(state.table.width / 2, state.table.height / 2)
    )
    inset = min(1.0, (x1 - x0) / 2, (y1 - y0) / 2)
    front = clamp_to((x0 + inset, x1 - inset, y0 + inset, y1 - inset), aim)
    spots = [front, centre, unit.pose.position]
    # Along the front edge: its two ends, at the zone's middle depth and front.
    if abs(aim.x - centre.x) >= abs(aim.y - centre.y):
        spots += [Vec2(front.x, y0 + inset), Vec2(front.x, y1 - inset)]
        spots += [Vec2(front.x, (y0 + centre.y) / 2), Vec2(front.x, (y1 + centre.y) / 2)]
    else:
        spots += [Vec2(x0 + inset, front.y), Vec2(x1 - inset, front.y)]
        spots += [Vec2((x0 + centre.x) / 2, front.y), Vec2((x1 + centre.x) / 2, front.y)]
    out: list[Deploy] = []
    seen: set[tuple[float, float, str]] = set()

    def offer(spot: Vec2 | None, support: str = "") -> None:
        if spot is None:
            return
        spot = spot.rounded()
        key = (spot.x, spot.y, support)
        if key in seen:
            return
        heading = facing(state, unit.side, spot)
        action = Deploy(unit=unit.id, x=spot.x, y=spot.y, heading=heading, support=support)
        if not deploy_problem(ctx, action):
            seen.add(key)
            out.append(action)

    if state.is_fighter(unit):
        r = state.radius(unit)
        for ship in state.ships(unit.side):
            ahead = facing(state, unit.side, ship.pose.position)
            offer(
                free_spot_near(state, unit, ship.pose.position, state.radius(ship) + r + 1, ahead)
            )
        carrier = patrol_carrier(state, unit)
        if carrier:
            ship = state.units[carrier]
            offer(
                free_spot_near(
                    state, unit, ship.pose.position, state.radius(ship), ship.pose.heading
                ),
                support=carrier,
            )
        for spot in spots:
            offer(free_spot_near(state, unit, spot, 0.0, 0.0) if in_zone(zone, spot) else None)
            offer(free_spot_near(state, unit, spot, 2 * r, 180.0) if in_zone(zone, spot) else None)
    else:
        for spot in spots:
            offer(spot if in_zone(zone, spot) else None)
    return out


def apply_deploy(ctx: Ctx, action: Deploy) -> None:
    """Place a unit; a ship's preset supporters keep their place on its base."""
    state = ctx.state
    unit = state.units[action.unit]
    old = unit.pose
    spot = Vec2(action.x, action.y)
    unit.pose = Pose(spot, normalise_angle(action.heading))
    turn = unit.pose.heading - old.heading
    for friend in state.supporters_of(unit.id):
        offset = friend.pose.position - old.position
        moved = (
            spot + Vec2.polar(offset.length(), offset.angle() + turn) if offset.length() else spot
        )
        friend.pose = Pose(moved.rounded(), normalise_angle(friend.pose.heading + turn))
    if state.is_fighter(unit):
        unit.supporting = action.support
    where = f", on {action.support}'s base" if action.support else ""
    ctx.emit(
        "ACTA-DEP-4",
        f"{state.active} deploys {ctx.name(unit)} at ({spot.x:g}, {spot.y:g}){where}",
        unit=unit.id,
        x=spot.x,
        y=spot.y,
        support=action.support,
    )
    state.deploy_pending = state.deploy_pending[1:]


def step_deploy(ctx: Ctx) -> bool:
    """The owner of the next unit to place decides (ACTA-DEP-4); then the loadouts."""
    state = ctx.state
    state.deploy_pending = tuple(u for u in state.deploy_pending if u in state.units)
    if state.deploy_pending:
        state.active = state.units[state.deploy_pending[0]].side
        return True
    state.phase = "setup"
    return False
