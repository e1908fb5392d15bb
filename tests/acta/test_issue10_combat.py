"""Issue 10 (acta items 1-5, 10, 11): dogfights, support, fighter fire and launches.

Each test builds a position, scripts the dice and checks the clause it names against
seed 000. Each fails on the engine before the fix: there, a fighter in contact could
"support" a dogfight nobody fought, a winning defender fired, a tied pair was rolled
again by the other side, support had to be asked for, each fighter shot was rolled
before the next was chosen, a fighter named twice counted twice, and Scramble offered
fighters already queued for launch.
Wasp: Dogfight +2, Damage 2. Zul: +2, Damage 2. Zaresh: +1, Damage 1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.ai import RandomPlayer
from dogfight.core import Game, load_scenario
from dogfight.core.errors import IllegalAction
from dogfight.core.play import play
from dogfight.core.seat import Seat
from dogfight.rulesets.acta.actions import (
    DefenderSupport,
    DefensiveFire,
    Dogfight,
    EndAttacks,
    EndMovement,
    Fire,
    Intercept,
    Launch,
    Leg,
    MoveFighter,
    MoveShip,
    Support,
)
from dogfight.rulesets.acta.targets import fighter_shots

from .builders import events, make_game, script, unit
from .test_clauses_combat import E, K, advance_to, all_dice_used, ctx_of, new_game, u
from .test_clauses_combat_dogfight import fighter, melee, rolls, totals

# ---- item 1: dogfights cannot be skipped (ACTA-DOG-1, -DOG-2, -DOG-3) --------------------


def wasp_and_zul(**kw: Any) -> Game:
    """The issue's position: a Wasp at (10, 10) and a Zul at (11, 10), in base contact."""
    return melee(fighter(0, "wasp", 10, 10, "W"), fighter(1, "zul", 11, 10, "Y"), **kw)


def test_ACTA_DOG_3_support_with_no_dogfight_being_fought_is_refused() -> None:
    """ACTA-DOG-1/-DOG-3: the Wasp touching the Zul is in a dogfight; with no dogfight of
    its side being fought there is nothing to support, so its only choice is to attack."""
    g = wasp_and_zul()
    assert g.legal_actions() == [Dogfight(unit="W", enemy="Y")]
    with pytest.raises(IllegalAction, match="ACTA-DOG-3"):
        g.check(Support(unit="W"))
    script(g, 5, 2)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert totals(g) == [(7, 4)]
    assert "Y" not in g.state.units
    all_dice_used(g)


def test_ACTA_DOG_2_a_locked_pair_is_rolled_even_if_both_sides_would_rather_support() -> None:
    """ACTA-DOG-2: both sides answering Support whenever it is offered (the issue's
    reproduction) still roll the dogfight in turn 1, and the game is decided."""
    g = make_long_game()
    while not g.is_over():
        legal = g.legal_actions()
        support = [a for a in legal if isinstance(a, Support)]
        g.apply(support[0] if support else legal[0])
    assert rolls(g), "no dogfight was rolled"
    outcome = g.outcome()
    assert outcome is not None and outcome.winner is not None


def make_long_game() -> Game:
    return make_game(
        fighter(0, "wasp", 10, 10, "W"),
        fighter(1, "zul", 11, 10, "Y"),
        dice=[6, 1, 5, 2] * 10,
        turn_limit=3,
    )


def test_ACTA_DOG_3_supporter_must_touch_an_enemy_being_fought() -> None:
    """ACTA-DOG-3: a second Wasp touching the Zul may support once the Zul is attacked,
    not before; it then adds +1 (2+2+1 = 5 beats 2+2 = 4)."""
    g = melee(
        fighter(0, "wasp", 10, 10, "W"),
        fighter(1, "zul", 11, 10, "Y"),
        fighter(0, "wasp", 11, 11, "W2"),
    )
    assert Support(unit="W2") not in g.legal_actions()
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert Support(unit="W2") in g.legal_actions()
    script(g, 2, 2)
    g.apply(Support(unit="W2"))
    assert totals(g) == [(5, 4)]
    all_dice_used(g)


