"""The sfa board: the hex map (flat-topped hexes of size 1), craft, missiles, decoys.

Hexes are axial (q, r); the centre of (q, r) is at x = 1.5 q, y = sqrt(3) (r + q / 2)
with y down, and facing f (0 = N, clockwise) is 60 f degrees, as in `geometry.hex`, so
the board needs no flip. What a side may not see never reaches its scene: the scene is
built from `Game.observation(seat)`, which drops the other side's secret selections and
cloaked craft and shows its decoys as craft; a spectator is shown what every side is
shown (the ruleset's observation for None).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import msgspec

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game
from dogfight.core.scene import shapes as S
from dogfight.core.scene.adapter import BoardAdapter
from dogfight.geometry.hex import FractionalHex, Hex, hex_round, straight_line
from dogfight.geometry.hexmap import HexMap
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.actors import actor_key, speed_of, split_key
from dogfight.rulesets.sfa.choices import least_hexes, move_budget
from dogfight.rulesets.sfa.combat import defending_scale, shooter, soak_against, unit_scale
from dogfight.rulesets.sfa.combat import handling as craft_handling
from dogfight.rulesets.sfa.craft import Craft
from dogfight.rulesets.sfa.craft import describe as describe_craft
from dogfight.rulesets.sfa.maneuvers import BACK, TURN_STEPS, trace
from dogfight.rulesets.sfa.odds import attack_damage_odds, sfa_pool
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules
from dogfight.rulesets.sfa.state import CraftState, Selection

ROOT3 = math.sqrt(3.0)
FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
UNIT_RADIUS = 0.5
MISSILE_RADIUS = 0.3
BLOCKING = frozenset({"asteroid"})
"""Terrain drawn as an obstacle (it blocks fire); other kinds are drawn as terrain."""
PLAIN_STEPS = ("F", "t", "T", "h", "H", "V", "l", "r")
"""Steps that take a craft somewhere new (a Loop or a Spin only add modifiers)."""


# ---- coordinates ---------------------------------------------------------------------


def centre(q: int, r: int) -> tuple[float, float]:
    """The board point at the centre of axial hex (q, r)."""
    return round(1.5 * q, 4), round(ROOT3 * (r + q / 2), 4)


def hex_at(x: float, y: float) -> Hex:
    """The hex containing board point (x, y)."""
    q = x / 1.5
    r = y / ROOT3 - q / 2
    return hex_round(FractionalHex(q, r, -q - r))


def corners(q: int, r: int) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex."""
    cx, cy = centre(q, r)
    return [
        (cx + math.cos(math.radians(60 * i)), cy + math.sin(math.radians(60 * i))) for i in range(6)
    ]


def facing_degrees(facing: int) -> float:
    """A hex facing (0 = N, clockwise) in board degrees."""
    return float(60 * (facing % 6))


def nearest_facing(degrees: float) -> int:
    """The hex facing nearest a board angle."""
    return round((degrees % 360.0) / 60.0) % 6


def cell(q: int, r: int, cls: str, title: str | None = None) -> S.Shape:
    """One hex as a polygon."""
    return S.polygon(corners(q, r), cls, title)


def _hex(value: Any) -> Hex:
    return Hex(int(value[0]), int(value[1]))


# ---- what a seat sees ------------------------------------------------------------------


def seen(game: Game, seat: str | None) -> dict[str, Any]:
    """The observation the scene is built from. The ruleset already hides what the seat
    may not see; a spectator (None) is shown what every side is shown (decoys as craft,
    a cloaked craft only where every side has the sensors to see it)."""
    return S.observed(game, seat)


def types_of(game: Game) -> Mapping[str, Craft]:
    """The battle's designs: public data (derived designs included)."""
    types: Mapping[str, Craft] = game.state.types
    return types


# ---- the scene -------------------------------------------------------------------------


MapLayer = tuple[tuple[S.Shape, ...], tuple[float, float, float, float], frozenset[Hex]]
"""A map's drawn hexes, its bounds, and its hexes as a set."""


def _map_layer(obs: Mapping[str, Any]) -> MapLayer:
    """The map part of the scene, made once per map and shared by every view of it
    (the shapes are plain data that nothing changes): drawing a street brawl's few
    hundred hexes was a third of the cost of each view the server built."""
    return _layer_of(msgspec.msgpack.encode(obs["map"]))


