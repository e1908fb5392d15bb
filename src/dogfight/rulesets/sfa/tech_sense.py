"""How the sfa heuristic weighs its advanced technologies (SFA-TEC-*).

Each technology the heuristic knows is scored in the same Structure-point worth as its
shots (`heuristic`), from what its seat shows:

- Force Field (SFA-TEC-14): the fire this turn it stops (the enemies' expected shots
  at us, a charged enemy doomsday device), against the shot it costs;
- Stealth (SFA-TEC-25): the fire of the turns to come it hides us from; once cloaked,
  any action but 'none' gives that up;
- Holo-Projector (SFA-TEC-16): the share of the enemy's fire a decoy draws;
- EMP (SFA-TEC-09): the fire and the shots of the enemies it stuns;
- Death Blossom and Pi-Tac Cannon (SFA-TEC-06, SFA-TEC-19): charged, what 10 automatic
  damage plus 10 dice does to every craft in the zone from where we may end (our own
  craft count against it), less the turns a Death Blossom costs; charging, the same
  from where the enemies are now, times the hope that they stay;
- Remote Laser and Plasma Missile (SFA-TEC-24, SFA-TEC-21): a hunting attack, like a
  missile's, with their own pools;
- Temporal Displacement (SFA-TEC-28) is a reaction, in `heuristic.displace`;
- Boosters and Teleport (SFA-TEC-04, SFA-TEC-27): what the wider choice of where to end
  is worth over a plain move (`SfaHeuristic.pose_value` of the best end, the moves
  being those the rules offer: `choices.move_choices`, `technology.teleport_choices`);
  at the move, each landing is scored like a move's end;
- Plasma Field and Plasma Trail (SFA-TEC-20, SFA-TEC-22): 8 dice on each craft caught,
  from the share of its moves that pass within 2 hexes of us or enter our trail, this
  turn and (a trail) next; friends count against it. Our moves price the hot trails
  and fields of other craft on the way;
- Hyper-Ram (SFA-TEC-17): the best ram our moves can make (`combat.collision_hurt`:
  the plates take nothing), an enemy moving after us where it is, one moving first
  where it may end;
- Duplicator and Transformation (SFA-TEC-08, SFA-TEC-30): the design it gives
  (`technology.copy_design`, `form_design`) against ours, in the fire we give and take
  for `Weights.design_turns` turns;
- Tractor Beam (SFA-TEC-29): the chance the grab holds (`technology.tractor_pool`,
  `tractor_holds`) times the shots our guns may line up at a craft that cannot fly off;
  a held enemy is dragged into our lines of fire and out of its own at us.

Power is priced (`Weights.power_price`): it is never restored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.choices import least_hexes, move_budget, move_choices
from dogfight.rulesets.sfa.combat import defending_scale, disrupts, soak_against
from dogfight.rulesets.sfa.craft import TECHNOLOGIES, Craft
from dogfight.rulesets.sfa.maneuvers import Path, trace
from dogfight.rulesets.sfa.state import CraftState, Selection
from dogfight.rulesets.sfa.technology import (
    ACTION_TECHS,
    BLOSSOM_TURNS_LOST,
    BOOST_HEXES,
    DOOM_AUTOMATIC,
    DOOM_DICE,
    EMP_RANGE,
    PLASMA_DICE,
    PLASMA_FIELD_RANGE,
    REMOTE_LASER_ATTACK,
    TRACTOR_RANGE,
    copy_design,
    doom_zone,
    firing,
    form_design,
    label,
    resolve_options,
    teleport_choices,
    tractor_holds,
    tractor_pool,
)

if TYPE_CHECKING:
    from dogfight.rulesets.sfa.heuristic import Plan, Pose, SfaHeuristic

Scored = tuple[float, Any, str]

UNUSED = -10.0
"""Score of a technology use that cannot help (a second decoy, nowhere to fire from):
below any choice that can."""
DOOMSDAY = ("death_blossom", "pi_tac_cannon")


def power_cost(h: SfaHeuristic, tech: str) -> float:
    """The price of the Power one use takes."""
    return h.w.power_price * (TECHNOLOGIES[tech].power or 0)


def area_worth(
    h: SfaHeuristic,
    design: Craft,
    victim: CraftState,
    dice: int = DOOM_DICE,
    automatic: int = DOOM_AUTOMATIC,
) -> float:
    """Worth to us of an area hit on `victim` from a craft of `design`: `automatic`
    damage plus `dice` less its Soak against that design (a doomsday device's 10 and 10,
    SFA-TEC-06, SFA-TEC-19; plasma's 8 dice, SFA-TEC-20..22; `combat.area_attack`);
    our own craft count as losses. Nothing gets through a Force Field."""
    from dogfight.rulesets.sfa.heuristic import net_odds

    state = h.state
    if victim.disabled or victim.structure <= 0:
        return 0.0
    if victim.force_field and not disrupts(design):
        return 0.0
    soak = soak_against(state, victim, design, rules=h.rules)
    size = h.rules.guided_pool(dice, soak)
    defending = defending_scale(state, victim, design)
    left = victim.structure
    total = 0.0
    for net, p in net_odds(size, False, rules=h.rules):
        damage = automatic + h.rules.scale_adjust(net, design.scale, defending)
        total += p * (min(damage, left) + (h.bonus(victim) if damage >= left else 0.0))
    if victim.side == h.side:
        return -h.w.loss_weight * h.unit(victim) * total
    return h.unit(victim) * total


def zone_worth(
    h: SfaHeuristic, me: CraftState, tech: str, where: Hex, facing: int, spots: dict[str, list[Hex]]
) -> float:
    """Worth of firing a doomsday device from a pose: each enemy by the share of the
    hexes it may end in that the zone covers, each friend where it is."""
    zone = doom_zone(h.state, tech, where, facing)
    value = 0.0
    for craft in h.state.craft.values():
        if craft.id == me.id or craft.disabled:
            continue
        if craft.side == h.side:
            if craft.hex in zone:
                value += area_worth(h, h.state.type_of(me), craft)
            continue
        hexes = spots.get(craft.id, [craft.hex])
        share = sum(1 for s in hexes if s in zone) / max(1, len(hexes))
        if share:
            value += share * area_worth(h, h.state.type_of(me), craft)
    return value


def doom_threat(h: SfaHeuristic, me: CraftState) -> float:
    """Expected loss to us from enemy doomsday devices charged to fire this turn."""
    state = h.state
    value = 0.0
    for enemy in state.craft.values():
        if enemy.side == h.side or enemy.disabled or not enemy.charged:
            continue
        tech = enemy.charged
        budget = state.type_of(enemy).move
        poses = h.reach(enemy, enemy.hex, enemy.facing, budget)
        hit = sum(1 for p in poses if me.hex in doom_zone(state, tech, p.hex, p.facing)) / max(
            1, len(poses)
        )
        if hit:
            value += (h.w.smart + (1 - h.w.smart) * hit) * -area_worth(h, state.type_of(enemy), me)
    return value


def tech_value(
    h: SfaHeuristic,
    me: CraftState,
    tech: str,
    poses: Sequence[Pose],
    spots: dict[str, list[Hex]],
    threats: dict[str, float],
    *,
    key: str = "",
    faster: dict[str, float] | None = None,
) -> tuple[float, str]:
    """Worth of selecting a technology as the turn's action, and why. `key` is the
    selecting actor; `faster` the share of each enemy actor's choices that act before
    it."""
    name = label(tech)
    incoming = sum(threats.values())
    cost = power_cost(h, tech)
    if tech == "boosters":
        gain = boost_gain(h, me, key or f"{me.id}#0")
        return gain - cost, f"{name}: 5 more hexes straight are worth {gain:.2f}"
    if tech == "teleport":
        gain = teleport_gain(h, me, key or f"{me.id}#0")
        return gain, f"{name}: the best landing is worth {gain:.2f} over flying"
    if tech in PLASMA:
        gain, where = plasma_gain(h, me, tech)
        return gain - cost, f"{name}: catches {gain:.2f} of the enemy flying to {where or '-'}"
    if tech == "hyper_ram":
        gain, whom = ram_gain(h, me, faster or {})
        return gain - cost, f"{name}: rams {whom or 'nobody'}, worth {gain:.2f}"
    if tech in ("duplicator", "transformation"):
        gain, what = best_design(h, me, tech)
        verb = "copies" if tech == "duplicator" else "becomes"
        return gain - cost, f"{name}: {verb} {what or 'nothing better'}, worth {gain:.2f}"
    if tech == "tractor_beam":
        gain, whom = tractor_gain(h, me, poses)
        return gain - cost, f"{name}: holds {whom or 'nobody'} for our guns, worth {gain:.2f}"
    if tech == "force_field":
        blocked = incoming + doom_threat(h, me)
        value = h.w.shield * blocked - power_cost(h, tech)
        return value, f"{name}: stops {blocked:.2f} of incoming fire"
    if tech == "stealth":
        value = h.w.cloak * incoming - power_cost(h, tech)
        return value, f"{name}: hides from {incoming:.2f} of fire in the turns to come"
    if tech == "holo_projector":
        if any(d.owner == me.id and d.on for d in h.state.decoys.values()):
            return UNUSED, f"{name}: a decoy is already out"
        # It stays out until hit: a share of this turn's fire, and of a turn to come.
        value = h.w.decoy * (incoming + h.w.lost_turn)
        return value, f"{name}: a decoy draws {value:.2f} of the enemy's fire"
    if tech == "emp":
        stunned = [
            k
            for k in threats
            if (c := h.state.craft.get(k.partition("#")[0])) is not None
            and me.hex.distance(c.hex) <= EMP_RANGE
        ]
        # A stunned enemy loses its fire at us, and a turn of its action besides.
        gain = sum(threats[k] for k in stunned) + h.w.lost_turn * len(stunned)
        value = h.w.stun * gain - power_cost(h, tech)
        return value, f"{name}: stuns {len(stunned)} enemy actors, worth {value:.2f}"
    if tech in DOOMSDAY:
        return doomsday_value(h, me, tech, poses, spots, incoming)
    if tech in ("remote_laser", "plasma_missile"):
        best, target = launch_worth(h, me, tech)
        value = best - power_cost(h, tech)
        return value, f"{name}: hunts {target or 'nothing'}, worth {value:.2f}"
    return UNUSED, f"{name}: no use in battle"


def doomsday_value(
    h: SfaHeuristic,
    me: CraftState,
    tech: str,
    poses: Sequence[Pose],
    spots: dict[str, list[Hex]],
    incoming: float,
) -> tuple[float, str]:
    """Death Blossom or Pi-Tac Cannon: fire it if charged, else charge it."""
    name = label(tech)
    state = h.state
    cost = power_cost(h, tech)
    if tech == "death_blossom":
        cost += BLOSSOM_TURNS_LOST * h.w.lost_turn
    if firing(me, tech):
        best = max(zone_worth(h, me, tech, p.hex, p.facing, spots) for p in poses)
        return best - cost, f"fires its {name}: worth {best:.2f}, costs {cost:.2f}"
    # Charging: it holds still this turn (the fire at it is not dodged), and fires
    # next turn from a pose its move then reaches, at enemies that may stay.
    move = state.type_of(me).move
    here = {c.id: [c.hex] for c in state.craft.values()}
    nexts = h.reach(me, me.hex, me.facing, move) if tech == "pi_tac_cannon" else poses
    if not nexts:
        return UNUSED, f"charges its {name}: nowhere to fire from"
    best = max(zone_worth(h, me, tech, p.hex, p.facing, here) for p in nexts)
    sitting = h.w.next_danger * incoming
    value = h.w.charge_hope * best - cost - sitting
    return value, (
        f"charges its {name}: next turn worth {best:.2f} if they stay, "
        f"less {cost + sitting:.2f} for the Power, turns and standing still"
    )


def launch_worth(h: SfaHeuristic, me: CraftState, tech: str) -> tuple[float, str]:
    """The best target of a Remote Laser or Plasma Missile and its worth: a missile's
    hunt with the technology's own pool (6-damage laser shots, an 8-dice blast)."""
    from dogfight.rulesets.sfa.heuristic import worth

    pool = REMOTE_LASER_ATTACK if tech == "remote_laser" else PLASMA_DICE
    best, target = 0.0, ""
    for craft in h.state.craft.values():
        if craft.side == h.side or craft.disabled or craft.cloaked:
            continue
        size = h.rules.guided_pool(pool, h.still_soak(craft))
        steps = h.state.type_of(craft).scale - h.state.type_of(me).scale
        value = (
            h.w.missile_worth
            * h.unit(craft)
            * worth(size, False, steps, 1, craft.structure, h.bonus(craft), rules=h.rules)
        )
        if tech == "remote_laser":
            value *= 2  # it fires again each turn while its range lasts
        if value > best:
            best, target = value, craft.id
    return best, target


def tech_resolve(h: SfaHeuristic, me: CraftState, tech: str, legal: list[Any]) -> list[Scored]:
    """How to resolve a selected technology: use it when that is worth it, else leave it."""
    state = h.state
    name = label(tech)
    out: list[Scored] = []
    here = {c.id: [c.hex] for c in state.craft.values()}
    enemies = [c for c in state.craft.values() if c.side != h.side and not c.disabled]
    for action in legal:
        if not isinstance(action, A.Resolve):
            continue
        if not (action.target or action.at is not None or action.form or action.use):
            out.append((0.0, action, f"leaves its {name} unused"))
            continue
        if action.use and tech in DOOMSDAY:
            cost = BLOSSOM_TURNS_LOST * h.w.lost_turn if tech == "death_blossom" else 0.0
            value = zone_worth(h, me, tech, me.hex, me.facing, here) - cost
            out.append((value, action, f"fires its {name}: worth {value:.2f}"))
        elif action.use:
            out.append((0.5, action, f"uses its {name}"))
        elif action.at is not None and tech == "holo_projector":
            near = min((action.at.distance(c.hex) for c in enemies), default=0)
            # Between us and the enemy, where its guns look first.
            value = 0.5 - 0.01 * near
            out.append((value, action, f"puts a decoy {near} hexes from the nearest enemy"))
        elif action.target and tech in ("remote_laser", "plasma_missile"):
            target = state.craft.get(action.target)
            if target is None or target.side == h.side:
                continue
            size = h.rules.guided_pool(
                REMOTE_LASER_ATTACK if tech == "remote_laser" else PLASMA_DICE,
                h.still_soak(target),
            )
            value = 0.1 + size * h.unit(target) * (2 if target.structure <= size else 1) / 10
            out.append((value, action, f"sends its {name} after {action.target}"))
        elif action.form and tech == "transformation":
            design = form_design(state, me, action.form)
            value = design_gain(h, me, design)
            out.append((value, action, f"becomes its {action.form} form: worth {value:.2f}"))
        elif action.target and tech == "duplicator":
            target = state.craft.get(action.target)
            if target is None or target.side == h.side:
                continue
            copy = copy_design(state, me, state.type_of(target))
            value = design_gain(h, me, copy) - given_up(h, me, copy) - power_cost(h, tech)
            out.append((value, action, f"copies {action.target}: worth {value:.2f}"))
        elif action.target and tech == "tractor_beam":
            target = state.craft.get(action.target)
            if target is None or target.side == h.side:
                out.append((-0.1, action, f"takes {action.target} in tow: no use"))
                continue
            value = hold_worth(h, me, target) - h.w.power_price * action.power
            out.append((value, action, f"grabs {action.target} in its beam: worth {value:.2f}"))
    return out


# ---- the movement technologies: Boosters, Teleport, Plasma Field and Trail, Hyper-Ram ----

NONE = Selection(kind="none")
TELEPORT_TRIED = (3, 5)
"""Teleport landings weighed at selection are this many hexes away (every one up to
the craft's Power is legal, and each is weighed at the move; farther jumps drain the
Power the other technologies need)."""
BOOST_TRIED = (3, BOOST_HEXES)
"""Booster hexes flown by the boosted moves weighed at selection."""


def spots_now(h: SfaHeuristic) -> dict[str, list[Hex]]:
    """`SfaHeuristic.spots`, worked out once a decision."""
    known = h._settled.get(("spots",))
    if known is None:
        known = h._settled[("spots",)] = h.spots()
    return known  # type: ignore[no-any-return]


def settled(h: SfaHeuristic, me: CraftState, key: str) -> Plan:
    """A move plan for selecting now: where the enemy may go and fire next turn (this
    turn's fire is weighed by the selection's own terms)."""
    known = h._settled.get(("plan", key))
    if known is None:
        known = h.plan(key)
        known.fires = []
        h._settled[("plan", key)] = known
    return known


def flown_worth(h: SfaHeuristic, plan: Plan, path: Path) -> float:
    """Worth of a path flown with no action: its hazards, then where it ends
    (`SfaHeuristic.pose_value`)."""
    me = plan.me
    loss, pose, lost = h.hazards(me, path)
    if lost >= 1.0:
        return -loss
    move = h.state.type_of(me).move
    key = (pose, "none", "")
    cached = plan.cache.get(key)
    if cached is None:
        cached = plan.cache[key] = h.pose_value(plan, pose, NONE, move)
    return -loss + (1 - lost) * cached


def paths_of(h: SfaHeuristic, me: CraftState, selection: Selection) -> list[Path]:
    """The paths of the moves the rules offer the craft under a selection
    (`choices.move_choices`), traced on the map."""
    budget = move_budget(h.state, me, selection, h.rules)
    least = least_hexes(h.state, me, selection)
    out = []
    for steps in move_choices(h.state, me, selection, h.rules):
        path = trace(me.hex, me.facing, steps, budget, min_hexes=least, maneuver=h.rules.maneuver)
        if not path.problem and all(x in h._inside for x in path.hexes):
            out.append(path)
    return out


def plain_best(h: SfaHeuristic, me: CraftState, key: str) -> float:
    """The best a plain move of the craft does (the base the movement technologies are
    measured from)."""
    known = h._settled.get(("plain", key))
    if known is None:
        plan = settled(h, me, key)
        worths = [flown_worth(h, plan, p) for p in paths_of(h, me, NONE)]
        known = h._settled[("plain", key)] = max(worths, default=0.0)
    return known


def boost_gain(h: SfaHeuristic, me: CraftState, key: str) -> float:
    """What the 5 straight Booster hexes (SFA-TEC-04) buy over a plain move: a firing
    position for next turn, or a way out of the enemy's lines."""
    sel = Selection(kind="equipment", item="boosters")
    plan = settled(h, me, key)
    move = h.state.type_of(me).move
    # The moves that fly 3 or all 5 of the Booster hexes stand for the rest (each end
    # is weighed as a move's end: the cost of this decision is in them).
    boosted = [p for p in paths_of(h, me, sel) if len(p.hexes) - move in BOOST_TRIED]
    best = max((flown_worth(h, plan, p) for p in boosted), default=-math.inf)
    return max(0.0, best - plain_best(h, me, key))


def teleport_worth(
    h: SfaHeuristic, plan: Plan, dest: Hex, selection: Selection | None = None
) -> tuple[float, str]:
    """Worth of a Teleport to `dest` (SFA-TEC-27): the pose it lands in (facing kept,
    nothing on the way touched), less the Power a hex it costs."""
    from dogfight.rulesets.sfa.heuristic import Pose

    me = plan.me
    move = h.state.type_of(me).move
    pose = Pose(dest, me.facing)
    value = h.pose_value(plan, pose, plan.selection if selection is None else selection, move)
    hexes = me.hex.distance(dest)
    value -= h.w.power_price * hexes
    return value, f"teleports {hexes} hexes to {dest.q},{dest.r}: worth {value:.2f}"


def teleport_gain(h: SfaHeuristic, me: CraftState, key: str) -> float:
    """What a Teleport buys over a plain move: the best landing within `TELEPORT_TRIED`
    hexes (a hex that lines up next turn's shot, or one out of the enemy's reach)."""
    plan = settled(h, me, key)
    best = -math.inf
    for dest in teleport_choices(h.state, me):
        if me.hex.distance(dest) not in TELEPORT_TRIED:
            continue
        best = max(best, teleport_worth(h, plan, dest, NONE)[0])
    return max(0.0, best - plain_best(h, me, key))


PLASMA = ("plasma_field", "plasma_trail")


def crossing(h: SfaHeuristic, craft: CraftState, hexes: set[Hex], budget: int) -> float:
    """Share of a craft's moves from where it is that enter one of `hexes`."""
    from dogfight.rulesets.sfa.heuristic import flights

    least = 0 if h.state.type_of(craft).move == 0 else 1
    paths = flights(craft.hex, craft.facing, budget, least, rules=h.rules)
    if not paths:
        return 0.0
    return sum(1 for _, p in paths if not hexes.isdisjoint(p.hexes)) / len(paths)


def near_hexes(where: Hex, reach: int) -> set[Hex]:
    """The hexes within `reach` of a hex."""
    return set(where.spiral(reach))


def plasma_worth(
    h: SfaHeuristic, me: CraftState, tech: str, hexes: Sequence[Hex], end: Hex
) -> float:
    """Worth to us of flying `hexes` (ending at `end`) with a Plasma Field up or laying
    a Plasma Trail: 8 dice less Soak (`area_worth`) on each craft it catches, friends
    as losses.

    - Field (SFA-TEC-20): a craft is caught if we pass within 2 hexes of it, or, still
      to move, by the share of its moves that enter a hex within 2 of where we end.
    - Trail (SFA-TEC-22): a craft is caught by the share of its moves that enter our
      trail, this turn if it is still to move, and next turn (the trail stays hot)."""
    state = h.state
    design = state.type_of(me)
    reach = PLASMA_FIELD_RANGE
    trail = set(hexes)
    value = 0.0
    ours = len(hexes)
    for craft in state.craft.values():
        if craft.id == me.id or craft.disabled:
            continue
        pending = state.phase != "act" or not h.has_moved(craft)
        sel = state.selections.get(f"{craft.id}#0")
        theirs = max(h.budget(craft, sel), 2 * state.type_of(craft).move)
        if me.hex.distance(craft.hex) > ours + reach + theirs:
            continue  # out of reach of anything below: it adds nothing
        if tech == "plasma_field":
            if any(x.distance(craft.hex) <= reach for x in hexes):
                chance = 1.0
            elif pending and craft.side != h.side and state.type_of(craft).move > 0:
                # It is caught entering any hex within 2 of where we end.
                chance = crossing(h, craft, near_hexes(end, reach), h.budget(craft, sel))
            else:
                chance = 0.0
        else:
            move = state.type_of(craft).move
            if move <= 0:
                continue
            now = crossing(h, craft, trail, h.budget(craft, sel)) if pending else 0.0
            later = crossing(h, craft, trail, 2 * move)
            chance = 1 - (1 - now) * (1 - h.w.trail_hope * later)
        if chance:
            value += chance * area_worth(h, design, craft, PLASMA_DICE, 0)
    return value


def plasma_gain(h: SfaHeuristic, me: CraftState, tech: str) -> tuple[float, str]:
    """The best a plain move does with a Plasma Field up or a Plasma Trail laid."""
    best, where = 0.0, ""
    for path in paths_of(h, me, NONE):
        value = plasma_worth(h, me, tech, path.hexes, path.end)
        if value > best:
            best, where = value, f"{path.end.q},{path.end.r}"
    return best, where


def plasma_danger(h: SfaHeuristic, me: CraftState, where: Hex, burnt: set[str]) -> float:
    """Expected loss to our craft entering `where`: the hot Plasma Trails of other craft
    there and the Plasma Fields within 2 hexes (SFA-TEC-20, SFA-TEC-22), each once a
    move (`burnt` holds the sources already counted)."""
    state = h.state
    loss = 0.0
    for trail in state.trails:
        key = f"trail:{trail.owner}"
        if trail.owner == me.id or key in burnt or where not in trail.hexes:
            continue
        if trail.until < state.turn or trail.owner_type not in state.types:
            continue
        burnt.add(key)
        loss -= area_worth(h, state.types[trail.owner_type], me, PLASMA_DICE, 0)
    for other in state.craft.values():
        key = f"field:{other.id}"
        if other.id == me.id or not other.plasma_field or key in burnt:
            continue
        if other.hex.distance(where) <= PLASMA_FIELD_RANGE:
            burnt.add(key)
            loss -= area_worth(h, state.type_of(other), me, PLASMA_DICE, 0)
    return loss if me.side == h.side else -loss


def ram_gain(h: SfaHeuristic, me: CraftState, faster: dict[str, float]) -> tuple[float, str]:
    """Worth of the best ram with Hyper-Ram charged (SFA-TEC-17): it takes nothing, the
    other takes our Structure times the hexes flown (`SfaHeuristic.ram`). An enemy that
    moves after us is rammed where it is; one that moves first, where it ends, if one
    of our moves reaches that hex first."""
    from dogfight.rulesets.sfa.heuristic import flights, operational

    state = h.state
    ramming = msgspec.structs.replace(me, ramming=True)
    budget = state.type_of(me).move
    # Hex -> the most hexes flown by a move whose first craft-holding hex it is.
    reach: dict[Hex, int] = {}
    for _, path in flights(me.hex, me.facing, budget, 1, rules=h.rules):
        for k, x in enumerate(path.hexes, start=1):
            if x not in h._inside:
                break
            reach[x] = max(reach.get(x, 0), k)
            if state.occupant(x, ignore=me.id) is not None:
                break
    best, whom = 0.0, ""
    spots = spots_now(h)
    for enemy in operational(state, state.other(h.side)):
        first = faster.get(f"{enemy.id}#0", 0.0)  # the share of its choices that move first
        here = reach.get(enemy.hex, 0)
        value = (1 - first) * (h.ram(ramming, enemy, here) if here else 0.0)
        ends = spots.get(enemy.id, [enemy.hex])
        later = sum(h.ram(ramming, enemy, reach[x]) for x in ends if reach.get(x))
        value += first * later / max(1, len(ends))
        if value > best:
            best, whom = value, enemy.id
    return best, whom


# ---- Duplicator and Transformation: a change of design -----------------------------------


def exchange(h: SfaHeuristic, me: CraftState) -> float:
    """A turn of fire as the craft's design stands: its best gun's shot at its best
    target (next turn's weight) less the enemy's fire at it among the poses it may fly
    to (the design's Soak and Handling in every shot; its Move in where it may go): a
    mix, by `smart`, of their average and of the safest (the average alone would call
    a craft that can go fewer places safer)."""
    from dogfight.rulesets.sfa.heuristic import operational

    state = h.state
    poses = h.poses(me, state.type_of(me).move)
    dangers = [sum(h.threats_to(me, [p]).values()) for p in poses]
    threat = 0.0
    if dangers:
        threat = h.w.smart * sum(dangers) / len(dangers) + (1 - h.w.smart) * min(dangers)
    gun = h.best_gun(me)
    shot = 0.0
    if gun is not None:
        station, weapon = gun
        for enemy in operational(state, state.other(h.side)):
            shot = max(shot, h.shot(me, station, weapon, enemy))
    return h.w.next_shot * shot - threat


def design_gain(h: SfaHeuristic, me: CraftState, design: Craft) -> float:
    """What taking on `design` is worth over the craft's own, for `design_turns` turns:
    its Handling in our shots and Soak, its Soak and scale against the enemy's fire,
    its Move in the ways we may fly (SFA-TEC-08, SFA-TEC-30)."""
    state = h.state
    if design.id == me.type:
        return 0.0
    before = exchange(h, me)
    changed = msgspec.structs.replace(me, type=design.id)
    h.state = msgspec.structs.replace(
        state,
        types={**state.types, design.id: design},
        craft={**state.craft, me.id: changed},
    )
    try:
        after = exchange(h, changed)
    finally:
        h.state = state
    return h.w.design_turns * (after - before)


def given_up(h: SfaHeuristic, me: CraftState, design: Craft) -> float:
    """What a Duplicator copy gives up: the best worth now of our own action
    technologies the copy does not have (it takes the model's, SFA-TEC-08)."""
    from dogfight.rulesets.sfa.heuristic import Pose

    own = h.state.type_of(me)
    lost = [
        t.id
        for t in own.technologies
        if t.id in ACTION_TECHS and t.id != "duplicator" and not design.has(t.id)
    ]
    if not lost:
        return 0.0
    poses = h.poses(me, own.move) if own.move > 0 else [Pose(me.hex, me.facing)]
    threats = h.threats_to(me, poses)
    spots = spots_now(h)
    return max(0.0, *(tech_value(h, me, t, poses, spots, threats)[0] for t in lost))


def designs(h: SfaHeuristic, me: CraftState, tech: str) -> list[tuple[str, Craft]]:
    """(target or form, the design it gives) for each use of a Duplicator or a
    Transformation on offer (`technology.resolve_options`)."""
    state = h.state
    out = []
    for fields in resolve_options(state, me, tech):
        if tech == "transformation":
            form = str(fields["form"])
            out.append((form, form_design(state, me, form)))
        else:
            target = state.craft.get(str(fields["target"]))
            if target is not None and target.side != h.side:
                out.append((target.id, copy_design(state, me, state.type_of(target))))
    return out


def best_design(h: SfaHeuristic, me: CraftState, tech: str) -> tuple[float, str]:
    """The best use of a Duplicator or Transformation and its worth."""
    best, what = 0.0, ""
    for name, design in designs(h, me, tech):
        value = design_gain(h, me, design)
        if tech == "duplicator" and value > best:
            value -= given_up(h, me, design)
        if value > best:
            best, what = value, name
    return best, what


# ---- Tractor Beam -----------------------------------------------------------------------


def hold_worth(h: SfaHeuristic, me: CraftState, target: CraftState) -> float:
    """Worth of grabbing an enemy in our Tractor Beam (SFA-TEC-29): the chance the grab
    holds (`technology.tractor_pool`, `tractor_holds`), times the shots our craft may
    then line up at a craft that cannot fly off (we drag it, next turn's weight)."""
    from dogfight.rulesets.sfa.heuristic import operational

    state = h.state
    if target.disabled or target.held_by == me.id:
        return 0.0
    size, _ = tractor_pool(state, me, target, h.rules)
    odds, _ = h.rules.pool_odds(size)
    mine, theirs = state.type_of(me).scale, state.type_of(target).scale
    hold = sum(
        float(p)
        for net, p in odds.items()
        if tractor_holds(state, me, target, h.rules.scale_adjust(net, mine, theirs))
    )
    fire = 0.0
    for friend in operational(state, h.side):
        gun = h.best_gun(friend)
        if gun is not None:
            fire += h.shot(friend, gun[0], gun[1], target)
    return hold * h.w.next_shot * fire


def tractor_gain(h: SfaHeuristic, me: CraftState, poses: Sequence[Pose]) -> tuple[float, str]:
    """The best enemy to grab after our move: held worth times the share of the hexes
    it may end in within the beam's 2 hexes of one of our poses."""
    from dogfight.rulesets.sfa.heuristic import operational

    best, whom = 0.0, ""
    spots = spots_now(h)
    for enemy in operational(h.state, h.state.other(h.side)):
        if enemy.cloaked:
            continue
        ends = spots.get(enemy.id, [enemy.hex])
        near = max(
            (sum(1 for x in ends if x.distance(p.hex) <= TRACTOR_RANGE) for p in poses), default=0
        ) / max(1, len(ends))
        value = near * hold_worth(h, me, enemy)
        if value > best:
            best, whom = value, enemy.id
    return best, whom


def drag_scores(h: SfaHeuristic, held: CraftState, legal: list[Any]) -> list[Scored]:
    """Where to drag an enemy held in our beam (SFA-TEC-29): into the lines of our
    guns, out of its own line at our craft (it keeps its facing and may still fire)."""
    from dogfight.rulesets.sfa.heuristic import operational

    state = h.state
    out: list[Scored] = []
    gun = h.best_gun(held)
    for action in legal:
        if not isinstance(action, A.Move) or action.craft != held.id:
            continue
        where = held.hex if action.dest is None else action.dest
        value = 0.0
        for friend in operational(state, h.side):
            ours = h.best_gun(friend)
            if ours is None:
                continue
            budget = 0 if h.has_moved(friend) else state.type_of(friend).move
            share = h.fire_map(friend, ours[1], friend.hex, friend.facing, budget)
            value += share.get(where, (0.0, 0))[0] * h.shot(friend, ours[0], ours[1], held)
            if gun is not None and friend.hex in h.coverage(held, gun[1], where, held.facing):
                value -= h.shot(held, gun[0], gun[1], friend)
        said = "holds it where it is" if action.dest is None else f"drags it to {where.q},{where.r}"
        out.append((value, action, f"{said}: worth {value:.2f}"))
    return out
