"""The ACTA turn: Initiative, Movement, Attack and End phases, run step by step.

`advance` runs every step that needs no decision (initiative dice, dogfight
resolution, damage control...) and stops at the next decision, setting
`state.active` to the side that must make it (ACTA-SEQ-1).
"""

from __future__ import annotations

from collections.abc import Callable

from dogfight.core.ending import end_at_turn_limit, end_by_elimination
from dogfight.core.text import agrees
from dogfight.rulesets.acta import combat
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.deployment import step_deploy
from dogfight.rulesets.acta.dogfight import (
    defender_candidates,
    resolve_dogfights,
    unassigned_engaged,
)
from dogfight.rulesets.acta.movement import free_spot_near
from dogfight.rulesets.acta.spatial import FighterGrid
from dogfight.rulesets.acta.state import ActaState, UnitState
from dogfight.rulesets.acta.targets import (
    FIGHTER_SUPPORT_LIMIT,
    SHIP_SUPPORT_LIMIT,
    can_launch,
    defensive_fire_candidates,
    fighter_may_fire,
    ship_may_fire,
)
from dogfight.rulesets.acta.volley import resolve_volley

COMMAND_TRAIT = "Command"


def advance(ctx: Ctx) -> None:
    """Run automatic steps until a side must decide or the game is over."""
    state = ctx.state
    for _ in range(100_000):
        if state.outcome is not None:
            state.active = ""
            return
        if check_elimination(ctx):
            state.active = ""
            return
        if STEPS[state.phase](ctx):
            return
    raise RuntimeError("turn sequence did not reach a decision")  # pragma: no cover


# ---- setup and the start of a turn ------------------------------------------------


def step_setup(ctx: Ctx) -> bool:
    """Before the battle, each side with (*) fighters chooses its loadout (ACTA-FTR-9)."""
    state = ctx.state
    if state.loadout_pending:
        state.active = state.loadout_pending[0]
        return True
    state.phase = "turn_start"
    return False


def step_turn_start(ctx: Ctx) -> bool:
    """Reset the turn's flags and roll initiative (ACTA-INI-1)."""
    state = ctx.state
    if state.turn >= state.turn_limit:
        finish_at_turn_limit(ctx)
        return False
    state.turn += 1
    for unit in state.units.values():
        unit.new_turn()  # the per-turn flags declared in state.TURN_FLAGS
    state.fought_pairs = ()
    state.volley = ()
    roll_initiative(ctx)
    loser = state.other(state.initiative)
    state.ships_to_move = {s: tuple(u.id for u in state.ships(s)) for s in state.sides}
    state.moving_ship = ""
    state.active = loser
    state.phase = "ship_move"
    return False


def initiative_bonus(state: ActaState, side: str) -> int:
    """The fleet's bonus plus its best Command score of a ship not crippled (ACTA-INI-1)."""
    command = 0
    for ship in state.ships(side):
        value = state.unit_type(ship).trait(COMMAND_TRAIT)
        if value and not ship.crippled and COMMAND_TRAIT not in ship.lost_traits:
            command = max(command, value)
    return state.initiative_bonus.get(side, 0) + command


def roll_initiative(ctx: Ctx) -> None:
    """Each side rolls d6 + bonus; ties are rolled again (ACTA-INI-1)."""
    state = ctx.state
    a, b = state.sides
    bonus_a, bonus_b = initiative_bonus(state, a), initiative_bonus(state, b)
    for _ in range(1000):
        ra, rb = ctx.roll(), ctx.roll()
        ta, tb = ra + bonus_a, rb + bonus_b
        if ta == tb:
            ctx.emit(
                "ACTA-INI-1",
                f"initiative {a} {ra}+{bonus_a}={ta} v {b} {rb}+{bonus_b}={tb}: a tie, roll again",
            )
            continue
        state.initiative = a if ta > tb else b
        ctx.emit(
            "ACTA-INI-1",
            f"turn {state.turn}: initiative {a} {ra}+{bonus_a}={ta} v {b} {rb}+{bonus_b}={tb}: "
            f"{agrees(state.initiative, 'win')}",
            winner=state.initiative,
        )
        return
    raise RuntimeError("initiative tied 1000 times")  # pragma: no cover - dice script bug


