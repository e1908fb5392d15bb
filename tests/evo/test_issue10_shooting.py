"""Issue 10 (evo items 1, 3, 4, 5, 11): suppression, reaction range, 'on my six',
Kill as an upgraded hit, and the fire-zone log line.

Each test builds a position, scripts the dice, plays it through the Game API and checks
the result against the clause of data/evo/rules.md it names. A Blue flight placed at
(x, y) facing +x drifts to (x + 6, y) when activated.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dogfight.core.errors import DataError, IllegalAction
from dogfight.rulesets.evo.actions import React
from dogfight.rulesets.evo.units import load_unit_file

from .builders import (
    RED,
    activate,
    custom_unit,
    events,
    fl,
    flight,
    gun,
    last,
    make_game,
    rotate,
    script,
    shoot,
)

DUCK = custom_unit("duck", weapons=[], models=1)
"""Target 4, Save 5, Kill 6, no weapons."""
ROCK = custom_unit("rock", target=7, save=7, kill=7, weapons=[], models=1)
"""No d6 can hit it."""
TURRET = custom_unit("turret", weapons=[gun(range=18)], models=1)
"""An all-round 18" gun."""


# ---- EVO-SUP-1: only an enemy Shoot suppresses ------------------------------------------


def test_EVO_SUP_1_own_flight_in_the_zone_is_not_suppressed() -> None:
    """EVO-SUP-1: Blue's other flight W, caught in Blue's own fire zone, takes a die but
    is not suppressed; the Red target, given as many dice as it has models, is."""
    shooter = custom_unit("gunner", weapons=[gun(range=18, dice=2)])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "duck", 24, 24, 180, "T"),  # 8" from F after the drift
        flight(0, "rock", 27, 24, 180, "W"),  # 3" behind T: in the zone, 11" from F
        custom_units=[shooter, DUCK, ROCK],
    )
    activate(game, "F")
    script(game, 2, 3)  # mixed zone: one die each, nearest first; both miss
    shoot(game, "F", "T.1")
    assert fl(game, "T").suppressed
    assert not fl(game, "W").suppressed
    assert [e.data["unit"] for e in events(game, "EVO-SUP-1")] == ["T"]


def test_EVO_SUP_1_own_side_never_suppressed_under_casualty() -> None:
    """EVO-SUP-1 (suppression=casualty): Blue's own flight that loses a model to Blue's
    fire zone is not suppressed either."""
    shooter = custom_unit("gunner", weapons=[gun(range=18, dice=2)])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "rock", 24, 24, 180, "T"),
        flight(0, "duck", 27, 24, 180, "W", models=2, models_at=[(27, 24), (27, 26)]),
        custom_units=[shooter, DUCK, ROCK],
        rules={"suppression": "casualty"},
    )
    activate(game, "F")
    # zone: T.1, W.1, W.2 (nearest first); two dice: T.1 a 2, W.1 a 6 (a Kill: removed)
    script(game, 2, 6)
    shoot(game, "F", "T.1")
    assert "W.1" not in game.state.models
    assert not fl(game, "W").suppressed


# ---- EVO-REA-2 / EVO-CLS-1: reactions only at models in close range ---------------------


def test_EVO_REA_2_shot_from_beyond_close_range_cannot_fire_back() -> None:
    """EVO-REA-2, EVO-CLS-1: a turret shot at from 14" was shot at (EVO-REA-1) but the
    sniper is not in close range, so no reaction may fire at it."""
    sniper = custom_unit("sniper", weapons=[gun(range=18)])
    game = make_game(
        flight(0, "sniper", 10, 24, 0, "S"),
        flight(1, "turret", 30, 24, 90, "R"),
        custom_units=[sniper, TURRET],
    )
    activate(game, "S")  # to (16, 24): 14" from R.1
    script(game, 2)
    shoot(game, "S", "R.1")
    assert game.state.phase == "act"
    assert not game.is_legal(React(unit="R", target="S.1"))


def test_EVO_REA_2_only_the_models_in_close_range_may_be_fired_on() -> None:
    """EVO-REA-2, EVO-CLS-1: after a Rotate, the turret may react at M.1 (10" away) but
    not at M.2 (14" away), though its 18" gun reaches both; check says why."""
    game = make_game(
        flight(0, "duck", 14, 24, 0, "M", models=2, models_at=[(14, 24), (10, 24)]),
        flight(1, "turret", 30, 24, 90, "R"),
        custom_units=[DUCK, TURRET],
    )
    activate(game, "M")  # M.1 to (20, 24), M.2 to (16, 24)
    rotate(game, "M")
    assert game.state.phase == "react" and game.current_player() == RED
    legal = game.legal_actions()
    assert React(unit="R", target="M.1") in legal
    assert React(unit="R", target="M.2") not in legal
    with pytest.raises(IllegalAction, match="close range"):
        game.check(React(unit="R", target="M.2"))