@lru_cache(maxsize=64)
def _layer_of(encoded: bytes) -> MapLayer:
    hexmap = msgspec.msgpack.decode(encoded, type=HexMap)
    terrain = hexmap.terrain
    shapes: list[S.Shape] = []
    xs: list[float] = []
    ys: list[float] = []
    for h in hexmap:
        here = terrain.get(h)
        if here is None:
            shapes.append(cell(h.q, h.r, "grid"))
        else:
            title = f"{here.kind}"
            if here.structure:
                title += f" (structure {here.structure})"
            if here.count > 1:
                title += f" x{here.count}"
            shapes.append(cell(h.q, h.r, "obstacle" if here.kind in BLOCKING else "terrain", title))
        cx, cy = centre(h.q, h.r)
        xs.append(cx)
        ys.append(cy)
    bounds = (min(xs) - 1.0, min(ys) - ROOT3 / 2, max(xs) + 1.0, max(ys) + ROOT3 / 2)
    return tuple(shapes), bounds, frozenset(hexmap)


def _map_shapes(obs: Mapping[str, Any]) -> tuple[list[S.Shape], tuple[float, float, float, float]]:
    grid, bounds, _ = _map_layer(obs)
    shapes = list(grid)
    for trail in obs.get("trails", []):
        for h in trail["hexes"]:
            shapes.append(
                cell(
                    int(h[0]),
                    int(h[1]),
                    "trail",
                    f"plasma trail of {trail['owner']} (hot until turn {trail['until']})",
                )
            )
    return shapes, bounds


def _selection_text(obs: Mapping[str, Any], craft_id: str) -> list[str]:
    out = []
    for key, sel in sorted(obs.get("selections", {}).items()):
        cid, station = split_key(key)
        if cid != craft_id:
            continue
        who = "pilot" if station == 0 else f"gunner {station}"
        what = sel["kind"] if not sel["item"] else f"{sel['kind']} {sel['item']}"
        if sel["speed_dice"]:
            what += f" (+{sel['speed_dice']} Speed)"
        speed = obs.get("speeds", {}).get(key)
        out.append(f"{who}: {what}" + (f", Speed {speed}" if speed is not None else ""))
    return out


def _craft_status(obs: Mapping[str, Any], craft: Mapping[str, Any], start: int) -> str:
    parts = [
        f"structure {craft['structure']}/{start}" if start else f"structure {craft['structure']}"
    ]
    parts.append(f"power {craft['power']}")
    parts.append(f"willpower {craft['willpower']}")
    for flag, words in (
        ("disabled", "disabled"),
        ("cloaked", "cloaked"),
        ("force_field", "force field up"),
        ("plasma_field", "plasma field up"),
        ("ramming", "hyper-ram on"),
        ("botched", "botched"),
    ):
        if craft.get(flag):
            parts.append(words)
    if craft.get("stunned"):
        parts.append(f"stunned {craft['stunned']} turn(s)")
    if craft.get("held_by"):
        parts.append(f"held by {craft['held_by']}")
    if craft.get("charging"):
        parts.append(f"charging {craft['charging']}")
    if craft.get("charged"):
        parts.append(f"{craft['charged']} charged")
    if craft.get("maneuver_soak") or craft.get("maneuver_handling"):
        parts.append(
            f"maneuvers: Soak {craft['maneuver_soak']:+d}, Handling {craft['maneuver_handling']:+d}"
        )
    parts += _selection_text(obs, craft["id"])
    return "; ".join(parts)


def _craft_details(craft: Mapping[str, Any], prof: Mapping[str, Any]) -> dict[str, str]:
    pilot = craft["pilot"]
    out = {
        "design": f"{prof['name']} ({prof['scale']})",
        "move": str(prof["move"]),
        "handling": str(prof["handling"]),
        "soak": f"{prof['soak']} (armor {prof['armor']}, shields {prof['shields']})",
        "structure": f"{craft['structure']}/{prof['structure']}",
        "power": f"{craft['power']}/{prof['power']}",
        "pilot": f"{pilot['name']}: Dex {pilot['dexterity']}, Wits {pilot['wits']}, "
        f"Piloting {pilot['piloting']}, Gunnery {pilot['gunnery']}",
    }
    if craft.get("gunners"):
        out["gunners"] = str(len(craft["gunners"]))
    for w in prof["weapons"]:
        count = f"{w['count']} x " if w["count"] > 1 else ""
        out[f"weapon {w['name']}"] = (
            f"{count}attack {w['attack']}, range {w['range']}, speed {w['speed']:+d}, "
            f"arc {w['arc']}"
        )
    if prof["technologies"]:
        out["technologies"] = ", ".join(prof["technologies"])
    return out


