"""Board shapes: arcs turned into board wedges, clipped envelopes, hit tests."""

from __future__ import annotations

import math

from dogfight.core.scene import shapes as S


def test_an_arc_to_port_is_drawn_to_the_left_of_the_facing() -> None:
    # A unit facing east on the board (90); its port half (bearings 0..180 anticlockwise)
    # is north of it on the board, that is the sweep 270..450 clockwise.
    arc = S.arc_wedge(10, 10, 5, 90.0, 0.0, 180.0, "arc", "port half")
    assert (arc["start"], arc["end"]) == (270.0, 450.0)
    assert S.contains(arc, 10, 6)  # north of the unit (y down)
    assert not S.contains(arc, 10, 14)
    assert not S.contains(arc, 10, 3.5)  # beyond the range


def test_a_full_arc_is_a_circle() -> None:
    arc = S.arc_wedge(0, 0, 3, 42.0, -180.0, 180.0, "arc", "turret")
    assert arc["kind"] == "circle" and arc["r"] == 3


def test_a_clipped_circle_covers_the_circle_on_the_box_and_nothing_off_it() -> None:
    ring = S.circle_polygon(1.0, 5.0, 4.0, (0.0, 0.0, 48.0, 48.0))
    shape = S.polygon(ring, "envelope")
    assert all(x >= -1e-9 and y >= -1e-9 for x, y in ring)
    for i in range(72):
        a = 2 * math.pi * i / 72
        x, y = 1.0 + 4.0 * math.cos(a), 5.0 + 4.0 * math.sin(a)
        on_table = 0 <= x <= 48 and 0 <= y <= 48
        assert S.contains(shape, x, y) == on_table, (x, y)
    assert not S.contains(shape, 1.0, 9.2)
    assert not S.contains(shape, -0.5, 5.0)


def test_facings_and_headings_are_inverse() -> None:
    for facing in (0.0, 10.0, 90.0, 180.0, 270.0, 359.0):
        assert S.board_facing(S.table_heading(facing)) == facing
