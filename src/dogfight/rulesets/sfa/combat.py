"""SFA attacks and damage: pools, Soak, lines of fire, Structure, collisions, obstacles."""

from __future__ import annotations

from dogfight.geometry.hex import FRONT_ARC, Hex, in_arc, in_forward_line
from dogfight.geometry.hexmap import OPEN, Terrain, line_of_fire
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import Craft, Pilot, Weapon
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules
from dogfight.rulesets.sfa.state import CraftState, Missile, SfaState
from dogfight.rulesets.sfa.temporal import roll

OBSTACLES: dict[str, tuple[int, int]] = {
    "asteroid": (20, 8),
    "mine": (5, 7),
    "debris": (1, 6),
    "ring": (1, 6),
}
"""Obstacle kind -> (Structure of one object, difficulty of the Piloting roll to cross).

The seed gives the Structures; the difficulties are the notes' proposal (SFA-OBS-1)."""

OBSTACLE_COUNT: dict[str, int] = {"asteroid": 1, "mine": 5, "debris": 20, "ring": 20}
"""Obstacle kind -> how many objects one hex holds, as the seed gives them: one
asteroid of Structure 20, 5 mines, 20 pieces of debris or ring (SFA-OBS-1). A map
may put fewer in a hex, never more."""


def name(ctx: Ctx, uid: str) -> str:
    """A craft or missile as the log names it."""
    state = ctx.state
    if uid in state.craft:
        return f"{uid} ({state.type_of(state.craft[uid]).name})"
    return f"{uid} (missile)" if uid in state.missiles else uid


def total_soak(state: SfaState, craft: CraftState, rules: SfaRules = SFA_RULES) -> int:
    """The defender's Soak: pilot Dexterity + Piloting + craft Soak + Handling + this
    turn's maneuver Soak (SFA-SOAK-1). Never below 0."""
    return soak_against(state, craft, None, rules=rules)


def soak_against(
    state: SfaState,
    craft: CraftState,
    attacker: Craft | None,
    targeting: int = 0,
    *,
    rules: SfaRules = SFA_RULES,
) -> int:
    """The defender's total Soak against one attacker's design (`rules.total_soak`):
    Armor-Piercing levels take 1 each off the armour part (SFA-TEC-01), Disruptor levels
    off the shield part (SFA-TEC-07), and Power spent on a Targeting Computer takes off
    Soak gained from maneuvers only (SFA-TEC-26). Never below 0."""
    ctype = state.type_of(craft)
    if ctype.fighter is not None:
        # A Street Fighter's Stamina is its Soak; it has no craft, shields or
        # maneuvers to add (SFA-SF-5, rules-notes C.3).
        return max(0, ctype.fighter.stamina)
    pilot = craft.pilot
    armor, shields = ctype.armor, ctype.shields
    if attacker is not None:
        armor = max(0, armor - attacker.level("armor_piercing"))
        shields = max(0, shields - attacker.level("disruptor"))
    offset = min(max(0, targeting), max(0, craft.maneuver_soak))
    return rules.total_soak(
        pilot.dexterity,
        pilot.piloting,
        armor,
        shields,
        ctype.handling,
        craft.maneuver_soak - offset,
    )


def defending_scale(state: SfaState, craft: CraftState, attacker: Craft | None) -> int:
    """The target's scale for damage: one higher with Enhanced Soak (the first 5
    successes are ignored), unless the attacker's weapons are Armor-Piercing or
    Disruptor (SFA-TEC-10)."""
    ctype = state.type_of(craft)
    if ctype.has("enhanced_soak") and not piercing(attacker):
        return ctype.scale + 1
    return unit_scale(state, ctype)


def unit_scale(state: SfaState, design: Craft) -> int:
    """A unit's scale for interscale combat: its design's, except that a Street Fighter
    counts as a Starfighter under option `superpowered_street_fighters` (SFA-SF-7)."""
    if design.fighter is not None and state.options.get("superpowered_street_fighters"):
        return design.scale + 1
    return design.scale


