"""Clause tests for the B5 resolution (ACTA-RES-*), defensive fire (ACTA-SUP-6) and the
Intensify Defensive Fire doubling (ACTA-SPA-4)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dogfight.core import Game
from dogfight.rulesets.acta.actions import (
    DeclareSpecial,
    DefensiveFire,
    EndMovement,
    Fire,
    Leg,
    MoveFighter,
    MoveShip,
)
from dogfight.rulesets.acta.traits import Trait

from .builders import events, faces, script, unit
from .test_clauses_combat import (
    KLINGON_WINS,
    MORGATH_DAMAGE,
    MORGATH_SHIELDS,
    TIGER_DAMAGE,
    TIGER_SHIELDS,
    E,
    K,
    advance_to,
    all_dice_used,
    face_off,
    last,
    moved_zaresh,
    new_game,
    retype,
    tiger_fires,
    u,
)

B5 = {"resolution": "b5"}
MORGATH_CREW = 22


def b5_face_off(distance: float = 10, *, interceptors: bool = False, **rules: Any) -> Game:
    """Tiger v Morgath under B5 resolution, in the Tiger's fire activation.

    Without `interceptors` the Morgath has lost its Interceptors 1, so no interceptor
    dice are rolled.
    """
    g = new_game(*face_off(distance), rules={**B5, **rules})
    advance_to(g, "ship_fire", E)
    if not interceptors:
        u(g, "M").lost_traits = ("Interceptors",)
    return g


# ---- ACTA-RES-1: ACTA:SF by default, B5 on request ----------------------------------------


def test_ACTA_RES_1_default_is_sf_resolution() -> None:
    """ACTA-RES-1: by default hits go to the shield pool and no Interceptors are rolled."""
    g = new_game(*face_off(10))
    assert g.options["resolution"] == "sf"
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", 5, 5, 5)
    m = u(g, "M")
    assert (m.shields, m.damage, m.crew) == (MORGATH_SHIELDS - 3, MORGATH_DAMAGE, MORGATH_CREW)
    assert events(g, "ACTA-ATK-2") and not events(g, "ACTA-RES-2")
    assert not events(g, "ACTA-RES-4")
    all_dice_used(g)


def test_ACTA_RES_1_b5_resolution_uses_hull_and_attack_table() -> None:
    """ACTA-RES-1: with resolution=b5 the same three hits ignore the shields and roll on
    the attack table."""
    g = b5_face_off()
    tiger_fires(g, "Phaser-1 PH", 5, 5, 5, 2, 2, 2)
    m = u(g, "M")
    assert (m.shields, m.damage, m.crew) == (MORGATH_SHIELDS, MORGATH_DAMAGE - 3, MORGATH_CREW - 3)
    assert events(g, "ACTA-RES-2") and not events(g, "ACTA-ATK-2")
    assert not events(g, "ACTA-DMG-1")
    all_dice_used(g)


# ---- ACTA-RES-2: to hit against the Hull score -------------------------------------------


@pytest.mark.parametrize(
    ("distance", "face", "hits"), [(6, 4, 0), (6, 5, 3), (10, 4, 0), (10, 5, 3)]
)
def test_ACTA_RES_2_hits_on_the_hull_score_at_any_range(
    distance: float, face: int, hits: int
) -> None:
    """ACTA-RES-2: against the Morgath (Hull 5) a 4 misses even at half range."""
    g = b5_face_off(distance)
    tiger_fires(g, "Phaser-1 PH", face, face, face, *([2] * hits))
    ev = last(g, "ACTA-RES-2")
    assert "need 5+" in ev.text and ev.data["hits"] == hits
    all_dice_used(g)


@pytest.mark.parametrize(
    ("fighter_hull", "face", "destroyed"), [(None, 5, False), (None, 6, True), (4, 5, True)]
)
def test_ACTA_RES_2_fighters_count_as_hull_5_with_the_minus_one(
    fighter_hull: int | None, face: int, destroyed: bool
) -> None:
    """ACTA-RES-2: a fighter is Hull 5 (option b5_fighter_hull) and still takes the -1."""
    rules = dict(B5)
    if fighter_hull is not None:
        rules["b5_fighter_hull"] = fighter_hull
    g = moved_zaresh(rules, move=False)  # unmoved: no dodge
    tiger_fires(g, "Phaser-1 PH", face, 1, 1, target="Z")
    assert ("Z" not in g.state.units) is destroyed
    assert f"need {fighter_hull or 5}+ -1" in last(g, "ACTA-RES-2").text
    all_dice_used(g)


@pytest.mark.parametrize(("default_hull", "face", "hits"), [(None, 4, 1), (None, 3, 0), (3, 3, 1)])
def test_ACTA_RES_2_ship_without_hull_uses_the_default(
    default_hull: int | None, face: int, hits: int
) -> None:
    """ACTA-RES-2: a ship with no Hull value uses b5_default_hull (4 by default)."""
    rules = {} if default_hull is None else {"b5_default_hull": default_hull}
    g = b5_face_off(**rules)
    retype(g, "morgath", hull=0)
    tiger_fires(g, "Phaser-1 PH", face, 1, 1, *([2] * hits))
    ev = last(g, "ACTA-RES-2")
    assert f"need {default_hull or 4}+" in ev.text and ev.data["hits"] == hits
    all_dice_used(g)


# ---- ACTA-RES-3: the attack table ---------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "damage", "crit"),
    [((1, 1), 0, False), ((2, 5), 2, False), ((1, 6), 1, True)],
)
def test_ACTA_RES_3_attack_table(table: tuple[int, int], damage: int, crit: bool) -> None:
    """ACTA-RES-3: 1 bulkhead, 2-5 solid (-1 Damage, -1 Crew), 6 solid and a critical;
    Multihit 2 rolls twice; shields are not used."""
    g = b5_face_off()
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, *table, *((4,) if crit else ()))
    m = u(g, "M")
    assert m.damage == MORGATH_DAMAGE - damage
    assert m.crew == MORGATH_CREW - damage
    assert m.shields == MORGATH_SHIELDS
    ev = last(g, "ACTA-RES-3")
    assert faces(ev) == list(table) and ev.data["critical"] is crit
    assert m.criticals == ({"weapons": 3} if crit else {})  # Devastating +2
    all_dice_used(g)


@pytest.mark.parametrize(("roll", "damage", "crit"), [(1, 1, False), (5, 1, True)])
def test_ACTA_RES_3_precise_adds_one_to_the_attack_table(
    roll: int, damage: int, crit: bool
) -> None:
    """ACTA-RES-3 / ACTA-TRT-3: Precise makes a table 1 solid and a 5 a critical."""
    g = b5_face_off()
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, roll, *((2,) if crit else ()))
    assert u(g, "M").damage == MORGATH_DAMAGE - damage
    assert bool(events(g, "ACTA-CRT-1")) is crit
    all_dice_used(g)


def test_ACTA_RES_3_each_six_on_the_attack_table_is_a_critical() -> None:
    """ACTA-RES-3: a Multihit 2 hit rolls twice on the attack table; two 6s are two
    criticals."""
    g = b5_face_off()
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, 6, 6, 4, 5)
    assert [e.data["system"] for e in events(g, "ACTA-CRT-1")] == ["weapons", "crew"]


# ---- ACTA-RES-4: Interceptors ---------------------------------------------------------------


def test_ACTA_RES_4_interceptors_need_2_then_3() -> None:
    """ACTA-RES-4: the Morgath's Interceptors 1 stops the first hit on 2+, then needs 3+."""
    g = b5_face_off(interceptors=True)
    # hits 5, 5, 5; interceptor 2 (stops), 2 (fails at 3+; table 3), 3 (stops)
    tiger_fires(g, "Phaser-1 PH", 5, 5, 5, 2, 2, 3, 3)
    rolls = events(g, "ACTA-RES-4")
    assert [e.data["stopped"] for e in rolls] == [True, False, True]
    assert [re.search(r"need (\d)\+", e.text).group(1) for e in rolls] == ["2", "3", "3"]
    assert u(g, "M").interceptors_used == 2
    assert u(g, "M").damage == MORGATH_DAMAGE - 1
    all_dice_used(g)


