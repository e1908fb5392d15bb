"""Hex maps: bounds, iteration, terrain, serialisation, line of fire, movement range."""

from __future__ import annotations

import doctest

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dogfight.geometry.hexmap as hexmap_module
from dogfight.geometry import (
    DIRECTIONS,
    OPEN,
    Facing,
    Hex,
    HexMap,
    Terrain,
    hex_linedraw,
    hex_to_offset,
    line_of_fire,
    offset_to_hex,
    reachable,
    straight_line,
)

ORIGIN = Hex(0, 0)
ROCK = Terrain("asteroid", structure=3, count=2)
coord = st.integers(min_value=-20, max_value=30)
hexes = st.builds(Hex, coord, coord)


def test_doctests() -> None:
    assert doctest.testmod(hexmap_module).failed == 0


# --- bounds and iteration ---------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(1, 1), (1, 5), (6, 1), (10, 8), (23, 17)])
def test_iteration_covers_the_rectangle(width: int, height: int) -> None:
    m = HexMap(width, height)
    all_hexes = list(m)
    assert len(all_hexes) == len(m) == width * height
    assert len(set(all_hexes)) == width * height
    assert all(m.contains(h) and h in m for h in all_hexes)
    assert {hex_to_offset(h) for h in all_hexes} == {
        hex_to_offset(offset_to_hex(c, r)) for c in range(width) for r in range(height)
    }
    # row by row from the top, left to right
    assert all_hexes[0] == offset_to_hex(0, 0)
    assert all_hexes[-1] == offset_to_hex(width - 1, height - 1)
    if width > 1:
        assert all_hexes[1] == offset_to_hex(1, 0)
    # everything else within reach is off the map
    nearby = set(ORIGIN.spiral(width + height + 2))
    assert sum(1 for h in nearby if m.contains(h)) == width * height


def test_contains_edges() -> None:
    m = HexMap(4, 3)
    assert m.contains(offset_to_hex(0, 0))
    assert m.contains(offset_to_hex(3, 2))
    assert not m.contains(offset_to_hex(-1, 0))
    assert not m.contains(offset_to_hex(4, 0))
    assert not m.contains(offset_to_hex(0, -1))
    assert not m.contains(offset_to_hex(0, 3))
    # odd columns sit lower: north of (1, 0) is off the map, and so is the top of col 0's NE
    assert not m.contains(offset_to_hex(1, 0).neighbor(Facing.N))
    assert m.contains(offset_to_hex(0, 0).neighbor(Facing.SE))
    assert offset_to_hex(0, 0).neighbor(Facing.SE) == offset_to_hex(1, 0)
    assert "not a hex" not in m


@pytest.mark.parametrize(("width", "height"), [(0, 3), (3, 0), (-1, 2)])
def test_empty_map_rejected(width: int, height: int) -> None:
    with pytest.raises(ValueError):
        HexMap(width, height)


@given(hexes)
def test_edge_distance(h: Hex) -> None:
    m = HexMap(9, 7)
    d = m.edge_distance(h)
    assert (d >= 0) == m.contains(h)
    around = h.spiral(max(abs(d), 1) + 1)
    if m.contains(h):
        # the nearest off-map hex is d + 1 steps away
        assert min(h.distance(x) for x in around if not m.contains(x)) == d + 1
    else:
        assert min(h.distance(x) for x in around if m.contains(x)) == -d


def test_edge_distance_values() -> None:
    m = HexMap(9, 7)
    assert m.edge_distance(offset_to_hex(0, 0)) == 0
    assert m.edge_distance(offset_to_hex(8, 6)) == 0
    assert m.edge_distance(offset_to_hex(4, 3)) == 3
    assert m.edge_distance(offset_to_hex(1, 3)) == 1
    assert m.edge_distance(offset_to_hex(-1, 3)) == -1
    assert m.edge_distance(offset_to_hex(4, 10)) == -4


# --- terrain -----------------------------------------------------------------


def test_terrain_defaults_to_open() -> None:
    m = HexMap(5, 5)
    assert all(m.terrain_at(h) == OPEN for h in m)
    assert m.terrain_at(Hex(-30, 2)) == OPEN
    assert m.cells == ()
    assert dict(m.terrain) == {}