def piercing(attacker: Craft | None) -> bool:
    """Armor-Piercing or Disruptor weapons: Enhanced Soak does nothing against them."""
    return attacker is not None and (attacker.has("armor_piercing") or attacker.has("disruptor"))


def disrupts(attacker: Craft | None) -> bool:
    """Disruptor weapons go through Force Fields (SFA-TEC-07, SFA-TEC-14)."""
    return attacker is not None and attacker.has("disruptor")


def handling(state: SfaState, craft: CraftState, rules: SfaRules = SFA_RULES) -> int:
    """The craft's Handling with this turn's maneuver penalties (`rules.handling`,
    SFA-MOV-4)."""
    return rules.handling(state.type_of(craft).handling, craft.maneuver_handling)


def shooter(craft: CraftState, station: int) -> tuple[Pilot, int]:
    """Who fires for a station, and the skill used: the pilot's Piloting, or a gunner's
    Gunnery (SFA-ATK-1)."""
    if station == 0:
        return craft.pilot, craft.pilot.piloting
    gunner = craft.gunners[station - 1]
    return gunner, gunner.gunnery


def bears(state: SfaState, craft: CraftState, weapon: Weapon, target: Hex) -> str:
    """Why the weapon cannot reach the target hex ('' if it can) (SFA-ATK-2)."""
    ctype = state.type_of(craft)
    distance = craft.hex.distance(target)
    if ctype.fighter is not None:
        return person_reach(state, weapon, distance, craft.hex, target)
    if distance == 0:
        return "the target is in the same hex"
    if distance > weapon.range:
        return f"the target is {distance} hexes away, beyond {weapon.name}'s range {weapon.range}"
    if weapon.arc == "forward" and not weapon.guided:
        lines = [craft.facing]
        if ctype.has("auto_turrets"):
            lines = list(range(6))
        if not any(in_forward_line(craft.hex, f, target) for f in lines):
            if ctype.has("remote_bits") and weapon.laser and _beside_line(craft, target):
                pass
            else:
                return f"{weapon.name} fires straight ahead only and the target is not on that line"
    elif ctype.has("auto_turrets") and not craft.gunners:
        # SFA-TEC-03: a turret the computer aims for the pilot fires along the six
        # straight hex lines only (rules-notes C.6, C.7.13).
        if not any(in_forward_line(craft.hex, f, target) for f in range(6)):
            return f"{weapon.name} on Auto-Turrets fires along the six straight lines only"
        if weapon.arc == "front" and not in_arc(craft.hex, craft.facing, target, FRONT_ARC):
            return f"the target is outside {weapon.name}'s forward half"
    elif weapon.arc == "front" and not in_arc(craft.hex, craft.facing, target, FRONT_ARC):
        return f"the target is outside {weapon.name}'s forward half"
    clear, blockers = line_of_fire(craft.hex, target, lambda h: blocks(state, h))
    if not clear:
        return f"an asteroid at {blockers[0].q},{blockers[0].r} blocks the line of fire"
    return ""


def person_reach(state: SfaState, weapon: Weapon, distance: int, origin: Hex, target: Hex) -> str:
    """Why a Street Fighter's maneuver cannot reach a target ('' if it can) (SFA-SF-3):
    on a Starfighter-scale map (a hex is 500 of the fighter's) only something in the
    fighter's own hex; on a Street Fighter-scale map, 1 to the maneuver's range in hexes
    in any direction, with no asteroid on the line."""
    if state.map_scale >= 1:
        if distance:
            return (
                f"{weapon.name} reaches only the fighter's own hex on a Starfighter-scale "
                "map (1 hex is 500 of the fighter's)"
            )
        return ""
    if distance == 0:
        return "the target is in the same hex"
    if distance > weapon.range:
        return f"the target is {distance} hexes away, beyond {weapon.name}'s range {weapon.range}"
    clear, blockers = line_of_fire(origin, target, lambda h: blocks(state, h))
    if not clear:
        return f"an asteroid at {blockers[0].q},{blockers[0].r} blocks the line"
    return ""


