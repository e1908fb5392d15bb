"""The fighter grid answers the overlap question as the scan over every fighter does
(ACTA-FTR-3: no stacking), over random positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dogfight.core import Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.geometry import Pose, Vec2
from dogfight.rulesets.acta.movement import free_spot_near, overlapping_fighter
from dogfight.rulesets.acta.spatial import FighterGrid
from dogfight.rulesets.acta.state import ActaState

from .builders import scenario_raw, unit

TYPES = ("wasp", "hummingbird", "zaresh", "zul")
coord = st.floats(min_value=0.0, max_value=12.0, allow_nan=False).map(lambda v: round(v, 2))
point = st.tuples(coord, coord)


def crowded(spots: list[tuple[float, float]]) -> ActaState:
    """A position with one fighter (or a ship, every fifth) at each spot, bases allowed
    to overlap: the grid must answer for any position the state can hold."""
    units = [
        unit(
            i % 2,
            "sky-dragon" if i % 5 == 4 else TYPES[i % 4],
            4 + (i % 10) * 3,
            4 + (i // 10) * 8,
            id=f"U{i}",
        )
        for i in range(len(spots))
    ]
    state: ActaState = Game(scenario_from_raw(scenario_raw(*units), "test"), seed=1).state
    for uid, (x, y) in zip(sorted(state.units, key=lambda u: int(u[1:])), spots, strict=True):
        state.units[uid].pose = Pose(Vec2(x, y), 0.0)
    return state


@settings(max_examples=150, deadline=None)
@given(st.lists(point, min_size=2, max_size=30), st.lists(point, min_size=1, max_size=20))
def test_acta_ftr_3_grid_names_the_fighter_the_scan_names(
    spots: list[tuple[float, float]], queries: list[tuple[float, float]]
) -> None:
    """ACTA-FTR-3: for every unit and spot, the grid names the same overlapped fighter
    (the first in unit order) as the scan over every fighter, or none."""
    state = crowded(spots)
    grid = FighterGrid(state)
    units = list(state.units.values())
    for k, (x, y) in enumerate(queries):
        mover = units[k % len(units)]
        ignore = (units[(k + 1) % len(units)].id,) if k % 3 == 0 else ()
        at = Vec2(x, y)
        expected = overlapping_fighter(state, mover, at, ignore)
        assert overlapping_fighter(state, mover, at, ignore, grid) is expected


@settings(max_examples=60, deadline=None)
@given(st.lists(point, min_size=2, max_size=25), point, st.floats(0.0, 3.0), st.floats(0, 360))
def test_acta_ftr_3_free_spot_is_the_same_with_the_grid(
    spots: list[tuple[float, float]], centre: tuple[float, float], distance: float, prefer: float
) -> None:
    """ACTA-FTR-3: the free spot near a point is the same found through the grid."""
    state = crowded(spots)
    grid = FighterGrid(state)
    mover = next(iter(state.units.values()))
    at = Vec2(*centre)
    assert free_spot_near(state, mover, at, distance, prefer) == free_spot_near(
        state, mover, at, distance, prefer, grid=grid
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(point, min_size=2, max_size=30))
def test_acta_dog_1_grid_finds_the_locked_fighters(spots: list[tuple[float, float]]) -> None:
    """ACTA-DOG-1: a fighter touching an enemy fighter is locked; the grid finds the
    same fighters locked as the scan over every unit."""
    state = crowded(spots)
    grid = FighterGrid(state)
    for fighter in state.fighters():
        assert grid.touching_enemy(fighter, state.radius(fighter)) is state.engaged(fighter)
