"""Clause tests for EVO shooting and damage: arcs, Shoot, fire zones, allocation, Kill,
Target, Save, dodge, stealth, 'on my six', facing armour, suppression, close range.

Each test builds a position, scripts the dice, plays it through the Game API and checks
the result against one clause of data/evo/rules.md (named in the test and docstring).
A Blue firer placed at (x, y) facing +x drifts to (x + 6, y) when activated, so it
shoots from there. Targets without weapons ("duck", "rock") can never react.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.geometry import Pose, Vec2
from dogfight.rulesets.evo.actions import Manoeuvre, Move, Ready, Shoot
from dogfight.rulesets.evo.shooting import in_arc, on_my_six
from dogfight.rulesets.evo.state import Model

from .builders import (
    activate,
    ctx_of,
    custom_unit,
    dice_left,
    end,
    events,
    faces,
    fl,
    flight,
    gun,
    last,
    make_game,
    manoeuvre,
    rotate,
    script,
    shoot,
)

DUCK = custom_unit("duck", weapons=[], models=1)
"""Target 4, Save 5, Kill 6, no Dodge, no weapons."""
ROCK = custom_unit("rock", target=7, save=7, kill=7, weapons=[], models=1)
"""No d6 can hit it: allocation tests need no saves."""


def gunner(dice: int = 1, range: float = 18, **weapon: Any) -> dict[str, Any]:
    """A one-model firing flight with one all-round gun."""
    return custom_unit("gunner", weapons=[gun(range=range, dice=dice, **weapon)])


def allocations(evs: list[Any]) -> dict[str, list[int]]:
    """The dice each model was given by the Shoot in `evs`."""
    found = [e for e in evs if e.clause == "EVO-SHT-4"]
    assert len(found) == 1
    return dict(found[0].data["allocations"])


def one_on_one(
    target_type: dict[str, Any],
    *,
    dice: int = 1,
    gap: float = 8,
    target_heading: float = 180,
    weapon: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
) -> Game:
    """Blue gunner F drifts to (16, 24); Red T.1 stands `gap` inches ahead of it."""
    shooter = gunner(dice, **(weapon or {}))
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, target_type["id"], 16 + gap, 24, target_heading, "T"),
        custom_units=[shooter, target_type],
        rules=rules,
    )
    activate(game, "F")
    return game


def removed(game: Game, mid: str) -> bool:
    return mid not in game.state.models


# ---- arcs ------------------------------------------------------------------------------


def at_bearing(bearing: float, distance: float = 5.0) -> Model:
    """A model `distance` inches from the origin at `bearing` (degrees)."""
    return Model(id="X", unit="X", pose=Pose(Vec2.polar(distance, bearing), 0.0))


ORIGIN = Model(id="O", unit="O", pose=Pose(Vec2(0.0, 0.0), 0.0))


@pytest.mark.parametrize(
    ("arc", "bearing", "inside"),
    [
        ("FaF", 0, True),
        ("FaF", 45, True),
        ("FaF", -45, True),
        ("FaF", 46, False),
        ("FaF", -46, False),
        ("FaF", 180, False),
        ("EaF", 90, True),
        ("EaF", -90, True),
        ("EaF", 135, True),
        ("EaF", -135, True),
        ("EaF", 136, False),
        ("EaF", 180, False),
        ("FaA", 180, True),
        ("FaA", 135, True),
        ("FaA", -135, True),
        ("FaA", 134, False),
        ("FaA", 0, False),
        (None, 0, True),
        (None, 90, True),
        (None, 180, True),
        (None, -100, True),
    ],
)
def test_EVO_ARC_1_arcs_and_borders(arc: str | None, bearing: float, inside: bool) -> None:
    """EVO-ARC-1: FaF is the front quadrant, EaF front+port+starboard, FaA aft, no arc all
    round; a target exactly on a quadrant border counts as inside."""
    assert in_arc(ORIGIN, at_bearing(bearing), arc) is inside


def test_EVO_ARC_1_faf_border_in_play() -> None:
    """EVO-ARC-1: a Nova's FaF cannons bear on a target exactly 45 degrees off its nose,
    but not on one 50 degrees off."""
    game = make_game(
        flight(0, "starfury-nova", 10, 20, 0, "B", models=1),
        flight(1, "duck", 21, 25, 180, "T"),  # from (16, 20): (5, 5), bearing 45
        flight(1, "duck", 21, 26, 180, "U"),  # (5, 6): bearing 50.2
        custom_units=[DUCK],
    )
    activate(game, "B")
    assert game.is_legal(Shoot(unit="B", target="T.1"))
    with pytest.raises(IllegalAction, match="EVO-ARC-1"):
        game.check(Shoot(unit="B", target="U.1"))


# ---- the Shoot -------------------------------------------------------------------------


def thunderbolt_game(target_x: float, models: int = 1) -> Game:
    """Blue Thunderbolts drift to (16, 24+); a Red duck at (target_x, 24)."""
    spots = [(10, 24), (10, 27)][:models]
    return make_game(
        flight(0, "thunderbolt", 10, 24, 0, "B", models_at=spots),
        flight(1, "duck", target_x, 24, 0, "T"),
        custom_units=[DUCK],
    )


def test_EVO_SHT_1_every_weapon_in_range_and_arc_fires() -> None:
    """EVO-SHT-1: each acting model fires each weapon with the target in range and arc:
    two Thunderbolts 12" behind a target fire their FaF pulse cannons (2 dice each); the
    aft tail gun is out of arc and the Lock-on missile has no Ready, so they add nothing."""
    game = thunderbolt_game(28, models=2)
    activate(game, "B")
    script(game, 2, 2, 3, 3)  # all below Target 4: misses, no saves
    evs = shoot(game, "B", "T.1")
    shot = last(game, "EVO-SHT-1")
    assert shot.data["dice"] == 4
    assert "Twin pulse cannons" in shot.text
    assert "Tail gun" not in shot.text and "Missile" not in shot.text
    assert sorted(allocations(evs)["T.1"]) == [2, 2, 3, 3]
    assert dice_left(game) == 0


def test_EVO_SHT_1_only_the_weapon_that_reaches_fires() -> None:
    """EVO-SHT-1: a target 8" behind a Thunderbolt is only in its tail gun's arc: 1 die."""
    game = thunderbolt_game(8)
    activate(game, "B")
    script(game, 2)
    shoot(game, "B", "T.1")
    shot = last(game, "EVO-SHT-1")
    assert shot.data["dice"] == 1
    assert "Tail gun" in shot.text