# ---- movement ---------------------------------------------------------------------


def step_ship_move(ctx: Ctx) -> bool:
    """Ships move one at a time, alternating, the initiative loser first (ACTA-MOV-1)."""
    state = ctx.state
    if state.moving_ship:
        state.active = state.units[state.moving_ship].side
        return True
    # Drop ships destroyed since the lists were made.
    for side in state.sides:
        state.ships_to_move[side] = tuple(
            s for s in state.ships_to_move.get(side, ()) if s in state.units
        )
    if not state.ships_to_move.get(state.active):
        state.active = state.other(state.active)
    if state.ships_to_move.get(state.active):
        return True
    state.phase = "fighter_order"
    return False


def step_fighter_order(ctx: Ctx) -> bool:
    """The initiative winner chooses which side moves all its fighters first (ACTA-SEQ-3)."""
    state = ctx.state
    with_fighters = [s for s in state.sides if state.fighters(s)]
    if len(with_fighters) == 2:
        state.active = state.initiative
        return True
    state.fighter_sides = tuple(with_fighters)
    state.phase = "fighter_move"
    return False


GRID_FROM = 24
"""Fighters on the table from which `movable_fighters` asks a `FighterGrid` who is
locked: below it, the scan over every unit is as quick."""


def movable_fighters(state: ActaState, side: str) -> list[UnitState]:
    """The side's fighters that have not yet had their move this turn (not locked in a
    dogfight, ACTA-DOG-1)."""
    fighters = state.fighters(side)
    if len(state.units) < GRID_FROM:
        return [f for f in fighters if not f.move_done and not state.engaged(f)]
    grid = FighterGrid(state)
    types = state.types
    return [
        f
        for f in fighters
        if not f.move_done and not grid.touching_enemy(f, types[f.type].base_radius)
    ]


def step_fighter_move(ctx: Ctx) -> bool:
    """One side moves all its fighters, then the other (ACTA-FTR-1)."""
    state = ctx.state
    while state.fighter_sides:
        side = state.fighter_sides[0]
        if movable_fighters(state, side):
            state.active = side
            return True
        state.fighter_sides = state.fighter_sides[1:]
    state.phase = "movement_end"
    return False


def step_intercept(ctx: Ctx) -> bool:
    """The defender decides whether supporting fighters intercept an attacker (ACTA-SUP-4)."""
    state = ctx.state
    assert state.intercept is not None
    attacker = state.units.get(state.intercept.attacker)
    if attacker is None:
        state.phase, state.intercept = state.intercept.resume_phase, None
        return False
    state.active = state.other(attacker.side)
    return True


def step_movement_end(ctx: Ctx) -> bool:
    """End of movement: B5 Anti-Fighter fire, then on to the Attack Phase."""
    state = ctx.state
    if ctx.opt("resolution") == "b5":
        anti_fighter(ctx)
    order = (state.initiative, state.other(state.initiative))
    state.defensive_fire_sides = tuple(s for s in order if defensive_fire_candidates(state, s))
    state.phase = "defensive_fire"
    return False


