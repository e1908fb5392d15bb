"""SFA advanced technologies in battle (seed 003, "Advanced Technology"; SFA-TEC-01..30).

The technology table (cost, Power use, Speed, abort flag) lives in `craft.TECHNOLOGIES`;
this module is what each one does on the map. Passive technologies bite where they
apply: Armor-Piercing, Disruptor, Enhanced Soak and the Targeting Computer in
`combat.soak_against` / `combat.defending_scale`; Force Field and Hyper-Ram in
`combat.damage_craft` / `combat.collide`; Auto-Turrets and Remote Bits in
`combat.bears`; Enhanced Lasers and Missiles in the weapon numbers; Artificial
Intelligence in `setup`. Technologies with a Speed are actions, selected as kind
'equipment': some take effect when the craft moves (`MOVE_TECHS`), the rest when it
resolves (`RESOLVE_TECHS`).
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from dogfight.core.events import PRIVATE_TO
from dogfight.geometry.hex import Hex, hex_linedraw, in_forward_line, straight_line
from dogfight.rulesets.sfa.combat import (
    area_attack,
    collide,
    damage_craft,
    guided_roll,
    handling,
    name,
    soak_against,
    unit_scale,
)
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import ENHANCEMENT, TECHNOLOGIES, Craft, Technology, Weapon
from dogfight.rulesets.sfa.maneuvers import trace
from dogfight.rulesets.sfa.names import realias, shown_name, veil
from dogfight.rulesets.sfa.pool import PoolResult
from dogfight.rulesets.sfa.rules import SfaRules
from dogfight.rulesets.sfa.state import (
    CraftState,
    Decoy,
    Missile,
    SfaState,
    Trail,
    new_missile_id,
)
from dogfight.rulesets.sfa.temporal import roll

ACTION_TECHS = frozenset(t for t, kind in TECHNOLOGIES.items() if kind.speed is not None)
"""Technologies that are the turn's action (they have a Speed modifier)."""
ABORT_TECHS = frozenset(t for t, kind in TECHNOLOGIES.items() if kind.abort)
"""Technologies a pilot may abort to for 1 Willpower (SFA-SEQ-5)."""
MOVE_TECHS = frozenset(
    {"boosters", "teleport", "force_field", "plasma_field", "plasma_trail", "hyper_ram"}
)
"""Action technologies that take effect when the craft moves; nothing is left to resolve."""
RESOLVE_TECHS = ACTION_TECHS - MOVE_TECHS
"""Action technologies used at the craft's resolution, with a decision (target, hex...)."""
DOOMSDAY = frozenset({"death_blossom", "pi_tac_cannon"})
"""Need a stationary charging turn right before use (SFA-TEC-06, SFA-TEC-19)."""
UNTARGETED = frozenset({"emp", "death_blossom", "pi_tac_cannon", "stealth"})
"""Resolve technologies used with `use=True` and nothing else."""
TARGETED = frozenset({"duplicator", "tractor_beam", "plasma_missile", "remote_laser"})
"""Resolve technologies aimed at an enemy craft."""

CLAUSE = {tech: f"SFA-TEC-{i:02d}" for i, tech in enumerate(TECHNOLOGIES, start=1)}
"""Technology id -> its clause id, numbered in the seed's order."""

BOOST_HEXES = 5
EMP_RANGE = 10
BLOSSOM_RADIUS = 5
BLOSSOM_TURNS_LOST = 2
DOOM_AUTOMATIC = 10
DOOM_DICE = 10
PLASMA_DICE = 8
PLASMA_FIELD_RANGE = 2
PLASMA_BLAST = 3
HOLO_RANGE = 5
TRACTOR_RANGE = 2
TRACTOR_STRENGTH = 10
TRACTOR_DRAG = 2
REMOTE_LASER_ATTACK = 6
REMOTE_LASER_RANGE = 10


def craft_of(key: str) -> str:
    """The craft id of an actor key ('R1#0' -> 'R1')."""
    return key.rpartition("#")[0]


def label(tech: str) -> str:
    """A technology's name as the seed gives it."""
    return TECHNOLOGIES[tech].label


def power_needed(tech: str) -> int:
    """Power a technology needs at the least to be used once (1 for per-turn and
    per-hex use, the listed cost for per-use, 0 when it costs nothing)."""
    kind = TECHNOLOGIES[tech]
    return kind.power or 0


def pay(ctx: Ctx, craft: CraftState, tech: str, amount: int) -> bool:
    """Spend Power on a technology; False (and a log line) if the craft lacks it."""
    if craft.power < amount:
        ctx.emit(
            CLAUSE[tech],
            f"{craft.id} has {craft.power} Power, too little for its {label(tech)} "
            f"({amount}): the action is not performed",
            unit=craft.id,
        )
        return False
    craft.power -= amount
    return True


# ---- who sees whom (Stealth, Enhanced Sensors) --------------------------------------------


def sees(state: SfaState, viewer: CraftState, target: CraftState) -> bool:
    """Whether a craft can see (and so aim at) another: a cloaked craft only by its own
    side or a craft with Enhanced Sensors (SFA-TEC-25, SFA-TEC-13)."""
    if not target.cloaked or target.side == viewer.side:
        return True
    return state.type_of(viewer).has("enhanced_sensors")


def side_sees(state: SfaState, side: str | None, target: CraftState) -> bool:
    """Whether a side is shown a craft: its own, any uncloaked one, or a cloaked one
    while the side has a craft with Enhanced Sensors still fighting (SFA-TEC-13).

    A spectator (None) is shown what is public: a craft every side is shown."""
    if side is None:
        return all(side_sees(state, s, target) for s in state.sides)
    if not target.cloaked or target.side == side:
        return True
    return any(state.type_of(c).has("enhanced_sensors") for c in state.operational(side))


def firing(craft: CraftState, tech: str) -> bool:
    """A doomsday device charged last turn is fired this turn; otherwise selecting it
    charges it (SFA-TEC-06, SFA-TEC-19)."""
    return tech in DOOMSDAY and craft.charged == tech


# ---- selecting a technology ------------------------------------------------------------


