"""Clause tests for ACTA fire, damage, criticals, traits and Special Actions.

Each test builds a position, scripts the dice, plays it through the Game API and
checks the result against one clause of data/acta/rules.md (named in the test).
B5 resolution and defensive fire live in test_clauses_combat_b5.py, dogfights in
test_clauses_combat_dogfight.py; both import the helpers defined here.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.core.events import Event, EventLog
from dogfight.geometry import Pose, Vec2
from dogfight.rulesets.acta.actions import (
    ChooseLoadout,
    DeclareSpecial,
    DefenderSupport,
    DefensiveFire,
    Dogfight,
    EndAttacks,
    EndMovement,
    FighterOrder,
    Fire,
    Intercept,
    Launch,
    Leg,
    MoveFighter,
    MoveShip,
)
from dogfight.rulesets.acta.combat import ARC_RANGES, in_arc
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.traits import Trait, parse_trait
from dogfight.rulesets.acta.units import find_unit

from .builders import events, faces, make_game, script, unit

E, K = "Empire", "Klingon"
EMPIRE_WINS = (6, 1)
"""Initiative dice (Empire's die, then Klingon's) that give Empire the initiative
even against a Morgath's Command 2."""
KLINGON_WINS = (1, 6)

TIGER_SHIELDS, TIGER_DAMAGE = 16, 20
MORGATH_SHIELDS, MORGATH_DAMAGE = 14, 20


# ---- helpers shared by the combat clause tests -----------------------------------------


def new_game(
    *units: dict[str, Any],
    dice: tuple[int, ...] = EMPIRE_WINS,
    rules: dict[str, Any] | None = None,
    turn_limit: int = 1,
) -> Game:
    """A one-turn game (so no further initiative dice are rolled once the turn ends)."""
    return make_game(*units, dice=dice, rules=rules, turn_limit=turn_limit)


def passive(game: Game) -> Any:
    """The 'do nothing special' choice for the decision now pending."""
    state = game.state
    side = state.active
    phase = state.phase
    if phase == "setup":
        return ChooseLoadout()
    if phase == "ship_move":
        return MoveShip(unit=state.moving_ship or state.ships_to_move[side][0])
    if phase == "fighter_order":
        return FighterOrder(first=side)
    if phase == "fighter_move":
        return EndMovement()
    if phase == "intercept":
        return Intercept(attacker=state.intercept.attacker)
    if phase == "defensive_fire":
        return DefensiveFire()
    if phase == "fighter_attack":
        if side == state.attack_sides[0]:
            raise AssertionError("a side must assign its engaged fighters: the test decides")
        return DefenderSupport()
    if phase == "fighter_fire":
        return EndAttacks()
    if phase == "ship_fire":
        return EndAttacks(unit=state.firing_ship or state.ships_to_fire[side][0])
    if phase == "launch":
        return Launch(ship=state.launches_pending[0])
    raise AssertionError(f"no passive choice in phase {phase}")


def advance_to(game: Game, phase: str, side: str | None = None) -> None:
    """Take passive choices until `side` (or anyone) must decide in `phase`."""
    for _ in range(60):
        state = game.state
        if state.phase == phase and (side is None or state.active == side):
            return
        assert not game.is_over(), f"game ended before reaching {phase} ({side})"
        game.apply(passive(game))
    raise AssertionError(f"never reached {phase} ({side})")


def finish(game: Game) -> None:
    """Play passively to the end of the (one-turn) game."""
    for _ in range(60):
        if game.is_over():
            return
        game.apply(passive(game))
    raise AssertionError("the game did not end")


def fire_and_resolve(game: Game, shot: Fire) -> None:
    """Nominate a fighter's shot and end the side's fighter attacks, so that it is rolled
    now (ACTA-FTR-7: nominated shots are resolved together)."""
    game.apply(shot)
    if game.state.phase == "fighter_fire" and game.state.volley:
        game.apply(EndAttacks())


def all_dice_used(game: Game) -> None:
    """Every scripted face was rolled: the engine rolled exactly what the test expected."""
    assert game.dice.source.remaining == 0, f"{game.dice.source.remaining} scripted dice unused"


def ctx_of(game: Game) -> Ctx:
    """A resolution context on the game's state (for read-only questions)."""
    return Ctx(game.state, game.state.options, EventLog(game.dice))


def u(game: Game, uid: str) -> Any:
    """A unit on the table."""
    return game.state.units[uid]


def last(game: Game, clause: str) -> Event:
    """The latest event citing a clause."""
    found = events(game, clause)
    assert found, f"no {clause} event"
    return found[-1]


def face_off(distance: float, empire: str = "tiger", klingon: str = "morgath") -> list[dict]:
    """Empire ship T at (5, 18) facing +x; Klingon ship M `distance`" dead ahead, facing T."""
    return [unit(0, empire, 5, 18, 0, id="T"), unit(1, klingon, 5 + distance, 18, 180, id="M")]


def retype(game: Game, type_id: str, **changes: Any) -> None:
    """Give one unit type of this game different stats (for positions the data lacks)."""
    game.state.types[type_id] = msgspec.structs.replace(game.state.types[type_id], **changes)


def tiger_fires(game: Game, weapon: str, *dice: int, target: str = "M") -> list[Event]:
    """Script the dice and fire one of the Tiger's weapons."""
    script(game, *dice)
    return game.apply(Fire(unit="T", weapon=weapon, target=target))


# ---- ACTA-ATK-1: range, arc, once per turn -------------------------------------------


def test_ACTA_ATK_1_target_out_of_range_is_illegal() -> None:
    """ACTA-ATK-1: a 6" Phaser-3 may not fire at a ship 10" away; the 12" Phaser-1 may."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    with pytest.raises(IllegalAction, match="beyond"):
        g.apply(Fire(unit="T", weapon="Phaser-3", target="M"))
    assert g.is_legal(Fire(unit="T", weapon="Phaser-1 PH", target="M"))
    assert Fire(unit="T", weapon="Phaser-3", target="M") not in g.legal_actions()


def test_ACTA_ATK_1_exactly_at_range_is_in_range() -> None:
    """ACTA-ATK-1: a target at exactly the weapon's range may be fired at."""
    g = new_game(*face_off(6))
    advance_to(g, "ship_fire", E)
    assert g.is_legal(Fire(unit="T", weapon="Phaser-3", target="M"))


def test_ACTA_ATK_1_target_out_of_arc_is_illegal() -> None:
    """ACTA-ATK-1: the Tiger's F-arc Photon Torpedo cannot hit a ship astern."""
    g = new_game(unit(0, "tiger", 20, 18, 0, id="T"), unit(1, "morgath", 10, 18, 0, id="M"))
    advance_to(g, "ship_fire", E)
    with pytest.raises(IllegalAction, match="arc"):
        g.check(Fire(unit="T", weapon="Photon Torpedo", target="M"))
    assert g.is_legal(Fire(unit="T", weapon="Phaser-1 PH", target="M"))  # PH takes 180


