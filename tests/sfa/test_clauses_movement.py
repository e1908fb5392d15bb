"""Clause tests for SFA movement, collisions and obstacles (data/sfa/rules.md,
SFA-MOV-1..6, SFA-COL-1, SFA-OBS-1).

The seed's own maneuver example (Move 5, `FFFTFSF`: Soak +3, Handling -2) is checked on
the maneuver tracer in tests/sfa/test_maneuvers.py
(test_SFA_MOV_4_seed_example_modifiers_add_up); here the modifiers are checked in play.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.sfa import actions as A

from .builders import (
    MISS,
    at,
    attack,
    craft,
    design,
    events,
    faces,
    fire,
    fly,
    make_game,
    run_until,
    script,
    select,
    weapon,
)

FIGHTER = design("fighter", weapon("medium_laser"), soak=1, move=3)
STATION = design("station", weapon("medium_laser"), soak=1, move=0)


def lone_fighter(**kw: object) -> Game:
    """B1, a Move 3 fighter at (5, 9) facing north, and a distant Red station."""
    return make_game(
        craft(0, "fighter", (5, 9), 0, id="B1"),
        craft(1, "station", (10, 1), 3, id="R1"),
        designs=[FIGHTER, STATION],
        **kw,  # type: ignore[arg-type]
    )


def ready_to_move(game: Game, picks: dict[str, A.Select] | None = None) -> Game:
    """Selections made, and B1 about to fly."""
    select(game, picks)
    run_until(game, "B1#0", "move")
    return game


# ---- SFA-MOV-1 ----------------------------------------------------------------------


def test_SFA_MOV_1_a_craft_flies_up_to_its_move() -> None:
    """SFA-MOV-1: no more hexes than Move; a Roll enters a hex, other maneuvers do not."""
    game = ready_to_move(lone_fighter())
    with pytest.raises(IllegalAction, match="may move 3"):
        game.check(A.Move(craft="B1", steps="FFFF"))
    with pytest.raises(IllegalAction, match="may move 3"):
        game.check(A.Move(craft="B1", steps="FrFF"))  # F, Roll, F, F: four hexes
    assert game.is_legal(A.Move(craft="B1", steps="FTFtF"))  # two Turns, three hexes
    fly(game, "B1", "FrF")
    # (5, 9) -> (5, 8), Roll into the forward-right hex (6, 8), then north to (6, 7).
    b1 = game.state.craft["B1"]
    assert (b1.hex, b1.facing) == (at(6, 7), 0)
    assert events(game, "SFA-MOV-1")[-1].data["steps"] == "FrF"


# ---- SFA-MOV-2 ----------------------------------------------------------------------


def test_SFA_MOV_2_every_craft_must_enter_a_hex() -> None:
    """SFA-MOV-2: a craft with Move 1 or more must enter at least one hex."""
    game = ready_to_move(lone_fighter())
    with pytest.raises(IllegalAction, match="at least 1 hex"):
        game.check(A.Move(craft="B1", steps=""))
    with pytest.raises(IllegalAction, match="at least 1 hex"):
        game.check(A.Move(craft="B1", steps="O"))  # a Loop in place enters no hex
    assert A.Move(craft="B1", steps="") not in game.legal_actions()


def test_SFA_MOV_2_a_move_0_craft_may_stay_and_may_not_maneuver() -> None:
    """SFA-MOV-2: a Move 0 station stays put and never maneuvers."""
    game = make_game(
        craft(0, "station", (5, 9), 0, id="B1"),
        craft(1, "station", (10, 1), 3, id="R1"),
        designs=[STATION],
    )
    ready_to_move(game)
    assert game.legal_actions() == [A.Move(craft="B1", steps="")]
    with pytest.raises(IllegalAction, match="may move 0"):
        game.check(A.Move(craft="B1", steps="F"))
    with pytest.raises(IllegalAction, match="Move 0 may not maneuver"):
        game.check(A.Move(craft="B1", steps="O"))
    fly(game, "B1", "")
    assert game.state.craft["B1"].hex == at(5, 9)


def test_SFA_MOV_2_a_move_0_craft_takes_no_extra_move_and_is_offered_legal_moves() -> None:
    """SFA-MOV-2: a Move 0 craft has no engines to fly with: it may not select the
    extra-move action, and every move it is offered is one check() accepts."""
    game = make_game(
        craft(0, "station", (5, 9), 0, id="B1"),
        craft(1, "station", (10, 1), 3, id="R1"),
        designs=[STATION],
    )
    extra = A.Select(actor="B1#0", kind="extra_move")
    assert extra not in game.legal_actions()
    with pytest.raises(IllegalAction, match="cannot select extra_move"):
        game.check(extra)
    ready_to_move(game, {"B1#0": A.Select(actor="B1#0", kind="none")})
    offered = game.legal_actions()
    assert offered
    assert [a for a in offered if not game.is_legal(a)] == []


# ---- SFA-MOV-3 ----------------------------------------------------------------------


def test_SFA_MOV_3_a_forward_hex_before_each_maneuver_except_a_loop() -> None:
    """SFA-MOV-3: each maneuver needs a hex flown straight ahead since the last one; a
    Loop may be flown in place."""
    game = ready_to_move(lone_fighter())
    for steps in ("TFF", "FTTF", "FlrF", "SFF"):
        with pytest.raises(IllegalAction, match="forward before it"):
            game.check(A.Move(craft="B1", steps=steps))
    assert game.is_legal(A.Move(craft="B1", steps="FTFTF"))
    fly(game, "B1", "OFFF")
    b1 = game.state.craft["B1"]
    assert (b1.hex, b1.facing) == (at(5, 6), 0)
    assert b1.maneuver_soak == -1 and b1.maneuver_handling == -3


# ---- SFA-MOV-4 ----------------------------------------------------------------------


def test_SFA_MOV_4_maneuver_modifiers_add_up_and_count_in_attacks_for_the_turn() -> None:
    """SFA-MOV-4: two Turns give B1 Soak +2 and Handling -2 for the rest of the turn:
    its own pool loses 2 dice and R1's pool against it loses 2. Next turn, before B1
    moves again, they are gone."""
    game = make_game(
        craft(0, "fighter", (5, 9), 0, id="B1"),
        craft(1, "station", (6, 2), 3, id="R1"),
        designs=[FIGHTER, STATION],
    )
    select(
        game,
        {
            "B1#0": attack("B1#0", "Medium Laser"),  # Speed 5
            "R1#0": attack("R1#0", "Medium Laser", speed_dice=1),  # Speed 6: after B1
        },
    )
    fly(game, "B1", "FTFtF")
    b1 = game.state.craft["B1"]
    assert (b1.hex, b1.facing) == (at(6, 7), 0)
    assert (b1.maneuver_soak, b1.maneuver_handling) == (2, -2)
    script(game, *[MISS] * 7)
    fire(game, "B1#0", "R1")
    run_until(game, "R1#0", "resolve")
    script(game, *[MISS] * 6)
    fire(game, "R1#0", "B1")
    pools = [e.data["dice"] for e in events(game, "SFA-ATK-1") if "dice" in e.data]
    # B1: 3 + 2 + (0 - 2) + 10 - R1's Soak (3 + 2 + 1) = 7.
    # R1: 3 + 2 + 0 + 10 - B1's Soak (6 + 2) - 1 traded = 6.
    assert pools == [7, 6]
    # Turn 2: R1 fires before B1 moves; B1's Soak is back to 6.
    select(
        game,
        {"B1#0": A.Select(actor="B1#0", kind="extra_move"), "R1#0": attack("R1#0", "Medium Laser")},
    )
    assert game.state.order == ("R1#0", "B1#0")
    run_until(game, "R1#0", "resolve")
    assert game.state.craft["B1"].maneuver_soak == 0
    script(game, *[MISS] * 9)
    fire(game, "R1#0", "B1")
    assert events(game, "SFA-ATK-1")[-2].data["dice"] == 3 + 2 + 10 - 6


# ---- SFA-MOV-5 ----------------------------------------------------------------------


def test_SFA_MOV_5_the_extra_move_adds_three_hexes() -> None:
    """SFA-MOV-5: with the extra-move action a Move 3 craft flies up to 6 hexes."""
    game = ready_to_move(lone_fighter(), {"B1#0": A.Select(actor="B1#0", kind="extra_move")})
    assert game.state.speeds["B1#0"] == 3 + 2 + 3
    with pytest.raises(IllegalAction, match="may move 6"):
        game.check(A.Move(craft="B1", steps="FFFFFFF"))
    fly(game, "B1", "FFFFFF")
    assert game.state.craft["B1"].hex == at(5, 3)


# ---- SFA-MOV-6 ----------------------------------------------------------------------


def test_SFA_MOV_6_leaving_the_map_disengages() -> None:
    """SFA-MOV-6: a craft that flies off the map leaves the battle, not destroyed."""
    game = make_game(
        craft(0, "fighter", (5, 1), 0, id="B1"),
        craft(0, "fighter", (2, 9), 0, id="B2"),
        craft(1, "station", (10, 1), 3, id="R1"),
        designs=[FIGHTER, STATION],
    )
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    run_until(game, "B1#0", "move")
    fly(game, "B1", "FFF")  # (5, 0) is the top row; the next hex is off the map
    assert "B1" not in game.state.craft
    assert "B1" not in game.state.destroyed
    left = events(game, "SFA-MOV-6")[-1]
    assert left.data["unit"] == "B1"
    assert not events(game, "SFA-ATK-1")  # its attack went with it
    assert not game.is_over()


# ---- SFA-COL-1 ----------------------------------------------------------------------

COLLIDERS = [
    design("light", weapon("light_laser"), soak=1, move=3, structure=3),
    design("heavy", weapon("light_laser"), soak=2, move=0, structure=6),
]


def collision(options: dict[str, Any] | None = None) -> Game:
    """B1 (Structure 3) flies three hexes north and rams R1 (Structure 6) on purpose;
    B2 and R2 stand by so that the game does not end."""
    game = make_game(
        craft(0, "light", (5, 9), 0, id="B1"),
        craft(1, "heavy", (5, 6), 3, id="R1"),
        craft(0, "light", (1, 10), 0, id="B2"),
        craft(1, "heavy", (10, 1), 3, id="R2"),
        designs=COLLIDERS,
        options=options,
    )
    select(game)
    run_until(game, "B1#0", "move")
    fly(game, "B1", "FFF", ram=True)
    return game


def test_SFA_COL_1_the_seeds_collision_example() -> None:
    """SFA-COL-1: the seed's example, with collision_soak=false: a Structure 3 fighter
    that has flown 3 hexes hits a Structure 6 fighter; it takes 18, the other 9."""
    game = collision({"collision_soak": False})
    damage = {
        e.data["unit"]: e.data["damage"] for e in events(game, "SFA-COL-1") if "damage" in e.data
    }
    assert damage == {"B1": 6 * 3, "R1": 3 * 3}
    assert "B1" in game.state.destroyed  # 3 - 18 = -15, below -3
    r1 = game.state.craft["R1"]
    assert (r1.structure, r1.disabled) == (-3, True)  # not yet at -6
    assert all(not e.rolls for e in events(game, "SFA-COL-1"))  # no dice


def test_SFA_COL_1_by_default_each_takes_off_its_craft_soak() -> None:
    """SFA-COL-1: with collision_soak (the default) each takes off its own Soak stat, and
    the mover stops in the hex before the one it ran into."""
    game = collision()
    damage = {
        e.data["unit"]: e.data["damage"] for e in events(game, "SFA-COL-1") if "damage" in e.data
    }
    assert damage == {"B1": 18 - 1, "R1": 9 - 2}
    assert game.state.craft["R1"].structure == -1


def test_SFA_COL_1_the_mover_stops_short() -> None:
    """SFA-COL-1: a mover that survives the crash ends its move in the hex before."""
    game = make_game(
        craft(0, "tough", (5, 9), 0, id="B1"),
        craft(1, "heavy", (5, 7), 3, id="R1"),
        craft(1, "heavy", (10, 1), 3, id="R2"),
        designs=[design("tough", weapon("light_laser"), soak=5, move=3, structure=20), *COLLIDERS],
    )
    select(game)
    run_until(game, "B1#0", "move")
    fly(game, "B1", "FFF", ram=True)  # rams R1 on its second hex
    b1 = game.state.craft["B1"]
    assert b1.hex == at(5, 8)
    assert b1.structure == 20 - (6 * 2 - 5)
    assert "R1" in game.state.destroyed  # 6 - (20 x 2 - 2) = -32, below -6


# ---- SFA-OBS-1 ----------------------------------------------------------------------


def obstacle(kind: str, where: tuple[int, int] = (5, 8), **kw: object) -> Game:
    """B1 at (5, 9) facing north about to fly, with one obstacle hex."""
    game = make_game(
        craft(0, "fighter", (5, 9), 0, id="B1"),
        craft(0, "fighter", (1, 10), 0, id="B2"),
        craft(1, "station", (10, 1), 3, id="R1"),
        designs=[FIGHTER, STATION],
        terrain=[(where, kind)],
        **kw,  # type: ignore[arg-type]
    )
    select(game)
    run_until(game, "B1#0", "move")
    return game


def test_SFA_OBS_1_threading_an_asteroid_needs_an_8() -> None:
    """SFA-OBS-1: Dexterity + Piloting + Handling = 5 dice at difficulty 8; one net
    success and the craft flies on."""
    game = obstacle("asteroid")
    script(game, 8, MISS, MISS, MISS, MISS)
    fly(game, "B1", "FFF")
    roll = events(game, "SFA-OBS-1")[-1]
    assert faces(roll) == [8, MISS, MISS, MISS, MISS]
    assert game.state.craft["B1"].hex == at(5, 6)
    assert game.state.craft["B1"].structure == 10


def test_SFA_OBS_1_a_failed_roll_is_a_collision_with_the_asteroid() -> None:
    """SFA-OBS-1: 7s fail against an asteroid; the craft takes 20 x hexes flown less its
    Soak, and a disabled craft goes no further."""
    game = obstacle("asteroid")
    script(game, 7, 7, 7, 7, 7)
    fly(game, "B1", "FFF")
    b1 = game.state.craft["B1"]
    assert b1.structure == 10 - (20 * 1 - 1)
    assert b1.disabled and b1.hex == at(5, 8)
    hit = [e for e in events(game, "SFA-COL-1") if "damage" in e.data]
    assert hit[-1].data["damage"] == 19


def test_SFA_OBS_1_a_mine_field_on_the_second_hex() -> None:
    """SFA-OBS-1: a mine (Structure 5, difficulty 7) hit on the second hex does 5 x 2,
    less Soak; a 1 cancels the lone success; a craft still fighting flies on."""
    game = obstacle("mine", (5, 7))
    script(game, 7, 1, MISS, MISS, MISS)
    fly(game, "B1", "FFF")
    b1 = game.state.craft["B1"]
    assert b1.structure == 10 - (5 * 2 - 1)
    assert b1.hex == at(5, 6) and not b1.disabled


def test_SFA_OBS_1_debris_is_difficulty_6_and_maneuvers_cost_dice() -> None:
    """SFA-OBS-1: debris needs a 6; after a Spin (Handling -1) the pool is 4 dice."""
    game = obstacle("debris", (5, 7), options={"collision_soak": False})
    script(game, 6, MISS, MISS, MISS)
    fly(game, "B1", "FSFF")
    assert len(events(game, "SFA-OBS-1")[-1].rolls) == 4
    assert game.state.craft["B1"].structure == 10


def test_SFA_OBS_1_debris_collision_without_soak() -> None:
    """SFA-OBS-1: failing in debris on the first hex costs 1 x 1 with collision_soak off."""
    game = obstacle("debris", options={"collision_soak": False})
    script(game, MISS, MISS, MISS, MISS, MISS)
    fly(game, "B1", "F")
    assert game.state.craft["B1"].structure == 9
