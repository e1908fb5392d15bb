"""Issue 11, the turn sequence: aborts in answer to interrupts (SFA-SEQ-5), simultaneous
Speed ties (SFA-SEQ-3), only the Speed revealed (SFA-SEQ-2), and legal actions that
offer every kind of choice check accepts (SFA-SEQ-2, SFA-COL-1, SFA-MOV-6, SFA-TEC-16,
SFA-TEC-27).

Positions are inline scenarios built with `builders`; dice are scripted. Total Soak of
a regular pilot (Dexterity 3, Piloting 2) in a Soak 1 craft is 6, so a Heavy Laser
rolls 3 + 2 + 15 - 6 = 14 dice, a Medium Laser 9 and a Light Laser 4.
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
    at,
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

ARMED = design(
    "armed",
    weapon("light_laser"),
    weapon("medium_laser"),
    weapon("heavy_laser"),
    power=10,
    technologies=["force_field", "teleport", "boosters", "plasma_field"],
)
"""Forward lasers, and every abort technology the seed names."""
PLAIN = design("plain", weapon("light_laser"), weapon("medium_laser"), weapon("heavy_laser"))


def duel(**kw: Any) -> Game:
    """B1 (abort technologies) at (5, 9) facing north, R1 at (5, 3) facing south."""
    return make_game(
        craft(0, "armed", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[ARMED, PLAIN],
        **kw,
    )


# ---- SFA-SEQ-5: aborts in answer to an interrupt ----------------------------------------


def test_SFA_SEQ_5_interrupted_pilot_is_offered_every_abort_it_can_pay_for() -> None:
    """SFA-SEQ-5: when R1 interrupts B1 before B1 moves, Blue decides first whether B1
    aborts: the extra move, Boosters, Force Field, Plasma Field and Teleport."""
    game = duel()
    select(game, {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Medium Laser")})
    assert game.current_player() == RED
    game.apply(A.Interrupt(actor="R1#0"))
    assert game.current_player() == BLUE
    offered = {a.to for a in game.legal_actions() if isinstance(a, A.Abort)}
    assert offered == {"extra_move", "boosters", "force_field", "plasma_field", "teleport"}
    assert A.Pass() in game.legal_actions()
    with pytest.raises(IllegalAction, match="SFA-SEQ-5"):
        game.check(A.Move(craft="R1", steps="F"))


def test_SFA_SEQ_5_a_faster_abort_raises_the_force_field_before_the_shot() -> None:
    """SFA-SEQ-5: B1 (Heavy Laser, Speed 3) is interrupted by R1 (Medium Laser, Speed 5);
    aborting to its Force Field (Speed 3 + 2 + 1 = 6) for 1 Willpower, B1 acts first at
    that Speed: the field is up when R1 fires, and stops all 9 hits."""
    game = duel()
    select(game, {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Medium Laser")})
    game.apply(A.Interrupt(actor="R1#0"))
    game.apply(A.Abort(actor="B1#0", to="force_field"))
    assert game.state.speeds["B1#0"] == 6
    assert game.state.craft["B1"].willpower == 4
    fly(game, "B1", "F")
    assert game.state.craft["B1"].force_field
    pass_windows(game)
    fly(game, "R1", "F")
    script(game, *[HIT] * 9)
    fire(game, "R1#0", "B1")
    assert game.state.craft["B1"].structure == 10
    assert events(game, "SFA-TEC-14")[-1].data["unit"] == "B1"
    # B1's Heavy Laser shot was given up for the abort.
    assert not [e for e in events(game, "SFA-ATK-1") if e.data.get("actor") == "B1#0"]


def test_SFA_SEQ_5_a_slower_abort_waits_for_the_interrupter() -> None:
    """SFA-SEQ-5: against R1 trading 2 dice (Speed 7), the Force Field's Speed 6 is
    slower: R1's shot lands first, and the field goes up only when B1's turn resumes."""
    game = duel()
    select(
        game,
        {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Medium Laser", 2)},
    )
    game.apply(A.Interrupt(actor="R1#0"))
    game.apply(A.Abort(actor="B1#0", to="force_field"))
    pass_windows(game)
    fly(game, "R1", "F")
    script(game, *[HIT] * 7)  # 9 - 2 traded dice
    fire(game, "R1#0", "B1")
    assert game.state.craft["B1"].structure == 3
    assert not game.state.craft["B1"].force_field
    assert game.state.acting == "B1#0"
    fly(game, "B1", "F")
    raised = events(game, "SFA-TEC-14")
    assert raised and "raises its Force Field" in raised[-1].text
    assert game.events.index(raised[-1]) > game.events.index(events(game, "SFA-ATK-1")[-1])


def test_SFA_SEQ_5_abort_after_moving_before_resolving() -> None:
    """SFA-SEQ-5: an abort may be played at any point before the action resolves: R1
    interrupts B1 after B1 has moved, before it fires; B1 may still raise its Force
    Field (not the move aborts, its move being done), and it is up for R1's shot."""
    game = duel()
    select(game, {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Medium Laser")})
    fly(game, "B1", "F")
    assert game.current_player() == RED and game.state.step == "window_resolve"
    game.apply(A.Interrupt(actor="R1#0"))
    offered = {a.to for a in game.legal_actions() if isinstance(a, A.Abort)}
    assert offered == {"force_field", "plasma_field"}
    game.apply(A.Abort(actor="B1#0", to="force_field"))
    assert game.state.craft["B1"].force_field
    pass_windows(game)
    fly(game, "R1", "F")
    script(game, *[HIT] * 9)
    fire(game, "R1#0", "B1")
    assert game.state.craft["B1"].structure == 10
    pass_windows(game)
    # Nothing left to resolve for B1: the turn ends.
    assert game.state.phase == "select"


def test_SFA_SEQ_5_abort_offered_at_the_resolution() -> None:
    """SFA-SEQ-5: at its own resolution the pilot may still abort to a field instead of
    firing."""
    game = duel()
    select(game, {"B1#0": attack("B1#0", "Heavy Laser")})
    fly(game, "B1", "F")
    pass_windows(game)
    assert A.Abort(actor="B1#0", to="force_field") in game.legal_actions()
    game.apply(A.Abort(actor="B1#0", to="force_field"))
    assert game.state.craft["B1"].force_field
    assert game.state.craft["B1"].power == 9


def test_SFA_SEQ_5_no_abort_without_willpower() -> None:
    """SFA-SEQ-5, SFA-SEQ-6: a pilot with no Willpower is not asked."""
    game = make_game(
        craft(0, "armed", (5, 9), 0, id="B1", pilot=pilot(willpower=0)),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[ARMED, PLAIN],
    )
    select(game, {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Medium Laser")})
    game.apply(A.Interrupt(actor="R1#0"))
    assert not any(isinstance(a, A.Abort) for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="SFA-SEQ-5"):
        game.check(A.Abort(actor="B1#0", to="force_field"))


# ---- SFA-SEQ-3: simultaneous ties ---------------------------------------------------


def tied(**kw: Any) -> Game:
    """B1 and R1, both regular pilots with Heavy Lasers: Speed 3 and Wits 3 each."""
    game = make_game(
        craft(0, "plain", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[PLAIN],
        **kw,
    )
    select(game, {"B1#0": attack("B1#0", "Heavy Laser"), "R1#0": attack("R1#0", "Heavy Laser")})
    fly(game, "B1", "F")
    script(game, *[HIT] * 10, *[MISS] * 4)
    fire(game, "B1#0", "R1")
    return game


def test_SFA_SEQ_3_tied_actions_are_simultaneous() -> None:
    """SFA-SEQ-3 (rules-notes C.3 proposal): tied on Speed and Wits, B1 and R1 act at
    the same moment: B1's 10 damage puts R1 out, and R1 still fires back."""
    game = tied()
    assert game.state.craft["R1"].disabled
    fly(game, "R1", "F")
    script(game, *[HIT] * 3, *[MISS] * 11)
    fire(game, "R1#0", "B1")
    assert game.state.craft["B1"].structure == 7


def test_SFA_SEQ_3_option_side_order_keeps_the_first_side_first() -> None:
    """SFA-SEQ-3, option speed_ties=side_order: the first side's tied actor goes first,
    and R1, put out of action, loses its shot."""
    game = tied(rules={"speed_ties": "side_order"})
    assert game.state.craft["R1"].disabled
    pass_windows(game)
    assert game.state.phase != "act" or game.state.acting != "R1#0"
    assert not [e for e in events(game, "SFA-ATK-1") if e.data.get("actor") == "R1#0"]


# ---- SFA-SEQ-2: only the Speed is revealed ------------------------------------------


def test_SFA_SEQ_2_reveal_shows_the_speed_only_until_the_action_resolves() -> None:
    """SFA-SEQ-2 (rules-notes C.3): after the reveal Red sees B1's Speed, not its weapon
    or dice traded, in its observation or log, until B1 has fired."""
    game = duel()
    select(
        game,
        {"B1#0": attack("B1#0", "Heavy Laser", 1), "R1#0": attack("R1#0", "Light Laser")},
    )
    assert game.state.phase == "act"
    seen = game.observation(RED)
    assert "B1#0" not in seen["selections"] and seen["speeds"]["B1#0"] == 4
    assert "R1#0" in seen["selections"]
    assert not any("Heavy" in e.text or "-1 dice" in e.text for e in game.events_for(RED))
    assert any("Heavy" in e.text for e in game.events_for(BLUE))
    fly(game, "B1", "F")
    assert "B1#0" not in game.observation(RED)["selections"]
    script(game, *[MISS] * 13)
    fire(game, "B1#0", "R1")
    assert game.observation(RED)["selections"]["B1#0"]["item"] == "Heavy Laser"


# ---- legal actions cover every kind of choice -------------------------------------


def test_SFA_SEQ_2_every_number_of_dice_traded_is_offered() -> None:
    """SFA-SEQ-2: check accepts 0 to 10 dice traded for Speed; all of them are offered."""
    game = duel()
    traded = {
        a.speed_dice
        for a in game.legal_actions()
        if isinstance(a, A.Select) and a.item == "Heavy Laser"
    }
    assert traded == set(range(11))


def test_SFA_TEC_27_teleport_to_every_hex_it_can_pay_for() -> None:
    """SFA-TEC-27: every hex within the craft's Power (10) is offered, not only the six
    straight lines; the 5-hex jump to (7, 5) off every line among them."""
    game = duel()
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="teleport")})
    run_until(game, "B1#0", "move")
    dests = {a.dest for a in game.legal_actions() if isinstance(a, A.Move) and a.dest}
    b1 = game.state.craft["B1"]
    expected = {
        h
        for h in b1.hex.spiral(10)[1:]
        if game.state.map.contains(h) and h != game.state.craft["R1"].hex
    }
    assert at(7, 5) in dests and dests == expected


def test_SFA_TEC_16_decoy_to_every_hex_within_5() -> None:
    """SFA-TEC-16: every hex 1 to 5 away on the map is offered for the decoy."""
    holo = design("holo", weapon("light_laser"), power=5, technologies=["holo_projector"])
    game = make_game(
        craft(0, "holo", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 1), 3, id="R1"),
        designs=[holo, PLAIN],
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="holo_projector")})
    fly(game, "B1", "F")
    pass_windows(game)
    spots = {a.at for a in game.legal_actions() if isinstance(a, A.Resolve) and a.at}
    b1 = game.state.craft["B1"]
    assert spots == {h for h in b1.hex.spiral(5)[1:] if game.state.map.contains(h)}


