"""Who may do what right now: shots, launches, recoveries, supporters.

These queries are shared by `legal_actions` (which lists them) and `check`
(which refuses anything else), so legality is written once.
"""

from __future__ import annotations

from collections.abc import Iterator

from dogfight.geometry import EPSILON
from dogfight.rulesets.acta.combat import in_arc, measure, weapon_arc
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.fire_rules import drone_allowance, is_drone
from dogfight.rulesets.acta.special_actions import drain_fire_problem
from dogfight.rulesets.acta.state import ActaState, UnitState
from dogfight.rulesets.acta.trait_use import CARRIER, carrier_launches
from dogfight.rulesets.acta.units import Weapon

SHIP_SUPPORT_LIMIT = 4
"""Fighters that may support one ship from its base (ACTA-SUP-1)."""
FIGHTER_SUPPORT_LIMIT = 1
"""Fighters that may support one fighter (ACTA-SUP-1)."""
LAUNCH_DISTANCE = 3.0
"""Launched fighters are placed within this many inches of the ship (ACTA-LCH-1)."""
SCRAMBLE = "Scramble! Scramble!"


def weapons_of(state: ActaState, unit: UnitState) -> tuple[Weapon, ...]:
    """The unit's weapons, without a drone swapped for dogfight drones (ACTA-FTR-9)."""
    weapons = state.unit_type(unit).weapons
    if unit.dogfight_drones:
        return tuple(w for w in weapons if not w.dogfight_drones)
    return weapons


def weapon_named(state: ActaState, unit: UnitState, name: str) -> Weapon | None:
    """A unit's weapon by name."""
    for weapon in weapons_of(state, unit):
        if weapon.name == name:
            return weapon
    return None


def firer_problem(ctx: Ctx, firer: UnitState) -> str:
    """Why the unit may fire no weapon at any target now ('' if nothing bars it as a
    whole): the part of `shot_problem` that names neither weapon nor target."""
    state = ctx.state
    if state.is_fighter(firer):
        if firer.attack_done:
            return f"{firer.id} has already made its attack this turn"
        if state.engaged(firer) and not ctx.opt("engaged_fighters_fire"):
            return f"{firer.id} is locked in a dogfight and may not fire (ACTA-DOG-8)"
    elif firer.crippled and firer.fired:
        return f"{firer.id} is crippled and may fire only one weapon system (ACTA-CRP-1)"
    return ""


def shot_problem(ctx: Ctx, firer: UnitState, weapon: Weapon, target: UnitState) -> str:
    """Why this weapon may not fire at this target now ('' if it may)."""
    return (
        _aim_problem(ctx, firer, weapon, target)
        or firer_problem(ctx, firer)
        or _shot_rest_problem(ctx, firer, weapon, target)
    )


def _aim_problem(ctx: Ctx, firer: UnitState, weapon: Weapon, target: UnitState) -> str:
    """The first reasons of `shot_problem`: side, weapon used, barred, range and arc."""
    state = ctx.state
    if target.side == firer.side:
        return f"{target.id} is on your own side"
    if weapon.name in firer.fired:
        return f"{firer.id} has already fired {weapon.name} this turn"
    if target.id in firer.barred:
        return f"{firer.id} was intercepted and may not attack {target.id} this turn (ACTA-SUP-4)"
    dist = measure(state, firer, target, ctx.rules)
    if dist > weapon.range + EPSILON:
        return f'{target.id} is {dist:.1f}" away, beyond {weapon.name}\'s {weapon.range:g}"'
    arc = weapon_arc(weapon, str(ctx.opt("missing_arc")))
    if not in_arc(state, firer, target, arc, ctx.rules):
        return f"{target.id} is outside {weapon.name}'s {arc} arc (ACTA-ARC-1)"
    return ""