def equipment_problem(state: SfaState, craft: CraftState, tech: str) -> str:
    """Why the craft's pilot cannot select this technology now ('' if it can)."""
    ctype = state.type_of(craft)
    if tech not in TECHNOLOGIES:
        return f"there is no technology {tech!r}"
    clause = CLAUSE[tech]
    if not ctype.has(tech):
        return f"{craft.id} carries no {label(tech)} ({clause})"
    if tech not in ACTION_TECHS:
        return f"{label(tech)} is not an action of its own ({clause})"
    need = power_needed(tech)
    if craft.power < need:
        return f"{label(tech)} needs {need} Power; {craft.id} has {craft.power} ({clause})"
    if tech == "plasma_missile" and craft.expended.get(tech, 0) >= ctype.level(tech):
        return f"{craft.id} has fired all its Plasma Missiles ({clause})"
    if tech == "remote_laser" and any(
        m.owner == craft.id and m.kind == "remote_laser" for m in state.missiles.values()
    ):
        return f"{craft.id}'s Remote Laser is already out ({clause})"
    if tech == "stealth" and craft.cloaked:
        return f"{craft.id} is already cloaked ({clause})"
    if tech == "transformation" and not origin_design(state, craft).forms:
        return f"{craft.id}'s design has no other form to take ({clause})"
    if tech == "tractor_beam" and any(c.held_by == craft.id for c in state.craft.values()):
        return f"{craft.id}'s Tractor Beam already holds a craft ({clause})"
    if tech in ("boosters", "teleport") and craft.held_by:
        return f"{craft.id} is held in a Tractor Beam and cannot fly on its own ({clause})"
    if tech == "boosters" and ctype.move == 0:
        return f"{craft.id} has no engines to boost (Move 0) ({clause})"
    return ""


def describe(craft: CraftState | None, tech: str) -> str:
    """A technology selection in words."""
    if tech in DOOMSDAY and craft is not None and not firing(craft, tech):
        return f"charges its {label(tech)}"
    return f"uses its {label(tech)}"


# ---- stuns (EMP, Death Blossom) ------------------------------------------------------------


def drift(ctx: Ctx, craft: CraftState, clause: str, text: str) -> None:
    """A craft out of action drifts one hex ahead; it may leave the map or collide. A
    Street Fighter does not drift: it stays where it is (SFA-SF-6)."""
    state = ctx.state
    if state.is_person(craft):
        ctx.emit(clause, f"{text.split(':')[0]}; a person stays where it is", unit=craft.id)
        return
    ahead = craft.hex.neighbor(craft.facing)
    if not state.map.contains(ahead):
        state.disengaged[craft.id] = max(0, craft.structure)
        state.remove_craft(craft, destroyed=False)
        ctx.emit("SFA-MOV-6", f"{name(ctx, craft.id)} drifts off the map", unit=craft.id)
        return
    other = state.occupant(ahead, ignore=craft.id)
    craft.hex = ahead
    craft.hexes_moved = 1
    ctx.emit(clause, text, unit=craft.id)
    # A drifting wreck rams nobody on purpose: it collides only under option
    # `collide_on_entry` (SFA-COL-1).
    if other is not None and state.options.get("collide_on_entry", False):
        collide(ctx, craft, other)


def stun(ctx: Ctx, victim: CraftState, clause: str) -> None:
    """The victim loses its next action: this turn's if it has not acted yet (it then
    drifts 1 hex at once), otherwise next turn's (rules-notes C.6, Stun)."""
    state = ctx.state
    busy = {entry.split("|")[0] for entry in state.interrupted} | {state.acting}
    pending = [k for k in state.order if craft_of(k) == victim.id]
    if pending and not any(k in busy for k in pending):
        state.order = tuple(k for k in state.order if craft_of(k) != victim.id)
        drift(
            ctx,
            victim,
            clause,
            f"{victim.id} is stunned: it loses this turn's action and drifts one hex",
        )
        return
    victim.stunned = max(victim.stunned, 1)
    victim.stun_clause = clause
    ctx.emit(clause, f"{victim.id} is stunned: it loses its next turn's action", unit=victim.id)


# ---- the move step ---------------------------------------------------------------------


def start_move_equipment(ctx: Ctx, craft: CraftState, tech: str) -> None:
    """Technologies that take effect as the craft moves: Power is paid now."""
    state = ctx.state
    clause = CLAUSE[tech]
    if tech in DOOMSDAY:
        if not firing(craft, tech):
            craft.charging = tech
            ctx.emit(clause, f"{craft.id} holds still to charge its {label(tech)}", unit=craft.id)
        return
    if tech not in MOVE_TECHS:
        return
    if tech == "teleport" or (tech == "boosters" and craft.held_by):
        return  # a teleport pays per hex when it jumps; a held craft cannot boost
    if not pay(ctx, craft, tech, power_needed(tech)):
        return
    if tech == "force_field":
        craft.force_field = True
        text = "raises its Force Field until the end of the turn"
    elif tech == "plasma_field":
        craft.plasma_field = True
        text = "wraps itself in a Plasma Field until the end of the turn"
    elif tech == "plasma_trail":
        owner_type = craft.type
        state.trails.append(
            Trail(owner=craft.id, hexes=(), until=state.turn + 1, owner_type=owner_type)
        )
        text = "vents a Plasma Trail"
    elif tech == "hyper_ram":
        craft.ramming = True
        text = "charges its Hyper-Ram plates"
    else:  # boosters
        text = f"fires its Boosters: {BOOST_HEXES} more hexes straight ahead"
    ctx.emit(clause, f"{craft.id} {text} ({craft.power} Power left)", unit=craft.id)


def booster_problem(steps: str, move: int) -> str:
    """Boosters add 5 hexes in a straight line: no maneuver after the first `move`
    hexes (SFA-TEC-04)."""
    entered = 0
    for step in steps:
        if step in "FlrB":
            entered += 1
        elif entered > move:
            return f"the Booster hexes beyond Move {move} must be flown straight (SFA-TEC-04)"
        if step in "lrB" and entered > move:  # a roll or a loop's hex back is no straight
            return f"the Booster hexes beyond Move {move} must be flown straight (SFA-TEC-04)"
    return ""


def teleport_problem(state: SfaState, craft: CraftState, dest: Hex) -> str:
    """Why the craft cannot teleport to `dest` ('' if it can) (SFA-TEC-27)."""
    distance = craft.hex.distance(dest)
    if not state.map.contains(dest):
        return "a Teleport must land on the map (SFA-TEC-27)"
    if distance < 1:
        return "a Teleport moves at least 1 hex (SFA-TEC-27)"
    if distance > craft.power:
        return (
            f"a Teleport of {distance} hexes needs {distance} Power; {craft.id} has "
            f"{craft.power} (SFA-TEC-27)"
        )
    if state.map.terrain_at(dest).kind != "open":
        return "a Teleport cannot land inside an obstacle (SFA-TEC-27)"
    other = state.occupant(dest, ignore=craft.id)
    if other is not None and sees(state, craft, other):
        return "a Teleport cannot land on another craft (SFA-TEC-27)"
    return ""