def _beside_line(craft: CraftState, target: Hex) -> bool:
    """Remote Bits: the straight lines out of the two hexes beside the craft."""
    left = craft.hex.neighbor((craft.facing - 1) % 6)
    right = craft.hex.neighbor((craft.facing + 1) % 6)
    return any(
        in_forward_line(origin, craft.facing, target) or origin == target
        for origin in (left, right)
    )


def blocks(state: SfaState, where: Hex) -> bool:
    """Asteroids block lines of fire; debris, rings and mines do not (SFA-ATK-2)."""
    return state.map.terrain_at(where).kind == "asteroid"


def roll_attack(
    ctx: Ctx,
    attacker: CraftState,
    station: int,
    weapon: Weapon,
    target_soak: int,
    target_scale: int,
    *,
    speed_dice: int,
    willpower: bool,
    against: str = "",
) -> tuple[int, bool, int]:
    """Roll one attack pool; returns (damage, botched, dice rolled) (SFA-ATK-1, -ATK-3).
    `against` is the craft fired at ('' for a missile): a Temporal Displacement Device
    on either craft may re-roll the roll once it is seen (SFA-TEC-28)."""
    state = ctx.state
    design = state.type_of(attacker)
    # A Street Fighter fights at its own scale (SFA-SF-7); a craft's weapon at the weapon's.
    weapon_scale = unit_scale(state, design) if design.fighter is not None else weapon.scale
    person, skill = shooter(attacker, station)
    size = ctx.rules.attack_dice(
        design,
        person.dexterity,
        skill,
        handling(state, attacker, ctx.rules),
        weapon,
        target_soak,
        speed_dice=speed_dice,
    )

    def damage_of(net: int, bought: bool) -> int:
        return ctx.rules.attack_damage(net, weapon_scale, target_scale, willpower=bought)

    result = roll(
        ctx,
        size,
        kind="attack",
        by=attacker.id,
        against=against,
        willpower=willpower,
        good=lambda r: damage_of(r.net, r.willpower) > 0,
        harm=lambda r: damage_of(r.net, r.willpower) if against else 0,
    )
    return damage_of(result.net, result.willpower), result.botch, size


def damage_craft(
    ctx: Ctx,
    craft: CraftState,
    amount: int,
    clause: str,
    why: str,
    *,
    source: Craft | None = None,
    by: str = "",
) -> None:
    """Take Structure off a craft: 0 or less disables it, minus its starting Structure
    destroys it (SFA-STR-1; option `zero_destroys`). A Force Field stops all of it
    unless `source` has Disruptor weapons (SFA-TEC-14); damage ends Stealth (SFA-TEC-25).

    `by` is the craft that did it, if any: the one that first puts the craft out of
    action is kept for statistics."""
    state = ctx.state
    if amount <= 0:
        ctx.emit(clause, f"{name(ctx, craft.id)} takes no damage ({why})", unit=craft.id)
        return
    if craft.force_field and not disrupts(source):
        ctx.emit(
            "SFA-TEC-14",
            f"{name(ctx, craft.id)}'s Force Field stops {amount} damage ({why})",
            unit=craft.id,
        )
        return
    if craft.cloaked:
        craft.cloaked = False
        ctx.emit("SFA-TEC-25", f"{craft.id} is hit and decloaks", unit=craft.id)
    craft.structure -= amount
    start = state.start_structure[craft.id]
    ctx.emit(
        clause,
        f"{name(ctx, craft.id)} takes {amount} damage ({why}); "
        f"{'Health' if state.is_person(craft) else 'Structure'} {craft.structure}",
        unit=craft.id,
        damage=amount,
    )
    if craft.structure <= 0 and not craft.disabled and not craft.out_by:
        craft.out_by = by
    if craft.structure <= -start or (craft.structure <= 0 and ctx.opt("zero_destroys")):
        person = state.is_person(craft)
        state.remove_craft(craft, destroyed=True)
        state.destroyed.append(craft.id)
        ctx.emit(
            "SFA-SF-6" if person else "SFA-STR-1",
            f"{name(ctx, craft.id)} is "
            + ("killed" if person else "destroyed: everything explodes"),
            unit=craft.id,
            destroyed=True,
            by=by or None,
        )
    elif craft.structure <= 0 and not craft.disabled:
        craft.disabled = True
        if state.is_person(craft):
            ctx.emit(
                "SFA-SF-6",
                f"{name(ctx, craft.id)} is knocked out",
                unit=craft.id,
                disabled=True,
            )
            return
        ctx.emit(
            "SFA-STR-1",
            f"{craft.id} is scrapped and drifts, out of action",
            unit=craft.id,
            disabled=True,
        )