def reach_outline(
    cx: float, cy: float, reach: int, facing: float | None = None
) -> list[tuple[float, float]]:
    """The outline of the hexes within `reach` (hex distance) of the hex centred at
    (cx, cy): the hexagon through the centres `reach` hexes away in the six straight
    lines, grown half a hex so those centres lie inside and the next ring's outside (a
    circle would take in some of them). With `facing` (board degrees), only the forward
    half: sextants 5, 0 and 1, the hexes exactly abeam included."""
    radius = reach * ROOT3 + 0.5

    def at(degrees: float, r: float) -> tuple[float, float]:
        a = math.radians(degrees)
        return cx + r * math.sin(a), cy - r * math.cos(a)

    if facing is None:
        return [at(60.0 * k, radius) for k in range(6)]
    # Abeam the outline runs along a side, half way between two corners.
    side = radius * math.cos(math.radians(30.0))
    return [
        (cx, cy),
        at(facing - 90.0, side),
        *(at(facing + turn, radius) for turn in (-60.0, 0.0, 60.0)),
        at(facing + 90.0, side),
    ]


def _craft_overlays(
    craft: Mapping[str, Any], prof: Mapping[str, Any], on_map: frozenset[Hex]
) -> list[S.Shape]:
    here = _hex(craft["hex"])
    cx, cy = centre(here.q, here.r)
    facing = int(craft["facing"])
    out: list[S.Shape] = []
    for w in sorted(prof["weapons"], key=lambda w: -int(w["range"])):
        reach = int(w["range"])
        if reach <= 0:
            continue
        title = f"{w['name']}: {w['arc']} arc, {reach} hexes"
        if w["arc"] == "all":
            out.append(S.polygon(reach_outline(cx, cy, reach), "arc", title))
        elif w["arc"] == "front":
            out.append(
                S.polygon(reach_outline(cx, cy, reach, facing_degrees(facing)), "arc", title)
            )
        else:
            for h in straight_line(here, facing, reach):
                if h in on_map:
                    out.append(cell(h.q, h.r, "arc", title))
    return out


def _scene(game: Game, seat: str | None) -> dict[str, Any]:
    obs = seen(game, seat)
    sides = list(obs["sides"])
    shapes, (x0, y0, x1, y1) = _map_shapes(obs)
    on_map = _map_layer(obs)[2]
    types = types_of(game)
    units: list[dict[str, Any]] = []
    for craft in obs["craft"].values():
        prof = describe_craft(types[craft["type"]])
        here = _hex(craft["hex"])
        x, y = centre(here.q, here.r)
        side = craft["side"]
        start = int(obs.get("start_structure", {}).get(craft["id"], 0))
        units.append(
            {
                "id": craft["id"],
                "side": side,
                "side_index": sides.index(side),
                "type": craft["type"],
                "label": f"{craft['id']} {prof['name']}",
                "x": x,
                "y": y,
                "facing": facing_degrees(int(craft["facing"])),
                "radius": UNIT_RADIUS,
                "status": _craft_status(obs, craft, start),
                "mine": seat is not None and side == seat,
                "details": _craft_details(craft, prof),
                "overlays": _craft_overlays(craft, prof, on_map),
                "hex": [here.q, here.r],
                # A cloaked craft shown to this seat is marked: for its own side it is
                # the reminder that the enemy cannot see it.
                "marks": ["cloaked"] if craft.get("cloaked") else [],
            }
        )
    for decoy in obs.get("decoys", {}).values():
        # Only a side's own decoys are listed as decoys (the other side sees a craft).
        owner = obs["craft"].get(decoy["owner"])
        side = owner["side"] if owner else obs.get("owner", {}).get(decoy["owner"], "")
        if side not in sides:
            continue
        here = _hex(decoy["hex"])
        x, y = centre(here.q, here.r)
        units.append(
            {
                "id": decoy["id"],
                "side": side,
                "side_index": sides.index(side),
                "type": "decoy",
                "label": f"{decoy['id']} decoy of {decoy['owner']}",
                "x": x,
                "y": y,
                "facing": facing_degrees(int(decoy["facing"])),
                "radius": UNIT_RADIUS,
                "status": f"Holo-Projector decoy of {decoy['owner']}",
                "mine": seat is not None and side == seat,
                "details": {"owner": decoy["owner"]},
                "overlays": [],
                "hex": [here.q, here.r],
            }
        )
    for missile in obs.get("missiles", {}).values():
        here = _hex(missile["hex"])
        x, y = centre(here.q, here.r)
        target = obs["craft"].get(missile["target"])
        facing = 0.0
        if target is not None:
            there = _hex(target["hex"])
            tx, ty = centre(there.q, there.r)
            if (tx, ty) != (x, y):
                facing = round(math.degrees(math.atan2(tx - x, -(ty - y))) % 360.0, 3) % 360.0
        kind = {"plasma": "plasma missile", "remote_laser": "remote laser"}.get(
            missile["kind"], "missile"
        )
        units.append(
            {
                "id": missile["id"],
                "side": missile["side"],
                "side_index": sides.index(missile["side"]),
                "type": missile["kind"],
                "label": f"{missile['id']} {kind}",
                "x": x,
                "y": y,
                "facing": facing,
                "radius": MISSILE_RADIUS,
                "status": f"{kind} after {missile['target']}; pool {missile['pool']}, "
                f"structure {missile['structure']}, {missile['life']} hexes left",
                "mine": seat is not None and missile["side"] == seat,
                "details": {"target": missile["target"], "pool": str(missile["pool"])},
                "overlays": [],
                "hex": [here.q, here.r],
            }
        )
    units.sort(key=lambda u: u["id"])
    return {
        "width": round(x1 - x0, 4),
        "height": round(y1 - y0, 4),
        "origin": [round(x0, 4), round(y0, 4)],
        "unit_name": "hex",
        # The page names a facing (a multiple of 60 degrees on the board) as the
        # buttons and the log do.
        "facing_names": list(FACING_NAMES),
        "shapes": shapes,
        "units": units,
    }