def teleport(ctx: Ctx, craft: CraftState, dest: Hex) -> None:
    """Jump to `dest` instead of flying, for 1 Power a hex (SFA-TEC-27)."""
    state = ctx.state
    distance = craft.hex.distance(dest)
    if not pay(ctx, craft, "teleport", distance):
        return
    hidden = state.occupant(dest, ignore=craft.id)
    if hidden is not None:
        ctx.emit(
            "SFA-TEC-27",
            f"{craft.id}'s Teleport finds the target hex occupied and fails "
            f"({craft.power} Power left)",
            unit=craft.id,
        )
        return
    craft.hex = dest
    where = "" if craft.cloaked else f" to {dest.q},{dest.r}"
    ctx.emit(
        "SFA-TEC-27",
        f"{craft.id} teleports {distance} hexes{where} ({craft.power} Power left)",
        unit=craft.id,
    )


def teleport_choices(state: SfaState, craft: CraftState) -> list[Hex]:
    """Every hex a Teleport may land on: on the map, within as many hexes as the craft
    has Power, clear of obstacles and seen craft (SFA-TEC-27)."""
    return [
        d
        for d in craft.hex.spiral(max(0, craft.power))[1:]
        if not teleport_problem(state, craft, d)
    ]


def drag_choices(state: SfaState, craft: CraftState) -> list[Hex | None]:
    """Where a Tractor Beam holder may drag the held craft: up to 2 hexes any way."""
    out: list[Hex | None] = [None]
    for dest in craft.hex.spiral(TRACTOR_DRAG)[1:]:
        if state.map.contains(dest) and state.occupant(dest, ignore=craft.id) is None:
            out.append(dest)
    return out


def drag(ctx: Ctx, craft: CraftState, dest: Hex | None) -> None:
    """The holder moves the held craft up to 2 hexes in any direction (SFA-TEC-29)."""
    if dest is None:
        ctx.emit("SFA-TEC-29", f"{craft.held_by} holds {craft.id} where it is", unit=craft.id)
        return
    distance = craft.hex.distance(dest)
    craft.hex = dest
    craft.hexes_moved = distance
    ctx.emit(
        "SFA-TEC-29",
        f"{craft.held_by} drags {craft.id} {distance} hexes in its Tractor Beam",
        unit=craft.id,
    )


def on_enter(ctx: Ctx, craft: CraftState, where: Hex) -> bool:
    """A craft has just entered a hex: Plasma Fields and Trails bite (SFA-TEC-20,
    SFA-TEC-22), and its own trail grows. False if it is out of action after."""
    state = ctx.state
    for i, trail in enumerate(state.trails):
        if trail.owner == craft.id and trail.until == state.turn + 1:
            state.trails[i] = msgspec.structs.replace(trail, hexes=(*trail.hexes, where))
    for other in sorted(state.craft.values(), key=lambda c: c.id):
        near = other.hex.distance(where) <= PLASMA_FIELD_RANGE
        if other.id != craft.id and other.plasma_field and near:
            expose(ctx, "field", other.id, other.type, craft)
    for trail in list(state.trails):
        if trail.owner != craft.id and where in trail.hexes and trail.until >= state.turn:
            expose(ctx, "trail", trail.owner, trail.owner_type, craft)
    if craft.id in state.craft and craft.plasma_field:
        for other in sorted(state.craft.values(), key=lambda c: c.id):
            if other.id != craft.id and other.hex.distance(where) <= PLASMA_FIELD_RANGE:
                expose(ctx, "field", craft.id, craft.type, other)
    return craft.id in state.craft and not state.craft[craft.id].disabled


def expose(ctx: Ctx, kind: str, source: str, source_type: str, victim: CraftState) -> None:
    """One 8-dice Plasma attack, at most once a turn for each source and victim."""
    state = ctx.state
    key = f"{kind}:{source}|{victim.id}"
    if key in state.area_hits or victim.id not in state.craft:
        return
    state.area_hits.append(key)
    tech = "plasma_field" if kind == "field" else "plasma_trail"
    area_attack(
        ctx,
        victim,
        PLASMA_DICE,
        state.types.get(source_type),
        CLAUSE[tech],
        f"{source}'s {label(tech)}",
        by=source,
    )


# ---- the resolve step --------------------------------------------------------------------


def enemy_targets(state: SfaState, craft: CraftState, reach: int | None = None) -> list[str]:
    """Enemy craft the craft can see (within `reach` hexes) and the other side's decoys,
    in id order: decoys are listed like craft, as the player sees them."""
    out = [
        c.id
        for c in state.craft.values()
        if c.side != craft.side
        and sees(state, craft, c)
        and (reach is None or craft.hex.distance(c.hex) <= reach)
    ]
    out += [
        d.id
        for d in shown_decoys(state, craft.side)
        if reach is None or craft.hex.distance(d.hex) <= reach
    ]
    return sorted(out, key=lambda t: shown_name(state, craft.side, t))


def shown_decoys(state: SfaState, side: str) -> list[Decoy]:
    """The decoys of the other side that are switched on: what `side` sees as craft
    (SFA-TEC-16)."""
    return [d for d in state.decoys.values() if d.on and state.owner.get(d.owner) != side]


def tractor_targets(state: SfaState, craft: CraftState) -> list[str]:
    """What a Tractor Beam may take hold of: enemies and decoys within 2 hexes, and
    friendly craft within 2 hexes to tow (SFA-TEC-29: it may "attract, repel, or tow
    another spacecraft"), in id order."""
    out = enemy_targets(state, craft, TRACTOR_RANGE)
    out += [
        c.id
        for c in state.craft.values()
        if c.side == craft.side
        and c.id != craft.id
        and not state.is_person(c)
        and craft.hex.distance(c.hex) <= TRACTOR_RANGE
    ]
    return sorted(out, key=lambda t: shown_name(state, craft.side, t))


def holo_choices(state: SfaState, craft: CraftState) -> list[Hex]:
    """Every hex a decoy may be projected to: 1 to 5 hexes away, on the map, not on a
    craft the projector sees (SFA-TEC-16)."""
    return [h for h in craft.hex.spiral(HOLO_RANGE)[1:] if not holo_problem(state, craft, h)]


