"""Hex geometry: coordinates, facings, lines, sextants and arcs, pixel layout."""

from __future__ import annotations

import doctest
import itertools
import math

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dogfight.geometry.hex as hex_module
from dogfight.geometry import (
    ALL_ROUND,
    DIRECTIONS,
    FLAT,
    FORWARD_ARC,
    FRONT_ARC,
    POINTY,
    REAR_ARC,
    Facing,
    FractionalHex,
    Hex,
    Layout,
    OffsetCoord,
    Vec2,
    closed_sextants,
    facing_between,
    hex_distance,
    hex_lerp,
    hex_linedraw,
    hex_round,
    hex_to_offset,
    in_arc,
    in_forward_line,
    offset_to_hex,
    relative_direction,
    sextant,
    straight_line,
    turn,
)

ORIGIN = Hex(0, 0)
coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coord, coord)
facings = st.sampled_from(list(Facing))


def test_doctests() -> None:
    assert doctest.testmod(hex_module).failed == 0


# --- Red Blob Games' reference tests (cube (q, r, s) written as axial (q, r)) --


def test_redblob_arithmetic() -> None:
    assert Hex(1, -3) + Hex(3, -7) == Hex(4, -10)
    assert Hex(1, -3) - Hex(3, -7) == Hex(-2, 4)
    assert Hex(1, -3).s == 2
    assert Hex(2, -1).scale(3) == Hex(6, -3)


def test_redblob_distance() -> None:
    assert hex_distance(Hex(3, -7), ORIGIN) == 7
    assert Hex(3, -7).length() == 7


def test_redblob_neighbor() -> None:
    # Red Blob's direction 2 is (0, -1, 1), which is north here.
    assert DIRECTIONS[Facing.N] == Hex(0, -1)
    assert Hex(1, -2).neighbor(Facing.N) == Hex(1, -3)


def test_redblob_rotate() -> None:
    assert Hex(1, -3).rotate_right() == Hex(3, -2)
    assert Hex(1, -3).rotate_left() == Hex(-2, -1)


def test_redblob_round() -> None:
    a, b, c = Hex(0, 0), Hex(1, -1), Hex(0, -1)
    assert hex_round(hex_lerp(FractionalHex(0, 0, 0), FractionalHex(10, -20, 10), 0.5)) == Hex(
        5, -10
    )
    assert hex_round(hex_lerp(a, b, 0.499)) == a
    assert hex_round(hex_lerp(a, b, 0.501)) == b

    def mix(wa: float, wb: float, wc: float) -> FractionalHex:
        return FractionalHex(
            a.q * wa + b.q * wb + c.q * wc,
            a.r * wa + b.r * wb + c.r * wc,
            a.s * wa + b.s * wb + c.s * wc,
        )

    assert hex_round(mix(0.4, 0.3, 0.3)) == a
    assert hex_round(mix(0.3, 0.3, 0.4)) == c


def test_redblob_linedraw() -> None:
    assert hex_linedraw(ORIGIN, Hex(1, -5)) == [
        Hex(0, 0),
        Hex(0, -1),
        Hex(0, -2),
        Hex(1, -3),
        Hex(1, -4),
        Hex(1, -5),
    ]


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_redblob_layout_round_trip(orientation: object) -> None:
    assert orientation is FLAT or orientation is POINTY
    layout = Layout(orientation, Vec2(10.0, 15.0), Vec2(35.0, 71.0))
    assert hex_round(layout.pixel_to_hex(layout.hex_to_pixel(Hex(3, 4)))) == Hex(3, 4)
    for h in ORIGIN.spiral(12):
        assert layout.hex_at(layout.hex_to_pixel(h)) == h


def test_redblob_offset() -> None:
    # qoffset_from_cube(ODD, Hex(1, 2, -3)) == OffsetCoord(1, 2)
    assert hex_to_offset(Hex(1, 2)) == OffsetCoord(1, 2)
    assert hex_to_offset(Hex(1, -1)) == OffsetCoord(1, -1)
    assert offset_to_hex(1, 2) == Hex(1, 2)
    for h in ORIGIN.spiral(8):
        o = hex_to_offset(h)
        assert offset_to_hex(o.col, o.row) == h


# --- directions and facings -------------------------------------------------