def test_EVO_REA_2_option_weapon_range_keeps_the_old_reading() -> None:
    """EVO-REA-2, option reaction_range=weapon: the turret may react at M.2, 14" off."""
    game = make_game(
        flight(0, "duck", 14, 24, 0, "M", models=2, models_at=[(14, 24), (10, 24)]),
        flight(1, "turret", 30, 24, 90, "R"),
        custom_units=[DUCK, TURRET],
        rules={"reaction_range": "weapon"},
    )
    activate(game, "M")
    rotate(game, "M")
    assert React(unit="R", target="M.2") in game.legal_actions()


# ---- EVO-SIX-1: every model of the firing flight -----------------------------------------


def test_EVO_SIX_1_a_model_of_the_unit_that_does_not_fire_still_counts() -> None:
    """EVO-SIX-1: F.1 fires from dead astern of T.1 at 6"; F.2, off T.1's port side and
    unable to bear (FaF), is still a model of the firing flight, so F is not on T.1's
    six and a 3 misses (with +1 it would have hit)."""
    shooter = custom_unit("gunner", models=2, weapons=[gun(range=8, arc="FaF")])
    game = make_game(
        flight(0, "gunner", 18, 24, 0, "F", models_at=[(18, 24), (22, 28)]),
        flight(1, "duck", 30, 24, 0, "T"),  # faces +x: F.1 at (24, 24) is dead astern
        custom_units=[shooter, DUCK],
    )
    activate(game, "F")  # F.1 to (24, 24), F.2 to (28, 28)
    script(game, 3)
    evs = shoot(game, "F", "T.1")
    assert last(game, "EVO-SHT-1").data["dice"] == 1
    assert "T.1" in game.state.models
    assert any(e.clause == "EVO-DMG-2" and "a 3 misses" in e.text for e in evs)


# ---- EVO-DMG-1/2: a Kill is an upgraded hit --------------------------------------------


def test_EVO_DMG_1_a_die_below_the_target_does_not_kill() -> None:
    """EVO-DMG-1/2: a ghost with Target 4-7 and Kill 6, shot from 12" (so its stealth
    Target 7 is in use), is not hurt by a 6: the die misses and no save is rolled."""
    ghost = custom_unit("ghost", target="4-7", kill=6, weapons=[])
    shooter = custom_unit("gunner", weapons=[gun(range=18)])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "ghost", 28, 24, 180, "T"),
        custom_units=[shooter, ghost],
    )
    activate(game, "F")  # to (16, 24): 12" from T.1
    script(game, 6)
    evs = shoot(game, "F", "T.1")
    assert "T.1" in game.state.models
    assert any(e.clause == "EVO-DMG-2" and "a 6 misses" in e.text for e in evs)


def test_EVO_DMG_1_kill_below_target_is_refused_in_a_scenario() -> None:
    """EVO-DMG-1/2: loading a custom unit whose Kill (6) is below its Target (7) fails,
    naming the unit and the field."""
    bad = custom_unit("brittle", target=7, kill=6, weapons=[])
    with pytest.raises(DataError, match=r"unit 'brittle': field 'kill'.*Target \(7\)"):
        make_game(flight(0, "brittle", 10, 24), flight(1, "brittle", 30, 24), custom_units=[bad])


def test_EVO_DMG_1_validate_refuses_a_unit_file_with_kill_below_target(tmp_path: Path) -> None:
    """EVO-DMG-1/2: `validate` (unit file loading) refuses Kill below Target, naming the
    file, the unit and the field."""
    path = tmp_path / "brittle.yaml"
    path.write_text(
        "id: brittle\nname: Brittle\npower: Test\nagility: 4\ntarget: 5\nsave: 5\nkill: 4\n"
        "weapons:\n- {name: Gun, range: 12, dice: 1, die: 6}\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError) as info:
        load_unit_file(path)
    message = str(info.value)
    assert message.startswith(str(path))
    assert "unit 'brittle'" in message and "field 'kill'" in message


# ---- the fire-zone log line ------------------------------------------------------------


def test_EVO_SHT_2_log_names_every_model_in_the_zone() -> None:
    """EVO-SHT-2, EVO-REA-1: the log names every model in the fire zone before the dice,
    so C.1, which gets no die, and T.1, whose die comes up 1, are both shown, with the
    flights that were shot at."""
    shooter = custom_unit("gunner", weapons=[gun(range=18, dice=1)])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "duck", 24, 24, 180, "T"),
        flight(1, "duck", 27, 24, 180, "C"),
        custom_units=[shooter, DUCK],
    )
    activate(game, "F")
    script(game, 1)
    shoot(game, "F", "T.1")
    zone = last(game, "EVO-SHT-2")
    assert zone.data["zone"] == ["C.1", "T.1"]
    assert zone.data["shot_at"] == ["C", "T"]
    assert "C.1" in zone.text and "T.1" in zone.text
