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
- Temporal Displacement (SFA-TEC-28) is a reaction, in `heuristic.displace`.

Technologies it does not weigh (Boosters, Teleport, Plasma Field and Trail, Hyper-Ram,
Duplicator, Tractor Beam, Transformation) score below any other choice, so it never
selects them. Power is priced (`Weights.power_price`): it is never restored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.combat import defending_scale, disrupts, soak_against
from dogfight.rulesets.sfa.craft import TECHNOLOGIES
from dogfight.rulesets.sfa.state import CraftState
from dogfight.rulesets.sfa.technology import (
    BLOSSOM_TURNS_LOST,
    DOOM_AUTOMATIC,
    DOOM_DICE,
    EMP_RANGE,
    PLASMA_DICE,
    REMOTE_LASER_ATTACK,
    doom_zone,
    firing,
    label,
)

if TYPE_CHECKING:
    from dogfight.rulesets.sfa.heuristic import Pose, SfaHeuristic

Scored = tuple[float, Any, str]

UNUSED = -10.0
"""Score of a technology this player does not weigh: below any choice it does."""
DOOMSDAY = ("death_blossom", "pi_tac_cannon")


def power_cost(h: SfaHeuristic, tech: str) -> float:
    """The price of the Power one use takes."""
    return h.w.power_price * (TECHNOLOGIES[tech].power or 0)


def area_worth(h: SfaHeuristic, source: CraftState, victim: CraftState) -> float:
    """Worth to us of a doomsday hit on `victim`: 10 automatic damage plus 10 dice less
    its Soak against the source's design (SFA-TEC-06, SFA-TEC-19, `combat.area_attack`);
    our own craft count as losses. Nothing gets through a Force Field."""
    state = h.state
    design = state.type_of(source)
    if victim.disabled or victim.structure <= 0:
        return 0.0
    if victim.force_field and not disrupts(design):
        return 0.0
    soak = soak_against(state, victim, design, rules=h.rules)
    size = h.rules.guided_pool(DOOM_DICE, soak)
    defending = defending_scale(state, victim, design)
    odds, _ = h.rules.pool_odds(size)
    left = victim.structure
    total = 0.0
    for net, p in odds.items():
        damage = DOOM_AUTOMATIC + h.rules.scale_adjust(net, design.scale, defending)
        total += float(p) * (min(damage, left) + (h.bonus(victim) if damage >= left else 0.0))
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
                value += area_worth(h, me, craft)
            continue
        hexes = spots.get(craft.id, [craft.hex])
        share = sum(1 for s in hexes if s in zone) / max(1, len(hexes))
        if share:
            value += share * area_worth(h, me, craft)
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
            value += (h.w.smart + (1 - h.w.smart) * hit) * -area_worth(h, enemy, me)
    return value


def tech_value(
    h: SfaHeuristic,
    me: CraftState,
    tech: str,
    poses: Sequence[Pose],
    spots: dict[str, list[Hex]],
    threats: dict[str, float],
) -> tuple[float, str]:
    """Worth of selecting a technology as the turn's action, and why."""
    name = label(tech)
    incoming = sum(threats.values())
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
    return UNUSED, f"{name}: this player does not use it"


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
    return out
