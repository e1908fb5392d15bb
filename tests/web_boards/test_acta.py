"""The acta board adapter: scenes, action views, envelopes and composed moves."""

from __future__ import annotations

import math

import pytest

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game
from dogfight.core.scenario import builtin_scenario_files, load_scenario
from dogfight.core.scene import shapes
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.combat import measure
from dogfight.rulesets.acta.odds import acta_attack, acta_dogfight
from dogfight.web.boards import board_for

from .contract import (
    check_action_view,
    check_envelope,
    check_scene,
    positions,
)

BOARD = board_for("acta")
SCENARIOS = [f"acta/{p.stem}" for p in builtin_scenario_files("acta")]


def mid_games(name: str, seed: int = 7, steps: int = 160, every: int = 4) -> list[Game]:
    return list(positions(name, seed, steps, every))


@pytest.fixture(scope="module")
def games() -> dict[str, list[Game]]:
    return {name: mid_games(name) for name in SCENARIOS}


def test_every_scenario_has_a_board() -> None:
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenes_match_the_contract_and_the_state(name: str, games: dict[str, list[Game]]) -> None:
    for game in games[name]:
        state = game.state
        for seat in (*game.sides(), None):
            scene = BOARD.scene(game, seat)
            check_scene(scene, game.sides(), seat)
            assert scene["unit_name"] == "inch"
            assert (scene["width"], scene["height"]) == (state.table.width, state.table.height)
            assert {u["id"] for u in scene["units"]} == set(state.units)
            for unit in scene["units"]:
                pose = state.units[unit["id"]].pose
                # x stays, y flips about the table's height; headings turn into facings.
                assert unit["x"] == pytest.approx(pose.position.x)
                assert unit["y"] == pytest.approx(state.table.height - pose.position.y)
                expected = (90 - pose.heading) % 360
                assert (
                    min(abs(unit["facing"] - expected), 360 - abs(unit["facing"] - expected)) < 1e-6
                )
                assert unit["radius"] == state.types[state.units[unit["id"]].type].base_radius


def test_facing_conversion_round_trips() -> None:
    for heading in (-179.0, -90.0, -45.5, 0.0, 30.0, 90.0, 180.0):
        facing = shapes.board_facing(heading)
        assert 0 <= facing < 360
        assert shapes.table_heading(facing) == pytest.approx(heading)
    # East on the table is 90 degrees clockwise from up on the board; north is up.
    assert shapes.board_facing(0.0) == 90.0
    assert shapes.board_facing(90.0) == 0.0


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_legal_action_gets_a_label_and_a_group(
    name: str, games: dict[str, list[Game]]
) -> None:
    kinds = set()
    for game in games[name]:
        for action in game.legal_actions():
            view = BOARD.describe(game, action)
            check_action_view(view)
            kinds.add(view["kind"])
            if isinstance(action, (A.MoveFighter, A.MoveShip)):
                assert view["group"] == "move" and view["dest"] is not None
            if isinstance(action, A.Fire):
                assert view["group"] == "attack" and view["odds"] is not None
                assert view["unit"] == action.unit and view["target"] == action.target
    assert "MoveFighter" in kinds
    if name == "acta/carrier-strike":
        assert {"MoveShip", "Fire", "DeclareSpecial", "Launch"} <= kinds


def fire_states() -> list[tuple[Game, A.Fire]]:
    out: list[tuple[Game, A.Fire]] = []
    for name in SCENARIOS:
        for game in mid_games(name):
            fires = [a for a in game.legal_actions() if isinstance(a, A.Fire)]
            out.extend((game, f) for f in fires[:3])
    return out


def test_fire_odds_are_the_odds_modules_numbers() -> None:
    cases = fire_states()
    assert len(cases) > 5
    seen_ship_target = False
    for game, fire in cases:
        state = game.state
        firer, target = state.units[fire.unit], state.units[fire.target]
        dist = measure(state, firer, target)
        ftype, ttype = state.types[firer.type], state.types[target.type]
        weapon = next(w for w in ftype.weapons if w.name == fire.weapon)
        expected = acta_attack(
            ftype,
            fire.weapon,
            ttype,
            game.options,
            range_inches=min(dist, weapon.range),
            moved=target.moved,
        )
        odds = BOARD.describe(game, fire)["odds"]
        assert odds["outcomes"] == {f"{k} damage": float(p) for k, p in expected.odds.items()}
        assert odds["expected"] == pytest.approx(float(expected.expected))
        seen_ship_target = seen_ship_target or not ttype.is_fighter
    assert seen_ship_target


def test_dogfight_odds_are_the_odds_modules_numbers() -> None:
    found = 0
    for name in SCENARIOS:
        for game in mid_games(name, seed=11, steps=240, every=2):
            for action in game.legal_actions():
                if not isinstance(action, A.Dogfight):
                    continue
                state = game.state
                me, foe = state.units[action.unit], state.units[action.enemy]
                expected = acta_dogfight(
                    state.types[me.type],
                    state.types[foe.type],
                    game.options,
                    attacker_drones=me.dogfight_drones,
                    defender_drones=foe.dogfight_drones,
                )
                odds = BOARD.describe(game, action)["odds"]
                assert odds["outcomes"][f"{action.unit} wins"] == float(expected.attacker_wins)
                assert odds["outcomes"][f"{action.enemy} wins"] == float(expected.defender_wins)
                found += 1
    assert found > 0


