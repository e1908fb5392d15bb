"""Clause tests for SFA missiles and torpedoes (data/sfa/rules.md, SFA-MSL-1..3, and
SFA-ATK-6 for their being used up).

Red's launcher is a Move 0 craft facing north, away from its Blue target to the south:
a missile needs no forward line.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.sfa import actions as A

from .builders import (
    HIT,
    MISS,
    ONE,
    at,
    attack,
    craft,
    design,
    events,
    faces,
    finish_turn,
    fire,
    make_game,
    run_until,
    script,
    select,
    weapon,
)

LAUNCHER = design("launcher", weapon("missile", count=2), weapon("light_laser"), move=0)
RUNNER = design("runner", weapon("heavy_laser"), soak=1, move=1)
"""Blue's target: Move 1, total Soak 6 with a regular pilot, so a missile rolls 4 dice."""


def launch(
    blue_at: tuple[int, int] = (5, 8),
    blue_facing: int = 3,
    *,
    size: tuple[int, int] = (12, 20),
    extra: tuple[dict[str, Any], ...] = (),
    **kw: Any,
) -> Game:
    """Turn 1: R1 at (5, 1) launches a missile at B1; B1 then flies one hex. The game
    is left at turn 2's selection (the missile has already flown its first 5 hexes)."""
    game = make_game(
        craft(1, "launcher", (5, 1), 0, id="R1"),
        craft(0, "runner", blue_at, blue_facing, id="B1"),
        *extra,
        designs=[LAUNCHER, RUNNER],
        size=size,
        **kw,
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    assert game.state.order[0] == "R1#0"  # Speed 3 + 2 - 1 = 4, before B1's 5
    run_until(game, "R1#0", "resolve")
    assert A.Resolve(actor="R1#0", target="B1") in game.legal_actions()
    fire(game, "R1#0", "B1")
    (mid,) = game.state.missiles
    assert game.state.missiles[mid].hex == at(5, 1)  # it starts in the launcher's hex
    assert game.state.missiles[mid].moved == 0
    finish_turn(game)
    return game


def missile(game: Game) -> Any:
    """The one missile in flight."""
    (m,) = game.state.missiles.values()
    return m


# ---- SFA-MSL-1 ----------------------------------------------------------------------


def test_SFA_MSL_1_a_missile_flies_5_hexes_before_anyone_chooses() -> None:
    """SFA-MSL-1: launched in turn 1, the missile waits; at the start of turn 2, before
    any selection, it flies 5 hexes straight at its target."""
    game = launch()
    assert (game.state.turn, game.state.phase) == (2, "select")
    m = missile(game)
    assert (m.hex, m.moved, m.target) == (at(5, 6), 5, "B1")
    assert events(game, "SFA-MSL-1")[0].data["unit"] == "R1"  # the launch
    flight = events(game, "SFA-MSL-1")[-1]
    assert flight.data["hexes"] == 5
    turn_2 = [e.text for e in game.events].index("turn 2 begins")
    assert [e.text for e in game.events].index(flight.text) > turn_2
    assert not [e for e in game.events[turn_2:] if "selects" in e.text]


def test_SFA_MSL_1_a_missile_never_takes_the_id_of_a_craft() -> None:
    """SFA-MSL-1: a missile is a counter of its own. Missiles are named M and a number;
    a craft a scenario named M1 (starbase-assault's mothership) keeps its id to itself,
    and the missile is M2."""
    game = launch(extra=(craft(0, "runner", (10, 18), 0, id="M1"),))
    (mid,) = game.state.missiles
    assert mid == "M2"
    assert "M1" in game.state.craft and game.state.craft["M1"].type == "runner"
    assert events(game, "SFA-MSL-1")[0].data["missile"] == "M2"


def test_SFA_MSL_1_a_launch_needs_range_and_a_clear_line_but_no_forward_line() -> None:
    """SFA-MSL-1: 20 hexes is in range, 21 is not; an asteroid between blocks the launch."""
    for row, reachable in ((21, True), (22, False)):
        game = make_game(
            craft(1, "launcher", (5, 1), 0, id="R1"),
            craft(0, "runner", (5, row), 3, id="B1"),
            designs=[LAUNCHER, RUNNER],
            size=(12, 24),
        )
        select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
        run_until(game, "R1#0", "resolve")
        assert game.is_legal(A.Resolve(actor="R1#0", target="B1")) is reachable, row
    game = make_game(
        craft(1, "launcher", (5, 1), 0, id="R1"),
        craft(0, "runner", (5, 8), 3, id="B1"),
        designs=[LAUNCHER, RUNNER],
        terrain=[((5, 4), "asteroid")],
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    with pytest.raises(IllegalAction, match="SFA-ATK-2"):
        game.check(A.Resolve(actor="R1#0", target="B1"))


def test_SFA_MSL_1_self_destructs_after_20_hexes() -> None:
    """SFA-MSL-1: B1 keeps a hex ahead of the missile; after 20 hexes the missile is gone."""
    game = make_game(
        craft(1, "launcher", (5, 0), 0, id="R1"),
        craft(0, "runner", (5, 20), 3, id="B1"),  # 20 hexes south of R1
        designs=[LAUNCHER, RUNNER],
        size=(12, 27),
        turn_limit=6,
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    finish_turn(game)
    for turn in (2, 3, 4):
        assert missile(game).moved == 5 * (turn - 1)
        select(game)
        finish_turn(game)
    assert game.state.turn == 5
    assert game.state.missiles == {}
    last = events(game, "SFA-MSL-1")[-1]
    assert "self-destructs" in last.text
    assert not events(game, "SFA-MSL-2")  # it never reached B1
    assert game.state.craft["B1"].hex == at(5, 24)


def test_SFA_MSL_1_a_missile_whose_target_is_gone_self_destructs() -> None:
    """SFA-MSL-1: B1 flies off the map; at the next turn's start its missile is gone."""
    game = launch(
        (5, 18),
        3,
        extra=(craft(0, "runner", (1, 10), 0, id="B2"),),
    )
    assert "B1" in game.state.craft and game.state.craft["B1"].hex == at(5, 19)
    select(game)
    finish_turn(game, moves={"B2": "F", "B1": "F"})  # B1 leaves the map
    assert "B1" not in game.state.craft
    assert game.state.missiles == {}
    assert "self-destructs" in events(game, "SFA-MSL-1")[-1].text


# ---- SFA-MSL-2 ----------------------------------------------------------------------


def hunt(first: tuple[int, ...], second: tuple[int, ...] = ()) -> Game:
    """Launch, then play turn 2 with the missile's turn-3 roll scripted as `first`, and
    turn 3 with its turn-4 roll as `second`."""
    game = launch()
    select(game)
    run_until(game, "B1#0", "move")
    script(game, *first)
    finish_turn(game)  # B1 to (5, 10); turn 3 starts: the missile flies and attacks
    if second:
        select(game)
        run_until(game, "B1#0", "move")
        script(game, *second)
        finish_turn(game)
    return game


def test_SFA_MSL_2_a_hit_strikes_and_the_missile_is_spent() -> None:
    """SFA-MSL-2: the missile flies 4 hexes into B1's hex and rolls 10 - 6 = 4 dice; one
    success strikes, and the missile is gone."""
    game = hunt((HIT, MISS, MISS, MISS))
    strike = events(game, "SFA-MSL-2")
    assert [len(e.rolls) for e in strike if e.rolls] == [4]
    assert game.state.craft["B1"].structure == 9
    assert game.state.missiles == {}


def test_SFA_MSL_2_a_miss_hunts_again() -> None:
    """SFA-MSL-2: with no success the missile stays in flight, follows B1 one hex and
    attacks again next turn."""
    game = hunt((MISS, MISS, MISS, MISS))
    m = missile(game)
    assert (m.hex, m.moved) == (at(5, 10), 9)
    assert "comes round again" in events(game, "SFA-MSL-2")[-1].text
    game = hunt((MISS, MISS, MISS, MISS), (HIT, HIT, MISS, MISS))
    assert game.state.craft["B1"].structure == 8
    assert game.state.missiles == {}
    assert [faces(e) for e in events(game, "SFA-MSL-2") if e.rolls] == [
        [MISS] * 4,
        [HIT, HIT, MISS, MISS],
    ]


def test_SFA_MSL_2_a_missile_cannot_botch() -> None:
    """SFA-MSL-2: four 1s are a plain miss for a missile: no -2 Speed for its launcher."""
    game = hunt((ONE, ONE, ONE, ONE))
    assert not events(game, "SFA-ATK-4")
    assert not game.state.craft["R1"].botched
    assert len(game.state.missiles) == 1


# ---- SFA-MSL-3 ----------------------------------------------------------------------


def test_SFA_MSL_3_a_missile_has_soak_10_and_structure_2() -> None:
    """SFA-MSL-3: 3 + 2 + 15 - 10 = 10 dice at the missile; one success leaves it
    flying, a second shot's success brings it down."""
    game = make_game(
        craft(1, "launcher", (5, 1), 0, id="R1"),
        craft(0, "gunship", (5, 9), 0, id="B1"),
        designs=[
            LAUNCHER,
            design("gunship", weapon("heavy_laser", count=2, fire_linked=True), move=0),
        ],
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    finish_turn(game)
    (mid,) = game.state.missiles
    assert game.state.missiles[mid].hex == at(5, 6)
    select(game, {"B1#0": attack("B1#0", "Heavy Laser")})
    run_until(game, "B1#0", "resolve")
    assert A.Resolve(actor="B1#0", target=mid) in game.legal_actions()
    script(game, HIT, *[MISS] * 9, HIT, *[MISS] * 9)
    fire(game, "B1#0", mid)
    shots = events(game, "SFA-MSL-3")
    assert [len(e.rolls) for e in shots] == [10, 10]
    assert "shot down" in shots[-1].text
    assert game.state.missiles == {}


def test_SFA_MSL_3_one_hit_leaves_it_flying_and_missiles_cannot_shoot_missiles() -> None:
    """SFA-MSL-3: B2's missile launcher cannot target the missile; B1's Light Laser (one
    die) hits it once, and with 1 Structure left it flies on and attacks B1."""
    game = make_game(
        craft(1, "launcher", (5, 1), 0, id="R1"),
        craft(0, "launcher", (5, 9), 0, id="B1"),
        craft(0, "launcher", (8, 9), 0, id="B2"),
        designs=[LAUNCHER],
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    finish_turn(game)
    (mid,) = game.state.missiles
    select(
        game,
        {
            "B1#0": attack("B1#0", "Light Laser"),  # Speed 6
            "B2#0": attack("B2#0", "Missile/Torpedo"),  # Speed 4
        },
    )
    run_until(game, "B2#0", "resolve")
    targets = {a.target for a in game.legal_actions() if a.target}
    assert mid not in targets and "R1" in targets
    fire(game, "B2#0")
    run_until(game, "B1#0", "resolve")
    # B1's shot: 3 + 2 + 5 - 10 = 0, so the one-die minimum; then, at the start of
    # turn 3, the missile's attack on B1: 10 - 6 = 4 dice.
    script(game, HIT, MISS, MISS, MISS, MISS)
    fire(game, "B1#0", mid)
    assert len(events(game, "SFA-MSL-3")[-1].rolls) == 1
    assert game.state.turn == 3
    m = game.state.missiles[mid]
    assert (m.structure, m.hex) == (1, at(5, 9))


def test_SFA_ATK_4_a_botched_shot_at_a_missile_still_botches() -> None:
    """SFA-ATK-4 with SFA-MSL-3: more 1s than successes at a missile is a botch too."""
    game = make_game(
        craft(1, "launcher", (5, 1), 0, id="R1"),
        craft(0, "gunship", (5, 9), 0, id="B1"),
        designs=[LAUNCHER, design("gunship", weapon("heavy_laser"), move=0)],
    )
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    finish_turn(game)
    (mid,) = game.state.missiles
    select(game, {"B1#0": attack("B1#0", "Heavy Laser")})
    run_until(game, "B1#0", "resolve")
    script(game, ONE, ONE, HIT, *[MISS] * 7)
    fire(game, "B1#0", mid)
    assert game.state.craft["B1"].botched


# ---- SFA-ATK-6 ----------------------------------------------------------------------


def test_SFA_ATK_6_missiles_are_used_up_one_launch_at_a_time() -> None:
    """SFA-ATK-6: a rack of two missiles gives two launches, then the weapon is gone."""
    game = launch()
    assert game.state.craft["R1"].expended == {"Missile/Torpedo": 1}
    select(game, {"R1#0": attack("R1#0", "Missile/Torpedo")})
    run_until(game, "R1#0", "resolve")
    fire(game, "R1#0", "B1")
    assert game.state.craft["R1"].expended == {"Missile/Torpedo": 2}
    assert len(game.state.missiles) == 2
    run_until(game, "B1#0", "move")
    script(game, MISS, MISS, MISS, MISS)  # the first missile's attack at turn 3's start
    finish_turn(game)
    assert game.state.to_select[0] == "B1#0"
    game.apply(A.Select(actor="B1#0", kind="none"))
    assert attack("R1#0", "Missile/Torpedo") not in game.legal_actions()
    assert attack("R1#0", "Light Laser") in game.legal_actions()
