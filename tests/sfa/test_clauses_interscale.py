"""Clause tests for interscale battles: Starship time and Street Fighters
(data/sfa/rules.md, SFA-SCL-1, SFA-SCL-2, SFA-SF-1..7).

Positions are inline scenarios built with `builders`; dice are scripted; the game is
played through the Game API.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.errors import DataError, IllegalAction
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.person import BASIC_MANEUVERS, fighter_catalog

from .builders import (
    HIT,
    MISS,
    at,
    attack,
    craft,
    design,
    events,
    fighter,
    finish_turn,
    fire,
    make_game,
    pass_windows,
    pilot,
    play_turn,
    run_until,
    script,
    select,
    sheet,
    weapon,
)

SHIP = design("ship", weapon("light_laser"), scale="Starship", soak=1, move=2, structure=20)
"""A Starship-scale craft; its pilot fires a forward Light Laser."""
FIGHTER = design("fighter", weapon("light_laser"), weapon("heavy_laser"), soak=1, move=3)
"""A Starfighter with forward Light and Heavy Lasers."""


def selected(game: Game, actor: str) -> list[int]:
    """The turns on which `actor` was asked for a selection."""
    return [e.data["turn"] for e in events(game, "SFA-SEQ-1") if e.data.get("actor") == actor]


def ship_and_fighter(turn_limit: int = 7, column: int = 5, **kw: Any) -> Game:
    """Starship S at (5, 3) facing south; Starfighter B at (`column`, 12) facing north."""
    return make_game(
        craft(0, "fighter", (column, 12), 0, id="B"),
        craft(1, "ship", (5, 3), 3, id="S"),
        designs=[SHIP, FIGHTER],
        size=(12, 14),
        turn_limit=turn_limit,
        **kw,
    )


# ---- SFA-SCL-2: Starship time -----------------------------------------------------------


def test_SFA_SCL_2_starships_act_on_turns_1_and_6_and_the_limit_counts_starfighter_turns() -> None:
    """SFA-SCL-2: with a Starfighter present, the Starship chooses and acts on turns 1
    and 6 only; the fighter acts every turn; the turn limit of 7 is 7 Starfighter turns."""
    game = ship_and_fighter(column=1)
    while not game.is_over():
        play_turn(game)
    assert selected(game, "S#0") == [1, 6]
    assert selected(game, "B#0") == [1, 2, 3, 4, 5, 6, 7]
    assert game.state.turn == 7
    assert events(game, "SFA-WIN-2")
    waits = events(game, "SFA-SCL-2")
    assert [e.data["turn"] for e in waits] == [2, 7]
    assert "until turn 6" in waits[0].text
    # The ship flew on its own turns only: 2 hexes south, 1 each time.
    assert game.state.craft["S"].hex == at(5, 5)


def test_SFA_SCL_2_a_passive_starship_can_be_shot_and_keeps_its_maneuvers() -> None:
    """SFA-SCL-2: between its turns the Starship is a target like any other, and the
    Soak of the maneuvers it flew on its own turn stays with it."""
    game = ship_and_fighter()
    play_turn(game, moves={"S": "FT", "B": "F"})  # S: 1 hex, then a Turn (+1 Soak)
    assert game.state.turn == 2 and game.state.craft["S"].hex == at(5, 4)
    select(game, {"B#0": attack("B#0", "Heavy Laser")})
    assert game.state.craft["S"].maneuver_soak == 1
    # B flies to (5, 10), 6 hexes short of S: 3 + 2 + 15 - Soak (3 + 2 + 1 + 0 + 1) = 13.
    run_until(game, "B#0", "resolve")
    script(game, *[HIT] * 13)
    fire(game, "B#0", "S")
    shot = next(e for e in events(game, "SFA-ATK-1") if e.data.get("target") == "S")
    assert shot.data["dice"] == 13
    # 13 successes, less 5 for firing one scale up (SFA-SCL-1).
    assert shot.data["damage"] == 8
    assert game.state.craft["S"].structure == 12


def test_SFA_SCL_2_option_off_every_craft_acts_every_turn() -> None:
    """SFA-SCL-2: with `starship_time` false, the Starship acts every turn."""
    game = ship_and_fighter(turn_limit=3, rules={"starship_time": False})
    while not game.is_over():
        play_turn(game)
    assert selected(game, "S#0") == [1, 2, 3]
    assert not events(game, "SFA-SCL-2")


def test_SFA_SCL_2_starships_alone_act_every_turn() -> None:
    """SFA-SCL-2: with no smaller unit in the battle, a turn is a Starship turn."""
    game = make_game(
        craft(0, "ship", (5, 10), 0, id="S1"),
        craft(1, "ship", (5, 3), 3, id="S2"),
        designs=[SHIP],
        size=(12, 14),
        turn_limit=3,
    )
    while not game.is_over():
        play_turn(game)
    assert selected(game, "S1#0") == [1, 2, 3]


# ---- Street Fighters --------------------------------------------------------------------

HITTER = sheet(
    "hitter", strength=3, dexterity=3, stamina=2, athletics=2, techniques={"punch": 3, "kick": 2}
)
TOUGH = sheet("tough", strength=2, dexterity=2, stamina=4, athletics=1, techniques={"punch": 1})
SUPER = sheet("super", strength=5, dexterity=3, stamina=2, techniques={"punch": 5})


def brawl(**kw: Any) -> Game:
    """Only people, so a Street Fighter-scale map: H at (3, 5), T just north at (3, 4)."""
    return make_game(
        fighter(0, "hitter", (3, 5), id="H"),
        fighter(1, "tough", (3, 4), id="T"),
        people=[HITTER, TOUGH],
        size=(8, 8),
        **kw,
    )


def test_SFA_SF_1_street_fighters_load_from_sheets() -> None:
    """SFA-SF-1: a sheet becomes a scale-0 unit with Health as its Structure; the
    basic punches and kicks are its maneuvers when the sheet lists none."""
    game = brawl()
    state = game.state
    hitter = state.craft["H"]
    design_ = state.type_of(hitter)
    assert design_.scale == 0 and design_.fighter is not None
    assert hitter.structure == 10 and state.start_structure["H"] == 10
    assert [w.name for w in design_.weapons] == [m.name for m in BASIC_MANEUVERS]
    assert "reogi" in fighter_catalog() and fighter_catalog()["reogi"].fighter is not None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"type": "nobody"}, "fighters[0].type"),
        ({"at": [40, 1]}, "fighters[0].at"),
    ],
)
def test_SFA_SF_1_bad_fighter_entries_name_the_field(change: dict[str, Any], field: str) -> None:
    """SFA-SF-1: scenario errors name the field."""
    entry = {**fighter(0, "hitter", (3, 5), id="H"), **change}
    with pytest.raises(DataError, match=field.replace("[", r"\[").replace("]", r"\]")):
        make_game(entry, fighter(1, "tough", (3, 4)), people=[HITTER, TOUGH])


def test_SFA_SF_1_bad_sheet_names_the_field() -> None:
    """SFA-SF-1: a sheet's errors name the fighter and the field."""
    bad = sheet("bad", health=0)
    with pytest.raises(DataError, match="fighter 'bad': field 'health'"):
        make_game(fighter(0, "bad", (3, 5)), fighter(1, "tough", (3, 4)), people=[bad, TOUGH])