def test_ACTA_ATK_1_each_weapon_fires_once_per_turn() -> None:
    """ACTA-ATK-1: a weapon that has fired may not fire again this turn."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", 1, 1, 1)
    with pytest.raises(IllegalAction, match="already fired"):
        g.check(Fire(unit="T", weapon="Phaser-1 PH", target="M"))
    assert g.is_legal(Fire(unit="T", weapon="Photon Torpedo", target="M"))


# ---- ACTA-ATK-2: 4+ within half range, 5+ beyond ---------------------------------------


@pytest.mark.parametrize(
    ("distance", "face", "hits"),
    [
        (6, 4, 3),  # exactly half of 12": 4+
        (6, 3, 0),
        (6.5, 4, 0),  # beyond half range: 5+
        (10, 4, 0),
        (10, 5, 3),
    ],
)
def test_ACTA_ATK_2_four_plus_at_half_range_five_plus_beyond(
    distance: float, face: int, hits: int
) -> None:
    """ACTA-ATK-2: Phaser-1 (12") hits on 4+ up to 6", on 5+ beyond."""
    g = new_game(*face_off(distance))
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", face, face, face)
    ev = last(g, "ACTA-ATK-2")
    assert faces(ev) == [face] * 3
    assert ev.data["hits"] == hits
    assert f"need {4 if distance <= 6 else 5}+" in ev.text
    assert u(g, "M").shields == MORGATH_SHIELDS - hits
    all_dice_used(g)


# ---- ACTA-ATK-3: natural 1s and 6s -----------------------------------------------------


def test_ACTA_ATK_3_natural_six_hits_despite_penalties() -> None:
    """ACTA-ATK-3: with weapons critical 3 (-3), a 5 misses but a natural 6 still hits."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "T").criticals = {"weapons": 3}
    tiger_fires(g, "Phaser-1 PH", 5, 6, 4, 3)  # the last die is the 6's hull die
    assert last(g, "ACTA-ATK-2").data["hits"] == 1
    m = u(g, "M")
    assert m.shields == MORGATH_SHIELDS  # and the natural 6 went past the shields
    assert m.damage == MORGATH_DAMAGE - 1
    all_dice_used(g)


def test_ACTA_ATK_3_natural_six_bypasses_shields() -> None:
    """ACTA-ATK-3: under ACTA:SF a natural-6 hit goes to the hull; other hits hit shields."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", 6, 5, 1, 2)  # 2 hits: the 6 rolls hull die 2 (+1 Precise)
    m = u(g, "M")
    assert m.shields == MORGATH_SHIELDS - 1
    assert m.damage == MORGATH_DAMAGE - 1
    hull = last(g, "ACTA-DMG-2")
    assert faces(hull) == [2]
    assert "past the shields" in hull.text
    all_dice_used(g)


def test_ACTA_ATK_3_natural_one_misses_even_with_accurate() -> None:
    """ACTA-ATK-3: a Z'keth's Accurate +1 shot needing 2+ (B5 fighter Hull 2, no -1)
    misses on a natural 1 although 1 + 1 reaches 2; a 2 hits."""
    rules = {"resolution": "b5", "b5_fighter_hull": 2, "fighter_to_hit_penalty": 0}
    results = []
    for face in (1, 2):
        g = new_game(
            unit(1, "zketh", 10, 10, 0, id="Z", dogfight_drones=True),
            unit(0, "wasp", 12, 10, 180, id="W"),
            dice=KLINGON_WINS,
            rules=rules,
        )
        advance_to(g, "fighter_fire", K)
        script(g, face)
        g.apply(Fire(unit="Z", weapon="Phaser-2F", target="W"))
        ev = last(g, "ACTA-RES-2")
        assert "need 2+ +1" in ev.text
        results.append((ev.data["hits"], u(g, "W").damage))
    assert results == [(0, 2), (1, 1)]


# ---- ACTA-ATK-4: ships fire alternately, the initiative winner first -------------------


def two_a_side() -> list[dict]:
    return [
        unit(0, "tiger", 5, 10, 0, id="T1"),
        unit(0, "tiger", 5, 20, 0, id="T2"),
        unit(1, "morgath", 15, 10, 180, id="M1"),
        unit(1, "morgath", 15, 20, 180, id="M2"),
    ]


@pytest.mark.parametrize(("dice", "first"), [(EMPIRE_WINS, E), (KLINGON_WINS, K)])
def test_ACTA_ATK_4_ships_fire_alternately_winner_first(dice: tuple[int, int], first: str) -> None:
    """ACTA-ATK-4: the sides take turns activating one ship, the initiative winner first."""
    g = new_game(*two_a_side(), dice=dice)
    advance_to(g, "ship_fire")
    order = []
    while g.state.phase == "ship_fire":
        order.append(g.state.active)
        g.apply(passive(g))
    second = K if first == E else E
    assert order == [first, second, first, second]
    assert any(e.clause == "ACTA-ATK-4" for e in g.events)


def test_ACTA_ATK_4_one_ship_at_a_time() -> None:
    """ACTA-ATK-4: once a ship has fired, another ship of the side may not fire until
    the other side has activated a ship."""
    g = new_game(*two_a_side())
    advance_to(g, "ship_fire", E)
    script(g, 1, 1, 1)
    g.apply(Fire(unit="T1", weapon="Phaser-1 PH", target="M1"))
    with pytest.raises(IllegalAction, match="one at a time"):
        g.check(Fire(unit="T2", weapon="Phaser-1 PH", target="M2"))
    g.apply(EndAttacks(unit="T1"))
    assert g.state.active == K
    assert not g.is_legal(Fire(unit="T2", weapon="Phaser-1 PH", target="M2"))


def test_ACTA_ATK_4_side_with_more_ships_fires_the_rest() -> None:
    """ACTA-ATK-4: when one side has no ship left to fire, the other fires its remaining ships."""
    g = new_game(
        unit(0, "tiger", 5, 10, 0, id="T1"),
        unit(1, "morgath", 15, 10, 180, id="M1"),
        unit(1, "morgath", 15, 20, 180, id="M2"),
    )
    advance_to(g, "ship_fire")
    order = []
    while g.state.phase == "ship_fire":
        order.append(g.state.active)
        g.apply(passive(g))
    assert order == [E, K, K]


# ---- ACTA-ARC-1: arc codes, borders inclusive ------------------------------------------

ARC_SPAN = {
    "F": (-45, 45),
    "P": (45, 135),
    "A": (135, 225),
    "S": (-135, -45),
    "FH": (-90, 90),
    "PH": (0, 180),
    "AH": (90, 270),
    "SH": (-180, 0),
}
"""The arcs as the clause defines them: bearings from..to (positive = to port)."""


def in_span(code: str, bearing: float) -> bool:
    if code == "T":
        return True
    lo, hi = ARC_SPAN[code]
    return any(lo <= b <= hi for b in (bearing - 360, bearing, bearing + 360))


@pytest.mark.parametrize("code", ["F", "P", "A", "S", "FH", "PH", "AH", "SH", "T"])
def test_ACTA_ARC_1_arc_codes_cover_their_bearings_borders_included(code: str) -> None:
    """ACTA-ARC-1: every arc code, at every 15 degrees of bearing, borders inside."""
    assert set(ARC_RANGES) == {"F", "P", "A", "S", "FH", "PH", "AH", "SH", "T"}
    g = new_game(unit(0, "tiger", 18, 18, 30, id="T"), unit(1, "morgath", 30, 30, 0, id="M"))
    state = g.state
    firer = u(g, "T")
    target = u(g, "M")
    wrong = []
    for bearing in range(-180, 181, 15):
        spot = firer.pose.position + Vec2.polar(5, firer.pose.heading + bearing)
        target.pose = Pose(spot, 0)
        if in_arc(state, firer, target, code) != in_span(code, bearing):
            wrong.append(bearing)
    assert wrong == []


@pytest.mark.parametrize(
    ("at", "weapon", "legal"),
    [
        ((17, 25), "Photon Torpedo", True),  # exactly 45 degrees to port: the F border
        ((17, 25), "Phaser-1 SH", False),
        ((17, 11), "Photon Torpedo", True),  # exactly 45 degrees to starboard
        ((17, 11), "Phaser-1 SH", True),
        ((17, 11), "Phaser-1 PH", False),
        ((17, 10.9), "Photon Torpedo", False),  # just past the F border
        ((10, 25), "Phaser-1 PH", True),  # 90 degrees to port
        ((10, 25), "Phaser-1 SH", False),
        ((10, 25), "Photon Torpedo", False),
        ((17, 18), "Phaser-1 PH", True),  # dead ahead: the border of both halves
        ((17, 18), "Phaser-1 SH", True),
        ((3, 18), "Phaser-1 PH", True),  # dead astern: the other border of both halves
        ((3, 18), "Phaser-1 SH", True),
        ((3, 18), "Photon Torpedo", False),
    ],
)
def test_ACTA_ARC_1_weapon_arcs_in_play(at: tuple[float, float], weapon: str, legal: bool) -> None:
    """ACTA-ARC-1: a target exactly on an arc border may be fired at from that arc."""
    g = new_game(unit(0, "tiger", 10, 18, 0, id="T"), unit(1, "morgath", at[0], at[1], 0, id="M"))
    advance_to(g, "ship_fire", E)
    assert g.is_legal(Fire(unit="T", weapon=weapon, target="M")) is legal


# ---- ACTA-ARC-2: a missing arc is T unless the option says otherwise --------------------


def zaresh_between(missing_arc: str | None) -> Game:
    """A Zaresh (no arc on its weapons) at (20, 18) facing -x: a Dragonfly dead ahead,
    a Tiger dead astern, both within 2" of its base."""
    return new_game(
        unit(0, "tiger", 22, 18, 0, id="T"),
        unit(0, "dragonfly", 18, 18, 0, id="D"),
        unit(1, "zaresh", 20, 18, 180, id="Z", dogfight_drones=True),
        dice=KLINGON_WINS,
        rules={"missing_arc": missing_arc} if missing_arc else None,
    )


def test_ACTA_ARC_2_missing_arc_is_turret_by_default() -> None:
    """ACTA-ARC-2: the Zaresh's arc-less Phaser-3F fires all round by default."""
    g = zaresh_between(None)
    assert g.options["missing_arc"] == "T"
    assert g.state.types["zaresh"].weapons[0].arc is None
    advance_to(g, "fighter_fire", K)
    assert g.is_legal(Fire(unit="Z", weapon="Phaser-3F", target="T"))
    assert g.is_legal(Fire(unit="Z", weapon="Phaser-3F", target="D"))


def test_ACTA_ARC_2_missing_arc_option_F_restricts() -> None:
    """ACTA-ARC-2: with missing_arc=F the Zaresh may only fire ahead."""
    g = zaresh_between("F")
    advance_to(g, "fighter_fire", K)
    with pytest.raises(IllegalAction, match="F arc"):
        g.check(Fire(unit="Z", weapon="Phaser-3F", target="T"))
    assert g.is_legal(Fire(unit="Z", weapon="Phaser-3F", target="D"))


def test_ACTA_ARC_2_option_leaves_weapons_with_an_arc_alone() -> None:
    """ACTA-ARC-2: the option only fills in missing arcs; the Dragonfly's T weapon still
    fires astern."""
    g = new_game(
        unit(0, "dragonfly", 20, 18, 180, id="D"),
        unit(1, "morgath", 22, 18, 0, id="M"),
        rules={"missing_arc": "F"},
    )
    advance_to(g, "fighter_fire", E)
    assert g.is_legal(Fire(unit="D", weapon="Phaser-3F", target="M"))


# ---- ACTA-DMG-1..4: shields, hull dice, Multihit, destruction ---------------------------


def test_ACTA_DMG_1_shield_pool_absorbs_each_point() -> None:
    """ACTA-DMG-1: three 1-point hits take three shield boxes and no hull damage."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", 5, 5, 5)
    m = u(g, "M")
    assert (m.shields, m.damage) == (MORGATH_SHIELDS - 3, MORGATH_DAMAGE)
    assert [e.data["shields"] for e in events(g, "ACTA-DMG-1")] == [13, 12, 11]
    assert not events(g, "ACTA-DMG-2")
    all_dice_used(g)


def test_ACTA_DMG_1_overflow_goes_to_the_hull() -> None:
    """ACTA-DMG-1: a 2-point hit on 1 shield box takes the box and rolls one hull die."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 1
    tiger_fires(g, "Photon Torpedo", 4, 1, 1, 3)
    m = u(g, "M")
    assert (m.shields, m.damage) == (0, MORGATH_DAMAGE - 1)
    assert faces(last(g, "ACTA-DMG-2")) == [3]
    all_dice_used(g)


@pytest.mark.parametrize(
    ("hull", "damage", "crit"),
    [((1, 1), 0, False), ((2, 5), 2, False), ((1, 6), 1, True), ((6, 6), 2, True)],
)
def test_ACTA_DMG_2_hull_dice(hull: tuple[int, int], damage: int, crit: bool) -> None:
    """ACTA-DMG-2: hull die 1 nothing, 2-5 one damage, 6 one damage and a critical
    (the Photon Torpedo has no Precise; Multihit 2 rolls two hull dice)."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, *hull, *((3,) if crit else ()))
    ev = last(g, "ACTA-DMG-2")
    assert faces(ev) == list(hull)
    assert (ev.data["damage"], ev.data["critical"]) == (damage, crit)
    assert u(g, "M").damage == MORGATH_DAMAGE - damage
    assert bool(events(g, "ACTA-CRT-1")) is crit
    all_dice_used(g)


def test_ACTA_DMG_3_multihit_strips_two_shields() -> None:
    """ACTA-DMG-3: one Multihit 2 hit removes two shield boxes."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Photon Torpedo", 5, 1, 1)
    assert u(g, "M").shields == MORGATH_SHIELDS - 2
    assert last(g, "ACTA-DMG-1").data["shields"] == MORGATH_SHIELDS - 2
    assert u(g, "M").damage == MORGATH_DAMAGE


