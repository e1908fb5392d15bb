"""The acta board: the free table in inches, ships and fighters on round bases.

The table's origin is its lower-left corner with y up and headings anticlockwise from
east; the board's is the top-left corner with y down and facings clockwise from north.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import msgspec

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game
from dogfight.core.scene import shapes as S
from dogfight.core.scene.adapter import BoardAdapter
from dogfight.core.scene.frame import Frame, frame_of, pose_of, table_shapes
from dogfight.geometry import Pose, Vec2, in_contact, normalise_angle
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.movement import stacking_discs
from dogfight.rulesets.acta.odds import acta_attack, acta_dogfight
from dogfight.rulesets.acta.rules import ARC_RANGES, ActaRules
from dogfight.rulesets.acta.units import UnitType
from dogfight.rulesets.acta.units import describe as describe_type

if TYPE_CHECKING:
    from dogfight.rulesets.acta.ruleset import ActaRuleset

_BASE_RULES = ActaRules()
NEAR = 0.05
"""Inches within which a chosen point is taken to be a listed move's destination."""
FACING_SLACK = 1.0
"""Degrees within which a chosen facing is taken to be a listed move's end facing."""


# ---- unit types (public catalog data) --------------------------------------------------


def unit_types(game: Game) -> Mapping[str, UnitType]:
    """The battle's unit types. Types are public (anyone may read the catalog), so this
    is the one place the adapter reads the state rather than an observation."""
    types: Mapping[str, UnitType] = game.state.types
    return types


def rules_of(game: Game) -> ActaRules:
    """The rule functions of the game's ruleset (a subclass may override some)."""
    return cast("ActaRuleset", game.ruleset).rules


def profile(game: Game, type_id: str) -> dict[str, Any]:
    """A unit type's public profile as `dogfight show` gives it, from the battle's own
    type table (a scenario may bring designs the catalog does not have)."""
    return describe_type(unit_types(game)[type_id])


# ---- coordinates -----------------------------------------------------------------------


# ---- the scene -------------------------------------------------------------------------


def _touching(a: Mapping[str, Any], ra: float, b: Mapping[str, Any], rb: float) -> bool:
    """Base contact of two observed units, as the engine judges it (ACTA-DOG-1)."""
    return in_contact(pose_of(a).position, ra, pose_of(b).position, rb)


def _status(unit: Mapping[str, Any], prof: Mapping[str, Any], engaged: list[str]) -> str:
    parts = [f"damage {unit['damage']}/{prof['damage']}"]
    if prof.get("shields"):
        parts.append(f"shields {unit['shields']}/{prof['shields']}")
    if unit["crippled"]:
        parts.append("crippled")
    if unit["criticals"]:
        parts.append(
            "criticals " + ", ".join(f"{k} {v}" for k, v in sorted(unit["criticals"].items()))
        )
    if engaged:
        parts.append("in a dogfight with " + ", ".join(engaged))
    if unit["supporting"]:
        parts.append(f"supporting {unit['supporting']}")
    if unit["on_defensive_fire"]:
        parts.append("on defensive fire")
    if unit["special"]:
        parts.append(unit["special"])
    if unit["dogfight_drones"]:
        parts.append("dogfight drones")
    if unit["aboard"]:
        parts.append(f"{len(unit['aboard'])} fighters aboard")
    if unit["fired"]:
        parts.append("fired " + ", ".join(unit["fired"]))
    return "; ".join(parts)


def _details(unit: Mapping[str, Any], prof: Mapping[str, Any]) -> dict[str, str]:
    turn = prof["turn"]
    out = {
        "type": f"{prof['name']} ({prof['kind']})",
        "speed": f'{prof["speed"]:g}"',
        "turn": "SM" if turn in (None, "SM") else f'{turn}"',
        "damage": f"{unit['damage']}/{prof['damage']}",
    }
    if prof["kind"] == "fighter":
        out["dogfight"] = f"{prof['dogfight']:+d}"
    else:
        out["shields"] = f"{unit['shields']}/{prof['shields']}"
        out["crew"] = str(unit["crew"])
        if prof["craft"]:
            aboard: dict[str, int] = {}
            for ftype in unit["aboard"]:
                aboard[ftype] = aboard.get(ftype, 0) + 1
            out["aboard"] = ", ".join(f"{n} {t}" for t, n in sorted(aboard.items())) or "none"
    if prof["traits"]:
        out["traits"] = ", ".join(prof["traits"])
    for w in prof["weapons"]:
        arc = w["arc"] or "-"
        traits = f" {', '.join(w['traits'])}" if w["traits"] else ""
        out[f"weapon {w['name']}"] = f'{w["range"]:g}" {arc} {w["ad"]} AD{traits}'
    return out