def test_SFA_SF_2_speed_is_dexterity_plus_the_maneuver() -> None:
    """SFA-SF-2: Speed = Dexterity + the maneuver's Speed modifier (Jab +2, Fierce -1)."""
    game = brawl()
    select(game, {"H#0": attack("H#0", "Jab"), "T#0": attack("T#0", "Fierce")})
    assert game.state.speeds == {"H#0": 3 + 2, "T#0": 2 - 1}


def test_SFA_SF_5_damage_pool_is_strength_technique_modifier_less_stamina() -> None:
    """SFA-SF-5: Fierce: Strength 3 + Punch 3 + 3 - Stamina 4 = 5 dice; each net success
    takes 1 Health."""
    game = brawl(dice=[HIT, HIT, MISS, MISS, MISS])
    select(game, {"H#0": attack("H#0", "Fierce")})
    run_until(game, "H#0", "resolve")
    assert {a.target for a in game.legal_actions()} == {"", "T"}
    fire(game, "H#0", "T")
    shot = events(game, "SFA-ATK-1")[0]
    assert shot.data["dice"] == 5 and shot.data["damage"] == 2
    assert game.state.craft["T"].structure == 8
    assert "Health 8" in events(game, "SFA-ATK-1")[-1].text


def test_SFA_SF_5_the_pool_is_at_least_one_die() -> None:
    """SFA-SF-5: Jab: Strength 2 + Punch 1 - 1 - Stamina 2 = 0, so 1 die."""
    game = brawl(dice=[HIT])
    select(game, {"T#0": attack("T#0", "Jab")})
    run_until(game, "T#0", "resolve")
    fire(game, "T#0", "H")
    assert events(game, "SFA-ATK-1")[0].data["dice"] == 1


