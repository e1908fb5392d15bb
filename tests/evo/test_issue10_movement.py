"""Issue 10, evo items 9 and 10: facing changes only through manoeuvres (EVO-MOV-3), and
a net move too short to have a direction keeps the old facing (EVO-MOV-3, option
`course_min_move`).

Each test builds a position, plays it through the Game API and checks the facing against
the clause in data/evo/rules.md.
"""

from __future__ import annotations

import math

import pytest

from dogfight.geometry import Vec2

from .builders import activate, custom_unit, end, flight, heading, make_game, manoeuvre, xy

DUCK = custom_unit("duck", weapons=[], models=1)
RACER = custom_unit("racer", weapons=[], models=1, agility=6)
"""Agility 6: one manoeuvre can undo the whole drift."""


def test_EVO_MOV_3_drift_stopped_at_the_edge_keeps_the_heading() -> None:
    """EVO-MOV-3: the facing changes only through manoeuvres. Under leave_table=stop a
    drift at 45 degrees clamped by the top edge of the table leaves the model facing 45
    (the old engine measured start to clamped end: 35.3)."""
    game = make_game(
        flight(0, "duck", 40, 46, 45, "B"),
        flight(1, "duck", 5, 5, 0, "R"),
        custom_units=[DUCK],
        options={"leave_table": "stop"},
    )
    activate(game, "B")
    x, y = xy(game, "B.1")
    assert y == pytest.approx(48) and x < 40 + 6 * math.cos(math.radians(45)) + 1e-6
    assert heading(game, "B.1") == pytest.approx(45)
    end(game, "B")
    assert heading(game, "B.1") == pytest.approx(45)


def test_EVO_MOV_3_manoeuvre_after_clamped_drift_turns_from_the_start_point() -> None:
    """EVO-MOV-3: a manoeuvre after a clamped drift does turn the model: from its start
    point to where it ends (here straight along +x from (40, 46) to (45.5, 46))."""
    game = make_game(
        flight(0, "racer", 40, 46, 90, "B"),
        flight(1, "duck", 5, 5, 0, "R"),
        custom_units=[RACER, DUCK],
        options={"leave_table": "stop"},
    )
    activate(game, "B")  # drifts up, stops at y = 48 after 2"
    assert heading(game, "B.1") == pytest.approx(90)
    manoeuvre(game, "B", ("B.1", 5.5, -2))
    assert xy(game, "B.1") == pytest.approx((45.5, 46))
    assert heading(game, "B.1") == pytest.approx(0)


def test_EVO_MOV_3_tiny_net_move_keeps_the_old_facing() -> None:
    """EVO-MOV-3 (course_min_move, default 0.5"): a fighter facing -2 degrees drifts 6"
    and manoeuvres almost straight back, ending 0.03" from its start point. That is no
    direction: it keeps facing -2 (the old engine swung it to about 85)."""
    game = make_game(
        flight(0, "racer", 20, 20, -2, "B"),
        flight(1, "duck", 5, 40, 0, "R"),
        custom_units=[RACER, DUCK],
    )
    activate(game, "B")
    x, y = xy(game, "B.1")
    manoeuvre(game, "B", ("B.1", round(20.01 - x, 4), round(20.028 - y, 4)))
    assert math.dist(xy(game, "B.1"), (20, 20)) < 0.031
    assert heading(game, "B.1") == pytest.approx(-2)


def test_EVO_MOV_3_course_min_move_zero_turns_on_any_move() -> None:
    """EVO-MOV-3: with course_min_move=0 the same 0.03" net move sets the facing to its
    direction (about 70 degrees)."""
    game = make_game(
        flight(0, "racer", 20, 20, -2, "B"),
        flight(1, "duck", 5, 40, 0, "R"),
        custom_units=[RACER, DUCK],
        rules={"course_min_move": 0.0},
    )
    activate(game, "B")
    x, y = xy(game, "B.1")
    manoeuvre(game, "B", ("B.1", round(20.01 - x, 4), round(20.028 - y, 4)))
    assert heading(game, "B.1") == pytest.approx(math.degrees(math.atan2(0.028, 0.01)), abs=1)


def test_EVO_MOV_3_threshold_is_one_function() -> None:
    """EVO-MOV-3: a move just past the threshold turns; one at or below it does not."""
    from dogfight.rulesets.evo.rules import EvoRules

    new_heading = EvoRules().new_heading

    start = Vec2(0, 0)
    assert new_heading(start, Vec2(0, 0.5), 10.0, 0.5) == 10.0
    assert new_heading(start, Vec2(0, 0.51), 10.0, 0.5) == pytest.approx(90)
    assert new_heading(start, Vec2(6, 4), 0.0, 0.5) == pytest.approx(33.69, abs=0.01)