def test_EVO_SHT_1_shoot_is_illegal_if_nothing_reaches() -> None:
    """EVO-SHT-1: 24" ahead only the (unreadied) missile could reach: the Shoot is refused,
    and a Shoot at one of its own models is refused too."""
    game = thunderbolt_game(40)
    activate(game, "B")
    with pytest.raises(IllegalAction, match="EVO-SHT-1"):
        game.check(Shoot(unit="B", target="T.1"))
    with pytest.raises(IllegalAction, match="own models"):
        game.check(Shoot(unit="B", target="B.1"))
    assert Shoot(unit="B", target="T.1") not in game.legal_actions()


# ---- fire zone and allocation ----------------------------------------------------------


def zone_game(**options: Any) -> Game:
    """Blue F (two gunners, 2 dice each) shoots Red T.1 at (24, 24) from (16, 24) and
    (20, 21). Around T.1: Red U.1 5" off, Blue's other flight W.1 5" off, Red V.1 6.5"
    off; F.2 is 5" from T.1 but fires."""
    shooter = custom_unit("gunner", models=2, weapons=[gun(range=18, dice=2)])
    return make_game(
        flight(0, "gunner", 10, 24, 0, "F", models_at=[(10, 24), (14, 21)]),
        flight(0, "rock", 29, 24, 180, "W"),
        flight(1, "rock", 24, 24, 180, "T"),
        flight(1, "rock", 24, 29, 180, "U"),
        flight(1, "rock", 24, 17.5, 180, "V"),
        custom_units=[shooter, ROCK],
        options=options,
    )


def test_EVO_SHT_2_fire_zone_holds_friend_and_foe_within_6() -> None:
    """EVO-SHT-2: the zone is every model within 6" of the target, friend or foe: the
    target, a model of another Red flight, and a model of the firer's own side's other
    flight; not a model 6.5" away, and never the firing flight's own models."""
    game = zone_game()
    activate(game, "F")
    script(game, 2, 3, 2, 3)
    given = allocations(shoot(game, "F", "T.1"))
    assert set(given) == {"T.1", "U.1", "W.1"}
    assert "V.1" not in given
    assert "F.2" not in given


