"""EVO Ready actions beyond the missile lock-on: launching torpedoes (EVO-TOR-1) and
activating jump gates to leave the table (EVO-GATE-3) or to arrive on it (EVO-GATE-2).

The seed names all three uses of Ready ("lock on with missiles, activate a jump gate,
or launch torpedos") and says nothing more; the details are our PROPOSALs
(data/evo/rules.md).
"""

from __future__ import annotations

from dogfight.geometry import EPSILON, Pose, Vec2, overlaps
from dogfight.rulesets.evo import spatial
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.movement import remove
from dogfight.rulesets.evo.state import EvoState, Flight, Gate, Model
from dogfight.rulesets.evo.units import Weapon

ARRIVAL_SPACING = 2.0
"""Inches between arriving models, line abreast at the gate (EVO-GATE-2)."""


# ---- torpedoes ------------------------------------------------------------------------


def is_torpedo(weapon: Weapon) -> bool:
    """A weapon fired only by a launch (EVO-TOR-1)."""
    return weapon.trait("Torpedo") is not None


def torpedoes_left(flight: Flight, weapon: Weapon) -> bool:
    """True if the flight may still launch this torpedo weapon (its `shots` per battle,
    0 meaning no limit) (EVO-TOR-1)."""
    return weapon.shots == 0 or flight.launches.count(weapon.name) < weapon.shots


def launchable(state: EvoState, flight: Flight) -> list[Weapon]:
    """The flight's torpedo weapons with launches left."""
    return [
        w for w in state.unit_type(flight).weapons if is_torpedo(w) and torpedoes_left(flight, w)
    ]


def record_launch(ctx: Ctx, flight: Flight, fired: list[Weapon]) -> None:
    """Count one launch of every torpedo weapon that fired (EVO-TOR-1)."""
    names = sorted({w.name for w in fired})
    flight.launches = (*flight.launches, *names)
    for name in names:
        weapon = next(w for w in ctx.state.unit_type(flight).weapons if w.name == name)
        if weapon.shots:
            left = weapon.shots - flight.launches.count(name)
            ctx.emit(
                "EVO-TOR-1",
                f"{ctx.name(flight)} has {left} launch(es) of {name} left",
                unit=flight.id,
                weapon=name,
                left=left,
            )


# ---- jump gates -----------------------------------------------------------------------


def at_gate(state: EvoState, flight: Flight, gate: Gate) -> list[Model]:
    """The flight's models on the table within the gate's radius (EVO-GATE-3)."""
    return [
        m
        for m in state.models_of(flight)
        if m.pose.position.distance(gate.position) <= gate.radius + EPSILON
    ]


def usable_gates(state: EvoState, flight: Flight) -> list[Gate]:
    """Gates the active flight may jump out through: one of its acting models is within
    the radius (EVO-GATE-3)."""
    return [
        g
        for g in sorted(state.gates.values(), key=lambda g: g.id)
        if any(m.id in flight.acting for m in at_gate(state, flight, g))
    ]


def jump_out(ctx: Ctx, flight: Flight, gate: Gate) -> None:
    """Every model of the flight within the gate's radius leaves the table: disengaged,
    not destroyed, so the enemy scores nothing for it (EVO-GATE-3)."""
    state = ctx.state
    leaving = at_gate(state, flight, gate)
    ctx.emit(
        "EVO-GATE-3",
        f"{ctx.name(flight)} activates jump gate {gate.id}: "
        f"{', '.join(m.id for m in leaving)} jump out",
        unit=flight.id,
        gate=gate.id,
        models=[m.id for m in leaving],
    )
    for model in leaving:
        flight.jumped += 1
        remove(ctx, model, "EVO-GATE-3", f"leaves through jump gate {gate.id}", destroyed=False)


def in_hyperspace(flight: Flight) -> bool:
    """A flight still waiting to arrive through a jump gate (EVO-GATE-2)."""
    return bool(flight.reserve) and bool(flight.waiting)


def may_arrive(state: EvoState, flight: Flight) -> bool:
    """A waiting flight may be activated (and so arrive) from its arrival turn on."""
    return in_hyperspace(flight) and state.turn >= flight.arrive_turn


def arrive(ctx: Ctx, flight: Flight) -> None:
    """The flight opens its gate (its Ready action) and comes out line abreast at the
    gate, facing the gate's heading; it does not drift this activation (EVO-GATE-2).
    A spot on another base moves on along the heading until clear (EVO-MOV-5)."""
    state = ctx.state
    gate = state.gates[flight.reserve]
    radius = state.unit_type(flight).base_radius
    placed: list[str] = []
    for i, mid in enumerate(flight.waiting):
        side = -1 if i % 2 else 1
        offset = (i + 1) // 2 * ARRIVAL_SPACING
        spot = (gate.position + Vec2.polar(offset, gate.heading + 90 * side)).rounded()
        for _ in range(20):
            if not any(
                overlaps(spot, radius, o.pose.position, state.radius(o))
                for o in state.models.values()
            ):
                break
            spot = (spot + Vec2.polar(2 * radius + 0.1, gate.heading)).rounded()
        spot = state.table.clamp(spot).rounded()
        state.models[mid] = Model(id=mid, unit=flight.id, pose=Pose(spot, gate.heading), start=spot)
        spatial.added(state, state.models[mid])
        placed.append(mid)
    flight.models = tuple(placed)
    flight.waiting = ()
    flight.reserve = ""
    flight.actions = ("ready",)
    ctx.emit(
        "EVO-GATE-2",
        f"{ctx.name(flight)} arrives through jump gate {gate.id} "
        f"(its Ready action), facing {gate.heading:.0f}",
        unit=flight.id,
        gate=gate.id,
        models=placed,
    )
