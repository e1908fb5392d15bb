"""Carrying out an actor's steps: its move, hex by hex (SFA-MOV-*, SFA-SF-3), and
its resolution: an attack or a technology used (SFA-ATK-*, SFA-TEC-*).
"""

from __future__ import annotations

from typing import Any

import msgspec

from dogfight.core.events import PRIVATE_TO
from dogfight.geometry.hex import Hex, hex_to_offset
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.aborts import abort_selection, pending_step
from dogfight.rulesets.sfa.actors import describe_selection, speed_of, spend_willpower, split_key
from dogfight.rulesets.sfa.choices import least_hexes, move_budget
from dogfight.rulesets.sfa.collisions import collides
from dogfight.rulesets.sfa.combat import (
    collide,
    cross_obstacle,
    damage_craft,
    defending_scale,
    name,
    roll_attack,
    soak_against,
)
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.maneuvers import trace
from dogfight.rulesets.sfa.missiles import launch, shoot_missile
from dogfight.rulesets.sfa.rules import expendable
from dogfight.rulesets.sfa.sequence import begin_actor, finish_actor, open_window
from dogfight.rulesets.sfa.state import CraftState, Selection


def do_move(ctx: Ctx, action: A.Move) -> None:
    """Fly the move hex by hex: obstacles, collisions and the map edge (SFA-MOV-*)."""
    state = ctx.state
    craft = state.craft[action.craft]
    key = state.acting
    selection = state.selections[key]
    if action.abort:
        spend_willpower(craft)
        if action.abort == "extra_move":
            selection = Selection(kind=action.abort)
        else:
            selection = Selection(kind="equipment", item=action.abort)
        state.selections[key] = selection
        # The abort acts at its own Speed from now on (SFA-SEQ-5).
        state.speeds[key] = speed_of(state, key, selection)
        ctx.emit(
            "SFA-SEQ-5",
            f"{craft.id} aborts to "
            f"{describe_selection(selection) if not selection.item else T.label(action.abort)}"
            " for 1 "
            f"Willpower ({craft.willpower} left): Speed {state.speeds[key]}",
            unit=craft.id,
        )
    budget = move_budget(state, craft, selection, ctx.rules)
    least = least_hexes(state, craft, selection)
    if selection.kind == "equipment":
        T.start_move_equipment(ctx, craft, selection.item)
    if craft.held_by:
        T.drag(ctx, craft, action.dest)
        T.check_decoys(ctx)
        open_window(state, "window_resolve")
        return
    if state.is_person(craft):
        person_move(ctx, craft, action.dest, budget)
        open_window(state, "window_resolve")
        return
    if action.dest is not None:
        T.teleport(ctx, craft, action.dest)
        T.check_decoys(ctx)
        open_window(state, "window_resolve")
        return
    path = trace(
        craft.hex,
        craft.facing,
        action.steps,
        budget,
        min_hexes=least,
        maneuver=ctx.rules.maneuver,
    )
    craft.maneuver_soak += path.soak
    craft.maneuver_handling += path.handling
    face = path.facing
    if craft.cloaked:
        first = len(ctx.log.events)
        fly_path(ctx, craft, action, path, face)
        # SFA-TEC-25: where a cloaked craft flies, and what it meets on the way, is logged
        # for its own side only; damage it takes (which decloaks it) stays public.
        for i in range(first, len(ctx.log.events)):
            event = ctx.log.events[i]
            # A shown decoy's flight stays public (SFA-TEC-16).
            if event.clause in PRIVATE_MOVE_CLAUSES and event.data.get("unit") not in state.decoys:
                ctx.log.events[i] = msgspec.structs.replace(
                    event, data={**event.data, PRIVATE_TO: craft.side}
                )
        return
    fly_path(ctx, craft, action, path, face)


PRIVATE_MOVE_CLAUSES = frozenset({"SFA-MOV-1", "SFA-MOV-6", "SFA-OBS-1", "SFA-TEC-25"})
"""Clauses of the events a cloaked craft's move keeps from the other side."""


