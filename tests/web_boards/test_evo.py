"""The evo board adapter: scenes, action views, envelopes and composed manoeuvres."""

from __future__ import annotations

import math

import pytest

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game
from dogfight.core.scenario import builtin_scenario_files
from dogfight.core.scene import shapes
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.board import odds_range, shot_case
from dogfight.rulesets.evo.odds import evo_attack
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.web.boards import board_for

from .contract import check_action_view, check_envelope, check_scene, positions

BOARD = board_for("evo")
SCENARIOS = [f"evo/{p.stem}" for p in builtin_scenario_files("evo")]


def mid_games(name: str, seed: int = 5, steps: int = 120, every: int = 2) -> list[Game]:
    return list(positions(name, seed, steps, every))


@pytest.fixture(scope="module")
def games() -> dict[str, list[Game]]:
    return {name: mid_games(name) for name in SCENARIOS}


def test_every_scenario_has_a_board() -> None:
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenes_match_the_contract_and_the_state(name: str, games: dict[str, list[Game]]) -> None:
    for game in games[name][::3]:
        state = game.state
        for seat in (*game.sides(), None):
            scene = BOARD.scene(game, seat)
            check_scene(scene, game.sides(), seat)
            assert {u["id"] for u in scene["units"]} == set(state.models)
            for unit in scene["units"]:
                model = state.models[unit["id"]]
                assert unit["flight"] == model.unit
                assert (unit["x"], unit["y"]) == pytest.approx(
                    (model.pose.position.x, state.table.height - model.pose.position.y)
                )
                expected = (90 - model.pose.heading) % 360
                gap = abs(unit["facing"] - expected)
                assert min(gap, 360 - gap) < 1e-6
                leader = state.flights[model.unit].leader == model.id
                assert any(s["cls"] == "command" for s in unit["overlays"]) == leader


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
            if isinstance(action, A.Manoeuvre):
                assert view["group"] == "move" and view["dest"] is not None
            if isinstance(action, A.Shoot):
                assert view["group"] == "attack" and view["target"] == action.target
    assert {"Activate", "Manoeuvre", "EndActivation"} <= kinds


def test_shoot_odds_are_the_odds_modules_numbers() -> None:
    priced = 0
    for name in SCENARIOS:
        for game in mid_games(name, seed=9, steps=200, every=1):
            for action in game.legal_actions():
                if not isinstance(action, A.Shoot | A.React):
                    continue
                odds = BOARD.describe(game, action)["odds"]
                case = shot_case(
                    game, action.unit, action.target, reaction=isinstance(action, A.React)
                )
                if case is None:
                    assert odds is None  # several kinds of gun bear: no exact table
                    continue
                expected = evo_attack(
                    case["firer"],
                    case["weapon"],
                    case["target"],
                    game.options,
                    range_inches=case["dist"],
                    six=case["six"],
                    models=case["models"],
                    firers=case["firers"],
                )
                assert odds["outcomes"] == {
                    f"{k} removed": float(p) for k, p in expected.odds.items()
                }
                assert odds["expected"] == pytest.approx(float(expected.expected))
                priced += 1
    assert priced > 5


def test_the_shared_odds_range_prices_like_the_true_range() -> None:
    game = next(g for g in mid_games("evo/stealth-ambush") if g.state.types)
    types = game.state.types
    nial, aurora = types["nial"], types["starfury-aurora"]
    weapon = aurora.weapons[0]
    close = float(game.options["close_range"])
    for dist in (0.5, close, close + 0.5, weapon.range):
        true = evo_attack(aurora, weapon.name, nial, game.options, range_inches=dist)
        shared = evo_attack(
            aurora,
            weapon.name,
            nial,
            game.options,
            range_inches=odds_range(EvoRules(), dist, close, weapon.range),
        )
        assert true.odds == shared.odds
    # Beyond close range the Nial's stealth raises its Target: the odds do differ.
    near = evo_attack(aurora, weapon.name, nial, game.options, range_inches=close)
    far = evo_attack(aurora, weapon.name, nial, game.options, range_inches=close + 1)
    assert near.odds != far.odds


