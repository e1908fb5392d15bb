"""Issue 11 item 6: Temporal Displacement (SFA-TEC-28) re-rolls "the last die rolled",
"at any time, without the use of an action", for 5 Power a use.

So it is asked after the roll is seen, about a roll made by its craft or against it:
weapon attacks, missiles, area effects, obstacle rolls and tractor beams. The rules
notes (C.6) read the die as the whole roll (the default); option `temporal_reroll` =
die re-rolls only the die rolled last.

Positions are inline scenarios built with `builders`; dice are scripted. A regular
pilot (Dexterity 3, Piloting 2) in a Soak 1 craft has total Soak 6, so a Medium Laser
rolls 3 + 2 + 10 - 6 = 9 dice and a missile 10 - 6 = 4.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.core.seat import Seat
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.heuristic import SfaHeuristic

from .builders import (
    BLUE,
    HIT,
    MISS,
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
    pass_windows,
    run_until,
    script,
    select,
    weapon,
)

TD = ["temporal_displacement"]
TIMED = design("timed", weapon("medium_laser"), power=10, technologies=TD)
"""A fighter with the device and Power for two uses."""
ONCE = design("once", weapon("medium_laser"), power=5, technologies=TD)
"""Power for one use only."""
PLAIN = design("plain", weapon("medium_laser"))
NO_STARSHIP_TIME = {"starship_time": False}

KEEP_B1 = A.Displace(craft="B1", use=False)
AGAIN_B1 = A.Displace(craft="B1", use=True)
KEEP_R1 = A.Displace(craft="R1", use=False)
AGAIN_R1 = A.Displace(craft="R1", use=True)


def offers(game: Game) -> list[Any]:
    """The re-roll offers in the log, newest last."""
    return [e for e in events(game, "SFA-TEC-28") if "may re-roll" in e.text]


def duel(blue: str, red: str, designs: list[dict[str, Any]], **kw: Any) -> Game:
    """B1 at (5, 9) facing north, R1 at (5, 3) facing south: B1 fires up its column."""
    return make_game(
        craft(0, blue, (5, 9), 0, id="B1"),
        craft(1, red, (5, 3), 3, id="R1"),
        designs=designs,
        **kw,
    )


def b1_fires(game: Game, *dice: int) -> None:
    """B1 flies a hex and fires its Medium Laser (9 dice) at R1, rolling `dice`."""
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    fly(game, "B1", "F")
    script(game, *dice)
    fire(game, "B1#0", "R1")


# ---- the decision through the Game API -----------------------------------------------


def test_SFA_TEC_28_after_seeing_its_own_roll_the_user_is_offered_a_reroll() -> None:
    """SFA-TEC-28 "at any time": the roll is made and shown (its dice in the log), no
    damage is done yet, and B1's side is asked: keep or re-roll, nothing else."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    b1_fires(game, *[MISS] * 9)
    assert game.current_player() == BLUE
    assert game.legal_actions() == [KEEP_B1, AGAIN_B1]
    (offer,) = offers(game)
    assert faces(offer) == [MISS] * 9
    assert game.state.craft["R1"].structure == 10
    assert not events(game, "SFA-ATK-1")  # the attack is not over


def test_SFA_TEC_28_check_refuses_everything_else_while_a_roll_waits() -> None:
    """SFA-TEC-28: while the roll waits, only the asked craft's answer is legal; with no
    roll waiting, an answer is refused."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    with pytest.raises(IllegalAction, match="no roll to re-roll"):
        game.check(AGAIN_B1)
    b1_fires(game, *[MISS] * 9)
    with pytest.raises(IllegalAction, match="SFA-TEC-28"):
        game.check(A.Resolve(actor="B1#0", target="R1"))
    with pytest.raises(IllegalAction, match="SFA-TEC-28"):
        game.check(A.Pass())
    with pytest.raises(IllegalAction, match="not R1"):
        game.check(AGAIN_R1)
    game.check(AGAIN_B1)
    game.check(KEEP_B1)


def test_SFA_TEC_28_the_reroll_stands_and_the_attack_goes_on() -> None:
    """SFA-TEC-28: B1 sees 9 misses, pays 5 Power; the new roll (3 hits) stands once
    kept, and its damage is done once: R1 10 - 3."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    b1_fires(game, *[MISS] * 9, *[HIT] * 3, *[MISS] * 6)
    game.apply(AGAIN_B1)
    assert game.state.craft["B1"].power == 5
    assert game.legal_actions() == [KEEP_B1, AGAIN_B1]  # 5 Power left: a second use
    game.apply(KEEP_B1)
    assert game.state.craft["R1"].structure == 7
    assert [e.text for e in events(game, "SFA-ATK-1")] == [
        "B1#0 fires Medium Laser at R1 (plain): 9 dice against Soak 6: 3 damage",
        "R1 (plain) takes 3 damage (Medium Laser); Structure 7",
    ]
    assert game.state.temporal is None
    assert dice_left(game) == 0


