"""The evo board: flights of fighters on the free table, in inches.

Each model is drawn as its own base; actions and envelopes name flights, so every
scene unit carries its `flight`. The table's axes are acta's (origin lower left, y up,
headings anticlockwise from east), flipped onto the board in the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import msgspec

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game
from dogfight.core.scene import shapes as S
from dogfight.core.scene.adapter import BoardAdapter
from dogfight.core.scene.frame import Frame, frame_of, pose_of, table_shapes
from dogfight.geometry import Vec2
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.odds import evo_attack
from dogfight.rulesets.evo.rules import ARC_RANGES, COURSE_MIN_MOVE, EvoRules
from dogfight.rulesets.evo.shooting import firing_dice, on_my_six, zone_models
from dogfight.rulesets.evo.units import UnitType
from dogfight.rulesets.evo.units import describe as describe_type

if TYPE_CHECKING:
    from dogfight.rulesets.evo.ruleset import EvoRuleset

NEAR = 0.05
"""Inches within which a chosen point is taken to be a listed manoeuvre's destination."""


def ruleset_of(game: Game) -> EvoRuleset:
    """The game's ruleset: evo, or a subclass of it with its own rules."""
    return cast("EvoRuleset", game.ruleset)


def rules_of(game: Game) -> EvoRules:
    """The rule functions of the game's ruleset (a subclass may override some)."""
    return ruleset_of(game).rules


def unit_types(game: Game) -> Mapping[str, UnitType]:
    """The battle's flight types: public catalog data, read from the state's type table."""
    types: Mapping[str, UnitType] = game.state.types
    return types


def profile(game: Game, type_id: str) -> dict[str, Any]:
    """A flight type's public profile as `dogfight show` gives it, from the battle's own
    type table (a scenario may bring designs the catalog does not have)."""
    return describe_type(unit_types(game)[type_id])


# ---- the scene -------------------------------------------------------------------------


def _status(flight: Mapping[str, Any], model_id: str, active: str) -> str:
    parts = [f"{len(flight['models'])}/{flight['start_models']} models"]
    if flight["leader"] == model_id:
        parts.append("leader")
    elif not flight["leader"]:
        parts.append("no leader")
    if flight["id"] == active:
        done = ", ".join(flight["actions"]) or "none yet"
        parts.append(f"active ({done}; {flight['allowed']} actions)")
        if flight["acting"] and model_id not in flight["acting"]:
            parts.append("out of command")
    elif flight["activated"]:
        parts.append("activated")
    if flight["suppressed"]:
        parts.append("suppressed")
    if flight["reacted"]:
        parts.append("reacted")
    if flight["ready_target"]:
        parts.append(f"locked on {flight['ready_target']}")
    return "; ".join(parts)


def _details(flight: Mapping[str, Any], prof: Mapping[str, Any]) -> dict[str, str]:
    target = str(prof["target"])
    if prof.get("stealth_target"):
        target += f"-{prof['stealth_target']} (stealth)"
    out = {
        "flight": f"{flight['id']} {prof['name']}",
        "models": f"{len(flight['models'])}/{flight['start_models']}",
        "agility": f'{prof["agility"]:g}"',
        "target": target,
        "save": f"{prof['save']}+",
        "kill": str(prof["kill"]),
        "points": str(prof["points"]),
    }
    if prof["armour"]:
        out["armour"] = ", ".join(f"{k} {v}+" for k, v in sorted(prof["armour"].items()))
    if prof["traits"]:
        out["traits"] = ", ".join(prof["traits"])
    for w in prof["weapons"]:
        traits = f" {', '.join(w['traits'])}" if w["traits"] else ""
        out[f"weapon {w['name']}"] = (
            f'{w["range"]:g}" {w["arc"] or "all round"} {w["dice"]}d{w["die"]}{traits}'
        )
    return out


