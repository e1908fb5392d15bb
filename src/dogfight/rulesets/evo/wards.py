"""Wards: the flights a side escorts rather than fights with.

A flight type whose guns are weak for its points (a transport, a shuttle) adds little
fire and gives the enemy easy points (EVO-WIN-2). Its side plays it as a ward: the
ward keeps away from the enemy, and the side's other flights (its escorts) stay
near it. The measure is the type's own stat line, so any scenario's wards are found
the same way, by the computer player and by `dogfight tactics evo` alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dogfight.rulesets.evo.units import UnitType

if TYPE_CHECKING:
    from dogfight.rulesets.evo.state import EvoState

WARD_FIREPOWER = 0.5
"""A type below this firepower per point is a ward: kept damage dice (a natural 1 is
lost) times range in inches, summed over its weapons, per point of one model. A Starfury
Aurora has 1.5, a Razik 0.67, the Earth Alliance shuttle 0.44."""


def firepower(kind: UnitType) -> float:
    """Kept dice times range over the type's weapons, per point of one model."""
    total = sum(w.dice * (w.die - 1) / w.die * w.range for w in kind.weapons)
    return total / float(kind.points or 10)


def wards_of(state: EvoState, side: str, threshold: float = WARD_FIREPOWER) -> list[str]:
    """The side's flights (ids, scenario order) played as wards; none when every flight
    of the side would be one (then nobody escorts)."""
    flights = [f for f in state.flights.values() if f.side == side]
    wards = [f.id for f in flights if firepower(state.types[f.type]) < threshold]
    return wards if len(wards) < len(flights) else []
