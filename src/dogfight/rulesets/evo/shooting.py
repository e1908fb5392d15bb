"""EVO shooting: arcs, fire zones, damage dice, allocation, Kill, Target and Save.

The procedure follows Battlefield Evolution (notes B.6): nominate a model, place the
fire zone around it, roll the dice of every weapon in range and arc, discard the 1s,
give the highest die to the nearest model and so on, then resolve each die against
its model. The seed adds stealth, 'on my six' and a 6" zone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from dogfight.rulesets.evo.context import DEFAULT_RULES, Ctx
from dogfight.rulesets.evo.ready import torpedoes_left
from dogfight.rulesets.evo.rules import AFT, ARC_RANGES, FACING_ARCS, EvoRules
from dogfight.rulesets.evo.spatial import grid_of
from dogfight.rulesets.evo.state import Flight, Model
from dogfight.rulesets.evo.units import Weapon

__all__ = ["AFT", "ARC_RANGES", "FACING_ARCS"]  # re-exported: the arcs live in rules.py


def in_arc(firer: Model, target: Model, arc: str | None, rules: EvoRules = DEFAULT_RULES) -> bool:
    """True if the target's centre is in the weapon's arc (no arc: all round)."""
    return rules.in_arc(firer.pose.bearing_to(target.pose.position), arc)


def distance(a: Model, b: Model) -> float:
    """Centre-to-centre distance (EVO-GEN-1)."""
    return a.pose.position.distance(b.pose.position)


def can_fire(
    ctx: Ctx,
    flight: Flight,
    model: Model,
    weapon: Weapon,
    target: Model,
    *,
    ignore_arcs: bool,
    reaction: bool,
) -> bool:
    """Whether one weapon of one model may fire at a target model (EVO-SHT-1)."""
    rules = ctx.rules
    torpedo = weapon.trait("Torpedo") is not None
    if not rules.weapon_may_fire(
        lock_on=weapon.trait("Lock-on") is not None,
        torpedo=torpedo,
        locked=flight.ready_target == target.unit,
        launching=flight.launching,
        reaction=reaction,
    ):
        return False
    if torpedo and not torpedoes_left(flight, weapon):
        return False
    at, to = model.pose.position, target.pose.position
    if not rules.in_range(math.hypot(at.x - to.x, at.y - to.y), weapon.range):  # distance()
        return False
    return ignore_arcs or in_arc(model, target, weapon.arc, rules)


def firing_dice(
    ctx: Ctx, flight: Flight, target: Model, *, reaction: bool
) -> tuple[list[Model], list[tuple[Weapon, Model]]]:
    """The firing models and every (weapon, firer) that adds its dice."""
    firers: list[Model] = []
    guns: list[tuple[Weapon, Model]] = []
    for weapon, model in _guns(ctx, flight, target, reaction):
        guns.append((weapon, model))
        if not firers or firers[-1] is not model:
            firers.append(model)
    return firers, guns


def may_fire_at(ctx: Ctx, flight: Flight, target: Model, *, reaction: bool) -> bool:
    """Whether `firing_dice` would find a gun: the same questions, stopped at the first
    (the listing asks it of every enemy model in reach)."""
    return next(_guns(ctx, flight, target, reaction), None) is not None


def _guns(
    ctx: Ctx, flight: Flight, target: Model, reaction: bool
) -> Iterator[tuple[Weapon, Model]]:
    """Every (weapon, firer) that adds its dice against `target`, firers in order."""
    state = ctx.state
    # EVO-ROT-1 frees a Shoot from arcs, not a torpedo launch (EVO-TOR-1).
    ignore_arcs = (
        not reaction
        and not flight.launching
        and flight.actions[:1] == ("rotate",)
        and "rotate" not in flight.actions[1:]
    )
    shooters = flight.models if reaction else flight.acting
    weapons = state.unit_type(flight).weapons
    for mid in shooters:
        model = state.models.get(mid)
        if model is None:
            continue
        for weapon in weapons:
            if can_fire(
                ctx, flight, model, weapon, target, ignore_arcs=ignore_arcs, reaction=reaction
            ):
                yield weapon, model


class Reach:
    """A box round some models, as far out as a reach goes: a model outside it is out of
    that reach of every one of them (`EvoRules.reach_limit`), so range, close range and
    fire-zone questions about it need not be asked. Building it costs one pass over the
    models, asking it a few comparisons; what it lets through is asked as before."""

    __slots__ = ("x0", "x1", "y0", "y1")

    def __init__(self, models: Iterable[Model], limit: float) -> None:
        points = [m.pose.position for m in models]
        xs = [p.x for p in points]
        ys = [p.y for p in points]
        if not xs or limit < 0:
            # Nothing (or nothing can reach): an empty box.
            self.x0, self.x1, self.y0, self.y1 = math.inf, -math.inf, math.inf, -math.inf
            return
        self.x0, self.x1 = min(xs) - limit, max(xs) + limit
        self.y0, self.y1 = min(ys) - limit, max(ys) + limit

    def holds(self, model: Model) -> bool:
        """Whether the model may be within the reach of one of the models."""
        pos = model.pose.position
        return self.x0 <= pos.x <= self.x1 and self.y0 <= pos.y <= self.y1


def weapon_reach(ctx: Ctx, flight: Flight) -> float:
    """The farthest distance any weapon of the flight may fire at (-1: no weapon)."""
    ranges = [w.range for w in ctx.state.unit_type(flight).weapons]
    return ctx.rules.reach_limit(max(ranges)) if ranges else -1.0


def reaction_target_ok(ctx: Ctx, flight: Flight, target: Model) -> bool:
    """Whether a reaction by `flight` may fire at `target` at all (EVO-REA-2, EVO-CLS-1).

    The seed: models within close range "may be fired upon as a reaction". Close range
    is measured from the closest potential firer, so some model of the reacting flight
    with a weapon bearing on the target (printed arcs) must be within close range of it.
    Option `reaction_range=weapon` drops the limit: weapon range and arcs only.
    """
    state = ctx.state
    weapons = state.unit_type(flight).weapons
    close = float(ctx.opt("close_range"))
    anywhere = ctx.opt("reaction_range") == "weapon"
    # Close range is a question of the model, asked once for all its weapons.
    return any(
        (anywhere or ctx.rules.within_close(distance(m, target), close))
        and any(
            can_fire(ctx, flight, m, w, target, ignore_arcs=False, reaction=True) for w in weapons
        )
        for m in state.models_of(flight)
    )


def zone_models(ctx: Ctx, flight: Flight, target: Model) -> list[Model]:
    """Every model, friend or foe, in the fire zone around the target (EVO-SHT-2).

    The firing flight's own models are never in its zone.
    """
    rules = ctx.rules
    reach = rules.zone_reach(float(ctx.opt("fire_zone")), str(ctx.opt("fire_zone_measure")))
    centre = target.pose.position
    # Only a model in the box round the zone can be in it: the grid names those (and a
    # few more) without measuring to every model on the table at every shot; the list
    # keeps the table's order.
    limit = rules.reach_limit(reach)
    near = {
        m.id
        for m in grid_of(ctx.state).in_box(
            centre.x - limit, centre.y - limit, centre.x + limit, centre.y + limit
        )
    }
    return [
        m
        for m in ctx.state.models.values()
        if m.id in near
        and m.unit != flight.id
        and rules.in_zone(m.pose.position.distance(centre), reach)
    ]


def nearest_firer(model: Model, firers: list[Model]) -> float:
    """Distance from a model to the nearest firing model."""
    return min(distance(model, f) for f in firers)


def on_my_six(ctx: Ctx, model: Model, firers: list[Model]) -> bool:
    """All `firers` in the model's aft arc and within close range (EVO-SIX-1).

    The seed asks this of "all models in a firing unit": callers pass every model of
    the firing flight on the table (`unit_models`), not only those whose guns bore.
    """
    close = float(ctx.opt("close_range"))
    return all(
        ctx.rules.on_six(distance(model, f), model.pose.bearing_to(f.pose.position), close)
        for f in firers
    )


def unit_models(ctx: Ctx, flight: Flight) -> list[Model]:
    """Every model of the firing flight on the table: who 'on my six' looks at (EVO-SIX-1)."""
    return ctx.state.models_of(flight)


def target_score(ctx: Ctx, model: Model, firers: list[Model]) -> int:
    """The model's Target: its stealth value if no firer is within close range (EVO-STL-1)."""
    utype = ctx.state.type_of(model)
    return int(
        ctx.rules.target_number(utype, nearest_firer(model, firers), float(ctx.opt("close_range")))
    )


