"""Clause tests for the SFA turn: secret selection, Speed, order, interrupts, aborts and
Willpower (data/sfa/rules.md, SFA-SEQ-1..6).

Each test names the clause it checks. Positions are inline scenarios built with
`builders`; the dice are scripted; the game is played through the Game API.
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
    RED,
    attack,
    craft,
    design,
    events,
    fire,
    fly,
    make_game,
    pass_windows,
    pilot,
    run_until,
    script,
    select,
    weapon,
)

GUNS = design(
    "gun",
    weapon("light_laser"),
    weapon("heavy_laser"),
    weapon("medium_laser", turret=True),
    soak=1,
    crew=2,
)
"""Forward Light and Heavy Lasers for the pilot, a turreted Medium Laser for a gunner."""


def duel(
    *, blue: dict[str, Any] | None = None, red: dict[str, Any] | None = None, **kw: object
) -> Game:
    """B1 at (5, 9) facing north, R1 at (5, 3) facing south: six hexes apart on one
    column. Both are 'gun' craft with a regular gunner."""
    return make_game(
        craft(0, "gun", (5, 9), 0, id="B1", pilot=blue or pilot(), gunners=[pilot()]),
        craft(1, "gun", (5, 3), 3, id="R1", pilot=red or pilot(), gunners=[pilot()]),
        designs=[GUNS],
        **kw,  # type: ignore[arg-type]
    )


# ---- SFA-SEQ-1 ----------------------------------------------------------------------


def test_SFA_SEQ_1_selections_are_hidden_from_the_other_side_until_revealed() -> None:
    """SFA-SEQ-1: Blue's choice is in Blue's observation, not in Red's, until every
    actor has chosen and the Speeds are revealed."""
    game = duel()
    assert game.state.phase == "select" and game.current_player() == BLUE
    game.apply(attack("B1#0", "Heavy Laser", speed_dice=1))
    game.apply(A.Select(actor="B1#1", kind="none"))
    assert game.current_player() == RED
    assert "B1#0" not in game.observation(RED)["selections"]
    assert game.observation(RED)["speeds"] == {}
    assert game.observation(BLUE)["selections"]["B1#0"]["item"] == "Heavy Laser"
    assert game.observation(None)["selections"] == {}
    # The log says that a choice was made, not what it was.
    assert all("Heavy" not in e.text for e in events(game, "SFA-SEQ-1"))
    game.apply(A.Select(actor="R1#0", kind="none"))
    assert "B1#0" not in game.observation(RED)["selections"]
    game.apply(A.Select(actor="R1#1", kind="none"))
    assert game.state.phase == "act"
    # Revealed: the Speed only; the action itself stays Blue's until it resolves
    # (SFA-SEQ-2, tests/sfa/test_issue11_sequence.py).
    assert "B1#0" not in game.observation(RED)["selections"]
    assert game.observation(RED)["speeds"]["B1#0"] == 3 + 2 - 2 + 1


def test_SFA_SEQ_1_each_actor_chooses_in_turn_first_side_first() -> None:
    """SFA-SEQ-1: the first side's actors choose first; nobody chooses out of turn."""
    game = duel()
    assert game.state.to_select == ("B1#0", "B1#1", "R1#0", "R1#1")
    with pytest.raises(IllegalAction, match="selects next"):
        game.check(A.Select(actor="R1#0", kind="none"))


def test_SFA_SEQ_1_the_choices_on_offer() -> None:
    """SFA-SEQ-1: a pilot may attack with a forward weapon, take the extra move or do
    nothing; a gunner may fire the turret or do nothing, and has no move to take."""
    game = duel()
    pilot_choices = {(a.kind, a.item) for a in game.legal_actions()}
    assert pilot_choices == {
        ("none", ""),
        ("attack", "Light Laser"),
        ("attack", "Heavy Laser"),
        ("extra_move", ""),
    }
    game.apply(A.Select(actor="B1#0", kind="none"))
    gunner_choices = {(a.kind, a.item) for a in game.legal_actions()}
    assert gunner_choices == {("none", ""), ("attack", "Medium Laser")}
    assert not game.is_legal(A.Select(actor="B1#1", kind="extra_move"))
    assert not game.is_legal(attack("B1#1", "Light Laser"))


# ---- SFA-SEQ-2 ----------------------------------------------------------------------