def anti_fighter(ctx: Ctx) -> None:
    """B5: each Anti-Fighter ship rolls its dice at the nearest enemy fighter within range;
    each 4+ is a hit the fighter may dodge (ACTA-RES-5)."""
    state = ctx.state
    reach = float(ctx.opt("anti_fighter_range"))
    for ship in sorted(state.ships(), key=lambda u: u.id):
        dice = state.unit_type(ship).trait("Anti-Fighter") or 0
        if not dice or "Anti-Fighter" in ship.lost_traits or ship.anti_fighter_used:
            continue
        dice *= ctx.rules.intensify_factor(ship.special == combat.INTENSIFY)  # ACTA-SPA-4
        near = [
            f
            for f in state.fighters(state.other(ship.side))
            if combat.measure(state, ship, f, ctx.rules) - state.radius(ship) <= reach
        ]
        if not near:
            continue
        target = min(near, key=lambda f: (combat.measure(state, ship, f, ctx.rules), f.id))
        ship.anti_fighter_used = True
        faces = ctx.roll_many(dice)
        hits = sum(1 for f in faces if ctx.rules.anti_fighter_hits(f))
        ctx.emit(
            "ACTA-RES-5",
            f"{ctx.name(ship)} Anti-Fighter {dice} dice at {ctx.name(target)}: {hits} hit(s)",
            unit=ship.id,
            target=target.id,
        )
        for _ in range(hits):
            if target.id not in state.units:
                break
            if not combat.dodge_roll(ctx, target, None):
                combat.damage_fighter(ctx, target, 1, "ACTA-RES-5", "Anti-Fighter fire", ship.id)


# ---- attacks --------------------------------------------------------------------------


def step_defensive_fire(ctx: Ctx) -> bool:
    """Each side names the supporting fighters on defensive fire this turn (ACTA-SUP-6)."""
    state = ctx.state
    state.defensive_fire_sides = tuple(
        s for s in state.defensive_fire_sides if defensive_fire_candidates(state, s)
    )
    if state.defensive_fire_sides:
        state.active = state.defensive_fire_sides[0]
        return True
    order = (state.initiative, state.other(state.initiative))
    state.attack_sides = tuple(s for s in order if state.fighters(s))
    reset_dogfight_step(state)
    state.phase = "fighter_attack"
    return False


def reset_dogfight_step(state: ActaState) -> None:
    """Clear the dogfight assignments of the previous nomination."""
    state.dogfights = ()
    state.supporters = ()
    state.defender_supporters = None


def step_fighter_attack(ctx: Ctx) -> bool:
    """A side nominates its fighters: dogfights first (ACTA-DOG-2, -DOG-3, -DOG-4)."""
    state = ctx.state
    if not state.attack_sides:
        state.ships_to_fire = {s: tuple(u.id for u in state.ships(s)) for s in state.sides}
        state.firing_ship = ""
        state.active = state.initiative
        state.phase = "ship_fire"
        return False
    side = state.attack_sides[0]
    if unassigned_engaged(state, side):
        state.active = side
        return True
    if state.dogfights and state.defender_supporters is None:
        if defender_candidates(state, side):
            state.active = state.other(side)
            return True
        state.defender_supporters = ()
    if state.dogfights or state.supporters:
        rolled = resolve_dogfights(ctx, side)
        committed = [a for a, _ in state.dogfights] + list(state.supporters)
        committed += list(state.defender_supporters or ())
        for uid in committed:
            if uid in state.units:
                state.units[uid].dogfight_done = True
        # ACTA-DOG-8: a fighter that dogfought (either side of the roll) or supported has
        # made its attack and does not fire, unless the option says otherwise. A defender
        # is not `dogfight_done`: it may still start its own dogfights when its side
        # nominates (notes A.9.4).
        if not ctx.opt("engaged_fighters_fire"):
            for uid in [*committed, *(e for _, e in rolled)]:
                if uid in state.units:
                    state.units[uid].attack_done = True
    reset_dogfight_step(state)
    state.phase = "fighter_fire"
    return False


def step_fighter_fire(ctx: Ctx) -> bool:
    """The nominating side's free fighters fire their weapons (ACTA-FTR-7)."""
    state = ctx.state
    side = state.attack_sides[0]
    if any(fighter_may_fire(ctx, f) for f in state.fighters(side)):
        state.active = side
        return True
    resolve_volley(ctx)  # ACTA-FTR-7: nothing more to nominate, so roll what was named
    end_fighter_attacks(state, side)
    return False


def end_fighter_attacks(state: ActaState, side: str) -> None:
    """The side's fighters are done; the other side nominates next."""
    for fighter in state.fighters(side):
        fighter.attack_done = True
    state.attack_sides = state.attack_sides[1:]
    state.phase = "fighter_attack"