def test_SFA_TEC_28_keeping_the_roll_costs_nothing() -> None:
    """SFA-TEC-28: 5 Power a use, nothing when the roll is kept."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    b1_fires(game, *[HIT] * 2, *[MISS] * 7)
    game.apply(KEEP_B1)
    assert game.state.craft["B1"].power == 10
    assert game.state.craft["R1"].structure == 8


def test_SFA_TEC_28_uses_are_limited_by_power() -> None:
    """SFA-TEC-28 "5 Power per use": with 5 Power, one re-roll; its new roll is not
    offered again, and no later roll is either."""
    game = duel("once", "plain", [ONCE, PLAIN])
    b1_fires(game, *[MISS] * 9, *[MISS] * 9)
    game.apply(AGAIN_B1)
    assert game.state.craft["B1"].power == 0
    assert game.state.temporal is None
    assert len(offers(game)) == 1
    assert game.state.craft["R1"].structure == 10


def test_SFA_TEC_28_a_roll_against_the_user_is_offered_to_it() -> None:
    """SFA-TEC-28: R1 carries the device: B1's 5-hit roll against it is shown to Red,
    who re-rolls it; the new roll (nothing) stands, and B1 (no device) is never asked."""
    game = duel("plain", "timed", [TIMED, PLAIN])
    b1_fires(game, *[HIT] * 5, *[MISS] * 4, *[MISS] * 9)
    assert game.current_player() == RED
    assert game.legal_actions() == [KEEP_R1, AGAIN_R1]
    assert "5 damage" in offers(game)[0].text
    game.apply(AGAIN_R1)
    game.apply(KEEP_R1)
    assert game.state.craft["R1"].structure == 10
    assert game.state.craft["R1"].power == 5


def test_SFA_TEC_28_the_roller_is_asked_first_then_the_craft_rolled_against() -> None:
    """SFA-TEC-28: both carry the device: Blue (the roller) keeps its 3 hits, then Red
    is asked about the same roll."""
    game = duel("timed", "timed", [TIMED])
    b1_fires(game, *[HIT] * 3, *[MISS] * 6, *[MISS] * 9)
    assert game.current_player() == BLUE
    game.apply(KEEP_B1)
    assert game.current_player() == RED
    assert game.legal_actions() == [KEEP_R1, AGAIN_R1]
    game.apply(AGAIN_R1)
    # The new roll is offered again to both: Blue first.
    assert game.legal_actions() == [KEEP_B1, AGAIN_B1]
    game.apply(KEEP_B1)
    game.apply(KEEP_R1)
    assert game.state.craft["R1"].structure == 10
    assert (game.state.craft["B1"].power, game.state.craft["R1"].power) == (10, 5)


def test_SFA_TEC_28_a_roll_neither_by_nor_against_the_user_is_not_offered() -> None:
    """SFA-TEC-28: B2 carries the device, but B1's shot at R1 is neither its roll nor
    against it: nobody is asked."""
    game = make_game(
        craft(0, "plain", (5, 9), 0, id="B1"),
        craft(0, "timed", (1, 11), 0, id="B2"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[TIMED, PLAIN],
    )
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    run_until(game, "B1#0", "move", moves={"B2": "F"})
    fly(game, "B1", "F")
    script(game, *[MISS] * 9)
    fire(game, "B1#0", "R1")
    assert game.state.temporal is None
    assert not offers(game)


def until_asked(game: Game, moves: dict[str, str]) -> None:
    """Fly `moves` and hold fire until some craft is asked about a re-roll."""
    for _ in range(20):
        if game.state.temporal is not None:
            return
        pass_windows(game)
        state = game.state
        if state.step == "move":
            unit = state.acting.rpartition("#")[0]
            game.apply(A.Move(craft=unit, steps=moves.get(unit, "F")))
        else:
            game.apply(A.Resolve(actor=state.acting))
    raise AssertionError("nobody was asked")


# ---- every roll it may change ---------------------------------------------------------


def missile_game(launcher: str, target: str, *dice: int) -> Game:
    """Turn 1: R1 (Move 0) launches a missile at B1, 3 hexes south; B1 flies a hex
    away. The missile reaches B1 at the start of turn 2 and rolls 4 dice: `dice`."""
    silo = design("silo", weapon("missile"), move=0, power=10, technologies=TD)
    bare_silo = design("bare-silo", weapon("missile"), move=0)
    prey = design("prey", weapon("light_laser"), move=1, power=10, technologies=TD)
    bare_prey = design("bare-prey", weapon("light_laser"), move=1)
    game = make_game(
        craft(1, launcher, (5, 1), 0, id="R1"),
        craft(0, target, (5, 4), 3, id="B1"),
        designs=[silo, bare_silo, prey, bare_prey],
        size=(12, 20),
        options=NO_STARSHIP_TIME,
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    script(game, *dice)
    finish_turn(game)
    return game


def test_SFA_TEC_28_a_missile_roll_against_the_user() -> None:
    """SFA-TEC-28 with SFA-MSL-2: at the start of turn 2 the missile's 4-die roll hits
    B1 for 2; Blue re-rolls it into 4 misses: B1 is unhurt and the missile comes round
    again."""
    game = missile_game("bare-silo", "prey", HIT, HIT, MISS, MISS, *[MISS] * 4)
    assert game.current_player() == BLUE
    assert game.legal_actions() == [KEEP_B1, AGAIN_B1]
    assert "missile roll against B1" in offers(game)[0].text
    game.apply(AGAIN_B1)
    game.apply(KEEP_B1)
    assert game.state.craft["B1"].structure == 10
    assert game.state.missiles  # it missed and keeps hunting
    assert game.state.phase == "select"  # the turn went on after the answer


def test_SFA_TEC_28_the_launcher_rerolls_its_missiles_roll() -> None:
    """SFA-TEC-28: the missile's roll is its launcher's: R1 re-rolls a miss into 3
    hits, and B1 takes 3."""
    game = missile_game("silo", "bare-prey", *[MISS] * 4, HIT, HIT, HIT, MISS)
    assert game.legal_actions() == [KEEP_R1, AGAIN_R1]
    game.apply(AGAIN_R1)
    game.apply(KEEP_R1)
    assert game.state.craft["B1"].structure == 7
    assert not game.state.missiles


FLIER = design("flier", weapon("light_laser"), move=3, power=10, technologies=TD)
POST = design("post", weapon("light_laser"), move=0)


def test_SFA_TEC_28_an_obstacle_roll_mid_move_and_the_move_goes_on() -> None:
    """SFA-TEC-28 with SFA-OBS-1: B1 fails its Piloting roll (5 dice at 7) entering the
    mines at (5, 8); it re-rolls, threads them, and its move goes on to (5, 6)."""
    game = make_game(
        craft(0, "flier", (5, 9), 0, id="B1"),
        craft(1, "post", (10, 1), 3, id="R1"),
        designs=[FLIER, POST],
        terrain=[((5, 8), "mine")],
    )
    select(game)
    run_until(game, "B1#0", "move")
    script(game, *[MISS] * 5, HIT, *[MISS] * 4)
    fly(game, "B1", "FFF")
    assert game.legal_actions() == [KEEP_B1, AGAIN_B1]
    assert game.state.craft["B1"].hex == at(5, 8)  # stopped where the roll was made
    game.apply(AGAIN_B1)
    assert game.legal_actions() == [KEEP_B1, AGAIN_B1]  # the new roll, with 5 Power left
    game.apply(KEEP_B1)
    assert game.state.craft["B1"].structure == 10
    assert game.state.craft["B1"].hex == at(5, 6)
    assert "threads" in events(game, "SFA-OBS-1")[-1].text


def test_SFA_TEC_28_an_area_roll_against_the_user() -> None:
    """SFA-TEC-28 with SFA-TEC-20: R1 flies past B1's Plasma Field and takes 8 dice
    less Soak 6 = 2 dice: 2 hits; Red re-rolls them into misses, and R1's move ends
    where it was going."""
    field = design("field", weapon("light_laser"), power=10, technologies=["plasma_field"])
    game = make_game(
        craft(0, "field", (5, 2), 3, id="B1"),
        craft(1, "timed", (5, 8), 0, id="R1"),
        designs=[field, TIMED],
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="plasma_field")})
    script(game, HIT, HIT, MISS, MISS)
    until_asked(game, {"B1": "F", "R1": "FFF"})
    assert game.legal_actions() == [KEEP_R1, AGAIN_R1]
    assert "area roll against R1" in offers(game)[0].text
    game.apply(AGAIN_R1)
    game.apply(KEEP_R1)
    assert game.state.craft["R1"].structure == 10
    assert game.state.craft["R1"].hex == at(5, 5)


TUG = design("tug", weapon("light_laser"), move=1, power=10, technologies=["tractor_beam"])
TIMED_PREY = design("timed-prey", weapon("light_laser"), move=3, power=10, technologies=TD)


def test_SFA_TEC_28_a_tractor_beam_roll_against_the_user() -> None:
    """SFA-TEC-28 with SFA-TEC-29: B1's beam (11 dice) locks onto R1 with one success;
    Red re-rolls it into nothing and is not held."""
    game = make_game(
        craft(0, "tug", (5, 2), 3, id="B1"),
        craft(1, "timed-prey", (5, 5), 0, id="R1", pilot="rookie"),
        designs=[TUG, TIMED_PREY],
        options=NO_STARSHIP_TIME,
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="tractor_beam")})
    run_until(game, "B1#0", "resolve")
    script(game, HIT, *[MISS] * 10, *[MISS] * 11)
    fire(game, "B1#0", "R1")
    assert game.legal_actions() == [KEEP_R1, AGAIN_R1]
    assert "tractor roll against R1" in offers(game)[0].text
    game.apply(AGAIN_R1)
    game.apply(KEEP_R1)
    assert game.state.craft["R1"].held_by == ""
    assert "fails to hold" in events(game, "SFA-TEC-29")[-1].text


# ---- option temporal_reroll ---------------------------------------------------------


def test_SFA_TEC_28_option_die_rerolls_only_the_last_die() -> None:
    """SFA-TEC-28, option `temporal_reroll` = die: "re-roll the last die rolled" read
    literally: of B1's 9 dice only the ninth (a miss) is rolled again, a hit: 2 + 1."""
    game = duel("timed", "plain", [TIMED, PLAIN], rules={"temporal_reroll": "die"})
    b1_fires(game, HIT, HIT, *[MISS] * 7, HIT)
    game.apply(AGAIN_B1)
    again = events(game, "SFA-TEC-28")[-2]
    assert "the die rolled last is made again" in again.text
    game.apply(KEEP_B1)
    assert game.state.craft["R1"].structure == 10 - 3
    assert dice_left(game) == 0