# ---- describing actions ------------------------------------------------------------------


def rules_of(game: Game) -> SfaRules:
    """The rule functions of the game's ruleset (a subclass's own, if it has them)."""
    rules = getattr(game.ruleset, "rules", None)
    return rules if isinstance(rules, SfaRules) else SFA_RULES


def _where(h: Hex, facing: int | None = None) -> str:
    text = f"hex ({h.q}, {h.r})"
    return text if facing is None else f"{text} facing {FACING_NAMES[facing % 6]}"


@lru_cache(maxsize=1024)
def _pool_numbers(
    rules: SfaRules, dice: int, willpower: bool, attack_scale: int, target_scale: int, rolls: int
) -> tuple[dict[str, float], float, float]:
    """Damage of `rolls` rolls of one pool (the Willpower success on the first only),
    summed exactly (`odds.attack_damage_odds`); and the botch chance of one roll."""
    total = attack_damage_odds(dice, willpower, attack_scale, target_scale, rolls, rules=rules)
    outcomes = {f"{k} damage": float(p) for k, p in total.items()}
    expected = float(sum((k * p for k, p in total.items()), Fraction(0)))
    return outcomes, expected, float(sfa_pool(dice, rules=rules).botch)


def attack_case(game: Game, action: A.Resolve, obs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The pool a Resolve's attack rolls, as the acting side sees the target: dice,
    Willpower, scales, Soak and how many rolls (fire-linked guns and damage checks each
    roll it again); None when no exact pool prices it (a missile launch, a Temporal
    re-roll, a missile as the target)."""
    state = game.state
    craft_id, station = split_key(action.actor)
    craft = state.craft.get(craft_id)
    selection = state.selections.get(action.actor)
    if craft is None or selection is None or selection.kind != "attack" or not action.target:
        return None
    design = state.type_of(craft)
    weapon = next((w for w in design.weapons if w.name == selection.item), None)
    seen_target = obs["craft"].get(action.target)
    if weapon is None or weapon.guided or seen_target is None or action.reroll:
        return None
    # The target as this side sees it: a decoy looks like its projector, so its odds
    # must too (the engine's own state would give the decoy away).
    target = msgspec.convert(seen_target, CraftState)
    soak = soak_against(state, target, design, action.power, rules=rules_of(game))
    person, skill = shooter(craft, station)
    # The engine's own pool (`rules.attack_dice`, as `combat.roll_attack` rolls it).
    dice = rules_of(game).attack_dice(
        design,
        person.dexterity,
        skill,
        craft_handling(state, craft, rules_of(game)),
        weapon,
        soak,
        speed_dice=selection.speed_dice,
    )
    attack_scale = unit_scale(state, design) if design.fighter is not None else weapon.scale
    return {
        "dice": dice,
        "willpower": action.willpower,
        "attack_scale": attack_scale,
        "target_scale": defending_scale(state, target, design),
        "soak": soak,
        "weapon": weapon.name,
        "rolls": rules_of(game).attack_rolls(weapon),
    }


def attack_odds(game: Game, action: A.Resolve, obs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ODDS of a Resolve's attack (total damage rolled), or None."""
    case = attack_case(game, action, obs)
    if case is None:
        return None
    outcomes, expected, botch = _pool_numbers(
        rules_of(game),
        case["dice"],
        case["willpower"],
        case["attack_scale"],
        case["target_scale"],
        case["rolls"],
    )
    rolls = f"{case['rolls']} rolls of " if case["rolls"] > 1 else ""
    notes = ["a botch (no successes and a 1) costs 2 Speed next turn"]
    if case["rolls"] > 1:
        notes.append("the damage of every roll added up (the target may be wrecked sooner)")
    return {
        "title": f"{case['weapon']}: {rolls}{case['dice']} dice against Soak {case['soak']}: "
        "damage",
        "outcomes": dict(outcomes),
        "expected": expected,
        "facts": {
            "dice": str(case["dice"]),
            "rolls": str(case["rolls"]),
            "soak": str(case["soak"]),
            "botch per roll": f"{100 * botch:.1f}%",
        },
        "notes": notes,
    }


def _describe(game: Game, action: Any, obs: Mapping[str, Any]) -> dict[str, Any]:
    crafts = obs["craft"]
    types = types_of(game)

    def name(cid: str) -> str:
        craft = crafts.get(cid)
        return f"{cid} {types[craft['type']].name}" if craft else cid

    def actor_name(key: str) -> str:
        # an actor is a craft's pilot or one of its gunners: named for people, not by key
        cid, station = split_key(key)
        return name(cid) + ("" if station == 0 else f" gunner {station}")

    out: dict[str, Any] = {
        "kind": type(action).__name__,
        "group": "other",
        "label": type(action).__name__,
        "unit": None,
        "target": None,
        "dest": None,
        "odds": None,
    }
    if isinstance(action, A.Select):
        cid, _ = split_key(action.actor)
        who = actor_name(action.actor)
        what = {
            "none": "no action",
            "extra_move": "Extra Move (3 more hexes)",
        }.get(action.kind, f"{action.kind} {action.item}".strip())
        if action.kind == "equipment":
            what = f"use {action.item.replace('_', ' ')}"
        elif action.kind == "attack":
            what = f"attack with {action.item}"
        # The Speed this selection gives the actor, by the rule's own function: the
        # actor is the deciding seat's own, so its Speed is no secret to it.
        speed = speed_of(
            game.state,
            action.actor,
            Selection(kind=action.kind, item=action.item, speed_dice=action.speed_dice),
        )
        label = f"{who}: select {what}"
        if action.speed_dice:
            label += f" ({action.speed_dice} attack dice traded for Speed)"
        label += f", Speed {speed}"
        # One decision per actor: what it does and how many dice it trades for Speed are
        # two parts of the same secret selection, so all of them share one group, and
        # `choice` lets the page offer the parts as one form (docs/web-api.md).
        choice = {
            "actor": action.actor,
            "who": who,
            "what": what,
            "speed_dice": action.speed_dice,
            "speed": speed,
        }
        out.update(group="secret", unit=cid, label=label, choice=choice)
    elif isinstance(action, A.Interrupt):
        cid, _ = split_key(action.actor)
        speed = obs.get("speeds", {}).get(action.actor)
        out.update(
            group="reaction",
            unit=cid,
            label=f"{actor_name(action.actor)} interrupts now"
            + (f" (Speed {speed})" if speed else ""),
        )
    elif isinstance(action, A.Pass):
        out.update(group="reaction", label="No interrupt now")
    elif isinstance(action, A.Move):
        craft = crafts.get(action.craft)
        label = f"{name(action.craft)}: "
        if craft is not None:
            here, facing = _hex(craft["hex"]), int(craft["facing"])
            if action.dest is not None:
                end, face = action.dest, facing
                label += f"to {_where(end)}"
            elif action.steps:
                path = trace(
                    here, facing, action.steps, 99, min_hexes=0, maneuver=rules_of(game).maneuver
                )
                end, face = path.end, path.facing
                label += f"fly {action.steps} to {_where(end, face)}"
                if path.maneuvers:
                    label += f" ({', '.join(path.maneuvers)})"
            else:
                end, face = here, facing
                label += "hold position"
            x, y = centre(end.q, end.r)
            out["dest"] = {"x": x, "y": y, "facing": facing_degrees(face)}
        if action.abort:
            label += f"; abort to {action.abort.replace('_', ' ')} (1 Willpower)"
        if action.ram:
            label += "; ram the first craft on the way (SFA-COL-1)"
        out.update(group="move", unit=action.craft, label=label)
    elif isinstance(action, A.Resolve):
        cid, _ = split_key(action.actor)
        sel = obs.get("selections", {}).get(action.actor)
        item = (sel or {}).get("item", "")
        kind = (sel or {}).get("kind", "")
        out["unit"] = cid
        if action.target and kind == "attack":
            label = f"{actor_name(action.actor)} fires {item} at {name(action.target)}"
            if action.willpower:
                label += " (1 Willpower: one sure success)"
            if action.power:
                label += f" (Targeting Computer, {action.power} Power)"
            if action.reroll:
                label += " (Temporal Displacement re-roll)"
            out.update(
                group="attack",
                target=action.target,
                label=label,
                odds=attack_odds(game, action, obs),
            )
        elif action.target or action.at is not None or action.form or action.use:
            tech = item.replace("_", " ") or "technology"
            what = f"{actor_name(action.actor)} uses {tech}"
            if action.target:
                what += f" on {name(action.target)}"
                out["target"] = action.target
            if action.at is not None:
                what += f" at {_where(action.at)}"
                x, y = centre(action.at.q, action.at.r)
                out["dest"] = {"x": x, "y": y, "facing": 0.0}
            if action.form:
                what += f", becoming {action.form}"
            if action.power:
                what += f" ({action.power} Power)"
            out.update(group="special", label=what)
        else:
            out.update(group="end", label=f"{actor_name(action.actor)}: hold (resolve nothing)")
    return out


# ---- envelopes and composing moves -----------------------------------------------------


class Plan(msgspec.Struct, frozen=True):
    """The best step string found to an end hex and facing."""

    steps: str
    penalty: int
    """Handling lost to maneuvers (the lower the better)."""


def _blocked(game: Game, obs: Mapping[str, Any], mover: str) -> set[Hex]:
    """Hexes a mover should not fly through, as its side sees the map: other craft it is
    shown (decoys included: to this side they are craft) and, on a Starfighter-scale
    map, not Street Fighters, who take up no room there (SFA-SF-3)."""
    types = types_of(game)
    out = set()
    for craft in obs["craft"].values():
        if craft["id"] == mover:
            continue
        design = types.get(craft["type"])
        if obs.get("map_scale", 1) >= 1 and design is not None and design.fighter is not None:
            continue
        out.add(_hex(craft["hex"]))
    return out


def step_plans(
    start: Hex,
    facing: int,
    budget: int,
    least: int,
    on_map: frozenset[Hex] | None,
    blocked: set[Hex],
    rules: SfaRules = SFA_RULES,
) -> dict[tuple[Hex, int], Plan]:
    """For every end hex and facing a string of steps reaches within `budget` hexes
    (at least `least`), the one losing the least Handling, then the shortest: a
    Dijkstra search over (hex, facing, hexes flown, a forward hex since the last
    maneuver), with the rules of `maneuvers.trace`. Paths stay on the map (unless
    `on_map` is None) and out of `blocked` hexes. Handling lost is `rules.maneuver`'s."""

    def cost(step: str) -> int:
        modifiers = rules.maneuver(step)
        return -modifiers[2] if modifiers is not None else 0

    # Plain (q, r) tuples: this loop runs thousands of times per envelope.
    allowed = None if on_map is None else {(h.q, h.r) for h in on_map}
    walls = {(h.q, h.r) for h in blocked}
    steps_of = [
        (d.q, d.r) for d in (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))
    ]

    def free(q: int, r: int) -> bool:
        return (allowed is None or (q, r) in allowed) and (q, r) not in walls

    best: dict[tuple[int, int, int, int, bool], tuple[int, int]] = {}
    ends: dict[tuple[Hex, int], Plan] = {}
    queue: list[tuple[int, int, str, int, int, int, int, bool]] = []

    def push(penalty: int, steps: str, q: int, r: int, face: int, flown: int, ready: bool) -> None:
        key = (q, r, face, flown, ready)
        rank = (penalty, len(steps))
        if best.get(key, (1 << 30, 0)) <= rank:
            return
        best[key] = rank
        heapq.heappush(queue, (penalty, len(steps), steps, q, r, face, flown, ready))

    push(0, "", start.q, start.r, facing, 0, False)
    while queue:
        penalty, length, steps, q, r, face, flown, ready = heapq.heappop(queue)
        if best[(q, r, face, flown, ready)] < (penalty, length):
            continue  # a better way here was found after this one was queued
        if flown >= least and (Hex(q, r), face) not in ends:
            ends[(Hex(q, r), face)] = Plan(steps, penalty)
        if flown < budget:
            dq, dr = steps_of[face]
            if free(q + dq, r + dr):
                push(penalty, steps + "F", q + dq, r + dr, face, flown + 1, True)
        if not ready:
            continue
        for step in PLAIN_STEPS[1:]:
            paid = penalty + cost(step)
            if step in ("l", "r"):
                dq, dr = steps_of[(face + (-1 if step == "l" else 1)) % 6]
                if flown < budget and free(q + dq, r + dr):
                    push(paid, steps + step, q + dq, r + dr, face, flown + 1, False)
            else:
                push(paid, steps + step, q, r, (face + TURN_STEPS[step]) % 6, flown, False)
        # The travelling Loop: `O` then a `B` per hex flown straight back, facing
        # unchanged (SFA-MOV-4).
        bq, br = steps_of[(face + 3) % 6]
        looping = penalty + cost("O")
        for back in range(1, budget - flown + 1):
            if not free(q + back * bq, r + back * br):
                break
            push(
                looping,
                steps + "O" + BACK * back,
                q + back * bq,
                r + back * br,
                face,
                flown + back,
                False,
            )
    return ends


