"""The sfa heuristic weighs the technologies it used to leave alone (issue 14): Boosters,
Teleport, Plasma Field and Trail, Hyper-Ram, Duplicator, Tractor Beam, Transformation.
Each test builds a position where the technology helps and checks that the heuristic
chooses it (and, where a twin position is cheap, that it does not where it does not)."""

from __future__ import annotations

import random
from typing import Any

from dogfight.core.seat import Seat
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.heuristic import SfaHeuristic

from .test_sfa_heuristic import DRONE, HEAVY, design, position, select_all, turn_of

BOOSTER = design("booster", {"kind": "light_laser"}, move=2, power=10, technologies=["boosters"])
"""A slow fighter with a Light Laser (range 5) and Boosters."""
PORTER = design("porter", {"kind": "light_laser"}, move=2, power=10, technologies=["teleport"])
"""A slow fighter with a Light Laser and a Teleport."""
FIELD = design("field", move=3, power=5, technologies=["plasma_field"])
"""Unarmed but for its Plasma Field."""
TRAIL = design("trail", move=4, power=5, technologies=["plasma_trail"])
"""Unarmed but for its Plasma Trail."""
RUNNER = design("runner", move=4)
"""A fast unarmed fighter."""
RAM = design("ram", move=3, power=10, structure=12, technologies=["hyper_ram"])
"""Unarmed but for its Hyper-Ram plates."""
MIMIC = design(
    "mimic",
    {"kind": "light_laser"},
    handling=-2,
    armor=0,
    move=2,
    power=10,
    technologies=["duplicator"],
)
"""A poor fighter that can copy a better one."""
ACE = design(
    "ace",
    {"kind": "heavy_laser"},
    handling=2,
    armor=3,
    move=4,
    structure=12,
    technologies=["enhanced_soak"],
)
"""A hard-hitting, hard-to-hurt fighter worth copying."""
TRACTOR = design("tractor", move=3, power=5, technologies=["tractor_beam"])
"""Unarmed but for its Tractor Beam."""
SHARP = design(
    "sharp",
    {"kind": "light_laser"},
    handling=1,
    armor=1,
    shields=1,
    move=4,
    technologies=[{"name": "transformation", "level": 1}],
    forms=[{"name": "sharp", "handling": 3, "armor": 0, "shields": 0, "move": 4}],
)
"""A fighter with a second form that trades its armour for Handling (same points)."""
CRAFT = [DRONE, HEAVY, BOOSTER, PORTER, FIELD, TRAIL, RUNNER, RAM, MIMIC, ACE, TRACTOR, SHARP]


def weighed(game: Any) -> list[Any]:
    """The heuristic's candidates now, best first, checked against `decide`."""
    player = SfaHeuristic()
    legal = game.legal_actions()
    out = player.weigh(Seat.of(game), legal, random.Random(0))
    assert out[0].action == SfaHeuristic().decide(Seat.of(game), legal, random.Random(0))
    assert all(w.action in legal for w in out)
    return out


def best(game: Any) -> Any:
    return weighed(game)[0].action


def equipment(actor: str, tech: str) -> A.Select:
    return A.Select(actor=actor, kind="equipment", item=tech)


def test_boosts_towards_a_target_out_of_reach_and_shoots_one_in_reach() -> None:
    # The drone is 11 hexes up the column: two hexes a turn never bring it into range
    # of the Light Laser next turn; the five straight Booster hexes do (SFA-TEC-04).
    far = position((0, "B", "booster", 5, 11, 0), (1, "D", "drone", 5, 0, 0), custom_craft=CRAFT)
    assert best(far) == equipment("B#0", "boosters")
    select_all(far, {"B#0": ("equipment", "boosters", 0)})
    turn_of(far, "B#0", "move")
    move = best(far)
    assert isinstance(move, A.Move) and len(move.steps) > 2  # it flies the Booster hexes
    near = position((0, "B", "booster", 5, 9, 0), (1, "D", "drone", 5, 6, 0), custom_craft=CRAFT)
    assert best(near) != equipment("B#0", "boosters")


def test_teleports_into_range_of_a_far_target() -> None:
    game = position((0, "P", "porter", 5, 11, 0), (1, "D", "drone", 5, 0, 0), custom_craft=CRAFT)
    assert best(game) == equipment("P#0", "teleport")
    select_all(game, {"P#0": ("equipment", "teleport", 0)})
    turn_of(game, "P#0", "move")
    jump = best(game)
    assert isinstance(jump, A.Move) and jump.dest is not None  # it jumps, not flies
    drone = game.state.craft["D"].hex
    start = game.state.craft["P"].hex
    assert jump.dest.distance(drone) < start.distance(drone) - 2


