"""Clause tests for SFA attacks, Soak, damage, interscale combat and the end of the game
(data/sfa/rules.md, SFA-SOAK-1, SFA-ATK-1..7, SFA-SCL-1, SFA-STR-1, SFA-WIN-1..2).

Most positions put B1 at (5, 9) facing north and its targets on Move 0 'post' craft,
so nothing wanders off between selection and resolution.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.sfa import actions as A

from .builders import (
    BLUE,
    HIT,
    MISS,
    ONE,
    RED,
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
    pilot,
    play_turn,
    run_until,
    script,
    select,
    weapon,
)

POST = design("post", soak=1, move=0)
"""A Red target that stays put: total Soak 3 + 2 + 1 + 0 = 6 with a regular pilot."""


def shots(game: Game) -> list[Any]:
    """The attack roll events (not the damage events that follow them)."""
    return [e for e in events(game, "SFA-ATK-1") if "dice" in e.data]


def at_resolve(
    *crafts: dict[str, Any],
    designs: list[dict[str, Any]],
    picks: dict[str, A.Select],
    actor: str = "B1#0",
    moves: dict[str, str] | None = None,
    **kw: Any,
) -> Game:
    """A game whose `actor` is about to resolve its attack."""
    game = make_game(*crafts, designs=designs, **kw)
    select(game, picks)
    run_until(game, actor, "resolve", moves=moves)
    return game


def gun_on_post(
    *weapons: dict[str, Any],
    name: str = "Light Laser",
    blue: dict[str, Any] | None = None,
    red: dict[str, Any] | None = None,
    post: dict[str, Any] = POST,
    handling: int = 0,
    steps: str = "",
    speed_dice: int = 0,
    **kw: Any,
) -> Game:
    """B1 (Move 0 unless `steps`) at (5, 9) north, about to fire `name` at R1, a post at
    (5, 5)."""
    gun = design(
        "gun", *(weapons or (weapon("light_laser"),)), handling=handling, move=3 if steps else 0
    )
    return at_resolve(
        craft(0, "gun", (5, 9), 0, id="B1", pilot=blue or pilot()),
        craft(1, post["id"], (5, 5), 3, id="R1", pilot=red or pilot()),
        designs=[gun, post],
        picks={"B1#0": attack("B1#0", name, speed_dice=speed_dice)},
        moves={"B1": steps},
        **kw,
    )


# ---- SFA-SOAK-1 ---------------------------------------------------------------------


def test_SFA_SOAK_1_total_soak_counts_pilot_craft_and_maneuvers() -> None:
    """SFA-SOAK-1: Dexterity 4 + Piloting 3 + Soak 3 (armour 2, shields 1) + Handling 1
    + a Spin's +2 = 13. The Spin's Handling -1 does not come off the Soak."""
    target = design("target", move=3, handling=1)
    del target["soak"]
    target.update(armor=2, shields=1)
    game = at_resolve(
        craft(0, "gun", (5, 9), 0, id="B1", pilot=pilot(5, 4)),
        craft(1, "target", (5, 3), 3, id="R1", pilot=pilot(4, 3)),
        designs=[design("gun", weapon("heavy_laser"), move=0), target],
        # B1: 5 + 4 - 2 + 1 = 8 beats R1's 4 + 3 = 7, so R1 flies first.
        picks={"B1#0": attack("B1#0", "Heavy Laser", speed_dice=1)},
        moves={"R1": "FSF", "B1": ""},
    )
    assert game.state.craft["R1"].hex == at(5, 5)
    script(game, *[MISS] * 10)
    fire(game, "B1#0", "R1")
    (shot,) = shots(game)
    assert "against Soak 13" in shot.text
    assert shot.data["dice"] == 5 + 4 + 0 + 15 - 13 - 1


def test_SFA_SOAK_1_total_soak_is_never_below_0() -> None:
    """SFA-SOAK-1: a clumsy pilot in a Handling -5 craft has total Soak 0, not -4."""
    game = gun_on_post(
        red=pilot(1, 0),
        post=design("wreck", soak=0, handling=-5, move=0),
    )
    script(game, *[MISS] * 10)
    fire(game, "B1#0", "R1")
    (shot,) = shots(game)
    assert "against Soak 0" in shot.text
    assert shot.data["dice"] == 3 + 2 + 5


# ---- SFA-ATK-1 ----------------------------------------------------------------------


def test_SFA_ATK_1_pilot_pool() -> None:
    """SFA-ATK-1: Dexterity 4 + Piloting 3 + Handling 1 + Medium Laser 10 - Soak 6 = 12."""
    game = gun_on_post(weapon("medium_laser"), name="Medium Laser", blue=pilot(4, 3), handling=1)
    script(game, *[MISS] * 12)
    fire(game, "B1#0", "R1")
    assert shots(game)[0].data["dice"] == 12
    assert dice_left(game) == 0


def test_SFA_ATK_1_handling_includes_this_turns_maneuvers() -> None:
    """SFA-ATK-1: after a Loop (Handling -3) B1's pool is 3 dice smaller."""
    game = gun_on_post(weapon("medium_laser"), name="Medium Laser", steps="FOF")
    assert game.state.craft["B1"].maneuver_handling == -3
    script(game, *[MISS] * 6)
    fire(game, "B1#0", "R1")
    assert shots(game)[0].data["dice"] == 3 + 2 + (0 - 3) + 10 - 6