def test_ACTA_DMG_3_multihit_on_the_hull_at_most_one_critical() -> None:
    """ACTA-DMG-3: a Multihit 2 hit on a bare hull rolls two dice; two 6s are two damage
    but only one critical."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, 6, 6, 4)
    assert u(g, "M").damage == MORGATH_DAMAGE - 2
    assert len(events(g, "ACTA-CRT-1")) == 1
    all_dice_used(g)


def test_ACTA_DMG_3_two_hits_may_cause_two_criticals() -> None:
    """ACTA-DMG-3: the one-critical limit is per hit: two hits can crit twice."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    tiger_fires(g, "Photon Torpedo", 5, 5, 1, 6, 2, 4, 6, 2, 5)
    assert [e.data["system"] for e in events(g, "ACTA-CRT-1")] == ["weapons", "crew"]
    all_dice_used(g)


def test_ACTA_DMG_4_ship_destroyed_at_zero_with_fighters_aboard() -> None:
    """ACTA-DMG-4: a carrier whose Damage reaches 0 is destroyed with its fighters aboard."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "vorkhar", 15, 18, 180, id="V", aboard={"zaresh": 2}, patrol=False),
    )
    advance_to(g, "ship_fire", E)
    v = u(g, "V")
    assert v.aboard == ("zaresh", "zaresh")
    v.shields, v.damage = 0, 1
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 3, target="V")
    assert "V" not in g.state.units
    assert "V" in g.state.destroyed
    ev = last(g, "ACTA-DMG-4")
    assert ev.data["destroyed"] is True
    assert "2 fighter(s) aboard are lost" in ev.text
    assert g.outcome() is not None and g.outcome().winner == E
    all_dice_used(g)


def test_ACTA_DMG_4_ship_with_damage_left_survives() -> None:
    """ACTA-DMG-4: one point short of 0 the ship is still there."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    m = u(g, "M")
    m.shields, m.damage = 0, 2
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 3, 1, 1)  # then the crippled ship's trait dice
    assert "M" in g.state.units
    assert u(g, "M").damage == 1
    assert not events(g, "ACTA-DMG-4")


