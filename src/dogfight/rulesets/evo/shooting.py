"""EVO shooting: arcs, fire zones, damage dice, allocation, Kill, Target and Save.

The procedure follows Battlefield Evolution (notes B.6): nominate a model, place the
fire zone around it, roll the dice of every weapon in range and arc, discard the 1s,
give the highest die to the nearest model and so on, then resolve each die against
its model. The seed adds stealth, 'on my six' and a 6" zone.
"""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.geometry import Arc
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.ready import torpedoes_left
from dogfight.rulesets.evo.state import EvoState, Flight, Model
from dogfight.rulesets.evo.units import Weapon

ARC_RANGES: dict[str, Arc] = {
    "FaF": Arc(-45, 45),
    "EaF": Arc(-135, 135),
    "FaA": Arc(135, 225),
}
"""Bearings (relative to facing, + to port) each arc covers (EVO-ARC-1)."""
AFT = Arc(135, 225)
"""A model's aft quadrant: where 'on my six' firers must be (EVO-SIX-1)."""
FACING_ARCS = (
    ("front", Arc(-45, 45)),
    ("port", Arc(45, 135)),
    ("aft", Arc(135, 225)),
    ("starboard", Arc(-135, -45)),
)


def in_arc(firer: Model, target: Model, arc: str | None) -> bool:
    """True if the target's centre is in the weapon's arc (no arc: all round)."""
    if arc is None:
        return True
    return ARC_RANGES[arc].contains(firer.pose.bearing_to(target.pose.position))


def distance(a: Model, b: Model) -> float:
    """Centre-to-centre distance (EVO-GEN-1)."""
    return a.pose.position.distance(b.pose.position)


def can_fire(
    state: EvoState,
    flight: Flight,
    model: Model,
    weapon: Weapon,
    target: Model,
    *,
    ignore_arcs: bool,
    reaction: bool,
) -> bool:
    """Whether one weapon of one model may fire at a target model (EVO-SHT-1)."""
    # EVO-RDY-1: a Lock-on weapon fires only after a Ready at the target's flight.
    locked = not reaction and flight.ready_target == target.unit
    if weapon.trait("Lock-on") is not None and not locked:
        return False
    # EVO-TOR-1: Torpedo weapons fire only in a launch, and a launch fires only them.
    torpedo = weapon.trait("Torpedo") is not None
    if torpedo != (flight.launching and not reaction):
        return False
    if torpedo and not torpedoes_left(flight, weapon):
        return False
    if distance(model, target) > weapon.range + 1e-3:
        return False
    return ignore_arcs or in_arc(model, target, weapon.arc)


def firing_dice(
    ctx: Ctx, flight: Flight, target: Model, *, reaction: bool
) -> tuple[list[Model], list[tuple[Weapon, Model]]]:
    """The firing models and every (weapon, firer) that adds its dice."""
    state = ctx.state
    # EVO-ROT-1 frees a Shoot from arcs, not a torpedo launch (EVO-TOR-1).
    ignore_arcs = (
        not reaction
        and not flight.launching
        and flight.actions[:1] == ("rotate",)
        and "rotate" not in flight.actions[1:]
    )
    shooters = flight.models if reaction else flight.acting
    firers: list[Model] = []
    guns: list[tuple[Weapon, Model]] = []
    for mid in shooters:
        model = state.models.get(mid)
        if model is None:
            continue
        used = False
        for weapon in state.unit_type(flight).weapons:
            if can_fire(
                state, flight, model, weapon, target, ignore_arcs=ignore_arcs, reaction=reaction
            ):
                guns.append((weapon, model))
                used = True
        if used:
            firers.append(model)
    return firers, guns


def zone_models(ctx: Ctx, flight: Flight, target: Model) -> list[Model]:
    """Every model, friend or foe, in the fire zone around the target (EVO-SHT-2).

    The firing flight's own models are never in its zone.
    """
    size = float(ctx.opt("fire_zone"))
    reach = size if ctx.opt("fire_zone_measure") == "radius" else size / 2
    centre = target.pose.position
    return [
        m
        for m in ctx.state.models.values()
        if m.unit != flight.id and m.pose.position.distance(centre) <= reach + 1e-3
    ]


def nearest_firer(model: Model, firers: list[Model]) -> float:
    """Distance from a model to the nearest firing model."""
    return min(distance(model, f) for f in firers)


def on_my_six(ctx: Ctx, model: Model, firers: list[Model]) -> bool:
    """All firers in the model's aft arc and within close range (EVO-SIX-1)."""
    close = float(ctx.opt("close_range"))
    return all(
        distance(model, f) <= close + 1e-3 and AFT.contains(model.pose.bearing_to(f.pose.position))
        for f in firers
    )