def collide(ctx: Ctx, mover: CraftState, other: CraftState) -> None:
    """Both take the other's starting Structure x the mover's hexes moved, less their
    own craft Soak (SFA-COL-1)."""
    state = ctx.state
    hexes = mover.hexes_moved
    a_start = state.type_of(mover).structure
    b_start = state.type_of(other).structure
    ctx.emit(
        "SFA-COL-1",
        f"{name(ctx, mover.id)} collides with {name(ctx, other.id)} after {hexes} hexes",
        unit=mover.id,
        other=other.id,
    )
    for victim, start, hitter in ((mover, b_start, other.id), (other, a_start, mover.id)):
        if victim.id not in state.craft:
            continue
        if victim.ramming:
            ctx.emit(
                "SFA-TEC-17",
                f"{name(ctx, victim.id)}'s Hyper-Ram plates take the impact: no damage",
                unit=victim.id,
            )
            continue
        damage_craft(
            ctx,
            victim,
            start * hexes - collision_soak(state, victim),
            "SFA-COL-1",
            "collision",
            by=hitter,
        )


def collision_hurt(
    state: SfaState, victim: CraftState, other: CraftState, hexes: int, rules: SfaRules = SFA_RULES
) -> int:
    """Damage a collision after `hexes` hexes does to `victim` from `other`: the other's
    starting Structure times the hexes less the victim's Soak (SFA-COL-1), none on
    charged Hyper-Ram plates (SFA-TEC-17)."""
    if victim.ramming:
        return 0
    return rules.collision_damage(
        state.type_of(other).structure, hexes, collision_soak(state, victim)
    )


def collision_soak(state: SfaState, craft: CraftState) -> int:
    """Collisions are reduced by the craft's Soak stat only (SFA-COL-1, PROPOSAL)."""
    return 0 if state.options.get("collision_soak") is False else state.type_of(craft).soak


def cross_obstacle(ctx: Ctx, craft: CraftState, where: Hex) -> bool:
    """Entering an obstacle hex takes a Piloting roll; a failure is a collision with one
    object there (SFA-OBS-1). Returns False if the craft is out of action after it."""
    state = ctx.state
    terrain = state.map.terrain_at(where)
    if terrain.kind not in OBSTACLES:
        return True
    structure, difficulty = OBSTACLES[terrain.kind]
    if craft.ramming:
        ctx.emit(
            "SFA-TEC-17",
            f"{name(ctx, craft.id)} rams through the {terrain.kind} on its Hyper-Ram plates",
            unit=craft.id,
        )
        return True
    pilot = craft.pilot
    size = ctx.rules.piloting_pool(
        pilot.dexterity, pilot.piloting, handling(state, craft, ctx.rules)
    )
    result = roll(ctx, size, kind="obstacle", by=craft.id, difficulty=difficulty)
    if result.net >= 1:
        ctx.emit(
            "SFA-OBS-1",
            f"{name(ctx, craft.id)} threads the {terrain.kind} "
            f"(Piloting {size} dice at {difficulty}: {result.net} net)",
            unit=craft.id,
        )
        return True
    ctx.emit(
        "SFA-OBS-1",
        f"{name(ctx, craft.id)} fails to clear the {terrain.kind} "
        f"(Piloting {size} dice at {difficulty})",
        unit=craft.id,
    )
    hexes = max(1, craft.hexes_moved)
    hit_object(ctx, craft, where, state.type_of(craft).structure * hexes)
    damage = structure * hexes - collision_soak(state, craft)
    damage_craft(ctx, craft, damage, "SFA-COL-1", f"hits {terrain.kind}")
    return craft.id in state.craft and not state.craft[craft.id].disabled


