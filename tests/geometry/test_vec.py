"""Free-table geometry: vectors, poses, arcs, table edges, bases and paths."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dogfight.geometry import (
    EPSILON,
    Arc,
    Pose,
    Table,
    Vec2,
    approach_point,
    edge_distance,
    in_contact,
    normalise_angle,
    overlaps,
    path_length,
    point_along,
)

ORIGIN = Vec2(0.0, 0.0)


def close(a: Vec2, b: Vec2, tol: float = 1e-9) -> bool:
    return abs(a.x - b.x) <= tol and abs(a.y - b.y) <= tol


# --- Vec2 -----------------------------------------------------------------


def test_vec_arithmetic() -> None:
    a, b = Vec2(1.0, 2.0), Vec2(3.0, -5.0)
    assert a + b == Vec2(4.0, -3.0)
    assert a - b == Vec2(-2.0, 7.0)
    assert a * 2.5 == Vec2(2.5, 5.0)


def test_vec_length_and_distance() -> None:
    assert Vec2(3.0, 4.0).length() == pytest.approx(5.0)
    assert Vec2(1.0, 1.0).distance(Vec2(4.0, 5.0)) == pytest.approx(5.0)
    assert ORIGIN.length() == 0.0


@pytest.mark.parametrize(
    ("vec", "degrees"),
    [(Vec2(1, 0), 0.0), (Vec2(0, 1), 90.0), (Vec2(-1, 0), 180.0), (Vec2(0, -1), -90.0)],
)
def test_vec_angle_is_anticlockwise_from_x(vec: Vec2, degrees: float) -> None:
    assert vec.angle() == pytest.approx(degrees)


def test_polar() -> None:
    assert close(Vec2.polar(2.0, 0.0), Vec2(2.0, 0.0))
    assert close(Vec2.polar(2.0, 90.0), Vec2(0.0, 2.0))
    assert close(Vec2.polar(2.0, 180.0), Vec2(-2.0, 0.0))
    v = Vec2.polar(3.0, 30.0)
    assert v.length() == pytest.approx(3.0)
    assert v.angle() == pytest.approx(30.0)


def test_rotated_is_anticlockwise() -> None:
    assert close(Vec2(1.0, 0.0).rotated(90.0), Vec2(0.0, 1.0))
    assert close(Vec2(1.0, 0.0).rotated(-90.0), Vec2(0.0, -1.0))
    assert close(Vec2(2.0, 1.0).rotated(180.0), Vec2(-2.0, -1.0))


def test_rounded() -> None:
    assert Vec2(1.234567, -2.000049).rounded(4) == Vec2(1.2346, -2.0)


def test_vec_is_immutable() -> None:
    v = Vec2(1.0, 2.0)
    with pytest.raises(AttributeError):
        v.x = 3.0  # type: ignore[misc]


coords = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False)
angles = st.floats(min_value=-1e5, max_value=1e5, allow_nan=False)


@given(coords, coords, angles)
def test_rotated_preserves_length(x: float, y: float, degrees: float) -> None:
    v = Vec2(x, y)
    assert v.rotated(degrees).length() == pytest.approx(v.length(), rel=1e-9, abs=1e-9)


# --- normalise_angle ------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        (0.0, 0.0),
        (180.0, 180.0),
        (-180.0, 180.0),
        (540.0, 180.0),
        (-540.0, 180.0),
        (360.0, 0.0),
        (270.0, -90.0),
        (-270.0, 90.0),
        (181.0, -179.0),
        (-179.0, -179.0),
        (725.0, 5.0),
    ],
)
def test_normalise_angle_cases(raw: float, folded: float) -> None:
    assert normalise_angle(raw) == pytest.approx(folded)


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_normalise_angle_range_and_congruence(degrees: float) -> None:
    a = normalise_angle(degrees)
    assert -180.0 < a <= 180.0
    remainder = (degrees - a) % 360.0
    assert min(remainder, 360.0 - remainder) < 1e-6


# --- Pose -----------------------------------------------------------------


def test_pose_forward_follows_heading() -> None:
    pose = Pose(Vec2(1.0, 1.0), 90.0)
    moved = pose.forward(3.0)
    assert close(moved.position, Vec2(1.0, 4.0))
    assert moved.heading == 90.0
    assert close(Pose(ORIGIN, 45.0).forward(math.sqrt(2)).position, Vec2(1.0, 1.0))


def test_pose_turned_is_normalised() -> None:
    assert Pose(ORIGIN, 170.0).turned(20.0).heading == pytest.approx(-170.0)
    assert Pose(ORIGIN, 0.0).turned(-90.0).heading == pytest.approx(-90.0)


@pytest.mark.parametrize(
    ("target", "bearing"),
    [
        (Vec2(5.0, 5.0), 0.0),  # dead ahead (pose faces north from (5, 0))
        (Vec2(0.0, 5.0), 45.0),  # ahead and to port
        (Vec2(0.0, 0.0), 90.0),  # abeam to port (west of a north-facing pose)
        (Vec2(10.0, 0.0), -90.0),  # abeam to starboard
        (Vec2(10.0, 5.0), -45.0),  # ahead and to starboard
        (Vec2(5.0, -5.0), 180.0),  # dead astern
    ],
)
def test_bearing_to(target: Vec2, bearing: float) -> None:
    pose = Pose(Vec2(5.0, 0.0), 90.0)
    assert pose.bearing_to(target) == pytest.approx(bearing)


def test_bearing_to_own_position_is_zero() -> None:
    assert Pose(Vec2(2.0, 2.0), 33.0).bearing_to(Vec2(2.0, 2.0)) == 0.0


def test_bearing_astern_is_180_not_minus_180() -> None:
    # Heading east, target due west: the range is (-180, 180], so +180.
    assert Pose(ORIGIN, 0.0).bearing_to(Vec2(-4.0, 0.0)) == 180.0


# --- Arc ------------------------------------------------------------------


def test_forward_arc_borders_inclusive() -> None:
    front = Arc(-45.0, 45.0)
    assert front.width == 90.0
    for inside in (0.0, 45.0, -45.0, 44.9, -44.9):
        assert front.contains(inside), inside
    for outside in (46.0, -46.0, 90.0, 180.0, -135.0):
        assert not front.contains(outside), outside


def test_arc_wrapping_through_180() -> None:
    rear = Arc(135.0, 225.0)
    for inside in (180.0, -170.0, 170.0, 135.0, -135.0):
        assert rear.contains(inside), inside
    for outside in (0.0, 90.0, -90.0, 134.0, -134.0):
        assert not rear.contains(outside), outside


def test_arc_with_end_below_start_wraps_anticlockwise() -> None:
    # "From 315 anticlockwise to 45" is the same 90-degree forward arc.
    front = Arc(315.0, 45.0)
    assert front.width == 90.0
    assert front.contains(0.0)
    assert front.contains(45.0)
    assert front.contains(-45.0)
    assert not front.contains(46.0)
    assert not front.contains(180.0)


@pytest.mark.parametrize("arc", [Arc(-180.0, 180.0), Arc(0.0, 360.0), Arc(10.0, 400.0)])
def test_full_circle_arc_contains_everything(arc: Arc) -> None:
    for bearing in (0.0, 180.0, -179.9, 90.0, -90.0, 12.5):
        assert arc.contains(bearing)


def test_arc_border_tolerance_is_tiny() -> None:
    front = Arc(-45.0, 45.0)
    assert front.contains(45.0 + EPSILON / 2)
    assert not front.contains(45.0 + 2 * EPSILON)


# --- Table ----------------------------------------------------------------


def test_table_contains_edges_and_margin() -> None:
    table = Table(48.0, 36.0)
    assert table.contains(Vec2(0.0, 0.0))
    assert table.contains(Vec2(48.0, 36.0))
    assert table.contains(Vec2(24.0, 18.0))
    assert not table.contains(Vec2(-0.1, 10.0))
    assert not table.contains(Vec2(10.0, 36.1))
    assert table.contains(Vec2(1.0, 1.0), margin=1.0)
    assert not table.contains(Vec2(0.5, 10.0), margin=1.0)
    assert not table.contains(Vec2(10.0, 35.5), margin=1.0)
    assert table.contains(Vec2(47.0, 35.0), margin=1.0)


def test_table_clamp() -> None:
    table = Table(48.0, 36.0)
    assert table.clamp(Vec2(-5.0, 40.0)) == Vec2(0.0, 36.0)
    assert table.clamp(Vec2(50.0, -1.0), margin=2.0) == Vec2(46.0, 2.0)
    inside = Vec2(10.0, 10.0)
    assert table.clamp(inside, margin=2.0) == inside
    assert table.contains(table.clamp(Vec2(100.0, 100.0), margin=3.0), margin=3.0)


# --- bases ----------------------------------------------------------------


def test_bases_apart() -> None:
    a, b = Vec2(0.0, 0.0), Vec2(5.0, 0.0)
    assert edge_distance(a, 1.0, b, 1.5) == pytest.approx(2.5)
    assert not in_contact(a, 1.0, b, 1.5)
    assert not overlaps(a, 1.0, b, 1.5)


def test_bases_touching() -> None:
    a, b = Vec2(0.0, 0.0), Vec2(3.0, 4.0)  # 5 apart
    assert edge_distance(a, 2.0, b, 3.0) == 0.0
    assert in_contact(a, 2.0, b, 3.0)
    assert not overlaps(a, 2.0, b, 3.0)


def test_bases_overlapping() -> None:
    a, b = Vec2(0.0, 0.0), Vec2(2.0, 0.0)
    assert edge_distance(a, 1.5, b, 1.5) == 0.0
    assert in_contact(a, 1.5, b, 1.5)
    assert overlaps(a, 1.5, b, 1.5)


# --- paths ----------------------------------------------------------------

L_PATH = [Vec2(0.0, 0.0), Vec2(4.0, 0.0), Vec2(4.0, 3.0)]


def test_path_length_l_shape() -> None:
    assert path_length(L_PATH) == pytest.approx(7.0)
    assert path_length([Vec2(1.0, 1.0)]) == 0.0


@pytest.mark.parametrize(
    ("distance", "point", "heading"),
    [
        (0.0, Vec2(0.0, 0.0), 0.0),
        (2.0, Vec2(2.0, 0.0), 0.0),
        (4.0, Vec2(4.0, 0.0), 0.0),
        (5.0, Vec2(4.0, 1.0), 90.0),
        (7.0, Vec2(4.0, 3.0), 90.0),
        (10.0, Vec2(4.0, 3.0), 90.0),  # past the end: stays at the last point
    ],
)
def test_point_along_l_shape(distance: float, point: Vec2, heading: float) -> None:
    where, facing = point_along(L_PATH, distance)
    assert close(where, point)
    assert facing == pytest.approx(heading)


def test_point_along_skips_zero_length_segments() -> None:
    path = [Vec2(0.0, 0.0), Vec2(0.0, 0.0), Vec2(0.0, 2.0)]
    where, facing = point_along(path, 1.0)
    assert close(where, Vec2(0.0, 1.0))
    assert facing == pytest.approx(90.0)


def test_point_along_single_point() -> None:
    assert point_along([Vec2(3.0, 3.0)], 5.0) == (Vec2(3.0, 3.0), 0.0)


# --- approach_point -------------------------------------------------------


def test_approach_stops_short_of_target() -> None:
    end = approach_point(ORIGIN, Vec2(10.0, 0.0), stop_at=2.0, budget=20.0)
    assert close(end, Vec2(8.0, 0.0))


def test_approach_limited_by_budget() -> None:
    end = approach_point(ORIGIN, Vec2(0.0, 10.0), stop_at=2.0, budget=3.0)
    assert close(end, Vec2(0.0, 3.0))


def test_approach_already_close_does_not_move() -> None:
    start = Vec2(1.0, 1.0)
    assert approach_point(start, Vec2(2.0, 1.0), stop_at=2.0, budget=5.0) == start


def test_approach_diagonal() -> None:
    end = approach_point(ORIGIN, Vec2(6.0, 8.0), stop_at=5.0, budget=100.0)
    assert close(end, Vec2(3.0, 4.0))
    assert end.distance(Vec2(6.0, 8.0)) == pytest.approx(5.0)