def _shot_rest_problem(ctx: Ctx, firer: UnitState, weapon: Weapon, target: UnitState) -> str:
    """The last reasons of `shot_problem`, after `firer_problem`'s: one target a turn,
    a power drain, the drone limit."""
    state = ctx.state
    if state.is_fighter(firer):
        if firer.fighter_target and firer.fighter_target != target.id:
            return (
                f"{firer.id} attacks one target a turn (it is one weapon system) and "
                f"chose {firer.fighter_target} (ACTA-FTR-7)"
            )
    else:
        drained = drain_fire_problem(firer, weapon)
        if drained:
            return drained
    if is_drone(weapon) and drone_allowance(firer, target.id, int(ctx.opt("drone_limit"))) == 0:
        return (
            f"{firer.id} has already launched {int(ctx.opt('drone_limit'))} drones at "
            f"{target.id} this turn (ACTA-TRT-10)"
        )
    return ""


def _shots(ctx: Ctx, unit: UnitState) -> Iterator[tuple[Weapon, UnitState]]:
    """Every (weapon, target) the unit could fire now, weapons in order, each weapon's
    targets in table order (`shot_problem` decides each)."""
    state = ctx.state
    enemies = state.on_table(state.other(unit.side))
    whole: str | None = None  # firer_problem, asked once and only of a unit with a shot lined up
    for weapon in weapons_of(state, unit):
        for target in enemies:
            if _aim_problem(ctx, unit, weapon, target):
                continue
            if whole is None:
                whole = firer_problem(ctx, unit)
            if whole:
                return  # no weapon at any target: each pair's shot_problem would say so
            if not _shot_rest_problem(ctx, unit, weapon, target):
                yield weapon, target


def fighter_shots(ctx: Ctx, fighter: UnitState) -> list[tuple[Weapon, UnitState]]:
    """Every (weapon, target) the fighter could fire now."""
    if fighter.attack_done:
        return []
    return list(_shots(ctx, fighter))


def ship_shots(ctx: Ctx, ship: UnitState) -> list[tuple[Weapon, UnitState]]:
    """Every (weapon, target) the ship could fire now."""
    return list(_shots(ctx, ship))


def fighter_may_fire(ctx: Ctx, fighter: UnitState) -> bool:
    """Whether `fighter_shots` would list anything: the same questions, stopped at the
    first shot found (the sequence asks it of every fighter still to fire)."""
    return not fighter.attack_done and next(_shots(ctx, fighter), None) is not None


def ship_may_fire(ctx: Ctx, ship: UnitState) -> bool:
    """Whether `ship_shots` would list anything, stopped at the first shot found (the
    sequence asks it of every ship still to fire, at every step of the fire phase)."""
    return next(_shots(ctx, ship), None) is not None


def launch_limit(ctx: Ctx, ship: UnitState) -> int:
    """How many fighters the ship may launch this turn (ACTA-LCH-1, ACTA-SPA-7)."""
    utype = ctx.state.unit_type(ship)
    carrier = utype.trait(CARRIER) if CARRIER not in ship.lost_traits else None
    if ship.special == SCRAMBLE:
        return carrier + 2 if carrier else 2  # B5: Carriers launch 2 more (notes A.8)
    if ship.special:
        return 0
    return carrier_launches(utype, ship.lost_traits)  # Carrier X (ACTA-TRT-11)


def launched_count(state: ActaState, ship: UnitState) -> int:
    """Fighters the ship has queued for launch this turn."""
    return sum(1 for entry in state.launch_queue if entry[0] == ship.id)


def queued_of_type(state: ActaState, ship: UnitState, ftype: str) -> int:
    """Fighters of one type the ship has already queued for launch this turn."""
    return sum(1 for entry in state.launch_queue if entry[0] == ship.id and entry[1] == ftype)


def can_launch(ctx: Ctx, ship: UnitState) -> bool:
    """True if the ship has fighters aboard and may still launch one this turn."""
    if not ship.aboard or ctx.state.is_fighter(ship):
        return False
    queued = launched_count(ctx.state, ship)
    return queued < launch_limit(ctx, ship) and queued < len(ship.aboard)