def test_direction_table() -> None:
    assert [DIRECTIONS[f] for f in Facing] == [
        Hex(0, -1),
        Hex(1, -1),
        Hex(1, 0),
        Hex(0, 1),
        Hex(-1, 1),
        Hex(-1, 0),
    ]
    assert all(d.length() == 1 for d in DIRECTIONS)


@pytest.mark.parametrize("facing", list(Facing))
def test_directions_are_clockwise_from_north_on_a_flat_layout(facing: Facing) -> None:
    """On the page (y down), direction i points 60 * i degrees clockwise from up."""
    p = Layout(FLAT).hex_to_pixel(DIRECTIONS[facing])
    compass = math.degrees(math.atan2(p.x, -p.y)) % 360.0
    assert compass == pytest.approx(60.0 * facing)


def test_turn_sign_is_clockwise() -> None:
    assert turn(Facing.N, 1) is Facing.NE
    assert turn(Facing.N, -1) is Facing.NW
    assert turn(Facing.NW, 1) is Facing.N
    assert turn(Facing.SE, 3) is Facing.NW
    assert turn(2, -14) is Facing.N


@given(facings, st.integers(-20, 20), st.integers(-20, 20))
def test_turn_properties(facing: Facing, a: int, b: int) -> None:
    assert turn(facing, 6) == facing
    assert turn(facing, 0) == facing
    assert turn(turn(facing, a), b) == turn(facing, a + b)
    assert DIRECTIONS[turn(facing, 1)] == DIRECTIONS[facing].rotate_right()
    assert DIRECTIONS[turn(facing, -1)] == DIRECTIONS[facing].rotate_left()


def test_facing_between() -> None:
    for f in Facing:
        assert facing_between(Hex(3, -2), Hex(3, -2).neighbor(f)) is f
    with pytest.raises(ValueError, match="not adjacent"):
        facing_between(ORIGIN, Hex(2, 0))
    with pytest.raises(ValueError, match="not adjacent"):
        facing_between(ORIGIN, ORIGIN)


def test_relative_direction() -> None:
    assert relative_direction(Facing.N, Facing.N) == 0
    assert relative_direction(Facing.N, Facing.SE) == 2
    assert relative_direction(Facing.SE, Facing.N) == 4
    assert relative_direction(Facing.S, Facing.N) == 3
    for f in Facing:
        for k in range(6):
            assert relative_direction(f, turn(f, k)) == k


def test_facing_serialises_as_int() -> None:
    assert msgspec.json.encode([Facing.SW]) == b"[4]"
    assert msgspec.json.decode(b"4", type=Facing) is Facing.SW


# --- Hex value type --------------------------------------------------------


def test_hex_serialises_as_pair() -> None:
    assert msgspec.json.encode(Hex(2, -3)) == b"[2,-3]"
    assert msgspec.json.decode(b"[2,-3]", type=Hex) == Hex(2, -3)
    assert msgspec.to_builtins(Hex(2, -3)) == [2, -3]


def test_hex_is_hashable_value() -> None:
    assert {Hex(1, 2), Hex(1, 2)} == {Hex(1, 2)}
    with pytest.raises(AttributeError):
        Hex(1, 2).q = 3  # type: ignore[misc]


def test_neighbors_in_direction_order() -> None:
    assert ORIGIN.neighbors() == list(DIRECTIONS)
    assert Hex(2, 3).neighbor(7) == Hex(2, 3).neighbor(1)


@pytest.mark.parametrize("radius", [0, 1, 2, 3, 7])
def test_ring_and_spiral(radius: int) -> None:
    centre = Hex(4, -1)
    ring = centre.ring(radius)
    assert len(ring) == max(1, 6 * radius)
    assert len(set(ring)) == len(ring)
    assert all(centre.distance(h) == radius for h in ring)
    assert ring[0] == centre + DIRECTIONS[Facing.N].scale(radius)
    # consecutive ring hexes are adjacent, and the ring closes
    if radius > 0:
        assert all(a.distance(b) == 1 for a, b in zip(ring, ring[1:] + ring[:1], strict=True))
    spiral = centre.spiral(radius)
    assert len(spiral) == 1 + 3 * radius * (radius + 1)
    assert set(spiral) == {h for h in centre.spiral(radius + 1) if centre.distance(h) <= radius}