def save_score(ctx: Ctx, model: Model, firers: list[Model], ap: int) -> tuple[int, str]:
    """The Save the model needs, by the facing most firers are on (EVO-ARM-1), worsened by
    AP (EVO-DMG-2); and that facing."""
    rules = ctx.rules
    facing = str(rules.save_facing([model.pose.bearing_to(f.pose.position) for f in firers]))
    return int(rules.save_needed(ctx.state.type_of(model), facing, ap)), facing


@dataclass(frozen=True, slots=True)
class Allocation:
    """The dice given to one model: (face, AP of the weapon that rolled it)."""

    model: Model
    dice: list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Deal:
    """Dice given out by the fixed rules, and the dice left for the attacker to allocate.

    `given` holds each zone model's dice so far (model id -> [(face, AP)]); `rest` the
    kept dice still to place, highest first; `takers` the models that may take them,
    nearest the firers first (EVO-SHT-4, -SHT-5).
    """

    given: dict[str, list[tuple[int, int]]]
    rest: list[tuple[int, int]]
    takers: list[str]


def deal(
    ctx: Ctx,
    flight: Flight,
    target: Model,
    firers: list[Model],
    guns: list[tuple[Weapon, Model]],
) -> Deal:
    """Roll the dice and give out what the fixed rules decide (EVO-SHT-3, -SHT-4, -SHT-5).

    Every model in the zone gets one die, highest to nearest (in a mixed zone, one die
    each before the roll, nearest first); what is left is the attacker's to allocate.
    """
    zone = sorted(zone_models(ctx, flight, target), key=lambda m: (nearest_firer(m, firers), m.id))
    # One entry per die: (sides, AP). d10s first, then d6s: a fixed order keeps replays exact.
    pool = sorted(((w.die, ctx.rules.ap(w)) for w, _ in guns for _ in range(w.dice)), reverse=True)
    given: dict[str, list[tuple[int, int]]] = {m.id: [] for m in zone}
    if ctx.rules.zone_is_mixed([m.unit for m in zone]):
        # EVO-SHT-5: in a mixed zone every model gets one die first, nearest first; the
        # rest go against the target's flight only.
        for model in zone:
            if not pool:
                break
            sides, ap = pool.pop(0)
            first = ctx.roll(sides)
            if not ctx.rules.discarded(first):
                given[model.id].append((first, ap))
        zone = [m for m in zone if m.unit == target.unit]
    rolled = sorted(((ctx.roll(sides), ap) for sides, ap in pool), reverse=True)
    kept = [d for d in rolled if not ctx.rules.discarded(d[0])]  # EVO-SHT-3
    if not zone:
        return Deal(given, [], [])
    # EVO-SHT-4: highest die to the nearest model and on round the zone.
    takers = [m.id for m in zone]
    first, rest = ctx.rules.first_round(kept, takers)
    for mid, die in first:
        given[mid].append(die)
    return Deal(given, rest, takers)


