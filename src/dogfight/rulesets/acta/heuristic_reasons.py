"""Why the acta heuristic weighed an action as it did, in words a player reads.

`reason(view, action)` is asked only when someone wants the explanation (`weigh`), never
by `decide`, so it may work out odds the scoring kept in other forms. Each reason names
the facts behind the score: the chance to win a dogfight, the damage a shot is expected
to do, the enemy a move closes with, the carrier an escort guards.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from dogfight.geometry import EPSILON, Vec2
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.combat import weapon_arc
from dogfight.rulesets.acta.movement import ship_path
from dogfight.rulesets.acta.state import UnitState
from dogfight.rulesets.acta.targets import weapons_of

if TYPE_CHECKING:
    from dogfight.rulesets.acta.heuristic import View


def reason(view: View, action: Any) -> str:
    """A short sentence saying what the action does and what the heuristic saw in it."""
    words = _REASONS.get(type(action))
    if words is None:
        return "the only kind of choice offered here"
    return str(words(view, action))


def _nearest(view: View, unit: UnitState, at: Vec2) -> tuple[UnitState | None, float]:
    """The nearest enemy unit to `unit` standing at `at`, and its range."""
    best: UnitState | None = None
    dist = math.inf
    enemies = view.foe_units() if unit.side == view.me else view.my_units()
    for enemy in enemies:
        gap = view.gap(unit, at, enemy)
        if gap < dist:
            best, dist = enemy, gap
    return best, dist


def _loadout(view: View, action: A.ChooseLoadout) -> str:
    if action.swap or action.swap_aboard:
        names = ", ".join((*action.swap, *action.swap_aboard))
        return f"swap drones for dogfight drones (+2 Dogfight) on {names}: many enemy fighters"
    return "keep the drones: few enemy fighters to dogfight"


def _deploy(view: View, action: A.Deploy) -> str:
    where = f"({action.x:.1f}, {action.y:.1f})"
    if action.support:
        return f"deploy {action.unit} on {action.support}'s base at {where}, as its escort"
    return f"deploy {action.unit} at {where}, forward towards the enemy"


def _special(view: View, action: A.DeclareSpecial) -> str:
    return f"{action.unit} performs {action.name}: it pays more than a launch or recovery"


def _move_ship(view: View, action: A.MoveShip) -> str:
    state = view.state
    ship = state.units[action.unit]
    travelled = sum(max(0.0, leg.distance) for leg in action.legs)
    if not action.legs or travelled <= EPSILON:
        head = f"{action.unit} holds"
    else:
        head = f'{action.unit} moves {travelled:g}"'
    crit = bool(view.opt("crit_effects"))
    _, end, problem = ship_path(state, ship, action.legs, crit, view.ctx.rules)
    if problem:
        return f"{head}: not a move it can make ({problem})"
    missing = str(view.opt("missing_arc"))
    covered = set()
    for weapon in weapons_of(state, ship):
        arc = weapon_arc(weapon, missing)
        for foe in view.foe_units():
            in_range = view.gap(ship, end.position, foe) <= weapon.range + EPSILON
            if in_range and view.ctx.rules.in_arc(arc, end.bearing_to(foe.pose.position)):
                covered.add(foe.id)
    nearest, dist = _nearest(view, ship, end.position)
    near = f', nearest enemy {nearest.id} {dist:.1f}" away' if nearest is not None else ""
    return f"{head}: {len(covered)} enemy unit(s) in its arcs and range at the end{near}"


def _order(view: View, action: A.FighterOrder) -> str:
    if action.first == view.foe:
        return f"{action.first} moves its fighters first: moving last sees their moves"
    return f"{action.first} moves its fighters first"


def _move_fighter(view: View, action: A.MoveFighter) -> str:
    fighter = view.state.units[action.unit]
    spot = Vec2(action.x, action.y)
    moved = spot.distance(fighter.pose.position)
    head = f"{action.unit} holds" if moved <= 0.01 else f'{action.unit} moves {moved:.1f}"'
    contacts = [e for e in view.foe_fighters if view.touches(fighter, spot, e)]
    if contacts:
        parts = []
        for enemy in contacts:
            win, lose = view.odds(fighter, enemy, 0, 0)
            parts.append(f"{enemy.id}: {win:.0%} to win the dogfight, {lose:.0%} to lose it")
        return f"{head} into base contact with " + "; ".join(parts)
    if action.support:
        return f"{head} onto {action.support}'s base, to escort it (intercept, defensive fire)"
    nearest, dist = _nearest(view, fighter, spot)
    if nearest is None:
        return head
    threats = _reach_of(view, fighter, spot)
    danger = f"within reach of {threats} enemy fighter(s)" if threats else "out of their reach"
    shots = [
        w.name
        for w in weapons_of(view.state, fighter)
        if view.gap(fighter, spot, nearest) <= w.range
    ]
    if shots:
        return (
            f'{head}; {nearest.id} {dist:.1f}" away, in range of its {", ".join(shots)}; {danger}'
        )
    return f'{head}; the nearest enemy, {nearest.id}, is {dist:.1f}" away; {danger}'


def _reach_of(view: View, fighter: UnitState, spot: Vec2) -> int:
    """Enemy fighters that could shoot or dogfight `fighter` at `spot` next: within their
    Speed and longest weapon's range."""
    count = 0
    for enemy in view.foe_fighters if fighter.side == view.me else view.my_fighters:
        reach = view.state.unit_type(enemy).speed + max(
            (w.range for w in weapons_of(view.state, enemy)), default=0.0
        )
        if view.gap(enemy, enemy.pose.position, fighter, spot) <= reach + EPSILON:
            count += 1
    return count