def _overlays(
    unit: Mapping[str, Any],
    prof: Mapping[str, Any],
    bx: float,
    by: float,
    facing: float,
    missing_arc: str,
) -> list[S.Shape]:
    out: list[S.Shape] = []
    fighter = prof["kind"] == "fighter"
    radius = float(prof["base_radius"])
    # Ranges are measured from a fighter's base edge (ACTA-GEN-2), so its arcs reach further.
    grown = radius if fighter else 0.0
    grouped: dict[tuple[str, float], list[str]] = {}
    for w in prof["weapons"]:
        if unit["dogfight_drones"] and w.get("dogfight_drones"):
            continue
        code = w["arc"] or missing_arc
        grouped.setdefault((code, float(w["range"])), []).append(w["name"])
    for (code, reach), names in sorted(grouped.items(), key=lambda kv: -kv[0][1]):
        arc = ARC_RANGES[code]
        title = f'{", ".join(names)}: {code} arc, {reach:g}"'
        out.append(S.arc_wedge(bx, by, reach + grown, facing, arc.start, arc.end, "arc", title))
    return out


def _scene(game: Game, seat: str | None) -> dict[str, Any]:
    obs = S.observed(game, seat)
    frame = frame_of(obs)
    sides = list(obs["sides"])
    units = list(obs["units"].values())
    profiles = {u["type"]: profile(game, u["type"]) for u in units}
    radius = {u["id"]: float(profiles[u["type"]]["base_radius"]) for u in units}
    missing_arc = str(obs["options"].get("missing_arc", "T"))
    w, h = frame.width, frame.height
    shapes = table_shapes(frame)
    out_units = []
    for unit in sorted(units, key=lambda u: u["id"]):
        prof = profiles[unit["type"]]
        pose = pose_of(unit)
        bx, by = frame.to_board(pose.position.x, pose.position.y)
        facing = S.board_facing(pose.heading)
        engaged = []
        if prof["kind"] == "fighter":
            engaged = [
                e["id"]
                for e in units
                if e["side"] != unit["side"]
                and profiles[e["type"]]["kind"] == "fighter"
                and _touching(unit, radius[unit["id"]], e, radius[e["id"]])
            ]
        out_units.append(
            {
                "id": unit["id"],
                "side": unit["side"],
                "side_index": sides.index(unit["side"]),
                "type": unit["type"],
                "label": f"{unit['id']} {prof['name']}",
                "x": bx,
                "y": by,
                "facing": facing,
                "radius": radius[unit["id"]],
                "status": _status(unit, prof, engaged),
                "mine": seat is not None and unit["side"] == seat,
                "details": _details(unit, prof),
                "overlays": _overlays(unit, prof, bx, by, facing, missing_arc),
            }
        )
    return {
        "width": w,
        "height": h,
        "origin": [0.0, 0.0],
        "unit_name": "inch",
        "shapes": shapes,
        "units": out_units,
    }


# ---- describing actions ------------------------------------------------------------------


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


@lru_cache(maxsize=4096)
def _attack_odds(
    firer: UnitType,
    weapon: str,
    target: UnitType,
    options: tuple[tuple[str, Any], ...],
    dist: float,
    moved: bool,
    rules: ActaRules,
) -> dict[str, Any]:
    result = acta_attack(
        firer, weapon, target, dict(options), range_inches=dist, moved=moved, rules=rules
    )
    outcomes = {f"{k} damage": float(p) for k, p in result.odds.items()}
    return {
        "title": f'{weapon} at {target.name}, range {dist:.1f}": damage done',
        "outcomes": outcomes,
        "expected": float(result.expected),
        "facts": {k: str(v) for k, v in result.facts.items()},
        "notes": list(result.notes),
    }