def test_EVO_SHT_2_option_diameter_halves_the_zone() -> None:
    """EVO-SHT-2: option fire_zone_measure=diameter counts models within 3" only."""
    game = zone_game(fire_zone_measure="diameter")
    activate(game, "F")
    script(game, 2, 3, 2, 3)
    given = allocations(shoot(game, "F", "T.1"))
    assert given == {"T.1": [3, 3, 2, 2]}


def test_EVO_SHT_5_mixed_zone_gets_one_die_each_first() -> None:
    """EVO-SHT-5: in a zone with models of several flights every model first gets one die
    of its own, nearest first; the remaining dice go against the target's flight only."""
    game = zone_game()
    activate(game, "F")
    # Nearest the firers: T.1 (5"), U.1 (8.9"), W.1 (9.5"): one die each, then T.1.
    script(game, 2, 3, 4, 5)
    given = allocations(shoot(game, "F", "T.1"))
    assert given == {"T.1": [2, 5], "U.1": [3], "W.1": [4]}


def test_EVO_SHT_3_natural_ones_are_discarded() -> None:
    """EVO-SHT-3: every natural 1 is discarded before allocation."""
    game = one_on_one(DUCK, dice=3)
    script(game, 1, 5, 1, 6)  # damage 1, 5, 1; the 5 hits; save 6 passes
    evs = shoot(game, "F", "T.1")
    assert allocations(evs) == {"T.1": [5]}
    assert faces(last(game, "EVO-SHT-4")) == [1, 5, 1]
    assert not removed(game, "T.1")
    assert dice_left(game) == 0


def test_EVO_SHT_3_all_ones_do_nothing() -> None:
    """EVO-SHT-3: a Shoot whose dice are all 1s gives no model any die."""
    game = one_on_one(DUCK, dice=2)
    script(game, 1, 1)
    assert allocations(shoot(game, "F", "T.1")) == {}
    assert not removed(game, "T.1")


def allocation_game(option: str) -> Game:
    rock2 = custom_unit("rock", target=7, save=7, kill=7, weapons=[], models=2)
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "rock", 30, 24, 180, "T", models_at=[(30, 24), (26, 24)]),
        custom_units=[gunner(3), rock2],
        options={"free_allocation": option},
    )
    activate(game, "F")
    return game


def test_EVO_SHT_4_highest_to_nearest_then_spread() -> None:
    """EVO-SHT-4: highest die to the nearest model (T.2, 10" away), the next to the next
    nearest (the nominated T.1, 14"), then round again (free_allocation=spread)."""
    game = allocation_game("spread")
    script(game, 2, 5, 3)
    assert allocations(shoot(game, "F", "T.1")) == {"T.2": [5, 2], "T.1": [3]}


def test_EVO_SHT_4_option_target_puts_the_rest_on_the_nominated_model() -> None:
    """EVO-SHT-4: free_allocation=target: once each model has a die, the rest go on the
    nominated model."""
    game = allocation_game("target")
    script(game, 2, 5, 3)
    assert allocations(shoot(game, "F", "T.1")) == {"T.2": [5], "T.1": [3, 2]}


# ---- damage ----------------------------------------------------------------------------


def test_EVO_DMG_1_kill_removes_with_no_save() -> None:
    """EVO-DMG-1: a die at or above Kill removes the model outright; no save is rolled
    (the script holds only the damage die: a save roll would exhaust it)."""
    game = one_on_one(DUCK)
    script(game, 6)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    kill = last(game, "EVO-DMG-1")
    assert kill.data["model"] == "T.1" and kill.data["destroyed"] is True
    assert dice_left(game) == 0
    assert fl(game, "T").destroyed == 1


@pytest.mark.parametrize(("save_roll", "survives"), [(5, True), (6, True), (4, False)])
def test_EVO_DMG_2_hit_then_save(save_roll: int, survives: bool) -> None:
    """EVO-DMG-2: a die at or above Target but below Kill is a hit; the model then rolls
    its Save (5+ here): at or above survives, below is removed."""
    game = one_on_one(DUCK)
    script(game, 5, save_roll)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1") is not survives
    assert dice_left(game) == 0
    assert events(game, "EVO-DMG-1") == []


