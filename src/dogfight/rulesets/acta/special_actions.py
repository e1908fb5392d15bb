"""ACTA:SF Special Action details: the power-drain penalty and evasion of Seeking weapons.

The list of Special Actions and their checks lives in `ruleset.py`; the rules
here are the parts of their effects that other modules ask about
(clauses ACTA-SPA-2, ACTA-SPA-5, ACTA-SPA-8, ACTA-SPA-9).
"""

from __future__ import annotations

from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.state import UnitState
from dogfight.rulesets.acta.units import Weapon

ALL_POWER = "All Power to Engines"
EVASIVE = "Take Evasive Action"
HIGH_ENERGY_TURN = "High Energy Turn"

DRAIN_PENALTIES: dict[str, str] = {
    "move": 'move at most 6"',
    "phasers": "fire only phasers",
    "one_system": "fire only one weapon system",
}
"""The power-drain penalties after All Power to Engines; the owner picks one (ACTA-SPA-8)."""


def drain_penalty_problem(name: str, drain: str) -> str:
    """Why a declared drain penalty is not allowed ('' if it is) (ACTA-SPA-8)."""
    if name != ALL_POWER:
        return "" if not drain else f"only {ALL_POWER} has a power-drain penalty to choose"
    if drain and drain not in DRAIN_PENALTIES:
        known = ", ".join(f"{k} ({v})" for k, v in DRAIN_PENALTIES.items())
        return f"unknown power-drain penalty {drain!r}; choose one of: {known} (ACTA-SPA-8)"
    return ""


HET_MAX_EXTRA = 3
"""A High Energy Turn adds at most three 45-degree segments: 180 degrees with a normal turn."""


def extra_problem(name: str, extra: int) -> str:
    """Why a declaration's extra segments are wrong ('' if right) (ACTA-SPA-11)."""
    if name == HIGH_ENERGY_TURN:
        if not 1 <= extra <= HET_MAX_EXTRA:
            return (
                f"a High Energy Turn tries 1 to {HET_MAX_EXTRA} extra 45-degree segments, "
                f"not {extra} (ACTA-SPA-11)"
            )
        return ""
    return "" if extra == 0 else f"only a {HIGH_ENERGY_TURN} has extra segments to declare"


def is_phaser(weapon: Weapon) -> bool:
    """Phasers are the weapons named Phaser-something (ACTA-SPA-8, ACTA-TRT-9)."""
    return weapon.name.lower().startswith("phaser")


def drain_fire_problem(ship: UnitState, weapon: Weapon) -> str:
    """Why a drained ship may not fire this weapon now ('' if it may) (ACTA-SPA-8)."""
    if ship.drain_penalty == "phasers" and not is_phaser(weapon):
        return (
            f"{ship.id} is drained after All Power to Engines and fires only phasers "
            "this turn (ACTA-SPA-8)"
        )
    if ship.drain_penalty == "one_system" and ship.fired:
        return (
            f"{ship.id} is drained after All Power to Engines and fires only one weapon "
            "system this turn (ACTA-SPA-8)"
        )
    return ""


def evades_seeking(ctx: Ctx, firer: UnitState, weapon: Weapon, target: UnitState) -> bool:
    """The opposed Crew Quality roll of a ship taking evasive action against a Seeking
    weapon that would hit it automatically: True if the weapon misses (ACTA-SPA-9).

    The target rolls 1d6 + its Crew Quality against 1d6 + the firer's; the weapon
    misses if the target's total is higher (on a tie, `evasion_tie` decides).
    """
    from dogfight.rulesets.acta.sequence import crew_quality

    mine = ctx.roll()
    theirs = ctx.roll()
    cq_target, cq_firer = crew_quality(ctx, target), crew_quality(ctx, firer)
    total_target, total_firer = mine + cq_target, theirs + cq_firer
    if total_target == total_firer:
        evaded = bool(ctx.opt("evasion_tie") == "misses")
    else:
        evaded = total_target > total_firer
    ctx.emit(
        "ACTA-SPA-9",
        f"{ctx.name(target)} evades {weapon.name}: crew {mine}+{cq_target}={total_target} "
        f"v {ctx.name(firer)} {theirs}+{cq_firer}={total_firer}: "
        + ("the Seeking weapon misses" if evaded else "it still hits"),
        unit=target.id,
        firer=firer.id,
        evaded=evaded,
    )
    return evaded
