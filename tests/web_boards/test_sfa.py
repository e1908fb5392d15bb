"""The sfa board adapter: hex scenes, hidden information, action views with pool odds,
step-string envelopes and composed moves."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from dogfight.core.data import read_yaml
from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game
from dogfight.core.scenario import builtin_scenario_files, load_scenario, scenario_from_raw
from dogfight.core.scene import shapes
from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.actors import speed_of, split_key
from dogfight.rulesets.sfa.board import (
    PLAIN_STEPS,
    attack_case,
    centre,
    hex_at,
    reach_outline,
    step_plans,
)
from dogfight.rulesets.sfa.choices import least_hexes, move_budget
from dogfight.rulesets.sfa.maneuvers import trace
from dogfight.rulesets.sfa.odds import sfa_pool
from dogfight.rulesets.sfa.rules import SFA_RULES
from dogfight.rulesets.sfa.state import Selection
from dogfight.web.boards import board_for

from .contract import check_action_view, check_envelope, check_scene, positions

BOARD = board_for("sfa")
SCENARIOS = [f"sfa/{p.stem}" for p in builtin_scenario_files("sfa")]


def mid_games(name: str, seed: int = 4, steps: int = 150, every: int = 3) -> list[Game]:
    return list(positions(name, seed, steps, every))


@pytest.fixture(scope="module")
def games() -> dict[str, list[Game]]:
    return {name: mid_games(name) for name in SCENARIOS}


def test_every_scenario_has_a_board() -> None:
    assert len(SCENARIOS) >= 7


def test_hex_centres_follow_the_contract_and_round_trip() -> None:
    assert centre(0, 0) == (0.0, 0.0)
    assert centre(2, -1) == pytest.approx((3.0, 0.0))
    assert centre(0, 1) == pytest.approx((0.0, 3**0.5), abs=1e-4)
    for q in range(-3, 4):
        for r in range(-3, 4):
            x, y = centre(q, r)
            assert hex_at(x, y) == Hex(q, r)
            # Anywhere well inside the hex belongs to it.
            assert hex_at(x + 0.6, y - 0.3) == Hex(q, r)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenes_match_the_contract_and_the_state(name: str, games: dict[str, list[Game]]) -> None:
    for game in games[name][::4]:
        state = game.state
        for seat in (*game.sides(), None):
            scene = BOARD.scene(game, seat)
            check_scene(scene, game.sides(), seat)
            assert scene["unit_name"] == "hex"
            cells = [s for s in scene["shapes"] if s["cls"] in ("grid", "obstacle", "terrain")]
            assert len(cells) == len(state.map)
            obstacles = [s for s in scene["shapes"] if s["cls"] == "obstacle"]
            assert len(obstacles) == sum(1 for c in state.map.cells if c.terrain.kind == "asteroid")
            for unit in scene["units"]:
                craft = state.craft.get(unit["id"])
                if craft is None:
                    continue  # a missile or a decoy
                assert (unit["x"], unit["y"]) == pytest.approx(centre(craft.hex.q, craft.hex.r))
                assert unit["facing"] == 60.0 * craft.facing
                assert hex_at(unit["x"], unit["y"]) == craft.hex
            x0 = scene["origin"][0]
            for unit in scene["units"]:
                assert x0 <= unit["x"] <= x0 + scene["width"] or unit["id"] in state.missiles


def test_the_map_is_drawn_once_and_changed_terrain_is_drawn_again() -> None:
    """The scene's hexes are made once per map and shared by every view of it; a map
    whose terrain differs (an asteroid's structure worn down) is drawn afresh."""
    game = Game(load_scenario("sfa/asteroid-field"), seed=1)
    first, second = BOARD.scene(game, None), BOARD.scene(game, game.sides()[0])
    grid = [s for s in first["shapes"] if s["cls"] in ("grid", "obstacle", "terrain")]
    again = [s for s in second["shapes"] if s["cls"] in ("grid", "obstacle", "terrain")]
    assert grid and all(a is b for a, b in zip(grid, again, strict=True))
    # Each hex is the flat-topped hexagon around its centre.
    for cell, h in zip(grid, game.state.map, strict=True):
        cx, cy = centre(h.q, h.r)
        assert [cx + 1.0, cy] == pytest.approx(cell["points"][0], abs=1e-4)
    worn = next(c for c in game.state.map.cells if c.terrain.structure > 1)
    terrain = msgspec.structs.replace(worn.terrain, structure=worn.terrain.structure - 1)
    changed = game.clone()
    changed.state.map = game.state.map.with_terrain(worn.hex, terrain)

    def title_at(scene: dict[str, Any]) -> str:
        x, y = centre(worn.hex.q, worn.hex.r)
        found = [
            s
            for s in scene["shapes"]
            if s["cls"] == "obstacle"
            and s["points"][0][0] == pytest.approx(x + 1.0)
            and s["points"][0][1] == pytest.approx(y)
        ]
        return str(found[0]["title"])

    assert title_at(first) == f"{worn.terrain.kind} (structure {worn.terrain.structure})"
    assert title_at(BOARD.scene(changed, None)) == f"{terrain.kind} (structure {terrain.structure})"


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_legal_action_gets_a_label_and_a_group(
    name: str, games: dict[str, list[Game]]
) -> None:
    kinds = set()
    for game in games[name]:
        parts: dict[tuple[str, str, int], A.Select] = {}
        for action in game.legal_actions():
            view = BOARD.describe(game, action)
            check_action_view(view)
            kinds.add(view["kind"])
            if isinstance(action, A.Select):
                # one form per actor: what it does and the dice it trades for Speed
                assert view["group"] == "secret"
                choice = view["choice"]
                assert choice["actor"] == action.actor
                assert choice["speed_dice"] == action.speed_dice
                # the Speed shown is the rule's own (SFA-SEQ-2), for this very selection
                selection = Selection(
                    kind=action.kind, item=action.item, speed_dice=action.speed_dice
                )
                assert choice["speed"] == speed_of(game.state, action.actor, selection)
                assert f"Speed {choice['speed']}" in view["label"]
                assert choice["who"] in view["label"] and choice["what"] in view["label"]
                # the two parts name exactly one listed selection
                key = (choice["actor"], choice["what"], choice["speed_dice"])
                assert key not in parts, (parts.get(key), action)
                parts[key] = action
            else:
                assert "choice" not in view
            if isinstance(action, A.Move):
                assert view["group"] == "move" and view["dest"] is not None
    assert {"Select", "Move"} <= kinds


def test_attack_odds_use_the_engines_pool() -> None:
    checked = 0
    cases = [(n, seed) for seed in range(1, 6) for n in ("sfa/fighter-duel", "sfa/asteroid-field")]
    for name, seed in cases:
        if checked > 8:
            break
        for game in positions(name, seed, 300, 1, player="heuristic"):
            for action in game.legal_actions():
                if not (isinstance(action, A.Resolve) and action.target):
                    continue
                view = BOARD.describe(game, action)
                obs = game.observation(game.current_player())
                case = attack_case(game, action, obs)
                if case is None:
                    continue
                # The pool is the one the engine rolls for this very action.
                events = game.clone().apply(action)
                rolled = [
                    e.data["dice"] for e in events if e.clause == "SFA-ATK-1" and "dice" in e.data
                ]
                if action.target not in game.state.craft:
                    continue  # a decoy: the engine shows it up without rolling
                assert rolled == [case["dice"]] * len(rolled)
                assert 1 <= len(rolled) <= case["rolls"]  # a wreck stops the later rolls
                first = _damage(sfa_pool(case["dice"], willpower=action.willpower), case, True)
                later = _damage(sfa_pool(case["dice"]), case, False)
                expected = first
                for _ in range(case["rolls"] - 1):
                    expected = _convolve(expected, later)
                assert view["odds"]["outcomes"] == pytest.approx(
                    {f"{k} damage": v for k, v in expected.items()}
                )
                checked += 1
    assert checked > 5


def _damage(pool: Any, case: dict[str, Any], bought: bool) -> dict[int, float]:
    """Damage of one roll as the engine deals it (SFA-ATK-5: a bought success does 1)."""
    out: dict[int, float] = {}
    for net, p in pool.net.items():
        dealt = SFA_RULES.attack_damage(
            net, case["attack_scale"], case["target_scale"], willpower=bought and case["willpower"]
        )
        out[dealt] = out.get(dealt, 0.0) + float(p)
    return out


def _convolve(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


# ---- hidden information -----------------------------------------------------------------


def test_a_secret_selection_never_reaches_the_other_side_or_a_spectator() -> None:
    checked = 0
    for name in SCENARIOS:
        for game in mid_games(name, seed=8, steps=120, every=1):
            legal = game.legal_actions()
            selects = [a for a in legal if isinstance(a, A.Select)]
            if len(selects) < 2:
                continue
            side = game.current_player()
            assert side is not None
            other = game.state.other(side)
            views = {}
            for choice in selects:
                after = game.clone()
                after.apply(choice)
                if after.state.phase != "select":
                    continue  # the last selection: all are revealed at once
                theirs = json.dumps(BOARD.scene(after, other), sort_keys=True)
                public = json.dumps(BOARD.scene(after, None), sort_keys=True)
                views[choice] = (theirs, public)
                assert choice.item == "" or choice.item not in _status_of(after, other, choice)
            # Whatever was chosen, the other side and a spectator see the same board.
            if len(views) >= 2:
                assert len(set(views.values())) == 1, name
                checked += 1
            if checked >= 12:
                return
    assert checked >= 3


def _status_of(game: Game, seat: str, choice: A.Select) -> str:
    craft_id = split_key(choice.actor)[0]
    scene = BOARD.scene(game, seat)
    return " ".join(u["status"] for u in scene["units"] if u["id"] == craft_id)


def _cloak_game() -> Game:
    """tech-melee without the Wardens' Enhanced Sensors (W3), played until the Corsairs'
    C2 has cloaked: its stealth is chosen whenever offered and switched on when
    resolved; otherwise seeded random play."""
    path = next(p for p in builtin_scenario_files("sfa") if p.stem == "tech-melee")
    raw = read_yaml(path)
    for side in raw["sides"]:
        side["craft"] = [u for u in side["craft"] if u["id"] != "W3"]
    game = Game(scenario_from_raw(raw, str(path)), seed=2)
    rng = random.Random(2)
    for _ in range(600):
        if any(c.cloaked for c in game.state.craft.values()):
            return game
        legal = game.legal_actions()
        if not legal:
            break

        def wanted(a: Any) -> bool:
            if isinstance(a, A.Select):
                return a.actor.startswith("C2#") and a.item == "stealth"
            if isinstance(a, A.Move):
                return a.craft == "C2" and not a.abort  # an abort would drop the stealth
            return isinstance(a, A.Resolve) and a.use and a.actor.startswith("C2#")

        chosen = [a for a in legal if wanted(a)]
        game.apply(chosen[0] if chosen else legal[rng.randrange(len(legal))])
    pytest.fail("no craft cloaked")


def test_a_cloaked_craft_is_not_shown_to_the_other_side_or_a_spectator() -> None:
    game = _cloak_game()
    cloaked = next(c for c in game.state.craft.values() if c.cloaked)
    owner, other = cloaked.side, game.state.other(cloaked.side)
    here = centre(cloaked.hex.q, cloaked.hex.r)
    mine = BOARD.scene(game, owner)
    assert any(u["id"] == cloaked.id and "cloaked" in u["status"] for u in mine["units"])
    for seat in (other, None):
        scene = BOARD.scene(game, seat)
        text = json.dumps(scene)
        assert f'"{cloaked.id}"' not in text
        at_its_hex = [u for u in scene["units"] if (u["x"], u["y"]) == pytest.approx(here)]
        assert not [u for u in at_its_hex if u["side"] == owner and u["type"] == cloaked.type]


# ---- envelopes and composing moves -----------------------------------------------------


def move_games(names: list[str] | None = None, per_scenario: int = 4) -> list[Game]:
    out = []
    for name in names or SCENARIOS:
        found = 0
        for game in mid_games(name, seed=3, steps=200, every=1):
            if game.state.step == "move" and any(
                isinstance(a, A.Move) for a in game.legal_actions()
            ):
                out.append(game)
                found += 1
                if found >= per_scenario:
                    break
    return out


def test_envelopes_hold_every_listed_move_and_compose_back() -> None:
    games = move_games()
    assert len(games) > 10
    for game in games:
        envelopes = BOARD.envelopes(game)
        assert len(envelopes) == 1
        ((uid, env),) = envelopes.items()
        check_envelope(uid, env)
        assert env["free"]
        chosen = any(cell["facings"] is not None for cell in env["shapes"])
        assert env["facing"] == ("chosen" if chosen else "set_by_move")
        for action in game.legal_actions():
            if not isinstance(action, A.Move) or action.abort:
                continue
            dest = BOARD.describe(game, action)["dest"]
            holding = [s for s in env["shapes"] if shapes.contains(s, dest["x"], dest["y"], 0.0)]
            assert holding, (action, dest)
            cell = holding[0]
            if cell["facings"] is not None:
                assert dest["facing"] in cell["facings"]
            composed = BOARD.compose_move(game, uid, dest["x"], dest["y"], dest["facing"])
            game.check(composed)
            assert BOARD.describe(game, composed)["dest"] == dest


def test_envelope_cells_are_exactly_where_legal_step_strings_end() -> None:
    game = next(g for g in move_games(["sfa/fighter-duel"]))
    state = game.state
    craft_id = split_key(state.acting)[0]
    craft = state.craft[craft_id]
    selection = state.selections[state.acting]
    budget, least = move_budget(state, craft, selection), least_hexes(state, craft, selection)
    others = {c.hex for c in state.craft.values() if c.id != craft_id}
    # Brute force: every string of steps up to the longest that could matter.
    reached: set[tuple[Hex, int]] = set()
    frontier = [""]
    for _ in range(2 * budget + 1):
        grown = []
        for steps in frontier:
            for step in PLAIN_STEPS:
                path = trace(craft.hex, craft.facing, steps + step, budget, min_hexes=0)
                if path.problem:
                    continue
                if any(h not in state.map or h in others for h in path.hexes):
                    continue
                grown.append(steps + step)
                if len(path.hexes) >= least:
                    reached.add((path.end, path.facing))
        frontier = grown
    plans = step_plans(craft.hex, craft.facing, budget, least, frozenset(state.map), others)
    assert set(plans) == reached
    (env,) = BOARD.envelopes(game).values()
    drawn = {
        (hex_at(sum(p[0] for p in s["points"]) / 6, sum(p[1] for p in s["points"]) / 6), f)
        for s in env["shapes"]
        for f in s["facings"]
    }
    assert drawn == {(h, 60.0 * f) for h, f in reached}


def test_a_move_beyond_the_envelope_is_refused() -> None:
    game = next(g for g in move_games(["sfa/fighter-duel"]))
    ((uid, env),) = BOARD.envelopes(game).items()
    far = max(env["shapes"], key=lambda s: s["points"][0][0])
    x = max(p[0] for p in far["points"]) + 3.0
    y = sum(p[1] for p in far["points"]) / 6
    assert not shapes.in_any(env["shapes"], x, y)
    with pytest.raises(IllegalAction, match="cannot reach"):
        BOARD.compose_move(game, uid, x, y, 0.0)
    other = next(c for c in game.state.craft if c != uid)
    with pytest.raises(IllegalAction, match="not the craft moving now"):
        BOARD.compose_move(game, other, x, y, 0.0)


def test_every_listed_move_composes_in_a_long_melee() -> None:
    """tech-melee brings Boosters (the boosted hexes must be flown straight) and crowded
    moves where the list offers collisions: every listed move still composes."""
    boosted = 0
    for seed in (11, 12):
        for game in positions("sfa/tech-melee", seed, 100, 1):
            if game.state.step != "move":
                continue
            selection = game.state.selections[game.state.acting]
            boosted += selection.item == "boosters"
            for action in game.legal_actions():
                if not isinstance(action, A.Move) or action.abort:
                    continue
                dest = BOARD.describe(game, action)["dest"]
                composed = BOARD.compose_move(
                    game, action.craft, dest["x"], dest["y"], dest["facing"]
                )
                game.check(composed)
    assert boosted > 0


def test_a_street_fighter_envelope_says_the_facing_is_not_chosen() -> None:
    """Street Fighters move to a chosen hex keeping their facing: the envelope says the
    move sets it, and the facing sent is ignored."""
    checked = 0
    for game in move_games(["sfa/street-brawl"]):
        ((uid, env),) = BOARD.envelopes(game).items()
        if env["facing"] != "set_by_move":
            continue
        assert all(cell["facings"] is None for cell in env["shapes"])
        for cell in env["shapes"][:5]:
            x = sum(p[0] for p in cell["points"]) / len(cell["points"])
            y = sum(p[1] for p in cell["points"]) / len(cell["points"])
            north, south = (BOARD.compose_move(game, uid, x, y, f) for f in (0.0, 180.0))
            assert north == south
            after = game.clone()
            after.apply(north)
            assert after.state.craft[uid].facing == game.state.craft[uid].facing
        checked += 1
    assert checked >= 2


def test_every_envelope_cell_names_its_hex_before_a_colon() -> None:
    """The page names a chosen cell by its title up to the first colon ("to hex (q, r)"
    came out as "to to hex (q, r)"), so every cell, a Street Fighter's included, must
    start with its own hex."""
    cells = 0
    for game in move_games(["sfa/street-brawl", "sfa/fighter-duel"]):
        for env in BOARD.envelopes(game).values():
            for cell in env["shapes"]:
                x = sum(p[0] for p in cell["points"]) / len(cell["points"])
                y = sum(p[1] for p in cell["points"]) / len(cell["points"])
                h = hex_at(x, y)
                assert cell["title"].split(":")[0] == f"hex ({h.q}, {h.r})"
                cells += cell["facings"] is None
    assert cells > 0


def test_range_overlays_hold_the_hexes_in_range_and_no_others() -> None:
    """A weapon's drawn reach covers the centre of every hex its range (hex distance,
    SFA-ATK-2) and arc allow, and of no hex beyond: a circle through the centres straight
    ahead also took in hexes one beyond range off those lines."""
    from dogfight.geometry.hex import FRONT_ARC, in_arc

    checked = 0
    for name in SCENARIOS:
        game = Game(load_scenario(name), seed=1)
        scene = BOARD.scene(game, None)
        hexes = list(game.state.map)
        for unit in scene["units"]:
            craft = game.state.craft.get(unit["id"])
            if craft is None:
                continue
            design = game.state.type_of(craft)
            if design.fighter is not None:
                continue
            here = craft.hex
            for weapon in design.weapons:
                if weapon.arc not in ("all", "front") or weapon.range <= 0:
                    continue
                drawn = [s for s in unit["overlays"] if s["title"].startswith(f"{weapon.name}:")]
                for h in hexes:
                    if h == here:
                        continue
                    wanted = here.distance(h) <= weapon.range and (
                        weapon.arc == "all" or in_arc(here, craft.facing, h, FRONT_ARC)
                    )
                    assert shapes.in_any(drawn, *centre(h.q, h.r)) == wanted, (name, weapon, h)
                checked += 1
    assert checked >= 3


def test_a_reach_outline_is_the_hexes_in_range_and_arc() -> None:
    """`reach_outline` for every facing and range: the centres inside are exactly the
    hexes within range, all round or in the forward half (FRONT_ARC)."""
    from dogfight.geometry.hex import FRONT_ARC, in_arc

    origin = Hex(1, -2)
    cx, cy = centre(origin.q, origin.r)
    near = [Hex(q, r) for q in range(-12, 14) for r in range(-14, 12) if Hex(q, r) != origin]
    for reach in range(1, 10):
        for facing in (None, 0, 1, 2, 3, 4, 5):
            degrees = None if facing is None else 60.0 * facing
            outline = shapes.polygon(reach_outline(cx, cy, reach, degrees), "arc")
            for h in near:
                wanted = origin.distance(h) <= reach and (
                    facing is None or in_arc(origin, facing, h, FRONT_ARC)
                )
                assert shapes.contains(outline, *centre(h.q, h.r)) == wanted, (reach, facing, h)
