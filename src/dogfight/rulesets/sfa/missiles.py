"""Missiles: launched as counters of their own, flown first each turn, and shot
down (SFA-MSL-*).
"""

from __future__ import annotations

from dogfight.geometry.hex import hex_linedraw
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.combat import missile_attack, name, roll_attack
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import Weapon
from dogfight.rulesets.sfa.state import CraftState, Decoy, Missile, Selection, new_missile_id

MISSILE_MOVE = 5


MISSILE_SOAK = 10


def launch(ctx: Ctx, craft: CraftState, weapon: Weapon, target: str) -> None:
    """A missile leaves the launcher as its own counter (SFA-MSL-1)."""
    state = ctx.state
    mid = new_missile_id(state)
    state.missiles[mid] = Missile(
        id=mid,
        side=craft.side,
        target=target,
        hex=craft.hex,
        pool=weapon.attack,
        owner=craft.id,
        owner_type=craft.type,
        life=weapon.range,
        scale=weapon.scale,
    )
    ctx.emit(
        "SFA-MSL-1",
        f"{craft.id} launches {weapon.name} {mid} at {name(ctx, target)}",
        unit=craft.id,
        missile=mid,
        target=target,
    )


def shoot_missile(
    ctx: Ctx,
    craft: CraftState,
    station: int,
    weapon: Weapon,
    missile: Missile,
    selection: Selection,
    willpower: bool,
) -> None:
    """Missiles can be shot down: Soak 10, Structure 2, at the missile's own scale
    (SFA-MSL-3, SFA-MSL-2)."""
    state = ctx.state
    damage, botch, size = roll_attack(
        ctx,
        craft,
        station,
        weapon,
        MISSILE_SOAK,
        missile.scale,
        speed_dice=selection.speed_dice,
        willpower=willpower,
    )
    missile.structure -= damage
    gone = missile.structure <= 0
    if gone:
        del state.missiles[missile.id]
    ctx.emit(
        "SFA-MSL-3",
        f"{craft.id} fires at {missile.id}: {size} dice, {damage} damage"
        + ("; it is shot down" if gone else ""),
        unit=craft.id,
        missile=missile.id,
    )
    if botch:
        craft.botched = True
        ctx.emit("SFA-ATK-4", f"{craft.id} botched: -2 Speed next turn", unit=craft.id)


def fly_missiles(ctx: Ctx) -> None:
    """Missiles act first each turn: up to 5 hexes at their target, attacking when they
    reach it; they self-destruct after 20 hexes (SFA-MSL-1, SFA-MSL-2). A Plasma Missile
    detonates instead of attacking (SFA-TEC-21); a Remote Laser shoots from range
    (SFA-TEC-24); a cloaked target breaks every lock (SFA-TEC-25)."""
    state = ctx.state
    for mid in sorted(state.missiles):
        missile = state.missiles.get(mid)
        if missile is None:
            continue  # caught in an earlier blast
        target: CraftState | Decoy | None = state.craft.get(missile.target) or state.decoys.get(
            missile.target
        )
        if isinstance(target, Decoy) and not target.on:
            target = None  # a decoy switched off is nothing to home on (SFA-TEC-16)
        if isinstance(target, CraftState) and target.cloaked:
            owner_type = state.types.get(missile.owner_type)
            if owner_type is None or not owner_type.has("enhanced_sensors"):
                ctx.emit("SFA-TEC-25", f"{mid} loses its cloaked target", missile=mid)
                target = None
        if target is None:
            if missile.kind == "plasma":
                T.detonate(ctx, missile)
                continue
            del state.missiles[mid]
            ctx.emit("SFA-MSL-1", f"{mid} loses its target and self-destructs", missile=mid)
            continue
        if missile.kind == "remote_laser":
            T.remote_laser_turn(ctx, missile, target)
            if mid in state.missiles and missile.moved >= missile.life:
                del state.missiles[mid]
                ctx.emit("SFA-TEC-24", f"{mid} has used up its range and self-destructs")
            continue
        path = hex_linedraw(missile.hex, target.hex)[1:]
        flown = 0
        for where in path[:MISSILE_MOVE]:
            missile.hex = where
            missile.moved += 1
            flown += 1
            if where == target.hex or missile.moved >= missile.life:
                break
        ctx.emit(
            "SFA-MSL-1",
            f"{mid} flies {flown} hexes at {name(ctx, target.id)} "
            f"({missile.moved} of {missile.life})",
            missile=mid,
            hexes=flown,
        )
        if missile.hex == target.hex:
            if missile.kind == "plasma":
                T.detonate(ctx, missile)
                continue
            if isinstance(target, Decoy):
                T.vanish(ctx, target.id, f"{mid} flies through a hologram")
                del state.missiles[mid]
                continue
            if missile_attack(ctx, missile, target):
                del state.missiles[mid]
                continue
        if missile.moved >= missile.life:
            if missile.kind == "plasma":
                T.detonate(ctx, missile)
                continue
            del state.missiles[mid]
            ctx.emit(
                "SFA-MSL-1", f"{mid} has flown {missile.life} hexes and self-destructs", missile=mid
            )