def test_ACTA_DOG_2_the_second_side_resolves_its_own_dogfights() -> None:
    """ACTA-DOG-2: the Zul Y2, touching the Wasp W that Empire did not attack with, must
    roll its dogfight when Klingon nominates; it may not just stand by."""
    g = melee(
        fighter(0, "wasp", 10, 10, "W"),
        fighter(1, "zul", 11, 10, "Y"),
        fighter(0, "wasp", 10, 14, "W2"),
        fighter(1, "zul", 11, 14, "Y2"),
    )
    script(g, 3, 3, 3, 3)  # both of Empire's dogfights tie: all four stay locked
    g.apply(Dogfight(unit="W", enemy="Y"))
    g.apply(Dogfight(unit="W2", enemy="Y2"))
    assert len(rolls(g)) == 2
    # Both pairs have rolled this phase (ACTA-DOG-6): Klingon has no dogfight left.
    assert g.state.phase != "fighter_attack"
    all_dice_used(g)


# ---- item 2: a fighter that dogfought does not fire (ACTA-DOG-8) --------------------------


def defender_near_a_ship(rules: dict[str, Any] | None = None) -> Game:
    """Empire's Hummingbird H attacks the Zaresh Z; a Tiger sits 1.5" (edge) from Z."""
    return melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        unit(0, "tiger", 11, 12, 0, id="T"),
        rules=rules,
    )


def test_ACTA_DOG_8_defender_that_wins_does_not_fire() -> None:
    """ACTA-DOG-8: the Zaresh wins the dogfight it was attacked in (1+3 v 6+1); it has
    dogfought this turn, so it gets no shot at the Tiger in range."""
    g = defender_near_a_ship()
    script(g, 1, 6)
    g.apply(Dogfight(unit="H", enemy="Z"))
    assert "H" not in g.state.units and not g.state.engaged(u(g, "Z"))
    assert fighter_shots(ctx_of(g), u(g, "Z")) == []
    assert g.state.phase == "ship_fire"
    assert not [e for e in events(g, "ACTA-ATK-1") if e.data["unit"] == "Z"]
    all_dice_used(g)
    # With engaged_fighters_fire=true the winning defender may fire.
    g = defender_near_a_ship({"engaged_fighters_fire": True})
    script(g, 1, 6)
    g.apply(Dogfight(unit="H", enemy="Z"))
    advance_to(g, "fighter_fire", K)
    assert g.is_legal(Fire(unit="Z", weapon="Phaser-3F", target="T"))


# ---- item 3: a tie stays locked until the next Attack Phase (ACTA-DOG-6) ---------------------


def test_ACTA_DOG_6_tied_pair_is_not_rolled_again_by_the_other_side() -> None:
    """ACTA-DOG-6: Wasp 3+2 ties Zul 3+2. Klingon may not roll the same pair again in
    this Attack Phase; in the next one the pair fights again."""
    g = make_game(
        fighter(0, "wasp", 10, 10, "W"),
        fighter(1, "zul", 11, 10, "Y"),
        dice=(6, 1),
        turn_limit=2,
    )
    advance_to(g, "fighter_attack", E)
    # The tie, then turn 2's initiative (Klingon wins): Klingon is given no roll of the
    # same pair in turn 1, so play runs straight on into turn 2.
    script(g, 3, 3, 1, 6)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert len(rolls(g)) == 1 and g.state.engaged(u(g, "W"))
    assert g.state.turn == 2
    assert not [e for e in events(g, "ACTA-DOG-3") if e.data.get("unit") == "Y"]
    # Turn 2: Klingon nominates first, and the pair rolls again.
    advance_to(g, "fighter_attack", K)
    assert g.legal_actions() == [Dogfight(unit="Y", enemy="W")]
    script(g, 6, 1)
    g.apply(Dogfight(unit="Y", enemy="W"))
    assert len(rolls(g)) == 2 and "W" not in g.state.units