@pytest.mark.parametrize(("used", "die", "stopped"), [(4, 5, False), (4, 6, True), (9, 6, True)])
def test_ACTA_RES_4_interceptors_cap_at_6_plus(used: int, die: int, stopped: bool) -> None:
    """ACTA-RES-4: the number needed rises to 6+ and no further."""
    g = b5_face_off(interceptors=True)
    u(g, "M").interceptors_used = used
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, die, *(() if stopped else (2,)))
    ev = last(g, "ACTA-RES-4")
    assert "need 6+" in ev.text and ev.data["stopped"] is stopped
    all_dice_used(g)


def test_ACTA_RES_4_interceptors_x_rolls_x_dice() -> None:
    """ACTA-RES-4: the Kavrik's Interceptors 2 rolls two dice against a hit; one 2 stops it."""
    g = new_game(*face_off(10, klingon="kavrik"), rules=B5)
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", 4, 1, 1, 1, 2)  # Kavrik Hull 4
    ev = last(g, "ACTA-RES-4")
    assert faces(ev) == [1, 2] and ev.data["stopped"] is True
    assert u(g, "M").damage == 8
    all_dice_used(g)


# ---- ACTA-RES-5: Anti-Fighter at the end of movement ----------------------------------------


def mantis_and_zareshes(rules: dict[str, Any], z_to: tuple[float, float]) -> Game:
    """A Mantis (Anti-Fighter 3) at (10, 18); a Zaresh moves to `z_to`; a second Zaresh
    stays far away. Returns the game waiting for Klingon's EndMovement."""
    g = new_game(
        unit(0, "mantis", 10, 18, 0, id="MA"),
        unit(1, "zaresh", 16, 18, 180, id="Z", dogfight_drones=True),
        unit(1, "zaresh", 30, 18, 180, id="Z2", dogfight_drones=True),
        rules=rules,
    )
    advance_to(g, "fighter_move", K)
    g.apply(MoveFighter(unit="Z", x=z_to[0], y=z_to[1], heading=180))
    return g