def _craft_plans(game: Game, craft_id: str) -> dict[tuple[Hex, int], Plan]:
    """Checked step plans for the craft moving now, as its side sees the map (kept
    while the game stands still)."""
    return S.kept(game, ("plans", craft_id), lambda: _find_plans(game, craft_id))


def _find_plans(game: Game, craft_id: str) -> dict[tuple[Hex, int], Plan]:
    state = game.state
    side = game.current_player()
    obs = S.observed(game, side)
    seen_craft = obs["craft"].get(craft_id)
    craft = state.craft.get(craft_id)
    selection: Selection | None = state.selections.get(state.acting)
    if seen_craft is None or craft is None or selection is None:
        return {}
    on_map = _map_layer(obs)[2]
    rules = rules_of(game)
    budget = move_budget(state, craft, selection, rules)
    least = least_hexes(state, craft, selection)
    start, facing = _hex(seen_craft["hex"]), int(seen_craft["facing"])
    blocked = _blocked(game, obs, craft_id)
    plans = step_plans(start, facing, budget, least, on_map, blocked, rules)
    if not plans:
        # Boxed in, a craft still has to fly: then the moves that collide or leave the
        # map are offered (as `legal_actions` does).
        plans = step_plans(start, facing, budget, least, None, set(), rules)
    # The search keeps the movement rules (SFA-MOV-1..3); an equipment selection
    # (Boosters, a doomsday device charging) or a Move 0 craft adds rules of its own,
    # so then each plan is put to the engine's check.
    if selection.kind == "equipment" or state.type_of(craft).move <= 0:
        plans = {
            end: plan
            for end, plan in plans.items()
            if game.is_legal(A.Move(craft=craft_id, steps=plan.steps))
        }
    # Every listed move ends in the envelope, even where the search's own best way there
    # broke an equipment rule, or the list offers a collision because its own choices
    # were all blocked.
    for action in game.legal_actions():
        if isinstance(action, A.Move) and action.craft == craft_id and action.steps:
            if action.abort or action.dest is not None:
                continue
            path = trace(start, facing, action.steps, budget, min_hexes=0, maneuver=rules.maneuver)
            end = (path.end, path.facing)
            if end not in plans:
                plans[end] = Plan(action.steps, -path.handling)
    return plans