# ---- the computer answers too -----------------------------------------------------------


def heuristic_answer(game: Game) -> Any:
    side = game.current_player()
    assert side is not None
    return SfaHeuristic().decide(Seat(game, side), game.legal_actions(), random.Random(0))


def test_SFA_TEC_28_the_heuristic_rerolls_its_own_miss_and_keeps_a_hit() -> None:
    """SFA-TEC-28: the computer re-rolls its own 9 dice that scored nothing, and keeps
    a roll that did damage."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    b1_fires(game, *[MISS] * 9, *[HIT] * 3, *[MISS] * 6)
    assert heuristic_answer(game) == AGAIN_B1
    game.apply(AGAIN_B1)
    assert heuristic_answer(game) == KEEP_B1


def test_SFA_TEC_28_the_heuristic_rerolls_a_hard_hit_against_it() -> None:
    """SFA-TEC-28: 5 damage against the computer's craft is re-rolled; 1 is kept."""
    game = duel("plain", "timed", [TIMED, PLAIN])
    b1_fires(game, *[HIT] * 5, *[MISS] * 4, HIT, *[MISS] * 8)
    assert heuristic_answer(game) == AGAIN_R1
    game.apply(AGAIN_R1)
    assert heuristic_answer(game) == KEEP_R1


def test_SFA_TEC_28_the_escape_roll_of_the_user_held_in_a_beam() -> None:
    """SFA-TEC-28 with SFA-TEC-29: at the turn end R1 (held) rolls its Move (3 dice)
    against the beam's 10: nothing against 1; Red re-rolls its own roll into 3 hits
    and breaks free."""
    game = make_game(
        craft(0, "tug", (5, 2), 3, id="B1"),
        craft(1, "timed-prey", (5, 5), 0, id="R1", pilot="rookie"),
        designs=[TUG, TIMED_PREY],
        options=NO_STARSHIP_TIME,
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="tractor_beam")})
    run_until(game, "B1#0", "resolve")
    script(game, HIT, *[MISS] * 10, HIT, *[MISS] * 9, *[MISS] * 3, HIT, HIT, HIT)
    fire(game, "B1#0", "R1")
    game.apply(KEEP_R1)  # the grab: held
    assert "beam roll against R1" in offers(game)[-1].text
    game.apply(KEEP_R1)  # the beam's side of the contest: 1 success
    assert "escape roll against B1" in offers(game)[-1].text
    assert game.legal_actions() == [KEEP_R1, AGAIN_R1]
    game.apply(AGAIN_R1)
    assert game.state.craft["R1"].held_by == "B1"  # not before the new roll stands
    game.apply(KEEP_R1)
    assert game.state.craft["R1"].power == 5
    assert game.state.craft["R1"].held_by == ""
    assert "breaks free" in events(game, "SFA-TEC-29")[-1].text