# ---- ACTA-CRT-1..3: criticals ----------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "system"),
    [(1, "drive"), (2, "drive"), (3, "power"), (4, "weapons"), (5, "crew"), (6, "shields")],
)
def test_ACTA_CRT_1_system_table(die: int, system: str) -> None:
    """ACTA-CRT-1: the critical die picks the system; a plain weapon adds one level.
    (Precise turns the hull die 5 into a critical, ACTA-TRT-3.)"""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 5, die)
    assert u(g, "M").criticals == {system: 1}
    ev = last(g, "ACTA-CRT-1")
    assert faces(ev) == [die]
    assert (ev.data["system"], ev.data["level"]) == (system, 1)
    all_dice_used(g)


def test_ACTA_CRT_1_devastating_adds_levels_and_criticals_stack() -> None:
    """ACTA-CRT-1: a Devastating +2 critical adds 1 + 2 levels to the system's level."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    m = u(g, "M")
    m.shields = 0
    m.criticals = {"weapons": 1}
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, 6, 2, 4)
    assert u(g, "M").criticals == {"weapons": 4}
    assert last(g, "ACTA-CRT-1").data["level"] == 4


@pytest.mark.parametrize(
    ("crit_effects", "face", "hits"), [(True, 4, 0), (True, 5, 3), (False, 4, 3)]
)
def test_ACTA_CRT_2_weapons_critical_minus_one_to_hit(
    crit_effects: bool, face: int, hits: int
) -> None:
    """ACTA-CRT-2: each weapons critical level is -1 to hit; crit_effects=false ignores it."""
    g = new_game(*face_off(6), rules={"crit_effects": crit_effects})
    advance_to(g, "ship_fire", E)
    u(g, "T").criticals = {"weapons": 1}
    tiger_fires(g, "Phaser-1 PH", face, face, face)
    assert last(g, "ACTA-ATK-2").data["hits"] == hits


@pytest.mark.parametrize(("crit_effects", "max_move"), [(True, 8), (False, 10)])
def test_ACTA_CRT_2_drive_critical_costs_two_inches(crit_effects: bool, max_move: int) -> None:
    """ACTA-CRT-2: a drive critical takes 2" off the Tiger's Speed 10."""
    g = new_game(*face_off(20), rules={"crit_effects": crit_effects})
    advance_to(g, "ship_move", E)
    u(g, "T").criticals = {"drive": 1}
    assert not g.is_legal(MoveShip(unit="T", legs=(Leg(0, max_move + 0.5),)))
    g.apply(MoveShip(unit="T", legs=(Leg(0, max_move),)))
    assert u(g, "T").pose.position.x == pytest.approx(5 + max_move)


@pytest.mark.parametrize("crit_effects", [True, False])
def test_ACTA_CRT_2_power_critical_forbids_special_actions(crit_effects: bool) -> None:
    """ACTA-CRT-2: a ship with a power critical may not take a Special Action."""
    g = new_game(*face_off(10), rules={"crit_effects": crit_effects})
    advance_to(g, "ship_move", E)
    u(g, "T").criticals = {"power": 1}
    action = DeclareSpecial(unit="T", name="Close Blast Doors")
    assert g.is_legal(action) is not crit_effects
    offered = [a for a in g.legal_actions() if isinstance(a, DeclareSpecial)]
    assert bool(offered) is not crit_effects
    if crit_effects:
        with pytest.raises(IllegalAction, match="power critical"):
            g.check(action)


@pytest.mark.parametrize(("crit_effects", "passed"), [(True, False), (False, True)])
def test_ACTA_CRT_2_crew_critical_lowers_crew_quality(crit_effects: bool, passed: bool) -> None:
    """ACTA-CRT-2: a crew critical is -1 Crew Quality: a 4 on the CQ 8 check (CQ 4) fails."""
    g = new_game(*face_off(10), rules={"crit_effects": crit_effects})
    advance_to(g, "ship_move", E)
    u(g, "T").criticals = {"crew": 1}
    script(g, 4)
    g.apply(DeclareSpecial(unit="T", name="Intensify Defensive Fire"))
    ev = last(g, "ACTA-SPA-1")
    assert ev.data["passed"] is passed
    assert f"4+{3 if crit_effects else 4} against 8" in ev.text


@pytest.mark.parametrize(("crit_effects", "shields"), [(True, 7), (False, 14)])
def test_ACTA_CRT_2_shield_critical_halves_shields(crit_effects: bool, shields: int) -> None:
    """ACTA-CRT-2: a shields critical halves the shields left (14 -> 7)."""
    g = new_game(*face_off(10), rules={"crit_effects": crit_effects})
    advance_to(g, "ship_fire", E)
    # A natural 6 goes past the shields; hull 5 + Precise is a critical; the system die is 6.
    tiger_fires(g, "Phaser-1 PH", 6, 1, 1, 5, 6)
    m = u(g, "M")
    assert m.criticals == {"shields": 1}
    assert m.shields == shields
    assert bool(events(g, "ACTA-CRT-2")) is crit_effects
    all_dice_used(g)


@pytest.mark.parametrize(
    ("start", "face", "after"),
    [
        ({"weapons": 3, "drive": 1}, 6, {"weapons": 1, "drive": 1}),  # 6+4-8 = 2 levels
        ({"weapons": 3, "drive": 1}, 5, {"weapons": 2, "drive": 1}),
        ({"weapons": 3, "drive": 1}, 4, {"weapons": 3, "drive": 1}),  # 8 is not over 8
        ({"drive": 1}, 6, {}),
        ({"crew": 1, "drive": 2}, 6, {"crew": 1, "drive": 1}),  # CQ 3 with the crew crit
    ],
)
def test_ACTA_CRT_3_damage_control(start: dict[str, int], face: int, after: dict[str, int]) -> None:
    """ACTA-CRT-3: in the End Phase d6 + CQ; each point over 8 repairs a level, worst first."""
    g = new_game(*face_off(20))
    advance_to(g, "ship_fire")
    u(g, "T").criticals = dict(start)
    script(g, face)
    finish(g)
    assert u(g, "T").criticals == after
    assert faces(last(g, "ACTA-CRT-3")) == [face]
    all_dice_used(g)