def fly_path(ctx: Ctx, craft: CraftState, action: A.Move, path: Any, face: int) -> None:
    """Fly a traced path hex by hex: obstacles, collisions and the map edge."""
    state = ctx.state
    if craft.cloaked:
        # Stealth: the other side is not told where the craft goes (SFA-TEC-25).
        ctx.emit("SFA-TEC-25", f"{craft.id} moves, cloaked", unit=craft.id)
    else:
        ctx.emit(
            "SFA-MOV-1",
            f"{name(ctx, craft.id)} flies {action.steps or 'nowhere'}"
            + (
                f" ({', '.join(path.maneuvers)}: Soak {path.soak:+d}, Handling {path.handling:+d})"
                if path.maneuvers
                else ""
            ),
            unit=craft.id,
            steps=action.steps,
        )
    for where in path.hexes:
        if not state.map.contains(where):
            state.disengaged[craft.id] = max(0, craft.structure)
            state.remove_craft(craft, destroyed=False)
            ctx.emit(
                "SFA-MOV-6", f"{name(ctx, craft.id)} leaves the map and disengages", unit=craft.id
            )
            open_window(state, "window_resolve")
            return
        other = state.occupant(where, ignore=craft.id)
        craft.hexes_moved += 1
        if other is not None and collides(state, craft, action.ram):
            collide(ctx, craft, other)
            break
        craft.hex = where
        if not T.on_enter(ctx, craft, where):
            break
        if not cross_obstacle(ctx, craft, where):
            break
    if craft.id in state.craft:
        craft.facing = face
        T.follow_decoys(ctx, craft, action.steps)
    open_window(state, "window_resolve")


def person_move(ctx: Ctx, craft: CraftState, dest: Hex | None, budget: int) -> None:
    """A Street Fighter moves straight to a hex within its reach (SFA-SF-3)."""
    if dest is None or dest == craft.hex:
        if budget:
            ctx.emit("SFA-SF-3", f"{name(ctx, craft.id)} stands its ground", unit=craft.id)
        return
    hexes = craft.hex.distance(dest)
    craft.hex = dest
    craft.hexes_moved = hexes
    place = hex_to_offset(dest)
    ctx.emit(
        "SFA-SF-3",
        f"{name(ctx, craft.id)} moves {hexes} hex{'es' if hexes != 1 else ''} "
        f"to [{place.col}, {place.row}]",
        unit=craft.id,
    )


def resolve(ctx: Ctx, action: A.Resolve) -> None:
    """Resolve an attack: a pool per weapon and damage check (SFA-ATK-*)."""
    state = ctx.state
    craft_id, station = split_key(action.actor)
    craft = state.craft[craft_id]
    selection = state.selections[action.actor]
    if selection.kind == "equipment":
        if action.target or action.at is not None or action.form or action.use:
            T.use_equipment(
                ctx,
                craft,
                selection.item,
                target=action.target,
                at=action.at,
                form=action.form,
                power=action.power,
            )
        else:
            ctx.emit(
                T.CLAUSE[selection.item],
                f"{craft.id} does not use its {T.label(selection.item)}",
                unit=craft.id,
            )
        finish_actor(ctx)
        return
    if not action.target:
        ctx.emit("SFA-ATK-2", f"{action.actor} does not fire", actor=action.actor)
        finish_actor(ctx)
        return
    weapon = next(w for w in state.type_of(craft).weapons if w.name == selection.item)
    if action.willpower:
        spend_willpower(craft)
    if expendable(weapon):
        craft.expended[weapon.name] = craft.expended.get(weapon.name, 0) + 1
    if weapon.guided:
        launch(ctx, craft, weapon, action.target)
        finish_actor(ctx)
        return
    if action.target in state.decoys:
        # A decoy cannot dodge: any weapon fired at it shows it up (SFA-TEC-16).
        T.vanish(ctx, action.target, f"{action.actor}'s {weapon.name} passes through a hologram")
        finish_actor(ctx)
        return
    if action.power:
        craft.power -= action.power
        ctx.emit(
            "SFA-TEC-26",
            f"{craft.id}'s Targeting Computer locks on for {action.power} Power "
            f"({craft.power} left)",
            unit=craft.id,
        )
    shots = ctx.rules.attack_shots(weapon)
    checks = ctx.rules.damage_checks(weapon)
    # SFA-ATK-5: the Willpower point buys one success, on the first roll of the action.
    bought = action.willpower
    for _ in range(shots):
        for _check in range(checks):
            if action.target in state.missiles:
                missile = state.missiles[action.target]
                shoot_missile(ctx, craft, station, weapon, missile, selection, bought)
                bought = False
                break
            target = state.craft.get(action.target)
            if target is None:
                break
            fire_once(ctx, action, craft, station, weapon, target, willpower=bought)
            bought = False
    finish_actor(ctx)