def test_ring_goes_clockwise() -> None:
    assert ORIGIN.ring(1)[:2] == [DIRECTIONS[Facing.N], DIRECTIONS[Facing.NE]]
    assert ORIGIN.ring(2)[:3] == [Hex(0, -2), Hex(1, -2), Hex(2, -2)]


def test_negative_radius_rejected() -> None:
    with pytest.raises(ValueError):
        ORIGIN.ring(-1)
    with pytest.raises(ValueError):
        ORIGIN.spiral(-1)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == (a - b).length()


@given(hexes)
def test_rotation(h: Hex) -> None:
    r = h
    for _ in range(6):
        r = r.rotate_right()
    assert r == h
    assert h.rotate_left().rotate_right() == h
    assert h.rotate_right().length() == h.length()


# --- lines ----------------------------------------------------------------


@given(hexes, hexes)
def test_linedraw_properties(a: Hex, b: Hex) -> None:
    line = hex_linedraw(a, b)
    assert line[0] == a
    assert line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(p.distance(n) == 1 for p, n in itertools.pairwise(line))
    assert hex_linedraw(b, a) == line[::-1]


def test_linedraw_along_edges_is_deterministic() -> None:
    """Lines exactly along hex edges: the nudge picks the same side every time."""
    # along the six spines (each passes between two hexes)
    assert hex_linedraw(ORIGIN, Hex(2, -1)) == [ORIGIN, Hex(1, 0), Hex(2, -1)]
    assert hex_linedraw(ORIGIN, Hex(1, -2)) == [ORIGIN, Hex(1, -1), Hex(1, -2)]
    assert hex_linedraw(ORIGIN, Hex(-1, -1)) == [ORIGIN, Hex(-1, 0), Hex(-1, -1)]
    assert hex_linedraw(ORIGIN, Hex(1, 1)) == [ORIGIN, Hex(0, 1), Hex(1, 1)]
    assert hex_linedraw(Hex(5, 5), Hex(5, 5)) == [Hex(5, 5)]
    # through the midpoint of an edge between hexes that differ along q - r,
    # a tie that Red Blob's (1, 1, -2) implementation nudge would leave to chance
    line = hex_linedraw(ORIGIN, Hex(1, 9))
    assert line[5:7] == [Hex(0, 5), Hex(1, 5)]
    assert hex_linedraw(Hex(1, 9), ORIGIN) == line[::-1]
    # translating both ends translates the line
    shift = Hex(-7, 3)
    assert hex_linedraw(ORIGIN + shift, Hex(1, 9) + shift) == [h + shift for h in line]


@pytest.mark.parametrize("facing", list(Facing))
def test_straight_line(facing: Facing) -> None:
    start = Hex(2, -3)
    line = straight_line(start, facing, 4)
    assert line == [start + DIRECTIONS[facing].scale(k) for k in (1, 2, 3, 4)]
    assert line == hex_linedraw(start, line[-1])[1:]
    assert straight_line(start, facing, 0) == []
    assert all(in_forward_line(start, facing, h) for h in line)
    assert not in_forward_line(start, facing, start)
    assert not in_forward_line(start, turn(facing, 3), line[0])
    assert not in_forward_line(start, facing, line[1].neighbor(turn(facing, 1)))


@given(hexes, facings, hexes)
def test_in_forward_line_matches_straight_line(origin: Hex, facing: Facing, target: Hex) -> None:
    expected = target in straight_line(origin, facing, origin.distance(target))
    assert in_forward_line(origin, facing, target) == expected
    if expected:
        assert sextant(origin, facing, target) == 0


# --- sextants and arcs --------------------------------------------------------


def test_sextant_of_each_direction_line() -> None:
    for facing in Facing:
        for k in range(6):
            for n in (1, 2, 5):
                target = Hex(1, 1) + DIRECTIONS[turn(facing, k)].scale(n)
                assert sextant(Hex(1, 1), facing, target) == k
                assert closed_sextants(Hex(1, 1), facing, target) == {k}