@lru_cache(maxsize=1024)
def _dogfight_odds(
    attacker: UnitType,
    defender: UnitType,
    options: tuple[tuple[str, Any], ...],
    drones: tuple[bool, bool],
    names: tuple[str, str],
    rules: ActaRules,
) -> dict[str, Any]:
    result = acta_dogfight(
        attacker,
        defender,
        dict(options),
        attacker_drones=drones[0],
        defender_drones=drones[1],
        rules=rules,
    )
    outcomes = {
        f"{names[0]} wins": float(result.attacker_wins),
        f"{names[1]} wins": float(result.defender_wins),
    }
    if result.tie:
        outcomes["tie: both stay locked"] = float(result.tie)
    return {
        "title": f"dogfight {names[0]} v {names[1]} (before supporters are named)",
        "outcomes": outcomes,
        "expected": None,
        "notes": list(result.notes),
    }


def measure(
    a: Mapping[str, Any],
    ra: float,
    a_fighter: bool,
    b: Mapping[str, Any],
    rb: float,
    b_fighter: bool,
    rules: ActaRules | None = None,
) -> float:
    """Range between two observed units, from a fighter's base edge
    (`ActaRules.range_between`, ACTA-GEN-2)."""
    centres = pose_of(a).position.distance(pose_of(b).position)
    return (rules or _BASE_RULES).range_between(
        centres, ra if a_fighter else 0.0, rb if b_fighter else 0.0
    )


def ship_end(pose: Pose, legs: tuple[A.Leg, ...]) -> tuple[Pose, list[Vec2]]:
    """Where a ship's legs take it, and the path (the geometry of `movement.ship_path`)."""
    path = [pose.position]
    for leg in legs:
        pose = pose.turned(leg.turn).forward(max(0.0, leg.distance))
        path.append(pose.position)
    return pose, path


def _options_key(obs: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(obs["options"].items()))


def _dest(frame: Frame, x: float, y: float, heading: float) -> dict[str, float]:
    bx, by = frame.to_board(x, y)
    return {"x": bx, "y": by, "facing": S.board_facing(heading)}