@pytest.mark.parametrize(("dodge", "destroyed"), [(2, True), (5, False)])
def test_ACTA_RES_5_anti_fighter_at_end_of_movement(dodge: int, destroyed: bool) -> None:
    """ACTA-RES-5: the Mantis rolls 3 dice at the Zaresh 1.5" from its base; each 4+ is a
    hit the (moved) Zaresh may dodge."""
    g = mantis_and_zareshes(B5, (13, 18))
    assert not events(g, "ACTA-RES-5")
    script(g, 4, 1, 3, dodge)
    g.apply(EndMovement())
    ev = last(g, "ACTA-RES-5")
    assert faces(ev) == [4, 1, 3] and ev.data["target"] == "Z"
    assert faces(events(g, "ACTA-FTR-6")[-1]) == [dodge]
    assert ("Z" not in g.state.units) is destroyed
    assert u(g, "Z2").damage == 1
    all_dice_used(g)


def test_ACTA_RES_5_no_anti_fighter_beyond_two_inches() -> None:
    """ACTA-RES-5: a fighter 2.1" from the ship's base is not attacked."""
    g = mantis_and_zareshes(B5, (13.6, 18))
    script(g)
    g.apply(EndMovement())
    assert not events(g, "ACTA-RES-5")
    assert "Z" in g.state.units


def test_ACTA_RES_5_anti_fighter_range_option() -> None:
    """ACTA-RES-5: anti_fighter_range=3 reaches the fighter 2.1" away."""
    g = mantis_and_zareshes({**B5, "anti_fighter_range": 3}, (13.6, 18))
    script(g, 1, 1, 1)
    g.apply(EndMovement())
    assert last(g, "ACTA-RES-5").data["target"] == "Z"
    all_dice_used(g)