# Facing north, the six spines (hex-corner lines, 30 degrees off each direction)
# and the two sextants either side of each, with the one the border goes to.
SPINES = [
    (Hex(1, -2), {0, 1}, 0),  # 30 degrees right of the bow
    (Hex(2, -1), {1, 2}, 1),  # exactly abeam, right
    (Hex(1, 1), {2, 3}, 2),  # 30 degrees right of astern
    (Hex(-1, 2), {3, 4}, 4),  # 30 degrees left of astern
    (Hex(-2, 1), {4, 5}, 5),  # exactly abeam, left
    (Hex(-1, -1), {5, 0}, 0),  # 30 degrees left of the bow
]


@pytest.mark.parametrize(("offset", "either", "chosen"), SPINES)
@pytest.mark.parametrize("facing", list(Facing))
@pytest.mark.parametrize("n", [1, 3])
def test_border_goes_to_the_sextant_nearer_the_front(
    offset: Hex, either: set[int], chosen: int, facing: Facing, n: int
) -> None:
    origin = Hex(-2, 5)
    rotated = offset.scale(n)
    for _ in range(facing):
        rotated = rotated.rotate_right()
    target = origin + rotated
    assert closed_sextants(origin, facing, target) == either
    assert sextant(origin, facing, target) == chosen


def test_sextant_counts_on_a_ring() -> None:
    """Ring 2: six hexes on direction lines, six on borders (given forwards)."""
    counts = [0] * 6
    for h in ORIGIN.ring(2):
        counts[sextant(ORIGIN, Facing.N, h)] += 1
    assert counts == [3, 2, 2, 1, 2, 2]


def test_sextant_of_own_hex_is_an_error() -> None:
    with pytest.raises(ValueError):
        sextant(ORIGIN, Facing.N, ORIGIN)
    with pytest.raises(ValueError):
        closed_sextants(ORIGIN, Facing.N, ORIGIN)


@given(hexes, facings, hexes)
def test_sextant_properties(origin: Hex, facing: Facing, target: Hex) -> None:
    if target == origin:
        return
    k = sextant(origin, facing, target)
    closed = closed_sextants(origin, facing, target)
    assert k in closed
    assert len(closed) in (1, 2)
    if len(closed) == 2:
        a, b = sorted(closed)
        assert (b - a) % 6 in (1, 5)  # neighbouring sextants
    # turning the whole picture about the origin changes nothing
    d = target - origin
    assert sextant(origin, turn(facing, 1), origin + d.rotate_right()) == k
    # turning only the facing moves the target one sextant anticlockwise, off borders
    if len(closed) == 1:
        assert sextant(origin, turn(facing, 1), target) == (k - 1) % 6
    # mirror image across the facing's axis (facing north: (q, r, s) -> (-q, -s, -r))
    north = d
    for _ in range(facing):
        north = north.rotate_left()
    mirrored = Hex(-north.q, -north.s)
    assert sextant(ORIGIN, Facing.N, mirrored) == (-sextant(ORIGIN, Facing.N, north)) % 6


@pytest.mark.parametrize(
    ("target", "forward", "front", "rear"),
    [
        (Hex(0, -3), True, True, False),  # dead ahead
        (Hex(1, -2), True, True, False),  # border 0|1 goes forward
        (Hex(-1, -1), True, True, False),  # border 5|0 goes forward
        (Hex(1, -1), False, True, False),  # ahead-right direction line
        (Hex(2, -2), False, True, False),
        (Hex(2, -1), False, True, False),  # exactly abeam counts in the front half
        (Hex(-2, 1), False, True, False),
        (Hex(1, 0), False, False, False),  # behind-right
        (Hex(1, 1), False, False, False),  # border 2|3 goes to 2, not astern
        (Hex(-1, 2), False, False, False),  # border 3|4 goes to 4
        (Hex(0, 2), False, False, True),  # dead astern
        (Hex(1, 3), False, False, True),  # astern, off the line
    ],
)
def test_in_arc_facing_north(target: Hex, forward: bool, front: bool, rear: bool) -> None:
    assert in_arc(ORIGIN, Facing.N, target, FORWARD_ARC) == forward
    assert in_arc(ORIGIN, Facing.N, target, FRONT_ARC) == front
    assert in_arc(ORIGIN, Facing.N, target, REAR_ARC) == rear
    assert in_arc(ORIGIN, Facing.N, target, ALL_ROUND)


