"""ACTA weapon fire: range, arcs, to-hit, dodge, interceptors, shields, hull hits.

ACTA:SF resolution is the default; `resolution=b5` switches to the B5 ACTA
Hull score and attack table (clauses ACTA-RES-*).
"""

from __future__ import annotations

import math

from dogfight.rulesets.acta.context import BASE_RULES, Ctx
from dogfight.rulesets.acta.fire_rules import drone_allowance, is_drone, multihit, record_drones
from dogfight.rulesets.acta.rules import ARC_RANGES as ARC_RANGES  # named here too
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.rules import ToHit as ToHit  # named here too
from dogfight.rulesets.acta.special_actions import evades_seeking
from dogfight.rulesets.acta.state import ActaState, UnitState
from dogfight.rulesets.acta.units import Weapon

CRIT_SYSTEMS = {1: "drive", 2: "drive", 3: "power", 4: "weapons", 5: "crew", 6: "shields"}
"""d6 -> system hit by a critical (ACTA-CRT-1)."""

EVASIVE = "Take Evasive Action"
BLAST_DOORS = "Close Blast Doors"
INTENSIFY = "Intensify Defensive Fire"


def weapon_arc(weapon: Weapon, missing_arc: str) -> str:
    """The weapon's arc code, with the option's default for a missing one (ACTA-ARC-2)."""
    return weapon.arc if weapon.arc is not None else missing_arc


def measure(state: ActaState, a: UnitState, b: UnitState, rules: ActaRules = BASE_RULES) -> float:
    """Range between two units: centre to centre, but from a fighter's base edge
    (`ActaRules.range_between`, ACTA-GEN-2)."""
    pa, pb = a.pose.position, b.pose.position
    ta, tb = state.types[a.type], state.types[b.type]
    # What ranges leave off a unit's centre: a fighter's base radius, 0 for a ship
    # (written out here: asked for every weapon and target of every listing).
    return rules.range_between(
        math.hypot(pa.x - pb.x, pa.y - pb.y),
        ta.base_radius if ta.is_fighter else 0.0,
        tb.base_radius if tb.is_fighter else 0.0,
    )


def in_arc(
    state: ActaState,
    firer: UnitState,
    target: UnitState,
    arc_code: str,
    rules: ActaRules = BASE_RULES,
) -> bool:
    """True if the target's centre lies in the firer's arc (`ActaRules.in_arc`, ACTA-ARC-1)."""
    if arc_code == "T":
        return True
    return rules.in_arc(arc_code, firer.pose.bearing_to(target.pose.position))


def crit_level(unit: UnitState, system: str, enabled: bool) -> int:
    """The severity of a critical on a system, if critical effects are in use."""
    return unit.criticals.get(system, 0) if enabled else 0


def to_hit(ctx: Ctx, firer: UnitState, weapon: Weapon, target: UnitState, dist: float) -> ToHit:
    """The to-hit roll for one weapon against one target at a range (`ActaRules.to_hit`).

    Against an evasive ship a Seeking weapon still hits automatically, unless the ship
    wins the opposed Crew Quality roll (`special_actions.evades_seeking`, ACTA-SPA-9)."""
    state = ctx.state
    return ctx.rules.to_hit(
        weapon,
        state.is_fighter(target),
        state.unit_type(target).hull,
        dist,
        ctx.options,
        evasive=target.special == EVASIVE,
        weapon_crits=crit_level(firer, "weapons", bool(ctx.opt("crit_effects"))),
    )


def can_dodge(ctx: Ctx, target: UnitState) -> bool:
    """Whether a fighter (or B5 ship) may use its Dodge now (ACTA-FTR-6)."""
    if not ctx.opt("dodge_requires_move"):
        return True  # the facts below are not needed
    state = ctx.state
    # Supporting a ship counts as moving with it (PROPOSAL); supporting a fighter does not.
    protected = state.units.get(target.supporting) if target.supporting else None
    return ctx.rules.may_dodge(
        ctx.options,
        moved=target.moved or target.carried > 0,
        engaged=state.is_fighter(target) and state.engaged(target),
        escorting=protected is not None and not state.is_fighter(protected),
    )


def destroy(ctx: Ctx, unit: UnitState, clause: str, why: str, by: str | None = None) -> None:
    """Remove a unit from the table; fighters aboard a destroyed ship are lost with it.

    `by` is the unit that destroyed it, if any (kept in `state.fallen` for statistics)."""
    state = ctx.state
    if unit.id not in state.units:
        return
    del state.units[unit.id]
    state.destroyed.append(unit.id)
    state.record_loss(unit, by)
    for other in state.units.values():
        if other.supporting == unit.id:
            other.supporting = ""
    lost = f"; {len(unit.aboard)} fighter(s) aboard are lost" if unit.aboard else ""
    ctx.emit(
        clause,
        f"{ctx.name(unit)} is destroyed: {why}{lost}",
        unit=unit.id,
        destroyed=True,
        by=by,
    )