def test_SFA_TEC_28_a_game_with_rerolls_replays_exactly() -> None:
    """SFA-TEC-28: the resolution that waited goes on with the same dice: a fresh game
    given the same actions and dice logs the same events, every die rolled is logged
    once, and a copy taken while the roll waits answers alike."""
    dice = (*[MISS] * 5, HIT, *[MISS] * 4)

    def start() -> Game:
        game = make_game(
            craft(0, "flier", (5, 9), 0, id="B1"),
            craft(1, "post", (10, 1), 3, id="R1"),
            designs=[FLIER, POST],
            terrain=[((5, 8), "mine")],
        )
        select(game)
        run_until(game, "B1#0", "move")
        script(game, *dice)
        fly(game, "B1", "FFF")
        return game

    game = start()
    twin = game.clone()
    for g in (game, twin):
        g.apply(AGAIN_B1)
        g.apply(KEEP_B1)
    again = start()
    again.apply(AGAIN_B1)
    again.apply(KEEP_B1)
    texts = [e.text for e in game.events]
    assert texts == [e.text for e in again.events] == [e.text for e in twin.events]
    assert sum(len(e.rolls) for e in game.events) == game.dice.count == len(dice)
    assert len([t for t in texts if "flies" in t or "moves" in t]) == 1


def test_SFA_TEC_28_a_side_sees_the_waiting_roll_but_not_the_state_before_it() -> None:
    """SFA-TEC-28 with SFA-SEQ-1: while the roll waits, each side's observation shows
    the roll and who answers, and nothing of the recorded state before the action
    (which holds secret selections)."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    b1_fires(game, *[MISS] * 9)
    for side in (BLUE, RED, None):
        seen = game.observation(side)["temporal"]
        assert set(seen) == {"roll"}
        assert list(seen["roll"]["asked"]) == ["B1"]
        assert seen["roll"]["kind"] == "attack"


def test_SFA_TEC_28_the_new_roll_keeps_the_bought_willpower_success() -> None:
    """SFA-TEC-28 with SFA-ATK-5: the roll is made again with the same pool and the
    Willpower success bought for it: 9 misses and the bought success do 1 damage,
    before and after the re-roll."""
    game = duel("timed", "plain", [TIMED, PLAIN])
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    fly(game, "B1", "F")
    script(game, *[MISS] * 9, *[MISS] * 9)
    fire(game, "B1#0", "R1", willpower=True)
    assert "1 damage" in offers(game)[-1].text
    game.apply(AGAIN_B1)
    assert "9 dice, 1 net, 1 damage" in offers(game)[-1].text
    game.apply(KEEP_B1)
    assert game.state.craft["R1"].structure == 9
