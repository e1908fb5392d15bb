"""Clause tests for dogfights (ACTA-DOG-2 to ACTA-DOG-9).

Fighters placed in base contact are locked from the start, so the turn runs straight
to the Attack Phase, where the nominating side assigns each engaged fighter a role.
Hummingbird: Dogfight +3, Damage 1. Zaresh: +1, Damage 1. Wasp and Zul: +2, Damage 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Event, Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.acta.actions import DefenderSupport, Dogfight, Fire, Support
from dogfight.rulesets.acta.targets import fighter_shots

from .builders import events, faces, script, unit
from .test_clauses_combat import E, K, advance_to, all_dice_used, ctx_of, last, new_game, u


def fighter(side: int, type: str, x: float, y: float, id: str) -> dict[str, Any]:
    """A fighter entry; Klingon drone fighters keep their drones (no loadout question)."""
    extra = {"dogfight_drones": False} if type in ("zaresh", "zul", "zketh") else {}
    return unit(side, type, x, y, 0 if side == 0 else 180, id=id, **extra)


def melee(*units: dict[str, Any], rules: dict[str, Any] | None = None) -> Game:
    """A game (Empire has the initiative) waiting for Empire to assign its dogfights."""
    g = new_game(*units, rules=rules)
    advance_to(g, "fighter_attack", E)
    return g


def rolls(g: Game) -> list[Event]:
    """The events of every dogfight roll (not the destructions that follow them)."""
    return [
        e
        for e in g.events
        if e.clause in ("ACTA-DOG-5", "ACTA-DOG-6") and "attacker_total" in e.data
    ]


def totals(g: Game) -> list[tuple[int, int]]:
    """(attacker, defender) totals of every resolved dogfight roll."""
    return [(e.data["attacker_total"], e.data["defender_total"]) for e in rolls(g)]


# ---- ACTA-DOG-2: dogfights are resolved when the side nominates ---------------------------


def test_ACTA_DOG_2_all_dogfights_resolved_when_the_side_nominates() -> None:
    """ACTA-DOG-2: nothing is rolled until every engaged fighter of the nominating side
    has its role; then all its dogfights are resolved at once."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H1"),
        fighter(1, "zaresh", 11, 10, "Z1"),
        fighter(0, "hummingbird", 10, 14, "H2"),
        fighter(1, "zaresh", 11, 14, "Z2"),
    )
    assert g.state.attack_sides == (E, K)
    script(g)
    g.apply(Dogfight(unit="H1", enemy="Z1"))
    assert not events(g, "ACTA-DOG-5")
    script(g, 6, 1, 6, 1)
    g.apply(Dogfight(unit="H2", enemy="Z2"))
    assert [faces(e) for e in rolls(g)] == [[6, 1], [6, 1]]
    assert "Z1" not in g.state.units and "Z2" not in g.state.units
    all_dice_used(g)


# ---- ACTA-DOG-3: the nominating side's roles and its supporters ---------------------------


def test_ACTA_DOG_3_supporter_touching_the_enemy_adds_one() -> None:
    """ACTA-DOG-3: a Wasp supporting, in contact with the Zaresh being fought, adds +1:
    Hummingbird 2+3+1 = 6 beats Zaresh 4+1 = 5."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        fighter(0, "wasp", 11, 11, "W"),
    )
    g.apply(Dogfight(unit="H", enemy="Z"))
    script(g, 2, 4)
    g.apply(Support(unit="W"))
    assert totals(g) == [(6, 5)]
    assert "Z" not in g.state.units
    all_dice_used(g)


def test_ACTA_DOG_3_supporter_not_touching_that_enemy_adds_nothing() -> None:
    """ACTA-DOG-3: a supporter adds only to dogfights against an enemy it touches. The
    Wasp W touches only Z2: it may not support H's fight with Z, so it fights Z2, and
    H's 2+3 = 5 ties Z's 4+1 = 5."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        fighter(0, "wasp", 11, 13, "W"),
        fighter(1, "zaresh", 12, 13, "Z2"),
    )
    g.apply(Dogfight(unit="H", enemy="Z"))
    with pytest.raises(IllegalAction, match="ACTA-DOG-3"):
        g.check(Support(unit="W"))
    assert Support(unit="W") not in g.legal_actions()
    script(g, 2, 4, 1, 6)
    g.apply(Dogfight(unit="W", enemy="Z2"))
    assert totals(g) == [(5, 5), (3, 7)]
    assert "Z" in g.state.units and "W" not in g.state.units
    all_dice_used(g)