def test_SFA_COL_1_a_deliberate_ram_is_offered_without_hyper_ram() -> None:
    """SFA-COL-1: a craft may ram on purpose with no Hyper-Ram: a ramming move into R1's
    hex is offered, and flying it is a collision (a plain move there shares the hex)."""
    game = make_game(
        craft(0, "plain", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 7), 3, id="R1"),
        designs=[PLAIN],
    )
    select(game)
    pass_windows(game)
    rams = [
        a
        for a in game.legal_actions()
        if isinstance(a, A.Move) and a.ram and at(5, 7) in _path(game, a.steps)
    ]
    assert rams
    game.apply(rams[0])
    assert events(game, "SFA-COL-1")


def _path(game: Game, steps: str) -> tuple[Any, ...]:
    from dogfight.rulesets.sfa.maneuvers import trace

    b1 = game.state.craft["B1"]
    return trace(b1.hex, b1.facing, steps, 6, min_hexes=0).hexes


# ---- SFA-TEC-28: Temporal Displacement after the roll -------------------------------

TIMED = design(
    "timed",
    weapon("medium_laser"),
    power=10,
    technologies=["temporal_displacement"],
)


def test_SFA_TEC_28_the_attacker_rerolls_its_own_roll_after_seeing_it() -> None:
    """SFA-TEC-28: B1's 9-dice roll scores nothing; seeing it, Blue pays 5 Power and the
    roll is made again, the new roll (3 hits) standing."""
    game = make_game(
        craft(0, "timed", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[TIMED, PLAIN],
    )
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    fly(game, "B1", "F")
    script(game, *[MISS] * 9, *[HIT] * 3, *[MISS] * 6)
    fire(game, "B1#0", "R1")
    assert game.current_player() == BLUE
    assert game.state.craft["R1"].structure == 10  # no damage until the answer
    assert set(game.legal_actions()) == {
        A.Displace(craft="B1", use=False),
        A.Displace(craft="B1", use=True),
    }
    game.apply(A.Displace(craft="B1", use=True))
    assert game.state.craft["B1"].power == 5
    # With 5 Power left it may re-roll the new roll too; it keeps it.
    game.apply(A.Displace(craft="B1", use=False))
    assert game.state.craft["R1"].structure == 7
    assert game.state.temporal is None


def test_SFA_TEC_28_the_target_rerolls_a_roll_made_against_it() -> None:
    """SFA-TEC-28: R1 carries the device: B1's 5-hit roll against it is made again at
    Red's word, and the new roll (nothing) stands."""
    game = make_game(
        craft(0, "plain", (5, 9), 0, id="B1"),
        craft(1, "timed", (5, 3), 3, id="R1"),
        designs=[TIMED, PLAIN],
    )
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    fly(game, "B1", "F")
    script(game, *[HIT] * 5, *[MISS] * 4, *[MISS] * 9)
    fire(game, "B1#0", "R1")
    assert game.current_player() == RED
    with pytest.raises(IllegalAction, match="SFA-TEC-28"):
        game.check(A.Displace(craft="B1", use=True))
    game.apply(A.Displace(craft="R1", use=True))
    assert game.state.craft["R1"].power == 5
    game.apply(A.Displace(craft="R1", use=False))
    assert game.state.craft["R1"].structure == 10


def test_SFA_TEC_28_keeping_the_roll_costs_nothing() -> None:
    """SFA-TEC-28: declining keeps the roll and the Power; the old commit-before-rolling
    form is refused with the reason."""
    game = make_game(
        craft(0, "timed", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 3), 3, id="R1"),
        designs=[TIMED, PLAIN],
    )
    select(game, {"B1#0": attack("B1#0", "Medium Laser")})
    fly(game, "B1", "F")
    pass_windows(game)
    with pytest.raises(IllegalAction, match="after the roll"):
        game.check(A.Resolve(actor="B1#0", target="R1", reroll=True))
    script(game, *[HIT] * 2, *[MISS] * 7)
    fire(game, "B1#0", "R1")
    game.apply(A.Displace(craft="B1", use=False))
    assert game.state.craft["B1"].power == 10
    assert game.state.craft["R1"].structure == 8


# ---- SFA-TEC-16: nothing tells the decoy from a craft (partly) ------------------------


def test_SFA_TEC_16_decoy_id_is_craft_like_and_the_projector_is_not_named() -> None:
    """SFA-TEC-16: the decoy is named like its side's craft (B2 beside B1), and only
    Blue's log says B1 projected it."""
    holo = design("holo", weapon("light_laser"), power=5, technologies=["holo_projector"])
    game = make_game(
        craft(0, "holo", (5, 9), 0, id="B1"),
        craft(1, "plain", (5, 1), 3, id="R1"),
        designs=[holo, PLAIN],
    )
    select(game, {"B1#0": A.Select(actor="B1#0", kind="equipment", item="holo_projector")})
    fly(game, "B1", "F")
    pass_windows(game)
    game.apply(A.Resolve(actor="B1#0", at=at(3, 6)))
    assert list(game.state.decoys) == ["B2"]
    assert set(game.observation(RED)["craft"]) == {"B1", "B2", "R1"}
    assert not [e for e in game.events_for(RED) if e.clause == "SFA-TEC-16"]
    assert [e for e in game.events_for(BLUE) if e.clause == "SFA-TEC-16"]
