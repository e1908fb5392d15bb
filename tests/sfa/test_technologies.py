"""Clause tests for the thirty advanced technologies (data/sfa/technologies.md,
SFA-TEC-01..30).

Each test builds a small battle from inline craft, scripts the dice, plays it through the
Game API and checks one technology's effect. Positions use the scenario's [column, row];
a craft facing 3 (S) has every hex below it in its column on its forward line.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import DataError, IllegalAction
from dogfight.core.scenario import scenario_from_raw
from dogfight.dice import scripted
from dogfight.geometry.hex import Hex, offset_to_hex
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actions import Move, Pass, Resolve, Select
from dogfight.rulesets.sfa.craft import CraftSpec, build_craft
from dogfight.rulesets.sfa.state import CraftState

BLUE, RED = "Blue", "Red"


def design(cid: str, techs: list[Any] | None = None, **stats: Any) -> dict[str, Any]:
    """An inline craft: a regular-looking Starfighter unless told otherwise."""
    base: dict[str, Any] = {
        "id": cid,
        "name": cid,
        "scale": "Starfighter",
        "handling": 0,
        "armor": 1,
        "shields": 1,
        "move": 3,
        "power": 10,
        "structure": 10,
        "weapons": [{"kind": "medium_laser"}],
        "technologies": techs or [],
    }
    base.update(stats)
    return base


def at(cid: str, ctype: str, col: int, row: int, facing: int, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "type": ctype, "at": [col, row], "facing": facing, **extra}


def make(
    blue: list[dict[str, Any]],
    red: list[dict[str, Any]],
    designs: list[dict[str, Any]],
    dice: tuple[int, ...] = (),
    terrain: list[dict[str, Any]] | None = None,
) -> Game:
    raw = {
        "name": "tech-test",
        "ruleset": "sfa",
        "turn_limit": 10,
        "map": {"width": 20, "height": 20, "terrain": terrain or []},
        "custom_craft": designs,
        "sides": [{"name": BLUE, "craft": blue}, {"name": RED, "craft": red}],
    }
    return Game(scenario_from_raw(raw, "test"), dice=scripted(*dice))


def craft(game: Game, cid: str) -> CraftState:
    state = game.state
    return state.craft[cid]  # type: ignore[no-any-return]


def select(game: Game, choices: dict[str, tuple[str, str]]) -> None:
    """Every actor selects: the given (kind, item) or no action."""
    while game.state.phase == "select" and not game.is_over():
        key = game.state.to_select[0]
        kind, item = choices.get(key, ("none", ""))
        game.apply(Select(actor=key, kind=kind, item=item))


def act(
    game: Game,
    moves: dict[str, dict[str, Any]] | None = None,
    resolves: dict[str, dict[str, Any]] | None = None,
    stop: str = "",
) -> None:
    """Play the act phase to the next selection (or to craft `stop`'s move step):
    passes every interrupt window, flies the given moves (else 'F', else the first
    legal move) and resolves as given (else nothing)."""
    moves = moves or {}
    resolves = resolves or {}
    turn = game.state.turn
    while not game.is_over() and game.state.phase == "act" and game.state.turn == turn:
        state = game.state
        if state.step.startswith("window"):
            game.apply(Pass())
        elif state.step == "move":
            cid = state.acting.rpartition("#")[0]
            if cid == stop:
                return
            if cid in moves:
                game.apply(Move(craft=cid, **moves[cid]))
            else:
                legal = [a for a in game.legal_actions() if isinstance(a, Move) and not a.abort]
                plain = [a for a in legal if a.steps == "F"]
                game.apply((plain or legal)[0])
        elif state.step == "resolve":
            game.apply(Resolve(actor=state.acting, **resolves.get(state.acting, {})))


def turn(
    game: Game,
    choices: dict[str, tuple[str, str]] | None = None,
    moves: dict[str, dict[str, Any]] | None = None,
    resolves: dict[str, dict[str, Any]] | None = None,
) -> None:
    select(game, choices or {})
    act(game, moves, resolves)


def events(game: Game, clause: str) -> list[Any]:
    return [e for e in game.events if e.clause == clause]


def one_craft(spec: dict[str, Any]) -> Any:
    import msgspec

    return build_craft(msgspec.convert(spec, CraftSpec), "test")


def duel(
    blue_techs: list[Any] | None = None,
    red_techs: list[Any] | None = None,
    dice: tuple[int, ...] = (),
    blue_stats: dict[str, Any] | None = None,
    red_stats: dict[str, Any] | None = None,
    distance: int = 4,
    red_pilot: str = "regular",
    blue_pilot: str | None = "regular",
) -> Game:
    """B1 at column 5 row 2 facing S; R1 `distance` rows below facing N. With
    `blue_pilot` None the scenario names no pilot for B1."""
    blue = {"pilot": blue_pilot} if blue_pilot is not None else {}
    return make(
        [at("B1", "blue", 5, 2, 3, **blue)],
        [at("R1", "red", 5, 2 + distance, 0, pilot=red_pilot)],
        [
            design("blue", blue_techs, **(blue_stats or {})),
            design("red", red_techs, **(red_stats or {})),
        ],
        dice,
    )


# ---- 01 Armor-Piercing ---------------------------------------------------------------------


def test_SFA_TEC_ARMOR_PIERCING_cuts_armour_and_cancels_enhanced_soak() -> None:
    """SFA-TEC-01: each Armor-Piercing level takes 1 off the target's armour Soak, and
    Enhanced Soak does nothing against the weapon. Target Soak 3+2+2 armour = 7, less 1:
    the Medium Laser rolls 15 - 6 = 9 dice and all 9 successes count."""
    game = duel(
        [{"name": "armor_piercing", "level": 1}],
        ["enhanced_soak"],
        dice=(10,) * 9,
        red_stats={"armor": 2, "shields": 0, "structure": 20},
    )
    turn(game, {"B1#0": ("attack", "Medium Laser")}, resolves={"B1#0": {"target": "R1"}})
    shot = events(game, "SFA-ATK-1")[0]
    assert shot.data["dice"] == 9 and shot.data["damage"] == 9
    assert craft(game, "R1").structure == 11


# ---- 02 Artificial Intelligence -------------------------------------------------------------


def test_SFA_TEC_ARTIFICIAL_INTELLIGENCE_is_the_virtual_pilot() -> None:
    """SFA-TEC-02: AI 4 gives 8 points over Dexterity/Piloting/Gunnery (3/3/2); the AI
    has no Willpower, so it cannot abort or buy successes; it flies and fires."""
    game = duel(
        [{"name": "artificial_intelligence", "level": 4}],
        dice=(10,) * 9,
        blue_stats={"crew": 0},
        blue_pilot=None,
    )
    pilot = craft(game, "B1").pilot
    assert (pilot.dexterity, pilot.piloting, pilot.gunnery, pilot.willpower) == (3, 3, 2, 0)
    assert pilot.ai
    select(game, {"B1#0": ("attack", "Medium Laser")})
    act(game, stop="B1")
    assert all(not a.abort for a in game.legal_actions())
    act(game, resolves={"B1#0": {"target": "R1"}})
    # Dexterity 3 + Piloting 3 + 10 - Soak 7 = 9 dice.
    assert events(game, "SFA-ATK-1")[0].data["dice"] == 9


# ---- 03 Auto-Turrets ---------------------------------------------------------------------


@pytest.mark.parametrize("turrets", [True, False])
def test_SFA_TEC_AUTO_TURRETS_fire_along_any_straight_line(turrets: bool) -> None:
    """SFA-TEC-03: with Auto-Turrets the pilot fires along any of the six hex lines:
    a target straight behind can be shot; without them it cannot."""
    game = make(
        [at("B1", "blue", 5, 2, 0)],  # facing N; R1 is straight behind (S)
        [at("R1", "red", 5, 7, 0)],
        [design("blue", ["auto_turrets"] if turrets else []), design("red")],
        dice=(10,) * 8 if turrets else (),
    )
    select(game, {"B1#0": ("attack", "Medium Laser")})
    act(game, moves={"B1": {"steps": "F"}}, stop="B1")
    game.apply(Move(craft="B1", steps="F"))
    while game.state.step.startswith("window"):
        game.apply(Pass())
    legal_targets = [a.target for a in game.legal_actions()]
    assert ("R1" in legal_targets) is turrets
    game.apply(Resolve(actor="B1#0", target="R1" if turrets else ""))
    fired = events(game, "SFA-ATK-1")
    assert bool(fired) is turrets


# ---- 04 Boosters ------------------------------------------------------------------------


def test_SFA_TEC_BOOSTERS_add_five_straight_hexes_for_five_power() -> None:
    """SFA-TEC-04: Boosters (Speed +3, 5 Power) add 5 Move in a straight line: Move 3
    + 5 = 8 hexes, turns only in the first 3."""
    game = duel(["boosters"], distance=12)
    select(game, {"B1#0": ("equipment", "boosters")})
    assert game.state.speeds["B1#0"] == 3 + 2 + 3
    act(game, stop="B1")
    with pytest.raises(IllegalAction, match="straight"):
        game.check(Move(craft="B1", steps="FFFFtFFFF"))
    assert game.is_legal(Move(craft="B1", steps="FFtFFFFFF"))
    act(game, moves={"B1": {"steps": "F" * 8}})
    b1 = craft(game, "B1")
    assert b1.hex == offset_to_hex(5, 10) and b1.power == 5
    assert events(game, "SFA-TEC-04")


def test_SFA_TEC_BOOSTERS_are_an_abort() -> None:
    """SFA-TEC-04: a pilot may abort to Boosters for 1 Willpower (and the 5 Power)."""
    game = duel(["boosters"], distance=12)
    select(game, {})
    act(game, stop="B1")
    abort = Move(craft="B1", steps="F" * 8, abort="boosters")
    assert abort in game.legal_actions()
    game.apply(abort)
    b1 = craft(game, "B1")
    assert b1.willpower == 4 and b1.power == 5 and b1.hexes_moved == 8


# ---- 05 Cargo Hold, 15 Hangar Bay, 18 Passengers -------------------------------------------------


def test_SFA_TEC_CARGO_HOLD_capacity_and_no_battle_action() -> None:
    """SFA-TEC-05: 5 m³ a level on a starfighter, 25 m³ on a starship; no action."""
    small = one_craft(design("s", [{"name": "cargo_hold", "level": 2}]))
    big = one_craft(design("b", [{"name": "cargo_hold", "level": 2}], scale="Starship"))
    assert small.capacity("cargo_hold") == 10 and big.capacity("cargo_hold") == 50
    game = duel([{"name": "cargo_hold", "level": 2}])
    assert not any(a.kind == "equipment" for a in game.legal_actions())


def test_SFA_TEC_HANGAR_BAY_capacity_and_no_battle_action() -> None:
    """SFA-TEC-15: one small vehicle a level on a starfighter, one starfighter a level on
    a starship (x5 per step above Starship); no action."""
    small = one_craft(design("s", [{"name": "hangar_bay", "level": 1}]))
    big = one_craft(design("b", [{"name": "hangar_bay", "level": 3}], scale="Starship + 1"))
    assert small.capacity("hangar_bay") == 1 and big.capacity("hangar_bay") == 15
    game = duel([{"name": "hangar_bay", "level": 1}])
    assert not any(a.kind == "equipment" for a in game.legal_actions())


def test_SFA_TEC_PASSENGERS_capacity_and_no_battle_action() -> None:
    """SFA-TEC-18: 5 passengers a level on a starfighter, 25 on a starship; no action."""
    small = one_craft(design("s", [{"name": "passengers", "level": 3}]))
    big = one_craft(design("b", [{"name": "passengers", "level": 2}], scale="Starship"))
    assert small.capacity("passengers") == 15 and big.capacity("passengers") == 50
    game = duel([{"name": "passengers", "level": 3}])
    assert not any(a.kind == "equipment" for a in game.legal_actions())


# ---- 06 Death Blossom --------------------------------------------------------------------


def test_SFA_TEC_DEATH_BLOSSOM_charge_then_blast_then_two_lost_turns() -> None:
    """SFA-TEC-06: a turn held still to charge (exempt from the 1-hex minimum), then 7
    Power: 10 automatic + (10 - Soak 7 = 3) dice on everything within 5 hexes; craft
    further off are spared; the user then loses 2 turns, drifting."""
    game = make(
        [at("B1", "blue", 5, 5, 3)],
        [at("R1", "red", 5, 9, 3), at("R2", "red", 15, 15, 3)],
        [design("blue", ["death_blossom"]), design("red", structure=20)],
        dice=(10, 10, 2),
    )
    select(game, {"B1#0": ("equipment", "death_blossom")})
    assert game.state.speeds["B1#0"] == 5 - 3
    act(game, stop="B1")
    assert [a for a in game.legal_actions() if not a.abort] == [Move(craft="B1", steps="")]
    act(game, moves={"B1": {"steps": ""}})
    assert craft(game, "B1").charged == "death_blossom"
    turn(
        game,
        {"B1#0": ("equipment", "death_blossom")},
        resolves={"B1#0": {"use": True}},
    )
    assert craft(game, "R1").structure == 20 - 12
    assert craft(game, "R2").structure == 20
    assert craft(game, "B1").power == 3
    assert [k for k in game.state.to_select if k.startswith("B1")] == []
    turn(game)
    assert [k for k in game.state.to_select if k.startswith("B1")] == []
    turn(game)
    assert "B1#0" in game.state.to_select


# ---- 07 Disruptor ---------------------------------------------------------------------


def test_SFA_TEC_DISRUPTOR_cuts_shields_and_pierces_force_fields() -> None:
    """SFA-TEC-07: Disruptor 1 takes 1 off the shield Soak and its shots go through a
    Force Field: Soak 3+2+2 shields - 1 = 6; a veteran's laser rolls 4+3+10-6 = 11."""
    game = duel(
        [{"name": "disruptor", "level": 1}],
        ["force_field"],
        dice=(10,) * 11,
        red_stats={"armor": 0, "shields": 2, "structure": 20},
        blue_pilot="veteran",
    )
    turn(
        game,
        {"B1#0": ("attack", "Medium Laser"), "R1#0": ("equipment", "force_field")},
        resolves={"B1#0": {"target": "R1"}},
    )
    assert any("Force Field" in e.text for e in events(game, "SFA-TEC-14"))
    assert events(game, "SFA-ATK-1")[0].data["dice"] == 11
    assert craft(game, "R1").structure == 9


# ---- 08 Duplicator ----------------------------------------------------------------------


def test_SFA_TEC_DUPLICATOR_copies_an_enemy_of_the_same_scale() -> None:
    """SFA-TEC-08: for 5 Power the craft takes the enemy's attributes and equipment."""
    game = duel(
        ["duplicator"],
        ["stealth", "enhanced_soak"],
        red_stats={"handling": 2, "armor": 3, "shields": 0, "move": 2},
    )
    select(game, {"B1#0": ("equipment", "duplicator")})
    act(game, resolves={"B1#0": {"target": "R1"}})
    ctype = game.state.type_of(craft(game, "B1"))
    assert (ctype.handling, ctype.armor, ctype.shields, ctype.move) == (2, 3, 0, 2)
    assert ctype.has("stealth") and ctype.has("enhanced_soak") and ctype.has("duplicator")
    assert craft(game, "B1").power == 5
    assert events(game, "SFA-TEC-08")


# ---- 09 EMP ------------------------------------------------------------------------------


def test_SFA_TEC_EMP_stuns_enemies_within_ten_hexes() -> None:
    """SFA-TEC-09: 3 Power; every enemy within 10 hexes loses its next action (this
    turn's if it has not acted: it drifts a hex instead); one further off does not."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 5, 8, 0), at("R2", "red", 5, 19, 0)],
        [design("blue", ["emp"]), design("red")],
    )
    select(game, {"B1#0": ("equipment", "emp"), "R1#0": ("extra_move", "")})
    act(game, resolves={"B1#0": {"use": True}})
    assert craft(game, "B1").power == 7
    assert craft(game, "R1").hex == offset_to_hex(5, 7)  # drifted 1 hex north, no action
    assert any("stunned" in e.text for e in events(game, "SFA-TEC-09"))
    assert craft(game, "R2").hex == offset_to_hex(5, 18)  # flew its own move


# ---- 10 Enhanced Soak -----------------------------------------------------------------


def test_SFA_TEC_ENHANCED_SOAK_ignores_first_five_successes() -> None:
    """SFA-TEC-10: the first 5 successes of each damage roll are ignored."""
    game = duel(red_techs=["enhanced_soak"], dice=(10,) * 8)
    turn(game, {"B1#0": ("attack", "Medium Laser")}, resolves={"B1#0": {"target": "R1"}})
    assert events(game, "SFA-ATK-1")[0].data["damage"] == 3
    assert craft(game, "R1").structure == 7


# ---- 11, 12 Enhanced Lasers and Missiles --------------------------------------------------


def test_SFA_TEC_ENHANCED_LASERS_add_five_damage_and_range() -> None:
    """SFA-TEC-11: +5 dice and +5 range: a Medium Laser hits at 11 hexes with 13 dice."""
    game = duel(["enhanced_lasers"], dice=(2,) * 13, distance=12)
    turn(game, {"B1#0": ("attack", "Medium Laser")}, resolves={"B1#0": {"target": "R1"}})
    assert events(game, "SFA-ATK-1")[0].data["dice"] == 3 + 2 + 15 - 7


def test_SFA_TEC_ENHANCED_MISSILES_add_five_pool_and_range() -> None:
    """SFA-TEC-12: a missile's pool 10 + 5 and its range 20 + 5."""
    game = duel(["enhanced_missiles"], blue_stats={"weapons": [{"kind": "missile"}]}, dice=(2,) * 8)
    turn(game, {"B1#0": ("attack", "Missile/Torpedo")}, resolves={"B1#0": {"target": "R1"}})
    launched = events(game, "SFA-MSL-1")[0]
    assert launched.data["missile"] == "M1"
    missile = game.state.missiles["M1"]  # it missed (8 dice: 15 - Soak 7) and hunts on
    assert missile.pool == 15 and missile.life == 25


# ---- 13 Enhanced Sensors, 25 Stealth ----------------------------------------------------------


def test_SFA_TEC_ENHANCED_SENSORS_see_and_target_cloaked_craft() -> None:
    """SFA-TEC-13: a side with Enhanced Sensors is shown a cloaked enemy, and the craft
    with the sensors may aim at it; without them the enemy is hidden. A spectator is
    shown only what every side is shown."""
    blind = duel()
    craft(blind, "R1").cloaked = True
    assert "R1" not in blind.observation(BLUE)["craft"]
    assert "R1" in blind.observation(RED)["craft"]
    assert "R1" not in blind.observation(None)["craft"]
    seeing = duel(["enhanced_sensors"])
    craft(seeing, "R1").cloaked = True
    assert "R1" in seeing.observation(BLUE)["craft"]
    assert "R1" in seeing.observation(None)["craft"]
    select(seeing, {"B1#0": ("attack", "Medium Laser")})
    seeing.apply(Move(craft="B1", steps="F"))
    while seeing.state.step.startswith("window"):
        seeing.apply(Pass())
    assert Resolve(actor="B1#0", target="R1") in seeing.legal_actions()


def test_SFA_TEC_STEALTH_cloaks_hides_and_decloaks_on_a_new_action() -> None:
    """SFA-TEC-25: cloaking takes the action (Speed -1) and 1 Power a turn; the other
    side's observation and the log lose the craft's position; it cannot be targeted;
    announcing a new action decloaks it."""
    game = duel(["stealth"], distance=10)
    select(game, {"B1#0": ("equipment", "stealth")})
    assert game.state.speeds["B1#0"] == 4
    act(game, resolves={"B1#0": {"use": True}})
    b1 = craft(game, "B1")
    assert b1.cloaked and b1.power == 8  # 1 to cloak, 1 for turn 2
    assert "B1" not in game.observation(RED)["craft"]
    assert "B1" in game.observation(BLUE)["craft"]
    select(game, {"R1#0": ("attack", "Medium Laser")})
    act(game, moves={"B1": {"steps": "F"}}, stop="R1")
    assert any(e.text == "B1 moves, cloaked" for e in game.events)
    # The cloaked move is in its own side's log, not in the enemy's or a spectator's.
    assert any(e.text == "B1 moves, cloaked" for e in game.events_for(BLUE))
    assert not any(e.text == "B1 moves, cloaked" for e in game.events_for(RED))
    assert not any(e.text == "B1 moves, cloaked" for e in game.events_for(None))
    game.apply(Move(craft="R1", steps="F"))
    while game.state.step.startswith("window"):
        game.apply(Pass())
    assert [a.target for a in game.legal_actions()] == [""]
    act(game)
    select(game, {"B1#0": ("attack", "Medium Laser")})
    assert not craft(game, "B1").cloaked
    assert any("decloaks" in e.text for e in events(game, "SFA-TEC-25"))


def test_SFA_TEC_STEALTH_damage_decloaks() -> None:
    """SFA-TEC-25: area effects still hurt a cloaked craft, and damage decloaks it."""
    game = make(
        [at("B1", "blue", 5, 5, 3)],
        [at("R1", "red", 5, 8, 3)],  # flying away south
        [design("blue", ["death_blossom"]), design("red", structure=20)],
        dice=(10, 2, 2),
    )
    turn(game, {"B1#0": ("equipment", "death_blossom")}, moves={"B1": {"steps": ""}})
    craft(game, "R1").cloaked = True
    turn(game, {"B1#0": ("equipment", "death_blossom")}, resolves={"B1#0": {"use": True}})
    assert craft(game, "R1").structure == 9 and not craft(game, "R1").cloaked


# ---- 14 Force Field ---------------------------------------------------------------------


def test_SFA_TEC_FORCE_FIELD_stops_all_damage_and_all_other_action() -> None:
    """SFA-TEC-14: for 1 Power a turn nothing damages the craft (no dice are even
    needed); it moves but fires nothing, not even with a gunner."""
    game = duel(red_techs=["force_field"], dice=(10,) * 11, blue_pilot="veteran")
    turn(
        game,
        {"B1#0": ("attack", "Medium Laser"), "R1#0": ("equipment", "force_field")},
        resolves={"B1#0": {"target": "R1"}},
    )
    assert craft(game, "R1").structure == 10 and craft(game, "R1").power == 9
    assert any("Force Field stops" in e.text for e in events(game, "SFA-TEC-14"))


def test_SFA_TEC_FORCE_FIELD_is_an_abort() -> None:
    """SFA-TEC-14: a pilot may abort to the Force Field for 1 Willpower and 1 Power."""
    game = duel(red_techs=["force_field"])
    select(game, {})
    act(game, stop="R1")
    game.apply(Move(craft="R1", steps="F", abort="force_field"))
    r1 = craft(game, "R1")
    assert r1.willpower == 4 and r1.power == 9
    assert any("raises its Force Field" in e.text for e in events(game, "SFA-TEC-14"))


# ---- 16 Holo-Projector ------------------------------------------------------------------


def test_SFA_TEC_HOLO_PROJECTOR_decoy_looks_real_and_vanishes_when_shot() -> None:
    """SFA-TEC-16: a decoy up to 5 hexes away shows to the enemy as one more craft of
    the projector's type; a shot at it rolls nothing and it vanishes."""
    game = duel(["holo_projector"], distance=6)
    select(game, {"B1#0": ("equipment", "holo_projector")})
    spot = offset_to_hex(7, 4)
    act(game, resolves={"B1#0": {"at": spot}})
    seen = game.observation(RED)["craft"]
    assert len(seen) == 3
    (fake,) = [v for v in seen.values() if v["hex"] == [spot.q, spot.r]]
    assert fake["type"] == "blue" and fake["side"] == BLUE
    decoy = next(iter(game.state.decoys))
    assert game.observation(BLUE)["decoys"] and decoy not in game.observation(BLUE)["craft"]
    # Red turns to face it and fires, naming it as Red is shown it.
    craft(game, "R1").facing = 0
    craft(game, "R1").hex = offset_to_hex(7, 8)
    select(game, {"R1#0": ("attack", "Medium Laser")})
    act(game, moves={"B1": {"steps": "FO"}}, resolves={"R1#0": {"target": fake["id"]}})
    assert decoy not in game.state.decoys
    assert game.dice.count == 0


# ---- 17 Hyper-Ram ------------------------------------------------------------------------


def test_SFA_TEC_HYPER_RAM_rams_without_taking_damage() -> None:
    """SFA-TEC-17: for 5 Power the craft rams: the target takes Structure 10 x 3 hexes
    less Soak 2; the rammer takes nothing."""
    game = duel(["hyper_ram"], distance=3, red_stats={"structure": 40})
    craft(game, "R1").facing = 3  # it will fly off south after the ram
    select(game, {"B1#0": ("equipment", "hyper_ram")})
    act(game, stop="B1")
    assert Move(craft="B1", steps="FFF") in game.legal_actions()  # ramming is offered
    act(game, moves={"B1": {"steps": "FFF"}})
    assert craft(game, "B1").structure == 10 and craft(game, "B1").power == 5
    assert craft(game, "R1").structure == 40 - (30 - 2)
    assert events(game, "SFA-TEC-17")


# ---- 19 Pi-Tac Cannon -------------------------------------------------------------------


def test_SFA_TEC_PI_TAC_CANNON_hits_the_line_ahead() -> None:
    """SFA-TEC-19: after a still charging turn, 7 Power: 10 automatic + 3 dice on every
    craft on the straight line ahead; craft off the line are untouched."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 5, 14, 0), at("R2", "red", 7, 8, 0)],
        [design("blue", ["pi_tac_cannon"]), design("red", structure=20)],
        dice=(10, 10, 10),
    )
    turn(game, {"B1#0": ("equipment", "pi_tac_cannon")}, moves={"B1": {"steps": ""}})
    turn(
        game,
        {"B1#0": ("equipment", "pi_tac_cannon")},
        moves={"R1": {"steps": "F"}},
        resolves={"B1#0": {"use": True}},
    )
    assert craft(game, "R1").structure == 20 - 13
    assert craft(game, "R2").structure == 20
    assert craft(game, "B1").power == 3


def test_SFA_TEC_PI_TAC_CANNON_needs_a_still_turn() -> None:
    """SFA-TEC-19: a craft that moved last turn has nothing charged: selecting the
    cannon again only charges it."""
    game = duel(["pi_tac_cannon"], distance=10)
    turn(game)
    select(game, {"B1#0": ("equipment", "pi_tac_cannon")})
    act(game, stop="B1")
    assert [a for a in game.legal_actions() if not a.abort] == [Move(craft="B1", steps="")]


# ---- 20 Plasma Field ---------------------------------------------------------------------


def test_SFA_TEC_PLASMA_FIELD_burns_craft_passing_within_two_hexes() -> None:
    """SFA-TEC-20: 1 Power; anything passing within 2 hexes takes 8 dice before Soak
    (8 - 7 = 1 die), once a turn."""
    game = duel(["plasma_field"], dice=(10,), distance=6)
    select(game, {"B1#0": ("equipment", "plasma_field")})
    act(game, moves={"B1": {"steps": "F"}, "R1": {"steps": "FFF"}})
    assert craft(game, "B1").power == 9
    assert craft(game, "R1").structure == 9
    assert len(events(game, "SFA-TEC-20")) == 3  # raised, the attack, the damage


def test_SFA_TEC_PLASMA_FIELD_is_an_abort() -> None:
    """SFA-TEC-20: a pilot may abort to the Plasma Field for 1 Willpower."""
    game = duel(["plasma_field"], distance=10)
    select(game, {})
    act(game, stop="B1")
    game.apply(Move(craft="B1", steps="F", abort="plasma_field"))
    assert craft(game, "B1").plasma_field and craft(game, "B1").willpower == 4


# ---- 21 Plasma Missile -----------------------------------------------------------------


def test_SFA_TEC_PLASMA_MISSILE_blast_hits_everything_within_three() -> None:
    """SFA-TEC-21: one missile a level; on reaching its target it detonates: 8 dice
    before Soak on every craft within 3 hexes (1 die each here), not on one further."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 5, 8, 0), at("R2", "red", 6, 9, 0), at("R3", "red", 12, 8, 0)],
        [design("blue", [{"name": "plasma_missile", "level": 1}]), design("red")],
        dice=(10, 10),
    )
    select(game, {"B1#0": ("equipment", "plasma_missile")})
    assert game.state.speeds["B1#0"] == 2
    act(game, resolves={"B1#0": {"target": "R1"}})
    assert craft(game, "B1").expended["plasma_missile"] == 1
    for cid in ("R1", "R2", "R3"):
        craft(game, cid).hex = {"R1": offset_to_hex(5, 7), "R2": offset_to_hex(6, 8)}.get(
            cid, craft(game, cid).hex
        )
    select(game, {})  # the missile flew at the start of turn 2
    assert craft(game, "R1").structure == 9 and craft(game, "R2").structure == 9
    assert craft(game, "R3").structure == 10
    assert not game.state.missiles
    assert all(a.kind != "equipment" for a in game.legal_actions() if isinstance(a, Select))