def test_ACTA_DOG_3_one_supporter_helps_every_dogfight_it_touches() -> None:
    """ACTA-DOG-3: a Wasp touching both Zaresh adds +1 to both dogfights."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H1"),
        fighter(1, "zaresh", 11, 10, "Z1"),
        fighter(0, "wasp", 11, 11, "W"),
        fighter(1, "zaresh", 11, 12, "Z2"),
        fighter(0, "hummingbird", 10, 12, "H2"),
    )
    g.apply(Dogfight(unit="H1", enemy="Z1"))
    g.apply(Dogfight(unit="H2", enemy="Z2"))
    script(g, 2, 4, 2, 4)
    g.apply(Support(unit="W"))
    assert totals(g) == [(6, 5), (6, 5)]
    all_dice_used(g)


# ---- ACTA-DOG-4: the defender's supporters --------------------------------------------------


def defended() -> Game:
    """Hummingbird H attacks Zaresh Z; a Zul Y touches H; a Zul Y2 touches only Z."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        fighter(1, "zul", 10, 11, "Y"),
        fighter(1, "zul", 12, 10, "Y2"),
    )
    g.apply(Dogfight(unit="H", enemy="Z"))
    assert (g.state.phase, g.state.active) == ("fighter_attack", K)
    return g


def test_ACTA_DOG_4_defender_supporter_adds_one() -> None:
    """ACTA-DOG-4: the Zul touching the attacker adds +1 to the defence:
    Hummingbird 2+3 = 5 loses to Zaresh 4+1+1 = 6."""
    g = defended()
    script(g, 2, 4)
    g.apply(DefenderSupport(fighters=("Y",)))
    assert totals(g) == [(5, 6)]
    assert "H" not in g.state.units and "Z" in g.state.units
    assert u(g, "Y").attack_done  # used this turn
    all_dice_used(g)


def test_ACTA_DOG_4_who_may_support_the_defence() -> None:
    """ACTA-DOG-4: the target of the dogfight may not support, nor a fighter that does
    not touch an attacking fighter."""
    g = defended()
    with pytest.raises(IllegalAction, match="ACTA-DOG-4"):
        g.check(DefenderSupport(fighters=("Z",)))
    with pytest.raises(IllegalAction, match="ACTA-DOG-4"):
        g.check(DefenderSupport(fighters=("Y2",)))
    assert g.is_legal(DefenderSupport(fighters=("Y",)))
    assert DefenderSupport(fighters=("Y2",)) not in g.legal_actions()


# ---- ACTA-DOG-5: the loser --------------------------------------------------------------


def wasp_v_zul(rules: dict[str, Any] | None = None) -> Game:
    g = melee(fighter(0, "wasp", 10, 10, "W"), fighter(1, "zul", 11, 10, "Y"), rules=rules)
    return g


@pytest.mark.parametrize(("dice", "loser"), [((2, 5), "W"), ((5, 2), "Y")])
def test_ACTA_DOG_5_loser_destroyed_whatever_its_damage(dice: tuple[int, int], loser: str) -> None:
    """ACTA-DOG-5: d6 + Dogfight each; the lower total is destroyed though it has Damage 2."""
    g = wasp_v_zul()
    assert g.options["dogfight_loser"] == "destroyed"
    script(g, *dice)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert totals(g) == [(dice[0] + 2, dice[1] + 2)]
    assert loser not in g.state.units and loser in g.state.destroyed
    winner = "Y" if loser == "W" else "W"
    assert u(g, winner).damage == 2
    all_dice_used(g)


def test_ACTA_DOG_5_option_loser_takes_one_undodgeable_damage() -> None:
    """ACTA-DOG-5: with dogfight_loser=damage the Wasp loses one point, and rolls no Dodge."""
    g = wasp_v_zul({"dogfight_loser": "damage"})
    script(g, 2, 5)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert u(g, "W").damage == 1 and u(g, "Y").damage == 2
    assert not events(g, "ACTA-FTR-6")
    assert any(e.data.get("damage") == 1 for e in events(g, "ACTA-DOG-5"))
    all_dice_used(g)


# ---- ACTA-DOG-6: ties ---------------------------------------------------------------------------


def test_ACTA_DOG_6_tie_nobody_falls_and_both_stay_locked() -> None:
    """ACTA-DOG-6: 3+2 against 3+2: nobody is destroyed and both stay in contact."""
    g = wasp_v_zul()
    assert g.options["dogfight_tie"] == "locked"
    script(g, 3, 3)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert "W" in g.state.units and "Y" in g.state.units
    assert u(g, "W").damage == 2 and u(g, "Y").damage == 2
    assert "locked" in last(g, "ACTA-DOG-6").text
    assert g.state.engaged(u(g, "W"))
    all_dice_used(g)


def test_ACTA_DOG_6_option_reroll() -> None:
    """ACTA-DOG-6: with dogfight_tie=reroll a tie is rolled again until someone wins."""
    g = wasp_v_zul({"dogfight_tie": "reroll"})
    script(g, 3, 3, 4, 4, 5, 2)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert totals(g) == [(5, 5), (6, 6), (7, 4)]
    assert [e.clause for e in g.events if "attacker_total" in e.data] == [
        "ACTA-DOG-6",
        "ACTA-DOG-6",
        "ACTA-DOG-5",
    ]
    assert "Y" not in g.state.units
    all_dice_used(g)


# ---- ACTA-DOG-7: one kill per dogfight; lapses --------------------------------------------------