def _overlays(
    frame: Frame,
    model: Mapping[str, Any],
    flight: Mapping[str, Any],
    prof: Mapping[str, Any],
    command_range: float,
) -> list[S.Shape]:
    pose = pose_of(model)
    bx, by = frame.to_board(pose.position.x, pose.position.y)
    facing = S.board_facing(pose.heading)
    out: list[S.Shape] = []
    for w in sorted(prof["weapons"], key=lambda w: -float(w["range"])):
        title = f'{w["name"]}: {w["arc"] or "all round"}, {w["range"]:g}"'
        if w["arc"] is None:
            out.append(S.circle(bx, by, float(w["range"]), "arc", title))
        else:
            arc = ARC_RANGES[w["arc"]]
            out.append(
                S.arc_wedge(bx, by, float(w["range"]), facing, arc.start, arc.end, "arc", title)
            )
    if flight["leader"] == model["id"]:
        out.append(S.circle(bx, by, command_range, "command", f'command range {command_range:g}"'))
    if model["start"] is not None:
        sx, sy = frame.to_board(*model["start"])
        out.append(S.line(sx, sy, bx, by, "trail", "this activation's course"))
    return out


def _scene(game: Game, seat: str | None) -> dict[str, Any]:
    obs = S.observed(game, seat)
    frame = frame_of(obs)
    sides = list(obs["sides"])
    flights: Mapping[str, Mapping[str, Any]] = obs["flights"]
    profiles = {f["type"]: profile(game, f["type"]) for f in flights.values()}
    command_range = float(obs["options"].get("command_range", 6.0))
    w, h = frame.width, frame.height
    shapes = table_shapes(frame)
    units = []
    for model in sorted(obs["models"].values(), key=lambda m: m["id"]):
        flight = flights[model["unit"]]
        prof = profiles[flight["type"]]
        pose = pose_of(model)
        bx, by = frame.to_board(pose.position.x, pose.position.y)
        units.append(
            {
                "id": model["id"],
                "flight": flight["id"],
                "side": flight["side"],
                "side_index": sides.index(flight["side"]),
                "type": flight["type"],
                "label": f"{model['id']} {prof['name']}",
                "x": bx,
                "y": by,
                "facing": S.board_facing(pose.heading),
                "radius": float(prof["base_radius"]),
                "status": _status(flight, model["id"], str(obs["active_unit"])),
                "mine": seat is not None and flight["side"] == seat,
                "details": _details(flight, prof),
                "overlays": _overlays(frame, model, flight, prof, command_range),
            }
        )
    return {
        "width": w,
        "height": h,
        "origin": [0.0, 0.0],
        "unit_name": "inch",
        "shapes": shapes,
        "units": units,
    }


# ---- describing actions ------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _shoot_numbers(
    rules: EvoRules,
    firer_json: bytes,
    weapon: str,
    target_json: bytes,
    options: tuple[tuple[str, Any], ...],
    dist: float,
    six: bool,
    models: int,
    firers: int,
) -> tuple[dict[str, float], float, dict[str, str], tuple[str, ...]]:
    # Types travel as JSON because their armour tables make them unhashable.
    firer = msgspec.json.decode(firer_json, type=UnitType)
    target = msgspec.json.decode(target_json, type=UnitType)
    result = evo_attack(
        firer,
        weapon,
        target,
        dict(options),
        range_inches=dist,
        six=six,
        models=models,
        firers=firers,
        rules=rules,
    )
    return (
        {f"{k} removed": float(p) for k, p in result.odds.items()},
        float(result.expected),
        {k: str(v) for k, v in result.facts.items()},
        tuple(n for n in result.notes if not n.startswith("range ")),
    )


def odds_range(rules: EvoRules, dist: float, close: float, reach: float) -> float:
    """A range that prices a shot exactly as `dist` does, shared by many shots so the
    exact odds are counted once: the range matters only as within close range (no
    stealth, may be on the six) or beyond it (EVO-STL-1, EVO-SIX-1)."""
    return 0.0 if rules.within_close(dist, close) else reach