# ---- ACTA-CRP-1: crippled ships ----------------------------------------------------------


def test_ACTA_CRP_1_crippled_at_threshold_and_traits_lost_on_4_plus() -> None:
    """ACTA-CRP-1: Morgath (crippled 7) falling from 8 to 7 is crippled; it rolls for
    Command 2 (its Interceptors 1 is left out under resolution=sf, ACTA-TRT-11) and
    loses it on a 4+."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    m = u(g, "M")
    m.shields, m.damage = 0, 8
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 2, 4)
    m = u(g, "M")
    assert (m.damage, m.crippled) == (7, True)
    assert m.lost_traits == ("Command",)
    ev = last(g, "ACTA-CRP-1")
    assert faces(ev) == [4]
    assert ev.data["lost"] == ["Command"]
    all_dice_used(g)


def test_ACTA_CRP_1_above_threshold_not_crippled() -> None:
    """ACTA-CRP-1: at 8 Damage (above the crippled value 7) nothing happens."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    m = u(g, "M")
    m.shields, m.damage = 0, 9
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 2)
    assert (u(g, "M").damage, u(g, "M").crippled) == (8, False)
    assert not events(g, "ACTA-CRP-1")
    all_dice_used(g)


@pytest.mark.parametrize("crippled", [False, True])
def test_ACTA_CRP_1_crippled_ship_fires_one_weapon_system(crippled: bool) -> None:
    """ACTA-CRP-1: after one weapon, a crippled Tiger may fire nothing more this turn."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "T").crippled = crippled
    tiger_fires(g, "Phaser-1 PH", 1, 1, 1)
    photon = Fire(unit="T", weapon="Photon Torpedo", target="M")
    assert g.is_legal(photon) is not crippled
    if crippled:
        assert g.state.active == K  # the Tiger had nothing left to fire
        assert "T" not in g.state.ships_to_fire[E]


def test_ACTA_CRP_1_crippled_ship_moves_at_most_six() -> None:
    """ACTA-CRP-1 (with ACTA-MOV-3): a crippled ship moves at most 6"."""
    g = new_game(*face_off(20))
    advance_to(g, "ship_move", E)
    u(g, "T").crippled = True
    assert not g.is_legal(MoveShip(unit="T", legs=(Leg(0, 7),)))
    assert g.is_legal(MoveShip(unit="T", legs=(Leg(0, 6),)))


# ---- ACTA-TRT-*: traits ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "trait"),
    [
        ("Devestating+1", Trait("Devastating", 1)),
        ("Devastating +1", Trait("Devastating", 1)),
        ("Fighter -Killer", Trait("Fighter-Killer")),
        ("Fighter Killer", Trait("Fighter-Killer")),
        ("Fighter-Killer", Trait("Fighter-Killer")),
        ("Accurate+1", Trait("Accurate", 1)),
        ("Accurate +1", Trait("Accurate", 1)),
        ("Multihit 2", Trait("Multihit", 2)),
        ("Dodge 5+", Trait("Dodge", 5)),
    ],
)
def test_ACTA_TRT_1_spellings_normalised(text: str, trait: Trait) -> None:
    """ACTA-TRT-1: the seed's spellings all parse to the canonical trait."""
    assert parse_trait(text) == trait


def test_ACTA_TRT_1_seed_craft_carry_the_canonical_traits() -> None:
    """ACTA-TRT-1: the seed's Hornet Photon-F (Devestating+1) and Hummingbird Phaser-GF
    (Fighter Killer) load with canonical names."""
    photon = find_unit("hornet").weapons[1]
    assert photon.trait("Devastating") == 1 and photon.trait("Multihit") == 2
    gun = find_unit("hummingbird").weapons[0]
    assert gun.has("Fighter-Killer") and gun.trait("Accurate") == 1 and gun.has("Weak")


def test_ACTA_TRT_2_accurate_adds_to_the_die() -> None:
    """ACTA-TRT-2: at 2" (beyond half range, 5+) the Z'keth's Accurate +1 hits with a 4;
    the Zaresh's plain Phaser-3F misses with a 4."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "zketh", 5, 20.5, 0, id="ZK", dogfight_drones=True),
        unit(1, "zaresh", 5, 15.5, 0, id="Z", dogfight_drones=True),
        dice=KLINGON_WINS,
    )
    advance_to(g, "fighter_fire", K)
    g.apply(Fire(unit="ZK", weapon="Phaser-2F", target="T"))
    script(g, 4, 4)  # both shots are rolled once the fighters' targets are all named
    g.apply(Fire(unit="Z", weapon="Phaser-3F", target="T"))
    accurate, plain = events(g, "ACTA-ATK-2")
    assert "need 5+ +1" in accurate.text and accurate.data["hits"] == 1
    assert "need 5+:" in plain.text and plain.data["hits"] == 0
    assert u(g, "T").shields == TIGER_SHIELDS - 1


@pytest.mark.parametrize(("weapon", "hull", "damage"), [("Phaser-1 PH", 1, 1), ("Phaser-3", 1, 0)])
def test_ACTA_TRT_3_precise_turns_a_hull_one_into_damage(
    weapon: str, hull: int, damage: int
) -> None:
    """ACTA-TRT-3: Precise adds 1 to the hull die: the Phaser-1's 1 does damage, the
    Phaser-3's (not Precise) does not. (The Phaser-1 fires from 5", outside its Kill
    Zone, so each hit rolls one hull die, ACTA-TRT-9.)"""
    g = new_game(*face_off(5 if weapon == "Phaser-1 PH" else 3))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    ad = 3 if weapon == "Phaser-1 PH" else 2
    tiger_fires(g, weapon, 5, *([1] * (ad - 1)), hull)
    assert u(g, "M").damage == MORGATH_DAMAGE - damage
    all_dice_used(g)


@pytest.mark.parametrize(("weapon", "crit"), [("Phaser-1 PH", True), ("Photon Torpedo", False)])
def test_ACTA_TRT_3_precise_turns_a_hull_five_into_a_critical(weapon: str, crit: bool) -> None:
    """ACTA-TRT-3: hull die 5 with Precise is a critical; without Precise it is not."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    hull = (5,) if weapon == "Phaser-1 PH" else (5, 5)
    tiger_fires(g, weapon, 5, 1, 1, *hull, *((2,) if crit else ()))
    assert bool(events(g, "ACTA-CRT-1")) is crit
    all_dice_used(g)


def test_ACTA_TRT_4_devastating_raises_the_critical() -> None:
    """ACTA-TRT-4: the Zaresh's Drone (Seeking, Devastating +1) crits the power at level 2."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "zaresh", 5, 22, 0, id="Z", dogfight_drones=False),
        dice=KLINGON_WINS,
    )
    advance_to(g, "fighter_fire", K)
    u(g, "T").shields = 0
    script(g, 6, 3)  # no to-hit dice (Seeking); hull die 6, system die 3
    g.apply(Fire(unit="Z", weapon="Drone", target="T"))
    assert u(g, "T").criticals == {"power": 2}
    all_dice_used(g)


def hornet_v_zketh(**rules: Any) -> Game:
    """An Empire Hornet 2" (edge to edge) from an unmoved Klingon Z'keth (Damage 3)."""
    return new_game(
        unit(0, "hornet", 10, 18, 0, id="H"),
        unit(1, "zketh", 13, 18, 180, id="ZK", dogfight_drones=True),
        rules=rules or None,
    )