def step_ship_fire(ctx: Ctx) -> bool:
    """Ships fire one at a time, alternating, the initiative winner first (ACTA-ATK-4)."""
    state = ctx.state
    if state.firing_ship:
        ship = state.units.get(state.firing_ship)
        if ship is not None and ship_may_fire(ctx, ship):
            state.active = ship.side
            return True
        end_ship_fire(state, state.firing_ship)
    for side in state.sides:
        state.ships_to_fire[side] = tuple(
            s
            for s in state.ships_to_fire.get(side, ())
            if s in state.units and ship_may_fire(ctx, state.units[s])
        )
    if not state.ships_to_fire.get(state.active):
        state.active = state.other(state.active)
    if state.ships_to_fire.get(state.active):
        return True
    state.phase = "end"
    return False


def end_ship_fire(state: ActaState, ship_id: str) -> None:
    """A ship has finished firing; the other side activates next."""
    side = state.units[ship_id].side if ship_id in state.units else state.active
    state.ships_to_fire[side] = tuple(s for s in state.ships_to_fire.get(side, ()) if s != ship_id)
    state.firing_ship = ""
    state.active = state.other(side)


# ---- end phase ----------------------------------------------------------------------


def step_end(ctx: Ctx) -> bool:
    """Damage control, returning supporters, then the launch decisions (ACTA-END-1)."""
    state = ctx.state
    damage_control(ctx)
    return_interceptors(ctx)
    order = (state.initiative, state.other(state.initiative))
    state.launches_pending = tuple(
        s.id for side in order for s in state.ships(side) if can_launch(ctx, s)
    )
    state.launch_queue = ()
    state.phase = "launch"
    return False


def damage_control(ctx: Ctx) -> None:
    """Each ship with criticals rolls d6 + Crew Quality; each point over 8 repairs one
    level, worst system first (ACTA-CRT-3)."""
    for ship in sorted(ctx.state.ships(), key=lambda u: u.id):
        if not any(ship.criticals.values()):
            continue
        cq = crew_quality(ctx, ship)
        face = ctx.roll()
        repair = max(0, face + cq - 8)
        fixed = []
        while repair > 0 and any(ship.criticals.values()):
            system = max(sorted(ship.criticals), key=lambda k: ship.criticals[k])
            ship.criticals[system] -= 1
            fixed.append(system)
            repair -= 1
        ship.criticals = {k: v for k, v in ship.criticals.items() if v > 0}
        ctx.emit(
            "ACTA-CRT-3",
            f"damage control on {ctx.name(ship)}: {face}+{cq}: "
            + (f"repairs {', '.join(fixed)}" if fixed else "nothing repaired"),
            unit=ship.id,
            repaired=fixed,
        )


def crew_quality(ctx: Ctx, ship: UnitState) -> int:
    """Crew Quality less the crew critical level (ACTA-CRT-2)."""
    return ctx.state.unit_type(ship).crew_quality - combat.crit_level(
        ship, "crew", bool(ctx.opt("crit_effects"))
    )


def return_interceptors(ctx: Ctx) -> None:
    """Supporters that intercepted and survived go back onto the ship's base (ACTA-SUP-5)."""
    state = ctx.state
    for fighter in sorted(state.fighters(), key=lambda u: u.id):
        home = fighter.intercepted_from
        fighter.intercepted_from = ""
        if not home or home not in state.units or not ctx.opt("return_interceptors"):
            continue
        home_unit = state.units[home]
        limit = FIGHTER_SUPPORT_LIMIT if state.is_fighter(home_unit) else SHIP_SUPPORT_LIMIT
        if len(state.supporters_of(home)) >= limit:
            continue
        # Onto a ship's base; into base contact beside a fighter (whose base it may not
        # overlap, ACTA-FTR-3).
        reach = state.radius(home_unit)
        if state.is_fighter(home_unit):
            reach += state.radius(fighter)
        spot = free_spot_near(
            state,
            fighter,
            home_unit.pose.position,
            reach,
            (fighter.pose.position - home_unit.pose.position).angle(),
        )
        if spot is None:
            ctx.emit("ACTA-SUP-5", f"no room for {ctx.name(fighter)} to return to {home}")
            continue
        fighter.pose = type(fighter.pose)(spot, fighter.pose.heading)
        fighter.supporting = home
        ctx.emit(
            "ACTA-SUP-5", f"{ctx.name(fighter)} returns to {ctx.name(home_unit)}", unit=fighter.id
        )