def holo_problem(state: SfaState, craft: CraftState, at: Hex) -> str:
    """Why a decoy cannot be projected at `at` ('' if it can) (SFA-TEC-16)."""
    if not state.map.contains(at):
        return "the decoy must be on the map (SFA-TEC-16)"
    if not 1 <= craft.hex.distance(at) <= HOLO_RANGE:
        return f"the decoy must be 1 to {HOLO_RANGE} hexes away (SFA-TEC-16)"
    other = state.occupant(at)
    if other is not None and sees(state, craft, other):
        return "another craft is in that hex (SFA-TEC-16)"
    return ""


def resolve_options(state: SfaState, craft: CraftState, tech: str) -> list[dict[str, object]]:
    """The ways to resolve a selected technology now, as Resolve fields (besides not
    resolving it at all)."""
    ctype = state.type_of(craft)
    if tech in UNTARGETED:
        return [{"use": True}]
    if tech == "holo_projector":
        return [{"at": h} for h in holo_choices(state, craft)]
    if tech == "transformation":
        return [{"form": f} for f in form_names(state, craft)]
    if tech == "duplicator":
        return [
            {"target": t}
            for t in enemy_targets(state, craft)
            if t in state.decoys or state.type_of(state.craft[t]).scale == ctype.scale
        ]
    if tech == "tractor_beam":
        out: list[dict[str, object]] = []
        for t in tractor_targets(state, craft):
            out.append({"target": t})
            if craft.power >= 1:
                out.append({"target": t, "power": 1})
        return out
    if tech in ("plasma_missile", "remote_laser"):
        return [{"target": t} for t in enemy_targets(state, craft)]
    return []


def resolve_problem(
    state: SfaState,
    craft: CraftState,
    tech: str,
    *,
    target: str,
    at: Hex | None,
    form: str,
    use: bool,
    power: int,
) -> str:
    """Why this Resolve of a technology is illegal ('' if it is legal)."""
    clause = CLAUSE[tech]
    if tech in UNTARGETED:
        if target or at is not None or form or power:
            return f"{label(tech)} takes no target, hex, form or Power choice ({clause})"
        return ""
    if use:
        return f"{label(tech)} needs a target, hex or form, not 'use' ({clause})"
    if tech == "holo_projector":
        if target or form or power or at is None:
            return f"a Holo-Projector needs a hex for its decoy ({clause})"
        return holo_problem(state, craft, at)
    if tech == "transformation":
        if target or power or at is not None or form not in form_names(state, craft):
            known = ", ".join(form_names(state, craft))
            return f"{craft.id} may switch to one of: {known} ({clause})"
        return ""
    if at is not None or form:
        return f"{label(tech)} takes a target only ({clause})"
    if tech == "tractor_beam":
        if not 0 <= power <= craft.power:
            return f"put 0 to {craft.power} Power into the beam ({clause})"
        if target not in tractor_targets(state, craft):
            return f"{target!r} is not a craft within {TRACTOR_RANGE} hexes to hold ({clause})"
        return ""
    if power:
        return f"{label(tech)} takes no Power choice ({clause})"
    if target not in enemy_targets(state, craft):
        return f"{target!r} is not an enemy {craft.id}'s {label(tech)} can reach ({clause})"
    if (
        tech == "duplicator"
        and target in state.craft
        and state.type_of(state.craft[target]).scale != state.type_of(craft).scale
    ):
        return f"the Duplicator copies only a craft of its own scale ({clause})"
    return ""


def use_equipment(
    ctx: Ctx,
    craft: CraftState,
    tech: str,
    *,
    target: str,
    at: Hex | None,
    form: str,
    power: int,
) -> None:
    """Resolve a technology action (the checks are done)."""
    state = ctx.state
    clause = CLAUSE[tech]
    if tech in DOOMSDAY:
        fire_doomsday(ctx, craft, tech)
    elif tech == "emp":
        if pay(ctx, craft, tech, power_needed(tech)):
            ctx.emit(
                clause,
                f"{craft.id} sets off its EMP: every enemy within {EMP_RANGE} hexes is "
                f"stunned ({craft.power} Power left)",
                unit=craft.id,
            )
            for other in sorted(state.craft.values(), key=lambda c: c.id):
                if (
                    other.side != craft.side
                    and not other.disabled
                    and craft.hex.distance(other.hex) <= EMP_RANGE
                ):
                    stun(ctx, other, clause)
    elif tech == "stealth":
        if pay(ctx, craft, tech, power_needed(tech)):
            craft.cloaked = True
            for held in state.craft.values():
                if held.held_by == craft.id:
                    held.held_by = ""
            ctx.emit(
                clause,
                f"{craft.id} cloaks and vanishes from enemy sensors ({craft.power} Power left)",
                unit=craft.id,
            )
    elif tech == "holo_projector" and at is not None:
        project(ctx, craft, at)
    elif tech == "transformation":
        transform(ctx, craft, form)
    elif target in state.decoys:
        if pay(ctx, craft, tech, power_needed(tech)):
            if tech in ("plasma_missile", "remote_laser"):
                launch(ctx, craft, tech, target)
            else:
                vanish(ctx, target, f"{craft.id}'s {label(tech)} finds only a hologram")
    elif tech == "duplicator":
        duplicate(ctx, craft, target)
    elif tech == "tractor_beam":
        tractor(ctx, craft, target, power)
    elif tech in ("plasma_missile", "remote_laser"):
        launch(ctx, craft, tech, target)


def doom_zone(state: SfaState, tech: str, where: Hex, facing: int) -> set[Hex]:
    """The hexes a doomsday device fired from a pose hits, its own hex left out: every
    hex within 5 (Death Blossom), or the straight line ahead to the map edge or the
    first asteroid hex (Pi-Tac Cannon) (SFA-TEC-06, SFA-TEC-19)."""
    if tech == "death_blossom":
        zone = set(where.spiral(BLOSSOM_RADIUS))
    else:
        zone = set()
        for h in straight_line(where, facing, state.map.width + state.map.height):
            if not state.map.contains(h) or state.map.terrain_at(h).kind == "asteroid":
                break
            zone.add(h)
    zone.discard(where)
    return zone