def crowded() -> Game:
    """H attacks Z with W supporting (W touches Z); the Zul Y touches H (and W)."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        fighter(0, "wasp", 11, 11, "W"),
        fighter(1, "zul", 10, 11, "Y"),
    )
    g.apply(Dogfight(unit="H", enemy="Z"))
    g.apply(Support(unit="W"))
    return g


@pytest.mark.parametrize(("dice", "lost"), [((1, 6), "H"), ((6, 1), "Z")])
def test_ACTA_DOG_7_each_dogfight_removes_one_fighter(dice: tuple[int, int], lost: str) -> None:
    """ACTA-DOG-7: whoever loses, only the loser of the dogfight falls, not the
    supporters on either side."""
    g = crowded()
    script(g, *dice)
    g.apply(DefenderSupport(fighters=("Y",)))
    assert totals(g) == [(dice[0] + 3 + 1, dice[1] + 1 + 1)]
    assert set(g.state.units) == {"H", "Z", "W", "Y"} - {lost}
    all_dice_used(g)


def test_ACTA_DOG_7_dogfight_with_a_destroyed_fighter_lapses() -> None:
    """ACTA-DOG-7: two Hummingbirds both attack one Zaresh; once the first kills it,
    the second dogfight lapses without a roll."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H1"),
        fighter(1, "zaresh", 11, 10, "Z"),
        fighter(0, "hummingbird", 12, 10, "H2"),
    )
    g.apply(Dogfight(unit="H1", enemy="Z"))
    script(g, 6, 1)
    g.apply(Dogfight(unit="H2", enemy="Z"))
    assert len(rolls(g)) == 1
    lapse = last(g, "ACTA-DOG-7")
    assert "lapses" in lapse.text and lapse.rolls == ()
    assert "Z" not in g.state.units
    all_dice_used(g)


# ---- ACTA-DOG-8: engaged fighters do not fire ----------------------------------------------------


def hummingbird_near_a_ship(rules: dict[str, Any] | None = None) -> Game:
    """H dogfights Z, with a Morgath 1.5" (edge) from H, within its Phaser-GF's 2"."""
    return melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        unit(1, "morgath", 10, 12, 0, id="M"),
        rules=rules,
    )


def test_ACTA_DOG_8_locked_fighter_does_not_fire() -> None:
    """ACTA-DOG-8: after a tied dogfight the locked Hummingbird gets no shot at the ship."""
    g = hummingbird_near_a_ship()
    script(g, 3, 5)  # 3+3 v 5+1: a tie
    g.apply(Dogfight(unit="H", enemy="Z"))
    assert g.state.engaged(u(g, "H"))
    assert fighter_shots(ctx_of(g), u(g, "H")) == []
    # Empire's fire step was skipped, and the tied pair may not be rolled again this
    # phase (ACTA-DOG-6): the Zaresh has no role and no shot, so the ships fire.
    assert g.state.phase == "ship_fire"


def test_ACTA_DOG_8_fighter_that_won_its_dogfight_does_not_fire() -> None:
    """ACTA-DOG-8: the dogfight was the Hummingbird's attack; free again, it still may
    not fire this turn."""
    g = hummingbird_near_a_ship()
    script(g, 6, 1)
    g.apply(Dogfight(unit="H", enemy="Z"))
    assert "Z" not in g.state.units and not g.state.engaged(u(g, "H"))
    assert fighter_shots(ctx_of(g), u(g, "H")) == []
    assert g.state.phase == "ship_fire"
    assert not [e for e in events(g, "ACTA-ATK-1") if e.data["unit"] == "H"]


def test_ACTA_DOG_8_option_engaged_fighters_fire() -> None:
    """ACTA-DOG-8: with engaged_fighters_fire=true the locked Hummingbird may fire."""
    g = hummingbird_near_a_ship({"engaged_fighters_fire": True})
    script(g, 3, 5)
    g.apply(Dogfight(unit="H", enemy="Z"))
    assert (g.state.phase, g.state.active) == ("fighter_fire", E)
    assert g.is_legal(Fire(unit="H", weapon="Phaser-GF", target="M"))


# ---- ACTA-DOG-9: no dogfights against ships --------------------------------------------------


def test_ACTA_DOG_9_dogfight_against_a_ship_is_refused() -> None:
    """ACTA-DOG-9: a Hummingbird touching a Morgath may not dogfight it; a fighter that
    touches only a ship is not in a dogfight at all."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        unit(1, "morgath", 10, 11.5, 0, id="M"),
        fighter(0, "hummingbird", 10, 13, "H2"),
    )
    assert g.state.touching(u(g, "H"), u(g, "M"))
    assert g.state.touching(u(g, "H2"), u(g, "M"))
    with pytest.raises(IllegalAction, match="ACTA-DOG-9"):
        g.check(Dogfight(unit="H", enemy="M"))
    assert not g.is_legal(Dogfight(unit="H2", enemy="M"))
    dogfights = [a for a in g.legal_actions() if isinstance(a, Dogfight)]
    assert dogfights == [Dogfight(unit="H", enemy="Z")]
    assert not [a for a in g.legal_actions() if getattr(a, "unit", "") == "H2"]
