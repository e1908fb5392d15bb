"""Fighter attacks as one ship's weapon systems: nominate every target, then resolve.

The seed has a side name the targets of all its flights and only then resolve their
attacks, "as if" nominating a ship's weapon systems (ACTA-FTR-7). Under the default
`fighter_fire_order=nominate` a fighter's `Fire` only nominates its shot; the side's
nominated shots are rolled, in order, once it stops nominating. A shot whose firer
or target is gone by then is lost. `fighter_fire_order=each` resolves each shot at
once, before the next is chosen.
"""

from __future__ import annotations

from dogfight.rulesets.acta.actions import Fire
from dogfight.rulesets.acta.combat import resolve_fire
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.targets import fighter_may_fire, weapon_named


def nominating(ctx: Ctx) -> bool:
    """True if fighter shots are nominated first and resolved together (ACTA-FTR-7)."""
    return bool(ctx.opt("fighter_fire_order") == "nominate")


def resolve_shot(ctx: Ctx, action: Fire) -> None:
    """Roll one checked shot (after any interception was declined)."""
    state = ctx.state
    firer = state.units.get(action.unit)
    target = state.units.get(action.target)
    if firer is None or target is None:
        return
    weapon = weapon_named(state, firer, action.weapon)
    assert weapon is not None
    resolve_fire(ctx, firer, weapon, target)
    if state.is_fighter(firer) and action.unit in state.units and not fighter_may_fire(ctx, firer):
        firer.attack_done = True


def fighter_shot(ctx: Ctx, action: Fire) -> None:
    """A fighter's shot that stands (not intercepted): nominate it, or roll it at once."""
    if not nominating(ctx):
        resolve_shot(ctx, action)
        return
    state = ctx.state
    state.volley = (*state.volley, action)
    ctx.emit(
        "ACTA-FTR-7",
        f"{action.unit} nominates {action.weapon} at {action.target}",
        unit=action.unit,
        weapon=action.weapon,
        target=action.target,
    )


def drop_shots(ctx: Ctx, attacker: str, target: str) -> None:
    """An intercepted fighter may not attack the unit it was stopped from: its
    nominated shots at it are withdrawn (ACTA-SUP-4)."""
    state = ctx.state
    kept = tuple(s for s in state.volley if not (s.unit == attacker and s.target == target))
    if len(kept) != len(state.volley):
        ctx.emit(
            "ACTA-SUP-4",
            f"{attacker}'s nominated shots at {target} are withdrawn: it was intercepted",
            unit=attacker,
            target=target,
        )
    state.volley = kept


def resolve_volley(ctx: Ctx) -> None:
    """Roll the side's nominated fighter shots in the order they were named (ACTA-FTR-7)."""
    state = ctx.state
    shots, state.volley = state.volley, ()
    for shot in shots:
        firer = state.units.get(shot.unit)
        target = state.units.get(shot.target)
        if firer is None or target is None:
            gone = shot.unit if firer is None else shot.target
            ctx.emit(
                "ACTA-FTR-7",
                f"{shot.unit}'s {shot.weapon} at {shot.target} is lost: {gone} is destroyed",
                unit=shot.unit,
                target=shot.target,
            )
            continue
        resolve_shot(ctx, shot)