def _recover(view: View, action: A.Recover) -> str:
    fighter = view.state.units[action.unit]
    full = view.state.unit_type(fighter).damage
    if fighter.damage >= full:
        return f"recover {action.unit} aboard {action.ship}: it is undamaged, so never"
    return f"recover {action.unit} aboard {action.ship}: {fighter.damage} of {full} Damage left"


def _end_movement(view: View, action: A.EndMovement) -> str:
    return "end fighter movement: the fighters not yet moved stay where they are"


def _intercept(view: View, action: A.Intercept) -> str:
    pending = view.state.intercept
    protected = pending.protected if pending is not None else "the escorted unit"
    if not action.fighters:
        return f"let {action.attacker}'s attack on {protected} through"
    attacker = view.state.units.get(action.attacker)
    odds = ""
    if attacker is not None:
        first = view.state.units[action.fighters[0]]
        win, _ = view.odds(first, attacker, len(action.fighters) - 1, 0)
        odds = f"; {win:.0%} to win the dogfight"
    return (
        f"intercept {action.attacker} with {', '.join(action.fighters)}: it may not attack "
        f"{protected} this turn{odds}"
    )


def _defensive_fire(view: View, action: A.DefensiveFire) -> str:
    if not action.fighters:
        return "no fighter on defensive fire: the escorts stay free to attack or intercept"
    return f"put {', '.join(action.fighters)} on defensive fire against the Seeking attacks"


def _dogfight(view: View, action: A.Dogfight) -> str:
    state = view.state
    mine = state.units[action.unit]
    enemy = state.units[action.enemy]
    plus = sum(
        1
        for s in state.supporters
        if s in state.units and view.touches(state.units[s], state.units[s].pose.position, enemy)
    )
    win, lose = view.odds(mine, enemy, plus, 0)
    return f"attack {action.enemy}: {win:.0%} to win the dogfight, {lose:.0%} to lose it"


def _support(view: View, action: A.Support) -> str:
    return f"{action.unit} supports: +1 to each of its side's dogfights it touches"


def _defender_support(view: View, action: A.DefenderSupport) -> str:
    if not action.fighters:
        return "no supporters for the defence"
    return f"{', '.join(action.fighters)} support the defence: +1 in each dogfight they touch"


def _fire(view: View, action: A.Fire) -> str:
    state = view.state
    firer = state.units[action.unit]
    target = state.units[action.target]
    weapon = next((w for w in weapons_of(state, firer) if w.name == action.weapon), None)
    if weapon is None:
        return f"fire {action.weapon} at {action.target}"
    dist = view.gap(firer, firer.pose.position, target)
    value = view.shot_value(firer, weapon, target, dist)
    return (
        f'fire {action.weapon} at {action.target} ({dist:.1f}"): {value:+.1f} damage worth expected'
    )


def _end_attacks(view: View, action: A.EndAttacks) -> str:
    return "hold fire: no shot left worth taking"


def _launch(view: View, action: A.Launch) -> str:
    if not action.fighter:
        return f"{action.ship} launches nothing"
    return f"{action.ship} launches a {action.fighter} to ({action.x:.1f}, {action.y:.1f})"


_REASONS: dict[type, Any] = {
    A.ChooseLoadout: _loadout,
    A.Deploy: _deploy,
    A.DeclareSpecial: _special,
    A.MoveShip: _move_ship,
    A.FighterOrder: _order,
    A.MoveFighter: _move_fighter,
    A.Recover: _recover,
    A.EndMovement: _end_movement,
    A.Intercept: _intercept,
    A.DefensiveFire: _defensive_fire,
    A.Dogfight: _dogfight,
    A.Support: _support,
    A.DefenderSupport: _defender_support,
    A.Fire: _fire,
    A.EndAttacks: _end_attacks,
    A.Launch: _launch,
}