def test_ACTA_DOG_6_check_names_the_clause_for_a_pair_already_rolled() -> None:
    """ACTA-DOG-6: when Klingon nominates, Y (also touching the Wasp W2) may fight W2 but
    not W, with whom it tied; the refusal names the clause."""
    g = melee(
        fighter(0, "wasp", 10, 10, "W"),
        fighter(1, "zul", 11, 10, "Y"),
        fighter(0, "wasp", 12, 10, "W2"),
    )
    g.apply(Dogfight(unit="W", enemy="Y"))
    script(g, 2, 3)  # 2+2+1 (W2 supporting) ties 3+2
    g.apply(Support(unit="W2"))
    assert totals(g) == [(5, 5)]
    advance_to(g, "fighter_attack", K)
    with pytest.raises(IllegalAction, match="ACTA-DOG-6"):
        g.check(Dogfight(unit="Y", enemy="W"))
    assert g.legal_actions() == [Dogfight(unit="Y", enemy="W2")]


def test_ACTA_DOG_6_also_with_loser_taking_damage() -> None:
    """ACTA-DOG-6 with dogfight_loser=damage: the Zul loses a point (5+2 v 2+2) and
    survives; the pair has had its dogfight this phase, so Klingon may not roll it."""
    g = wasp_and_zul(rules={"dogfight_loser": "damage"})
    script(g, 5, 2)
    g.apply(Dogfight(unit="W", enemy="Y"))
    assert u(g, "Y").damage == 1
    assert not (g.state.phase == "fighter_attack" and g.state.active == K)
    all_dice_used(g)


# ---- item 4: support is automatic (ACTA-SUP-1) ----------------------------------------------


def escort(turns: int = 2) -> Game:
    """A Tiger at (10, 18); a Wasp 5" east of it; a Dragonfly further east; Klingon far off."""
    return make_game(
        unit(0, "tiger", 10, 18, 0, id="T"),
        unit(0, "wasp", 15, 18, 0, id="W"),
        unit(0, "dragonfly", 20, 18, 0, id="D"),
        unit(1, "zaresh", 40, 30, 180, id="Z", dogfight_drones=True),
        dice=(6, 1, 6, 1),
        turn_limit=turns,
        table=(48, 36),
    )


def test_ACTA_SUP_1_moving_onto_a_ships_base_is_support_without_asking() -> None:
    """ACTA-SUP-1: the Wasp ends its move on the Tiger's base without naming support; it
    supports the Tiger, may go on defensive fire, and is carried when the Tiger moves."""
    g = escort()
    advance_to(g, "fighter_move", E)
    g.apply(MoveFighter(unit="W", x=11.5, y=18, heading=0))
    assert u(g, "W").supporting == "T"
    assert events(g, "ACTA-SUP-1")
    g.apply(EndMovement())
    advance_to(g, "defensive_fire", E)
    assert DefensiveFire(fighters=("W",)) in g.legal_actions()
    advance_to(g, "ship_move", E)
    g.apply(MoveShip(unit="T", legs=(Leg(0, 4),)))
    assert u(g, "W").pose.position.x == pytest.approx(15.5)


def test_ACTA_SUP_1_contact_with_a_friendly_fighter_is_support() -> None:
    """ACTA-SUP-1: the Dragonfly moved into contact with the Wasp supports it."""
    g = escort(1)
    advance_to(g, "fighter_move", E)
    g.apply(MoveFighter(unit="D", x=16, y=18, heading=0))
    assert u(g, "D").supporting == "W"


def test_ACTA_SUP_1_leaving_is_the_players_choice() -> None:
    """ACTA-SUP-1: a supporter that moves off the base stops supporting."""
    g = escort()
    advance_to(g, "fighter_move", E)
    g.apply(MoveFighter(unit="W", x=11.5, y=18, heading=0))
    g.apply(EndMovement())
    advance_to(g, "fighter_move", E)  # turn 2
    assert g.state.turn == 2 and u(g, "W").supporting == "T"
    g.apply(MoveFighter(unit="W", x=16, y=22, heading=0))
    assert u(g, "W").supporting == ""