def test_EVO_DMG_2_below_target_misses_without_a_save() -> None:
    """EVO-DMG-2: a die below the Target is a miss: no save is rolled."""
    game = one_on_one(DUCK)
    script(game, 3)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")
    assert "misses" in last(game, "EVO-DMG-2").text
    assert dice_left(game) == 0


def test_EVO_DMG_2_natural_one_always_fails_even_save_2() -> None:
    """EVO-DMG-2: a natural 1 on the save always fails, even against Save 2+."""
    tank = custom_unit("tank", save=2, weapons=[], models=1)
    game = one_on_one(tank)
    script(game, 4, 1)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    # ...and a 2 saves it.
    game = one_on_one(tank)
    script(game, 4, 2)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")


def test_EVO_DMG_2_ap_worsens_the_save() -> None:
    """EVO-DMG-2: AP 1 adds 1 to the Save needed: Save 5+ becomes 6+, so a 5 fails."""
    game = one_on_one(DUCK, weapon={"traits": ["AP 1"]})
    script(game, 5, 5)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    game = one_on_one(DUCK, weapon={"traits": ["AP 1"]})
    script(game, 5, 6)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")


def test_EVO_DMG_2_save_seven_cannot_be_made() -> None:
    """EVO-DMG-2: a Save of 7 or more cannot be made: even a 6 fails."""
    paper = custom_unit("paper", save=7, weapons=[], models=1)
    game = one_on_one(paper)
    script(game, 4, 6)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")


DODGER = custom_unit("dodger", traits=["Dodge 6+"], weapons=[], models=1)


def test_EVO_DMG_3_dodge_turns_a_kill_into_a_hit() -> None:
    """EVO-DMG-3: a Dodge 6+ model suffering a Kill rolls 1d6; on a 6 the Kill becomes an
    ordinary hit and it takes its Save (5 passes Save 5+)."""
    game = one_on_one(DODGER)
    script(game, 6, 6, 5)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")
    assert "dodges" in last(game, "EVO-DMG-3").text
    assert dice_left(game) == 0


def test_EVO_DMG_3_dodged_kill_still_needs_the_save() -> None:
    """EVO-DMG-3: after a successful dodge the model takes its Save: a 4 fails it."""
    game = one_on_one(DODGER)
    script(game, 6, 6, 4)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")


def test_EVO_DMG_3_failed_dodge_is_a_kill() -> None:
    """EVO-DMG-3: below the Dodge score the Kill stands (no save is rolled)."""
    game = one_on_one(DODGER)
    script(game, 6, 5)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    assert "fails its dodge" in last(game, "EVO-DMG-3").text
    assert dice_left(game) == 0


def test_EVO_DMG_3_no_dodge_on_six() -> None:
    """EVO-DMG-3: a model shot from its six may not dodge: a 5 (+1 on the six) kills it
    with no dodge roll. With no_dodge_on_six=false it does roll to dodge."""
    game = one_on_one(DODGER, target_heading=0)  # the firer is 8" behind it
    script(game, 5)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    assert events(game, "EVO-DMG-3") == []
    game = one_on_one(DODGER, target_heading=0, rules={"no_dodge_on_six": False})
    script(game, 5, 6, 6)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")
    assert "dodges" in last(game, "EVO-DMG-3").text


def test_EVO_DMG_3_option_dodge_saves_off() -> None:
    """EVO-DMG-3: dodge_saves=false turns dodging off: a 6 kills with no dodge roll."""
    game = one_on_one(DODGER, rules={"dodge_saves": False})
    script(game, 6)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    assert events(game, "EVO-DMG-3") == []


# ---- stealth, close range, on my six, armour ---------------------------------------------


def stealth_game(**rules: Any) -> Game:
    """Blue gunner (2 dice) at (16, 24); Red Nials N.1 8" and N.2 12" away."""
    return make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "nial", 24, 24, 90, "N", models_at=[(24, 24), (28, 24)]),
        custom_units=[gunner(2)],
        rules=rules or None,
    )