# ---- 22 Plasma Trail ----------------------------------------------------------------------


def test_SFA_TEC_PLASMA_TRAIL_burns_craft_crossing_last_turns_path() -> None:
    """SFA-TEC-22: 1 Power; hexes flown through stay hot through the next turn; another
    craft entering one takes 8 dice before Soak."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 8, 4, 4)],  # facing SW
        [design("blue", ["plasma_trail"]), design("red")],
        dice=(10,),
    )
    select(game, {"B1#0": ("equipment", "plasma_trail")})
    act(game, moves={"B1": {"steps": "FFF"}, "R1": {"steps": "F"}})
    assert craft(game, "B1").power == 9
    trail = game.state.trails[0]
    assert trail.hexes == tuple(offset_to_hex(5, r) for r in (3, 4, 5))
    craft(game, "R1").hex = offset_to_hex(6, 4)
    craft(game, "R1").facing = 4
    turn(game, moves={"R1": {"steps": "F"}})  # turn 2: R1 flies into (5, 4)
    assert craft(game, "R1").hex == offset_to_hex(5, 4)
    assert craft(game, "R1").structure == 9


# ---- 23 Remote Bits -------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [True, False])
def test_SFA_TEC_REMOTE_BITS_widen_the_laser_line(bits: bool) -> None:
    """SFA-TEC-23: lasers also fire straight ahead from the hexes beside the craft."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 6, 8, 0)],
        [design("blue", ["remote_bits"] if bits else []), design("red")],
    )
    select(game, {"B1#0": ("attack", "Medium Laser")})
    game.apply(Move(craft="B1", steps="F"))
    while game.state.step.startswith("window"):
        game.apply(Pass())
    assert (Resolve(actor="B1#0", target="R1") in game.legal_actions()) is bits