def test_ACTA_SUP_1_the_fifth_fighter_on_a_base_does_not_support() -> None:
    """ACTA-SUP-1: at most four fighters support one ship; a fifth on its base does not."""
    ring = [(11.5, 18), (10, 19.5), (8.5, 18)]
    g = make_game(
        unit(0, "tiger", 10, 18, 0, id="T"),
        *[unit(0, "wasp", x, y, 0, id=f"W{i}", supporting="T") for i, (x, y) in enumerate(ring)],
        unit(0, "wasp", 10, 14, 0, id="W8"),
        unit(0, "wasp", 15, 18, 0, id="W9"),
        unit(1, "zaresh", 40, 30, 180, id="Z", dogfight_drones=True),
        dice=(6, 1),
        turn_limit=1,
        table=(48, 36),
    )
    advance_to(g, "fighter_move", E)
    g.apply(MoveFighter(unit="W8", x=10, y=16.5, heading=0))
    assert u(g, "W8").supporting == "T"  # the fourth
    g.apply(MoveFighter(unit="W9", x=11.06, y=19.06, heading=0))
    assert g.state.touching(u(g, "W9"), u(g, "T"))
    assert u(g, "W9").supporting == ""


# ---- item 5: fighter attacks are nominated, then resolved (ACTA-FTR-7) ----------------------


def two_wasps_and_a_zaresh(rules: dict[str, Any] | None = None) -> Game:
    """Two Wasps each 2" (edge to edge) from a Zaresh that has not moved (so no dodge)."""
    g = new_game(
        unit(0, "wasp", 10, 10, 0, id="W1"),
        unit(0, "wasp", 13, 13, 0, id="W2"),
        unit(1, "zaresh", 13, 10, 180, id="Z", dogfight_drones=True),
        rules=rules,
    )
    advance_to(g, "fighter_fire", E)
    return g


def test_ACTA_FTR_7_targets_are_nominated_before_any_die_is_rolled() -> None:
    """ACTA-FTR-7: the first Wasp's shot rolls nothing until the second has named its
    target; then both are rolled in order. The first (6, 1, 1: one hit, 6 needed at 2"
    with the -1) destroys the Zaresh, and the second shot, nominated at it, is lost."""
    g = two_wasps_and_a_zaresh()
    assert g.options["fighter_fire_order"] == "nominate"
    before = g.dice.count
    g.apply(Fire(unit="W1", weapon="Phaser-3F", target="Z"))
    assert g.dice.count == before and not events(g, "ACTA-ATK-1")
    assert g.state.phase == "fighter_fire" and g.state.active == E
    script(g, 6, 1, 1)
    g.apply(Fire(unit="W2", weapon="Phaser-3F", target="Z"))
    assert "Z" not in g.state.units
    shots = events(g, "ACTA-ATK-1")
    assert [e.data["unit"] for e in shots] == ["W1"]
    assert any("lost" in e.text for e in events(g, "ACTA-FTR-7"))
    all_dice_used(g)


def test_ACTA_FTR_7_end_attacks_rolls_what_was_nominated() -> None:
    """ACTA-FTR-7: ending the fighters' attacks rolls the shots nominated so far."""
    g = two_wasps_and_a_zaresh()
    g.apply(Fire(unit="W1", weapon="Phaser-3F", target="Z"))
    script(g, 1, 1, 1)
    g.apply(EndAttacks())
    assert [e.data["unit"] for e in events(g, "ACTA-ATK-1")] == ["W1"]
    assert g.state.volley == ()
    all_dice_used(g)


def test_ACTA_FTR_7_option_each_resolves_at_once() -> None:
    """ACTA-FTR-7 with fighter_fire_order=each: a shot is rolled as soon as it is made."""
    g = two_wasps_and_a_zaresh({"fighter_fire_order": "each"})
    script(g, 6, 1, 1)
    g.apply(Fire(unit="W1", weapon="Phaser-3F", target="Z"))
    assert "Z" not in g.state.units
    all_dice_used(g)


# ---- item 10: one fighter named twice (ACTA-DOG-4, ACTA-SUP-6) --------------------------------