def step_launch(ctx: Ctx) -> bool:
    """Ships decide their launches; the fighters are placed at the very end (ACTA-LCH-1)."""
    state = ctx.state
    state.launches_pending = tuple(
        s for s in state.launches_pending if s in state.units and can_launch(ctx, state.units[s])
    )
    if state.launches_pending:
        state.active = state.units[state.launches_pending[0]].side
        return True
    place_launches(ctx)
    state.phase = "turn_start"
    return False


def place_launches(ctx: Ctx) -> None:
    """Put launched fighters on the table at the end of the End Phase (ACTA-LCH-1, -LCH-2)."""
    from dogfight.rulesets.acta.setup import new_fighter

    state = ctx.state
    for ship_id, ftype, x, y, heading in state.launch_queue:
        ship = state.units.get(ship_id)
        if ship is None:
            continue
        _, damage, drones = ship.take_off(ship.aboard.index(ftype))
        fighter = new_fighter(state, ftype, ship.side, x, y, heading, damage, drones=drones)
        ctx.emit(
            "ACTA-LCH-1",
            f"{ctx.name(ship)} launches {ctx.name(fighter)}",
            unit=fighter.id,
            ship=ship.id,
        )
    state.launch_queue = ()


# ---- the end of the game --------------------------------------------------------------


def strength(state: ActaState, side: str) -> int:
    """Damage points a side has left, fighters aboard included."""
    total = 0
    for unit in state.units.values():
        if unit.side == side:
            total += max(0, unit.damage) + sum(unit.aboard_damage)
    return total


def check_elimination(ctx: Ctx) -> bool:
    """A side with nothing left on the table has lost (ACTA-WIN-1)."""
    state = ctx.state
    if state.phase in ("deploy", "setup"):
        return False
    present = {u.side for u in state.units.values()}
    beaten = [s for s in state.sides if s not in present]
    if not beaten:
        # Checked after every step: skip the scores (the costly part) while both fight on.
        return False
    return end_by_elimination(
        ctx,
        beaten,
        scores(state),
        "ACTA-WIN-1",
        why="has no units left",
        why_both="both sides were wiped out",
    )


def scores(state: ActaState) -> dict[str, float]:
    """Each side's share of the enemy's starting Damage it has destroyed."""
    out = {}
    for side in state.sides:
        enemy = state.other(side)
        start = state.start_strength.get(enemy, 0) or 1
        out[side] = round(1 - strength(state, enemy) / start, 4)
    return out


def finish_at_turn_limit(ctx: Ctx) -> None:
    """At the turn limit the larger share of enemy Damage destroyed wins (ACTA-WIN-2)."""
    end_at_turn_limit(
        ctx,
        scores(ctx.state),
        "ACTA-WIN-2",
        decided=ctx.opt("turn_limit_result") == "damage",
        what="destroyed more",
    )


STEPS: dict[str, Callable[[Ctx], bool]] = {
    "deploy": step_deploy,
    "setup": step_setup,
    "turn_start": step_turn_start,
    "ship_move": step_ship_move,
    "fighter_order": step_fighter_order,
    "fighter_move": step_fighter_move,
    "intercept": step_intercept,
    "movement_end": step_movement_end,
    "defensive_fire": step_defensive_fire,
    "fighter_attack": step_fighter_attack,
    "fighter_fire": step_fighter_fire,
    "ship_fire": step_ship_fire,
    "end": step_end,
    "launch": step_launch,
}
"""Each phase's step: returns True when a side must decide."""