def test_SFA_SF_3_people_move_athletics_plus_the_maneuver_on_a_street_map() -> None:
    """SFA-SF-3: on a Street Fighter-scale map a person moves to any empty hex within
    Athletics + the maneuver's Move modifier (Jab +0: 2; Fierce -1: 1; the extra move
    +3: 5)."""
    game = brawl()
    select(game, {"H#0": attack("H#0", "Fierce"), "T#0": A.Select(actor="T#0", kind="extra_move")})
    run_until(game, "H#0", "move")
    dests = [a.dest for a in game.legal_actions() if isinstance(a, A.Move)]
    assert None in dests  # standing still
    assert {game.state.craft["H"].hex.distance(d) for d in dests if d is not None} == {1}
    assert at(3, 4) not in dests  # T is there
    with pytest.raises(IllegalAction, match="may move 1 hex this turn"):
        game.check(A.Move(craft="H", dest=at(3, 7)))
    with pytest.raises(IllegalAction, match="not steps"):
        game.check(A.Move(craft="H", steps="F"))
    game.apply(A.Move(craft="H", dest=at(3, 6)))
    assert game.state.craft["H"].hex == at(3, 6)
    assert events(game, "SFA-SF-3")[-1].text == "H (hitter) moves 1 hex to [3, 6]"


def test_SFA_SF_3_reach_on_a_street_map_is_the_maneuvers_range() -> None:
    """SFA-SF-3: a punch reaches 1 hex; 2 hexes away is out of reach."""
    game = make_game(
        fighter(0, "hitter", (3, 6), id="H"),
        fighter(1, "tough", (3, 4), id="T"),
        people=[HITTER, TOUGH],
        size=(8, 8),
    )
    select(game, {"H#0": attack("H#0", "Jab")})
    run_until(game, "H#0", "resolve", moves={})
    assert game.legal_actions() == [A.Resolve(actor="H#0")]


def person_and_craft(**kw: Any) -> Game:
    """Street Fighter P (Strength 5, Punch 5, Stamina 2) at (5, 5) sharing its hex with
    enemy craft C facing north; enemy craft D at (5, 9) facing north."""
    return make_game(
        fighter(0, "super", (5, 5), id="P"),
        craft(1, "fighter", (5, 5), 0, id="C"),
        craft(1, "fighter", (5, 9), 0, id="D"),
        designs=[FIGHTER],
        people=[SUPER],
        size=(12, 12),
        **kw,
    )


def test_SFA_SF_3_on_a_starfighter_map_a_person_stays_and_reaches_its_own_hex() -> None:
    """SFA-SF-3: one Starfighter hex is 500 of a person's: a Street Fighter is not asked
    to move, may share a hex with a craft, and reaches only what is in its own hex."""
    game = person_and_craft()
    assert game.state.occupant(at(5, 5)) is game.state.craft["C"]
    keys = []
    while game.state.phase == "select":
        keys.append(game.state.to_select[0])
        if game.state.to_select[0] == "P#0":
            kinds = {a.kind for a in game.legal_actions()}
            assert kinds == {"none", "attack"}
        game.apply(
            attack("P#0", "Fierce")
            if game.state.to_select[0] == "P#0"
            else A.Select(actor=game.state.to_select[0], kind="none")
        )
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("P#0", "resolve")
    targets = {a.target for a in game.legal_actions()}
    assert targets == {"", "C"}