def test_ACTA_TRT_5_multihit_against_a_fighter_is_one_damage() -> None:
    """ACTA-TRT-5 / ACTA-TRT-4: the Photon-F (Multihit 2, Devastating +1) hit does one
    point to a fighter and no critical."""
    g = hornet_v_zketh()
    advance_to(g, "fighter_fire", E)
    script(g, 5)  # 4+ at half range, -1 for the fighter
    fire_and_resolve(g, Fire(unit="H", weapon="Photon-F", target="ZK"))
    assert u(g, "ZK").damage == 2
    assert last(g, "ACTA-FTR-5").data["damage"] == 1
    assert not events(g, "ACTA-CRT-1") and not events(g, "ACTA-DMG-2")
    all_dice_used(g)


def drone_rack_game(rules: dict[str, Any] | None = None) -> Game:
    """The Morgath 10" from the Tiger, Klingon to fire first."""
    return new_game(*face_off(10), dice=KLINGON_WINS, rules=rules)


def test_ACTA_TRT_6_seeking_hits_a_ship_automatically() -> None:
    """ACTA-TRT-6: the Drone Rack (3 AD, Seeking, Multihit 2) hits the Tiger 3 times
    with no to-hit dice: 6 shield boxes."""
    g = drone_rack_game()
    advance_to(g, "ship_fire", K)
    script(g)
    g.apply(Fire(unit="M", weapon="Drone Rack", target="T"))
    ev = last(g, "ACTA-TRT-6")
    assert ev.rolls == () and ev.data["hits"] == 3
    assert u(g, "T").shields == TIGER_SHIELDS - 6


def test_ACTA_TRT_6_seeking_rolls_beyond_seeking_range() -> None:
    """ACTA-TRT-6: with seeking_range=8, a drone at 10" rolls like any weapon (5+)."""
    g = drone_rack_game({"seeking_range": 8})
    advance_to(g, "ship_fire", K)
    script(g, 5, 5, 4)
    g.apply(Fire(unit="M", weapon="Drone Rack", target="T"))
    assert not events(g, "ACTA-TRT-6")
    assert last(g, "ACTA-ATK-2").data["hits"] == 2
    assert u(g, "T").shields == TIGER_SHIELDS - 4


@pytest.mark.parametrize(
    ("option", "dice", "destroyed"),
    [("roll", (4,), False), ("roll", (5,), True), ("auto", (), True)],
)
def test_ACTA_TRT_6_drone_against_a_fighter(
    option: str, dice: tuple[int, ...], destroyed: bool
) -> None:
    """ACTA-TRT-6: a drone fired at a fighter rolls to hit (4+ at 2", -1) by default;
    drone_vs_fighter=auto makes it hit without a roll."""
    g = new_game(
        unit(0, "dragonfly", 10, 18, 0, id="D"),
        unit(1, "zaresh", 13, 18, 180, id="Z", dogfight_drones=False),
        dice=KLINGON_WINS,
        rules={"drone_vs_fighter": option},
    )
    assert g.options["drone_vs_fighter"] == option
    advance_to(g, "fighter_fire", K)
    script(g, *dice)  # the Dragonfly did not move: no dodge roll
    fire_and_resolve(g, Fire(unit="Z", weapon="Drone", target="D"))
    assert ("D" not in g.state.units) is destroyed
    assert bool(events(g, "ACTA-TRT-6")) is (option == "auto")
    all_dice_used(g)


def test_ACTA_TRT_7_weak_is_minus_one() -> None:
    """ACTA-TRT-7: at 3" (half range) the Weak Phaser-3 misses on 4 and hits on 5;
    the Phaser-1 hits on 4."""
    g = new_game(*face_off(3))
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-3", 4, 5)
    weak = last(g, "ACTA-ATK-2")
    assert "need 4+ -1" in weak.text and weak.data["hits"] == 1
    tiger_fires(g, "Phaser-1 PH", 4, 4, 4)
    assert last(g, "ACTA-ATK-2").data["hits"] == 3
    # 1 from the Phaser-3; 3 Phaser-1 hits inside its Kill Zone strip 2 each (ACTA-TRT-9)
    assert u(g, "M").shields == MORGATH_SHIELDS - 7


def moved_zaresh(rules: dict[str, Any] | None = None, *, move: bool = True) -> Game:
    """The Tiger at (5, 18); a Klingon Zaresh ends its move 3" (edge) ahead of it.

    Returns the game in the Tiger's ship-fire activation.
    """
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "zaresh", 9, 18, 180, id="Z", dogfight_drones=True),
        rules=rules,
    )
    advance_to(g, "fighter_move", K)
    if move:
        g.apply(MoveFighter(unit="Z", x=8.5, y=18, heading=180))
    else:
        u(g, "Z").pose = Pose(Vec2(8.5, 18), 180)
        g.apply(EndMovement())
    advance_to(g, "ship_fire", E)
    return g


def test_ACTA_TRT_8_fighter_killer_no_penalty_and_no_dodge() -> None:
    """ACTA-TRT-8: the Fighter-Killer Phaser-3 (Weak) hits a fighter at half range on 5
    (no -1 for the fighter), and the fighter, though it moved, may not dodge."""
    g = moved_zaresh()
    assert u(g, "Z").moved
    tiger_fires(g, "Phaser-3", 5, 1, target="Z")  # no dodge die scripted
    assert "need 4+ -1" in last(g, "ACTA-ATK-2").text
    assert "Z" not in g.state.units
    assert events(g, "ACTA-TRT-8")
    assert not events(g, "ACTA-FTR-6")
    all_dice_used(g)


# ---- ACTA-FTR-4..8: fire at fighters -------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "face", "destroyed"),
    [(None, 4, False), (None, 5, True), (0, 4, True), (2, 5, False), (2, 6, True)],
)
def test_ACTA_FTR_4_minus_one_to_hit_fighters(
    penalty: int | None, face: int, destroyed: bool
) -> None:
    """ACTA-FTR-4: fire at a fighter takes -1 (option fighter_to_hit_penalty)."""
    rules = None if penalty is None else {"fighter_to_hit_penalty": penalty}
    g = moved_zaresh(rules, move=False)  # unmoved: no dodge
    assert g.options["fighter_to_hit_penalty"] == (1 if penalty is None else penalty)
    tiger_fires(g, "Phaser-1 PH", face, 1, 1, target="Z")
    assert ("Z" not in g.state.units) is destroyed
    all_dice_used(g)