def recovery_problem(ctx: Ctx, fighter: UnitState, ship: UnitState) -> str:
    """Why the ship may not take this fighter aboard now ('' if it may) (ACTA-LCH-3)."""
    state = ctx.state
    if ship.side != fighter.side:
        return f"{ship.id} is not a friendly ship"
    if state.is_fighter(ship):
        return f"{ship.id} is a fighter, not a ship"
    stype = state.unit_type(ship)
    if stype.craft <= 0:
        return f"{ship.id} has no Craft score and carries no fighters"
    if ship.special:
        return f"{ship.id} performed a Special Action this turn and may not recover fighters"
    if len(ship.aboard) >= stype.craft:
        return f"{ship.id} already carries {len(ship.aboard)} fighters, its Craft score"
    gap = (
        fighter.pose.position.distance(ship.pose.position)
        - state.radius(ship)
        - state.radius(fighter)
    )
    from dogfight.rulesets.acta.movement import fighter_budget

    if gap > fighter_budget(state, fighter, ctx.rules) + EPSILON:
        return f"{fighter.id} cannot reach {ship.id} this turn"
    return ""


def support_problem(state: ActaState, fighter: UnitState, target_id: str) -> str:
    """Why the fighter may not support this unit from where it is ('' if it may)."""
    target = state.units.get(target_id)
    if target is None:
        return f"no unit {target_id!r}"
    if target.side != fighter.side or target.id == fighter.id:
        return f"{target_id} is not another friendly unit"
    others = [s for s in state.supporters_of(target_id) if s.id != fighter.id]
    if state.is_fighter(target):
        if len(others) >= FIGHTER_SUPPORT_LIMIT:
            return f"{target_id} already has a supporting fighter (ACTA-SUP-1)"
        if target.supporting:
            return f"{target_id} is itself supporting and cannot be supported"
    elif len(others) >= SHIP_SUPPORT_LIMIT:
        return f"{target_id} already has {SHIP_SUPPORT_LIMIT} supporting fighters (ACTA-SUP-1)"
    if any(s.id != target_id for s in state.supporters_of(fighter.id)):
        return f"{fighter.id} has a supporter of its own and cannot support (ACTA-SUP-1)"
    if not state.touching(fighter, target):
        return f"{fighter.id} must be on {target_id}'s base or in contact to support it"
    return ""


def automatic_support(state: ActaState, fighter: UnitState, prefer: str = "") -> str:
    """The unit a fighter supports where it now stands ('' if none) (ACTA-SUP-1).

    A fighter that ends its move on a friendly ship's base or in contact with a friendly
    fighter supports it without asking, within the limits of ACTA-SUP-1. Where it could
    support several, `prefer` (the player's choice) wins, then the unit it already
    supports, then ships before fighters, each in id order."""
    if state.engaged(fighter):
        return ""  # locked in a dogfight: it is not carried and supports nothing (ACTA-DOG-1)
    friends = sorted(
        (u for u in state.on_table(fighter.side) if u.id != fighter.id),
        key=lambda u: (u.id != prefer, u.id != fighter.supporting, state.is_fighter(u), u.id),
    )
    for friend in friends:
        if not support_problem(state, fighter, friend.id):
            return friend.id
    return ""


def defensive_fire_candidates(state: ActaState, side: str) -> list[UnitState]:
    """Fighters supporting a ship, not locked in a dogfight: they may go on defensive fire."""
    return [
        f
        for f in state.fighters(side)
        if f.supporting
        and f.supporting in state.units
        and not state.is_fighter(state.units[f.supporting])
        and not state.engaged(f)
        and not f.attack_done
    ]


def interceptors_for(state: ActaState, protected: str) -> list[UnitState]:
    """Supporters of a unit free to intercept an attacker: not locked in a dogfight and
    not on defensive fire, which lasts the whole turn (ACTA-SUP-4, ACTA-SUP-6)."""
    return [
        f
        for f in state.supporters_of(protected)
        if not state.engaged(f) and not f.on_defensive_fire
    ]