def fixed_rest(found: Deal, target: str, mode: str, rules: EvoRules = DEFAULT_RULES) -> list[str]:
    """Who takes each die left over under a fixed rule (EVO-SHT-4 options): the rule
    function `rest_takers` over the deal's takers."""
    return list(rules.rest_takers(len(found.rest), found.takers, target, mode))


def allocate(
    ctx: Ctx,
    flight: Flight,
    target: Model,
    firers: list[Model],
    guns: list[tuple[Weapon, Model]],
    rest: str = "",
) -> list[Allocation]:
    """Roll and give out every die by a fixed rule (`rest`: spread or target; by default
    the free_allocation option, with spread standing in for the attacker's choice)."""
    found = deal(ctx, flight, target, firers, guns)
    mode = rest or str(ctx.opt("free_allocation"))
    return allocations(ctx, found, fixed_rest(found, target.id, mode, ctx.rules))


def allocations(ctx: Ctx, found: Deal, rest: list[str]) -> list[Allocation]:
    """The deal with each left-over die placed on the model named for it."""
    given = {mid: list(dice) for mid, dice in found.given.items()}
    for die, mid in zip(found.rest, rest, strict=True):
        given[mid].append(die)
    return [Allocation(ctx.state.models[mid], dice) for mid, dice in given.items() if dice]


def resolve_die(ctx: Ctx, model: Model, face: int, ap: int, firers: list[Model], six: bool) -> str:
    """One die against one model: 'kill', 'saved', 'failed' (removed) or 'miss'.

    'on my six' adds 1 after allocation (EVO-SIX-1); a die at or over Kill removes
    the model with no save (EVO-DMG-1) unless it dodges (EVO-DMG-3); at or over
    Target it must pass its Save, where a 1 always fails (EVO-DMG-2).
    """
    rules = ctx.rules
    utype = ctx.state.type_of(model)
    outcome = rules.die_outcome(
        face + rules.six_bonus(six), target_score(ctx, model, firers), utype.kill
    )
    if outcome == "miss":
        return "miss"
    if outcome == "kill":
        dodge = rules.dodge_roll(
            utype,
            six,
            dodge_saves=bool(ctx.opt("dodge_saves")),
            no_dodge_on_six=bool(ctx.opt("no_dodge_on_six")),
        )
        if dodge is None:
            return "kill"
        roll = ctx.roll()
        if not rules.dodges(roll, dodge):
            ctx.emit("EVO-DMG-3", f"{ctx.name(model)} fails its dodge ({dodge}+)", model=model.id)
            return "kill"
        ctx.emit(
            "EVO-DMG-3",
            f"{ctx.name(model)} dodges the kill ({dodge}+): a hit instead",
            model=model.id,
        )
    need, _ = save_score(ctx, model, firers, ap)
    return "failed" if rules.save_fails(ctx.roll(), need) else "saved"