def damage_fighter(
    ctx: Ctx, fighter: UnitState, points: int, clause: str, why: str, by: str | None = None
) -> None:
    """Take damage points off a fighter; at 0 it is destroyed (ACTA-FTR-8)."""
    fighter.damage -= points
    if fighter.damage <= 0:
        destroy(ctx, fighter, "ACTA-FTR-8", why, by)
    else:
        ctx.emit(
            clause,
            f"{ctx.name(fighter)} takes {points} damage ({why}); {fighter.damage} left",
            unit=fighter.id,
            damage=points,
        )


def dodge_roll(ctx: Ctx, target: UnitState, weapon: Weapon | None) -> bool:
    """Roll the target's Dodge against one hit; True if the hit is dodged (ACTA-FTR-6)."""
    state = ctx.state
    ttype = state.unit_type(target)
    dodge = ttype.trait("Dodge")
    if dodge is None or "Dodge" in target.lost_traits:
        return False
    if not state.is_fighter(target) and ctx.opt("resolution") != "b5":
        return False  # ACTA:SF ships have no Dodge; B5 ships do (ACTA-RES-6)
    if weapon is not None and weapon.has("Fighter-Killer") and state.is_fighter(target):
        ctx.emit("ACTA-TRT-8", f"{ctx.name(target)} may not dodge a Fighter-Killer hit")
        return False
    if not can_dodge(ctx, target):
        ctx.emit("ACTA-FTR-6", f"{ctx.name(target)} did not move and may not dodge")
        return False
    face = ctx.roll()
    dodged = ctx.rules.dodges(face, dodge)
    ctx.emit(
        "ACTA-FTR-6",
        f"{ctx.name(target)} dodges on {dodge}+: {'dodged' if dodged else 'failed'}",
        unit=target.id,
        dodged=dodged,
    )
    return dodged


def interceptor_roll(ctx: Ctx, ship: UnitState, own_dice: int, guards: list[UnitState]) -> bool:
    """Interceptors against one hit: True if it is stopped (ACTA-RES-4).

    The ship rolls its own dice, then each defensive-fire fighter in `guards` rolls
    one die of its own. Each success makes the next one harder this turn: 2+, then
    3+, up to 6+. A natural 1 on a fighter's die hurts that fighter (ACTA-SUP-6).
    """
    need = ctx.rules.interceptor_need(ship.interceptors_used)
    faces = ctx.roll_many(own_dice)
    guard_faces = [(guard, ctx.roll()) for guard in guards]
    stopped = any(f >= need for f in faces) or any(f >= need for _, f in guard_faces)
    if stopped:
        ship.interceptors_used += 1
    ctx.emit(
        "ACTA-RES-4",
        f"interceptors of {ctx.name(ship)} need {need}+: "
        f"{'hit stopped' if stopped else 'hit gets through'}",
        unit=ship.id,
        stopped=stopped,
        guard_dice=[[g.id, f] for g, f in guard_faces],
    )
    for guard, face in guard_faces:
        if ctx.rules.defensive_fire_hurts(face) and guard.id in ctx.state.units:
            damage_fighter(ctx, guard, 1, "ACTA-SUP-6", "a natural 1 on defensive fire")
    return stopped


def defensive_fire_fighters(ctx: Ctx, ship: UnitState) -> list[UnitState]:
    """Fighters on defensive fire for a ship that are not locked in a dogfight (ACTA-SUP-6)."""
    return [
        f
        for f in ctx.state.supporters_of(ship.id)
        if f.on_defensive_fire and not ctx.state.engaged(f)
    ]


def fighter_defence_dice(ctx: Ctx, fighter: UnitState) -> int:
    """AD a fighter rolls on defensive fire: its non-seeking weapons' AD."""
    ftype = ctx.state.unit_type(fighter)
    return max(1, sum(w.ad for w in ftype.weapons if not w.has("Seeking")))


def seeking_defensive_fire(ctx: Ctx, ship: UnitState, incoming: int) -> int:
    """ACTA:SF defensive fire against a Seeking attack: returns the AD left (ACTA-SUP-6)."""
    left = incoming
    for fighter in defensive_fire_fighters(ctx, ship):
        if left <= 0:
            break
        n = fighter_defence_dice(ctx, fighter) * ctx.rules.intensify_factor(
            ship.special == INTENSIFY
        )
        faces = ctx.roll_many(n)
        shot = min(left, sum(1 for f in faces if ctx.rules.defensive_fire_stops(f)))
        left -= shot
        ctx.emit(
            "ACTA-SUP-6",
            f"{ctx.name(fighter)} on defensive fire for {ctx.name(ship)} stops {shot} "
            f"incoming dice",
            unit=fighter.id,
            stopped=shot,
        )
        if any(ctx.rules.defensive_fire_hurts(f) for f in faces):
            damage_fighter(ctx, fighter, 1, "ACTA-SUP-6", "a natural 1 on defensive fire")
    return left