def _describe(game: Game, action: Any, obs: Mapping[str, Any]) -> dict[str, Any]:
    frame = frame_of(obs)
    units: Mapping[str, Mapping[str, Any]] = obs["units"]
    types = unit_types(game)

    def name(uid: str) -> str:
        unit = units.get(uid)
        return f"{uid} {types[unit['type']].name}" if unit else uid

    out: dict[str, Any] = {
        "kind": type(action).__name__,
        "group": "other",
        "label": "",
        "unit": None,
        "target": None,
        "dest": None,
        "odds": None,
    }
    if isinstance(action, A.ChooseLoadout):
        swapped = [*action.swap, *(f"the fighters aboard {s}" for s in action.swap_aboard)]
        out["label"] = (
            "Loadout: swap drones for dogfight drones on " + ", ".join(swapped)
            if swapped
            else "Loadout: keep every drone"
        )
    elif isinstance(action, A.DeclareSpecial):
        out.update(
            group="special",
            unit=action.unit,
            label=f"{name(action.unit)}: Special Action {action.name}",
        )
    elif isinstance(action, A.MoveShip):
        end, _ = ship_end(pose_of(units[action.unit]), action.legs)
        total = sum(max(0.0, leg.distance) for leg in action.legs)
        dest = _dest(frame, end.position.x, end.position.y, end.heading)
        turns = [
            f"turn {abs(leg.turn):g}° {'port' if leg.turn > 0 else 'starboard'}"
            for leg in action.legs
            if abs(leg.turn) > 1e-9
        ]
        how = "holds position" if total <= 1e-9 else f'moves {total:g}"'
        if turns:
            how += " (" + ", ".join(turns) + ")"
        out.update(
            group="move",
            unit=action.unit,
            dest=dest,
            label=f"{name(action.unit)} {how} to "
            + S.place_text(end.position.x, end.position.y, end.heading),
        )
    elif isinstance(action, A.FighterOrder):
        out["label"] = f"{action.first} moves its fighters first"
    elif isinstance(action, A.MoveFighter):
        dest = _dest(frame, action.x, action.y, action.heading)
        here = pose_of(units[action.unit]).position
        dist = here.distance(Vec2(action.x, action.y))
        label = (
            f"{name(action.unit)}: hold position"
            if dist < 1e-6
            else f'{name(action.unit)}: move {dist:.1f}" to '
            + S.place_text(action.x, action.y, action.heading)
        )
        if action.support:
            label += f", supporting {action.support}"
        out.update(
            group="move", unit=action.unit, target=action.support or None, dest=dest, label=label
        )
    elif isinstance(action, A.Recover):
        out.update(
            group="launch",
            unit=action.unit,
            target=action.ship,
            label=f"{name(action.unit)} lands aboard {name(action.ship)}",
        )
    elif isinstance(action, A.EndMovement):
        out.update(group="end", label="End fighter movement: the other fighters hold")
    elif isinstance(action, A.Intercept):
        label = (
            f"Intercept {action.attacker} with {', '.join(action.fighters)}"
            if action.fighters
            else f"Do not intercept {action.attacker}"
        )
        out.update(
            group="reaction",
            target=action.attacker,
            label=label,
            unit=action.fighters[0] if len(action.fighters) == 1 else None,
        )
    elif isinstance(action, A.DefensiveFire):
        label = (
            "Defensive fire: " + ", ".join(action.fighters)
            if action.fighters
            else "No fighters on defensive fire"
        )
        out.update(
            group="support",
            label=label,
            unit=action.fighters[0] if len(action.fighters) == 1 else None,
        )
    elif isinstance(action, A.Dogfight):
        me, foe = units[action.unit], units[action.enemy]
        out.update(
            group="dogfight",
            unit=action.unit,
            target=action.enemy,
            label=f"{name(action.unit)} dogfights {name(action.enemy)}",
            odds=_dogfight_odds(
                types[me["type"]],
                types[foe["type"]],
                _options_key(obs),
                (bool(me["dogfight_drones"]), bool(foe["dogfight_drones"])),
                (action.unit, action.enemy),
                rules_of(game),
            ),
        )
    elif isinstance(action, A.Support):
        out.update(
            group="support",
            unit=action.unit,
            label=f"{name(action.unit)} supports its side's dogfights",
        )
    elif isinstance(action, A.DefenderSupport):
        label = (
            "Support the defence with " + ", ".join(action.fighters)
            if action.fighters
            else "No defending supporters"
        )
        out.update(
            group="support",
            label=label,
            unit=action.fighters[0] if len(action.fighters) == 1 else None,
        )
    elif isinstance(action, A.Fire):
        firer, target = units[action.unit], units[action.target]
        ft, tt = types[firer["type"]], types[target["type"]]
        rules = rules_of(game)
        dist = measure(
            firer, ft.base_radius, ft.is_fighter, target, tt.base_radius, tt.is_fighter, rules
        )
        reach = next((w.range for w in ft.weapons if w.name == action.weapon), dist)
        odds = _attack_odds(
            ft,
            action.weapon,
            tt,
            _options_key(obs),
            round(min(dist, reach), 4),
            bool(target["moved"]),
            rules,
        )
        out.update(
            group="attack",
            unit=action.unit,
            target=action.target,
            label=f"{name(action.unit)} fires {action.weapon} at {name(action.target)} "
            f'({dist:.1f}")',
            odds=odds,
        )
    elif isinstance(action, A.EndAttacks):
        out.update(
            group="end",
            unit=action.unit or None,
            label=f"{action.unit} ceases fire" if action.unit else "Fighters end their attacks",
        )
    elif isinstance(action, A.Launch):
        if action.fighter:
            dest = _dest(frame, action.x, action.y, action.heading)
            out.update(
                group="launch",
                unit=action.ship,
                dest=dest,
                label=f"{name(action.ship)} launches a {types[action.fighter].name} at "
                f"({dest['x']:.1f}, {dest['y']:.1f})"
                if action.fighter in types
                else f"{name(action.ship)} launches a {action.fighter}",
            )
        else:
            out.update(
                group="launch",
                unit=action.ship,
                label=f"{name(action.ship)} launches nothing this turn",
            )
    if not out["label"]:
        out["label"] = type(action).__name__
    return out


# ---- envelopes and composing moves -----------------------------------------------------


def fighter_budget(unit: Mapping[str, Any], speed: float, rules: ActaRules | None = None) -> float:
    """Inches an observed fighter may still move this turn (`ActaRules.fighter_budget`)."""
    return (rules or _BASE_RULES).fighter_budget(
        speed, float(unit["carried"]), float(unit["distance_moved"])
    )