def test_SFA_ATK_1_a_gunner_uses_gunnery() -> None:
    """SFA-ATK-1: a gunner rolls Dexterity + Gunnery + Handling + weapon - Soak."""
    game = at_resolve(
        craft(
            0,
            "turret",
            (5, 9),
            0,
            id="B1",
            pilot=pilot(5, 5),
            gunners=[pilot(2, 0, gunnery=4)],
        ),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[design("turret", weapon("medium_laser", turret=True), move=0, crew=2), POST],
        picks={"B1#1": attack("B1#1", "Medium Laser")},
        actor="B1#1",
    )
    script(game, *[MISS] * 10)
    fire(game, "B1#1", "R1")
    assert shots(game)[0].data["dice"] == 2 + 4 + 0 + 10 - 6


def test_SFA_ATK_1_the_pool_is_never_below_one_die() -> None:
    """SFA-ATK-1: 3 + 2 + 5 against total Soak 20 still rolls one die."""
    game = gun_on_post(red=pilot(5, 5), post=design("fort", soak=5, handling=5, move=0))
    script(game, HIT)
    fire(game, "B1#0", "R1")
    (shot,) = shots(game)
    assert "against Soak 20" in shot.text
    assert shot.data["dice"] == 1 and shot.data["damage"] == 1
    assert game.state.craft["R1"].structure == 9


def test_SFA_ATK_1_an_attacker_may_hold_fire() -> None:
    """SFA-ATK-1: resolving with no target fires nothing and rolls no dice."""
    game = gun_on_post()
    assert A.Resolve(actor="B1#0") in game.legal_actions()
    fire(game, "B1#0")
    assert "does not fire" in events(game, "SFA-ATK-2")[-1].text
    assert not shots(game) and game.dice.count == 0


# ---- SFA-ATK-2 ----------------------------------------------------------------------

BATTERY = design(
    "battery",
    weapon("light_laser"),
    weapon("medium_laser", turret=True),
    weapon("railgun", arc="front"),
    move=0,
    crew=3,
)
"""Forward Light Laser (range 5), 360° Medium Laser turret (7), 180° Railgun turret (8)."""