def test_SFA_SF_5_a_street_fighter_hitting_a_starfighter_loses_5() -> None:
    """SFA-SF-5, SFA-SCL-1: Fierce: 5 + 5 + 3 - C's total Soak 6 = 7 dice; 7 successes
    less 5 for firing one scale up = 2 damage."""
    game = person_and_craft(dice=[HIT] * 7)
    select(game, {"P#0": attack("P#0", "Fierce")})
    fire(game, "P#0", "C")
    shot = events(game, "SFA-ATK-1")[0]
    assert (shot.data["dice"], shot.data["damage"]) == (7, 2)


def test_SFA_SF_5_a_starfighter_hitting_a_street_fighter_adds_5_to_a_hit() -> None:
    """SFA-SF-5, SFA-SCL-1: D's Light Laser: 3 + 2 + 0 + 5 - Stamina 2 = 8 dice; one
    success gains 5 for firing one scale down; a miss stays a miss."""
    game = person_and_craft(dice=[HIT] + [MISS] * 7)
    select(game, {"D#0": attack("D#0", "Light Laser")})
    run_until(game, "D#0", "resolve")
    fire(game, "D#0", "P")
    shot = events(game, "SFA-ATK-1")[0]
    assert (shot.data["dice"], shot.data["damage"]) == (8, 6)
    assert game.state.craft["P"].structure == 4
    finish_turn(game)
    select(game, {"D#0": attack("D#0", "Light Laser")})
    run_until(game, "D#0", "resolve")
    script(game, *[MISS] * 8)
    fire(game, "D#0", "P")
    assert [e for e in events(game, "SFA-ATK-1") if "dice" in e.data][-1].data["damage"] == 0


def test_SFA_SF_7_superpowered_street_fighters_count_as_starfighters() -> None:
    """SFA-SF-7: with the option, the person and the Starfighter are one scale: no
    successes lost or gained."""
    game = person_and_craft(
        dice=[HIT] * 7 + [HIT] + [MISS] * 7, options={"superpowered_street_fighters": True}
    )
    select(game, {"P#0": attack("P#0", "Fierce"), "D#0": attack("D#0", "Light Laser")})
    fire(game, "P#0", "C")
    run_until(game, "D#0", "resolve")
    fire(game, "D#0", "P")
    first, _, second, _ = events(game, "SFA-ATK-1")
    assert first.data["damage"] == 7
    assert second.data["damage"] == 1


def test_SFA_SF_6_a_person_at_0_health_is_knocked_out_and_lies_still() -> None:
    """SFA-SF-6: at 0 Health a person is knocked out: out of the fight, not asked to
    choose, and it does not drift. At minus its Health it is killed."""
    game = person_and_craft(dice=[HIT] * 5 + [MISS] * 3)
    select(game, {"D#0": attack("D#0", "Light Laser")})
    run_until(game, "D#0", "resolve")
    fire(game, "D#0", "P")  # 5 + 5 = 10 damage
    assert game.state.craft["P"].disabled
    assert any("knocked out" in e.text for e in events(game, "SFA-SF-6"))
    # P's side has nothing left fighting: the game ends.
    assert game.is_over()
    assert game.state.craft["P"].hex == at(5, 5)