def resolve_fire(ctx: Ctx, firer: UnitState, weapon: Weapon, target: UnitState) -> None:
    """Resolve one weapon's attack on one target, from the dice to the damage."""
    state = ctx.state
    dist = measure(state, firer, target, ctx.rules)
    ad = weapon.ad
    if not state.is_fighter(firer) and firer.special == INTENSIFY:
        ad = ctx.rules.intensified_ad(ad)  # ACTA-SPA-4: the ship itself at half strength
    ctx.emit(
        "ACTA-ATK-1",
        f'{ctx.name(firer)} fires {weapon.name} ({ad} AD) at {ctx.name(target)}, range {dist:.1f}"',
        unit=firer.id,
        target=target.id,
        weapon=weapon.name,
        range=round(dist, 2),
    )
    if is_drone(weapon):
        allowed = drone_allowance(firer, target.id, int(ctx.opt("drone_limit")))
        if allowed is not None and ad > allowed:
            ctx.emit(
                "ACTA-TRT-10",
                f"only {allowed} more drone(s) may be launched at {ctx.name(target)} this turn",
                unit=firer.id,
                target=target.id,
                allowed=allowed,
            )
            ad = allowed
        record_drones(firer, target.id, ad)
        if ad <= 0:
            return
    seeking_defence = ctx.opt("resolution") == "sf" and ctx.opt("defensive_fire_mode") == "seeking"
    if weapon.has("Seeking") and not state.is_fighter(target) and seeking_defence:
        ad = seeking_defensive_fire(ctx, target, ad)
        if ad <= 0:
            return
    rule = to_hit(ctx, firer, weapon, target, dist)
    evasive = rule.automatic and target.special == EVASIVE and not state.is_fighter(target)
    if evasive and evades_seeking(ctx, firer, weapon, target):
        return  # ACTA-SPA-9: the evasive ship won the opposed roll
    faces = [] if rule.automatic else ctx.roll_many(ad)
    if rule.automatic:
        hits = ad
        sixes = 0
        clause = "ACTA-TRT-6"
        how = f"Seeking: {ad} automatic hit(s)"
    else:
        hit_faces = [f for f in faces if rule.hits(f)]
        hits = len(hit_faces)
        sixes = sum(1 for f in hit_faces if f == 6)
        clause = "ACTA-RES-2" if ctx.opt("resolution") == "b5" else "ACTA-ATK-2"
        sign = f"{rule.modifier:+d}" if rule.modifier else ""
        how = f"need {rule.need}+{(' ' + sign) if sign else ''}: {hits} hit(s)"
    ctx.emit(clause, f"to hit {ctx.name(target)}: {how}", hits=hits, sixes=sixes)
    if hits == 0:
        return
    if state.is_fighter(target):
        hit_fighter(ctx, target, weapon, hits, firer.id)
    else:
        hit_ship(ctx, target, weapon, hits, sixes, firer.id, per_hit=multihit(weapon, dist))


def hit_fighter(
    ctx: Ctx, target: UnitState, weapon: Weapon, hits: int, by: str | None = None
) -> None:
    """Each hit on a fighter is one point of damage after its Dodge (ACTA-FTR-5)."""
    for _ in range(hits):
        if target.id not in ctx.state.units:
            return
        if dodge_roll(ctx, target, weapon):
            continue
        points = ctx.rules.fighter_hit_damage()
        damage_fighter(ctx, target, points, "ACTA-FTR-5", f"hit by {weapon.name}", by)


