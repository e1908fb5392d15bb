"""Issue 10, acta items 8 and 9: the power-drain choice, evasion of Seeking weapons,
the phaser Kill Zone and the drone limit (ACTA-SPA-8, -SPA-9, ACTA-TRT-9, -TRT-10).

Each test builds a position, scripts the dice, plays it through the Game API and
checks the result against the clause in data/acta/rules.md named in the test.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec
import pytest

from dogfight.core import Game
from dogfight.core.options import resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.rulesets.acta.actions import DeclareSpecial, Fire, Leg, MoveShip
from dogfight.rulesets.acta.odds import acta_attack
from dogfight.rulesets.acta.targets import shot_problem
from dogfight.rulesets.acta.units import find_unit

from .builders import events, faces, make_game, script
from .test_clauses_combat import (
    EMPIRE_WINS,
    KLINGON_WINS,
    TIGER_SHIELDS,
    advance_to,
    all_dice_used,
    ctx_of,
    face_off,
    last,
    new_game,
    passive,
    u,
)
from .test_clauses_sequence import mover, refused

E, K = "Empire", "Klingon"
MORGATH_SHIELDS = 14


# ---- ACTA-SPA-8: the power-drain penalty is the owner's choice ---------------------------


def drained_tiger(drain: str) -> Game:
    """Turn 1: the Tiger (T) takes All Power to Engines with `drain` and holds still;
    the game waits for Empire's ship fire in turn 2, the Morgath 10" ahead."""
    g = new_game(*face_off(10), dice=KLINGON_WINS, turn_limit=3)
    advance_to(g, "ship_move", E)
    legal = [a for a in g.legal_actions() if isinstance(a, DeclareSpecial)]
    offered = {a.drain for a in legal if a.name == "All Power to Engines"}
    assert offered == {"move", "phasers", "one_system"}
    g.apply(DeclareSpecial(unit="T", name="All Power to Engines", drain=drain))
    assert last(g, "ACTA-SPA-8").data["drain"] == drain
    g.apply(MoveShip(unit="T", legs=()))
    script(g, *EMPIRE_WINS)  # turn 2 initiative: Empire fires first
    until_turn(g, 2, "ship_fire", E)
    return g


def until_turn(g: Game, turn: int, phase: str, side: str) -> None:
    """Take passive choices until `side` decides in `phase` of `turn`."""
    for _ in range(80):
        if g.state.turn == turn and g.state.phase == phase and g.state.active == side:
            return
        g.apply(passive(g))
    raise AssertionError(f"never reached {phase} of turn {turn}")


def test_ACTA_SPA_8_drain_fire_only_phasers() -> None:
    """ACTA-SPA-8: the owner chose 'fire only phasers': next turn the photon torpedo may
    not fire but a phaser may."""
    g = drained_tiger("phasers")
    reason = refused(g, Fire(unit="T", weapon="Photon Torpedo", target="M"))
    assert "only phasers" in reason and "ACTA-SPA-8" in reason
    g.check(Fire(unit="T", weapon="Phaser-1 PH", target="M"))


def test_ACTA_SPA_8_drain_fire_only_one_weapon_system() -> None:
    """ACTA-SPA-8: 'fire only one weapon system': after the torpedo, the phaser is refused."""
    g = drained_tiger("one_system")
    script(g, 1, 1, 1)
    g.apply(Fire(unit="T", weapon="Photon Torpedo", target="M"))
    tiger = u(g, "T")
    phaser = next(w for w in g.state.unit_type(tiger).weapons if w.name == "Phaser-1 PH")
    reason = shot_problem(ctx_of(g), tiger, phaser, u(g, "M"))
    assert "one weapon system" in reason and "ACTA-SPA-8" in reason
    # With nothing left to fire, the Tiger's activation ended and the Klingons go on.
    assert not any(isinstance(a, Fire) and a.unit == "T" for a in g.legal_actions())