# ---- 24 Remote Laser --------------------------------------------------------------------


def test_SFA_TEC_REMOTE_LASER_flies_then_fires_like_a_laser() -> None:
    """SFA-TEC-24: a drone flies like a missile and, with its target on a straight line
    within 10, shoots it: Dexterity + Piloting + 6 - Soak = 4 dice (PROPOSAL)."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 5, 16, 0)],
        [design("blue", ["remote_laser"]), design("red")],
        dice=(10, 10, 2, 2),
    )
    select(game, {"B1#0": ("equipment", "remote_laser")})
    act(game, resolves={"B1#0": {"target": "R1"}})
    (drone,) = game.state.missiles.values()
    assert drone.kind == "remote_laser" and drone.pool == 11
    select(game, {})
    shot = [e for e in events(game, "SFA-TEC-24") if "fires" in e.text]
    assert shot and shot[0].data["damage"] == 2
    assert craft(game, "R1").structure == 8


# ---- 26 Targeting Computer ----------------------------------------------------------------


def test_SFA_TEC_TARGETING_COMPUTER_offsets_maneuver_soak_only() -> None:
    """SFA-TEC-26: each Power spent takes 1 off the Soak the target got from maneuvers:
    a rookie target (Soak 2+1+2 = 5) that turned (+1) has 6; 1 Power brings it to 5."""
    game = duel(["targeting_computer"], dice=(2,) * 10, red_pilot="rookie", distance=5)
    select(game, {"B1#0": ("attack", "Medium Laser")})
    act(game, moves={"R1": {"steps": "Ft"}}, stop="B1")
    game.apply(Move(craft="B1", steps="F"))
    while game.state.step.startswith("window"):
        game.apply(Pass())
    legal = game.legal_actions()
    assert Resolve(actor="B1#0", target="R1", power=1) in legal
    assert craft(game, "R1").maneuver_soak == 1
    with pytest.raises(IllegalAction):
        game.check(Resolve(actor="B1#0", target="R1", power=11))
    game.apply(Resolve(actor="B1#0", target="R1", power=1))
    assert events(game, "SFA-ATK-1")[0].data["dice"] == 3 + 2 + 10 - 5
    assert craft(game, "B1").power == 9


# ---- 27 Teleport ------------------------------------------------------------------------


def test_SFA_TEC_TELEPORT_jumps_for_one_power_a_hex() -> None:
    """SFA-TEC-27: instead of flying, the craft lands up to its Power in hexes away, for
    1 Power a hex; not into an obstacle; it is also an abort."""
    game = make(
        [at("B1", "blue", 5, 2, 3)],
        [at("R1", "red", 15, 15, 0)],
        [design("blue", ["teleport"]), design("red")],
        terrain=[{"at": [5, 6], "kind": "asteroid"}],
    )
    select(game, {"B1#0": ("equipment", "teleport")})
    assert game.state.speeds["B1#0"] == 6
    act(game, stop="B1")
    with pytest.raises(IllegalAction, match="obstacle"):
        game.check(Move(craft="B1", dest=offset_to_hex(5, 6)))
    with pytest.raises(IllegalAction, match="Power"):
        game.check(Move(craft="B1", dest=offset_to_hex(5, 14)))
    act(game, moves={"B1": {"dest": offset_to_hex(5, 9)}})
    assert craft(game, "B1").hex == offset_to_hex(5, 9) and craft(game, "B1").power == 3


def test_SFA_TEC_TELEPORT_is_an_abort() -> None:
    """SFA-TEC-27: a pilot may abort to Teleport for 1 Willpower."""
    game = duel(["teleport"], distance=12)
    select(game, {})
    act(game, stop="B1")
    dest = offset_to_hex(5, 5)
    assert Move(craft="B1", dest=dest, abort="teleport") in game.legal_actions()
    game.apply(Move(craft="B1", dest=dest, abort="teleport"))
    assert craft(game, "B1").hex == dest and craft(game, "B1").power == 7


# ---- 28 Temporal Displacement -----------------------------------------------------------


# Temporal Displacement is a reaction after the roll now: tests/sfa/test_issue11_sequence.py.


# ---- 29 Tractor Beam --------------------------------------------------------------------


def test_SFA_TEC_TRACTOR_BEAM_grabs_drags_and_contests() -> None:
    """SFA-TEC-29: range 2; the beam attacks with Strength 10 (3+2+10-7 = 8 dice); on a
    net success the target is held, its move is the holder's (up to 2 hexes any way);
    at the turn end it makes a Move roll (its Move 3 in dice) against 10 + Power put in."""
    beam_roll = (10,) + (2,) * 7
    first_contest = (10,) * 3 + (2,) * 8 + (2,) * 3  # beam 10+1 dice: 3; held 3 dice: 0
    second_contest = (2,) * 11 + (10,) * 3  # beam 0, held 3: it breaks free
    game = duel(["tractor_beam"], dice=beam_roll + first_contest + second_contest, distance=3)
    select(game, {"B1#0": ("equipment", "tractor_beam")})
    act(
        game,
        moves={"B1": {"steps": "F"}},
        resolves={"B1#0": {"target": "R1", "power": 1}},
        stop="R1",
    )
    # B1 resolved first (equal Speed, first side): R1 is held and Blue moves it.
    assert craft(game, "R1").held_by == "B1"
    assert game.current_player() == BLUE
    with pytest.raises(IllegalAction, match="Tractor"):
        game.check(Move(craft="R1", steps="F"))
    dest = offset_to_hex(5, 4)  # pulled in next to B1
    assert Move(craft="R1", dest=dest) in game.legal_actions()
    game.apply(Move(craft="R1", dest=dest))
    act(game)
    assert craft(game, "R1").held_by == "B1" and craft(game, "B1").power == 9
    assert craft(game, "R1").hex == dest
    turn(game, moves={"R1": {}})
    assert craft(game, "R1").held_by == "" and craft(game, "B1").power == 8


def test_SFA_TEC_TRACTOR_BEAM_resolve_options() -> None:
    """SFA-TEC-29: only craft within 2 hexes can be aimed at."""
    game = duel(["tractor_beam"], distance=6)
    select(game, {"B1#0": ("equipment", "tractor_beam")})
    act(game, moves={"B1": {"steps": "F"}}, stop="R1")
    assert craft(game, "R1").held_by == ""
    game2 = duel(["tractor_beam"], distance=6)
    select(game2, {"B1#0": ("equipment", "tractor_beam")})
    act(game2, stop="B1")
    game2.apply(Move(craft="B1", steps="F"))
    while game2.state.step.startswith("window"):
        game2.apply(Pass())
    # Nothing within 2 hexes: there is nothing to resolve, and R1 moves next.
    assert game2.state.acting == "R1#0" and not events(game2, "SFA-TEC-29")


# ---- 30 Transformation -----------------------------------------------------------------


FORMS = [{"name": "armoured", "handling": -1, "armor": 3, "shields": 1, "move": 2}]


def test_SFA_TEC_TRANSFORMATION_switches_form_as_an_action() -> None:
    """SFA-TEC-30: forms move the attribute points about (same total); switching takes
    the action (Speed -2) and the new numbers apply at once."""
    game = duel([{"name": "transformation", "level": 1}], blue_stats={"forms": FORMS})
    select(game, {"B1#0": ("equipment", "transformation")})
    assert game.state.speeds["B1#0"] == 3
    act(game, resolves={"B1#0": {"form": "armoured"}})
    ctype = game.state.type_of(craft(game, "B1"))
    assert (ctype.handling, ctype.armor, ctype.shields, ctype.move) == (-1, 3, 1, 2)
    select(game, {"B1#0": ("equipment", "transformation")})
    act(game, resolves={"B1#0": {"form": "base"}})
    assert game.state.type_of(craft(game, "B1")).move == 3


def test_SFA_TEC_TRANSFORMATION_forms_must_keep_the_point_total() -> None:
    """SFA-TEC-30: a form worth more than the craft is refused when the file loads."""
    bad = [{"name": "cheat", "handling": 2, "armor": 3, "shields": 1, "move": 3}]
    with pytest.raises(DataError, match="must equal"):
        one_craft(design("x", [{"name": "transformation", "level": 1}], forms=bad))
    with pytest.raises(DataError, match="Transformation"):
        one_craft(design("y", [], forms=FORMS))


# ---- every action technology is on offer ------------------------------------------------


def test_SFA_TEC_every_action_technology_is_a_legal_selection() -> None:
    """SFA-TEC-*: legal_actions offers each action technology the craft carries."""
    techs = sorted(T.ACTION_TECHS - {"transformation"})
    game = duel([*techs, {"name": "transformation", "level": 1}], blue_stats={"forms": FORMS})
    offered = {a.item for a in game.legal_actions() if a.kind == "equipment"}
    assert offered == T.ACTION_TECHS
    assert T.CLAUSE["armor_piercing"] == "SFA-TEC-01" and T.CLAUSE["transformation"] == "SFA-TEC-30"


def test_hex_helpers_agree() -> None:
    """The tests' geometry: column lines are straight north-south lines."""
    assert offset_to_hex(5, 6) - offset_to_hex(5, 2) == Hex(0, 4)