def _moving(game: Game) -> str | None:
    """The craft whose move is pending, if its side decides now."""
    state = game.state
    if game.current_player() is None or state.phase != "act" or state.step != "move":
        return None
    return split_key(state.acting)[0]


def _flies(game: Game, craft_id: str, legal: list[A.Move]) -> bool:
    """Whether the moving craft flies a string of steps now (not a Street Fighter, not
    dragged in a Tractor Beam, and some move without a destination hex is legal)."""
    craft = S.observed(game, game.current_player())["craft"].get(craft_id)
    if craft is None or craft.get("held_by"):
        return False
    if types_of(game)[craft["type"]].fighter is not None:
        return False
    return any(a.dest is None and not a.abort for a in legal)


def _dest_hexes(game: Game, craft_id: str, legal: list[A.Move]) -> dict[Hex, A.Move]:
    """Hexes chosen directly (a Street Fighter's move, a Teleport, a Tractor Beam's
    drag), each with its move; a Street Fighter may also stand where it is."""
    out = {a.dest: a for a in legal if a.dest is not None and not a.abort}
    craft = S.observed(game, game.current_player())["craft"].get(craft_id)
    if craft is not None and not _flies(game, craft_id, legal):
        for a in legal:
            if a.dest is None and not a.abort and not a.steps:
                out.setdefault(_hex(craft["hex"]), a)
    return out