def test_SFA_SF_6_a_person_at_minus_its_health_is_killed() -> None:
    """SFA-SF-6: 8 successes + 5 = 13 ... a second hit takes it past -10."""
    game = make_game(
        fighter(0, "super", (5, 5), id="P"),
        fighter(0, "super", (7, 5), id="Q"),
        craft(1, "fighter", (5, 9), 0, id="D"),
        designs=[FIGHTER],
        people=[SUPER],
        size=(12, 12),
        dice=[HIT] * 8 + [MISS] * 8 + [HIT] * 8,
    )
    select(game, {"D#0": attack("D#0", "Light Laser")})
    run_until(game, "D#0", "resolve")
    fire(game, "D#0", "P")  # 8 + 5 = 13: Health -3, knocked out
    assert game.state.craft["P"].disabled
    finish_turn(game)
    select(game, {"D#0": attack("D#0", "Heavy Laser")})
    run_until(game, "D#0", "resolve")
    # D is now at (5, 8), 3 hexes away: 3 + 2 + 15 - 2 = 18 dice.
    script(game, *[HIT] * 8 + [MISS] * 10)
    fire(game, "D#0", "P")
    assert "P" not in game.state.craft and "P" in game.state.destroyed
    assert any("killed" in e.text for e in events(game, "SFA-SF-6"))


# ---- the seed's example ------------------------------------------------------------------


MACRON = design("macron", weapon("light_laser"), scale="Starship", soak=3, move=3)


def test_SFA_SCL_1_the_macron_fires_on_reogi() -> None:
    """SFA-SCL-1, SFA-SF-5 (the seed's example): the starship Macron's attack pool is 10
    (Dexterity 3 + Piloting 2 + Handling 0 + Light Laser 5); Reogi's Soak is his
    Stamina 8, so 2 dice roll; 2 successes + 10 for two scales down = 12 damage."""
    game = make_game(
        craft(0, "macron", (5, 9), 0, id="MACRON", pilot=pilot(3, 2)),
        fighter(1, "reogi", (5, 4), id="REOGI"),
        designs=[MACRON],
        size=(12, 12),
        dice=[HIT, HIT],
    )
    select(game, {"MACRON#0": attack("MACRON#0", "Light Laser")})
    run_until(game, "MACRON#0", "resolve")  # flies 1 hex: 4 hexes from Reogi
    fire(game, "MACRON#0", "REOGI")
    shot = events(game, "SFA-ATK-1")[0]
    assert "2 dice against Soak 8" in shot.text
    assert (shot.data["dice"], shot.data["damage"]) == (2, 12)
    assert game.state.craft["REOGI"].structure == 10 - 12
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Blue"


def test_builtin_interscale_scenarios_load() -> None:
    """The built-in interscale scenarios load and start (SFA-SCL-2, SFA-SF-3)."""
    frigate = Game(load_scenario("starship-vs-fighters"), seed=1)
    assert frigate.state.mixed_time and frigate.state.map_scale == 1
    brawl_ = Game(load_scenario("street-brawl"), seed=1)
    assert brawl_.state.map_scale == 0
    assert "Street Fighter scale" in brawl_.events[0].text


def test_SFA_SF_4_a_sheet_s_own_maneuvers_replace_the_basic_ones() -> None:
    """SFA-SF-4: an attack maneuver names its technique (or a number of dice), Speed,
    Damage, Move and range; a sheet listing its own maneuvers has only those."""
    blaster = sheet(
        "blaster",
        strength=2,
        dexterity=4,
        stamina=2,
        techniques={"focus": 3},
        maneuvers=[
            {"name": "Fireball", "technique": "focus", "speed": -2, "damage": 4, "range": 3},
            {"name": "Palm", "technique": 2, "speed": 1, "damage": 0},
        ],
    )
    game = make_game(
        fighter(0, "blaster", (3, 5), id="B"),
        fighter(1, "tough", (3, 4), id="T"),
        people=[blaster, TOUGH],
        size=(8, 8),
    )
    design_ = game.state.type_of(game.state.craft["B"])
    assert [w.name for w in design_.weapons] == ["Fireball", "Palm"]
    fireball = design_.weapons[0]
    assert (fireball.speed, fireball.range) == (-2, 3)
    select(game, {"B#0": attack("B#0", "Fireball"), "T#0": attack("T#0", "Jab")})
    assert game.state.speeds["B#0"] == 4 - 2