def hit_object(ctx: Ctx, craft: CraftState, where: Hex, damage: int) -> None:
    """The object a craft collides with takes the craft's starting Structure x hexes
    moved, with no Soak (SFA-COL-1): at its own Structure or more it is destroyed, and
    the hex holds one object fewer, clear once none is left (SFA-OBS-1)."""
    state = ctx.state
    terrain = state.map.terrain_at(where)
    if damage < terrain.structure:
        return
    left = max(0, terrain.count - 1)
    state.map = state.map.with_terrain(
        where, Terrain(terrain.kind, terrain.structure, left) if left else OPEN
    )
    ctx.emit(
        "SFA-OBS-1",
        f"{name(ctx, craft.id)} smashes one {terrain.kind} ({damage} against Structure "
        f"{terrain.structure}): {left} left in the hex",
        unit=craft.id,
    )


def guided_roll(ctx: Ctx, missile: Missile, target: CraftState) -> tuple[int, int, int]:
    """One roll of a missile's (or a Remote Laser's) own pool against `target`: its pool
    less the target's Soak against the launcher's design, at the missile's scale
    (SFA-MSL-2); a Temporal Displacement Device may re-roll it (SFA-TEC-28). Returns
    (dice rolled, the Soak, damage)."""
    state = ctx.state
    source = state.types.get(missile.owner_type)
    soak = soak_against(state, target, source, rules=ctx.rules)
    size = ctx.rules.guided_pool(missile.pool, soak)
    scale = defending_scale(state, target, source)
    result = roll(
        ctx,
        size,
        kind="missile",
        by=missile.owner,
        against=target.id,
        harm=lambda r: ctx.rules.scale_adjust(r.net, missile.scale, scale),
    )
    return size, soak, ctx.rules.scale_adjust(result.net, missile.scale, scale)


def missile_attack(ctx: Ctx, missile: Missile, target: CraftState) -> bool:
    """A missile in its target's hex attacks with its own pool, at its own scale; True
    if it hit and is spent, False if it missed and keeps hunting (SFA-MSL-2)."""
    source = ctx.state.types.get(missile.owner_type)
    size, _, damage = guided_roll(ctx, missile, target)
    if damage <= 0:
        ctx.emit(
            "SFA-MSL-2",
            f"{missile.id} misses {name(ctx, target.id)} ({size} dice) and comes round again",
            unit=missile.id,
        )
        return False
    ctx.emit(
        "SFA-MSL-2", f"{missile.id} strikes {name(ctx, target.id)} ({size} dice)", unit=missile.id
    )
    damage_craft(ctx, target, damage, "SFA-MSL-2", "missile", source=source, by=missile.owner)
    return True


def area_attack(
    ctx: Ctx,
    victim: CraftState,
    dice: int,
    source: Craft | None,
    clause: str,
    why: str,
    *,
    automatic: int = 0,
    by: str = "",
) -> None:
    """An area effect: `automatic` damage with no roll, then a pool of `dice` less the
    victim's total Soak (at least one die); not the attacker's skill or Handling
    (Plasma weapons "8 dice before Soak", Death Blossom and Pi-Tac "10 automatic plus
    10 dice": rules-notes C.6)."""
    state = ctx.state
    soak = soak_against(state, victim, source, rules=ctx.rules)
    size = ctx.rules.guided_pool(dice, soak)
    scale = source.scale if source is not None else 1
    defending = defending_scale(state, victim, source)
    result = roll(
        ctx,
        size,
        kind="area",
        by=by,
        against=victim.id,
        harm=lambda r: automatic + ctx.rules.scale_adjust(r.net, scale, defending),
    )
    net = ctx.rules.scale_adjust(result.net, scale, defending)
    ctx.emit(
        clause,
        f"{why} on {name(ctx, victim.id)}: "
        + (f"{automatic} automatic + " if automatic else "")
        + f"{size} dice against Soak {soak}: {net} net",
        unit=victim.id,
        dice=size,
        damage=automatic + net,
    )
    damage_craft(ctx, victim, automatic + net, clause, why, source=source, by=by)