def fire_doomsday(ctx: Ctx, craft: CraftState, tech: str) -> None:
    """Death Blossom (everything within 5 hexes; then 2 turns lost) or Pi-Tac Cannon
    (the straight line ahead): 10 automatic damage plus 10 dice (SFA-TEC-06/19)."""
    state = ctx.state
    clause = CLAUSE[tech]
    if not pay(ctx, craft, tech, power_needed(tech)):
        return
    craft.charged = ""
    source = state.type_of(craft)
    zone = doom_zone(state, tech, craft.hex, craft.facing)
    if tech == "death_blossom":
        what = f"a Death Blossom: everything within {BLOSSOM_RADIUS} hexes"
    else:
        what = "its Pi-Tac Cannon along the line ahead"
    ctx.emit(clause, f"{craft.id} unleashes {what} ({craft.power} Power left)", unit=craft.id)
    for decoy in sorted(state.decoys.values(), key=lambda d: d.id):
        if decoy.on and decoy.hex in zone:
            vanish(ctx, decoy.id, f"the {label(tech)} sweeps away a hologram")
    for victim in sorted(state.craft.values(), key=lambda c: c.id):
        if victim.id != craft.id and victim.hex in zone and victim.id in state.craft:
            area_attack(
                ctx,
                victim,
                DOOM_DICE,
                source,
                clause,
                f"{craft.id}'s {label(tech)}",
                automatic=DOOM_AUTOMATIC,
                by=craft.id,
            )
    if tech == "death_blossom" and craft.id in state.craft:
        craft.stunned = BLOSSOM_TURNS_LOST
        craft.stun_clause = clause
        ctx.emit(
            clause,
            f"{craft.id} is spent: it loses its next {BLOSSOM_TURNS_LOST} turns",
            unit=craft.id,
        )


def launch(ctx: Ctx, craft: CraftState, tech: str, target: str) -> None:
    """A Plasma Missile or a Remote Laser leaves as its own counter (SFA-TEC-21/24)."""
    state = ctx.state
    mid = new_missile_id(state)
    if tech == "plasma_missile":
        craft.expended[tech] = craft.expended.get(tech, 0) + 1
        pool, kind = PLASMA_DICE, "plasma"
    else:
        pool, kind = craft.pilot.dexterity + craft.pilot.piloting + REMOTE_LASER_ATTACK, tech
    state.missiles[mid] = Missile(
        id=mid,
        side=craft.side,
        target=target,
        hex=craft.hex,
        pool=pool,
        kind=kind,
        owner=craft.id,
        owner_type=craft.type,
        scale=state.type_of(craft).scale,
    )
    ctx.emit(
        CLAUSE[tech],
        f"{craft.id} launches a {label(tech)} {mid} at {name(ctx, target)}",
        unit=craft.id,
        missile=mid,
        target=target,
    )


def detonate(ctx: Ctx, missile: Missile) -> None:
    """A Plasma Missile goes off: 8 dice on every craft within 3 hexes (SFA-TEC-21)."""
    state = ctx.state
    state.missiles.pop(missile.id, None)
    clause = CLAUSE["plasma_missile"]
    ctx.emit(clause, f"{missile.id} detonates: plasma within {PLASMA_BLAST} hexes", unit=missile.id)
    for decoy in sorted(state.decoys.values(), key=lambda d: d.id):
        if decoy.on and decoy.hex.distance(missile.hex) <= PLASMA_BLAST:
            vanish(ctx, decoy.id, "the plasma blast sweeps away a hologram")
    source = state.types.get(missile.owner_type)
    for victim in sorted(state.craft.values(), key=lambda c: c.id):
        if victim.hex.distance(missile.hex) <= PLASMA_BLAST and victim.id in state.craft:
            area_attack(
                ctx, victim, PLASMA_DICE, source, clause, f"{missile.id}'s plasma", by=missile.owner
            )


def remote_laser_turn(ctx: Ctx, missile: Missile, target: CraftState | Decoy) -> None:
    """A Remote Laser flies up to 5 hexes until its target is on a straight line
    within 10 hexes, then fires a 6-damage laser at it (SFA-TEC-24). Its range of 20
    lasts 4 turns (5 hexes a turn, flown or not: PROPOSAL)."""
    state = ctx.state
    clause = CLAUSE["remote_laser"]

    def in_line(origin: Hex) -> bool:
        d = origin.distance(target.hex)
        return 1 <= d <= REMOTE_LASER_RANGE and any(
            in_forward_line(origin, f, target.hex) for f in range(6)
        )

    flown = 0
    for where in hex_linedraw(missile.hex, target.hex)[1:]:
        if in_line(missile.hex) or flown >= 5 or where == target.hex:
            break
        missile.hex = where
        flown += 1
    missile.moved += 5
    ctx.emit(clause, f"{missile.id} (Remote Laser) flies {flown} hexes", missile=missile.id)
    if not in_line(missile.hex):
        return
    if isinstance(target, Decoy):
        vanish(ctx, target.id, f"{missile.id}'s shot passes through a hologram")
        state.missiles.pop(missile.id, None)
        return
    source = state.types.get(missile.owner_type)
    size, soak, damage = guided_roll(ctx, missile, target)
    ctx.emit(
        clause,
        f"{missile.id} (Remote Laser) fires at {name(ctx, target.id)}: {size} dice "
        f"against Soak {soak}: {damage} damage",
        missile=missile.id,
        target=target.id,
        damage=damage,
    )
    damage_craft(ctx, target, damage, clause, "Remote Laser", source=source, by=missile.owner)


def project(ctx: Ctx, craft: CraftState, at: Hex) -> None:
    """Put a decoy of the craft at a hex up to 5 away, switched on; an earlier one goes
    (SFA-TEC-16).

    Only the owner is told which craft projected it. The other side is told that its
    view changed: the projector (if it sees it) and the decoy are shown under fresh
    aliases, handed out in order of place, so neither keeps a name with a history."""
    state = ctx.state
    for old in [d.id for d in state.decoys.values() if d.owner == craft.id]:
        del state.decoys[old]
    prefix = craft.id.rstrip("0123456789") or craft.id
    if prefix == "M":
        prefix = "C"  # 'M' and a number is how missiles are named
    taken = set(state.owner) | set(state.start_structure) | set(state.decoys) | set(state.missiles)
    serial = 1
    while f"{prefix}{serial}" in taken:
        serial += 1
    did = f"{prefix}{serial}"
    before = shown_pair(state, craft)
    state.decoys[did] = Decoy(id=did, owner=craft.id, hex=at, facing=craft.facing)
    ctx.emit(
        CLAUSE["holo_projector"],
        f"{craft.id} projects a holographic decoy, {did}",
        unit=craft.id,
        **{PRIVATE_TO: craft.side},
    )
    renamed(ctx, craft, before)