def shot_case(game: Game, unit: str, target: str, *, reaction: bool) -> dict[str, Any] | None:
    """What `evo_attack` (rulesets/evo/odds.py) needs to price a Shoot (or a reaction's Shoot): the
    weapon, the firing models, the target models in the zone, the range and whether it
    is on the target's six; None when several kinds of weapon bear (no exact odds).

    evo hides nothing (its observation is the whole state), so this reads the state and
    asks the engine's own rule which guns bear, rather than keeping a second copy of it."""
    state = game.state
    ctx = ruleset_of(game).ctx(state)
    flight = state.flights[unit]
    model = state.models[target]
    firers, guns = firing_dice(ctx, flight, model, reaction=reaction)
    names = sorted({w.name for w, _ in guns})
    if len(names) != 1 or not firers:
        return None
    dist = min(f.pose.position.distance(model.pose.position) for f in firers)
    reach = max(w.range for w, _ in guns)
    in_zone = [m for m in zone_models(ctx, flight, model) if m.unit == model.unit]
    six = on_my_six(ctx, model, firers)
    return {
        "firer": state.types[flight.type],
        "weapon": names[0],
        "target": state.types[state.flights[model.unit].type],
        "options": tuple(sorted(state.options.items())),
        "dist": round(min(dist, reach), 4),
        "six": six,
        "models": max(1, len(in_zone)),
        "firers": len(firers),
    }


def shoot_odds(game: Game, unit: str, target: str, *, reaction: bool) -> dict[str, Any] | None:
    """The ODDS of a Shoot, or None when there are none."""
    case = shot_case(game, unit, target, reaction=reaction)
    if case is None:
        return None
    rules = rules_of(game)
    close = float(dict(case["options"])["close_range"])
    if case["six"] and not rules.within_close(case["dist"], close):
        return None
    reach = next(w.range for w in case["firer"].weapons if w.name == case["weapon"])
    outcomes, expected, facts, notes = _shoot_numbers(
        rules,
        msgspec.json.encode(case["firer"]),
        case["weapon"],
        msgspec.json.encode(case["target"]),
        case["options"],
        odds_range(rules, case["dist"], close, reach),
        case["six"],
        case["models"],
        case["firers"],
    )
    title = (
        f"{case['firers']} x {case['weapon']} at {case['models']} {case['target'].name}, "
        f'{case["dist"]:.1f}": models removed'
    )
    return {
        "title": title,
        "outcomes": dict(outcomes),
        "expected": expected,
        "facts": dict(facts),
        "notes": [f"range {case['dist']:g} inches", *notes],
    }


def _leader_of(obs: Mapping[str, Any], unit: str) -> Mapping[str, Any] | None:
    """The model whose end point stands for a manoeuvre: the first model in command (as
    the rules' own representative manoeuvres use), else the first model."""
    flight = obs["flights"][unit]
    ids = list(flight["acting"]) or list(flight["models"])
    for mid in ids:
        if mid in obs["models"]:
            model: Mapping[str, Any] = obs["models"][mid]
            return model
    return None


def manoeuvre_end(
    obs: Mapping[str, Any], action: A.Manoeuvre, rules: EvoRules
) -> tuple[Vec2, float] | None:
    """Where the reference model ends a manoeuvre and its heading after the course change
    (EVO-MOV-3): from its start point towards where it is now (table coordinates)."""
    ref = _leader_of(obs, action.unit)
    if ref is None:
        return None
    move = next((m for m in action.moves if m.model == ref["id"]), None)
    pose = pose_of(ref)
    end = pose.position + (Vec2(move.dx, move.dy) if move else Vec2(0.0, 0.0))
    start = Vec2(*ref["start"]) if ref["start"] is not None else None
    heading = pose.heading
    if start is not None:
        heading = rules.new_heading(
            start, end, heading, float(obs["options"].get("course_min_move", COURSE_MIN_MOVE))
        )
    return end, heading