def test_ACTA_SPA_8_a_fire_penalty_leaves_the_move_free() -> None:
    """ACTA-SPA-8: with a fire penalty chosen, the drained ship may move its full Speed."""
    g = new_game(*face_off(10), dice=KLINGON_WINS, turn_limit=3)
    advance_to(g, "ship_move", E)
    g.apply(DeclareSpecial(unit="T", name="All Power to Engines", drain="phasers"))
    g.apply(MoveShip(unit="T", legs=()))
    script(g, *KLINGON_WINS)
    until_turn(g, 2, "ship_move", E)
    g.check(MoveShip(unit="T", legs=(Leg(0, 10),)))  # not limited to 6"


def test_ACTA_SPA_8_unknown_penalty_is_refused() -> None:
    """ACTA-SPA-8: a penalty that is not one of the three is refused with the choices."""
    g = new_game(*face_off(10), dice=KLINGON_WINS)
    advance_to(g, "ship_move", E)
    reason = refused(g, DeclareSpecial(unit="T", name="All Power to Engines", drain="shields"))
    assert "phasers" in reason and "one_system" in reason
    assert "only All Power" in refused(
        g, DeclareSpecial(unit="T", name="Close Blast Doors", drain="move")
    )


# ---- ACTA-SPA-9: evasive action and Seeking weapons: the opposed Crew Quality roll ---------


def evasive_tiger(rules: dict[str, Any] | None = None) -> Game:
    """The Tiger (CQ 4) takes evasive action; the Morgath (CQ 4) is about to fire its
    Drone Rack (3 AD, Seeking, Multihit 2) 10" away."""
    g = new_game(*face_off(10), dice=KLINGON_WINS, rules=rules)
    advance_to(g, "ship_move", E)
    script(g, 4)  # 4 + 4 = 8: the check passes
    g.apply(DeclareSpecial(unit="T", name="Take Evasive Action"))
    assert u(g, "T").special == "Take Evasive Action"
    advance_to(g, "ship_fire", K)
    return g


@pytest.mark.parametrize(
    ("dice", "rules", "evaded"),
    [
        ((5, 2), None, True),  # 9 v 6: the evader wins, the drones miss
        ((2, 5), None, False),  # 6 v 9: the drones hit automatically
        ((4, 4), None, False),  # a tie: the drones hit (evasion_tie=hits)
        ((4, 4), {"evasion_tie": "misses"}, True),
    ],
)
def test_ACTA_SPA_9_evasive_action_opposed_crew_roll(
    dice: tuple[int, int], rules: dict[str, Any] | None, evaded: bool
) -> None:
    """ACTA-SPA-9: a Seeking weapon fired at an evasive ship needs no to-hit dice; the
    ship rolls 1d6 + CQ against the firer's 1d6 + CQ and makes it miss only by winning."""
    g = evasive_tiger(rules)
    script(g, *dice)
    g.apply(Fire(unit="M", weapon="Drone Rack", target="T"))
    ev = last(g, "ACTA-SPA-9")
    assert faces(ev) == list(dice) and ev.data["evaded"] is evaded
    assert not events(g, "ACTA-ATK-2")  # the drones never rolled to hit
    assert u(g, "T").shields == (TIGER_SHIELDS if evaded else TIGER_SHIELDS - 6)
    all_dice_used(g)


def test_ACTA_SPA_9_no_roll_without_evasive_action() -> None:
    """ACTA-SPA-9: a ship not taking evasive action makes no opposed roll."""
    g = new_game(*face_off(10), dice=KLINGON_WINS)
    advance_to(g, "ship_fire", K)
    script(g)
    g.apply(Fire(unit="M", weapon="Drone Rack", target="T"))
    assert not events(g, "ACTA-SPA-9")
    assert u(g, "T").shields == TIGER_SHIELDS - 6


# ---- ACTA-TRT-9: the phaser Kill Zone -------------------------------------------------------


