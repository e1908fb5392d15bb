"""A bounded hex map with per-hex terrain, line of fire and movement range.

The map is a rectangle of `width` columns by `height` rows in the odd-q offset
layout of flat-topped hexes (see `hex_to_offset`): column 0 is the left edge,
row 0 the top, and odd columns sit half a hex lower. Terrain is stored sparsely;
every hex without an entry is `OPEN`.

Path and range algorithms take `cost(hex) -> int | None` (None = impassable) and
`blocks(hex) -> bool` callables, so the rules of any game can be plugged in.

Nothing here knows about any game.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType

import msgspec
from msgspec.structs import force_setattr

from dogfight.geometry.hex import Hex, hex_linedraw, hex_to_offset, offset_to_hex


class Terrain(msgspec.Struct, frozen=True):
    """What occupies a hex: a kind, how tough it is, and how many of it there are.

    The names are deliberately neutral: a game decides that, say, `kind` "asteroid"
    blocks fire, `structure` is the damage it absorbs and `count` is how many
    rocks share the hex.
    """

    kind: str
    structure: int = 0
    count: int = 0


OPEN = Terrain("open")
"""The terrain of every hex with nothing recorded in it."""


class Cell(msgspec.Struct, frozen=True, array_like=True):
    """One stored map entry; serialises as `[[q, r], terrain]`."""

    hex: Hex
    terrain: Terrain


class HexMap(msgspec.Struct, frozen=True, dict=True):
    """A `width` x `height` rectangle of hexes (odd-q offset) with sparse terrain.

    Immutable: `with_terrain` returns a new map. `cells` is kept canonical (sorted
    by hex, `OPEN` entries dropped), so equal maps compare and serialise equal.
    `msgspec.to_builtins(m)` gives plain data and `msgspec.convert(data, HexMap)`
    reads it back, validating it.

    >>> m = HexMap(3, 2)
    >>> len(m), Hex(0, 0) in m, Hex(0, -1) in m
    (6, True, False)
    >>> m = m.with_terrain(Hex(1, 0), Terrain("asteroid", structure=4, count=2))
    >>> m.terrain_at(Hex(1, 0)).kind, m.terrain_at(Hex(2, 0)).kind
    ('asteroid', 'open')
    """

    width: int
    height: int
    cells: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a map needs at least one hex, not {self.width} x {self.height}")
        seen: dict[Hex, Terrain] = {}
        for cell in self.cells:
            if not self.contains(cell.hex):
                raise ValueError(f"terrain at {cell.hex} is off the map")
            if seen.get(cell.hex, cell.terrain) != cell.terrain:
                raise ValueError(f"conflicting terrain at {cell.hex}")
            seen[cell.hex] = cell.terrain
        canonical = tuple(Cell(h, t) for h, t in sorted(seen.items()) if t != OPEN)
        if canonical != self.cells:
            force_setattr(self, "cells", canonical)

    @classmethod
    def build(cls, width: int, height: int, terrain: Mapping[Hex, Terrain]) -> HexMap:
        """A map with the given terrain."""
        return cls(width, height, tuple(Cell(h, t) for h, t in terrain.items()))

    @functools.cached_property
    def terrain(self) -> Mapping[Hex, Terrain]:
        """The stored (non-open) terrain, as a read-only mapping."""
        return MappingProxyType({cell.hex: cell.terrain for cell in self.cells})

    def contains(self, h: Hex) -> bool:
        """True if the hex is on the map."""
        o = hex_to_offset(h)
        return 0 <= o.col < self.width and 0 <= o.row < self.height

    def __contains__(self, h: object) -> bool:
        return isinstance(h, Hex) and self.contains(h)

    def __iter__(self) -> Iterator[Hex]:
        """Every hex on the map, row by row from the top, left to right."""
        for row in range(self.height):
            for col in range(self.width):
                yield offset_to_hex(col, row)

    def __len__(self) -> int:
        return self.width * self.height

    def terrain_at(self, h: Hex) -> Terrain:
        """The terrain in a hex: `OPEN` unless something was recorded there.

        Hexes off the map are `OPEN` too (lines between on-map hexes can clip the
        zigzag edge of a rectangular map); use `contains` to tell them apart.
        """
        return self.terrain.get(h, OPEN)

    def with_terrain(self, h: Hex, terrain: Terrain) -> HexMap:
        """A copy of this map with `terrain` in hex `h` (`OPEN` clears it)."""
        if not self.contains(h):
            raise ValueError(f"{h} is off the map")
        updated = dict(self.terrain)
        updated[h] = terrain
        return HexMap.build(self.width, self.height, updated)

    def edge_distance(self, h: Hex) -> int:
        """How far `h` is inside the map edge, in hex steps.

        0 for a hex on the outermost row or column (one step from leaving), k for a
        hex that needs k + 1 steps to leave, and for an off-map hex minus the
        distance to the nearest on-map hex (so any negative value is off the map).

        >>> m = HexMap(5, 5)
        >>> m.edge_distance(offset_to_hex(2, 2)), m.edge_distance(offset_to_hex(0, 3))
        (2, 0)
        >>> m.edge_distance(offset_to_hex(-2, 2))
        -2
        """
        o = hex_to_offset(h)
        if self.contains(h):
            return min(o.col, o.row, self.width - 1 - o.col, self.height - 1 - o.row)
        return -min(h.distance(b) for b in self._border())

    def _border(self) -> Iterator[Hex]:
        """The on-map hexes along the edge (corners may repeat)."""
        last_col, last_row = self.width - 1, self.height - 1
        for col in range(self.width):
            yield offset_to_hex(col, 0)
            yield offset_to_hex(col, last_row)
        for row in range(self.height):
            yield offset_to_hex(0, row)
            yield offset_to_hex(last_col, row)


def line_of_fire(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> tuple[bool, list[Hex]]:
    """Whether the line from `a` to `b` is clear, and the hexes that block it.

    The line is `hex_linedraw(a, b)`; only the hexes strictly between `a` and `b`
    are checked (the shooter's and target's own hexes never block). Returns
    `(clear, blockers)` with the blocking hexes in order from `a`.

    >>> rock = Hex(0, -2)
    >>> line_of_fire(Hex(0, 0), Hex(0, -4), lambda h: h == rock)
    (False, [Hex(q=0, r=-2)])
    >>> line_of_fire(Hex(0, 0), Hex(0, -2), lambda h: h == rock)
    (True, [])
    """
    blockers = [h for h in hex_linedraw(a, b)[1:-1] if blocks(h)]
    return not blockers, blockers


def reachable(start: Hex, budget: int, cost: Callable[[Hex], int | None]) -> dict[Hex, int]:
    """Every hex reachable from `start` within `budget`, with its cheapest cost.

    `cost(h)` is the price of entering hex `h` from a neighbour (None =
    impassable; negative costs are an error). Uniform-cost search (Dijkstra), so
    each value is the least total cost; `start` is included at cost 0 when the
    budget is not negative. Keep `cost` returning None off the map to stay on it.

    >>> sorted(reachable(Hex(0, 0), 1, lambda h: 1).values())
    [0, 1, 1, 1, 1, 1, 1]
    """
    if budget < 0:
        return {}
    best: dict[Hex, int] = {start: 0}
    tie = itertools.count()
    frontier: list[tuple[int, int, Hex]] = [(0, next(tie), start)]
    while frontier:
        spent, _, h = heapq.heappop(frontier)
        if spent > best[h]:
            continue
        for n in h.neighbors():
            step = cost(n)
            if step is None:
                continue
            if step < 0:
                raise ValueError(f"negative cost {step} to enter {n}")
            total = spent + step
            if total <= budget and total < best.get(n, budget + 1):
                best[n] = total
                heapq.heappush(frontier, (total, next(tie), n))
    return best