def target_score(ctx: Ctx, model: Model, firers: list[Model]) -> int:
    """The model's Target: its stealth value if no firer is within close range (EVO-STL-1)."""
    utype = ctx.state.type_of(model)
    if (
        utype.stealth_target is not None
        and nearest_firer(model, firers) > float(ctx.opt("close_range")) + 1e-3
    ):
        return utype.stealth_target
    return utype.target


def save_score(ctx: Ctx, model: Model, firers: list[Model], ap: int) -> tuple[int, str]:
    """The Save the model needs, by the facing most firers are on (EVO-ARM-1), worsened by
    AP (EVO-DMG-2); and that facing."""
    utype = ctx.state.type_of(model)
    counts = {name: 0 for name, _ in FACING_ARCS}
    for firer in firers:
        bearing = model.pose.bearing_to(firer.pose.position)
        for name, arc in FACING_ARCS:
            if arc.contains(bearing):
                counts[name] += 1
                break
    facing = max(counts, key=lambda k: (counts[k], k == "front"))
    return utype.armour.get(facing, utype.save) + ap, facing


@dataclass(frozen=True, slots=True)
class Allocation:
    """The dice given to one model: (face, AP of the weapon that rolled it)."""

    model: Model
    dice: list[tuple[int, int]]


def allocate(
    ctx: Ctx,
    flight: Flight,
    target: Model,
    firers: list[Model],
    guns: list[tuple[Weapon, Model]],
) -> list[Allocation]:
    """Roll the dice and give them out (EVO-SHT-3, -SHT-4, -SHT-5)."""
    state = ctx.state
    zone = sorted(zone_models(ctx, flight, target), key=lambda m: (nearest_firer(m, firers), m.id))
    # One entry per die: (sides, AP). d10s first, then d6s: a fixed order keeps replays exact.
    pool = sorted(
        ((w.die, w.trait("AP") or 0) for w, _ in guns for _ in range(w.dice)), reverse=True
    )
    given: dict[str, list[tuple[int, int]]] = {m.id: [] for m in zone}
    if len({m.unit for m in zone}) > 1:
        # EVO-SHT-5: in a mixed zone every model gets one die first, nearest first; the
        # rest go against the target's flight only.
        for model in zone:
            if not pool:
                break
            sides, ap = pool.pop(0)
            first = ctx.roll(sides)
            if first != 1:
                given[model.id].append((first, ap))
        zone = [m for m in zone if m.unit == target.unit]
    rolled = sorted(((ctx.roll(sides), ap) for sides, ap in pool), reverse=True)
    kept = [d for d in rolled if d[0] != 1]  # EVO-SHT-3: natural 1s are discarded
    if zone:
        # EVO-SHT-4: highest die to the nearest model and on round the zone; once each
        # has one, the rest go round again (spread) or all on the target (target).
        for i, die in enumerate(kept):
            if i < len(zone) or ctx.opt("free_allocation") == "spread":
                given[zone[i % len(zone)].id].append(die)
            else:
                given[target.id if target.id in given else zone[0].id].append(die)
    return [Allocation(state.models[mid], dice) for mid, dice in given.items() if dice]


def resolve_die(ctx: Ctx, model: Model, face: int, ap: int, firers: list[Model], six: bool) -> str:
    """One die against one model: 'kill', 'saved', 'failed' (removed) or 'miss'.

    'on my six' adds 1 after allocation (EVO-SIX-1); a die at or over Kill removes
    the model with no save (EVO-DMG-1) unless it dodges (EVO-DMG-3); at or over
    Target it must pass its Save, where a 1 always fails (EVO-DMG-2).
    """
    utype = ctx.state.type_of(model)
    value = face + (1 if six else 0)
    needed = target_score(ctx, model, firers)
    if value >= utype.kill:
        dodge = utype.trait("Dodge")
        may_dodge = ctx.opt("dodge_saves") and dodge is not None
        if may_dodge and six and ctx.opt("no_dodge_on_six"):
            may_dodge = False
        if not may_dodge:
            return "kill"
        roll = ctx.roll()
        if roll < (dodge or 7):
            ctx.emit("EVO-DMG-3", f"{ctx.name(model)} fails its dodge ({dodge}+)", model=model.id)
            return "kill"
        ctx.emit(
            "EVO-DMG-3",
            f"{ctx.name(model)} dodges the kill ({dodge}+): a hit instead",
            model=model.id,
        )
    elif value < needed:
        return "miss"
    need, _ = save_score(ctx, model, firers, ap)
    roll = ctx.roll()
    saved = roll != 1 and roll >= need
    return "saved" if saved else "failed"