def test_SFA_SEQ_2_speed_is_dexterity_skill_modifier_and_traded_dice() -> None:
    """SFA-SEQ-2: pilot Dexterity + Piloting, gunner Dexterity + Gunnery, plus the
    weapon's Speed modifier (+3 for the extra move) plus the dice traded."""
    game = make_game(
        craft(0, "gun", (2, 9), 0, id="B1", pilot=pilot(4, 3), gunners=[pilot(2, 5, gunnery=4)]),
        craft(1, "gun", (8, 3), 3, id="R1", pilot=pilot(5, 1), gunners=[pilot()]),
        designs=[design("gun", weapon("heavy_laser"), weapon("light_laser", turret=True), crew=2)],
    )
    select(
        game,
        {
            "B1#0": attack("B1#0", "Heavy Laser", speed_dice=2),
            "B1#1": attack("B1#1", "Light Laser"),
            "R1#0": A.Select(actor="R1#0", kind="extra_move"),
        },
    )
    assert game.state.speeds == {
        "B1#0": 4 + 3 - 2 + 2,
        "B1#1": 2 + 4 + 1,  # Gunnery, not Piloting
        "R1#0": 5 + 1 + 3,
        "R1#1": 3 + 1,  # no action: Speed modifier 0
    }
    revealed = events(game, "SFA-SEQ-2")[-1]
    assert revealed.data["speeds"] == game.state.speeds


def test_SFA_SEQ_2_traded_dice_come_off_the_attack_pool() -> None:
    """SFA-SEQ-2 and SFA-ATK-1: three dice traded for Speed are three dice fewer."""
    game = duel()
    select(game, {"B1#0": attack("B1#0", "Light Laser", speed_dice=3)})
    assert game.state.speeds["B1#0"] == 3 + 2 + 1 + 3
    run_until(game, "B1#0", "resolve", moves={"R1": "F"})
    script(game, MISS)
    fire(game, "B1#0", "R1")
    shot = events(game, "SFA-ATK-1")[0]
    # 3 + 2 + 0 + 5 - (3 + 2 + 1 + 0) = 4 dice, less the 3 traded.
    assert shot.data["dice"] == 1


def test_SFA_SEQ_2_only_an_attack_can_trade_dice() -> None:
    """SFA-SEQ-2: dice traded for Speed come out of an attack pool, so an action with
    no attack pool cannot trade any."""
    game = duel()
    assert not game.is_legal(A.Select(actor="B1#0", kind="extra_move", speed_dice=5))
    assert not game.is_legal(A.Select(actor="B1#0", kind="none", speed_dice=5))


# ---- SFA-SEQ-3 ----------------------------------------------------------------------


def test_SFA_SEQ_3_slowest_acts_first() -> None:
    """SFA-SEQ-3: the revealed order is by Speed, slowest first, and the craft move in
    that order."""
    game = duel()
    select(
        game,
        {
            "B1#0": attack("B1#0", "Light Laser"),  # 6
            "B1#1": attack("B1#1", "Medium Laser"),  # 3 + 1 + 0 = 4
            "R1#0": attack("R1#0", "Heavy Laser"),  # 3
        },
    )
    # R1's gunner takes no action: 3 + 1 = 4, tied with B1's gunner (first side first).
    assert game.state.order == ("R1#0", "B1#1", "R1#1", "B1#0")
    assert [game.state.speeds[k] for k in game.state.order] == [3, 4, 4, 6]
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("R1#0", "move")


def test_SFA_SEQ_3_full_tie_goes_to_the_first_side_first() -> None:
    """SFA-SEQ-3: on equal Speed and equal Wits, the first side's actor goes first,
    and neither may interrupt the other."""
    game = make_game(
        craft(0, "solo", (2, 9), 0, id="B1"),
        craft(1, "solo", (8, 3), 3, id="R1"),
        designs=[design("solo", weapon("medium_laser"))],
    )
    select(game, {"R1#0": attack("R1#0", "Medium Laser")})
    assert game.state.speeds == {"B1#0": 5, "R1#0": 5}
    assert game.state.order == ("B1#0", "R1#0")
    assert game.state.step == "move"  # no interrupt window was offered
    assert not any(isinstance(a, A.Interrupt) for a in game.legal_actions())