def test_ACTA_FTR_5_every_hit_on_a_fighter_is_one_damage() -> None:
    """ACTA-FTR-5: two Photon Torpedo hits (Multihit 2, Devastating +2) on a Z'keth
    (Damage 3) do exactly two points and nothing else."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "zketh", 9.5, 18, 180, id="ZK", dogfight_drones=True),
    )
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Photon Torpedo", 5, 6, 1, target="ZK")  # unmoved: no dodge
    assert u(g, "ZK").damage == 1
    assert [e.data["damage"] for e in events(g, "ACTA-FTR-5")] == [1, 1]
    assert not events(g, "ACTA-DMG-2") and not events(g, "ACTA-CRT-1")
    all_dice_used(g)


@pytest.mark.parametrize(("dodge", "survives"), [(5, True), (6, True), (4, False)])
def test_ACTA_FTR_6_moved_fighter_dodges_on_x_plus(dodge: int, survives: bool) -> None:
    """ACTA-FTR-6: a Zaresh (Dodge 5+) that moved ignores a hit on a 5+."""
    g = moved_zaresh()
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, dodge, target="Z")
    assert ("Z" in g.state.units) is survives
    ev = events(g, "ACTA-FTR-6")[-1]
    assert faces(ev) == [dodge] and ev.data["dodged"] is survives
    all_dice_used(g)


def test_ACTA_FTR_6_fighter_that_did_not_move_cannot_dodge() -> None:
    """ACTA-FTR-6: an unmoved fighter rolls no Dodge."""
    g = moved_zaresh(move=False)
    assert not u(g, "Z").moved
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, target="Z")
    assert "Z" not in g.state.units
    assert "did not move" in events(g, "ACTA-FTR-6")[-1].text
    all_dice_used(g)


def test_ACTA_FTR_6_option_dodge_requires_move_false() -> None:
    """ACTA-FTR-6: with dodge_requires_move=false an unmoved fighter dodges."""
    g = moved_zaresh({"dodge_requires_move": False}, move=False)
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 5, target="Z")
    assert "Z" in g.state.units
    assert events(g, "ACTA-FTR-6")[-1].data["dodged"] is True
    all_dice_used(g)


def test_ACTA_FTR_6_fighter_supporting_a_ship_may_dodge() -> None:
    """ACTA-FTR-6: a fighter supporting a ship counts as moved for its Dodge."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "morgath", 15, 18, 180, id="M"),
        unit(1, "zaresh", 14, 18, 180, id="Z", dogfight_drones=True, supporting="M"),
    )
    advance_to(g, "ship_fire", E)
    z = u(g, "Z")
    assert z.supporting == "M" and not z.moved
    tiger_fires(g, "Phaser-1 PH", 6, 1, 1, 5, target="Z")  # 6: need 5 -1 beyond 6"
    assert "Z" in g.state.units
    assert events(g, "ACTA-FTR-6")[-1].data["dodged"] is True
    all_dice_used(g)


def test_ACTA_FTR_6_fighter_locked_in_a_dogfight_may_dodge() -> None:
    """ACTA-FTR-6: a fighter locked in a dogfight (it could not move) may dodge."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(0, "wasp", 9, 20, 0, id="W"),
        unit(1, "zaresh", 10, 20, 180, id="Z", dogfight_drones=True),
    )
    advance_to(g, "fighter_attack", E)
    script(g, 3, 2)  # Wasp 3+2 ties Zaresh 2+1+2 (dogfight drones): both stay locked
    g.apply(Dogfight(unit="W", enemy="Z"))
    advance_to(g, "ship_fire", E)
    assert not u(g, "Z").moved and g.state.engaged(u(g, "Z"))
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 6, target="Z")
    assert "Z" in g.state.units
    assert events(g, "ACTA-FTR-6")[-1].data["dodged"] is True
    all_dice_used(g)


def test_ACTA_FTR_6_fighter_supporting_a_fighter_did_not_move() -> None:
    """ACTA-FTR-6: supporting a *ship* counts as moving; an unmoved fighter supporting
    another fighter has no such excuse and may not dodge."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(1, "zaresh", 9, 18, 180, id="Z1", dogfight_drones=True),
        unit(1, "zaresh", 10, 18, 180, id="Z2", dogfight_drones=True, supporting="Z1"),
    )
    advance_to(g, "ship_fire", E)
    assert u(g, "Z2").supporting == "Z1" and not u(g, "Z2").moved
    tiger_fires(g, "Phaser-1 PH", 5, 1, 1, 6, target="Z2")  # a 6 if a dodge were rolled
    assert "Z2" not in g.state.units


def test_ACTA_FTR_7_fighters_attack_before_ships() -> None:
    """ACTA-FTR-7: while fighters attack, no ship may fire."""
    g = new_game(
        unit(0, "tiger", 5, 18, 0, id="T"),
        unit(0, "dragonfly", 7, 18, 0, id="D"),
        unit(1, "morgath", 9, 18, 180, id="M"),
    )
    advance_to(g, "fighter_fire", E)
    with pytest.raises(IllegalAction, match="after all fighters"):
        g.check(Fire(unit="T", weapon="Phaser-1 PH", target="M"))
    g.apply(EndAttacks())
    assert g.state.phase == "ship_fire"


@pytest.mark.parametrize(("dice", "first"), [(EMPIRE_WINS, E), (KLINGON_WINS, K)])
def test_ACTA_FTR_7_initiative_winner_attacks_with_fighters_first(
    dice: tuple[int, int], first: str
) -> None:
    """ACTA-FTR-7: the initiative winner's fighters nominate first, then the other side's."""
    g = new_game(
        unit(0, "dragonfly", 10, 18, 0, id="D"),
        unit(1, "zaresh", 12, 18, 180, id="Z", dogfight_drones=True),
        dice=dice,
    )
    advance_to(g, "fighter_fire")
    second = K if first == E else E
    assert g.state.active == first
    assert g.state.attack_sides == (first, second)
    g.apply(EndAttacks())
    assert (g.state.phase, g.state.active) == ("fighter_fire", second)


def test_ACTA_FTR_7_all_of_a_fighters_weapons_at_one_target() -> None:
    """ACTA-FTR-7: a Hornet that fired its Phaser-3F at one Zaresh must fire its
    Photon-F at the same one."""
    g = new_game(
        unit(0, "hornet", 10, 18, 0, id="H"),
        unit(1, "zaresh", 12, 18, 180, id="Z1", dogfight_drones=True),
        unit(1, "zaresh", 12, 20, 180, id="Z2", dogfight_drones=True),
    )
    advance_to(g, "fighter_fire", E)
    script(g, 1)
    g.apply(Fire(unit="H", weapon="Phaser-3F", target="Z1"))
    with pytest.raises(IllegalAction, match="one target"):
        g.check(Fire(unit="H", weapon="Photon-F", target="Z2"))
    assert g.is_legal(Fire(unit="H", weapon="Photon-F", target="Z1"))


def test_ACTA_FTR_8_fighter_removed_at_zero() -> None:
    """ACTA-FTR-8: a Zaresh (Damage 1) hit once is removed; no critical is rolled."""
    g = moved_zaresh(move=False)
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, target="Z")
    assert "Z" not in g.state.units and "Z" in g.state.destroyed
    assert last(g, "ACTA-FTR-8").data["destroyed"] is True
    assert not events(g, "ACTA-CRT-1")
    all_dice_used(g)


def test_ACTA_FTR_8_fighter_with_damage_left_stays() -> None:
    """ACTA-FTR-8: a Wasp (Damage 2) hit once stays on the table with 1 left."""
    g = new_game(unit(0, "wasp", 9, 18, 180, id="W"), unit(1, "morgath", 5, 18, 0, id="M"))
    advance_to(g, "ship_fire", K)
    script(g, 5, 1, 1, 1)
    g.apply(Fire(unit="M", weapon="Phaser-1", target="W"))
    assert u(g, "W").damage == 1
    assert not events(g, "ACTA-FTR-8")


# ---- ACTA-SPA-*: Special Actions -----------------------------------------------------------