def test_EVO_STL_1_stealth_target_beyond_close_range_model_by_model() -> None:
    """EVO-STL-1: a Nial (Target 4-6) within 10" of a firer uses Target 4, one beyond uses
    its stealth Target 6; decided model by model: the same 5 hits N.1 and misses N.2."""
    game = stealth_game()
    activate(game, "F")
    script(game, 5, 5, 6)  # damage 5, 5; N.1's save 6
    evs = shoot(game, "F", "N.1")
    assert allocations(evs) == {"N.1": [5], "N.2": [5]}
    texts = [e.text for e in evs if e.clause == "EVO-DMG-2"]
    assert any("N.1" in t and "saves" in t for t in texts)
    assert any("misses N.2" in t for t in texts)
    assert dice_left(game) == 0


def test_EVO_STL_1_all_beyond_close_range_use_stealth() -> None:
    """EVO-STL-1: with every firer more than 10" away, a 5 misses a Target 4-6 Nial."""
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "nial", 27, 24, 90, "N", models=1),
        custom_units=[gunner(1)],
    )
    activate(game, "F")
    script(game, 5)
    shoot(game, "F", "N.1")
    assert "misses N.1" in last(game, "EVO-DMG-2").text
    assert dice_left(game) == 0


def test_EVO_CLS_1_close_range_option_moves_the_stealth_line() -> None:
    """EVO-CLS-1: close range is an option (default 10"); at close_range=7 a Nial 8" away
    already uses its stealth Target, so the 5 that hit it at 10" now misses."""
    game = stealth_game(close_range=7)
    activate(game, "F")
    script(game, 5, 5)
    evs = shoot(game, "F", "N.1")
    texts = [e.text for e in evs if e.clause == "EVO-DMG-2"]
    assert any("misses N.1" in t for t in texts)
    assert any("misses N.2" in t for t in texts)
    assert dice_left(game) == 0


def test_EVO_CLS_1_close_range_is_inclusive() -> None:
    """EVO-CLS-1: a firer exactly 10" away is within close range (no stealth)."""
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "nial", 26, 24, 90, "N", models=1),
        custom_units=[gunner(1)],
    )
    activate(game, "F")
    script(game, 4, 6)
    shoot(game, "F", "N.1")
    assert "saves" in last(game, "EVO-DMG-2").text


def test_EVO_SIX_1_all_firers_behind_within_close_range_add_one() -> None:
    """EVO-SIX-1: a firer 8" dead astern of the target is on its six: a 5 becomes 6, which
    is a Kill (no save rolled)."""
    game = one_on_one(DUCK, target_heading=0)
    script(game, 5)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    kill = last(game, "EVO-DMG-1")
    assert "on its six" in kill.text
    assert dice_left(game) == 0


def test_EVO_SIX_1_firer_ahead_is_not_on_the_six() -> None:
    """EVO-SIX-1: the same 5 from in front is only a hit (and a 6 saves it)."""
    game = one_on_one(DUCK, target_heading=180)
    script(game, 5, 6)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")


def six_pair(second: tuple[float, float]) -> Game:
    """Blue F: F.1 drifts to 6" astern of a Red duck at (24, 24) facing +x; F.2 drifts to
    `second` (+6 in x). Both fire one die."""
    shooter = custom_unit("gunner", models=2, weapons=[gun(range=18, dice=1)])
    game = make_game(
        flight(0, "gunner", 12, 24, 0, "F", models_at=[(12, 24), second]),
        flight(1, "duck", 24, 24, 0, "T"),
        custom_units=[shooter, DUCK],
    )
    activate(game, "F")
    return game


def test_EVO_SIX_1_not_if_one_firer_is_outside_the_aft_quadrant() -> None:
    """EVO-SIX-1: one of the two firers is in the target's port quadrant, so no +1: the 5
    is a hit (save 6 passes) and the 2 a miss."""
    game = six_pair((15, 27.5))  # drifts to (21, 27.5): bearing 130.6 from T.1, port
    script(game, 5, 2, 6)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")
    assert events(game, "EVO-DMG-1") == []
    assert dice_left(game) == 0