def fire_once(
    ctx: Ctx,
    action: A.Resolve,
    craft: CraftState,
    station: int,
    weapon: Any,
    target: CraftState,
    *,
    willpower: bool,
) -> None:
    """One attack roll at a craft and its damage (SFA-ATK-1, SFA-ATK-4); a Temporal
    Displacement Device may re-roll it before its damage is done (SFA-TEC-28)."""
    state = ctx.state
    ctype = state.type_of(craft)
    soak = soak_against(state, target, ctype, action.power, rules=ctx.rules)
    damage, botch, size = roll_attack(
        ctx,
        craft,
        station,
        weapon,
        soak,
        defending_scale(state, target, ctype),
        speed_dice=state.selections[action.actor].speed_dice,
        willpower=willpower,
        against=target.id,
    )
    ctx.emit(
        "SFA-ATK-1",
        f"{action.actor} fires {weapon.name} at {name(ctx, target.id)}:"
        f" {size} dice against Soak {soak}: {damage} damage"
        + (" (Willpower success)" if willpower else "")
        + (", a botch" if botch else ""),
        actor=action.actor,
        target=target.id,
        dice=size,
        damage=damage,
    )
    if botch:
        craft.botched = True
        ctx.emit("SFA-ATK-4", f"{craft.id} botched: -2 Speed next turn", unit=craft.id)
    damage_craft(ctx, target, damage, "SFA-ATK-1", weapon.name, source=ctype, by=craft.id)


def do_abort(ctx: Ctx, action: A.Abort) -> None:
    """Pay the Willpower, switch the action and its Speed, and let the abort act at that
    Speed: before the interrupter if it is now faster, else when the pilot's turn comes
    back (SFA-SEQ-5)."""
    state = ctx.state
    key = action.actor
    craft = state.craft[split_key(key)[0]]
    step = pending_step(state, key)
    moved = step in ("window_resolve", "resolve")
    spend_willpower(craft)
    selection = abort_selection(action.to)
    state.selections[key] = selection
    state.speeds[key] = speed_of(state, key, selection)
    ctx.emit(
        "SFA-SEQ-5",
        f"{craft.id} aborts to "
        f"{T.label(action.to) if selection.item else describe_selection(selection)} for 1 "
        f"Willpower ({craft.willpower} left): Speed {state.speeds[key]}",
        unit=craft.id,
        actor=key,
        speed=state.speeds[key],
    )
    if state.acting == key:  # at its own resolution: the field goes up now
        T.start_move_equipment(ctx, craft, action.to)
        finish_actor(ctx)
        return
    state.abort_offer = ""
    interrupter = state.acting
    if state.speeds[key] > state.speeds.get(interrupter, 0):
        # Faster than the interrupter now: the abort goes first.
        if moved:
            T.start_move_equipment(ctx, craft, action.to)
            state.late_fields = tuple(k for k in state.late_fields if k != key)
            return
        state.interrupted = tuple(e for e in state.interrupted if not e.startswith(key + "|"))
        begin_actor(ctx, interrupter)
        state.interrupted = (*state.interrupted, f"{interrupter}|{state.step}")
        state.acting, state.step = key, step
        state.window_sides = (state.other(craft.side), craft.side)
        return
    if moved:
        # Slower: the field goes up when the pilot's turn comes back, at its resolution.
        state.late_fields = (*state.late_fields, key)