def drift_preview(game: Game, action: A.Activate) -> list[dict[str, Any]]:
    """Where the flight's models stand after the inertia drift an Activate starts
    (EVO-MOV-1): the engine's own drift, played on a copy of the game (bases nudged
    apart and table edges as the rules do them). Empty if that took a roll of the dice
    (a preview never shows what a die will say)."""
    copy = game.clone()
    events = copy.apply(action)
    if any(e.rolls for e in events):
        return []
    frame = Frame(copy.state.table.width, copy.state.table.height)
    out = []
    for model in copy.state.models.values():
        if model.unit != action.unit:
            continue
        bx, by = frame.to_board(model.pose.position.x, model.pose.position.y)
        out.append(
            {"unit": model.id, "x": bx, "y": by, "facing": S.board_facing(model.pose.heading)}
        )
    return sorted(out, key=lambda p: p["unit"])


def _describe(game: Game, action: Any, obs: Mapping[str, Any]) -> dict[str, Any]:
    frame = frame_of(obs)
    types = unit_types(game)
    flights = obs["flights"]

    def name(fid: str) -> str:
        flight = flights.get(fid)
        return f"{fid} {types[flight['type']].name}" if flight else fid

    out: dict[str, Any] = {
        "kind": type(action).__name__,
        "group": "other",
        "label": type(action).__name__,
        "unit": getattr(action, "unit", None),
        "target": None,
        "dest": None,
        "odds": None,
    }
    if isinstance(action, A.Activate):
        out.update(
            group="other",
            label=f'Activate {name(action.unit)} (it drifts {rules_of(game).drift:g}")',
        )
        preview = S.kept(game, ("drift", action.unit), lambda: drift_preview(game, action))
        if preview:
            out["preview"] = preview
    elif isinstance(action, A.Manoeuvre):
        ended = manoeuvre_end(obs, action, rules_of(game))
        label = f"{name(action.unit)}: manoeuvre"
        if ended is not None:
            end, heading = ended
            bx, by = frame.to_board(end.x, end.y)
            out["dest"] = {"x": bx, "y": by, "facing": S.board_facing(heading)}
            step = max((Vec2(m.dx, m.dy).length() for m in action.moves), default=0.0)
            label += f' {step:.1f}" to ' + S.place_text(end.x, end.y, heading)
        out.update(group="move", label=label)
    elif isinstance(action, A.Rotate):
        free = not flights[action.unit]["actions"]
        out.update(
            group="special",
            label=f"{name(action.unit)}: Rotate"
            + ("; the next Shoot ignores arcs" if free else " (a wasted second action)"),
        )
    elif isinstance(action, A.Shoot | A.React):
        reaction = isinstance(action, A.React)
        model = obs["models"].get(action.target)
        tflight = model["unit"] if model else action.target
        verb = "reacts, shooting" if reaction else "shoots"
        out.update(
            group="reaction" if reaction else "attack",
            target=action.target,
            label=f"{name(action.unit)} {verb} at {action.target} ({name(tflight)})",
            odds=shoot_odds(game, action.unit, action.target, reaction=reaction),
        )
    elif isinstance(action, A.Ready):
        out.update(
            group="special",
            target=action.target_unit,
            label=f"{name(action.unit)}: Ready, locking on to {name(action.target_unit)}",
        )
    elif isinstance(action, A.EndActivation):
        out.update(group="end", label=f"{name(action.unit)}: end its activation")
    elif isinstance(action, A.Decline):
        out.update(group="reaction", unit=None, label="No (more) reactions")
    elif isinstance(action, A.Allocate):
        counts: dict[str, int] = {}
        for mid in action.to:
            counts[mid] = counts.get(mid, 0) + 1
        out.update(
            group="attack",
            unit=None,
            label="Dice left over (EVO-SHT-4): "
            + ", ".join(f"{n} on {mid}" for mid, n in counts.items()),
        )
    return out


# ---- envelopes and composing moves -----------------------------------------------------