def test_EVO_SIX_1_not_if_one_firer_is_beyond_close_range() -> None:
    """EVO-SIX-1: both firers are astern, but one is 11" away: no +1."""
    game = six_pair((7, 23))  # drifts to (13, 23): 11.05" astern of T.1
    script(game, 5, 2, 6)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")
    assert dice_left(game) == 0


def test_EVO_SIX_1_both_firers_astern_within_close_range() -> None:
    """EVO-SIX-1: with both firers astern within 10", the 5 becomes a Kill."""
    game = six_pair((10, 21))  # drifts to (16, 21): 8.5" astern, bearing -159
    script(game, 5, 2)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")
    assert dice_left(game) == 0


def test_EVO_SIX_1_helper_checks_every_firer() -> None:
    """EVO-SIX-1: on_my_six is true only when every firer is in the aft quadrant and
    within close range."""
    game = six_pair((10, 21))
    ctx = ctx_of(game)
    target = game.state.models["T.1"]
    f1, f2 = game.state.models["F.1"], game.state.models["F.2"]
    assert on_my_six(ctx, target, [f1, f2])
    ahead = Model(id="Z", unit="F", pose=Pose(Vec2(30, 24), 180.0))
    assert not on_my_six(ctx, target, [f1, ahead])


PLATED = custom_unit("plated", save=3, armour={"aft": 6}, weapons=[], models=1)


def test_EVO_ARM_1_aft_armour_from_behind() -> None:
    """EVO-ARM-1: a firer 12" astern (beyond close range: not on the six) hits the aft
    facing, whose Save is 6+: a save roll of 5 fails."""
    game = one_on_one(PLATED, gap=12, target_heading=0)
    script(game, 5, 5)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")


def test_EVO_ARM_1_front_save_from_ahead() -> None:
    """EVO-ARM-1: the same shot from ahead uses the ordinary Save 3+: a 5 saves."""
    game = one_on_one(PLATED, gap=12, target_heading=180)
    script(game, 5, 5)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")


def armour_game(spots: list[tuple[float, float]]) -> Game:
    """Three Blue gunners (1 die each) round a plated Red model at (30, 24) facing +x."""
    shooter = custom_unit("gunner", models=3, weapons=[gun(range=18, dice=1)])
    game = make_game(
        flight(0, "gunner", *spots[0], 0, "F", models_at=spots),
        flight(1, "plated", 30, 24, 0, "T"),
        custom_units=[shooter, PLATED],
        rules={"command_range": 30},
    )
    activate(game, "F")
    return game


def test_EVO_ARM_1_facing_where_most_firers_are() -> None:
    """EVO-ARM-1: two firers astern (beyond 10") and one ahead: the aft Save 6+ is used,
    so a save of 5 fails."""
    game = armour_game([(12, 24), (12, 27), (32, 24)])  # drift to x=18, 18, 38
    script(game, 5, 2, 2, 5)
    shoot(game, "F", "T.1")
    assert removed(game, "T.1")


def test_EVO_ARM_1_majority_ahead_uses_the_front_save() -> None:
    """EVO-ARM-1: two firers ahead and one astern: the front Save 3+ is used, so a 5 saves."""
    game = armour_game([(12, 24), (32, 24), (32, 27)])
    script(game, 5, 2, 2, 5)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")


# ---- suppression -------------------------------------------------------------------------


def suppression_game(dice: int, target: dict[str, Any], models: int, **options: Any) -> Game:
    spots = [(30, 24), (30, 27), (30, 21)][:models]
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, target["id"], 30, 24, 90, "T", models_at=spots),
        custom_units=[gunner(dice), target],
        options=options,
    )
    activate(game, "F")
    return game


def red_activation_allows(game: Game) -> int:
    """End Blue's activation and activate Red's T: the actions it is allowed."""
    end(game, "F")
    activate(game, "T")
    return fl(game, "T").allowed