def shown_pair(state: SfaState, craft: CraftState) -> list[str]:
    """The pieces of the craft and its decoy that the other side is shown now, by the
    names it is shown them under, in name order."""
    seen = state.other(craft.side)
    ids = [craft.id] if side_sees(state, seen, craft) else []
    ids += [d.id for d in state.decoys.values() if d.owner == craft.id and d.on]
    return sorted(shown_name(state, seen, i) for i in ids)


def renamed(ctx: Ctx, craft: CraftState, before: list[str]) -> None:
    """The projector and its decoy take fresh aliases, and the other side is told which
    names now stand for the pieces it was shown under `before` (SFA-TEC-16)."""
    state = ctx.state
    realias(state, [craft.id, *(d.id for d in state.decoys.values() if d.owner == craft.id)])
    after = shown_pair(state, craft)
    if before == after:
        return
    was = f" where {' and '.join(before)} {'was' if len(before) == 1 else 'were'}" if before else ""
    now = " and ".join(after) or "nothing"
    ctx.emit(
        CLAUSE["holo_projector"],
        f"{state.other(craft.side)} sensors: a Holo-Projector of {craft.side} is at work; "
        f"{now} {'is' if len(after) == 1 else 'are'} shown{was}",
        **{PRIVATE_TO: state.other(craft.side)},
    )


def switch_problem(state: SfaState, craft_id: str, on: bool) -> str:
    """Why the craft cannot switch its decoy to `on` now ('' if it can) (SFA-TEC-16)."""
    craft = state.craft.get(craft_id)
    if craft is None or craft.side != state.active:
        return f"{craft_id} is not a craft of {state.active} (SFA-TEC-16)"
    decoy = next((d for d in state.decoys.values() if d.owner == craft_id), None)
    if decoy is None:
        return f"{craft_id} has no decoy to switch (SFA-TEC-16)"
    if decoy.on == on:
        return f"{craft_id}'s decoy is already {'on' if on else 'off'} (SFA-TEC-16)"
    if decoy.id in state.switched:
        return f"{craft_id}'s decoy was switched at this decision already (SFA-TEC-16)"
    return ""


def switch_choices(state: SfaState) -> list[tuple[str, bool]]:
    """Every decoy switch the side deciding now may make: (projector, on) (SFA-TEC-16)."""
    return [
        (d.owner, not d.on)
        for d in sorted(state.decoys.values(), key=lambda d: d.owner)
        if not switch_problem(state, d.owner, not d.on)
    ]


def switch(ctx: Ctx, craft: CraftState, on: bool) -> None:
    """Switch the craft's decoy off or back on: no action, no Power (SFA-TEC-16)."""
    state = ctx.state
    decoy = next(d for d in state.decoys.values() if d.owner == craft.id)
    before = shown_pair(state, craft)
    decoy.on = on
    state.switched = (*state.switched, decoy.id)
    ctx.emit(
        CLAUSE["holo_projector"],
        f"{craft.id} switches its decoy {decoy.id} {'on' if on else 'off'}",
        unit=craft.id,
        **{PRIVATE_TO: craft.side},
    )
    renamed(ctx, craft, before)


def vanish(ctx: Ctx, decoy_id: str, why: str) -> None:
    """A decoy disappears (SFA-TEC-16). The event names the decoy only as it was shown
    (an owner's decoy switched off shows nothing, so the owner alone is told)."""
    decoy = ctx.state.decoys.pop(decoy_id, None)
    if decoy is not None:
        hidden = {} if decoy.on else {PRIVATE_TO: ctx.state.owner.get(decoy.owner, "")}
        ctx.emit(
            CLAUSE["holo_projector"], f"{why}: {decoy_id} was a decoy", unit=decoy_id, **hidden
        )


def follow_decoys(ctx: Ctx, craft: CraftState, steps: str) -> None:
    """A decoy flies the projector's steps from where it is, and vanishes off the map,
    in a Plasma Trail or more than 5 hexes from the projector (SFA-TEC-16). A decoy
    that is shown is logged flying as a craft is, next to its projector's flight in
    the order of the names the other side is shown."""
    state = ctx.state
    for decoy in sorted(state.decoys.values(), key=lambda d: d.id):
        if decoy.owner != craft.id:
            continue
        path = trace(decoy.hex, decoy.facing, steps, len(steps) + 1, min_hexes=0)
        gone = ""
        for h in path.hexes:
            if not state.map.contains(h):
                gone = "a decoy flies off the map"
            elif decoy.on and any(h in t.hexes and t.owner != craft.id for t in state.trails):
                gone = "a Plasma Trail burns away a hologram"
        if decoy.on:
            flown(ctx, craft, decoy, steps, path.maneuvers, path.soak, path.handling)
        if not gone:
            decoy.hex, decoy.facing = path.end, path.facing
            if decoy.hex.distance(craft.hex) > HOLO_RANGE:
                gone = f"a decoy strays more than {HOLO_RANGE} hexes from its projector"
        if gone:
            vanish(ctx, decoy.id, gone)


def flown(
    ctx: Ctx,
    craft: CraftState,
    decoy: Decoy,
    steps: str,
    maneuvers: tuple[str, ...],
    soak: int,
    hand: int,
) -> None:
    """Log a shown decoy's flight as its projector's would be logged (SFA-MOV-1), placed
    before or after the projector's own flight event by the names the other side is
    shown, so that the order of the log tells nothing (SFA-TEC-16)."""
    state = ctx.state
    extra = f" ({', '.join(maneuvers)}: Soak {soak:+d}, Handling {hand:+d})" if maneuvers else ""
    ctx.emit(
        "SFA-MOV-1",
        f"{decoy.id} ({state.type_of(craft).name}) flies {steps or 'nowhere'}{extra}",
        unit=decoy.id,
        steps=steps,
    )
    events = ctx.log.events
    mine = next(
        (
            i
            for i in range(len(events) - 2, -1, -1)
            if events[i].clause in ("SFA-MOV-1", "SFA-TEC-25")
            and events[i].data.get("unit") == craft.id
        ),
        None,
    )
    if mine is None:
        return
    seen = state.other(craft.side)
    first = _order(shown_name(state, seen, decoy.id)) < _order(shown_name(state, seen, craft.id))
    events.insert(mine if first else mine + 1, events.pop())


def _order(alias: str) -> tuple[str, int]:
    head = alias.rstrip("0123456789")
    tail = alias[len(head) :]
    return head, int(tail) if tail else 0