@pytest.mark.parametrize(("face", "passed"), [(3, False), (4, True), (6, True)])
def test_ACTA_SPA_1_crew_quality_check(face: int, passed: bool) -> None:
    """ACTA-SPA-1: 1d6 + CQ 4 must reach 8; a failed ship just moves normally (10")."""
    g = new_game(*face_off(20))
    advance_to(g, "ship_move", E)
    script(g, face)
    g.apply(DeclareSpecial(unit="T", name="Take Evasive Action"))
    assert last(g, "ACTA-SPA-1").data["passed"] is passed
    t = u(g, "T")
    assert t.special == ("Take Evasive Action" if passed else "")
    assert g.is_legal(MoveShip(unit="T", legs=(Leg(0, 10),))) is not passed  # evasive: 6"


@pytest.mark.parametrize(("face", "passed"), [(5, False), (6, True)])
def test_ACTA_SPA_1_natural_six_passes(face: int, passed: bool) -> None:
    """ACTA-SPA-1: with CQ 1 (crew critical 3) 6 + 1 = 7 < 8, yet a natural 6 passes."""
    g = new_game(*face_off(20))
    advance_to(g, "ship_move", E)
    u(g, "T").criticals = {"crew": 3}
    script(g, face)
    g.apply(DeclareSpecial(unit="T", name="Intensify Defensive Fire"))
    assert last(g, "ACTA-SPA-1").data["passed"] is passed


def test_ACTA_SPA_1_one_special_action_per_turn() -> None:
    """ACTA-SPA-1: after declaring one Special Action the ship may not declare another."""
    g = new_game(*face_off(20))
    advance_to(g, "ship_move", E)
    script(g, 1)
    g.apply(DeclareSpecial(unit="T", name="Intensify Defensive Fire"))  # fails
    assert u(g, "T").special_attempted
    with pytest.raises(IllegalAction):
        g.check(DeclareSpecial(unit="T", name="Close Blast Doors"))
    assert not [a for a in g.legal_actions() if isinstance(a, DeclareSpecial)]


def test_ACTA_SPA_1_fighters_never_take_special_actions() -> None:
    """ACTA-SPA-1: a fighter cannot declare a Special Action."""
    g = new_game(*face_off(20), unit(0, "wasp", 5, 30, 0, id="W"))
    advance_to(g, "ship_move", E)
    with pytest.raises(IllegalAction):
        g.check(DeclareSpecial(unit="W", name="Close Blast Doors"))
    assert all(a.unit != "W" for a in g.legal_actions() if isinstance(a, DeclareSpecial))
    problem = g.ruleset.special_problem(ctx_of(g), u(g, "W"), "Close Blast Doors")
    assert "fighters never" in problem


@pytest.mark.parametrize(("saves", "damage"), [((5, 4), 1), ((6, 5), 0), ((1, 4), 2)])
def test_ACTA_SPA_3_close_blast_doors(saves: tuple[int, int], damage: int) -> None:
    """ACTA-SPA-3: each point of damage is saved on 5+ (no CQ check)."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_move", K)
    script(g)
    g.apply(DeclareSpecial(unit="M", name="Close Blast Doors"))
    assert u(g, "M").special == "Close Blast Doors"
    advance_to(g, "ship_fire", E)
    u(g, "M").shields = 0
    tiger_fires(g, "Photon Torpedo", 5, 1, 1, 3, 4, *saves)
    assert u(g, "M").damage == MORGATH_DAMAGE - damage
    assert faces(last(g, "ACTA-SPA-3")) == list(saves)
    all_dice_used(g)


def test_ACTA_SPA_4_intensify_halves_the_ships_own_attack_dice() -> None:
    """ACTA-SPA-4: under Intensify Defensive Fire the Tiger's 3 AD Phaser-1 rolls 2 dice."""
    g = new_game(*face_off(10))
    advance_to(g, "ship_move", E)
    script(g, 4)
    g.apply(DeclareSpecial(unit="T", name="Intensify Defensive Fire"))
    assert u(g, "T").special == "Intensify Defensive Fire"
    advance_to(g, "ship_fire", E)
    tiger_fires(g, "Phaser-1 PH", 5, 5)
    assert "(2 AD)" in last(g, "ACTA-ATK-1").text
    assert faces(last(g, "ACTA-ATK-2")) == [5, 5]
    all_dice_used(g)


@pytest.mark.parametrize(("before", "dice", "after"), [(5, (6,), 11), (14, (6,), 16), (0, (1,), 1)])
def test_ACTA_SPA_6_boost_shields(before: int, dice: tuple[int, ...], after: int) -> None:
    """ACTA-SPA-6: the Tiger (16 starting shields) regains 1d6, up to 16."""
    g = new_game(*face_off(20))
    advance_to(g, "ship_move", E)
    u(g, "T").shields = before
    script(g, *dice)
    g.apply(DeclareSpecial(unit="T", name="Boost Energy to Shields"))
    assert u(g, "T").shields == after
    assert faces(last(g, "ACTA-SPA-6")) == list(dice)
    all_dice_used(g)


def test_ACTA_SPA_6_one_die_per_ten_starting_shields() -> None:
    """ACTA-SPA-6: a ship that started with 25 shields rolls 2 dice."""
    g = new_game(*face_off(20))
    retype(g, "tiger", shields=25)
    advance_to(g, "ship_move", E)
    u(g, "T").shields = 3
    script(g, 4, 5)
    g.apply(DeclareSpecial(unit="T", name="Boost Energy to Shields"))
    assert u(g, "T").shields == 12
    all_dice_used(g)


def scramble_game(scramble: bool) -> Game:
    return new_game(
        # the Crane has no Carrier X, so it launches one a turn, two on a Scramble
        unit(0, "crane", 10, 18, 0, id="C", aboard={"wasp": 3}, patrol=False),
        unit(1, "morgath", 34, 34, 180, id="M"),
        rules={"scramble": scramble},
    )


def test_ACTA_SPA_7_scramble_launches_two_fighters() -> None:
    """ACTA-SPA-7: with scramble on, a passed CQ 7 check lets the carrier launch two."""
    g = scramble_game(True)
    advance_to(g, "ship_move", E)
    script(g, 3)  # 3 + 4 = 7
    g.apply(DeclareSpecial(unit="C", name="Scramble! Scramble!"))
    assert u(g, "C").special == "Scramble! Scramble!"
    advance_to(g, "launch", E)
    launches = [a for a in g.legal_actions() if isinstance(a, Launch) and a.fighter]
    g.apply(launches[0])
    assert g.state.phase == "launch"  # still deciding: a second launch is allowed
    launches = [a for a in g.legal_actions() if isinstance(a, Launch) and a.fighter]
    g.apply(launches[1])
    assert len(g.state.fighters(E)) == 2
    assert u(g, "C").aboard == ("wasp",)


def test_ACTA_SPA_7_without_scramble_one_launch() -> None:
    """ACTA-SPA-7: the action is not offered unless the option is on; a normal launch
    is one fighter."""
    g = scramble_game(False)
    advance_to(g, "ship_move", E)
    with pytest.raises(IllegalAction, match="unknown Special Action"):
        g.check(DeclareSpecial(unit="C", name="Scramble! Scramble!"))
    advance_to(g, "launch", E)
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Launch) and a.fighter))
    assert g.is_over()
    assert len(g.state.fighters(E)) == 1
    assert u(g, "C").aboard == ("wasp", "wasp")
