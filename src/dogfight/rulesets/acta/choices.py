"""Representative move choices for `legal_actions`.

Movement is continuous, so `legal_actions` offers a finite set that covers what
a player usually wants (close with each enemy, join each friend, turn either
way, hold, withdraw); `check` accepts any legal move, not only these.
"""

from __future__ import annotations

import math

from dogfight.geometry import EPSILON, Vec2
from dogfight.rulesets.acta.actions import Leg, MoveFighter, MoveShip, Recover
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.movement import (
    fighter_budget,
    free_spot_near,
    ship_max_speed,
    ship_path,
    ship_turn_inches,
)
from dogfight.rulesets.acta.spatial import FighterGrid
from dogfight.rulesets.acta.state import UnitState
from dogfight.rulesets.acta.targets import (
    SHIP_SUPPORT_LIMIT,
    recovery_problem,
    support_problem,
    weapons_of,
)


def ship_moves(ctx: Ctx, ship: UnitState) -> list[MoveShip]:
    """Straight on, half speed, hold, and turns to either side after the Turn distance."""
    state = ctx.state
    speed = ship_max_speed(state, ship, bool(ctx.opt("crit_effects")), ctx.rules)
    need = ship_turn_inches(state, ship, ctx.rules)
    plans: list[tuple[Leg, ...]] = [(), (Leg(0, speed),), (Leg(0, speed / 2),)]
    first = 0.0 if need is None else need
    if first <= speed:
        for side in (45.0, -45.0):
            plans.append((Leg(0, first), Leg(side, speed - first)))
            if first * 2 <= speed:
                plans.append((Leg(0, first), Leg(side, first), Leg(side, speed - 2 * first)))
            if first > 0 and first * 2 <= speed / 2 + 1e-9:
                plans.append((Leg(0, first), Leg(side, speed / 2 - first)))
    out: list[MoveShip] = []
    seen = set()
    for legs in plans:
        rounded = tuple(Leg(round(leg.turn, 3), round(leg.distance, 3)) for leg in legs)
        if rounded in seen:
            continue
        seen.add(rounded)
        _, _, problem = ship_path(state, ship, rounded, bool(ctx.opt("crit_effects")), ctx.rules)
        if not problem:
            out.append(MoveShip(unit=ship.id, legs=rounded))
    return out


def fighter_moves(
    ctx: Ctx, fighter: UnitState, grid: FighterGrid | None = None
) -> list[MoveFighter | Recover]:
    """Hold; close with each enemy; join each friendly ship; withdraw; recover.

    `grid` (a snapshot of this position) answers the overlap questions; the listing of
    every movable fighter shares one."""
    state = ctx.state
    if grid is None:
        grid = FighterGrid(state)
    budget = fighter_budget(state, fighter, ctx.rules)
    here = fighter.pose.position
    r = state.radius(fighter)
    # What `add` asks of every candidate spot, worked out once.
    hx, hy = here.x, here.y
    reach = budget + EPSILON
    right, top = state.table.width + EPSILON, state.table.height + EPSILON
    out: list[MoveFighter | Recover] = [
        MoveFighter(
            unit=fighter.id,
            x=here.x,
            y=here.y,
            heading=fighter.pose.heading,
            support=fighter.supporting,
        )
    ]

    def add(spot: Vec2 | tuple[float, float] | None, heading: float, support: str = "") -> None:
        if spot is None:
            return
        # The same tolerance as check(): a rounded full-speed spot is still legal.
        x, y = (spot.x, spot.y) if isinstance(spot, Vec2) else spot
        dist = math.hypot(x - hx, y - hy)  # spot.distance(here)
        if dist > reach or dist < 1e-6:
            return
        if not (-EPSILON <= x <= right and -EPSILON <= y <= top):  # table.contains(spot)
            return
        if grid.overlapping(fighter, r, x, y) is not None:  # overlapping_fighter's answer
            return
        if support:
            saved = fighter.pose
            fighter.pose = type(saved)(Vec2(x, y), saved.heading)
            problem = support_problem(state, fighter, support)
            fighter.pose = saved
            if problem:
                return
        out.append(
            MoveFighter(
                unit=fighter.id,
                x=x,
                y=y,
                heading=round(heading % 360, 2),
                support=support,
            )
        )

    def ahead(length: float, rad: float) -> tuple[float, float]:
        # `(here + Vec2.polar(length, bearing)).rounded()` with `rad` the bearing in
        # radians, written out: the same operations, so the same floats.
        return round(hx + length * math.cos(rad), 4), round(hy + length * math.sin(rad), 4)

    enemies = state.on_table(state.other(fighter.side))
    weapons = weapons_of(state, fighter)
    shortest = min((w.range for w in weapons), default=0.0)
    types = state.types
    aparts: list[float] = []
    for enemy in enemies:
        centre = enemy.pose.position
        etype = types[enemy.type]
        bearing = math.degrees(math.atan2(centre.y - hy, centre.x - hx))  # (centre - here).angle()
        rad = math.radians(bearing)
        contact = r + etype.base_radius
        apart = math.hypot(hx - centre.x, hy - centre.y)  # here.distance(centre)
        aparts.append(apart)
        gap = apart - contact
        if gap <= budget:
            # Into base contact (a dogfight for fighters; on the base for ships).
            add(free_spot_near(state, fighter, centre, contact, bearing + 180, grid=grid), bearing)
        else:
            add(ahead(budget, rad), bearing)
        if not etype.is_fighter:
            # Into weapon range of a ship, short of its base.
            add(ahead(min(budget, max(0.0, gap - 1.0)), rad), bearing)
        elif weapons:
            # Stand off: within half range of the shortest gun, just out of base contact,
            # to shoot without starting a dogfight.
            stand = contact + max(0.1, shortest / 2 - 0.1)
            if apart > stand and apart - stand <= budget:
                spot = free_spot_near(state, fighter, centre, stand, bearing + 180, grid=grid)
                add(spot, bearing)
    for friend in state.ships(fighter.side):
        if friend.id == fighter.supporting or (
            len([s for s in state.supporters_of(friend.id) if s.id != fighter.id])
            >= SHIP_SUPPORT_LIMIT
        ):
            continue
        centre = friend.pose.position
        bearing = (here - centre).angle()
        spot = free_spot_near(state, fighter, centre, state.radius(friend), bearing, grid=grid)
        add(spot, friend.pose.heading, support=friend.id)
        if not recovery_problem(ctx, fighter, friend):
            out.append(Recover(unit=fighter.id, ship=friend.id))
    if enemies:
        # The nearest enemy (ties to the lower id): `aparts` are the same distances.
        nearest = enemies[min(range(len(enemies)), key=lambda k: (aparts[k], enemies[k].id))]
        away = (here - nearest.pose.position).angle()
        spot = state.table.clamp(here + Vec2.polar(budget, away), margin=r).rounded()
        add(spot, away)
    return out