def _envelopes(game: Game) -> dict[str, dict[str, Any]]:
    """Fighters: the circle of their remaining move on the table (any point, any
    facing). Ships: the listed moves' paths and end points (only those)."""
    side = game.current_player()
    if side is None:
        return {}
    obs = S.observed(game, side)
    frame = frame_of(obs)
    types = unit_types(game)
    legal = game.legal_actions()
    out: dict[str, dict[str, Any]] = {}
    fighters = sorted({a.unit for a in legal if isinstance(a, A.MoveFighter)})
    for uid in fighters:
        unit = obs["units"][uid]
        utype = types[unit["type"]]
        here = pose_of(unit).position
        bx, by = frame.to_board(here.x, here.y)
        budget = fighter_budget(unit, utype.speed, rules_of(game))
        title = f'{uid}: up to {budget:g}"'
        if (
            bx - budget >= 0
            and by - budget >= 0
            and bx + budget <= frame.width
            and by + budget <= frame.height
        ):
            shape = S.circle(bx, by, budget, "envelope", title)
        else:
            ring = S.circle_polygon(bx, by, budget, (0.0, 0.0, frame.width, frame.height))
            shape = S.polygon(ring, "envelope", title)
        # Points where the base would stack on another fighter's are refused
        # (ACTA-FTR-3): the rule's own discs, those reaching into the envelope.
        blocked = []
        mover = game.state.units[uid]
        for other, centre, reach in stacking_discs(game.state, mover):
            # A base it already overlaps (left so by carrying) is no hole: holding
            # still stays legal there, and a hole cannot leave out just that point.
            if reach <= centre.distance(here) < budget + reach:
                ox, oy = frame.to_board(centre.x, centre.y)
                blocked.append(
                    S.circle(
                        ox, oy, reach, "blocked", f"{uid} would overlap {other.id} (ACTA-FTR-3)"
                    )
                )
        out[uid] = {
            "unit": uid,
            "shapes": [shape, *blocked],
            "free": True,
            "facings": None,
            "facing": "chosen",
        }
    ships: dict[str, list[A.MoveShip]] = {}
    for a in legal:
        if isinstance(a, A.MoveShip):
            ships.setdefault(a.unit, []).append(a)
    for uid, moves in sorted(ships.items()):
        start = pose_of(obs["units"][uid])
        drawn: list[S.Shape] = []
        facings: list[float] = []
        for move in moves:
            end, path = ship_end(start, move.legs)
            pts = [frame.to_board(p.x, p.y) for p in path]
            for (x1, y1), (x2, y2) in itertools.pairwise(pts):
                drawn.append(S.line(x1, y1, x2, y2, "trail"))
            ex, ey = pts[-1]
            facing = S.board_facing(end.heading)
            drawn.append(
                S.circle(
                    ex,
                    ey,
                    0.25,
                    "envelope",
                    S.place_text(end.position.x, end.position.y, end.heading),
                )
            )
            if facing not in facings:
                facings.append(facing)
        out[uid] = {
            "unit": uid,
            "shapes": drawn,
            "free": False,
            "facings": sorted(facings),
            "facing": "chosen",
        }
    return out


def _same_facing(a: float, b: float) -> bool:
    return abs(normalise_angle(a - b)) <= FACING_SLACK


def _compose(game: Game, uid: str, x: float, y: float, facing: float) -> Any:
    """A MoveFighter or MoveShip to board point (x, y) facing `facing`."""
    side = game.current_player()
    if side is None:
        raise IllegalAction("the game is over")
    obs = S.observed(game, side)
    frame = frame_of(obs)
    unit = obs["units"].get(uid)
    if unit is None:
        raise IllegalAction(f"no unit {uid!r} on the table")
    tx, ty = frame.to_table(x, y)
    heading = S.table_heading(facing)
    # A point on (or within a click of) a listed move takes that move, with its support.
    best: tuple[float, Any] | None = None
    for action in game.legal_actions():
        gap = NEAR + 1.0
        if isinstance(action, A.MoveFighter) and action.unit == uid:
            gap = Vec2(action.x, action.y).distance(Vec2(tx, ty))
            action = msgspec.structs.replace(action, heading=round(heading % 360, 3))
        elif isinstance(action, A.MoveShip) and action.unit == uid:
            end, _ = ship_end(pose_of(unit), action.legs)
            if _same_facing(end.heading, heading):
                gap = end.position.distance(Vec2(tx, ty))
        if gap <= NEAR and (best is None or gap < best[0]):
            best = (gap, action)
    if best is not None:
        game.check(best[1])
        return best[1]
    if unit["type"] in unit_types(game) and unit_types(game)[unit["type"]].is_fighter:
        tries = []
        if unit["supporting"]:
            tries.append(unit["supporting"])
        tries.append("")
        problem: IllegalAction | None = None
        for support in tries:
            move = A.MoveFighter(
                unit=uid, x=tx, y=ty, heading=round(heading % 360, 3), support=support
            )
            try:
                game.check(move)
            except IllegalAction as exc:
                problem = problem or exc
                continue
            return move
        assert problem is not None
        raise problem
    return _compose_ship(game, uid, pose_of(unit), Vec2(tx, ty), heading)