def _envelopes(game: Game) -> dict[str, dict[str, Any]]:
    """The moving craft's reachable hexes: each cell lists the facings a move may end
    with there (`facings` on the cell); a Street Fighter, a Teleport or a held craft's
    drag lists the hexes it may go to (cell `facings` null: the facing stays)."""
    craft_id = _moving(game)
    if craft_id is None:
        return {}
    legal = [a for a in game.legal_actions() if isinstance(a, A.Move)]
    shapes: list[S.Shape] = []
    facings: set[float] = set()
    if _flies(game, craft_id, legal):
        by_hex: dict[Hex, list[float]] = {}
        for h, face in _craft_plans(game, craft_id):
            by_hex.setdefault(h, []).append(facing_degrees(face))
        for h, faces in sorted(by_hex.items()):
            names = ", ".join(FACING_NAMES[int(f) // 60] for f in sorted(faces))
            shape = cell(h.q, h.r, "envelope", f"{_where(h)}: facing {names}")
            # Each cell lists the facings a move may end with there.
            shape["facings"] = sorted(faces)
            facings.update(faces)
            shapes.append(shape)
    for h in sorted(_dest_hexes(game, craft_id, legal)):
        # The page names a chosen cell by its title up to the first colon.
        shape = cell(
            h.q, h.r, "envelope", f"{_where(h)}: go there directly (the facing is not chosen)"
        )
        shape["facings"] = None
        shapes.append(shape)
    if not shapes:
        return {}
    return {
        craft_id: {
            "unit": craft_id,
            "shapes": shapes,
            "free": True,
            "facings": sorted(facings) if facings else None,
            # Only a hex chosen directly (cell `facings` null) keeps the craft's facing;
            # when every cell is one, the facing sent to /move is never used.
            "facing": "chosen" if facings else "set_by_move",
        }
    }


def _compose(game: Game, unit: str, x: float, y: float, facing: float) -> A.Move:
    """The Move that takes the moving craft to the hex at (x, y) with the hex facing
    nearest `facing`, losing the least Handling to maneuvers."""
    craft_id = _moving(game)
    if craft_id is None:
        raise IllegalAction("no craft is moving now")
    if unit != craft_id:
        raise IllegalAction(f"{unit} is not the craft moving now; {craft_id} is")
    target = hex_at(x, y)
    face = nearest_facing(facing)
    legal = [a for a in game.legal_actions() if isinstance(a, A.Move)]
    can: list[str] = []
    if _flies(game, unit, legal):
        plans = _craft_plans(game, unit)
        plan = plans.get((target, face))
        if plan is not None:
            move = A.Move(craft=unit, steps=plan.steps)
            game.check(move)
            return move
        can = sorted(FACING_NAMES[f] for h, f in plans if h == target)
    dests = _dest_hexes(game, unit, legal)
    if target in dests:
        return dests[target]
    if dests and not _flies(game, unit, legal):
        # Any hex the rules allow, not only the listed ones.
        move = A.Move(craft=unit, dest=target)
        game.check(move)
        return move
    if can:
        raise IllegalAction(f"{unit} can reach {_where(target)} only facing {', '.join(can)}")
    raise IllegalAction(f"{unit} cannot reach {_where(target)} this move")


class SfaBoard(BoardAdapter):
    """The sfa board, which also names its actors (a craft's pilot or gunner) for the log."""

    def actor_names(self, game: Game, seat: str | None) -> dict[str, str]:
        """Actor key -> the words for it ('R1#0' -> 'R1 Rebel Fighter', 'F1#2' -> 'F1
        Rebel Frigate gunner 2'), for the craft `seat` sees, as it sees them (a decoy is
        named as the craft it pretends to be)."""
        types = types_of(game)
        names: dict[str, str] = {}
        for cid, craft in seen(game, seat).get("craft", {}).items():
            design = types.get(craft.get("type"))
            base = f"{cid} {design.name}" if design is not None else cid
            names[actor_key(cid, 0)] = base
            for station in range(1, len(craft.get("gunners") or ()) + 1):
                names[actor_key(cid, station)] = f"{base} gunner {station}"
        return names


BOARD = SfaBoard(_scene, _describe, _envelopes, _compose)
