"""One boundary per rule: the engine and the computer player draw the line at the same
place, because both call the same rule function (issue 12).

Before, the engine took a model beyond close range when `dist > close + 1e-3` and the
player's outlook when `dist > close`: at a hair over 10" they disagreed on stealth.
"""

from __future__ import annotations

import pytest

from dogfight.core.game import Game
from dogfight.core.seat import Seat
from dogfight.geometry import Pose, Vec2
from dogfight.rulesets.evo.heuristic import View
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.shooting import on_my_six, target_score

from .builders import activate, ctx_of, custom_unit, flight, make_game

SHADOW = custom_unit("shadow", target="4-6", save=5, kill=6)
"""Target 4, stealth Target 6 beyond close range (EVO-STL-1)."""
DUCK = custom_unit("duck", weapons=[{"name": "Gun", "range": 24, "dice": 1, "die": 6}])
CLOSE = 10.0


def position(gap: float) -> Game:
    """Blue's F, active, `gap` inches straight behind Red's T (on its six if close)."""
    game = make_game(
        flight(0, "duck", 4, 24, id="F"),
        flight(1, "shadow", 30, 24, id="T"),
        custom_units=[DUCK, SHADOW],
    )
    activate(game, "F")
    target = game.state.models["T.1"]
    firer = game.state.models["F.1"]
    firer.pose = Pose(target.pose.position - Vec2(gap, 0.0), 0.0)
    return game


def heuristic_value(game: Game) -> float:
    seat = Seat.of(game)
    view = View(seat.state(), seat.ruleset.rules, {})  # type: ignore[attr-defined]
    me, target = view.crafts["F.1"], view.crafts["T.1"]
    value = view.shot_value(
        "Blue", me.kind, [me], target, [target], ignore_arcs=False, locked="", reaction=False
    )
    assert value is not None
    return value


@pytest.mark.parametrize(
    ("gap", "close"),
    [(9.99, True), (10.0, True), (10.0005, True), (10.01, False), (12.0, False)],
)
def test_EVO_STL_1_EVO_SIX_1_one_close_range_boundary(gap: float, close: bool) -> None:
    """EVO-STL-1, EVO-SIX-1, EVO-CLS-1: within close range (borders included, to the
    engine's tolerance) no stealth and on the six; beyond it stealth and no six, for the
    rule function, the engine and the heuristic alike."""
    rules = EvoRules()
    assert rules.within_close(gap, CLOSE) is close
    game = position(gap)
    ctx = ctx_of(game)
    target, firer = game.state.models["T.1"], game.state.models["F.1"]
    assert target_score(ctx, target, [firer]) == (4 if close else 6)
    assert on_my_six(ctx, target, [firer]) is close
    # The player prices the shot as the engine resolves it: as at 10" inside the
    # boundary, as at 12" beyond it.
    inside, outside = heuristic_value(position(10.0)), heuristic_value(position(12.0))
    assert inside > outside
    assert heuristic_value(game) == pytest.approx(inside if close else outside)