def manoeuvre_games() -> list[Game]:
    out = []
    for name in SCENARIOS:
        for game in mid_games(name, seed=2, steps=160, every=1):
            if any(isinstance(a, A.Manoeuvre) for a in game.legal_actions()):
                out.append(game)
    return out


def test_envelopes_hold_every_listed_manoeuvre_and_compose_back() -> None:
    games = manoeuvre_games()
    assert len(games) > 3
    for game in games:
        envelopes = BOARD.envelopes(game)
        for uid, env in envelopes.items():
            check_envelope(uid, env)
        for action in game.legal_actions():
            if not isinstance(action, A.Manoeuvre):
                continue
            dest = BOARD.describe(game, action)["dest"]
            env = envelopes[action.unit]
            assert env["free"] and env["facings"] is None
            assert shapes.in_any(env["shapes"], dest["x"], dest["y"])
            composed = BOARD.compose_move(game, action.unit, dest["x"], dest["y"], 0.0)
            assert composed == action
            # the facing is the course change's, never the one sent (EVO-MOV-3) ...
            assert env["facing"] == "set_by_move"
            assert BOARD.compose_move(game, action.unit, dest["x"], dest["y"], 217.0) == action
            # ... and the page can tell it: the bearing from `facing_from` to the end point
            fx, fy = env["facing_from"]
            # (a net move of course_min_move or less keeps the old facing)
            if math.hypot(dest["x"] - fx, dest["y"] - fy) > max(env["facing_min_move"], 0.01):
                assert angle_gap(bearing(fx, fy, dest["x"], dest["y"]), dest["facing"]) < 0.01


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """Board degrees clockwise from up, from (x0, y0) towards (x1, y1) (y grows down)."""
    return math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360.0


def angle_gap(a: float, b: float) -> float:
    gap = abs(a - b) % 360.0
    return min(gap, 360.0 - gap)


def test_a_flight_keeps_formation_anywhere_in_its_envelope() -> None:
    game = manoeuvre_games()[0]
    (uid, env), *_ = BOARD.envelopes(game).items()
    circle = env["shapes"][0]
    before = {u["id"]: u for u in BOARD.scene(game, None)["units"] if u["flight"] == uid}
    x, y = circle["x"] + 0.6 * circle["r"], circle["y"] + 0.3 * circle["r"]
    move = BOARD.compose_move(game, uid, x, y, 123.0)
    assert isinstance(move, A.Manoeuvre)
    acting = set(game.state.flights[uid].acting)
    assert {m.model for m in move.moves} == acting
    after = game.clone()
    after.apply(move)
    moved = {u["id"]: u for u in BOARD.scene(after, None)["units"]}
    dx, dy = x - circle["x"], y - circle["y"]
    # the leading model ends facing away from its start point, as the envelope tells
    leader = min(
        acting,
        key=lambda m: (before[m]["x"] - circle["x"]) ** 2 + (before[m]["y"] - circle["y"]) ** 2,
    )
    if leader in moved:
        fx, fy = env["facing_from"]
        assert angle_gap(moved[leader]["facing"], bearing(fx, fy, x, y)) < 0.5
        assert angle_gap(moved[leader]["facing"], 123.0) > 1.0
    for mid in acting:
        if mid in moved and 0 < moved[mid]["x"] < 48 and 0 < moved[mid]["y"] < 48:
            # Nudged back only if it would end on another base (EVO-MOV-5).
            assert (moved[mid]["x"], moved[mid]["y"]) == pytest.approx(
                (before[mid]["x"] + dx, before[mid]["y"] + dy), abs=0.15
            )
    with pytest.raises(IllegalAction, match="per manoeuvre"):
        BOARD.compose_move(game, uid, circle["x"] + circle["r"] + 0.5, circle["y"], 0.0)