def test_EVO_SUP_1_dice_at_least_models_suppresses() -> None:
    """EVO-SUP-1: a Shoot giving a 2-model flight 2 dice (after the 1s) suppresses it; in
    its next activation it takes one action fewer; after that the suppression ends."""
    game = suppression_game(2, ROCK, 2)
    script(game, 2, 3)
    shoot(game, "F", "T.1")
    assert fl(game, "T").suppressed
    assert last(game, "EVO-SUP-1").data["unit"] == "T"
    assert red_activation_allows(game) == 1
    assert not fl(game, "T").suppressed
    manoeuvre(game, "T", ("T.1", 0, 1), ("T.2", 0, 1))
    # One action was all it had: its activation, and so the turn, is over.
    assert game.state.turn == 2
    assert not game.is_legal(Manoeuvre(unit="T", moves=(Move("T.1", 0, 1),)))
    # Turn 2: two actions again.
    activate(game, "F")
    end(game, "F")
    activate(game, "T")
    assert fl(game, "T").allowed == 2


def test_EVO_SUP_1_ones_do_not_count() -> None:
    """EVO-SUP-1: dice are counted after the 1s: 2 dice with a 1 do not suppress 2 models."""
    game = suppression_game(2, ROCK, 2)
    script(game, 1, 3)
    shoot(game, "F", "T.1")
    assert not fl(game, "T").suppressed
    assert red_activation_allows(game) == 2


def test_EVO_SUP_1_casualty_mode() -> None:
    """EVO-SUP-1: suppression=casualty: a Shoot that removes a model suppresses its
    flight, even with fewer dice than models; misses do not."""
    duck3 = custom_unit("duck", weapons=[], models=3)
    game = suppression_game(1, duck3, 3, suppression="casualty")
    script(game, 6)
    shoot(game, "F", "T.1")
    assert fl(game, "T").suppressed
    game = suppression_game(2, ROCK, 2, suppression="casualty")
    script(game, 2, 3)
    shoot(game, "F", "T.1")
    assert not fl(game, "T").suppressed
    # the default (dice) mode would not suppress 3 models for one die
    game = suppression_game(1, duck3, 3)
    script(game, 6)
    shoot(game, "F", "T.1")
    assert not fl(game, "T").suppressed


def test_EVO_SUP_1_off() -> None:
    """EVO-SUP-1: suppression=off: never suppressed."""
    game = suppression_game(2, ROCK, 2, suppression="off")
    script(game, 2, 3)
    shoot(game, "F", "T.1")
    assert not fl(game, "T").suppressed
    assert events(game, "EVO-SUP-1") == []
    assert red_activation_allows(game) == 2


# ---- Rotate and Ready --------------------------------------------------------------------


def test_EVO_ROT_1_rotate_first_lets_the_shoot_ignore_arcs() -> None:
    """EVO-ROT-1: a Nova cannot shoot a target behind it with its FaF cannons; after a
    Rotate as its first action its Shoot ignores arcs. Its facing does not change."""
    game = make_game(
        flight(0, "starfury-nova", 20, 24, 0, "B", models=1),
        flight(1, "duck", 18, 24, 0, "T"),  # 8" astern once the Nova drifts to (26, 24)
        custom_units=[DUCK],
    )
    activate(game, "B")
    with pytest.raises(IllegalAction):
        game.check(Shoot(unit="B", target="T.1"))
    rotate(game, "B")
    assert game.state.models["B.1"].pose.heading == 0
    assert game.state.models["B.1"].pose.position == Vec2(26, 24)
    script(game, 2, 2)
    shoot(game, "B", "T.1")
    assert last(game, "EVO-SHT-1").data["dice"] == 2
    assert game.state.models["B.1"].pose.heading == 0


def test_EVO_ROT_1_rotate_as_second_action_has_no_effect() -> None:
    """EVO-ROT-1: a Rotate taken second is wasted: the facing is unchanged and no Shoot
    follows (the activation is over)."""
    game = make_game(
        flight(0, "starfury-nova", 10, 24, 0, "B", models=1),
        flight(1, "duck", 28, 24, 0, "T"),
        flight(1, "duck", 8, 24, 0, "U"),  # astern
        custom_units=[DUCK],
    )
    activate(game, "B")
    script(game, 2, 2)
    shoot(game, "B", "T.1")
    rotate(game, "B")
    assert "wasted" in last(game, "EVO-ROT-1").text
    assert game.state.models["B.1"].pose.heading == 0
    assert fl(game, "B").activated
    assert not game.is_legal(Shoot(unit="B", target="U.1"))