@pytest.mark.parametrize(("distance", "stripped"), [(4.0, 6), (5.0, 3)])
def test_ACTA_TRT_9_phaser_kill_zone_counts_as_multihit_2(distance: float, stripped: int) -> None:
    """ACTA-TRT-9: the Tiger's Phaser-1 PH (3 AD, Kill Zone 4) hits three times: within 4"
    each hit strips two shield boxes (Multihit 2), beyond it one."""
    g = new_game(*face_off(distance), dice=EMPIRE_WINS)
    advance_to(g, "ship_fire", E)
    script(g, 4, 4, 4)
    g.apply(Fire(unit="T", weapon="Phaser-1 PH", target="M"))
    assert last(g, "ACTA-ATK-2").data["hits"] == 3
    assert u(g, "M").shields == MORGATH_SHIELDS - stripped
    all_dice_used(g)


def test_ACTA_TRT_9_exact_odds_use_the_kill_zone() -> None:
    """ACTA-TRT-9: `dogfight odds` (acta.odds.acta_attack) counts the Kill Zone: against a
    ship with no shields, the expected hull damage within the zone is twice that beyond
    (hull dice per hit double), at the same 4+ to hit."""
    tiger = find_unit("tiger")
    bare = msgspec.structs.replace(find_unit("morgath"), shields=0, damage=99)
    options = resolve_options(find_ruleset("acta").options)
    inside = acta_attack(tiger, "Phaser-1 PH", bare, options, range_inches=4).expected
    outside = acta_attack(tiger, "Phaser-1 PH", bare, options, range_inches=5).expected
    assert inside == 2 * outside
    # 3 AD at 4+ is 3/2 hits; Precise makes every hull die one damage.
    assert outside == Fraction(3, 2)


# ---- ACTA-TRT-10: at most three drones from one ship at one target a turn -----------------


def twin_rack_game(rules: dict[str, Any] | None = None) -> Game:
    """The Morgath carries two Drone Racks of 2 AD each, 10" from the Tiger."""
    g = new_game(*face_off(10), dice=KLINGON_WINS, rules=rules)
    mtype = g.state.types["morgath"]
    rack = next(w for w in mtype.weapons if w.name == "Drone Rack")
    racks = (
        msgspec.structs.replace(rack, name="Drone Rack A", ad=2),
        msgspec.structs.replace(rack, name="Drone Rack B", ad=2),
        msgspec.structs.replace(rack, name="Drone Rack C", ad=1),
    )
    others = tuple(w for w in mtype.weapons if w.name != "Drone Rack")
    g.state.types["morgath"] = msgspec.structs.replace(mtype, weapons=racks + others)
    advance_to(g, "ship_fire", K)
    return g


def test_ACTA_TRT_10_at_most_three_drones_at_one_target() -> None:
    """ACTA-TRT-10: 2 drones, then only 1 of the next rack's 2 may go at the Tiger; a third
    rack is refused: 3 automatic hits in all (6 shield boxes)."""
    g = twin_rack_game()
    script(g)
    g.apply(Fire(unit="M", weapon="Drone Rack A", target="T"))
    g.apply(Fire(unit="M", weapon="Drone Rack B", target="T"))
    assert last(g, "ACTA-TRT-10").data["allowed"] == 1
    assert u(g, "T").shields == TIGER_SHIELDS - 6
    reason = refused(g, Fire(unit="M", weapon="Drone Rack C", target="T"))
    assert "ACTA-TRT-10" in reason
    assert not any(isinstance(a, Fire) and a.weapon == "Drone Rack C" for a in g.legal_actions())


def test_ACTA_TRT_10_option_zero_lifts_the_limit() -> None:
    """ACTA-TRT-10: drone_limit=0 lets all four drones of the two racks hit."""
    g = twin_rack_game({"drone_limit": 0})
    script(g)
    g.apply(Fire(unit="M", weapon="Drone Rack A", target="T"))
    g.apply(Fire(unit="M", weapon="Drone Rack B", target="T"))
    assert u(g, "T").shields == TIGER_SHIELDS - 8


