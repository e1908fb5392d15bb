"""ACTA:SF weapon rules the notes list beside the traits: the phaser Kill Zone and the
limit on drones one ship fires at one target in a turn (clauses ACTA-TRT-9, ACTA-TRT-10).

The engine (`combat`), the legality checks (`targets`) and the exact odds
(`acta.odds`) all call these functions, so each rule is written once.
"""

from __future__ import annotations

from dogfight.rulesets.acta.state import UnitState
from dogfight.rulesets.acta.units import Weapon

KILL_ZONE = "Kill Zone"
KILL_ZONE_MULTIHIT = 2
"""A phaser inside its Kill Zone counts as Multihit 2 (notes A.6)."""


def multihit(weapon: Weapon, dist: float) -> int:
    """Shield boxes a hit strips, or hull dice it rolls: Multihit X, or 2 for a weapon
    with Kill Zone X at X inches or less (ACTA-DMG-3, ACTA-TRT-9)."""
    per_hit = weapon.trait("Multihit") or 1
    zone = weapon.trait(KILL_ZONE)
    if zone is not None and dist <= zone + 1e-9:
        per_hit = max(per_hit, KILL_ZONE_MULTIHIT)
    return per_hit


def is_drone(weapon: Weapon) -> bool:
    """Drones are the Seeking weapons (ACTA-TRT-10); the engine has no other kind."""
    return weapon.has("Seeking")


def drones_fired_at(firer: UnitState, target_id: str) -> int:
    """Drones (Seeking AD) the firer has already launched at the target this turn."""
    return sum(n for tid, n in firer.drones_at if tid == target_id)


def drones_left(already: int, limit: int) -> int | None:
    """Drones still allowed at one target after `already` this turn (None: no limit)
    (ACTA-TRT-10)."""
    if limit <= 0:
        return None
    return max(0, limit - already)


def drone_allowance(firer: UnitState, target_id: str, limit: int) -> int | None:
    """How many more drones the firer may send at the target this turn (None: no limit)
    (ACTA-TRT-10)."""
    return drones_left(drones_fired_at(firer, target_id), limit)


def record_drones(firer: UnitState, target_id: str, count: int) -> None:
    """Note drones launched at a target, for the per-turn limit (ACTA-TRT-10)."""
    firer.drones_at = (*firer.drones_at, (target_id, count))