def test_EVO_ROT_1_no_manoeuvre_after_a_rotate() -> None:
    """EVO-ROT-1: manoeuvres come first, so a flight that rotated may not manoeuvre."""
    game = make_game(
        flight(0, "starfury-nova", 10, 24, 0, "B", models=1),
        flight(1, "duck", 40, 40, 0, "T"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    rotate(game, "B")
    with pytest.raises(IllegalAction, match="EVO-MOV-2"):
        game.check(Manoeuvre(unit="B", moves=(Move("B.1", 2, 0),)))


def lock_on_game() -> Game:
    """Blue Thunderbolt drifts to (16, 24); Red ducks T.1 20" ahead, U.1 elsewhere."""
    return make_game(
        flight(0, "thunderbolt", 10, 24, 0, "B", models=1),
        flight(1, "duck", 36, 24, 0, "T"),
        flight(1, "duck", 36, 40, 0, "U"),
        custom_units=[DUCK],
    )


def test_EVO_RDY_1_lock_on_needs_a_ready_at_that_flight() -> None:
    """EVO-RDY-1: the Lock-on missile (24", d10) cannot fire without a Ready; after a Ready
    at T's flight it fires at T (a d10 is rolled)."""
    game = lock_on_game()
    activate(game, "B")
    with pytest.raises(IllegalAction):
        game.check(Shoot(unit="B", target="T.1"))
    game.apply(Ready(unit="B", target_unit="T"))
    assert last(game, "EVO-RDY-1").data["target"] == "T"
    script(game, 3)
    shoot(game, "B", "T.1")
    shot = last(game, "EVO-SHT-1")
    assert shot.data["dice"] == 1 and "Missile rack" in shot.text
    assert [r.sides for r in last(game, "EVO-SHT-4").rolls] == [10]


def test_EVO_RDY_1_ready_at_another_flight_does_not_count() -> None:
    """EVO-RDY-1: a Ready locks on to one flight only: locked on U, the missile cannot
    fire at T; a flight with no Lock-on weapon cannot Ready."""
    game = lock_on_game()
    activate(game, "B")
    game.apply(Ready(unit="B", target_unit="U"))
    with pytest.raises(IllegalAction):
        game.check(Shoot(unit="B", target="T.1"))
    nova = make_game(
        flight(0, "starfury-nova", 10, 24, 0, "B", models=1),
        flight(1, "duck", 36, 24, 0, "T"),
        custom_units=[DUCK],
    )
    activate(nova, "B")
    with pytest.raises(IllegalAction, match="EVO-RDY-1"):
        nova.check(Ready(unit="B", target_unit="T"))


def test_EVO_RDY_1_lock_on_never_fires_in_a_reaction() -> None:
    """EVO-RDY-1: a Thunderbolt that locked on to Blue's flight in its own activation may
    not react with the missile: shot at from 20" (beyond its cannons' 18") it has no
    reaction; from 17" its cannons give it one (reaction_range=weapon: by default a
    reaction fires only within close range, EVO-REA-2)."""
    for distance, reacts in ((20, False), (17, True)):
        sniper = custom_unit("sniper", weapons=[gun(range=24, dice=1)])
        game = make_game(
            # the sniper drifts to (16 + distance, 24): dead ahead of the Thunderbolt
            flight(0, "sniper", 16 + distance, 18, 90, "S"),
            flight(1, "thunderbolt", 10, 24, 0, "R", models=1),
            custom_units=[sniper],
            first="Red",
            rules={"reaction_range": "weapon"},
        )
        activate(game, "R")  # drifts to (16, 24)
        game.apply(Ready(unit="R", target_unit="S"))
        end(game, "R")
        activate(game, "S")
        assert game.state.phase == "act"
        script(game, 2)
        shoot(game, "S", "R.1")
        assert (game.state.phase == "react") is reacts


def test_EVO_CLS_1_close_range_option_for_on_my_six() -> None:
    """EVO-CLS-1: 'on my six' uses close range: at close_range=7 a firer 8" astern is not
    on the six, so a 5 is only a hit (and a 6 saves it)."""
    game = one_on_one(DUCK, target_heading=0, rules={"close_range": 7})
    script(game, 5, 6)
    shoot(game, "F", "T.1")
    assert not removed(game, "T.1")
    assert dice_left(game) == 0