def test_arcs_cover_the_targets_a_weapon_may_fire_at() -> None:
    checked = 0
    for game, fire in fire_states():
        scene = BOARD.scene(game, game.current_player())
        units = {u["id"]: u for u in scene["units"]}
        firer, target = units[fire.unit], units[fire.target]
        arcs = [s for s in firer["overlays"] if fire.weapon in s.get("title", "")]
        assert arcs, firer["overlays"]
        # The target's centre is in the weapon's drawn arc and range (its base edge counts
        # for range when it is a fighter).
        assert shapes.in_any(arcs, target["x"], target["y"], tolerance=target["radius"] + 1e-3)
        checked += 1
    assert checked > 5


def test_an_arc_excludes_what_is_behind() -> None:
    game = Game(load_scenario("acta/carrier-strike"), seed=1)
    scene = BOARD.scene(game, None)
    carrier = next(u for u in scene["units"] if u["id"] == "E-CV1")
    torpedo = next(s for s in carrier["overlays"] if "Photon Torpedo" in s["title"])
    # E-CV1 faces east (board facing 90): its forward F arc spans 45..135 on the board.
    assert (torpedo["start"], torpedo["end"]) == (45.0, 135.0)
    x, y = carrier["x"], carrier["y"]
    assert shapes.contains(torpedo, x + 10, y)
    assert not shapes.contains(torpedo, x - 10, y)
    assert not shapes.contains(torpedo, x, y - 10)


def move_games() -> list[Game]:
    out = []
    for name in SCENARIOS:
        for game in mid_games(name, seed=3, steps=200, every=3):
            if any(isinstance(a, (A.MoveFighter, A.MoveShip)) for a in game.legal_actions()):
                out.append(game)
    return out


def test_envelopes_hold_every_listed_move() -> None:
    games = move_games()
    assert any(g.state.phase == "fighter_move" for g in games)
    assert any(g.state.phase == "ship_move" for g in games)
    for game in games:
        envelopes = BOARD.envelopes(game)
        for uid, env in envelopes.items():
            check_envelope(uid, env)
        for action in game.legal_actions():
            if not isinstance(action, (A.MoveFighter, A.MoveShip)):
                continue
            dest = BOARD.describe(game, action)["dest"]
            env = envelopes[action.unit]
            assert shapes.in_envelope(env["shapes"], dest["x"], dest["y"]), (action, env)
            if env["facings"] is not None:
                assert any(abs(dest["facing"] - f) < 1e-6 for f in env["facings"])
            assert env["free"] == isinstance(action, A.MoveFighter)


def test_composed_moves_reach_the_listed_destinations() -> None:
    for game in move_games():
        for action in game.legal_actions():
            if not isinstance(action, (A.MoveFighter, A.MoveShip)):
                continue
            dest = BOARD.describe(game, action)["dest"]
            composed = BOARD.compose_move(game, action.unit, dest["x"], dest["y"], dest["facing"])
            game.check(composed)
            assert BOARD.describe(game, composed)["dest"] == pytest.approx(dest, abs=2e-3)


def test_a_fighter_goes_anywhere_in_its_envelope_and_not_beyond() -> None:
    game = next(g for g in move_games() if g.state.phase == "fighter_move")
    env = next(e for e in BOARD.envelopes(game).values() if e["free"])
    uid = env["unit"]
    unit = next(u for u in BOARD.scene(game, game.current_player())["units"] if u["id"] == uid)
    budget = game.state.types[game.state.units[uid].type].speed
    # Half way to the envelope's edge, somewhere on the table, facing south-west.
    for bearing in range(0, 360, 30):
        x = unit["x"] + 0.5 * budget * math.sin(math.radians(bearing))
        y = unit["y"] - 0.5 * budget * math.cos(math.radians(bearing))
        if not shapes.in_envelope(env["shapes"], x, y):
            continue
        try:
            move = BOARD.compose_move(game, uid, x, y, 225.0)
        except IllegalAction as exc:
            assert "overlap" in str(exc)  # another fighter's base is there
            continue
        after = game.clone()
        after.apply(move)
        moved = next(u for u in BOARD.scene(after, None)["units"] if u["id"] == uid)
        assert (moved["x"], moved["y"]) == pytest.approx((x, y), abs=1e-3)
        assert moved["facing"] == pytest.approx(225.0)
    far_x = unit["x"] + budget + 1
    with pytest.raises(IllegalAction, match="may move"):
        BOARD.compose_move(game, uid, far_x, unit["y"], 0.0)


def test_a_ship_turns_along_two_legs() -> None:
    for game in move_games():
        if game.state.phase != "ship_move":
            continue
        ship_id = next(a.unit for a in game.legal_actions() if isinstance(a, A.MoveShip))
        ship = game.state.units[ship_id]
        turn = game.state.types[ship.type].turn
        speed = game.state.types[ship.type].speed
        if turn is None or speed < turn + 1 or ship.crippled or ship.special:
            continue
        scene_ship = next(u for u in BOARD.scene(game, None)["units"] if u["id"] == ship_id)
        # Straight `turn` inches, then 30 degrees to starboard for one more inch.
        end = ship.pose.forward(turn).turned(-30).forward(1.0)
        if not game.state.table.contains(end.position):
            continue
        x, y = end.position.x, game.state.table.height - end.position.y
        move = BOARD.compose_move(game, ship_id, x, y, (scene_ship["facing"] + 30) % 360)
        assert isinstance(move, A.MoveShip)
        assert [leg.turn for leg in move.legs] == [0.0, -30.0]
        assert [leg.distance for leg in move.legs] == pytest.approx([turn, 1.0], abs=1e-3)
        with pytest.raises(IllegalAction):
            # Facing back the way it came is beyond any ship's turns in one move.
            BOARD.compose_move(game, ship_id, x, y, (scene_ship["facing"] + 180) % 360)
        return
    pytest.fail("no ship could turn in the sampled positions")