def _envelopes(game: Game) -> dict[str, dict[str, Any]]:
    """The active flight's manoeuvre: a circle of its Agility round the model in
    command that leads it; the rest of the flight keeps formation. Any point, and
    the course change sets the facing (the chosen facing is ignored)."""
    side = game.current_player()
    if side is None:
        return {}
    legal = game.legal_actions()
    flights = sorted({a.unit for a in legal if isinstance(a, A.Manoeuvre)})
    if not flights:
        return {}
    obs = S.observed(game, side)
    frame = frame_of(obs)
    out: dict[str, dict[str, Any]] = {}
    for fid in flights:
        ref = _leader_of(obs, fid)
        if ref is None:
            continue
        agility = rules_of(game).movement_budget(
            unit_types(game)[obs["flights"][fid]["type"]].agility
        )
        here = pose_of(ref).position
        bx, by = frame.to_board(here.x, here.y)
        title = f'{fid}: {ref["id"]} and the flight with it, up to {agility:g}"'
        envelope: dict[str, Any] = {
            "unit": fid,
            # Any displacement up to Agility is legal, even off the table (the model then
            # disengages or stops at the edge, EVO-MOV-4), so the circle is not clipped.
            "shapes": [S.circle(bx, by, agility, "envelope", title)],
            "free": True,
            "facings": None,
            # The end facing is not chosen: the course change sets it (EVO-MOV-3), the
            # bearing from the activation's start point to the end point.
            "facing": "set_by_move",
        }
        # The rest of the flight in command moves the same way (keeping formation, as
        # `_compose` moves it): the page draws their ghosts beside the leader's.
        envelope["moves_with"] = [
            m for m in obs["flights"][fid]["acting"] if m in obs["models"] and m != ref["id"]
        ]
        if ref["start"] is not None:
            sx, sy = frame.to_board(*ref["start"])
            envelope["facing_from"] = [sx, sy]
            # A net move this short keeps the old facing (EVO-MOV-3, course_min_move).
            envelope["facing_min_move"] = float(
                obs["options"].get("course_min_move", COURSE_MIN_MOVE)
            )
        out[fid] = envelope
    return out


def _compose(game: Game, unit: str, x: float, y: float, facing: float = 0.0) -> A.Manoeuvre:
    """A Manoeuvre of flight `unit` whose leading model ends at (x, y); the flight's
    other models in command move the same way. `facing` is ignored: the course
    change decides it (EVO-MOV-3)."""
    side = game.current_player()
    if side is None:
        raise IllegalAction("the game is over")
    obs = S.observed(game, side)
    flight = obs["flights"].get(unit)
    if flight is None:
        raise IllegalAction(f"no flight {unit!r} on the table")
    if flight["side"] != side or obs["active_unit"] != unit:
        raise IllegalAction(f"{unit} is not the active flight of {side}")
    ref = _leader_of(obs, unit)
    if ref is None:
        raise IllegalAction(f"{unit} has no models on the table")
    frame = frame_of(obs)
    tx, ty = frame.to_table(x, y)
    here = pose_of(ref).position
    # A point on (or within a click of) a listed manoeuvre takes that manoeuvre.
    best: tuple[float, A.Manoeuvre] | None = None
    for action in game.legal_actions():
        if isinstance(action, A.Manoeuvre) and action.unit == unit:
            ended = manoeuvre_end(obs, action, rules_of(game))
            gap = ended[0].distance(Vec2(tx, ty)) if ended is not None else NEAR + 1
            if gap <= NEAR and (best is None or gap < best[0]):
                best = (gap, action)
    if best is not None:
        return best[1]
    # The flight keeps formation: every model in command moves as the reference does.
    step = Vec2(tx - here.x, ty - here.y).rounded()
    acting = [m for m in flight["acting"] if m in obs["models"]]
    if not acting:
        raise IllegalAction(f"no model of {unit} is in command to manoeuvre (EVO-CMD-1)")
    move = A.Manoeuvre(unit=unit, moves=tuple(A.Move(m, step.x, step.y) for m in acting))
    game.check(move)
    return move


BOARD = BoardAdapter(_scene, _describe, _envelopes, _compose)