def test_SFA_ATK_2_forward_line_180_and_360_turrets_and_range() -> None:
    """SFA-ATK-2: the forward Light Laser reaches R1 only (on its line, in range); the
    360° turret reaches all four; the 180° turret every one but R4 astern."""
    game = make_game(
        craft(0, "battery", (5, 9), 0, id="B1", gunners=[pilot(), pilot()]),
        craft(1, "post", (5, 4), 3, id="R1"),  # straight ahead, 5 hexes
        craft(1, "post", (5, 3), 3, id="R2"),  # straight ahead, 6 hexes
        craft(1, "post", (8, 8), 3, id="R3"),  # ahead-right, 3 hexes, off the line
        craft(1, "post", (5, 11), 3, id="R4"),  # astern, 2 hexes
        designs=[BATTERY, POST],
    )
    select(
        game,
        {
            "B1#0": attack("B1#0", "Light Laser"),
            "B1#1": attack("B1#1", "Medium Laser"),
            "B1#2": attack("B1#2", "Railgun"),
        },
    )
    reach = {}
    for actor in ("B1#2", "B1#1", "B1#0"):  # Speeds 3, 4, 6
        run_until(game, actor, "resolve")
        reach[actor] = {a.target for a in game.legal_actions() if a.target}
        fire(game, actor)
    assert reach == {
        "B1#0": {"R1"},
        "B1#1": {"R1", "R2", "R3", "R4"},
        "B1#2": {"R1", "R2", "R3"},
    }


def test_SFA_ATK_2_a_target_out_of_reach_is_refused() -> None:
    """SFA-ATK-2: firing at a target the weapon cannot reach is illegal."""
    game = at_resolve(
        craft(0, "gun", (5, 9), 0, id="B1"),
        craft(1, "post", (8, 8), 3, id="R1"),
        designs=[design("gun", weapon("light_laser"), move=0), POST],
        picks={"B1#0": attack("B1#0", "Light Laser")},
    )
    with pytest.raises(IllegalAction, match="SFA-ATK-2"):
        game.check(A.Resolve(actor="B1#0", target="R1"))


@pytest.mark.parametrize(
    ("kind", "blocks"), [("asteroid", True), ("debris", False), ("mine", False), ("ring", False)]
)
def test_SFA_ATK_2_only_asteroids_block_the_line_of_fire(kind: str, blocks: bool) -> None:
    """SFA-ATK-2: an asteroid between the craft blocks every weapon, even a 360° turret;
    debris, mines and rings do not."""
    game = make_game(
        craft(0, "battery", (5, 9), 0, id="B1", gunners=[pilot(), pilot()]),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[BATTERY, POST],
        terrain=[((5, 7), kind)],
    )
    select(game, {"B1#1": attack("B1#1", "Medium Laser")})
    run_until(game, "B1#1", "resolve")
    reachable = A.Resolve(actor="B1#1", target="R1") in game.legal_actions()
    assert reachable is not blocks
    if blocks:
        with pytest.raises(IllegalAction, match="SFA-ATK-2"):
            game.check(A.Resolve(actor="B1#1", target="R1"))