def test_with_terrain_is_immutable_style() -> None:
    m = HexMap(5, 5)
    rock_hex = offset_to_hex(2, 2)
    m2 = m.with_terrain(rock_hex, ROCK)
    assert m.terrain_at(rock_hex) == OPEN
    assert m2.terrain_at(rock_hex) == ROCK
    assert m2.terrain == {rock_hex: ROCK}
    assert m2.with_terrain(rock_hex, OPEN) == m
    with pytest.raises(AttributeError):
        m2.width = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        m2.terrain[rock_hex] = OPEN  # type: ignore[index]
    with pytest.raises(ValueError, match="off the map"):
        m.with_terrain(Hex(-5, 0), ROCK)


def test_maps_are_canonical() -> None:
    a, b = offset_to_hex(1, 1), offset_to_hex(3, 0)
    debris = Terrain("debris", count=4)
    m1 = HexMap(5, 5).with_terrain(a, ROCK).with_terrain(b, debris)
    m2 = HexMap.build(5, 5, {b: debris, a: ROCK, offset_to_hex(0, 0): OPEN})
    assert m1 == m2
    assert hash(m1) == hash(m2)
    assert msgspec.json.encode(m1) == msgspec.json.encode(m2)


def test_serialisation_round_trip() -> None:
    m = HexMap.build(6, 4, {offset_to_hex(1, 1): ROCK, offset_to_hex(5, 3): Terrain("mine")})
    data = msgspec.json.decode(msgspec.json.encode(m))
    assert data == {
        "width": 6,
        "height": 4,
        "cells": [
            [[1, 1], {"kind": "asteroid", "structure": 3, "count": 2}],
            [[5, 1], {"kind": "mine", "structure": 0, "count": 0}],
        ],
    }
    back = msgspec.convert(data, HexMap)
    assert back == m
    assert back.terrain_at(offset_to_hex(1, 1)) == ROCK
    assert msgspec.convert(msgspec.to_builtins(m), HexMap) == m
    assert msgspec.convert({"width": 2, "height": 2}, HexMap) == HexMap(2, 2)


def test_invalid_data_rejected() -> None:
    with pytest.raises(msgspec.ValidationError, match="off the map"):
        msgspec.convert({"width": 2, "height": 2, "cells": [[[5, 5], {"kind": "x"}]]}, HexMap)
    with pytest.raises(msgspec.ValidationError, match="conflicting"):
        msgspec.convert(
            {
                "width": 2,
                "height": 2,
                "cells": [[[0, 0], {"kind": "x"}], [[0, 0], {"kind": "y"}]],
            },
            HexMap,
        )
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"width": 0, "height": 2}, HexMap)


# --- line of fire --------------------------------------------------------------


def test_line_of_fire_clear_and_blocked() -> None:
    m = HexMap(10, 10).with_terrain(offset_to_hex(4, 3), ROCK)

    def blocks(h: Hex) -> bool:
        return m.terrain_at(h).kind == "asteroid"

    shooter, rock = offset_to_hex(4, 6), offset_to_hex(4, 3)
    behind = offset_to_hex(4, 0)
    assert line_of_fire(shooter, behind, blocks) == (False, [rock])
    assert line_of_fire(behind, shooter, blocks) == (False, [rock])
    # the shooter's and target's own hexes never block
    assert line_of_fire(shooter, rock, blocks) == (True, [])
    assert line_of_fire(rock, shooter, blocks) == (True, [])
    # a line to the side passes the rock
    assert line_of_fire(shooter, offset_to_hex(8, 2), blocks) == (True, [])


def test_line_of_fire_reports_every_blocker_in_order() -> None:
    start = ORIGIN
    line = straight_line(start, Facing.NE, 6)
    rocks = {line[1], line[3]}
    clear, blockers = line_of_fire(start, line[-1], lambda h: h in rocks)
    assert not clear
    assert blockers == [line[1], line[3]]


def test_line_of_fire_short_ranges() -> None:
    def everything(h: Hex) -> bool:
        return True

    assert line_of_fire(ORIGIN, ORIGIN, everything) == (True, [])
    for d in DIRECTIONS:
        assert line_of_fire(ORIGIN, d, everything) == (True, [])
    assert line_of_fire(ORIGIN, Hex(0, -2), everything) == (False, [Hex(0, -1)])


@given(hexes, hexes, st.sets(hexes, max_size=40))
def test_line_of_fire_matches_linedraw(a: Hex, b: Hex, rocks: set[Hex]) -> None:
    clear, blockers = line_of_fire(a, b, lambda h: h in rocks)
    between = hex_linedraw(a, b)[1:-1]
    assert blockers == [h for h in between if h in rocks]
    assert clear == (not blockers)