def test_ACTA_TRT_10_limit_is_per_turn() -> None:
    """ACTA-TRT-10: the count starts again each turn."""
    g = make_game(*face_off(10), dice=KLINGON_WINS, turn_limit=2)
    advance_to(g, "ship_fire", K)
    script(g)
    g.apply(Fire(unit="M", weapon="Drone Rack", target="T"))
    assert u(g, "M").drones_at == (("T", 3),)
    script(g, *KLINGON_WINS)
    until_turn(g, 2, "ship_fire", K)
    script(g)
    g.check(Fire(unit="M", weapon="Drone Rack", target="T"))


# ---- ACTA-SPA-11: High Energy Turn ---------------------------------------------------------


def het_tiger(face: int, extra: int) -> Game:
    """The Tiger (Speed 10, Turn 3, CQ 4) declares a High Energy Turn of `extra` segments."""
    g = mover()
    offered = {
        a.extra
        for a in g.legal_actions()
        if isinstance(a, DeclareSpecial) and a.name == "High Energy Turn"
    }
    assert offered == {1, 2, 3}
    script(g, face)
    g.apply(DeclareSpecial(unit="E-CA", name="High Energy Turn", extra=extra))
    return g


def test_ACTA_SPA_11_high_energy_turn_passed() -> None:
    """ACTA-SPA-11: on a pass (4 + 4 = 8) with one extra segment the Tiger may make one
    turn of 90 degrees at its turn point, or of 45 before running its Turn distance;
    only one such turn, and never more than declared."""
    g = het_tiger(4, 1)
    assert u(g, "E-CA").special == "High Energy Turn"
    g.check(MoveShip(unit="E-CA", legs=(Leg(0, 3), Leg(90, 3))))
    g.check(MoveShip(unit="E-CA", legs=(Leg(45, 3), Leg(45, 3))))
    g.check(MoveShip(unit="E-CA", legs=(Leg(0, 3), Leg(90, 3), Leg(45, 3))))
    assert "ACTA-MOV-2" in refused(g, MoveShip(unit="E-CA", legs=(Leg(0, 3), Leg(135, 3))))
    assert "ACTA-MOV-2" in refused(
        g, MoveShip(unit="E-CA", legs=(Leg(0, 3), Leg(90, 3), Leg(90, 3)))
    )


def test_ACTA_SPA_11_high_energy_turn_failed_damages_the_drive() -> None:
    """ACTA-SPA-11: on a failed check (2 + 4 < 8) with two extra segments tried, the drive
    critical rises by 2 and the ship moves normally (no turn beyond 45 degrees)."""
    g = het_tiger(2, 2)
    ev = last(g, "ACTA-SPA-11")
    assert ev.data["level"] == 2 and u(g, "E-CA").criticals == {"drive": 2}
    assert u(g, "E-CA").special == ""
    assert "ACTA-MOV-2" in refused(g, MoveShip(unit="E-CA", legs=(Leg(0, 3), Leg(90, 3))))
    all_dice_used(g)


def test_ACTA_SPA_11_extra_segments_are_checked() -> None:
    """ACTA-SPA-11: a High Energy Turn tries 1 to 3 extra segments; no other action has any."""
    g = mover()
    assert "1 to 3" in refused(g, DeclareSpecial(unit="E-CA", name="High Energy Turn", extra=4))
    assert "1 to 3" in refused(g, DeclareSpecial(unit="E-CA", name="High Energy Turn"))
    assert "extra" in refused(g, DeclareSpecial(unit="E-CA", name="Close Blast Doors", extra=1))


@pytest.mark.parametrize(
    "name",
    [
        "Overload Weapons",
        "Reload",
        "Launch Suicide Shuttle",
        "Maximum Warp Now",
        "Transport Marines",
    ],
)
def test_ACTA_SPA_10_special_actions_with_no_sourced_effect_are_not_offered(name: str) -> None:
    """ACTA-SPA-10: the Special Actions whose effect no source gives are neither offered
    nor accepted (they are listed as not implemented, not invented)."""
    g = new_game(*face_off(10), dice=KLINGON_WINS)
    advance_to(g, "ship_move", E)
    offered = {a.name for a in g.legal_actions() if isinstance(a, DeclareSpecial)}
    assert "All Power to Engines" in offered and name not in offered
    assert refused(g, DeclareSpecial(unit="T", name=name))