def test_ACTA_RES_5_anti_fighter_picks_the_nearest_fighter() -> None:
    """ACTA-RES-5: of two fighters in reach the nearer one is attacked."""
    g = new_game(
        unit(0, "mantis", 10, 18, 0, id="MA"),
        unit(1, "zaresh", 16, 18, 180, id="Z", dogfight_drones=True),
        unit(1, "zaresh", 10, 20.8, 180, id="Z2", dogfight_drones=True),
        rules=B5,
    )
    advance_to(g, "fighter_move", K)
    g.apply(MoveFighter(unit="Z", x=13, y=18, heading=180))
    script(g, 4, 1, 1)  # one hit; Z2 did not move, so it may not dodge
    g.apply(EndMovement())
    assert last(g, "ACTA-RES-5").data["target"] == "Z2"
    assert "Z2" not in g.state.units and "Z" in g.state.units
    all_dice_used(g)


def test_ACTA_RES_5_no_anti_fighter_under_sf() -> None:
    """ACTA-RES-5: Anti-Fighter is a B5 rule: under ACTA:SF no dice are rolled."""
    g = mantis_and_zareshes({}, (13, 18))
    script(g)
    g.apply(EndMovement())
    assert not events(g, "ACTA-RES-5")


# ---- ACTA-RES-6: B5 ships dodge ---------------------------------------------------------------


def dodging_morgath(rules: dict[str, Any], *, move: bool = True) -> Game:
    """A Morgath with Dodge 5+ (and no Interceptors) that moves 1", then the Tiger fires."""
    g = new_game(*face_off(10), rules=rules)
    morgath = g.state.types["morgath"]
    retype(g, "morgath", traits=(*morgath.traits, Trait("Dodge", 5)))
    advance_to(g, "ship_move", K)
    g.apply(MoveShip(unit="M", legs=(Leg(0, 1),) if move else ()))
    advance_to(g, "ship_fire", E)
    u(g, "M").lost_traits = ("Interceptors",)
    return g


@pytest.mark.parametrize(("dodge", "damage"), [(5, 0), (4, 1)])
def test_ACTA_RES_6_b5_ship_with_dodge_dodges(dodge: int, damage: int) -> None:
    """ACTA-RES-6: under B5 a moved ship with Dodge 5+ ignores a hit on 5+."""
    g = dodging_morgath(B5)
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, dodge, *(() if damage == 0 else (2,)))
    assert u(g, "M").damage == MORGATH_DAMAGE - damage
    assert faces(events(g, "ACTA-FTR-6")[-1]) == [dodge]
    all_dice_used(g)


def test_ACTA_RES_6_b5_ship_that_did_not_move_cannot_dodge() -> None:
    """ACTA-RES-6 / ACTA-FTR-6: a ship's Dodge, like a fighter's, needs it to have moved."""
    g = dodging_morgath(B5, move=False)
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 2)
    assert u(g, "M").damage == MORGATH_DAMAGE - 1
    assert "did not move" in events(g, "ACTA-FTR-6")[-1].text
    all_dice_used(g)


def test_ACTA_RES_6_sf_ships_do_not_dodge() -> None:
    """ACTA-RES-6: under ACTA:SF the same ship rolls no Dodge; the hit takes a shield box."""
    g = dodging_morgath({})
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1)
    assert u(g, "M").shields == MORGATH_SHIELDS - 1
    assert not events(g, "ACTA-FTR-6")
    all_dice_used(g)


# ---- ACTA-SUP-6: defensive fire by supporting fighters ------------------------------------------