def _compose_ship(game: Game, uid: str, start: Pose, point: Vec2, heading: float) -> A.MoveShip:
    """Legs that take a ship from `start` to `point` ending at `heading`: straight on; or
    straight then one turn; or straight, half the turn, straight, the other half."""
    turn = normalise_angle(heading - start.heading)
    offset = point - start.position
    plans: list[tuple[A.Leg, ...]] = []
    if abs(turn) <= FACING_SLACK:
        ahead = Vec2.polar(1.0, start.heading)
        along = offset.x * ahead.x + offset.y * ahead.y
        side = offset.x * ahead.y - offset.y * ahead.x
        if abs(side) <= NEAR:
            plans.append((A.Leg(0.0, round(along, 4)),) if along > 1e-9 else ())
    else:
        plans.append(_two_legs(start.heading, turn, offset))
        minimum = _turn_inches(game, uid)
        half = turn / 2
        first = Vec2.polar(minimum, start.heading + half)
        plans.append(_three_legs(start.heading, half, minimum, offset - first))
    problem: IllegalAction | None = None
    for legs in plans:
        if any(leg.distance < -1e-6 for leg in legs):
            continue
        move = A.MoveShip(unit=uid, legs=legs)
        try:
            game.check(move)
        except IllegalAction as exc:
            problem = problem or exc
            continue
        return move
    if problem is not None:
        raise problem
    raise IllegalAction(
        f"{uid} cannot reach ({point.x:.1f}, {point.y:.1f}) facing that way with straight "
        "moves and turns"
    )


def _turn_inches(game: Game, uid: str) -> float:
    unit = S.observed(game, game.current_player())["units"][uid]
    turn = unit_types(game)[unit["type"]].turn
    inches = rules_of(game).turn_inches(turn, bool(unit["crippled"]))
    return 0.0 if inches is None else inches


def _solve(u: Vec2, v: Vec2, target: Vec2) -> tuple[float, float] | None:
    """a, b with a*u + b*v = target (None when u and v are parallel)."""
    det = u.x * v.y - u.y * v.x
    if abs(det) < 1e-9:
        return None
    a = (target.x * v.y - target.y * v.x) / det
    b = (u.x * target.y - u.y * target.x) / det
    return a, b


def _two_legs(heading: float, turn: float, offset: Vec2) -> tuple[A.Leg, ...]:
    solved = _solve(Vec2.polar(1.0, heading), Vec2.polar(1.0, heading + turn), offset)
    if solved is None:
        return (A.Leg(0.0, -1.0),)
    d1, d2 = solved
    return (A.Leg(0.0, round(d1, 4)), A.Leg(round(turn, 3), round(d2, 4)))


def _three_legs(heading: float, half: float, middle: float, offset: Vec2) -> tuple[A.Leg, ...]:
    solved = _solve(Vec2.polar(1.0, heading), Vec2.polar(1.0, heading + 2 * half), offset)
    if solved is None:
        return (A.Leg(0.0, -1.0),)
    d1, d3 = solved
    return (
        A.Leg(0.0, round(d1, 4)),
        A.Leg(round(half, 3), round(middle, 4)),
        A.Leg(round(half, 3), round(d3, 4)),
    )


# ---- the adapter -----------------------------------------------------------------------


BOARD = BoardAdapter(_scene, _describe, _envelopes, _compose)
