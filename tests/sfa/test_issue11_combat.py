"""Clause tests for issue 11's combat items: missiles at their own scale (SFA-MSL-2),
turrets and their gunners (SFA-ATK-2), the Artificial Intelligence (SFA-TEC-02),
collisions only on purpose (SFA-COL-1), the travelling Loop (SFA-MOV-4), the
Willpower success's 1 damage (SFA-ATK-5), the Tractor Beam's escape and tows
(SFA-TEC-29), and obstacles counted per hex (SFA-OBS-1).

Every test scripts the dice and checks the seed's behaviour; each fails on the engine
before issue 11.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import DataError, IllegalAction
from dogfight.core.scenario import scenario_from_raw
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.actors import speed_of
from dogfight.rulesets.sfa.state import Selection

from .builders import (
    HIT,
    MISS,
    at,
    attack,
    craft,
    design,
    dice_left,
    events,
    faces,
    finish_turn,
    fire,
    fly,
    make_game,
    run_until,
    scenario_raw,
    script,
    select,
    weapon,
)

NO_STARSHIP_TIME = {"starship_time": False}
"""Every craft acts every turn, so that a Starship and a fighter can meet in turn 1."""


# ---- SFA-MSL-2: a missile fights at its launcher's (its weapon's) scale ------------------


def missile_game(launcher: dict[str, Any], target: dict[str, Any], *dice: int) -> Game:
    """Turn 1: R1 (Move 0, facing north) launches a missile at B1, 3 hexes south; B1
    flies a hex away. The missile reaches B1 at the start of turn 2 and rolls `dice`."""
    game = make_game(
        craft(1, launcher["id"], (5, 1), 0, id="R1"),
        craft(0, target["id"], (5, 4), 3, id="B1"),
        designs=[launcher, target],
        size=(12, 20),
        options=NO_STARSHIP_TIME,
        dice=dice,
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    finish_turn(game)
    return game


FIGHTER_TARGET = design("fighter-target", weapon("light_laser"), soak=1, move=1)
"""Total Soak 3 + 2 + 1 = 6: a missile rolls 10 - 6 = 4 dice."""
SHIP_TARGET = design("ship-target", weapon("light_laser"), soak=1, move=1, scale="Starship")


def strike(game: Game) -> Any:
    """The missile's attack roll on B1."""
    (roll,) = [e for e in events(game, "SFA-MSL-2") if e.rolls]
    return roll


def test_SFA_MSL_2_a_starships_missile_gains_5_against_a_starfighter() -> None:
    """SFA-MSL-2, SFA-SCL-1: a Starship's missile scores 1 success on 4 dice against a
    Starfighter: firing a scale down adds 5, so B1 takes 6 (it took 1 before)."""
    launcher = design("ship-launcher", weapon("missile"), move=0, scale="Starship")
    game = missile_game(launcher, FIGHTER_TARGET, HIT, MISS, MISS, MISS)
    assert faces(strike(game)) == [HIT, MISS, MISS, MISS]
    assert game.state.craft["B1"].structure == 10 - (1 + 5)
    assert dice_left(game) == 0


def test_SFA_MSL_2_a_starships_missile_loses_nothing_against_a_starship() -> None:
    """SFA-MSL-2: Starship against Starship is the same scale: 4 successes are 4 damage
    (before, scored as a Starfighter weapon, it lost 5 and missed)."""
    launcher = design("ship-launcher", weapon("missile"), move=0, scale="Starship")
    game = missile_game(launcher, SHIP_TARGET, HIT, HIT, HIT, HIT)
    assert game.state.craft["B1"].structure == 10 - 4
    assert not game.state.missiles  # it struck and is spent


def test_SFA_MSL_2_a_missile_of_its_own_scale_fights_at_that_scale() -> None:
    """SFA-MSL-2: a Trinity Smart Missile is one scale above Starship (trinity.py gives
    its weapon that scale): fired by a Starfighter at a Starship it gains 5."""
    launcher = design(
        "smart-launcher", weapon("missile", scale="Starship + 1"), move=0, scale="Starfighter"
    )
    game = missile_game(launcher, SHIP_TARGET, HIT, MISS, MISS, MISS)
    assert game.state.craft["B1"].structure == 10 - (1 + 5)