def test_ACTA_DOG_4_defender_support_naming_a_fighter_twice_is_refused() -> None:
    """ACTA-DOG-4: the Zul named twice would add +2; check refuses it with a reason."""
    g = melee(
        fighter(0, "hummingbird", 10, 10, "H"),
        fighter(1, "zaresh", 11, 10, "Z"),
        fighter(1, "zul", 10, 11, "Y"),
    )
    g.apply(Dogfight(unit="H", enemy="Z"))
    assert g.is_legal(DefenderSupport(fighters=("Y",)))
    with pytest.raises(IllegalAction, match="named twice"):
        g.check(DefenderSupport(fighters=("Y", "Y")))


def test_ACTA_SUP_6_defensive_fire_naming_a_fighter_twice_is_refused() -> None:
    """ACTA-SUP-6: a fighter named twice on defensive fire is refused."""
    g = new_game(
        unit(0, "tiger", 10, 18, 0, id="T"),
        unit(0, "wasp", 11.5, 18, 0, id="W", supporting="T"),
        unit(1, "zaresh", 30, 18, 180, id="Z", dogfight_drones=True),
    )
    advance_to(g, "defensive_fire", E)
    assert g.is_legal(DefensiveFire(fighters=("W",)))
    with pytest.raises(IllegalAction, match="named twice"):
        g.check(DefensiveFire(fighters=("W", "W")))


# ---- item 11: every Launch offered under Scramble applies (ACTA-SPA-7, ACTA-LCH-1) -----------


def test_ACTA_SPA_7_every_offered_launch_is_accepted_in_random_scramble_battles() -> None:
    """ACTA-SPA-7: with scramble=true, random battles of carrier-strike end without a
    launch being refused, and every Launch offered in the launch step is legal."""
    scenario = load_scenario("carrier-strike")
    for seed in range(60):
        game = Game(scenario, seed=seed, rules={"scramble": True})
        play(game, {s: CheckedRandom(game) for s in game.sides()}, random.Random(seed))
        assert game.is_over()


class CheckedRandom:
    """A random player that first checks every Launch on offer."""

    def __init__(self, game: Game) -> None:
        self.inner = RandomPlayer()
        self.game = game

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        for action in legal:
            if isinstance(action, Launch):
                self.game.check(action)
        return self.inner.decide(seat, legal, rng)


def test_ACTA_FTR_7_interception_withdraws_shots_already_named() -> None:
    """ACTA-FTR-7 / ACTA-SUP-4: the Zaresh names its phaser at the escorted Tiger (the
    escort declines), then its drone (the escort intercepts). Nothing had been rolled,
    so the phaser shot named earlier is withdrawn too: it may not attack the Tiger."""
    g = make_game(
        unit(0, "tiger", 20, 18, id="E-CA"),
        unit(0, "wasp", 21.2, 18, id="E-F1", supporting="E-CA"),
        unit(1, "zaresh", 17.8, 18, id="K-F1", dogfight_drones=False),
        table=(48, 36),
        dice=[2, 5],
        turn_limit=1,
    )
    advance_to(g, "fighter_fire", K)
    g.apply(Fire(unit="K-F1", weapon="Phaser-3F", target="E-CA"))
    g.apply(passive_intercept(g))
    assert len(g.state.volley) == 1
    g.apply(Fire(unit="K-F1", weapon="Drone", target="E-CA"))
    assert g.state.phase == "intercept"
    dice = g.dice.count
    g.apply(intercept_with(g, "E-F1"))
    assert g.state.volley == ()
    assert not events(g, "ACTA-ATK-1") and g.dice.count == dice
    assert u(g, "E-CA").shields == g.state.types["tiger"].shields


def passive_intercept(g: Game) -> Any:
    """Decline the interception pending."""
    return Intercept(attacker=g.state.intercept.attacker)


def intercept_with(g: Game, fighter_id: str) -> Any:
    """Intercept the pending attacker with one fighter."""
    return Intercept(attacker=g.state.intercept.attacker, fighters=(fighter_id,))