# --- movement range ------------------------------------------------------------


def test_reachable_open_space_is_a_hexagon() -> None:
    for budget in range(5):
        found = reachable(Hex(3, -1), budget, lambda h: 1)
        assert set(found) == set(Hex(3, -1).spiral(budget))
        assert all(cost == Hex(3, -1).distance(h) for h, cost in found.items())


def test_reachable_budget_edge_cases() -> None:
    assert reachable(ORIGIN, 0, lambda h: 1) == {ORIGIN: 0}
    assert reachable(ORIGIN, -1, lambda h: 1) == {}
    assert reachable(ORIGIN, 5, lambda h: None) == {ORIGIN: 0}
    with pytest.raises(ValueError, match="negative cost"):
        reachable(ORIGIN, 2, lambda h: -1)


def _bfs(start: Hex, budget: int, passable: set[Hex] | None, blocked: set[Hex]) -> dict[Hex, int]:
    """Plain breadth-first search with unit costs, as an independent check."""
    found = {start: 0}
    frontier = [start]
    for step in range(1, budget + 1):
        nxt = []
        for h in frontier:
            for n in h.neighbors():
                if n not in found and n not in blocked and (passable is None or n in passable):
                    found[n] = step
                    nxt.append(n)
        frontier = nxt
    return found


def test_reachable_detours_round_impassable_hexes() -> None:
    wall = {Hex(q, -1) for q in range(-4, 3)}  # a wall across the north

    def cost(h: Hex) -> int | None:
        return None if h in wall else 1

    found = reachable(ORIGIN, 10, cost)
    assert found == _bfs(ORIGIN, 10, None, wall)
    assert not wall & set(found)
    target = Hex(0, -2)  # just beyond the wall, 2 steps away as the crow flies
    assert found[target] > ORIGIN.distance(target) == 2
    assert found[Hex(3, -1)] == 3  # round the east end of the wall


def test_reachable_with_costs() -> None:
    heavy = set(straight_line(ORIGIN, Facing.N, 3))

    def cost(h: Hex) -> int:
        return 3 if h in heavy else 1

    found = reachable(ORIGIN, 3, cost)
    assert found[Hex(0, -1)] == 3  # straight into the heavy hex uses everything
    assert found[Hex(1, -1)] == 1
    assert found[Hex(1, -2)] == 2  # round the heavy hex
    assert Hex(0, -2) not in found  # heavy too: 1 + 1 + 3 or 3 + 3 is over budget
    assert found[Hex(1, -3)] == 3
    assert reachable(ORIGIN, 5, cost)[Hex(0, -2)] == 5  # 1 + 1 + 3, round and in


def test_reachable_zero_cost_hexes() -> None:
    free = set(straight_line(ORIGIN, Facing.SE, 5))
    found = reachable(ORIGIN, 1, lambda h: 0 if h in free else 1)
    assert all(found[h] == 0 for h in free)
    assert found[Hex(5, 1)] == 1


def test_reachable_stays_on_the_map() -> None:
    m = HexMap(6, 5)
    start = offset_to_hex(0, 0)
    found = reachable(start, 20, lambda h: 1 if m.contains(h) else None)
    assert set(found) == set(m)
    assert found == _bfs(start, 20, set(m), set())
    near = reachable(start, 2, lambda h: 1 if m.contains(h) else None)
    assert set(near) == {h for h in m if start.distance(h) <= 2}


@given(hexes, st.integers(0, 6), st.sets(hexes, max_size=30))
def test_reachable_costs_are_shortest_paths(start: Hex, budget: int, walls: set[Hex]) -> None:
    walls.discard(start)

    def cost(h: Hex) -> int | None:
        return None if h in walls else 1 + (h.q % 2)

    found = reachable(start, budget, cost)
    assert found[start] == 0
    for h, spent in found.items():
        assert spent <= budget
        assert h not in walls
        assert h.distance(start) <= spent  # every step costs at least 1
        if h != start:
            step = cost(h)
            assert step is not None
            assert min(found.get(n, 10**6) for n in h.neighbors()) + step == spent
    # nothing reachable was left out: every neighbour of a found hex that could be
    # entered within budget is found
    for h, spent in found.items():
        for n in h.neighbors():
            step = cost(n)
            if step is not None and spent + step <= budget:
                assert n in found and found[n] <= spent + step