def escorted(
    rules: dict[str, Any] | None = None,
    *,
    fighters: tuple[str, ...] = ("W",),
    intensify: bool = False,
) -> Game:
    """A Tiger with Wasps on its base (supporting it) 10" from a Morgath; the Wasps go
    on defensive fire; returns the game in the Morgath's fire activation (Klingon won)."""
    wasps = {"W": (5, 19), "W2": (5, 17)}
    g = new_game(
        *face_off(10),
        *(unit(0, "wasp", *wasps[w], 0, id=w, supporting="T") for w in fighters),
        dice=KLINGON_WINS,
        rules=rules,
    )
    advance_to(g, "ship_move", E)
    if intensify:
        script(g, 4)
        g.apply(DeclareSpecial(unit="T", name="Intensify Defensive Fire"))
        assert u(g, "T").special == "Intensify Defensive Fire"
    advance_to(g, "defensive_fire", E)
    g.apply(DefensiveFire(fighters=fighters))
    advance_to(g, "ship_fire", K)
    return g


def morgath_fires(g: Game, weapon: str, *dice: int) -> None:
    script(g, *dice)
    g.apply(Fire(unit="M", weapon=weapon, target="T"))


def test_ACTA_SUP_6_defensive_fire_fighters_make_no_attack() -> None:
    """ACTA-SUP-6: a fighter on defensive fire is done attacking for the turn."""
    g = escorted()
    w = u(g, "W")
    assert w.on_defensive_fire and w.attack_done
    assert last(g, "ACTA-SUP-6").data["fighters"] == ["W"]


@pytest.mark.parametrize(
    ("dice", "stopped", "shields"),
    [((4, 5, 2), 2, TIGER_SHIELDS - 2), ((4, 4, 4), 3, TIGER_SHIELDS), ((2, 3, 2), 0, 10)],
)
def test_ACTA_SUP_6_seeking_mode_cancels_drones_on_4_plus(
    dice: tuple[int, int, int], stopped: int, shields: int
) -> None:
    """ACTA-SUP-6: the Wasp rolls its 3 AD against the 3 drones; each 4+ cancels one;
    the rest hit automatically (Multihit 2)."""
    g = escorted()
    assert g.options["defensive_fire_mode"] == "seeking"
    morgath_fires(g, "Drone Rack", *dice)
    ev = last(g, "ACTA-SUP-6")
    assert faces(ev) == list(dice) and ev.data["stopped"] == stopped
    assert u(g, "T").shields == shields
    assert u(g, "W").damage == 2
    all_dice_used(g)


def test_ACTA_SUP_6_natural_one_damages_the_fighter_without_dodge() -> None:
    """ACTA-SUP-6: a 1 among the Wasp's dice costs it one damage, which it may not dodge."""
    g = escorted()
    morgath_fires(g, "Drone Rack", 4, 1, 2)
    assert u(g, "W").damage == 1
    assert not events(g, "ACTA-FTR-6")
    assert u(g, "T").shields == TIGER_SHIELDS - 4
    all_dice_used(g)


def test_ACTA_SUP_6_seeking_mode_does_not_touch_other_weapons() -> None:
    """ACTA-SUP-6: in seeking mode defensive fire rolls only against Seeking weapons."""
    g = escorted()
    morgath_fires(g, "Phaser-1", 5, 5, 1, 1)
    assert not [e for e in events(g, "ACTA-SUP-6") if e.rolls]
    assert u(g, "T").shields == TIGER_SHIELDS - 2
    all_dice_used(g)


def test_ACTA_SUP_6_interceptor_mode() -> None:
    """ACTA-SUP-6: with defensive_fire_mode=interceptor the Wasp is one Interceptor die
    (the Tiger's own Interceptors 1 removed here): a 2 stops the first hit; a 1 against
    the second fails (3+ needed) and costs the Wasp a point."""
    g = escorted({"defensive_fire_mode": "interceptor"})
    u(g, "T").lost_traits = ("Interceptors",)
    morgath_fires(g, "Phaser-1", 5, 5, 1, 1, 2, 1)
    assert [faces(e) for e in events(g, "ACTA-RES-4")] == [[2], [1]]
    assert u(g, "T").interceptors_used == 1
    assert u(g, "T").shields == TIGER_SHIELDS - 1
    assert u(g, "W").damage == 1
    all_dice_used(g)