def with_twins(state: SfaState, keys: list[str]) -> list[str]:
    """Actor keys with, next to each of a projector, its shown decoy's twin key, the
    pair in the order of the names the other side is shown: what a public list of
    actors names, so that it lists craft and decoys alike (SFA-TEC-16)."""
    out: list[str] = []
    for key in keys:
        craft_id, _, station = key.rpartition("#")
        craft = state.craft.get(craft_id)
        twins = [f"{d.id}#{station}" for d in state.decoys.values() if d.owner == craft_id and d.on]
        if craft is None or not twins:
            out.append(key)
            continue
        seen = state.other(craft.side)
        out += sorted(
            [key, *twins], key=lambda k: _order(shown_name(state, seen, k[: k.rindex("#")]))
        )
    return out


def twin_of(state: SfaState, key: str) -> str:
    """The projector's actor key for a decoy's twin key (any other key as it is)."""
    craft_id, _, station = key.rpartition("#")
    decoy = state.decoys.get(craft_id)
    return f"{decoy.owner}#{station}" if decoy is not None else key


def check_decoys(ctx: Ctx) -> None:
    """Decoys whose projector is gone, out of action or too far vanish."""
    state = ctx.state
    for decoy in sorted(state.decoys.values(), key=lambda d: d.id):
        owner = state.craft.get(decoy.owner)
        if owner is None or owner.disabled or owner.stunned:
            vanish(ctx, decoy.id, "its Holo-Projector shuts down")
        elif owner.hex.distance(decoy.hex) > HOLO_RANGE:
            vanish(ctx, decoy.id, f"a decoy strays more than {HOLO_RANGE} hexes")


def tractor_pool(
    state: SfaState, craft: CraftState, target: CraftState, rules: SfaRules
) -> tuple[int, int]:
    """The Tractor Beam's grab: (dice, the target's Soak). It attacks like a weapon of
    Damage +10, its Strength: pilot Dexterity + Piloting + Handling + 10 less the
    target's Soak, at least 1 die (SFA-TEC-29, PROPOSAL)."""
    soak = soak_against(state, target, state.type_of(craft), rules=rules)
    pilot = craft.pilot
    skill = pilot.dexterity + pilot.piloting + handling(state, craft, rules)
    return rules.guided_pool(skill + TRACTOR_STRENGTH, soak), soak


def tractor_holds(state: SfaState, craft: CraftState, target: CraftState, net: int) -> bool:
    """Whether a grab with `net` successes after scale holds the target: 1 or more,
    unless a Force Field protects it from a beam without Disruptor (SFA-TEC-29)."""
    return net >= 1 and not (target.force_field and not state.type_of(craft).has("disruptor"))


def tractor(ctx: Ctx, craft: CraftState, target_id: str, power: int) -> None:
    """The beam attacks like a weapon of Damage +10 (its Strength); on 1 net success
    or more the target is held (SFA-TEC-29, PROPOSAL)."""
    state = ctx.state
    clause = CLAUSE["tractor_beam"]
    target = state.craft[target_id]
    ctype = state.type_of(craft)
    if target.side == craft.side:
        # A friend is towed, not fought: it lets the beam take it (PROPOSAL).
        target.held_by = craft.id
        target.hold_power = 0
        ctx.emit(
            clause,
            f"{craft.id}'s Tractor Beam takes {target.id} in tow",
            unit=craft.id,
            target=target.id,
        )
        return
    size, soak = tractor_pool(state, craft, target, ctx.rules)
    scale = state.type_of(target).scale
    result = roll(
        ctx,
        size,
        kind="tractor",
        by=craft.id,
        against=target.id,
        good=lambda r: ctx.rules.scale_adjust(r.net, ctype.scale, scale) >= 1,
    )
    net = ctx.rules.scale_adjust(result.net, ctype.scale, scale)
    if tractor_holds(state, craft, target, net):
        target.held_by = craft.id
        target.hold_power = power
        ctx.emit(
            clause,
            f"{craft.id}'s Tractor Beam ({size} dice against Soak {soak}) locks onto "
            f"{target.id}" + (f", {power} Power a turn in the beam" if power else ""),
            unit=craft.id,
            target=target.id,
        )
    else:
        ctx.emit(
            clause,
            f"{craft.id}'s Tractor Beam ({size} dice against Soak {soak}) fails to hold "
            f"{target.id}",
            unit=craft.id,
            target=target.id,
        )


def escape_dice(state: SfaState, held: CraftState) -> int:
    """The held craft's resisted Move roll: its Move in dice, at least 1, plus its
    pilot's Piloting under option `tractor_escape_piloting` (SFA-TEC-29)."""
    dice = state.type_of(held).move
    if state.options.get("tractor_escape_piloting"):
        dice += held.pilot.piloting
    return max(1, dice)


def tractor_contests(ctx: Ctx) -> None:
    """At each turn end a held enemy rolls Move dice against the beam's 10 dice plus the
    Power put in; the beam's successes then gain or lose 5 a scale step, as any roll
    across scales does; more successes break free (SFA-TEC-29). A friend in tow does
    not strain."""
    state = ctx.state
    clause = CLAUSE["tractor_beam"]
    for held in sorted(state.craft.values(), key=lambda c: c.id):
        if not held.held_by:
            continue
        holder = state.craft.get(held.held_by)
        if (
            holder is None
            or holder.disabled
            or holder.cloaked
            or held.disabled
            or holder.hex.distance(held.hex) > TRACTOR_RANGE
        ):
            ctx.emit(clause, f"the beam on {held.id} is broken", unit=held.id)
            held.held_by = ""
            continue
        if held.side == holder.side:
            continue  # a friend in tow does not strain against the beam
        paid = min(held.hold_power, holder.power)
        holder.power -= paid
        strength = TRACTOR_STRENGTH + paid
        beam, hold, dice, pull = strain(ctx, holder, held, strength)
        free = pull.net > hold
        ctx.emit(
            clause,
            f"{held.id} strains against {holder.id}'s Tractor Beam: Move roll {dice} dice, "
            f"{pull.net} against the beam's {hold} ({strength} dice, {beam.net} before scale)"
            + ("; it breaks free" if free else "; held"),
            unit=held.id,
        )
        if free:
            held.held_by = ""