def test_raises_a_plasma_field_among_enemies() -> None:
    game = position(
        (0, "F", "field", 5, 8, 0),
        (1, "D1", "drone", 4, 5, 0),
        (1, "D2", "drone", 6, 5, 0),
        custom_craft=CRAFT,
    )
    assert best(game) == equipment("F#0", "plasma_field")
    alone = position((0, "F", "field", 2, 11, 0), (1, "D", "drone", 14, 0, 0), custom_craft=CRAFT)
    assert best(alone) != equipment("F#0", "plasma_field")


def test_lays_a_plasma_trail_across_an_enemy_s_way() -> None:
    game = position((0, "T", "trail", 3, 6, 1), (1, "R", "runner", 7, 9, 0), custom_craft=CRAFT)
    out = weighed(game)
    assert out[0].action == equipment("T#0", "plasma_trail")
    assert "catches" in out[0].reason


def test_hyper_rams_a_craft_in_reach_and_flies_into_it() -> None:
    game = position((0, "R", "ram", 5, 9, 0), (1, "D", "drone", 5, 6, 0), custom_craft=CRAFT)
    assert best(game) == equipment("R#0", "hyper_ram")
    select_all(game, {"R#0": ("equipment", "hyper_ram", 0)})
    turn_of(game, "R#0", "move")
    game.apply(best(game))
    # The drone takes 12 x 3 less its Soak: it is destroyed; the plates take nothing.
    drone = game.state.craft.get("D")
    assert drone is None or drone.disabled
    assert game.state.craft["R"].structure == 12
    far = position((0, "R", "ram", 5, 11, 0), (1, "D", "drone", 12, 0, 0), custom_craft=CRAFT)
    assert best(far) != equipment("R#0", "hyper_ram")


def test_duplicates_a_better_enemy_that_has_it_under_fire() -> None:
    game = position((0, "M", "mimic", 5, 9, 0), (1, "A", "ace", 5, 4, 3), custom_craft=CRAFT)
    assert best(game) == equipment("M#0", "duplicator")
    select_all(game, {"M#0": ("equipment", "duplicator", 0)})
    turn_of(game, "M#0", "resolve")
    assert best(game) == A.Resolve(actor="M#0", target="A")


def test_grabs_an_enemy_in_its_tractor_beam_for_a_friend_s_gun() -> None:
    game = position(
        (0, "T", "tractor", 6, 7, 0),
        (0, "H", "heavy", 5, 9, 0),
        (1, "R", "runner", 6, 5, 3),
        custom_craft=CRAFT,
    )
    game.apply(A.Select(actor="H#0", kind="attack", item="Heavy Laser"))
    assert best(game) == equipment("T#0", "tractor_beam")
    select_all(game, {"T#0": ("equipment", "tractor_beam", 0)})
    turn_of(game, "T#0", "resolve")
    assert best(game) == A.Resolve(actor="T#0", target="R")


def test_drags_a_held_enemy_into_a_friend_s_line_of_fire() -> None:
    game = position(
        (0, "T", "tractor", 6, 7, 0),
        (0, "H", "heavy", 5, 9, 0),
        (1, "R", "runner", 6, 5, 3),
        custom_craft=CRAFT,
    )
    game.state.craft["R"].held_by = "T"
    select_all(game, {})
    turn_of(game, "R#0", "move")
    assert game.state.active == "Blue"  # the holder's side moves the held craft
    drag = best(game)
    assert isinstance(drag, A.Move) and drag.dest is not None
    heavy = game.state.craft["H"]
    player = SfaHeuristic()
    player.weigh(Seat.of(game), game.legal_actions(), random.Random(0))
    gun = player.best_gun(heavy)
    assert gun is not None
    assert drag.dest in player.coverage(heavy, gun[1], heavy.hex, heavy.facing)


def test_transforms_to_the_sharper_form_while_out_of_reach() -> None:
    # Nothing is in reach of either side: the form with the better Handling makes the
    # shots to come better (SFA-TEC-30), and nothing the armour stopped is lost.
    game = position((0, "S", "sharp", 5, 11, 0), (1, "D", "drone", 5, 0, 0), custom_craft=CRAFT)
    assert best(game) == equipment("S#0", "transformation")
    select_all(game, {"S#0": ("equipment", "transformation", 0)})
    turn_of(game, "S#0", "resolve")
    assert best(game) == A.Resolve(actor="S#0", form="sharp")
