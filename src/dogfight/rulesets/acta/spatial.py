"""A uniform grid of the fighters on the table, for the overlap question (ACTA-FTR-3).

`legal_actions` asks, for every candidate spot of every movable fighter, whether a
fighter's base would overlap another there. Asked of every fighter that is O(fighters)
a question; the grid answers from the few cells around the spot. It is a snapshot:
built from the state as it stands and valid only until a fighter moves, so it is made
for one listing of choices and thrown away.
"""

from __future__ import annotations

import math

from dogfight.geometry import EPSILON
from dogfight.rulesets.acta.state import ActaState, UnitState

_Entry = tuple[UnitState, float, float, float]
"""(unit, x, y, base radius)."""


class FighterGrid:
    """The fighters of one position, bucketed by square cells of side `cell`.

    Each fighter is entered in the cell it stands in and the eight around it, so that
    one cell holds every fighter a base of at most the largest radius could overlap
    from anywhere inside it; each cell keeps its fighters in `state.units` order.
    """

    def __init__(self, state: ActaState) -> None:
        types = state.types
        fighters = [u for u in state.units.values() if types[u.type].is_fighter]
        self.order = {uid: k for k, uid in enumerate(state.units)}
        largest = max((types[u.type].base_radius for u in fighters), default=0.5)
        # Two largest radii (and the contact tolerance): the farthest a fighter's centre
        # can be from a spot where a fighter's base would touch it, so the neighbours of a
        # cell are enough.
        self.cell = max(2.0 * largest + 2 * EPSILON, 0.5)
        self.largest = largest
        self.cells: dict[tuple[int, int], list[_Entry]] = {}
        size = self.cell
        for unit in fighters:
            pos = unit.pose.position
            entry = (unit, pos.x, pos.y, types[unit.type].base_radius)
            cx, cy = math.floor(pos.x / size), math.floor(pos.y / size)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    self.cells.setdefault((cx + dx, cy + dy), []).append(entry)

    def overlapping(
        self, unit: UnitState, radius: float, x: float, y: float, ignore: tuple[str, ...] = ()
    ) -> UnitState | None:
        """The fighter `movement.overlapping_fighter` would name: of those whose base a
        base of `radius` at (x, y) would overlap, the first in `state.units` order."""
        if radius > self.largest:
            # A base larger than any fighter's (a ship asking): look further afield.
            return self._overlapping_wide(unit, radius, x, y, ignore)
        size = self.cell
        bucket = self.cells.get((math.floor(x / size), math.floor(y / size)))
        if bucket is None:
            return None
        uid = unit.id
        for other, ox, oy, orad in bucket:
            # The same sum as the scan over every fighter, so the same answer.
            if (
                math.hypot(x - ox, y - oy) < radius + orad - EPSILON
                and other.id != uid
                and other.id not in ignore
            ):
                return other
        return None

    def touching_enemy(self, unit: UnitState, radius: float) -> bool:
        """Whether an enemy fighter's base touches the fighter's (`state.engaged`): the
        same test as `ActaState.enemy_fighters_touching`, over the cells near it."""
        pos = unit.pose.position
        x, y = pos.x, pos.y
        size = self.cell
        near = self.cells.get((math.floor(x / size), math.floor(y / size)), ())
        # in_contact's sum, so the same answer.
        return any(
            other.side != unit.side
            and other.id != unit.id
            and math.hypot(x - ox, y - oy) <= radius + orad + EPSILON
            for other, ox, oy, orad in near
        )

    def _overlapping_wide(
        self, unit: UnitState, radius: float, x: float, y: float, ignore: tuple[str, ...]
    ) -> UnitState | None:
        """`overlapping` for a base larger than the cells were sized for."""
        hits = {
            other.id: other
            for bucket in self.cells.values()
            for other, ox, oy, orad in bucket
            if other.id != unit.id
            and other.id not in ignore
            and math.hypot(x - ox, y - oy) < radius + orad - EPSILON
        }
        return self.first(hits)

    def first(self, hits: dict[str, UnitState]) -> UnitState | None:
        """The first of `hits` in `state.units` order."""
        return min(hits.values(), key=lambda u: self.order[u.id], default=None)