def strain(
    ctx: Ctx, holder: CraftState, held: CraftState, strength: int
) -> tuple[PoolResult, int, int, PoolResult]:
    """One resisted roll of a tractor contest: the beam's dice, its successes after
    scale, the held craft's Move dice and its roll (SFA-TEC-29). Either roll may be
    re-rolled by a Temporal Displacement Device once it is seen (SFA-TEC-28)."""
    state = ctx.state
    scales = (unit_scale(state, state.type_of(holder)), unit_scale(state, state.type_of(held)))
    beam = roll(
        ctx,
        strength,
        kind="beam",
        by=holder.id,
        against=held.id,
        good=lambda r: ctx.rules.scale_adjust(r.net, *scales) >= 1,
    )
    hold = ctx.rules.scale_adjust(beam.net, *scales)
    dice = escape_dice(state, held)
    pull = roll(
        ctx, dice, kind="escape", by=held.id, against=holder.id, good=lambda r: r.net > hold
    )
    return beam, hold, dice, pull


def duplicate(ctx: Ctx, craft: CraftState, target_id: str) -> None:
    """Take on an enemy's attributes and technologies for the battle (SFA-TEC-08)."""
    state = ctx.state
    if not pay(ctx, craft, "duplicator", power_needed("duplicator")):
        return
    copy = copy_design(state, craft, state.type_of(state.craft[target_id]))
    state.types.setdefault(copy.id, copy)
    craft.type = copy.id
    veil(state, late=True)  # a copied Holo-Projector: its side's pieces get aliases now
    ctx.emit(
        CLAUSE["duplicator"],
        f"{craft.id} reconfigures itself as a copy of {name(ctx, target_id)} "
        f"({craft.power} Power left)",
        unit=craft.id,
    )


def copy_design(state: SfaState, craft: CraftState, model: Craft) -> Craft:
    """The design a Duplicator gives `craft` when it copies `model`: the model's
    Handling, armour, shields, Move and technologies, keeping its own Duplicator and
    weapons (SFA-TEC-08). The state's own design of that id if there is one already."""
    base = state.type_of(craft)
    new_id = f"{craft.origin_type or craft.type}~{model.id}"
    known = state.types.get(new_id)
    if known is not None:
        return known
    techs = list(model.technologies)
    if not model.has("duplicator"):
        own = base.technology("duplicator")
        if own is not None:
            techs.append(own)
    return derive(base, new_id, f"{base.name} as {model.name}", model, tuple(techs))


class Shape(Protocol):
    """What a copied design or a form gives a craft: Handling, armour, shields, Move."""

    @property
    def handling(self) -> int: ...
    @property
    def armor(self) -> int: ...
    @property
    def shields(self) -> int: ...
    @property
    def move(self) -> int: ...


def derive(
    base: Craft,
    new_id: str,
    new_name: str,
    shape: Shape,
    technologies: tuple[Technology, ...] | None = None,
) -> Craft:
    """`base` changed for the battle to `shape`'s Handling, armour, shields and Move
    (and `technologies`, if given); weapon numbers follow its Enhanced Lasers and
    Missiles."""
    techs = base.technologies if technologies is None else technologies
    ids = {t.id for t in techs}

    def reweapon(w: Weapon) -> Weapon:
        enhancer = "enhanced_lasers" if w.laser else "enhanced_missiles" if w.guided else ""
        bonus = ENHANCEMENT if enhancer in ids else 0
        return msgspec.structs.replace(
            w,
            attack=w.attack - w.bonus + bonus,
            range=w.range - w.bonus + bonus,
            bonus=bonus,
        )

    return msgspec.structs.replace(
        base,
        id=new_id,
        name=new_name,
        handling=shape.handling,
        armor=shape.armor,
        shields=shape.shields,
        move=shape.move,
        technologies=techs,
        weapons=tuple(reweapon(w) for w in base.weapons),
    )


def origin_design(state: SfaState, craft: CraftState) -> Craft:
    """The design the craft started the battle with."""
    return state.types[craft.origin_type or craft.type]


def form_names(state: SfaState, craft: CraftState) -> list[str]:
    """Forms the craft may switch to now: its design's forms and 'base', less the
    current one (SFA-TEC-30)."""
    origin = origin_design(state, craft)
    if not state.type_of(craft).has("transformation"):
        return []
    names = ["base", *(f.name for f in origin.forms)]
    current = craft.type.partition("@")[2] if "@" in craft.type else "base"
    if craft.type != origin.id and "@" not in craft.type:
        current = ""
    return [n for n in names if n != current]


def form_design(state: SfaState, craft: CraftState, form: str) -> Craft:
    """The design `craft` has in a form ('base': its own design) (SFA-TEC-30). The
    state's own design of that id if there is one already."""
    origin = origin_design(state, craft)
    if form == "base":
        return origin
    new_id = f"{origin.id}@{form}"
    known = state.types.get(new_id)
    if known is not None:
        return known
    shape = next(f for f in origin.forms if f.name == form)
    return derive(origin, new_id, f"{origin.name} ({form})", shape)


def transform(ctx: Ctx, craft: CraftState, form: str) -> None:
    """Switch to another form of the same point value; takes the action (SFA-TEC-30)."""
    state = ctx.state
    design = form_design(state, craft, form)
    state.types.setdefault(design.id, design)
    craft.type = design.id
    ctype = state.type_of(craft)
    ctx.emit(
        CLAUSE["transformation"],
        f"{craft.id} transforms to its {form} form: Handling {ctype.handling}, Soak "
        f"{ctype.soak}, Move {ctype.move}",
        unit=craft.id,
    )


# ---- turn upkeep ---------------------------------------------------------------------------


def upkeep(ctx: Ctx) -> None:
    """At the start of a turn: Stealth costs 1 Power or drops; old trails cool."""
    state = ctx.state
    state.area_hits = []
    state.trails = [t for t in state.trails if t.until >= state.turn]
    for craft in sorted(state.craft.values(), key=lambda c: c.id):
        if craft.id in state.passive:
            continue  # a Starship's own turn lasts 5 Starfighter turns (SFA-SCL-2)
        craft.force_field = craft.plasma_field = craft.ramming = False
        if craft.cloaked:
            if craft.power >= 1 and not craft.disabled:
                craft.power -= 1
            else:
                craft.cloaked = False
                ctx.emit(
                    CLAUSE["stealth"], f"{craft.id} runs out of Power and decloaks", unit=craft.id
                )
    check_decoys(ctx)


def end_of_turn(ctx: Ctx) -> None:
    """At the end of a turn: tractor contests; a device charged without moving is ready."""
    state = ctx.state
    tractor_contests(ctx)
    for craft in state.craft.values():
        if craft.id in state.passive:
            continue  # its charge holds until its own next turn (SFA-SCL-2)
        ready = craft.charging if craft.charging and craft.hexes_moved == 0 else ""
        craft.charged, craft.charging = ready, ""
