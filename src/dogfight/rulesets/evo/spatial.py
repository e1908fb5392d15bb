"""A uniform grid of the models on the table, so that asking which bases are near a
point costs about the same on a crowded table as on an empty one.

The grid belongs to one position's `models` dict (a clone gets its own, built the
first time it is asked). The engine keeps it in step: every placement, removal and
arrival tells it (`moved`, `removed`, `added`); nothing else moves a model. It holds
model ids by cell and reads positions from the models themselves, so a change of
facing needs no word. It answers with a superset of the models in a box: callers
still ask their exact question (overlap, range) of each model it returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from dogfight.geometry import Vec2
from dogfight.rulesets.evo.state import EvoState, Model

CELL = 8.0
"""Inches on a side of a cell: about a flight's width, so a placement's query touches
a handful of cells."""

SMALL = 40
"""Up to this many models a walk over all of them is cheaper than the cells: the grid
then answers every box with the whole table (a superset, as promised)."""

KEEP = 32
"""How many positions' grids are kept at once (the oldest goes first): a game in play
and the few copies its players look at."""


def cell_of(x: float, y: float) -> tuple[int, int]:
    """The cell holding a point."""
    return (math.floor(x / CELL), math.floor(y / CELL))


class Grid:
    """Model ids by cell, for one position's `models` dict."""

    __slots__ = ("cells", "models", "where")

    def __init__(self, models: dict[str, Model]) -> None:
        self.models = models
        """The dict this grid indexes (kept, so that its identity keys the grid)."""
        self.cells: dict[tuple[int, int], set[str]] = {}
        self.where: dict[str, tuple[int, int]] = {}
        for model in models.values():
            self.added(model)

    def added(self, model: Model) -> None:
        """A model set down on the table."""
        pos = model.pose.position
        key = cell_of(pos.x, pos.y)
        self.cells.setdefault(key, set()).add(model.id)
        self.where[model.id] = key

    def removed(self, mid: str) -> None:
        """A model taken off the table."""
        key = self.where.pop(mid, None)
        if key is not None:
            self.cells[key].discard(mid)

    def moved(self, model: Model) -> None:
        """A model whose position changed."""
        pos = model.pose.position
        key = cell_of(pos.x, pos.y)
        old = self.where.get(model.id)
        if old == key:
            return
        if old is not None:
            self.cells[old].discard(model.id)
        self.cells.setdefault(key, set()).add(model.id)
        self.where[model.id] = key

    def in_box(self, x0: float, y0: float, x1: float, y1: float) -> list[Model]:
        """Every model whose position is in the box, and perhaps a few more nearby
        (any order)."""
        if not (x0 <= x1 and y0 <= y1):
            return []  # an empty box
        models = self.models
        cells = self.cells
        out: list[Model] = []
        if len(models) <= SMALL or not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
            return list(models.values())
        cx0, cy0 = cell_of(x0, y0)
        cx1, cy1 = cell_of(x1, y1)
        if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > len(cells):
            # A box wider than the crowd: walk the occupied cells instead.
            for (cx, cy), ids in cells.items():
                if cx0 <= cx <= cx1 and cy0 <= cy <= cy1:
                    out.extend(map(models.__getitem__, ids))
            return out
        for cx in range(cx0, cx1 + 1):
            for cy in range(cy0, cy1 + 1):
                found = cells.get((cx, cy))
                if found:
                    out.extend(map(models.__getitem__, found))
        return out


_GRIDS: dict[int, Grid] = {}
"""Grids by the id of the `models` dict they index (each grid keeps its dict alive, so
the id is not reused while the grid is kept)."""


def known_grid(state: EvoState) -> Grid | None:
    """The position's grid if it has one already (what the engine updates)."""
    grid = _GRIDS.get(id(state.models))
    if grid is None or grid.models is not state.models:
        return None
    return grid


def grid_of(state: EvoState) -> Grid:
    """The position's grid, built the first time it is asked for."""
    grid = known_grid(state)
    if grid is None or len(grid.where) != len(state.models):
        grid = Grid(state.models)
        _GRIDS.pop(id(state.models), None)
        while len(_GRIDS) >= KEEP:
            del _GRIDS[next(iter(_GRIDS))]
        _GRIDS[id(state.models)] = grid
    return grid


def moved(state: EvoState, model: Model) -> None:
    """Tell the position's grid (if any) that a model's position changed."""
    grid = known_grid(state)
    if grid is not None:
        grid.moved(model)


def removed(state: EvoState, mid: str) -> None:
    """Tell the position's grid (if any) that a model left the table."""
    grid = known_grid(state)
    if grid is not None:
        grid.removed(mid)


def added(state: EvoState, model: Model) -> None:
    """Tell the position's grid (if any) that a model came onto the table."""
    grid = known_grid(state)
    if grid is not None:
        grid.added(model)


def nearest_of_side(state: EvoState, at: Vec2, side: str) -> Model | None:
    """The model of `side` nearest to `at` (centre to centre; a tie goes to the lower
    id), or None if the side has none on the table. It looks in ever larger boxes: once
    the best found is no farther than the box reaches, nothing outside can be nearer."""
    flights = state.flights
    if len(state.models) <= SMALL:
        everything = [m for m in state.models.values() if flights[m.unit].side == side]
        if not everything:
            return None
        return min(everything, key=lambda m: (m.pose.position.distance(at), m.id))
    grid = grid_of(state)
    table = state.table
    reach = 2 * CELL
    whole = max(table.width, table.height) + abs(at.x) + abs(at.y)
    while True:
        found = [
            m
            for m in grid.in_box(at.x - reach, at.y - reach, at.x + reach, at.y + reach)
            if flights[m.unit].side == side
        ]
        if found:
            best = min(found, key=lambda m: (m.pose.position.distance(at), m.id))
            if best.pose.position.distance(at) <= reach:
                return best
        if reach > whole:
            # The box holds the whole table (and any model pushed past its edge).
            everything = [m for m in state.models.values() if flights[m.unit].side == side]
            if not everything:
                return None
            return min(everything, key=lambda m: (m.pose.position.distance(at), m.id))
        reach *= 2


class PointGrid:
    """Points (a player's picture of the table) by cell: which of them lie in a box,
    as their indices in the order given, so a caller that adds or compares in that
    order gets the same answer as a walk over all of them."""

    __slots__ = ("cell", "cells", "count")

    def __init__(self, points: Iterable[tuple[float, float]], cell: float) -> None:
        self.cell = max(cell, 1.0)
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.count = 0
        size = self.cell
        for i, (x, y) in enumerate(points):
            self.cells.setdefault((math.floor(x / size), math.floor(y / size)), []).append(i)
            self.count = i + 1

    def in_box(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        """The indices (ascending) of the points in the box, and perhaps a few more."""
        if not (x0 <= x1 and y0 <= y1):
            return []
        if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
            return list(range(self.count))
        size = self.cell
        cx0, cy0 = math.floor(x0 / size), math.floor(y0 / size)
        cx1, cy1 = math.floor(x1 / size), math.floor(y1 / size)
        cells = self.cells
        out: list[int] = []
        if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > len(cells):
            for (cx, cy), ids in cells.items():
                if cx0 <= cx <= cx1 and cy0 <= cy <= cy1:
                    out.extend(ids)
        else:
            for cx in range(cx0, cx1 + 1):
                for cy in range(cy0, cy1 + 1):
                    found = cells.get((cx, cy))
                    if found:
                        out.extend(found)
        out.sort()
        return out