def test_SFA_MSL_3_a_missile_is_shot_at_at_its_own_scale() -> None:
    """SFA-MSL-3 with SFA-MSL-2: a Starfighter firing up at a Starship's missile loses 5
    successes: 2 successes do nothing to its Structure 2."""
    launcher = design("ship-launcher", weapon("missile"), move=0, scale="Starship")
    gunner = design("gunner", weapon("heavy_laser"), move=1)
    game = make_game(
        craft(1, "ship-launcher", (5, 1), 0, id="R1"),
        craft(0, "gunner", (5, 12), 0, id="B1"),
        designs=[launcher, gunner],
        size=(12, 20),
        options=NO_STARSHIP_TIME,
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    finish_turn(game)
    (mid,) = game.state.missiles
    select(game, {"B1#0": attack("B1#0", "Heavy Laser")})
    run_until(game, "B1#0", "resolve")
    # 3 + 2 + 0 + 15 - Soak 10 = 10 dice.
    script(game, HIT, HIT, *[MISS] * 8)
    fire(game, "B1#0", mid)
    shot = [e for e in events(game, "SFA-MSL-3") if e.rolls][-1]
    assert "0 damage" in shot.text
    assert game.state.missiles[mid].structure == 2


# ---- SFA-ATK-2 / SFA-TEC-02 / SFA-TEC-03: who fires a turret ---------------------------

POST = design("post", soak=1, move=0)
TURRET = weapon("medium_laser", turret=True)


def station_items(game: Game) -> set[str]:
    """The weapons the actor choosing now may select."""
    return {a.item for a in game.legal_actions() if isinstance(a, A.Select) and a.kind == "attack"}


def test_SFA_ATK_2_a_one_crew_craft_cannot_fire_its_turret() -> None:
    """SFA-ATK-2: a turret needs a dedicated gunner separate from the pilot; a crew-1
    fighter with a turret and a forward laser offers its pilot the forward one only."""
    game = make_game(
        craft(0, "solo", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[design("solo", weapon("light_laser"), TURRET, move=3), POST],
    )
    assert game.state.to_select[0] == "B1#0"
    assert station_items(game) == {"Light Laser"}
    with pytest.raises(IllegalAction):
        game.check(attack("B1#0", "Medium Laser"))
    # SFA-TEC-03: with Auto-Turrets the computer aims the turret for the pilot.
    auto = make_game(
        craft(0, "auto", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[design("auto", TURRET, move=3, technologies=["auto_turrets"]), POST],
    )
    assert station_items(auto) == {"Medium Laser"}


def test_SFA_TEC_02_an_ai_mans_the_turret_beside_a_human_pilot() -> None:
    """SFA-TEC-02: an Artificial Intelligence "can be assigned a weapon just like extra
    crewmen": with a pilot aboard, the AI 2 (Dexterity 2, Piloting 1, Gunnery 1) is the
    turret's gunner, and fires it: 2 + 1 + 0 + 10 - Soak 6 = 7 dice."""
    game = make_game(
        craft(0, "aided", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[
            design(
                "aided",
                weapon("light_laser"),
                TURRET,
                move=0,
                technologies=[{"name": "artificial_intelligence", "level": 2}],
            ),
            POST,
        ],
    )
    b1 = game.state.craft["B1"]
    assert not b1.pilot.ai and b1.pilot.name == "Regular"
    assert [g.ai for g in b1.gunners] == [True]
    assert station_items(game) == {"Light Laser"}  # the pilot's
    game.apply(A.Select(actor="B1#0", kind="none"))
    assert station_items(game) == {"Medium Laser"}  # the AI's
    select(game, {"B1#1": attack("B1#1", "Medium Laser")})
    run_until(game, "B1#1", "resolve")
    script(game, *[MISS] * 7)
    fire(game, "B1#1", "R1")
    shot = [e for e in events(game, "SFA-ATK-1") if "dice" in e.data][-1]
    assert shot.data["dice"] == 2 + 1 + 0 + 10 - 6


def test_SFA_TEC_02_a_named_pilot_keeps_flying_a_craft_with_an_ai() -> None:
    """SFA-TEC-02: the AI is a backup pilot: the scenario's `pilot: ace` flies, at Speed
    5 + 4 + 1 = 10 with a Light Laser (it was the AI 2's 2 + 1 + 1 = 4)."""
    game = make_game(
        craft(0, "backed", (5, 9), 0, id="B1", pilot="ace"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[
            design(
                "backed",
                weapon("light_laser"),
                technologies=[{"name": "artificial_intelligence", "level": 2}],
            ),
            POST,
        ],
    )
    b1 = game.state.craft["B1"]
    assert b1.pilot.name == "Ace" and not b1.pilot.ai
    assert b1.gunners == ()  # no turret to man
    sel = Selection(kind="attack", item="Light Laser")
    assert speed_of(game.state, "B1#0", sel) == 10
    # With no crew and no pilot named, the AI is the autonomous pilot; on a Move 0 craft
    # (the seed's Battlesat) it is the one assigned to the turret.
    drone = make_game(
        craft(0, "battlesat", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[
            design(
                "battlesat",
                TURRET,
                move=0,
                crew=0,
                technologies=[{"name": "artificial_intelligence", "level": 5}],
            ),
            POST,
        ],
    )
    sat = drone.state.craft["B1"]
    assert sat.pilot.ai and sat.gunners == ()
    assert station_items(drone) == {"Medium Laser"}


# ---- SFA-COL-1: no craft is forced into a collision -----------------------------------

BOXER = design("boxer", weapon("light_laser"), soak=1, move=1, structure=10)


def boxed_in(options: dict[str, Any] | None = None) -> Game:
    """B1 (Move 1) at (5, 9) facing north, with R1 parked in the only hex it can enter
    ahead; B2 and R2 stand by."""
    game = make_game(
        craft(0, "boxer", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 8), 3, id="R1"),
        craft(0, "boxer", (1, 11), 0, id="B2"),
        craft(1, "post", (10, 1), 3, id="R2"),
        designs=[BOXER, POST],
        options=options,
    )
    select(game)
    run_until(game, "B1#0", "move")
    return game


def test_SFA_COL_1_a_craft_may_fly_into_an_occupied_hex_and_share_it() -> None:
    """SFA-COL-1: sharing a hex is allowed: B1's only move enters R1's hex, is offered
    without a ram, and hurts nobody (before, it was a forced collision)."""
    game = boxed_in()
    plain = A.Move(craft="B1", steps="F")
    assert plain in game.legal_actions()
    fly(game, "B1", "F")
    assert game.state.craft["B1"].hex == game.state.craft["R1"].hex == at(5, 8)
    assert not events(game, "SFA-COL-1")
    assert game.state.craft["B1"].structure == 10 and game.state.craft["R1"].structure == 10


def test_SFA_COL_1_a_deliberate_ram_is_offered_and_collides() -> None:
    """SFA-COL-1: ramming is a choice: the ram is offered, and with it each takes the
    other's Structure x 1 hex less its own Soak stat."""
    game = boxed_in()
    ram = A.Move(craft="B1", steps="F", ram=True)
    assert ram in game.legal_actions()
    game.apply(ram)
    damage = {
        e.data["unit"]: e.data["damage"] for e in events(game, "SFA-COL-1") if "damage" in e.data
    }
    assert damage == {"B1": 10 * 1 - 1, "R1": 10 * 1 - 1}
    assert game.state.craft["B1"].hex == at(5, 9)  # it stops short


def test_SFA_COL_1_a_ram_needs_a_craft_on_the_way() -> None:
    """SFA-COL-1: a ram along a path that meets no craft is refused."""
    game = make_game(
        craft(0, "boxer", (5, 9), 0, id="B1"),
        craft(1, "post", (8, 2), 3, id="R1"),
        designs=[BOXER, POST],
    )
    select(game)
    run_until(game, "B1#0", "move")
    with pytest.raises(IllegalAction, match="no craft to ram"):
        game.check(A.Move(craft="B1", steps="F", ram=True))
    assert not any(isinstance(a, A.Move) and a.ram for a in game.legal_actions())


def test_SFA_COL_1_option_collide_on_entry_makes_entering_a_collision() -> None:
    """SFA-COL-1, option `collide_on_entry`: every entry into an occupied hex collides,
    as the engine did before."""
    game = boxed_in({"collide_on_entry": True})
    fly(game, "B1", "F")
    assert [e.data["unit"] for e in events(game, "SFA-COL-1") if "damage" in e.data] == [
        "B1",
        "R1",
    ]


# ---- SFA-MOV-4: the travelling Loop ----------------------------------------------------

LOOPER = design("looper", weapon("light_laser"), soak=1, move=4)


def looping() -> Game:
    """B1 (Move 4) at (5, 9) facing north, about to move."""
    game = make_game(
        craft(0, "looper", (5, 9), 0, id="B1"),
        craft(1, "post", (10, 1), 3, id="R1"),
        designs=[LOOPER, POST],
    )
    select(game)
    run_until(game, "B1#0", "move")
    return game


def test_SFA_MOV_4_the_travelling_loop_ends_behind_where_it_started() -> None:
    """SFA-MOV-4: "may even end its movement behind where it started": a hex forward,
    then a Loop that goes back 3 hexes (`FOBBB`), ends 2 hexes behind the start, facing
    the same way, at Soak -1 and Handling -3, and is offered by legal_actions."""
    game = looping()
    assert A.Move(craft="B1", steps="FOBBB") in game.legal_actions()
    fly(game, "B1", "FOBBB")
    b1 = game.state.craft["B1"]
    assert (b1.hex, b1.facing) == (at(5, 11), 0)
    assert (b1.maneuver_soak, b1.maneuver_handling) == (-1, -3)
    assert b1.hexes_moved == 4


def test_SFA_MOV_4_a_travelling_loop_needs_a_hex_before_it_and_counts_its_hexes() -> None:
    """SFA-MOV-3/4: unlike the Loop in place, a travelling Loop needs one forward hex
    first; B only follows a Loop; its hexes count against Move."""
    game = looping()
    with pytest.raises(IllegalAction, match="SFA-MOV-3"):
        game.check(A.Move(craft="B1", steps="OBF"))
    with pytest.raises(IllegalAction, match="within a Loop"):
        game.check(A.Move(craft="B1", steps="FB"))
    with pytest.raises(IllegalAction, match="SFA-MOV-1"):
        game.check(A.Move(craft="B1", steps="FOBBBB"))
    game.check(A.Move(craft="B1", steps="OF"))  # the Loop in place still needs nothing


# ---- SFA-ATK-5: the Willpower success always does 1 damage ----------------------------


def willpower_shot(target: dict[str, Any]) -> Game:
    """B1 (a Move 0 gun) fires its Light Laser at R1 with 1 Willpower, rolling nothing
    but misses."""
    game = make_game(
        craft(0, "gun", (5, 9), 0, id="B1"),
        craft(1, target["id"], (5, 5), 3, id="R1"),
        designs=[design("gun", weapon("light_laser"), move=0), target],
        options=NO_STARSHIP_TIME,
    )
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    run_until(game, "B1#0", "resolve")
    script(game, *[MISS] * 10)
    fire(game, "B1#0", "R1", willpower=True)
    return game


def test_SFA_ATK_5_willpower_does_1_damage_through_enhanced_soak() -> None:
    """SFA-ATK-5: "at least 1 damage ... regardless of the target's Soak": Enhanced Soak
    (the first 5 successes ignored) does not wipe the bought success."""
    target = design("armoured", soak=1, move=0, power=3, technologies=["enhanced_soak"])
    game = willpower_shot(target)
    assert game.state.craft["R1"].structure == 10 - 1


def test_SFA_ATK_5_willpower_does_1_damage_firing_up_a_scale() -> None:
    """SFA-ATK-5: a Starfighter's bought success on a Starship still does 1 damage."""
    game = willpower_shot(design("ship", soak=1, move=0, scale="Starship"))
    assert game.state.craft["R1"].structure == 10 - 1


# ---- SFA-TEC-29: the Tractor Beam ------------------------------------------------------

TUG = design("tug", weapon("light_laser"), move=1, power=10, technologies=["tractor_beam"])
SHIP_TUG = design(
    "ship-tug",
    weapon("light_laser"),
    move=1,
    power=10,
    scale="Starship",
    technologies=["tractor_beam"],
)
PREY = design("prey", weapon("light_laser"), soak=1, move=3)


def grabbed(holder: str, designs: list[dict[str, Any]], *contest: int, **kw: Any) -> Game:
    """B1 (the holder) at (5, 2) facing south; R1 (Move 3, a rookie: Speed 3, so it
    moves first) at (5, 5) facing north flies to (5, 4), B1 to (5, 3) and holds it:
    the beam rolls 3 + 2 + 10 - Soak 4 = 11 dice, one success. B1 acts last, so the
    turn ends at once, and the escape contest rolls `contest`."""
    game = make_game(
        craft(0, holder, (5, 2), 3, id="B1"),
        craft(1, "prey", (5, 5), 0, id="R1", pilot="rookie"),
        designs=designs,
        options=NO_STARSHIP_TIME,
        **kw,
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="tractor_beam")})
    run_until(game, "B1#0", "resolve")
    script(game, HIT, *[MISS] * 10, *contest)
    fire(game, "B1#0", "R1")
    assert "locks onto R1" in events(game, "SFA-TEC-29")[0].text
    return game


def contest(game: Game) -> Any:
    """The turn end's escape roll."""
    return [e for e in events(game, "SFA-TEC-29") if "strains" in e.text][-1]


def test_SFA_TEC_29_the_escape_is_a_move_roll() -> None:
    """SFA-TEC-29: a resisted Move roll: R1 rolls its Move (3 dice), not Move + Piloting
    (4), against the beam's 10 dice; 3 successes to 0 break free."""
    game = grabbed("tug", [TUG, PREY], *[MISS] * 10, HIT, HIT, HIT)
    assert len(faces(contest(game))) == 10 + 3
    assert dice_left(game) == 0
    assert game.state.craft["R1"].held_by == ""


def test_SFA_TEC_29_option_tractor_escape_piloting_adds_piloting() -> None:
    """SFA-TEC-29, option `tractor_escape_piloting`: Move + Piloting dice (3 + 1)."""
    game = grabbed(
        "tug",
        [TUG, PREY],
        *[MISS] * 10,
        HIT,
        HIT,
        HIT,
        HIT,
        rules={"tractor_escape_piloting": True},
    )
    assert len(faces(contest(game))) == 10 + 4


def test_SFA_TEC_29_scale_changes_the_beams_successes_by_5() -> None:
    """SFA-TEC-29: "plus or minus any successes due to scale": a Starship's beam rolls
    10 dice (not 15) and its 1 success becomes 6; R1's 3 successes do not break free."""
    game = grabbed("ship-tug", [SHIP_TUG, PREY], HIT, *[MISS] * 9, HIT, HIT, HIT)
    roll = contest(game)
    assert len(faces(roll)) == 10 + 3
    assert "3 against the beam's 6" in roll.text
    assert game.state.craft["R1"].held_by == "B1"


def test_SFA_TEC_29_a_friendly_craft_can_be_towed() -> None:
    """SFA-TEC-29: the beam may "tow another spacecraft": a friend within 2 hexes is a
    target; it is taken in tow without a roll, its move is the holder side's, and it
    does not strain against the beam at the turn end."""
    game = make_game(
        craft(0, "tug", (5, 2), 3, id="B1"),
        craft(0, "prey", (5, 4), 3, id="B2", pilot="rookie"),
        craft(1, "post", (10, 10), 0, id="R1"),
        designs=[TUG, PREY, POST],
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="tractor_beam")})
    run_until(game, "B1#0", "resolve")
    assert A.Resolve(actor="B1#0", target="B2") in game.legal_actions()
    script(game)
    fire(game, "B1#0", "B2")
    assert game.state.craft["B2"].held_by == "B1"
    finish_turn(game)
    assert game.state.craft["B2"].held_by == "B1"
    assert not [e for e in events(game, "SFA-TEC-29") if "strains" in e.text]
    assert game.dice.count == 0


# ---- SFA-OBS-1: obstacles per hex --------------------------------------------------------

FLIER = design("flier", weapon("light_laser"), soak=1, move=3, structure=10)


def field(kind: str, count: int | None = None) -> Game:
    """B1 at (5, 9) facing north about to fly into an obstacle hex at (5, 8)."""
    raw = scenario_raw(
        craft(0, "flier", (5, 9), 0, id="B1"),
        craft(1, "post", (10, 1), 3, id="R1"),
        designs=[FLIER, POST],
        terrain=[((5, 8), kind)],
    )
    if count is not None:
        raw["map"]["terrain"][0]["count"] = count
    game = Game(scenario_from_raw(raw, "test"), seed=0)
    select(game)
    run_until(game, "B1#0", "move")
    return game


@pytest.mark.parametrize(("kind", "count"), [("mine", 5), ("debris", 20), ("ring", 20)])
def test_SFA_OBS_1_a_hex_holds_the_seeds_number_of_objects(kind: str, count: int) -> None:
    """SFA-OBS-1: "5 per hex" mines, "20 per hex" debris and rings, by default."""
    game = field(kind)
    assert game.state.map.terrain_at(at(5, 8)).count == count


def test_SFA_OBS_1_a_failed_roll_smashes_one_mine_of_five() -> None:
    """SFA-OBS-1, SFA-COL-1: B1 fails its Piloting roll (5 dice at 7) and hits one mine:
    it takes 5 x 1 - Soak 1; the mine takes B1's Structure 10 x 1 >= its 5 and is gone,
    leaving 4 in the hex."""
    game = field("mine")
    script(game, *[MISS] * 5)
    fly(game, "B1", "F")
    assert game.state.craft["B1"].structure == 10 - (5 - 1)
    assert game.state.map.terrain_at(at(5, 8)).count == 4
    assert "4 left" in events(game, "SFA-OBS-1")[-1].text


def test_SFA_OBS_1_the_last_object_leaves_the_hex_clear() -> None:
    """SFA-OBS-1: a hex of 1 debris is open space once B1 smashes it."""
    game = field("debris", 1)
    script(game, *[MISS] * 5)
    fly(game, "B1", "F")
    assert game.state.map.terrain_at(at(5, 8)).kind == "open"


def test_SFA_OBS_1_an_asteroid_outlasts_a_light_craft() -> None:
    """SFA-OBS-1: an asteroid (Structure 20) hit by a Structure 10 craft after 1 hex
    takes 10: it stays."""
    game = field("asteroid")
    script(game, *[MISS] * 5)
    fly(game, "B1", "F")
    assert game.state.map.terrain_at(at(5, 8)).kind == "asteroid"


@pytest.mark.parametrize(("kind", "count"), [("mine", 6), ("debris", 0), ("asteroid", 2)])
def test_SFA_OBS_1_a_map_may_not_hold_more_than_the_seed_allows(kind: str, count: int) -> None:
    """SFA-OBS-1: `count` is 1 to the seed's figure for the kind."""
    raw = scenario_raw(
        craft(0, "flier", (5, 9), 0, id="B1"),
        craft(1, "post", (10, 1), 3, id="R1"),
        designs=[FLIER, POST],
        terrain=[((5, 8), kind)],
    )
    most = {"mine": 5, "debris": 20, "asteroid": 1}[kind]
    raw["map"]["terrain"][0]["count"] = most
    assert Game(scenario_from_raw(raw, "test"), seed=0).state.map.terrain_at(at(5, 8)).count == most
    raw["map"]["terrain"][0]["count"] = count
    with pytest.raises(DataError, match=r"1 to \d+ .* objects"):
        Game(scenario_from_raw(raw, "test"), seed=0)


def test_SFA_OBS_1_one_entry_per_hex() -> None:
    """SFA-OBS-1: a hex holds one kind of obstacle; a second entry for it is refused."""
    raw = scenario_raw(
        craft(0, "flier", (5, 9), 0, id="B1"),
        craft(1, "post", (10, 1), 3, id="R1"),
        designs=[FLIER, POST],
        terrain=[((5, 8), "mine"), ((5, 8), "debris")],
    )
    with pytest.raises(DataError, match="already has an obstacle"):
        Game(scenario_from_raw(raw, "test"), seed=0)