def test_SFA_ATK_2_a_turret_needs_a_gunner_separate_from_the_pilot() -> None:
    """SFA-ATK-2: with a gunner aboard, the turret is the gunner's; with none, nobody
    fires it: a turret needs a dedicated gunner separate from the pilot (the seed's
    Weapons section), so a crew-1 craft's pilot may not select it."""
    crewed = make_game(
        craft(0, "battery", (5, 9), 0, id="B1", gunners=[pilot(), pilot()]),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[BATTERY, POST],
    )
    assert {a.item for a in crewed.legal_actions()} == {"", "Light Laser"}
    alone = make_game(
        craft(0, "solo", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[design("solo", weapon("medium_laser", turret=True), move=0), POST],
    )
    assert alone.state.craft["B1"].gunners == ()
    assert attack("B1#0", "Medium Laser") not in alone.legal_actions()
    with pytest.raises(IllegalAction, match="cannot select"):
        alone.check(attack("B1#0", "Medium Laser"))


# ---- SFA-ATK-3 ----------------------------------------------------------------------


def test_SFA_ATK_3_sixes_succeed_and_ones_cancel() -> None:
    """SFA-ATK-3: 10 and 6 succeed, the 1 cancels one of them: 1 damage."""
    game = gun_on_post()  # 3 + 2 + 5 - 6 = 4 dice
    script(game, 10, 6, ONE, MISS)
    fire(game, "B1#0", "R1")
    (shot,) = shots(game)
    assert faces(shot) == [10, 6, 1, 5]
    assert shot.data["damage"] == 1
    assert game.state.craft["R1"].structure == 9


def test_SFA_ATK_3_every_net_success_is_a_point_of_structure() -> None:
    """SFA-ATK-3: four successes take 4 Structure."""
    game = gun_on_post()
    script(game, 6, 7, 8, 9)
    fire(game, "B1#0", "R1")
    assert game.state.craft["R1"].structure == 6


# ---- SFA-ATK-4 ----------------------------------------------------------------------


def test_SFA_ATK_4_a_botch_costs_2_speed_next_turn() -> None:
    """SFA-ATK-4: more 1s than successes is a botch: -2 Speed for all the craft's actions
    in the next turn, and only that turn."""
    game = make_game(
        craft(0, "gun", (5, 9), 0, id="B1", gunners=[pilot()]),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[
            design(
                "gun", weapon("light_laser"), weapon("heavy_laser", turret=True), move=0, crew=2
            ),
            POST,
        ],
    )
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    run_until(game, "B1#0", "resolve")
    script(game, ONE, ONE, HIT, MISS)
    fire(game, "B1#0", "R1")
    assert events(game, "SFA-ATK-4")[-1].data["unit"] == "B1"
    assert shots(game)[0].data["damage"] == 0
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    assert game.state.speeds["B1#0"] == 3 + 2 + 1 - 2
    assert game.state.speeds["B1#1"] == 3 + 1 - 2  # the gunner's action too
    run_until(game, "B1#0", "resolve")
    fire(game, "B1#0")
    finish_turn(game)
    select(game)
    assert game.state.speeds["B1#0"] == 3 + 2


def test_SFA_ATK_4_as_many_ones_as_successes_is_no_botch() -> None:
    """SFA-ATK-4: one 1 against one success is a miss, not a botch."""
    game = gun_on_post()
    script(game, ONE, HIT, MISS, MISS)
    fire(game, "B1#0", "R1")
    assert not events(game, "SFA-ATK-4")
    assert not game.state.craft["B1"].botched


# ---- SFA-ATK-5 ----------------------------------------------------------------------


def test_SFA_ATK_5_a_willpower_success_cannot_be_cancelled() -> None:
    """SFA-ATK-5: four 1s would botch; with a Willpower point the roll does 1 damage and
    does not botch. The point comes off the pilot's Willpower."""
    game = gun_on_post()
    script(game, ONE, ONE, ONE, ONE)
    fire(game, "B1#0", "R1", willpower=True)
    assert shots(game)[0].data["damage"] == 1
    assert game.state.craft["R1"].structure == 9
    assert not events(game, "SFA-ATK-4")
    assert game.state.craft["B1"].willpower == 4


def test_SFA_ATK_5_one_point_buys_one_success_for_a_fire_linked_pair() -> None:
    """SFA-ATK-5: one Willpower point is one success, however many rolls the action makes."""
    game = gun_on_post(weapon("light_laser", count=2, fire_linked=True))
    script(game, *[MISS] * 8)
    fire(game, "B1#0", "R1", willpower=True)
    assert len(shots(game)) == 2
    assert game.state.craft["R1"].structure == 9


# ---- SFA-ATK-6 ----------------------------------------------------------------------


def test_SFA_ATK_6_a_rocket_salvo_is_used_up() -> None:
    """SFA-ATK-6: holding fire keeps the salvo; firing it uses it up for good."""
    game = gun_on_post(weapon("rocket_salvo"), weapon("light_laser"), name="Rocket Salvo")
    fire(game, "B1#0")  # holds fire
    select(game, {"B1#0": attack("B1#0", "Rocket Salvo")})
    run_until(game, "B1#0", "resolve")
    script(game, *[MISS] * 21)  # 3 + 2 + 8 - 6 = 7 dice, three times
    fire(game, "B1#0", "R1")
    assert game.state.craft["B1"].expended == {"Rocket Salvo": 1}
    assert {a.item for a in game.legal_actions()} == {"", "Light Laser"}
    with pytest.raises(IllegalAction, match="SFA-SEQ-1"):
        game.check(attack("B1#0", "Rocket Salvo"))


# ---- SFA-ATK-7 ----------------------------------------------------------------------


def test_SFA_ATK_7_a_rocket_salvo_makes_three_damage_checks() -> None:
    """SFA-ATK-7: three rolls of the same 7-die pool at the same target."""
    game = gun_on_post(weapon("rocket_salvo"), name="Rocket Salvo")
    script(game, HIT, *[MISS] * 6, HIT, HIT, *[MISS] * 5, HIT, HIT, HIT, *[MISS] * 4)
    fire(game, "B1#0", "R1")
    assert [(s.data["dice"], s.data["damage"]) for s in shots(game)] == [(7, 1), (7, 2), (7, 3)]
    assert game.state.craft["R1"].structure == 10 - 6


def test_SFA_ATK_7_fire_linked_weapons_each_roll_their_own_pool() -> None:
    """SFA-ATK-7: two fire-linked Light Lasers fire in one action, a pool each; two
    unlinked ones fire one per action."""
    linked = gun_on_post(weapon("light_laser", count=2, fire_linked=True))
    assert linked.state.speeds["B1#0"] == 3 + 2 + 1
    script(linked, HIT, MISS, MISS, MISS, HIT, HIT, MISS, MISS)
    fire(linked, "B1#0", "R1")
    assert [s.data["damage"] for s in shots(linked)] == [1, 2]
    unlinked = gun_on_post(weapon("light_laser", count=2))
    script(unlinked, *[MISS] * 4)
    fire(unlinked, "B1#0", "R1")
    assert len(shots(unlinked)) == 1


# ---- SFA-SCL-1 ----------------------------------------------------------------------


def test_SFA_SCL_1_the_seeds_macron_and_reogi_example() -> None:
    """SFA-SCL-1: the starship Macron's pool of 10 against Reogi's total Soak 8 rolls 2
    dice; 2 successes and two scale steps down make 12 damage."""
    game = at_resolve(
        craft(0, "macron", (5, 9), 0, id="MACRON", pilot=pilot(3, 2)),
        craft(1, "reogi", (5, 5), 3, id="REOGI", pilot=pilot(3, 2)),
        designs=[
            design("macron", weapon("light_laser"), scale="Starship", move=0, structure=20),
            # Reogi stood in as a Street-Fighter-scale stat block: Soak 3 + Dex 3 + Piloting 2.
            design("reogi", scale="Street Fighter", soak=3, move=0, structure=10),
        ],
        picks={"MACRON#0": attack("MACRON#0", "Light Laser")},
        actor="MACRON#0",
    )
    script(game, HIT, HIT)
    fire(game, "MACRON#0", "REOGI")
    (shot,) = shots(game)
    assert shot.data["dice"] == 3 + 2 + 0 + 5 - 8 == 2
    assert shot.data["damage"] == 2 + 10
    assert game.state.craft["REOGI"].structure == 10 - 12


def test_SFA_SCL_1_firing_down_adds_nothing_to_a_miss() -> None:
    """SFA-SCL-1: a starship's roll with no success stays a miss."""
    game = at_resolve(
        craft(0, "ship", (5, 9), 0, id="B1"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[design("ship", weapon("light_laser"), scale="Starship", move=0), POST],
        picks={"B1#0": attack("B1#0", "Light Laser")},
    )
    script(game, MISS, MISS, MISS, MISS)
    fire(game, "B1#0", "R1")
    assert shots(game)[0].data["damage"] == 0
    assert game.state.craft["R1"].structure == 10


def test_SFA_SCL_1_firing_up_loses_five_successes() -> None:
    """SFA-SCL-1: a starfighter's 7 successes on a starship do 2 damage; 4 do none."""
    ship = design("ship", scale="Starship", soak=1, move=0, structure=20)
    for hits, damage in ((7, 2), (4, 0)):
        game = gun_on_post(
            weapon("heavy_laser"),
            name="Heavy Laser",
            post=ship,
        )  # 3 + 2 + 15 - 6 = 14 dice
        script(game, *[HIT] * hits, *[MISS] * (14 - hits))
        fire(game, "B1#0", "R1")
        assert shots(game)[0].data["damage"] == damage
        assert game.state.craft["R1"].structure == 20 - damage


def test_SFA_SCL_1_a_street_fighter_scale_weapon_fires_up_at_a_starfighter() -> None:
    """SFA-SCL-1: the attack's scale is its weapon's: a Street-Fighter-scale gun on a
    starfighter loses 5 successes against another starfighter."""
    game = gun_on_post(weapon("light_laser", scale="Street Fighter"))
    script(game, HIT, HIT, HIT, HIT)
    fire(game, "B1#0", "R1")
    assert shots(game)[0].data["damage"] == 0


# ---- SFA-STR-1 ----------------------------------------------------------------------


def test_SFA_STR_1_disabled_at_0_drifts_and_is_destroyed_at_minus_start() -> None:
    """SFA-STR-1: at 0 the craft is disabled: it chooses nothing, drifts a hex a turn
    and can still be shot; at minus its starting Structure it is destroyed."""
    game = make_game(
        craft(0, "gun", (5, 9), 0, id="B1"),
        craft(0, "gun", (1, 10), 0, id="B2"),
        craft(1, "frail", (5, 5), 3, id="R1"),
        craft(1, "frail", (10, 1), 3, id="R2"),
        designs=[
            design("gun", weapon("light_laser"), move=0),
            design("frail", soak=1, move=1, structure=2),
        ],
    )
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    run_until(game, "B1#0", "resolve")
    assert game.state.craft["R1"].hex == at(5, 6)  # R1 (Speed 5) flew before B1 (6)
    script(game, HIT, HIT, MISS, MISS)  # 3 + 2 + 5 - 6 = 4 dice
    fire(game, "B1#0", "R1")
    r1 = game.state.craft["R1"]
    assert (r1.structure, r1.disabled) == (0, True)
    assert [e.data["unit"] for e in events(game, "SFA-STR-1") if e.data.get("disabled")] == ["R1"]
    # Turn 2: R1 drifts one hex south and is not asked to choose.
    assert game.state.craft["R1"].hex == at(5, 7)
    assert "R1#0" not in game.state.to_select
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    run_until(game, "B1#0", "resolve")
    assert A.Resolve(actor="B1#0", target="R1") in game.legal_actions()
    script(game, HIT, HIT, MISS, MISS)
    fire(game, "B1#0", "R1")
    assert "R1" in game.state.destroyed and "R1" not in game.state.craft


def test_SFA_STR_1_a_disabled_craft_loses_its_action_this_turn() -> None:
    """SFA-STR-1: R1 disabled before its turn to act neither moves nor fires."""
    game = make_game(
        craft(0, "gun", (5, 9), 0, id="B1"),
        craft(1, "frail", (5, 5), 3, id="R1"),
        craft(1, "frail", (10, 1), 3, id="R2"),
        designs=[
            design("gun", weapon("light_laser"), move=0),
            design("frail", weapon("light_laser"), soak=1, move=1, structure=2),
        ],
    )
    select(game, {"B1#0": attack("B1#0", "Light Laser"), "R1#0": attack("R1#0", "Light Laser", 2)})
    run_until(game, "B1#0", "resolve")
    script(game, HIT, HIT, MISS, MISS)
    fire(game, "B1#0", "R1")
    assert game.state.turn == 2  # R1's faster action never came
    assert [e.data["unit"] for e in events(game, "SFA-MOV-1")] == ["R2", "B1"]


def test_SFA_STR_1_a_drifting_wreck_leaves_the_map() -> None:
    """SFA-STR-1 and SFA-MOV-6: a disabled craft on the edge drifts off the map."""
    game = make_game(
        craft(0, "gun", (5, 9), 0, id="B1"),
        craft(1, "frail", (5, 5), 3, id="R1"),
        craft(1, "frail", (10, 0), 0, id="R2"),
        designs=[
            design("gun", weapon("light_laser"), move=0),
            design("frail", soak=1, move=0, structure=2),
        ],
    )
    # Set up directly on the state: R2 is already a wreck on the top row, facing north.
    game.state.craft["R2"].structure = 0
    game.state.craft["R2"].disabled = True
    play_turn(game)
    assert "R2" not in game.state.craft and "R2" not in game.state.destroyed
    assert events(game, "SFA-MOV-6")[-1].data["unit"] == "R2"


def test_SFA_STR_1_option_zero_destroys() -> None:
    """SFA-STR-1: with zero_destroys, 0 Structure is the end of the craft."""
    game = gun_on_post(
        post=design("frail", soak=1, move=0, structure=2),
        options={"zero_destroys": True},
    )
    script(game, HIT, HIT, MISS, MISS)
    fire(game, "B1#0", "R1")
    assert "R1" in game.state.destroyed
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == BLUE


# ---- SFA-WIN-1 and SFA-WIN-2 ---------------------------------------------------------


def test_SFA_WIN_1_a_side_with_no_craft_fighting_loses() -> None:
    """SFA-WIN-1: Red's only craft disabled is enough: Blue wins at once."""
    game = gun_on_post(post=design("frail", soak=1, move=0, structure=2))
    script(game, HIT, HIT, MISS, MISS)
    fire(game, "B1#0", "R1")
    assert game.state.craft["R1"].disabled
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == BLUE
    assert "Red has no craft" in outcome.reason
    assert events(game, "SFA-WIN-1")[-1].data["winner"] == BLUE
    assert game.current_player() is None and game.legal_actions() == []


def test_SFA_WIN_1_both_sides_out_is_a_draw() -> None:
    """SFA-WIN-1: a collision that leaves neither side a craft is a draw."""
    game = make_game(
        craft(0, "light", (5, 9), 0, id="B1"),
        craft(1, "heavy", (5, 6), 3, id="R1"),
        designs=[
            design("light", soak=1, move=3, structure=3),
            design("heavy", soak=2, move=0, structure=6),
        ],
        options={"collision_soak": False, "zero_destroys": True},
    )
    select(game)
    run_until(game, "B1#0", "move")
    fly(game, "B1", "FFF", ram=True)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert set(game.state.destroyed) == {"B1", "R1"}


def turn_limit_game(options: dict[str, Any] | None = None) -> Game:
    """A one-turn game in which B1 takes 3 Structure off R1 (of 10)."""
    game = gun_on_post(turn_limit=1, options=options)
    script(game, HIT, HIT, HIT, MISS)
    fire(game, "B1#0", "R1")
    return game


def test_SFA_WIN_2_at_the_turn_limit_the_side_that_did_more_damage_wins() -> None:
    """SFA-WIN-2: 3 of Red's 10 Structure against none of Blue's: Blue wins."""
    game = turn_limit_game()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == BLUE
    assert outcome.scores == {BLUE: 0.3, RED: 0.0}
    assert "turn limit 1" in events(game, "SFA-WIN-2")[-1].text


def test_SFA_WIN_2_option_draw() -> None:
    """SFA-WIN-2: with turn_limit_result=draw, the turn limit is always a draw."""
    outcome = turn_limit_game({"turn_limit_result": "draw"}).outcome()
    assert outcome is not None and outcome.winner is None


def test_SFA_WIN_2_equal_scores_draw() -> None:
    """SFA-WIN-2: nobody hurt: a draw."""
    game = gun_on_post(turn_limit=1)
    fire(game, "B1#0")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.scores == {BLUE: 0.0, RED: 0.0}


def test_SFA_WIN_2_a_craft_that_left_the_map_is_not_knocked_out() -> None:
    """SFA-WIN-2: B2 disengages unhurt and nobody fires: still a draw."""
    game = make_game(
        craft(0, "gun", (5, 9), 0, id="B1"),
        craft(0, "gun", (2, 0), 0, id="B2"),
        craft(1, "post", (5, 5), 3, id="R1"),
        designs=[design("gun", weapon("light_laser")), POST],
        turn_limit=1,
    )
    play_turn(game, moves={"B2": "F"})
    assert "B2" not in game.state.craft
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.scores == {BLUE: 0.0, RED: 0.0}