def hit_ship(
    ctx: Ctx,
    ship: UnitState,
    weapon: Weapon,
    hits: int,
    sixes: int,
    by: str | None = None,
    per_hit: int | None = None,
) -> None:
    """Hits on a ship: Dodge and Interceptors (B5), shields, then the hull (ACTA-DMG-*).

    `per_hit` is the weapon's Multihit at the range fired (`fire_rules.multihit`)."""
    state = ctx.state
    b5 = ctx.opt("resolution") == "b5"
    if per_hit is None:
        per_hit = weapon.trait("Multihit") or 1  # ACTA-DMG-3
    precise = 1 if weapon.has("Precise") else 0  # ACTA-TRT-3
    devastating = weapon.trait("Devastating") or 0  # ACTA-TRT-4
    interceptors = b5 or ctx.opt("defensive_fire_mode") == "interceptor"
    own_dice = 0
    if interceptors and "Interceptors" not in ship.lost_traits:
        own_dice = state.unit_type(ship).trait("Interceptors") or 0
    doubled = ctx.rules.intensify_factor(ship.special == INTENSIFY)  # ACTA-SPA-4
    for index in range(hits):
        if ship.id not in state.units:
            return
        if b5 and dodge_roll(ctx, ship, weapon):
            continue
        guards = defensive_fire_fighters(ctx, ship) * doubled if interceptors else []
        if (own_dice or guards) and interceptor_roll(ctx, ship, own_dice * doubled, guards):
            continue
        bypass = index < sixes and not b5  # ACTA-ATK-3: natural 6s go past the shields
        points = per_hit
        if not b5 and ship.shields > 0 and not bypass:
            taken = min(points, ship.shields)
            ship.shields -= taken
            points -= taken
            ctx.emit(
                "ACTA-DMG-1",
                f"{ctx.name(ship)} shields absorb {taken}; {ship.shields} shield(s) left",
                unit=ship.id,
                shields=ship.shields,
            )
        if points > 0:
            hull_dice(ctx, ship, points, precise, devastating, bypass, by)


def hull_dice(
    ctx: Ctx,
    ship: UnitState,
    points: int,
    precise: int,
    devastating: int,
    bypass: bool,
    by: str | None = None,
) -> None:
    """Roll a hull die per point: 1 nothing, 2-5 one damage, 6 damage and a critical.

    At most one critical per hit (ACTA-DMG-2, ACTA-DMG-3). On the B5 attack table
    every 6 is a critical and each damage point also costs crew (ACTA-RES-3).
    """
    b5 = ctx.opt("resolution") == "b5"
    faces = ctx.roll_many(points)
    damage = 0
    crits = 0
    for face in faces:
        dealt, crit_die = ctx.rules.hull_die(face, precise)
        damage += dealt
        crits += crit_die
    # ACTA-DMG-3: one critical per hit in ACTA:SF; every 6 on the B5 attack table (RES-3).
    crits = crits if b5 else min(crits, 1)
    crit = crits > 0
    clause = "ACTA-RES-3" if b5 else "ACTA-DMG-2"
    note = " (past the shields on a natural 6)" if bypass else ""
    ctx.emit(
        clause,
        f"{ctx.name(ship)} hull dice{note}: {damage} damage{', critical' if crit else ''}",
        unit=ship.id,
        damage=damage,
        critical=crit,
    )
    if damage and ship.special == BLAST_DOORS:
        saves = ctx.roll_many(damage)
        saved = sum(1 for f in saves if ctx.rules.blast_doors_save(f))
        damage -= saved
        ctx.emit("ACTA-SPA-3", f"Close Blast Doors save {saved} damage", unit=ship.id)
    if damage:
        ship.damage -= damage
        if b5:
            ship.crew = max(0, ship.crew - damage)
    for _ in range(crits):
        critical(ctx, ship, devastating)
    after_damage(ctx, ship, by)


def critical(ctx: Ctx, ship: UnitState, devastating: int) -> None:
    """Roll the system a critical hits; Devastating +X raises its level (ACTA-CRT-1)."""
    if ship.id not in ctx.state.units:
        return
    system = CRIT_SYSTEMS[ctx.roll()]
    level = 1 + devastating
    ship.criticals[system] = ship.criticals.get(system, 0) + level
    ctx.emit(
        "ACTA-CRT-1",
        f"critical on {ctx.name(ship)}: {system} now level {ship.criticals[system]}",
        unit=ship.id,
        system=system,
        level=ship.criticals[system],
    )
    if system == "shields" and ctx.opt("crit_effects"):
        before = ship.shields
        ship.shields //= 2
        ctx.emit("ACTA-CRT-2", f"shield critical: shields {before} -> {ship.shields}")


def after_damage(ctx: Ctx, ship: UnitState, by: str | None = None) -> None:
    """Check a damaged ship for destruction or crippling (ACTA-DMG-4, ACTA-CRP-1)."""
    if ship.id not in ctx.state.units:
        return
    if ship.damage <= 0:
        destroy(ctx, ship, "ACTA-DMG-4", "its Damage is gone", by)
        return
    stype = ctx.state.unit_type(ship)
    if not ship.crippled and ship.damage <= stype.crippled:
        ship.crippled = True
        traits = [t.name for t in stype.traits if t.name not in ("Fighter", "SM")]
        lost = []
        if traits:
            faces = ctx.roll_many(len(traits))
            lost = [name for name, f in zip(traits, faces, strict=True) if ctx.rules.trait_lost(f)]
            ship.lost_traits = tuple(sorted(set(ship.lost_traits) | set(lost)))
        ctx.emit(
            "ACTA-CRP-1",
            f"{ctx.name(ship)} is crippled" + (f"; loses {', '.join(lost)}" if lost else ""),
            unit=ship.id,
            lost=lost,
        )
