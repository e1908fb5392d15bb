"""Clause tests for EVO movement and command: the drift, manoeuvres, course change (with
the seed's own example), table edges, overlaps, command range and leaders.

Each test builds a position, plays it through the Game API and checks the result against
one clause of data/evo/rules.md (named in the test and docstring).
"""

from __future__ import annotations

import math

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.geometry import Pose, Vec2
from dogfight.rulesets.evo.actions import Manoeuvre, Move, React

from .builders import (
    BLUE,
    activate,
    custom_unit,
    end,
    events,
    fl,
    flight,
    gun,
    heading,
    last,
    make_game,
    manoeuvre,
    model,
    script,
    shoot,
    xy,
)

DUCK = custom_unit("duck", weapons=[], models=1)
TURRET = custom_unit("turret", weapons=[gun(range=18)], models=1)
"""An all-round 18" gun: it can react to anything within 10"."""


def approx(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-3) -> bool:
    return math.dist(a, b) <= tol


# ---- the drift -------------------------------------------------------------------------


@pytest.mark.parametrize("facing", [0, 90, 30, -135])
def test_EVO_MOV_1_drift_is_six_inches_along_the_facing(facing: float) -> None:
    """EVO-MOV-1: on activation every model moves 6" straight ahead along its facing."""
    game = make_game(
        flight(0, "duck", 20, 20, facing, "B", models_at=[(20, 20), (23, 20)]),
        flight(1, "duck", 45, 45, 0, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    step = Vec2.polar(6, facing)
    assert approx(xy(game, "B.1"), (20 + step.x, 20 + step.y))
    assert approx(xy(game, "B.2"), (23 + step.x, 20 + step.y))
    assert heading(game, "B.1") == pytest.approx(facing)
    assert model(game, "B.1").start == Vec2(20, 20)
    assert last(game, "EVO-MOV-1").data["models"] == ["B.1", "B.2"]


def test_EVO_MOV_1_drift_triggers_no_reaction() -> None:
    """EVO-MOV-1: the drift is not an action: drifting to 8" from a Red turret opens no
    reaction; the first action there does."""
    game = make_game(
        flight(0, "duck", 16, 24, 0, "B"),
        flight(1, "turret", 30, 24, 180, "R"),
        custom_units=[DUCK, TURRET],
    )
    activate(game, "B")  # to (22, 24): 8" from R.1
    assert game.state.phase == "act" and game.current_player() == BLUE
    manoeuvre(game, "B", ("B.1", 0, 1))
    assert game.state.phase == "react" and game.current_player() == "Red"


def test_EVO_MOV_1_a_flight_in_line_astern_all_drift_six() -> None:
    """EVO-MOV-1: every model of a flight drifts the full 6", even in line astern 6" apart
    (the leader's end point is where its wingman starts, but the wingman drifts too)."""
    game = make_game(
        flight(0, "duck", 10, 24, 0, "B", models_at=[(10, 24), (16, 24)]),
        flight(1, "duck", 45, 45, 0, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    assert approx(xy(game, "B.2"), (22, 24))
    assert approx(xy(game, "B.1"), (16, 24))


# ---- manoeuvres --------------------------------------------------------------------------


def nova_game(models_at: list[tuple[float, float]] | None = None) -> Game:
    """Blue Novas (Agility 4) at (10, 24) facing +x; a Red duck far off."""
    return make_game(
        flight(0, "starfury-nova", 10, 24, 0, "B", models_at=models_at or [(10, 24)]),
        flight(1, "duck", 40, 24, 0, "R"),
        custom_units=[DUCK],
    )


def test_EVO_MOV_2_up_to_agility_in_any_direction() -> None:
    """EVO-MOV-2: a Manoeuvre moves each model up to its Agility (4" for a Nova): 4" is
    accepted in any direction, 4.1" refused."""
    game = nova_game()
    activate(game, "B")
    with pytest.raises(IllegalAction, match="EVO-MOV-2"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.1", 4.1, 0),)))
    with pytest.raises(IllegalAction, match="EVO-MOV-2"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.1", -3, -3),)))  # 4.24"
    assert game.is_legal(Manoeuvre(unit="B", moves=(Move("B.1", -4, 0),)))
    manoeuvre(game, "B", ("B.1", 2.4, 3.2))  # exactly 4"
    assert approx(xy(game, "B.1"), (18.4, 27.2))


def test_EVO_MOV_2_each_model_its_own_direction_and_two_manoeuvres() -> None:
    """EVO-MOV-2: each model chooses its own direction; a flight may manoeuvre twice."""
    game = nova_game([(10, 24), (10, 27)])
    activate(game, "B")
    manoeuvre(game, "B", ("B.1", 2, 0), ("B.2", 0, 2))
    assert approx(xy(game, "B.1"), (18, 24))
    assert approx(xy(game, "B.2"), (16, 29))
    manoeuvre(game, "B", ("B.1", 4, 0), ("B.2", 4, 0))
    assert approx(xy(game, "B.1"), (22, 24))
    assert approx(xy(game, "B.2"), (20, 29))
    assert heading(game, "B.1") == pytest.approx(0)
    assert heading(game, "B.2") == pytest.approx(math.degrees(math.atan2(2, 10)), abs=0.01)


def test_EVO_MOV_2_no_manoeuvre_after_a_shoot() -> None:
    """EVO-MOV-2: all manoeuvres come before any other action: after a Shoot a Manoeuvre
    is refused."""
    game = make_game(
        flight(0, "starfury-nova", 10, 24, 0, "B", models=1),
        flight(1, "duck", 26, 24, 0, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    script(game, 2, 2)
    shoot(game, "B", "R.1")
    with pytest.raises(IllegalAction, match="EVO-MOV-2"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.1", 0, 2),)))
    assert not any(isinstance(a, Manoeuvre) for a in game.legal_actions())


# ---- course change -------------------------------------------------------------------------


def test_EVO_MOV_3_seed_course_change_example() -> None:
    """EVO-MOV-3, the seed's own example: a fighter facing +x drifts 6" and then manoeuvres
    4" to starboard (its right, -y). Its new facing is the direction from its start point:
    atan2(-4, 6) = -33.7 degrees, about 30 degrees to starboard (the seed says "30")."""
    game = nova_game()
    activate(game, "B")
    assert heading(game, "B.1") == 0
    manoeuvre(game, "B", ("B.1", 0, -4))
    assert approx(xy(game, "B.1"), (16, 20))
    new = heading(game, "B.1")
    assert new < 0, "turned to starboard (clockwise)"
    assert abs(new) == pytest.approx(34, abs=1)
    assert new == pytest.approx(math.degrees(math.atan2(-4, 6)), abs=0.01)
    # The next drift follows the new course.
    end(game, "B")
    activate(game, "R")
    end(game, "R")
    activate(game, "B")
    step = Vec2.polar(6, new)
    assert approx(xy(game, "B.1"), (16 + step.x, 20 + step.y))


def test_EVO_MOV_3_two_manoeuvres_measure_from_the_start_point() -> None:
    """EVO-MOV-3: after each manoeuvre the facing is the direction from the start point
    (before the drift) to where the model now is."""
    game = nova_game()
    activate(game, "B")
    manoeuvre(game, "B", ("B.1", 0, -4))
    manoeuvre(game, "B", ("B.1", 0, -4))
    assert heading(game, "B.1") == pytest.approx(math.degrees(math.atan2(-8, 6)), abs=0.01)


def test_EVO_MOV_3_no_manoeuvre_keeps_the_facing() -> None:
    """EVO-MOV-3 (seed's left-hand fighter): with no manoeuvre the facing is unchanged."""
    game = make_game(
        flight(0, "duck", 20, 20, 120, "B"),
        flight(1, "duck", 45, 45, 0, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    end(game, "B")
    assert heading(game, "B.1") == pytest.approx(120)


def test_EVO_MOV_3_back_at_the_start_point_keeps_the_facing() -> None:
    """EVO-MOV-3: if the model ends where it started (6" drift, then 6" straight back), the
    facing does not change: it stays 90, not the 0 an atan2(0, 0) would give."""
    agile = custom_unit("agile", agility=6, weapons=[], models=1)
    game = make_game(
        flight(0, "agile", 20, 20, 90, "B"),
        flight(1, "duck", 45, 45, 0, "R"),
        custom_units=[agile, DUCK],
    )
    activate(game, "B")
    assert approx(xy(game, "B.1"), (20, 26))
    manoeuvre(game, "B", ("B.1", 0, -6))
    assert approx(xy(game, "B.1"), (20, 20))
    assert heading(game, "B.1") == pytest.approx(90)


# ---- table edge and overlaps ----------------------------------------------------------------


def edge_game(**options: object) -> Game:
    return make_game(
        flight(0, "duck", 44, 24, 0, "B"),
        flight(0, "duck", 10, 10, 0, "C"),
        flight(1, "duck", 10, 40, 180, "R"),
        custom_units=[DUCK],
        options=dict(options),
    )


def test_EVO_MOV_4_leaving_the_table_disengages() -> None:
    """EVO-MOV-4: a model whose centre leaves the table is removed; it counts as disengaged,
    not destroyed."""
    game = edge_game()
    activate(game, "B")  # would end at (50, 24) on a 48" table
    assert "B.1" not in game.state.models
    assert fl(game, "B").disengaged == 1
    assert fl(game, "B").destroyed == 0
    gone = last(game, "EVO-MOV-4")
    assert gone.data["destroyed"] is False
    assert not game.is_over()


def test_EVO_MOV_4_option_stop_at_the_edge() -> None:
    """EVO-MOV-4: leave_table=stop stops the model at the edge instead."""
    game = edge_game(leave_table="stop")
    activate(game, "B")
    assert approx(xy(game, "B.1"), (48, 24))
    assert fl(game, "B").disengaged == 0
    assert events(game, "EVO-MOV-4") == []


def test_EVO_MOV_4_a_centre_on_the_edge_stays() -> None:
    """EVO-MOV-4: only a centre that leaves the table counts: ending exactly on the edge
    keeps the model on the table."""
    game = make_game(
        flight(0, "duck", 42, 24, 0, "B"),
        flight(1, "duck", 10, 40, 180, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    assert approx(xy(game, "B.1"), (48, 24))


def test_EVO_MOV_5_a_model_ending_on_another_base_is_moved_back() -> None:
    """EVO-MOV-5: a drift that would end on another base (centres 0.5" apart, bases 1"
    wide) stops short along its path until clear."""
    game = make_game(
        flight(0, "duck", 10, 24, 0, "B"),
        flight(1, "duck", 16.5, 24, 180, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    x, y = xy(game, "B.1")
    assert y == pytest.approx(24)
    assert math.dist((x, y), (16.5, 24)) >= 1.0 - 1e-3, "no longer overlapping"
    assert 15.3 <= x <= 15.5 + 1e-3, "moved back only as far as needed"
    assert "B.1" in last(game, "EVO-MOV-5").text


def test_EVO_MOV_5_models_pass_through_each_other() -> None:
    """EVO-MOV-5: models may pass through each other: a drift across another base ends the
    full 6" on."""
    game = make_game(
        flight(0, "duck", 10, 24, 0, "B"),
        flight(1, "duck", 13, 24, 180, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    assert approx(xy(game, "B.1"), (16, 24))
    assert events(game, "EVO-MOV-5") == []


def test_EVO_MOV_5_manoeuvre_onto_a_base_stops_short() -> None:
    """EVO-MOV-5: the same holds for a manoeuvre."""
    game = make_game(
        flight(0, "duck", 10, 24, 0, "B"),
        flight(1, "duck", 16, 28, 180, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    manoeuvre(game, "B", ("B.1", 0, 4))
    x, y = xy(game, "B.1")
    assert x == pytest.approx(16)
    assert math.dist((x, y), (16, 28)) >= 1.0 - 1e-3
    assert y < 27.1


# ---- command ---------------------------------------------------------------------------------


def straggler_game() -> Game:
    """Blue Novas: leader at (10, 24), B.2 8" away (out of command), B.3 2" away."""
    return make_game(
        flight(0, "starfury-nova", 10, 24, 0, "B", models_at=[(10, 24), (10, 32), (10, 22)]),
        flight(1, "duck", 28, 28, 0, "R"),
        custom_units=[DUCK],
    )


def test_EVO_CMD_1_out_of_command_models_only_drift() -> None:
    """EVO-CMD-1: a model more than 6" from its leader when the activation starts drifts
    but takes none of the flight's actions: it may not manoeuvre, and its guns add no dice
    to a Shoot."""
    game = straggler_game()
    activate(game, "B")
    assert approx(xy(game, "B.2"), (16, 32)), "it drifts"
    stray = last(game, "EVO-CMD-1")
    assert stray.data["models"] == ["B.2"]
    with pytest.raises(IllegalAction, match="EVO-CMD-1"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.2", 0, -2),)))
    script(game, 2, 2, 2, 2)
    shoot(game, "B", "R.1")
    shot = last(game, "EVO-SHT-1")
    assert shot.data["dice"] == 4, "two models in command, two dice each; not B.2's"
    assert "2 model(s)" in shot.text


def test_EVO_CMD_1_manoeuvre_beyond_command_range_is_refused() -> None:
    """EVO-CMD-1: a manoeuvre may not take a model beyond 6" of its leader."""
    game = straggler_game()
    activate(game, "B")
    # Moving the leader counts too: its end point is where command is measured from.
    with pytest.raises(IllegalAction, match="EVO-CMD-1"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.1", 0, 4), Move("B.3", 0, -1))))
    # B.3 is 2" from the leader: 4" farther puts it exactly 6" away (allowed)...
    manoeuvre(game, "B", ("B.3", 0, -4))
    assert approx(xy(game, "B.3"), (16, 18))
    # ...and any farther is out of command.
    with pytest.raises(IllegalAction, match="EVO-CMD-1"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.3", 0, -0.5),)))
    assert game.is_legal(Manoeuvre(unit="B", moves=(Move("B.3", 0, 0.5),)))


def test_EVO_CMD_1_drifted_out_may_close_but_not_open() -> None:
    """EVO-CMD-1: a model the drift carried beyond command range may still manoeuvre,
    provided it gets no farther from its leader."""
    game = make_game(
        flight(0, "starfury-nova", 20, 24, 0, "B", models_at=[(20, 24), (16, 24)]),
        flight(1, "duck", 40, 40, 0, "R"),
        custom_units=[DUCK],
    )
    b2 = model(game, "B.2")
    b2.pose = Pose(b2.pose.position, 180.0)  # it flies the other way
    activate(game, "B")
    assert approx(xy(game, "B.1"), (26, 24)) and approx(xy(game, "B.2"), (10, 24))
    assert fl(game, "B").acting == ("B.1", "B.2"), "both were in command at the start"
    with pytest.raises(IllegalAction, match="EVO-CMD-1"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.2", -2, 0),)))
    manoeuvre(game, "B", ("B.2", 4, 0))
    assert approx(xy(game, "B.2"), (14, 24))


def leader_game(**options: object) -> Game:
    """Red ducks: R.1 (the leader) alone at (30, 40), the rest at y = 30, 22 and 18 (the
    centre of those three, y = 23.3, is nearest R.3). Blue gunner drifts to (16, 40)."""
    shooter = custom_unit("gunner", weapons=[gun(range=18)])
    duck4 = custom_unit("duck", weapons=[], models=4)
    game = make_game(
        flight(0, "gunner", 10, 40, 0, "F"),
        flight(1, "duck", 30, 40, 180, "R", models_at=[(30, 40), (30, 30), (30, 22), (30, 18)]),
        custom_units=[shooter, duck4],
        options=dict(options),
    )
    activate(game, "F")
    script(game, 6)
    shoot(game, "F", "R.1")
    assert "R.1" not in game.state.models
    end(game, "F")
    return game


def test_EVO_CMD_2_leader_lost_new_leader_one_action_fewer() -> None:
    """EVO-CMD-2: when the leader is destroyed, the model nearest the flight's centre takes
    over at the start of the flight's next activation, which costs it one action."""
    game = leader_game()
    assert fl(game, "R").leader == ""
    activate(game, "R")
    assert fl(game, "R").leader == "R.3"
    assert "R.3" in last(game, "EVO-CMD-2").text
    assert fl(game, "R").allowed == 1
    manoeuvre(game, "R", ("R.3", 0, 1))
    assert game.state.turn == 2, "one action ended its activation (and the turn)"


def test_EVO_CMD_2_option_off_keeps_both_actions() -> None:
    """EVO-CMD-2: leader_loss_costs_action=false: a new leader, but two actions."""
    game = leader_game(leader_loss_costs_action=False)
    activate(game, "R")
    assert fl(game, "R").leader == "R.3"
    assert fl(game, "R").allowed == 2


def test_EVO_CMD_2_command_is_measured_from_the_new_leader() -> None:
    """EVO-CMD-2 with EVO-CMD-1: after the change, command range runs from the new leader
    R.3: R.4 (4" away) acts, R.2 (8" away) only drifts."""
    game = leader_game()
    activate(game, "R")
    assert fl(game, "R").leader == "R.3"
    assert set(fl(game, "R").acting) == {"R.3", "R.4"}
    assert last(game, "EVO-CMD-1").data["models"] == ["R.2"]


def test_EVO_MOV_5_flight_mates_moving_together_do_not_block_each_other() -> None:
    """EVO-MOV-5 / EVO-MOV-2: two models 4" apart in line astern both manoeuvre 4" ahead:
    the rear one ends where the front one started, which is clear by then."""
    pair = custom_unit("pair", weapons=[], models=2)
    game = make_game(
        flight(0, "pair", 10, 24, 0, "B", models_at=[(10, 24), (14, 24)]),
        flight(1, "duck", 40, 40, 0, "R"),
        custom_units=[pair, DUCK],
    )
    activate(game, "B")
    assert approx(xy(game, "B.1"), (16, 24)) and approx(xy(game, "B.2"), (20, 24))
    manoeuvre(game, "B", ("B.1", 4, 0), ("B.2", 4, 0))
    assert approx(xy(game, "B.2"), (24, 24))
    assert approx(xy(game, "B.1"), (20, 24))


def test_EVO_CMD_1_out_of_command_models_still_react() -> None:
    """EVO-CMD-1: out-of-command models only drift *and react*: a Red flight whose second
    model is 8" from its leader fires with both models in a reaction."""
    turret2 = custom_unit("turret", weapons=[gun(range=18)], models=2)
    game = make_game(
        flight(0, "duck", 10, 24, 0, "M"),
        flight(1, "turret", 26, 20, 90, "R", models_at=[(26, 20), (26, 28)]),
        custom_units=[DUCK, turret2],
    )
    activate(game, "M")
    manoeuvre(game, "M", ("M.1", 2, 0))  # (18, 24): 8.9" from both Red models
    assert game.state.phase == "react"
    script(game, 2, 2)
    game.apply(React(unit="R", target="M.1"))
    shot = last(game, "EVO-SHT-1")
    assert shot.data["dice"] == 2 and "2 model(s)" in shot.text