def test_in_arc_other_facing_and_origin() -> None:
    origin = Hex(3, -1)
    # facing SE, straight ahead is +q
    assert in_arc(origin, Facing.SE, Hex(7, -1), FORWARD_ARC)
    assert not in_arc(origin, Facing.SE, Hex(-1, -1), FRONT_ARC)
    assert in_arc(origin, Facing.SE, Hex(-1, -1), REAR_ARC)
    assert in_arc(origin, Facing.SE, Hex(-1, -1), {3})


@given(hexes, facings, hexes)
def test_arc_sizes(origin: Hex, facing: Facing, target: Hex) -> None:
    assert in_arc(origin, facing, target, ALL_ROUND)
    if in_arc(origin, facing, target, FORWARD_ARC):
        assert in_arc(origin, facing, target, FRONT_ARC)
    if target != origin:
        assert not (
            in_arc(origin, facing, target, FRONT_ARC) and in_arc(origin, facing, target, REAR_ARC)
        )


def test_arc_front_half_count() -> None:
    """Facing north, the front 180 degrees is every hex above the abeam line, plus it.

    On a flat layout a hex's centre is at y = sqrt(3) * (q / 2 + r), so "above" is
    q + 2r < 0 and exactly abeam is q + 2r == 0.
    """
    area = [h for h in ORIGIN.spiral(6) if h != ORIGIN]
    inside = {h for h in area if in_arc(ORIGIN, Facing.N, h, FRONT_ARC)}
    assert inside == {h for h in area if h.q + 2 * h.r <= 0}
    astern = {h for h in area if in_arc(ORIGIN, Facing.N, h, REAR_ARC)}
    # strictly inside the 60-degree cone astern: the border spines go to the sides
    assert astern == {h for h in area if h.s < h.q < h.r}


def test_in_arc_edge_cases() -> None:
    assert in_arc(ORIGIN, Facing.N, ORIGIN, FORWARD_ARC)
    assert not in_arc(ORIGIN, Facing.N, ORIGIN, frozenset())
    assert not in_arc(ORIGIN, Facing.N, Hex(0, -1), set())
    with pytest.raises(ValueError):
        in_arc(ORIGIN, Facing.N, Hex(0, -1), {6})


# --- layout ----------------------------------------------------------------


def test_hex_to_pixel_known_values() -> None:
    layout = Layout(FLAT, Vec2(10.0, 10.0), Vec2(100.0, 50.0))
    assert layout.hex_to_pixel(ORIGIN) == Vec2(100.0, 50.0)
    north = layout.hex_to_pixel(Hex(0, -1))
    assert north.x == pytest.approx(100.0)
    assert north.y == pytest.approx(50.0 - 10.0 * math.sqrt(3.0))
    pointy = Layout(POINTY, Vec2(10.0, 10.0), Vec2(0.0, 0.0))
    east = pointy.hex_to_pixel(Hex(1, 0))
    assert (east.x, east.y) == pytest.approx((10.0 * math.sqrt(3.0), 0.0))


@pytest.mark.parametrize("orientation", [FLAT, POINTY])
def test_polygon_corners(orientation: object) -> None:
    assert orientation is FLAT or orientation is POINTY
    layout = Layout(orientation, Vec2(12.0, 12.0), Vec2(5.0, -3.0))
    for h in ORIGIN.spiral(3):
        centre = layout.hex_to_pixel(h)
        corners = layout.polygon_corners(h)
        assert len(corners) == 6
        assert all(c.distance(centre) == pytest.approx(12.0) for c in corners)
        # a point just inside each corner belongs to this hex
        for c in corners:
            assert layout.hex_at(centre + (c - centre) * 0.95) == h


def test_flat_hexes_have_a_flat_top() -> None:
    corners = Layout(FLAT, Vec2(1.0, 1.0)).polygon_corners(ORIGIN)
    top = min(c.y for c in corners)
    assert top == pytest.approx(-math.sqrt(3.0) / 2)
    assert sum(1 for c in corners if c.y == pytest.approx(top)) == 2


def test_layout_serialises() -> None:
    layout = Layout(FLAT, Vec2(10.0, 10.0), Vec2(1.0, 2.0))
    assert msgspec.json.decode(msgspec.json.encode(layout), type=Layout) == layout