def test_ACTA_SUP_6_b5_always_uses_interceptor_mode() -> None:
    """ACTA-SUP-6: with resolution=b5 the Wasp adds an Interceptor die even though
    defensive_fire_mode is left at seeking."""
    g = escorted(B5)
    u(g, "T").lost_traits = ("Interceptors",)
    morgath_fires(g, "Phaser-1", 5, 1, 1, 1, 2)  # Tiger Hull 5; the Wasp's die stops it
    assert faces(last(g, "ACTA-RES-4")) == [2]
    assert u(g, "T").damage == TIGER_DAMAGE
    all_dice_used(g)


def test_ACTA_SUP_6_only_the_fighters_own_one_hurts_it() -> None:
    """ACTA-SUP-6: with the Tiger's Interceptors 1 and the Wasp's die, exactly one of the
    two dice is the Wasp's: of the rolls (1, 6) and (6, 1) only one may damage it."""
    damage = []
    for dice in ((1, 6), (6, 1)):
        g = escorted({"defensive_fire_mode": "interceptor"})
        morgath_fires(g, "Phaser-1", 5, 1, 1, 1, *dice)
        damage.append(u(g, "W").damage)
    assert sorted(damage) == [1, 2]


def test_ACTA_SUP_6_each_fighter_that_rolls_a_one_is_hurt() -> None:
    """ACTA-SUP-6: two Wasps on defensive fire (the Tiger's own Interceptors removed)
    both roll 1: both take a point."""
    g = escorted({"defensive_fire_mode": "interceptor"}, fighters=("W", "W2"))
    u(g, "T").lost_traits = ("Interceptors",)
    morgath_fires(g, "Phaser-1", 5, 1, 1, 1, 1, 1)
    assert (u(g, "W").damage, u(g, "W2").damage) == (1, 1)


# ---- ACTA-SPA-4: Intensify doubles defensive dice --------------------------------------------


def test_ACTA_SPA_4_intensify_doubles_defensive_fire_fighters() -> None:
    """ACTA-SPA-4: under Intensify the Wasp rolls 6 dice, not 3, against the drones."""
    g = escorted(intensify=True)
    morgath_fires(g, "Drone Rack", 2, 2, 2, 2, 2, 4)
    ev = last(g, "ACTA-SUP-6")
    assert len(ev.rolls) == 6 and ev.data["stopped"] == 1
    assert u(g, "T").shields == TIGER_SHIELDS - 4
    all_dice_used(g)


def test_ACTA_SPA_4_intensify_doubles_interceptors() -> None:
    """ACTA-SPA-4: under B5 the Tiger's Interceptors 1 rolls 2 dice when intensified."""
    g = new_game(*face_off(10), dice=KLINGON_WINS, rules=B5)
    advance_to(g, "ship_move", E)
    script(g, 4)
    g.apply(DeclareSpecial(unit="T", name="Intensify Defensive Fire"))
    advance_to(g, "ship_fire", K)
    script(g, 5, 1, 1, 1, 1, 1, 3)  # one hit, interceptors 1 and 1, table 3 (+1 Precise)
    g.apply(Fire(unit="M", weapon="Phaser-1", target="T"))
    assert faces(last(g, "ACTA-RES-4")) == [1, 1]
    assert u(g, "T").damage == TIGER_DAMAGE - 1
    all_dice_used(g)


def test_ACTA_SPA_4_intensify_doubles_anti_fighter() -> None:
    """ACTA-SPA-4: an intensified Mantis rolls 6 Anti-Fighter dice."""
    g = new_game(
        unit(0, "mantis", 10, 18, 0, id="MA"),
        unit(1, "zaresh", 16, 18, 180, id="Z", dogfight_drones=True),
        rules=B5,
    )
    advance_to(g, "ship_move", E)
    script(g, 4)
    g.apply(DeclareSpecial(unit="MA", name="Intensify Defensive Fire"))
    advance_to(g, "fighter_move", K)
    script(g, 1, 1, 1, 1, 1, 1)
    g.apply(MoveFighter(unit="Z", x=13, y=18, heading=180))
    assert len(last(g, "ACTA-RES-5").rolls) == 6
    all_dice_used(g)
