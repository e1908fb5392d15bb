"""The evo spatial index (issue 13): the grid answers as a walk over every model does.

The engine asks the grid which bases may overlap a placement, which enemies may be in
reach of a Shoot and which enemy is nearest; the heuristic asks its point grids which
crafts can count. Each must hold at least every model a brute-force walk finds, and the
engine must keep the grid in step with every move, loss and arrival.
"""

from __future__ import annotations

import math
import random

from dogfight.core.game import Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.geometry import Vec2
from dogfight.rulesets.evo.actions import Shoot
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.shooting import Reach, firing_dice
from dogfight.rulesets.evo.spatial import (
    Grid,
    PointGrid,
    known_grid,
    nearest_of_side,
)
from dogfight.rulesets.evo.state import EvoState, id_order

TYPES = ["starfury-aurora", "frazi", "razik", "starfury-nova"]


def crowd(flights: int, size: float = 100.0, turn_limit: int = 3) -> Game:
    """`flights` flights of 4 a side on a `size`-inch table, facing each other."""
    rows = int((size - 8) // 12)
    sides = []
    for s in range(2):
        units = []
        for i in range(flights):
            col, row = divmod(i, rows)
            x = 6 + 8 * col if s == 0 else size - 6 - 8 * col
            units.append(
                {
                    "id": f"{'AB'[s]}{i + 1}",
                    "type": TYPES[(i + s) % len(TYPES)],
                    "models": 4,
                    "at": [x, 6 + 12 * row],
                    "heading": 0 if s == 0 else 180,
                }
            )
        sides.append({"name": ["Left", "Right"][s], "units": units})
    raw = {
        "name": "crowd",
        "ruleset": "evo",
        "title": "crowd",
        "table": {"width": size, "height": size},
        "turn_limit": turn_limit,
        "sides": sides,
    }
    return Game(scenario_from_raw(raw, "crowd"), seed=3)


def scatter(state: EvoState, rng: random.Random) -> None:
    """Put every model somewhere at random (a test may; the engine never does)."""
    for model in state.models.values():
        pos = Vec2(rng.uniform(-5, 105), rng.uniform(-5, 105))
        model.pose = type(model.pose)(pos, rng.uniform(0, 360))


def test_grid_box_holds_every_model_a_walk_finds() -> None:
    """Over random positions and boxes, the grid returns every model in the box."""
    rng = random.Random(1)
    state = crowd(10).state
    for _ in range(20):
        scatter(state, rng)
        grid = Grid(state.models)
        for _ in range(20):
            x0, y0 = rng.uniform(-10, 100), rng.uniform(-10, 100)
            x1, y1 = x0 + rng.uniform(0, 40), y0 + rng.uniform(0, 40)
            found = {m.id for m in grid.in_box(x0, y0, x1, y1)}
            walk = {
                m.id
                for m in state.models.values()
                if x0 <= m.pose.position.x <= x1 and y0 <= m.pose.position.y <= y1
            }
            assert walk <= found
    assert Grid(state.models).in_box(5, 5, 1, 1) == []  # an empty box
    assert len(Grid(state.models).in_box(-math.inf, 0, 1, 1)) == len(state.models)


def test_nearest_enemy_is_the_one_a_walk_finds() -> None:
    """EVO-MOV-2's aim at the nearest enemy: the grid's answer is the walk's, ties to
    the lower id."""
    rng = random.Random(2)
    game = crowd(8)
    state = game.state
    for _ in range(30):
        scatter(state, rng)
        at = Vec2(rng.uniform(0, 100), rng.uniform(0, 100))
        for side in state.sides:
            enemies = [m for m in state.models.values() if state.flights[m.unit].side == side]
            best = min(enemies, key=lambda m: (m.pose.position.distance(at), m.id))
            # A scattered state: forget any grid it had, as a fresh position would.
            fresh = state.clone()
            assert nearest_of_side(fresh, at, side) is fresh.models[best.id]


def test_engine_keeps_the_grid_in_step_with_every_move() -> None:
    """Through seeded random play (drifts, manoeuvres, losses, models leaving the
    table), the position's grid always files every model where a new grid would."""
    game = crowd(6, size=60.0, turn_limit=6)
    rng = random.Random(5)
    checked = shots = 0
    while not game.is_over():
        legal = game.legal_actions()
        state = game.state
        if state.phase == "act":
            # EVO-SHT-1: the Shoots offered are every enemy model some weapon bears on.
            flight = state.flights[state.active_unit]
            walk = [
                m.id
                for f in state.live_flights(state.other(flight.side))
                for m in state.models_of(f)
                if firing_dice(game.ruleset.ctx(state), flight, m, reaction=False)[1]
            ]
            assert [a.target for a in legal if isinstance(a, Shoot)] == walk
            shots += bool(walk)
        game.apply(rng.choice(legal))
        grid = known_grid(game.state)
        if grid is not None:
            assert grid.where == Grid(game.state.models).where
            checked += 1
    assert checked > 50 and shots > 5
    assert any(e.clause in ("EVO-DMG-1", "EVO-DMG-2", "EVO-MOV-4") for e in game.events)


def test_point_grid_gives_indices_in_order() -> None:
    """The heuristic's grid returns, in ascending order, every point in the box."""
    rng = random.Random(3)
    for _ in range(50):
        points = [(rng.uniform(0, 90), rng.uniform(0, 90)) for _ in range(rng.randint(0, 60))]
        grid = PointGrid(points, rng.uniform(2, 30))
        x0, y0 = rng.uniform(-10, 90), rng.uniform(-10, 90)
        x1, y1 = x0 + rng.uniform(0, 50), y0 + rng.uniform(0, 50)
        found = grid.in_box(x0, y0, x1, y1)
        assert found == sorted(set(found))
        walk = {i for i, (x, y) in enumerate(points) if x0 <= x <= x1 and y0 <= y <= y1}
        assert walk <= set(found)


def test_reach_box_holds_every_model_within_reach() -> None:
    """EVO-SHT-1, EVO-CLS-1: a model within `reach_limit` of one of the box's models is
    in the box, and the limit is the last distance range, close range and zone accept."""
    rng = random.Random(4)
    rules = EvoRules()
    state = crowd(6).state
    for _ in range(20):
        scatter(state, rng)
        models = list(state.models.values())
        group = rng.sample(models, 4)
        reach = rng.uniform(1, 30)
        box = Reach(group, rules.reach_limit(reach))
        for m in models:
            if any(rules.in_range(m.pose.position.distance(g.pose.position), reach) for g in group):
                assert box.holds(m)
    for reach in (2.0, 6.0, 12.0, 24.0):
        limit = rules.reach_limit(reach)
        assert rules.in_range(limit, reach) and rules.within_close(limit, reach)
        assert rules.in_zone(limit, reach)
        beyond = limit + 1e-7
        assert not rules.in_range(beyond, reach) and not rules.within_close(beyond, reach)
        assert not rules.in_zone(beyond, reach)
    assert not Reach([], 5.0).holds(models[0])


def test_flights_come_in_id_order() -> None:
    """live_flights (the order of legal actions) is id order, as a sort gives."""
    state = crowd(12).state
    assert list(id_order(state.flights)) == sorted(state.flights)
    assert [f.id for f in state.live_flights()] == sorted(state.flights)