def test_SFA_SEQ_3_higher_wits_counts_as_faster_on_a_tie() -> None:
    """SFA-SEQ-3: on equal Speed the higher Wits is the faster actor, so it acts later."""
    game = duel(blue=pilot(3, 2, wits=2), red=pilot(3, 2, wits=4))
    select(game)
    assert game.state.speeds["B1#0"] == game.state.speeds["R1#0"]
    assert game.state.order.index("B1#0") < game.state.order.index("R1#0")


def test_SFA_SEQ_3_a_gunner_resolves_without_a_move() -> None:
    """SFA-SEQ-3: a gunner's action is a resolution only; the craft moved with its pilot."""
    game = duel()
    select(game, {"B1#1": attack("B1#1", "Medium Laser", speed_dice=4)})  # Speed 8: last
    run_until(game, "B1#1", "resolve", moves={"R1": "F", "B1": "F"})
    assert [e.data["unit"] for e in events(game, "SFA-MOV-1")] == ["B1", "R1"]
    script(game, *[MISS] * 10)
    fire(game, "B1#1", "R1")
    assert len(events(game, "SFA-MOV-1")) == 2  # the gunner moved nothing


# ---- SFA-SEQ-4 ----------------------------------------------------------------------


def test_SFA_SEQ_4_a_faster_actor_interrupts_before_the_move() -> None:
    """SFA-SEQ-4: before the slow B1 moves, the faster R1 takes its whole action (move,
    then shot); then B1 carries on."""
    game = duel()
    select(
        game,
        {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Light Laser")},
    )
    assert (game.state.acting, game.state.step, game.current_player()) == (
        "B1#0",
        "window_move",
        RED,
    )
    assert A.Interrupt(actor="R1#0") in game.legal_actions()
    assert A.Pass() in game.legal_actions()
    game.apply(A.Interrupt(actor="R1#0"))
    cut_in = events(game, "SFA-SEQ-4")[-1].data
    assert (cut_in["actor"], cut_in["interrupts"]) == ("R1#0", "B1#0")
    fly(game, "R1", "F")
    script(game, MISS, MISS, MISS, MISS)  # 3 + 2 + 5 - 6 = 4 dice
    fire(game, "R1#0", "B1")
    # Back to B1, which has not moved yet.
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("B1#0", "move")
    fly(game, "B1", "F")
    script(game, *[MISS] * 14)
    fire(game, "B1#0", "R1")
    shooters = [e.data["actor"] for e in events(game, "SFA-ATK-1") if "actor" in e.data]
    assert shooters == ["R1#0", "B1#0"]
    movers = [e.data["unit"] for e in events(game, "SFA-MOV-1")]
    assert movers == ["R1", "B1"]


def test_SFA_SEQ_4_a_faster_actor_interrupts_before_a_gunners_resolution() -> None:
    """SFA-SEQ-4: before B1's gunner fires, the faster R1 cuts in and shoots first."""
    game = duel()
    select(
        game,
        {"B1#1": attack("B1#1", "Medium Laser"), "R1#0": attack("R1#0", "Light Laser")},
    )
    assert game.state.order[0] == "B1#1"
    assert (game.state.step, game.current_player()) == ("window_resolve", RED)
    game.apply(A.Interrupt(actor="R1#0"))
    fly(game, "R1", "F")
    script(game, HIT, HIT, MISS, MISS)  # 3 + 2 + 5 - 6 = 4 dice
    fire(game, "R1#0", "B1")
    assert game.state.craft["B1"].structure == 8
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("B1#1", "resolve")
    script(game, *[MISS] * 8)  # 3 + 1 + 10 - 6 = 8 dice
    fire(game, "B1#1", "R1")
    shooters = [e.data["actor"] for e in events(game, "SFA-ATK-1") if "actor" in e.data]
    assert shooters == ["R1#0", "B1#1"]


def test_SFA_SEQ_4_a_faster_actor_interrupts_before_a_pilots_resolution() -> None:
    """SFA-SEQ-4: after B1 has moved and before it fires, R1 may cut in."""
    game = duel()
    select(
        game,
        {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Light Laser")},
    )
    fly(game, "B1", "F")  # both sides pass the window before the move
    assert (game.state.step, game.current_player()) == ("window_resolve", RED)
    assert A.Interrupt(actor="R1#0") in game.legal_actions()


def test_SFA_SEQ_4_only_strictly_faster_actors_still_to_act_may_interrupt() -> None:
    """SFA-SEQ-4: an actor of equal Speed may not interrupt, nor one that has acted."""
    game = duel()
    select(game, {"R1#0": attack("R1#0", "Light Laser")})
    # B1#1 (4) acts first; R1#1 (4) is no faster; B1#0 (5) and R1#0 (6) are.
    assert (game.state.acting, game.state.step) == ("B1#1", "window_resolve")
    assert game.current_player() == RED
    assert A.Interrupt(actor="R1#0") in game.legal_actions()
    with pytest.raises(IllegalAction, match="not a faster actor"):
        game.check(A.Interrupt(actor="R1#1"))
    game.apply(A.Interrupt(actor="R1#0"))
    fly(game, "R1", "F")
    fire(game, "R1#0")
    # Back at B1#1's window: R1#0 has acted and may not cut in again.
    assert game.state.acting == "B1#1"
    assert not game.is_legal(A.Interrupt(actor="R1#0"))


def test_SFA_SEQ_4_an_interrupter_can_be_interrupted() -> None:
    """SFA-SEQ-4: B1 (3) is cut in on by R1 (6), which is cut in on by B1's gunner (8)."""
    game = duel()
    select(
        game,
        {
            "B1#0": attack("B1#0", "Heavy Laser"),
            "B1#1": attack("B1#1", "Medium Laser", speed_dice=4),
            "R1#0": attack("R1#0", "Light Laser"),
        },
    )
    assert game.state.acting == "B1#0" and game.current_player() == RED
    game.apply(A.Interrupt(actor="R1#0"))
    game.apply(A.Pass())  # B1's pilot, interrupted, does not abort (SFA-SEQ-5)
    assert game.current_player() == BLUE  # Red has nothing faster than R1; Blue does
    game.apply(A.Interrupt(actor="B1#1"))
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("B1#1", "resolve")
    script(game, *[MISS] * 4)  # 3 + 1 + 10 - 6 - 4 traded = 4 dice
    fire(game, "B1#1", "R1")
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("R1#0", "move")
    fly(game, "R1", "F")
    script(game, *[MISS] * 4)
    fire(game, "R1#0", "B1")
    pass_windows(game)
    assert (game.state.acting, game.state.step) == ("B1#0", "move")


# ---- SFA-SEQ-5 ----------------------------------------------------------------------


def test_SFA_SEQ_5_abort_to_the_extra_move_for_one_willpower() -> None:
    """SFA-SEQ-5: interrupted, B1 pays 1 Willpower to swap its attack for the extra move:
    it flies Move + 3 hexes, acts at the abort's own Speed, and does not fire."""
    game = duel()
    select(
        game,
        {
            "B1#0": attack("B1#0", "Heavy Laser"),  # 3
            "R1#0": attack("R1#0", "Light Laser"),  # 6
            "R1#1": attack("R1#1", "Medium Laser", speed_dice=4),  # 8: keeps the turn going
        },
    )
    game.apply(A.Interrupt(actor="R1#0"))
    fly(game, "R1", "F")
    script(game, MISS, MISS, MISS, MISS)
    fire(game, "R1#0", "B1")
    pass_windows(game)
    speed = game.state.speeds["B1#0"]
    assert not game.is_legal(A.Move(craft="B1", steps="FTFFFF"))  # 6 hexes, Move 3
    assert game.is_legal(A.Move(craft="B1", steps="FFFFFF", abort="extra_move"))
    assert any(isinstance(a, A.Move) and a.abort == "extra_move" for a in game.legal_actions())
    fly(game, "B1", "FTFFFF", abort="extra_move")
    abort = events(game, "SFA-SEQ-5")[-1]
    assert abort.data["unit"] == "B1"
    assert game.state.craft["B1"].willpower == 4
    assert speed == 3 and game.state.speeds["B1#0"] == 3 + 2 + 3  # Dex + Piloting + 3
    assert game.state.selections["B1#0"].kind == "extra_move"
    pass_windows(game)
    # No resolution step: the attack was given up, and R1's gunner is next to act.
    assert (game.state.acting, game.state.step) == ("R1#1", "resolve")
    assert not [e for e in events(game, "SFA-ATK-1") if e.data.get("actor") == "B1#0"]


def test_SFA_SEQ_5_no_abort_without_willpower_or_on_a_move_0_craft() -> None:
    """SFA-SEQ-5: the abort costs a Willpower point the pilot must have; a Move 0 craft
    may not abort to the extra move."""
    game = make_game(
        craft(0, "gun", (2, 9), 0, id="B1", pilot=pilot(willpower=0)),
        craft(1, "sat", (8, 3), 3, id="R1"),
        designs=[
            design("gun", weapon("light_laser")),
            design("sat", weapon("light_laser"), move=0),
        ],
    )
    select(game)
    pass_windows(game)
    assert game.state.acting == "B1#0"
    with pytest.raises(IllegalAction, match="no Willpower"):
        game.check(A.Move(craft="B1", steps="FFFFFF", abort="extra_move"))
    game.apply(A.Move(craft="B1", steps="F"))
    pass_windows(game)
    assert game.state.acting == "R1#0"
    assert not game.is_legal(A.Move(craft="R1", steps="F", abort="extra_move"))
    assert all(not a.abort for a in game.legal_actions())


# ---- SFA-SEQ-6 ----------------------------------------------------------------------


def gunner_pair(options: dict[str, Any] | None = None) -> Game:
    """B1's pilot (Light Laser, Speed 6) and gunner (Medium Laser turret, Speed 4) both
    fire at R1 in one turn."""
    game = duel(options=options)
    select(game, {"B1#0": attack("B1#0", "Light Laser"), "B1#1": attack("B1#1", "Medium Laser")})
    return game


def test_SFA_SEQ_6_one_willpower_point_per_craft_per_turn() -> None:
    """SFA-SEQ-6: the gunner spends the pilot's Willpower; after that the pilot may not
    spend another point this turn. Next turn it may again."""
    game = gunner_pair()
    run_until(game, "B1#1", "resolve", moves={"R1": "F"})
    assert A.Resolve(actor="B1#1", target="R1", willpower=True) in game.legal_actions()
    script(game, *[MISS] * 8)  # 3 + 1 + 10 - 6 = 8 dice; the bought success hits
    fire(game, "B1#1", "R1", willpower=True)
    assert game.state.craft["B1"].willpower == 4
    assert game.state.craft["R1"].structure == 9
    run_until(game, "B1#0", "resolve")
    assert A.Resolve(actor="B1#0", target="R1", willpower=True) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="SFA-SEQ-6"):
        game.check(A.Resolve(actor="B1#0", target="R1", willpower=True))
    script(game, *[MISS] * 4)
    fire(game, "B1#0", "R1")
    assert game.state.turn == 2
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    run_until(game, "B1#0", "resolve")
    assert A.Resolve(actor="B1#0", target="R1", willpower=True) in game.legal_actions()


def test_SFA_SEQ_6_option_lifts_the_limit() -> None:
    """SFA-SEQ-6: with willpower_once_per_turn=false, both stations spend a point."""
    game = gunner_pair({"willpower_once_per_turn": False})
    run_until(game, "B1#1", "resolve", moves={"R1": "F"})
    script(game, *[MISS] * 8)
    fire(game, "B1#1", "R1", willpower=True)
    run_until(game, "B1#0", "resolve")
    script(game, *[MISS] * 4)
    fire(game, "B1#0", "R1", willpower=True)
    assert game.state.craft["B1"].willpower == 3
    assert game.state.craft["R1"].structure == 8


def test_SFA_SEQ_6_an_ai_pilot_has_no_willpower() -> None:
    """SFA-SEQ-6: an Artificial Intelligence pilot has no Willpower to spend."""
    game = make_game(
        craft(0, "drone", (5, 9), 0, id="B1"),
        craft(1, "gun", (5, 3), 3, id="R1"),
        designs=[
            design(
                "drone",
                weapon("light_laser"),
                power=2,
                crew=0,
                technologies=[{"name": "artificial_intelligence", "level": 3}],
            ),
            GUNS,
        ],
    )
    select(game, {"B1#0": attack("B1#0", "Light Laser")})
    run_until(game, "B1#0", "resolve", moves={"R1": "F"})
    assert game.state.craft["B1"].willpower == 0
    assert not any(a.willpower for a in game.legal_actions())
    assert not game.is_legal(A.Resolve(actor="B1#0", target="R1", willpower=True))
