"""A heuristic player for the `sfa` ruleset (Space Fighter Alpha on a hex map).

It looks no further than the end of the next turn, and it sees only what its side may
see: every decision starts from its seat's `state()` (the ruleset's `known_state`, built
from the side's observation), so the enemy's secret selections stay secret until the
Speeds are revealed (SFA-SEQ-1). The craft designs
come from the scenario, which both sides know.

Everything is scored in Structure points of enemy craft, with a bonus for putting a
craft out of action (`Weights.kill_share`), each side's Structure weighted as the
turn-limit score weighs it; losses of our own count a little more
(`Weights.loss_weight`). The weights are in `weights.Weights`; the personas
(`heuristic:aggressive`, `heuristic:cautious`) change some of them from data files.
`weigh` returns every candidate it scored, best first, with why in a player's words;
`decide` is its first.

- Shots: the exact odds of every attack pool (`pool.exact_distribution`), with the
  shooter's Handling after its maneuvers, the target's total Soak, dice traded for
  Speed, fire-linked pairs and scale. A shot is worth the Structure it takes (no more
  than the target has left) plus the kill bonus times the chance it disables.
- Where each craft can fire: the straight lines, arcs and ranges of its weapons, with
  asteroids blocking (SFA-ATK-2), from every end pose of every move it may fly
  (`maneuvers.trace`).
- Moves: each legal move's end hex and facing is scored by the shot it gives now,
  less the fire it is exposed to from enemies still to act (a mix of the worst case and
  the average over their moves, with our maneuver Soak counted), the chance of wrecking
  on an obstacle, colliding or leaving the map; plus the shots it sets up for next turn,
  less the lines it leaves us on and a price on being boxed against the edge.
  Collisions are weighed both ways: every move starts into the forward hex, so a craft
  with another in front of it must ram it, and abort moves may fly into a craft.
  Aborting to an extra move costs Willpower and the shot, and is taken when that buys
  safety.
- Selections: the weapon with the best prospect of damage this turn (where we and the
  target may be by the time we fire, given who is likely to be faster), the value of
  being faster than each enemy actor (dodge or shoot first), and the dice that cost.
- Interrupts: before an enemy moves, to take a shot its move may spoil or to get out
  of the way of its ram, weighed against the fire it then brings knowing where we
  went; before an enemy fires, when our faster actor can dodge it or disable the
  shooter.
- Resolutions: the target with the best shot worth; Willpower's sure success when it
  adds enough chance of finishing the target to pay for the point. A shot no roll of
  which can do damage (a wreck, a Force Field, a Soak or scale the pool cannot pass)
  only risks a botch: it holds fire instead. A missile at a craft our missiles in
  flight will likely finish is worth only the chance they fail.
- Technologies (`tech_sense`): every action technology is selected when what it stops
  or does is worth more than a shot (Force Field, Stealth, Holo-Projector, EMP, Death
  Blossom, Pi-Tac Cannon, Remote Laser, Plasma Missile, Boosters, Teleport, Plasma
  Field and Trail, Hyper-Ram, Duplicator, Tractor Beam, Transformation); Temporal
  Displacement re-rolls a bad roll.

Choices it does not know (other technologies, abort actions or steps) are left alone:
when nothing it knows is on offer it takes 'none', Pass, holding fire or the first legal
action. The player's own `rng` only breaks exact ties, so play is deterministic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import msgspec

from dogfight.core.choose import TIE
from dogfight.core.play import Weighed
from dogfight.core.seat import Seat
from dogfight.geometry.hex import DIRECTIONS, Hex
from dogfight.geometry.hexmap import HexMap, line_of_fire
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.actors import speed_of, split_key
from dogfight.rulesets.sfa.choices import (
    choices_for,
    impact_key,
    least_hexes,
    move_budget,
    station_weapons,
)
from dogfight.rulesets.sfa.collisions import collides, crowding_collides
from dogfight.rulesets.sfa.combat import (
    OBSTACLES,
    bears,
    collision_hurt,
    collision_soak,
    defending_scale,
    disrupts,
    soak_against,
    unit_scale,
)
from dogfight.rulesets.sfa.craft import Weapon
from dogfight.rulesets.sfa.maneuvers import Path, candidate_steps, trace
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules, expendable
from dogfight.rulesets.sfa.state import CraftState, Selection, SfaState
from dogfight.rulesets.sfa.tech_sense import (
    PLASMA,
    Scored,
    drag_scores,
    plasma_danger,
    plasma_worth,
    tech_resolve,
    tech_value,
    teleport_worth,
    zone_worth,
)
from dogfight.rulesets.sfa.temporal import wants_reroll
from dogfight.rulesets.sfa.weights import Weights, persona

# ---- constants -------------------------------------------------------------------
# The weights a persona may change are in `weights.Weights`.

SCALE = 10.0
"""Worth of knocking out a whole side's starting Structure (the turn-limit score)."""
DICE_TRIED = frozenset(range(7))
"""Dice traded for Speed this player weighs when it selects (all 0..10 are legal; past 6
a trade costs most of a fighter's pool for a place in the order 6 dice nearly always
buy already)."""
REROLL_DICE = 3
"""Our own roll that scored nothing is re-rolled with Temporal Displacement when it was
at least this many dice."""
TELEPORT_REACH = 5
"""Teleport landings this player weighs at its move are at most this many hexes away."""
REROLL_HURT = 3
"""A roll against us doing this much damage (or putting us out) is re-rolled."""

# ---- odds ---------------------------------------------------------------------------


@cache
def net_odds(
    size: int, willpower: bool, *, rules: SfaRules = SFA_RULES
) -> tuple[tuple[int, float], ...]:
    """Net successes -> chance, for a pool of `size` d10s at difficulty 6."""
    odds, _ = rules.pool_odds(size, willpower=willpower)
    return tuple((net, float(p)) for net, p in odds.items())


@cache
def damage_odds(
    size: int, willpower: bool, steps: int, hits: int, *, rules: SfaRules = SFA_RULES
) -> tuple[tuple[int, float], ...]:
    """Total damage -> chance, for `hits` pools of `size` dice; `steps` is the target's
    scale less the weapon's (SFA-ATK-1, interscale combat). A Willpower point buys its
    success on the first roll only (SFA-ATK-5)."""
    total = {0: 1.0}
    for roll in range(max(1, hits)):
        one: dict[int, float] = {}
        bought = willpower and roll == 0
        for net, p in net_odds(size, bought, rules=rules):
            # SFA-ATK-5: the bought success does 1 damage whatever the scale.
            damage = rules.attack_damage(net, 0, steps, willpower=bought)
            one[damage] = one.get(damage, 0.0) + p
        nxt: dict[int, float] = {}
        for a, pa in total.items():
            for b, pb in one.items():
                nxt[a + b] = nxt.get(a + b, 0.0) + pa * pb
        total = nxt
    return tuple(sorted(total.items()))


@cache
def worth(
    size: int,
    willpower: bool,
    steps: int,
    hits: int,
    left: int,
    bonus: float,
    *,
    rules: SfaRules = SFA_RULES,
) -> float:
    """A shot's worth in Structure against a target with `left` Structure: what it takes
    (no more than is left) plus `bonus` times the chance of disabling it."""
    total = 0.0
    for damage, p in damage_odds(size, willpower, steps, hits, rules=rules):
        total += p * min(damage, left)
        if damage >= left:
            total += p * bonus
    return total


@cache
def kill_chance(
    size: int, willpower: bool, steps: int, hits: int, left: int, *, rules: SfaRules = SFA_RULES
) -> float:
    """The chance a shot takes at least `left` Structure."""
    odds = damage_odds(size, willpower, steps, hits, rules=rules)
    return sum(p for damage, p in odds if damage >= left)


@cache
def fail_chance(size: int, difficulty: int, *, rules: SfaRules = SFA_RULES) -> float:
    """The chance a Piloting pool scores no net success (SFA-OBS-1)."""
    odds, _ = rules.pool_odds(size, difficulty=difficulty)
    return float(odds.get(0, 0))


@lru_cache(maxsize=65536)
def flights(
    start: Hex, facing: int, budget: int, least: int, *, rules: SfaRules = SFA_RULES
) -> tuple[tuple[str, Path], ...]:
    """Every candidate move from a pose that the movement rules allow, with its path."""
    out = []
    for steps in candidate_steps(budget):
        path = trace(start, facing, steps, budget, min_hexes=least, maneuver=rules.maneuver)
        if not path.problem:
            out.append((steps, path))
    return tuple(out)


@lru_cache(maxsize=64)
def disk(radius: int) -> tuple[Hex, ...]:
    """Offsets of every hex 1 to `radius` steps from a hex."""
    return tuple(Hex(0, 0).spiral(radius)[1:])


Lines = tuple[str, list[int], list[tuple[float, int]], int]
"""An enemy's id, our best Handling for each of its spots our gun covers, (share of its
spots, Handling) of each pose that covers some, and its number of spots."""


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a move ends and what its maneuvers do this turn."""

    hex: Hex
    facing: int
    soak: int = 0
    handling: int = 0


@dataclass(slots=True)
class Fire:
    """Where one enemy actor's weapon may reach from the poses it may take."""

    craft: CraftState
    station: int
    weapon: Weapon
    speed_dice: int
    cover: dict[Hex, tuple[float, int]]
    """Hex -> (share of its poses that reach it, best Handling change among those)."""


@dataclass(slots=True)
class Plan:
    """What a move decision needs, worked out once for all the moves on offer."""

    me: CraftState
    key: str
    selection: Selection
    fires: list[Fire]
    next_fires: list[Fire]
    targets: list[tuple[CraftState, float]]
    """Enemy craft we may fire at, with the chance each is still there when we do."""
    spots: dict[str, list[Hex]]
    """Enemy craft id -> the hexes it may end this turn in."""
    cache: dict[tuple[Any, ...], float] = field(default_factory=dict)


def operational(state: SfaState, side: str) -> list[CraftState]:
    """A side's craft still fighting, in id order."""
    return [
        c
        for c in sorted(state.craft.values(), key=lambda c: c.id)
        if c.side == side and not c.disabled
    ]


class SfaHeuristic:
    """Plays `sfa`: lines up its guns, keeps off the enemy's, and acts first when it pays."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None, name: str = "heuristic") -> None:
        self.w: Weights = weights if weights is not None else Weights()
        """The weights this player scores with (a persona's own, or the defaults)."""
        self.name = name
        self._map: HexMap | None = None
        self._cover: dict[tuple[Any, ...], frozenset[Hex]] = {}
        self._fire: dict[tuple[Any, ...], dict[Hex, tuple[float, int]]] = {}
        self._reach: dict[tuple[Any, ...], list[Pose]] = {}
        self._spots: dict[tuple[Any, ...], frozenset[Hex]] = {}
        self._rams: dict[tuple[Any, ...], dict[Hex, tuple[float, int, int]]] = {}
        self._traps: dict[tuple[Any, ...], float] = {}
        """`trap` prices worked out in this decision (many moves end in the same pose)."""
        self._units: dict[str, float] = {}
        self._soaks: dict[tuple[Any, ...], tuple[int, int]] = {}
        self._lines: dict[tuple[Any, ...], list[Lines]] = {}
        """`lines_of` in this decision."""
        """(target, its design, its maneuver Soak, shooter's design) -> (Soak, scale), in
        this decision."""
        """Side -> `unit` worth, in this decision."""
        self._rocks: list[Hex] = []
        self._rock_set: frozenset[Hex] = frozenset()
        self._inside: frozenset[Hex] = frozenset()
        self._obstacles: dict[Hex, tuple[int, int]] = {}
        """Hex -> (Structure, Piloting difficulty) of the obstacle there, for this map."""
        self._next: list[Fire] | None = None
        self._settled: dict[tuple[Any, ...], Any] = {}
        """What the movement technologies' worth shares in one decision (`tech_sense`)."""
        self.rules: SfaRules = SFA_RULES
        """The rule functions of the ruleset being played (a subclass's own)."""
        self._rules: SfaRules | None = None
        """The rules the map caches were worked out with."""

    # ---- entry point ---------------------------------------------------------------

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """One of `legal`, from what `seat` may know only (`Seat.state`: the ruleset's
        `known_state`, without the other side's secrets): the first of `weigh`."""
        return self.weigh(seat, legal, rng)[0].action

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """The candidates this player considered, best first, each with its score and
        why. Exact ties for the best are broken with `rng` (the one chosen comes first)."""
        if len(legal) == 1:
            return [Weighed(legal[0], 0.0, "the only choice")]
        scored = self.consider(seat, legal, rng)
        scored = [(v, a, why) for v, a, why in scored if a in legal]
        if not scored:
            return [Weighed(fallback(legal), 0.0, "nothing it knows how to weigh: passes")]
        best = max(v for v, _, _ in scored)
        top = [i for i, (v, _, _) in enumerate(scored) if v >= best - TIE]
        first = top[0] if len(top) == 1 else top[rng.randrange(len(top))]
        rest = sorted((item for i, item in enumerate(scored) if i != first), key=lambda t: -t[0])
        return [Weighed(a, v, why) for v, a, why in [scored[first], *rest]]

    def consider(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Scored]:
        """Set up what the decision needs, then score the candidates of its kind."""
        side = seat.side
        rules = getattr(seat.ruleset, "rules", None)
        self.rules = rules if isinstance(rules, SfaRules) else SFA_RULES
        # Our own selections table: `guess_hidden` fills in what the Speeds reveal of
        # the enemy, and the seat's state is only read.
        known: SfaState = seat.state()
        state = msgspec.structs.replace(known, selections=dict(known.selections))
        if (state.map, self.rules) != (self._map, self._rules):
            self._map, self._rules = state.map, self.rules
            self._cover.clear()
            self._fire.clear()
            self._reach.clear()
            self._rocks = [h for h, t in state.map.terrain.items() if t.kind == "asteroid"]
            self._rock_set = frozenset(self._rocks)
            self._inside = frozenset(state.map)
            self._obstacles = {
                h: OBSTACLES[t.kind] for h, t in state.map.terrain.items() if t.kind in OBSTACLES
            }
        guess_hidden(state, side)
        self.state = state
        self.side = side
        self._spots.clear()
        self._traps.clear()
        self._units.clear()
        self._soaks.clear()
        self._lines.clear()
        self._rams.clear()
        self._next = None
        self._settled.clear()
        if state.temporal is not None:
            return self.displace(legal)
        if state.abort_offer:
            return self.abort(legal)
        if state.phase == "select":
            return self.select(legal)
        if state.phase == "act" and state.step.startswith("window"):
            return self.window(legal)
        if state.phase == "act" and state.step == "move":
            return self.move(legal)
        if state.phase == "act" and state.step == "resolve":
            return self.resolve(legal)
        return []

    # ---- geometry ------------------------------------------------------------------

    def coverage(
        self, craft: CraftState, weapon: Weapon, where: Hex, facing: int
    ) -> frozenset[Hex]:
        """Hexes `weapon` reaches with its craft at a pose (range, arc, asteroids)."""
        state = self.state
        ctype = state.type_of(craft)
        # A Street Fighter on the map reaches by its own rules (SFA-SF-3): ask `bears`.
        person = getattr(ctype, "fighter", None) is not None
        lines = (
            not person
            and weapon.arc == "forward"
            and not weapon.guided
            and not ctype.has("remote_bits")
        )
        round_about = not person and (weapon.arc == "all" or weapon.guided)
        key = (craft.type, weapon.name, where, -1 if round_about else facing)
        found = self._cover.get(key)
        if found is not None:
            return found
        hexes: list[Hex] = []
        if lines:
            facings: Iterable[int] = range(6) if ctype.has("auto_turrets") else (facing,)
            for f in facings:
                step = DIRECTIONS[f % 6]
                here = where
                for _ in range(weapon.range):
                    here = here + step
                    hexes.append(here)
                    if state.map.terrain_at(here).kind == "asteroid":
                        break
        elif round_about:
            hexes = [where + d for d in disk(weapon.range)]
            rocks = [
                (h.q, h.r, h.distance(where))
                for h in self._rocks
                if 0 < h.distance(where) < weapon.range
            ]
            if rocks:
                hexes = [h for h in hexes if self.clear(where, h, rocks)]
        else:
            posed = msgspec.structs.replace(craft, hex=where, facing=facing)
            if person:
                maybe = set(where.spiral(weapon.range))
            elif weapon.arc == "forward" and not weapon.guided:
                # Remote Bits: the lines ahead out of the hexes beside the craft too.
                facings = range(6) if ctype.has("auto_turrets") else (facing,)
                starts = [where, where.neighbor(facing - 1), where.neighbor(facing + 1)]
                maybe = set(starts[1:])
                for start in starts:
                    for f in facings:
                        maybe.update(
                            start + DIRECTIONS[f % 6].scale(k) for k in range(1, 1 + weapon.range)
                        )
            else:
                maybe = set(where.spiral(weapon.range)[1:])
            hexes = [h for h in maybe if h in self._inside and not bears(state, posed, weapon, h)]
        found = frozenset(hexes)
        self._cover[key] = found
        return found

    def clear(self, start: Hex, end: Hex, rocks: Sequence[tuple[int, int, int]]) -> bool:
        """Whether no asteroid blocks the line of fire (SFA-ATK-2). `rocks` are the
        asteroids near `start` as (q, r, distance from start); only one on a shortest
        path between the two hexes can lie on the line, so only then is the line drawn."""
        dq, dr = end.q - start.q, end.r - start.r
        span = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
        for q, r, near in rocks:
            dq, dr = end.q - q, end.r - r
            far = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
            if far and near + far == span:
                return line_of_fire(start, end, lambda x: x in self._rock_set)[0]
        return True

    def poses(self, craft: CraftState, budget: int, *, strict: bool = True) -> list[Pose]:
        """End poses of the moves a craft may fly, on the map (and, if `strict`, not
        through another craft)."""
        state = self.state
        move = state.type_of(craft).move
        least = 0 if move == 0 else 1
        if move == 0:
            return [Pose(craft.hex, craft.facing)]
        taken = {c.hex for c in state.craft.values() if c.id != craft.id} if strict else set()
        seen: dict[tuple[Hex, int], Pose] = {}
        for _, path in flights(craft.hex, craft.facing, budget, least, rules=self.rules):
            if not all(h in self._inside and h not in taken for h in path.hexes):
                continue
            pose = Pose(path.end, path.facing, path.soak, path.handling)
            old = seen.get((pose.hex, pose.facing))
            if old is None or (pose.handling, pose.soak) > (old.handling, old.soak):
                seen[(pose.hex, pose.facing)] = pose
        return list(seen.values()) or [Pose(craft.hex, craft.facing)]

    def fire_map(
        self, craft: CraftState, weapon: Weapon, where: Hex, facing: int, budget: int
    ) -> dict[Hex, tuple[float, int]]:
        """Hex -> (share of the craft's poses that reach it, best Handling change)."""
        key = (craft.type, weapon.name, where, facing, budget)
        found = self._fire.get(key)
        if found is not None:
            return found
        poses = self.reach(craft, where, facing, budget)
        counts: dict[Hex, list[int]] = {}
        for pose in poses:
            for h in self.coverage(craft, weapon, pose.hex, pose.facing):
                entry = counts.get(h)
                if entry is None:
                    counts[h] = [1, pose.handling]
                else:
                    entry[0] += 1
                    entry[1] = max(entry[1], pose.handling)
        n = len(poses)
        found = {h: (c / n, best) for h, (c, best) in counts.items()}
        self._fire[key] = found
        return found

    # ---- shots ---------------------------------------------------------------------

    def shot(
        self,
        shooter: CraftState,
        station: int,
        weapon: Weapon,
        target: CraftState,
        *,
        handling: int = 0,
        soak: int = 0,
        speed_dice: int = 0,
        willpower: bool = False,
        kill: bool = False,
    ) -> float:
        """Worth of one attack (or, with `kill`, its chance to disable); `handling` and
        `soak` are changes from the shooter's and target's maneuvers still to fly."""
        if target.disabled or target.structure <= 0 or shielded(target):
            return 0.0
        if weapon.guided:
            return self.missile(weapon, target) * (0.0 if kill else 1.0)
        size, hits, steps = self.pool_for(
            shooter, station, weapon, target, handling=handling, soak=soak, speed_dice=speed_dice
        )
        if kill:
            return kill_chance(size, willpower, steps, hits, target.structure, rules=self.rules)
        weight = self.w.loss_weight if target.side == self.side else 1.0
        return (
            weight
            * self.unit(target)
            * worth(
                size, willpower, steps, hits, target.structure, self.bonus(target), rules=self.rules
            )
        )

    def pool_for(
        self,
        shooter: CraftState,
        station: int,
        weapon: Weapon,
        target: CraftState,
        *,
        handling: int = 0,
        soak: int = 0,
        speed_dice: int = 0,
    ) -> tuple[int, int, int]:
        """(dice a roll, rolls, scale steps up) of one attack: the target's Soak and scale
        as they stand against this shooter's design (Armor-Piercing, Disruptor, Enhanced
        Soak: `soak_against`, `defending_scale`)."""
        state = self.state
        stype = state.type_of(shooter)
        person = shooter.pilot if station == 0 else shooter.gunners[station - 1]
        skill = person.piloting if station == 0 else person.gunnery
        # Many shots of a decision are at the same craft by the same design.
        key = (target.id, target.type, target.maneuver_soak, shooter.type)
        known = self._soaks.get(key)
        if known is None:
            known = self._soaks[key] = (
                soak_against(state, target, stype, rules=self.rules),
                defending_scale(state, target, stype),
            )
        target_soak, defending = known
        size = self.rules.attack_dice(
            stype,
            person.dexterity,
            skill,
            self.rules.handling(stype.handling, shooter.maneuver_handling + handling),
            weapon,
            max(0, target_soak + soak),
            speed_dice=speed_dice,
        )
        hits = self.rules.attack_rolls(weapon)
        scale = unit_scale(state, stype) if stype.fighter is not None else weapon.scale
        return size, hits, defending - (scale or stype.scale)

    def unit(self, craft: CraftState) -> float:
        """Worth of one Structure point of a craft: its side's share of the score."""
        known = self._units.get(craft.side)
        if known is None:
            state = self.state
            total = sum(
                v for k, v in state.start_structure.items() if state.owner.get(k) == craft.side
            )
            known = self._units[craft.side] = SCALE / max(1, total)
        return known

    def bonus(self, craft: CraftState) -> float:
        """Structure-equivalent worth of putting the craft out of action."""
        return self.w.kill_share * self.state.start_structure.get(craft.id, craft.structure)

    def lost(self, craft: CraftState, damage: int) -> float:
        """Worth of `damage` to one of our craft (weighted as a loss)."""
        if damage <= 0 or craft.structure <= 0:
            return 0.0
        left = craft.structure
        hurt = min(damage, left) + (self.bonus(craft) if damage >= left else 0.0)
        return self.w.loss_weight * self.unit(craft) * hurt

    def still_soak(self, craft: CraftState) -> int:
        """A craft's total Soak without this turn's maneuvers (what it has when a
        missile that flies at the start of a turn reaches it)."""
        design = self.state.type_of(craft)
        return self.rules.total_soak(
            craft.pilot.dexterity,
            craft.pilot.piloting,
            design.armor,
            design.shields,
            design.handling,
        )

    def missile(self, weapon: Weapon, target: CraftState) -> float:
        """Worth of launching a missile at a target: it attacks with its own pool when it
        reaches the target's hex, and comes round again after a miss (SFA-MSL-2)."""
        state = self.state
        tt = state.type_of(target)
        size = self.rules.guided_pool(weapon.attack, self.still_soak(target))
        steps = tt.scale - weapon.scale  # a missile fights at its own scale (SFA-MSL-2)
        hit = 1.0 - sum(
            p for d, p in damage_odds(size, False, steps, 1, rules=self.rules) if d <= 0
        )
        if hit <= 0:
            return 0.0
        attempts = (1 - (1 - hit) ** 2) / hit
        return (
            self.w.missile_worth
            * self.still_standing(target)
            * attempts
            * self.unit(target)
            * worth(size, False, steps, 1, target.structure, self.bonus(target), rules=self.rules)
        )

    def still_standing(self, target: CraftState) -> float:
        """Chance a craft survives the missiles of ours already chasing it (each comes
        round once after a miss, SFA-MSL-2): a missile more at a craft they will
        finish is wasted, and so is one at a craft with no more Structure than the
        missiles already after it."""
        state = self.state
        standing = 1.0
        chasing = [
            m for m in state.missiles.values() if m.target == target.id and m.side == self.side
        ]
        if chasing and len(chasing) >= target.structure:
            return 0.0  # each hit takes a point at least: enough are on their way
        for m in chasing:
            if m.kind != "missile":
                continue  # a Remote Laser or Plasma Missile: counted above only
            size = self.rules.guided_pool(m.pool, self.still_soak(target))
            steps = state.type_of(target).scale - m.scale
            kill = kill_chance(size, False, steps, 1, target.structure, rules=self.rules)
            standing *= (1 - kill) ** 2
        return standing

    def weapons_of(self, craft: CraftState, station: int) -> list[Weapon]:
        """Weapons the station may still fire."""
        return [
            w
            for w in station_weapons(self.state, craft, station)
            if not expendable(w) or craft.expended.get(w.name, 0) < w.count
        ]

    def best_gun(self, craft: CraftState) -> tuple[int, Weapon] | None:
        """The station and weapon (not a missile) a craft hits hardest with."""
        best: tuple[int, Weapon] | None = None
        for station in range(1 + len(craft.gunners)):
            for w in self.weapons_of(craft, station):
                if w.guided:
                    continue
                if best is None or w.attack * w.count > best[1].attack * best[1].count:
                    best = (station, w)
        return best

    # ---- who acts when -------------------------------------------------------------

    def has_moved(self, craft: CraftState) -> bool:
        """Whether the craft's move this turn is behind it."""
        state = self.state
        pilot = f"{craft.id}#0"
        if pilot not in state.order:
            return True
        if state.acting == pilot and state.step in ("window_resolve", "resolve"):
            return True
        return any(
            entry == f"{pilot}|window_resolve" or entry == f"{pilot}|resolve"
            for entry in state.interrupted
        )

    def budget(self, craft: CraftState, selection: Selection | None) -> int:
        """Hexes the craft may fly this turn (Boosters too: `choices.move_budget`)."""
        sel = selection if selection is not None else Selection(kind="none")
        return move_budget(self.state, craft, sel, self.rules)

    def pending_fire(self, me_key: str) -> list[Fire]:
        """Enemy actors still to act this turn with an attack selected, and where their
        weapons may reach before the turn ends."""
        state = self.state
        out = []
        for key in state.order:
            if key == me_key:
                continue
            craft_id, station = split_key(key)
            craft = state.craft.get(craft_id)
            sel = state.selections.get(key)
            if craft is None or craft.side == self.side or craft.disabled or sel is None:
                continue
            if sel.kind != "attack":
                continue
            weapon = next((w for w in state.type_of(craft).weapons if w.name == sel.item), None)
            if weapon is None or weapon.guided:
                continue
            moved = self.has_moved(craft)
            budget = 0 if moved else self.budget(craft, state.selections.get(f"{craft_id}#0"))
            if moved or state.type_of(craft).move == 0:
                cover = {h: (1.0, 0) for h in self.coverage(craft, weapon, craft.hex, craft.facing)}
            else:
                cover = self.fire_map(craft, weapon, craft.hex, craft.facing, budget)
            out.append(Fire(craft, station, weapon, sel.speed_dice, cover))
        return out

    def next_fire(self) -> list[Fire]:
        """Each enemy craft's best gun next turn, from where it is now."""
        if self._next is not None:
            return self._next
        state = self.state
        out = []
        for craft in operational(state, state.other(self.side)):
            gun = self.best_gun(craft)
            if gun is None:
                continue
            station, weapon = gun
            budget = state.type_of(craft).move
            cover = self.fire_map(craft, weapon, craft.hex, craft.facing, budget)
            out.append(Fire(craft, station, weapon, 0, cover))
        self._next = out
        return out

    def spots(self) -> dict[str, list[Hex]]:
        """Enemy craft id -> the hexes it may be in when this turn's fire comes."""
        state = self.state
        out = {}
        for craft in operational(state, state.other(self.side)):
            if state.phase == "act" and self.has_moved(craft):
                out[craft.id] = [craft.hex]
                continue
            sel = state.selections.get(f"{craft.id}#0")
            budget = self.budget(craft, sel)
            out[craft.id] = sorted({p.hex for p in self.poses(craft, budget)})
        return out

    # ---- selection -----------------------------------------------------------------

    def select(self, legal: list[Any]) -> list[Scored]:
        """Weapon, dice for Speed, a technology or an extra move, for the actor choosing
        now."""
        state = self.state
        options = [
            a
            for a in legal
            if isinstance(a, A.Select)
            and a.kind in SELECT_KINDS
            and a == A.Select(actor=a.actor, kind=a.kind, item=a.item, speed_dice=a.speed_dice)
            # Every trade up to 10 dice is on offer; weighing the useful ones keeps us quick.
            and a.speed_dice in DICE_TRIED
        ]
        if not options:
            return []
        key = options[0].actor
        craft_id, station = split_key(key)
        me = state.craft[craft_id]
        enemies = operational(state, state.other(self.side))
        if not enemies:
            return []
        base = state.type_of(me).move
        poses = self.poses(me, base) if station == 0 else [Pose(me.hex, me.facing)]
        spots = self.spots()
        foes = self.enemy_speeds()
        threats = self.threats_to(me, poses)
        # Cloaked, nothing can aim at us: choosing any action but 'none' uncloaks us at
        # the Speed reveal (SFA-TEC-25), and gives that cover up.
        uncloak = self.w.cloak * sum(threats.values()) if me.cloaked else 0.0
        scored: list[Scored] = []
        # A die more for Speed that puts us before no enemy choice that one die fewer
        # did only weakens the shot: it is not weighed (the engine offers the trades
        # of a weapon in dice order).
        gained: dict[tuple[str, str, int], dict[str, float]] = {}
        for option in options:
            sel = Selection(kind=option.kind, item=option.item, speed_dice=option.speed_dice)
            speed = speed_of(state, key, sel)
            order = order_key(state, key, speed)
            faster = {k: share_below(order, keys) for k, keys in foes.items()}
            fewer = gained.get((option.kind, option.item, option.speed_dice - 1))
            gained[(option.kind, option.item, option.speed_dice)] = faster
            if option.speed_dice and fewer == faster:
                continue
            tempo = sum(faster.get(k, 0.0) * self.w.tempo * threat for k, threat in threats.items())
            value = tempo
            why = [f"acting before enemies {tempo:.2f}"] if tempo > 0.005 else []
            if option.kind == "attack":
                weapon = next(w for w in state.type_of(me).weapons if w.name == option.item)
                shot = self.prospect(me, station, weapon, option.speed_dice, poses, spots, faster)
                value += shot
                n = option.speed_dice
                dice = f", {n} {'die' if n == 1 else 'dice'} for Speed" if n else ""
                why.insert(0, f"{option.item}{dice}: shot worth {shot:.2f}")
            elif option.kind == "extra_move":
                wide = self.poses(me, self.rules.move_budget(base, "extra_move"))
                escape = self.escape(me, poses, wide)
                value += escape
                why.insert(0, f"extra move: escapes {escape:.2f} of next fire")
            elif option.kind == "equipment":
                gain, said = tech_value(
                    self, me, option.item, poses, spots, threats, key=key, faster=faster
                )
                # Behind a Force Field acting first dodges nothing: nothing gets through.
                if option.item == "force_field":
                    value, why = gain, [said]
                else:
                    value += gain
                    why.insert(0, said)
            else:
                why.insert(0, "no action")
            if uncloak and option.kind != "none":
                value -= uncloak
                why.append(f"gives up the cloak {uncloak:.2f}")
            scored.append((value, option, "; ".join(why)))
        return scored

    def enemy_speeds(self) -> dict[str, list[tuple[Any, ...]]]:
        """Enemy actor key -> the order keys of the selections it may make."""
        state = self.state
        out: dict[str, list[tuple[Any, ...]]] = {}
        for craft in operational(state, state.other(self.side)):
            if craft.stunned:
                continue
            for station in range(1 + len(craft.gunners)):
                key = f"{craft.id}#{station}"
                orders = []
                for kind, item in choices_for(state, key):
                    if kind not in KNOWN_KINDS:
                        continue
                    for dice in (0, 2) if trades_dice(state, craft, kind, item) else (0,):
                        sel = Selection(kind=kind, item=item, speed_dice=dice)
                        orders.append(order_key(state, key, speed_of(state, key, sel)))
                if orders:
                    out[key] = orders
        return out

    def threats_to(self, me: CraftState, poses: Sequence[Pose]) -> dict[str, float]:
        """Enemy pilot key -> worth of the fire it may bring on us this turn."""
        out = {}
        for fire in self.next_fire():
            total = 0.0
            for pose in poses:
                share, best = fire.cover.get(pose.hex, (0.0, 0))
                if share <= 0:
                    continue
                mix = self.w.smart + (1 - self.w.smart) * share
                total += mix * self.shot(
                    fire.craft, fire.station, fire.weapon, me, handling=best, soak=pose.soak
                )
            out[f"{fire.craft.id}#{fire.station}"] = total / len(poses)
        return out

    def prospect(
        self,
        me: CraftState,
        station: int,
        weapon: Weapon,
        dice: int,
        poses: Sequence[Pose],
        spots: dict[str, list[Hex]],
        faster: dict[str, float],
    ) -> float:
        """Worth of the best shot we may get with `weapon` this turn."""
        state = self.state
        best = 0.0
        if weapon.guided:
            for craft_id in spots:
                target = state.craft[craft_id]
                # A missile needs only range and a clear line from where we end up.
                if any(
                    not bears(state, msgspec.structs.replace(me, hex=p.hex), weapon, target.hex)
                    for p in poses
                ):
                    best = max(best, self.shot(me, station, weapon, target))
            return best
        for craft_id, after_hs, befores, n in self.lines_of(me, weapon, poses, spots):
            target = state.craft[craft_id]
            value: dict[int, float] = {}

            def at(h: int, target: CraftState = target, value: dict[int, float] = value) -> float:
                known = value.get(h)
                if known is None:
                    known = value[h] = self.shot(
                        me, station, weapon, target, handling=h, speed_dice=dice
                    )
                return known

            # Acting after the target: we see where it went, and pick our pose.
            after = 0.0
            for h in after_hs:
                after += at(h)
            after /= n
            # Acting before it: our line is laid where it may still go.
            before = 0.0
            for share, h in befores:
                before = max(before, share * at(h))
            late = faster.get(f"{craft_id}#0", 0.0)
            best = max(best, late * after + (1 - late) * self.w.before * before)
        return best

    def lines_of(
        self, me: CraftState, weapon: Weapon, poses: Sequence[Pose], spots: dict[str, list[Hex]]
    ) -> list[Lines]:
        """For each enemy: our best Handling for each of its spots we can cover, each
        pose's share of its spots with that pose's Handling, and its number of spots.
        The same for every trade of dice for Speed, so worked out once a decision."""
        key = (me.id, weapon.name, len(poses))
        known = self._lines.get(key)
        if known is not None:
            return known
        covers = [self.coverage(me, weapon, p.hex, p.facing) for p in poses]
        found: list[Lines] = []
        for craft_id, hexes in spots.items():
            after_hs = []
            for spot in hexes:
                hs = [p.handling for p, c in zip(poses, covers, strict=True) if spot in c]
                if hs:
                    after_hs.append(max(hs))
            befores = []
            for p, c in zip(poses, covers, strict=True):
                share = sum(1 for spot in hexes if spot in c) / len(hexes)
                if share:
                    befores.append((share, p.handling))
            found.append((craft_id, after_hs, befores, len(hexes)))
        self._lines[key] = found
        return found

    def escape(self, me: CraftState, poses: Sequence[Pose], wide: Sequence[Pose]) -> float:
        """What the wider choice of an extra move saves from the enemy's next fire."""

        def least(options: Sequence[Pose]) -> float:
            fires = self.next_fire()
            best = math.inf
            for pose in options:
                danger = 0.0
                for fire in fires:
                    share, h = fire.cover.get(pose.hex, (0.0, 0))
                    if share > 0:
                        danger += (self.w.smart + (1 - self.w.smart) * share) * self.shot(
                            fire.craft, fire.station, fire.weapon, me, handling=h, soak=pose.soak
                        )
                best = min(best, danger)
            return 0.0 if best == math.inf else best

        return max(0.0, least(poses) - least(wide)) * self.w.tempo

    # ---- interrupts ----------------------------------------------------------------

    def displace(self, legal: list[Any]) -> list[Scored]:
        """Temporal Displacement after a roll (SFA-TEC-28): our own roll that failed, or
        a roll against us that hurts badly or holds us in a beam, is made again;
        otherwise kept."""
        keep = next((a for a in legal if isinstance(a, A.Displace) and not a.use), None)
        again = next((a for a in legal if isinstance(a, A.Displace) and a.use), None)
        if keep is None or again is None:
            return [] if keep is None else [(0.0, keep, "keeps the roll")]
        worth = wants_reroll(self.state, keep.craft, few=REROLL_DICE, hurt=REROLL_HURT)
        if worth:
            return [(1.0, again, "rolls again: the roll went badly for us"), (0.0, keep, "")]
        return [(0.0, keep, "keeps the roll: it is good enough"), (-1.0, again, "")]

    def abort(self, legal: list[Any]) -> list[Scored]:
        """Answer an interrupt (SFA-SEQ-5): a craft worn down to half its Structure raises
        its Force Field when that goes up before the interrupter acts; else it carries on."""
        state = self.state
        passing = next((a for a in legal if isinstance(a, A.Pass)), None)
        out: list[Scored] = []
        if passing is not None:
            out.append((0.0, passing, "carries on with its action"))
        shield = next((a for a in legal if isinstance(a, A.Abort) and a.to == "force_field"), None)
        if shield is None:
            return out
        me = state.craft.get(split_key(shield.actor)[0])
        if me is None:
            return out
        speed = speed_of(state, shield.actor, Selection(kind="equipment", item="force_field"))
        first = speed > state.speeds.get(state.acting, 0)
        worn = 2 * me.structure <= state.start_structure.get(me.id, me.structure)
        if first and worn:
            out.append((1.0, shield, "worn down: raises its Force Field before the shot"))
        return out

    def window(self, legal: list[Any]) -> list[Scored]:
        """Interrupt an enemy to dodge its shot or to fire first; otherwise pass."""
        state = self.state
        passing = next((a for a in legal if isinstance(a, A.Pass)), None)
        out: list[Scored] = []
        if passing is not None:
            out.append((self.w.interrupt_margin, passing, "waits: acting now gains too little"))
        offers = [a for a in legal if isinstance(a, A.Interrupt)]
        acting = state.craft.get(split_key(state.acting)[0]) if state.acting else None
        if not offers or acting is None or acting.side == self.side:
            return out
        for offer in offers:
            craft_id, station = split_key(offer.actor)
            if station != 0 or craft_id not in state.craft:
                continue  # a gunner cannot dodge; it fires in its own turn
            before_shot = state.step == "window_resolve"
            gain = (
                self.gain_before_shot(offer.actor, acting)
                if before_shot
                else self.gain_before_move(offer.actor, acting)
            )
            what = "its shot" if before_shot else "it moves"
            out.append((gain, offer, f"{craft_id} acts before {what}: gains {gain:.2f}"))
        return out

    def plan(self, key: str) -> Plan:
        """Everything a move decision for actor `key` needs."""
        state = self.state
        craft_id, _ = split_key(key)
        me = state.craft[craft_id]
        speed = state.speeds.get(key, 0)
        targets = []
        for craft in operational(state, state.other(self.side)):
            # A faster enemy actor still to act may interrupt before we fire, and move.
            late = any(
                split_key(k)[0] == craft.id
                and k != state.acting
                and state.speeds.get(k, 0) > speed
                and not any(e.startswith(k + "|") for e in state.interrupted)
                for k in state.order
            )
            targets.append((craft, 1 - self.w.dodge_chance if late else 1.0))
        return Plan(
            me=me,
            key=key,
            selection=state.selections.get(key, Selection(kind="none")),
            fires=self.pending_fire(key),
            next_fires=self.next_fire(),
            targets=targets,
            spots=self.spots(),
        )

    def gain_before_move(self, key: str, enemy: CraftState) -> float:
        """Worth of acting now, before the enemy moves, over acting after it: a shot now
        that its move may spoil, or getting out of the way of its ram, against the fire
        it then brings on us knowing where we went."""
        state = self.state
        craft_id, _ = split_key(key)
        me = state.craft[craft_id]
        sel = state.selections.get(key)
        if sel is None:
            return 0.0
        poses = self.poses(me, self.budget(me, sel))
        gain = 0.0
        weapon = None
        if sel.kind == "attack":
            weapon = next((w for w in state.type_of(me).weapons if w.name == sel.item), None)
        aim = Pose(me.hex, me.facing)
        kill = 0.0
        if weapon is not None and not weapon.guided:
            covers = [self.coverage(me, weapon, p.hex, p.facing) for p in poses]
            now = 0.0
            for p, c in zip(poses, covers, strict=True):
                if enemy.hex in c:
                    value = self.shot(
                        me, 0, weapon, enemy, handling=p.handling, speed_dice=sel.speed_dice
                    )
                    if value > now:
                        now, aim = value, p
            if now > 0:
                spots = self.spots().get(enemy.id, [enemy.hex])
                later = 0.0
                for spot in spots:
                    hs = [p.handling for p, c in zip(poses, covers, strict=True) if spot in c]
                    if hs:
                        later += self.shot(
                            me, 0, weapon, enemy, handling=max(hs), speed_dice=sel.speed_dice
                        )
                gain += now - later / len(spots)
                kill = self.shot(
                    me,
                    0,
                    weapon,
                    enemy,
                    handling=aim.handling,
                    speed_dice=sel.speed_dice,
                    kill=True,
                )
        here = self.ram_risk(enemy, me, me.hex)
        if here > 0:
            gain += here - min(self.ram_risk(enemy, me, p.hex) for p in poses)
        if gain <= 0:
            return 0.0
        fire = next((f for f in self.pending_fire(key) if f.craft.id == enemy.id), None)
        if fire is not None:
            # Waiting, we are shot where we stand (unless a window opens before its
            # shot: self.w.resolve_window); acting now, where we went, if it survives.
            gain += (1 - self.w.resolve_window) * self.exposure(fire, me, Pose(me.hex, me.facing))
            gain -= (1 - kill) * self.exposure(fire, me, aim)
        return gain

    def exposure(self, fire: Fire, me: CraftState, pose: Pose) -> float:
        """Worth of the fire an enemy actor may bring on our craft at a pose."""
        share, h = fire.cover.get(pose.hex, (0.0, 0))
        if share <= 0:
            return 0.0
        return (self.w.smart + (1 - self.w.smart) * share) * self.shot(
            fire.craft,
            fire.station,
            fire.weapon,
            me,
            handling=h,
            soak=pose.soak,
            speed_dice=fire.speed_dice,
        )

    def gain_before_shot(self, key: str, enemy: CraftState) -> float:
        """Worth of acting now, before the enemy fires: the fire our move dodges or our
        shot prevents."""
        state = self.state
        esel = state.selections.get(state.acting)
        if esel is None or esel.kind != "attack":
            return 0.0
        _, estation = split_key(state.acting)
        eweapon = next((w for w in state.type_of(enemy).weapons if w.name == esel.item), None)
        if eweapon is None:
            return 0.0
        mine = operational(state, self.side)
        cover = self.coverage(enemy, eweapon, enemy.hex, enemy.facing)

        def incoming(where: dict[str, Pose]) -> float:
            worst = 0.0
            for craft in mine:
                pose = where.get(craft.id, Pose(craft.hex, craft.facing))
                reach = (
                    bears(state, enemy, eweapon, pose.hex) == ""
                    if eweapon.guided
                    else pose.hex in cover
                )
                if reach:
                    worst = max(
                        worst,
                        self.shot(
                            enemy,
                            estation,
                            eweapon,
                            craft,
                            speed_dice=esel.speed_dice,
                            soak=pose.soak,
                        ),
                    )
            return worst

        now = incoming({})
        if now <= 0:
            return 0.0
        craft_id, _ = split_key(key)
        me = state.craft[craft_id]
        plan = self.plan(key)
        # Its shot is counted here, not in the move scores.
        plan.fires = [f for f in plan.fires if f"{f.craft.id}#{f.station}" != state.acting]
        budget = self.budget(me, plan.selection)
        least = 0 if state.type_of(me).move == 0 else 1
        best = -math.inf
        for steps, path in flights(me.hex, me.facing, budget, least, rules=self.rules):
            if not all(
                h in self._inside
                and not (crowding_collides(state) and state.occupant(h, ignore=me.id))
                for h in path.hexes
            ):
                continue
            pose = Pose(path.end, path.facing, path.soak, path.handling)
            score = self.score(plan, A.Move(craft=craft_id, steps=steps))
            after = (1 - self.kill_by(plan, pose, enemy)) * incoming({me.id: pose})
            best = max(best, score - after)
        if best == -math.inf:
            return 0.0
        waiting = sum(1 for k in state.order if k != key and self.is_slow_enemy(k, key))
        return best - (self.best_score(plan) - now) - self.w.info * waiting

    def is_slow_enemy(self, key: str, me_key: str) -> bool:
        """An enemy actor slower than ours that has not acted (acting now excepted)."""
        state = self.state
        craft = state.craft.get(split_key(key)[0])
        return (
            craft is not None
            and craft.side != self.side
            and key != state.acting
            and state.speeds.get(key, 0) < state.speeds.get(me_key, 0)
        )

    def kill_by(self, plan: Plan, pose: Pose, enemy: CraftState) -> float:
        """Chance our shot from a pose disables the enemy."""
        sel = plan.selection
        if sel.kind != "attack":
            return 0.0
        weapon = next((w for w in self.state.type_of(plan.me).weapons if w.name == sel.item), None)
        if weapon is None or weapon.guided:
            return 0.0
        if enemy.hex not in self.coverage(plan.me, weapon, pose.hex, pose.facing):
            return 0.0
        return self.shot(
            plan.me, 0, weapon, enemy, handling=pose.handling, speed_dice=sel.speed_dice, kill=True
        )

    def best_score(self, plan: Plan) -> float:
        """The best move score from where the craft is, ignoring the shooter about to
        fire (it acts later, with what it then knows)."""
        state = self.state
        me = plan.me
        least = 0 if state.type_of(me).move == 0 else 1
        best = -math.inf
        for steps, path in flights(
            me.hex, me.facing, self.budget(me, plan.selection), least, rules=self.rules
        ):
            if all(h in self._inside for h in path.hexes):
                best = max(best, self.score(plan, A.Move(craft=me.id, steps=steps)))
        return 0.0 if best == -math.inf else best

    # ---- moves ---------------------------------------------------------------------

    def move(self, legal: list[Any]) -> list[Scored]:
        """The legal moves, each with its score."""
        state = self.state
        acting = state.craft[split_key(state.acting)[0]]
        if acting.side != self.side:
            return drag_scores(self, acting, legal)  # an enemy held in our Tractor Beam
        plan = self.plan(state.acting)
        scored: list[Scored] = []
        jumps = (plan.selection.kind, plan.selection.item) == ("equipment", "teleport")
        for action in legal:
            if isinstance(action, A.Move) and action.dest is not None and jumps:
                # Landings within TELEPORT_REACH are weighed: farther ones drain the
                # Power the other technologies need (1 a hex, SFA-TEC-27).
                far = action.dest.distance(plan.me.hex) > TELEPORT_REACH
                if action.abort or action.ram or far:
                    continue
                value, why = teleport_worth(self, plan, action.dest)
                scored.append((value, action, why))
                continue
            if not isinstance(action, A.Move) or action.abort not in ("", "extra_move"):
                continue
            if action != A.Move(craft=action.craft, steps=action.steps, abort=action.abort):
                continue  # a move with parts this player does not know (a destination...)
            if action.abort and plan.selection.kind == "extra_move":
                continue  # aborting to the action already selected only spends Willpower
            value = self.score(plan, action)
            flown = f"flies '{action.steps}'" if action.steps else "stays put"
            extra = " after aborting to an extra move" if action.abort else ""
            scored.append((value, action, f"{flown}{extra}: worth {value:.2f}"))
        # Rams and flights off the map are on offer too; we fly them only when boxed in
        # (or with Hyper-Ram on, which prices its own rams).
        budget = move_budget(state, plan.me, plan.selection)
        least = least_hexes(state, plan.me, plan.selection)
        if plan.selection.item != "hyper_ram":
            clean = [
                t for t in scored if impact_key(state, plan.me, t[1].steps, budget, least) is None
            ]
            scored = clean or scored
        return scored

    def score(self, plan: Plan, action: A.Move) -> float:
        """Worth of flying a move: this turn's shot and dangers, next turn's prospects."""
        state = self.state
        me = plan.me
        selection = Selection(kind="extra_move") if action.abort else plan.selection
        budget = self.budget(me, selection)
        move = state.type_of(me).move
        path = trace(me.hex, me.facing, action.steps, budget, min_hexes=0)
        if (selection.kind, selection.item) == ("equipment", "hyper_ram"):
            me = msgspec.structs.replace(me, ramming=True)  # charged as it moves
        loss, pose, lost = self.hazards(me, path)
        value = (
            -loss - (self.w.abort_cost if action.abort else 0.0) + self.in_the_way(plan, pose, lost)
        )
        if selection.kind == "equipment" and selection.item in PLASMA:
            value += plasma_worth(self, plan.me, selection.item, path.hexes, pose.hex)
        if lost >= 1.0:
            return value
        key = (pose, selection.kind, selection.item)
        cached = plan.cache.get(key)
        if cached is None:
            cached = self.pose_value(plan, pose, selection, move)
            plan.cache[key] = cached
        return value + (1 - lost) * cached

    def in_the_way(self, plan: Plan, pose: Pose, lost: float) -> float:
        """Price of ending (or ending up, a wreck) in the forward hex of one of our own
        craft: it must ram us when it next moves (SFA-MOV-3, SFA-COL-1). A wreck drifts
        on at the start of next turn (SFA-STR-1)."""
        state = self.state
        mine = msgspec.structs.replace(plan.me, hex=pose.hex, facing=pose.facing)
        value = 0.0
        for friend in operational(state, self.side):
            if friend.id == plan.me.id or state.type_of(friend).move == 0:
                continue
            if friend.hex.neighbor(friend.facing) != pose.hex:
                continue
            chance = 1.0 if not self.has_moved(friend) else self.w.block_later * (1 - lost)
            value += chance * self.ram(friend, mine, 1)
        return value

    def pose_value(self, plan: Plan, pose: Pose, selection: Selection, move: int) -> float:
        """Worth of ending a move at a pose (with its maneuvers) under a selection."""
        state = self.state
        me = plan.me
        value = 0.0
        # This turn's shot.
        if selection.kind == "attack":
            weapon = next((w for w in state.type_of(me).weapons if w.name == selection.item), None)
            if weapon is not None:
                best = 0.0
                if weapon.guided:
                    for target, _ in plan.targets:
                        if not bears(
                            state,
                            msgspec.structs.replace(me, hex=pose.hex, facing=pose.facing),
                            weapon,
                            target.hex,
                        ):
                            best = max(best, self.shot(me, 0, weapon, target))
                else:
                    cover = self.coverage(me, weapon, pose.hex, pose.facing)
                    for target, stay in plan.targets:
                        if target.hex in cover:
                            best = max(
                                best,
                                stay
                                * self.shot(
                                    me,
                                    0,
                                    weapon,
                                    target,
                                    handling=pose.handling,
                                    speed_dice=selection.speed_dice,
                                ),
                            )
                value += best
        elif selection.kind == "equipment" and me.charged and me.charged == selection.item:
            # A charged doomsday device fires at resolution, from where we end.
            value += zone_worth(self, me, selection.item, pose.hex, pose.facing, plan.spots)
        # This turn's danger (none gets through a Force Field, SFA-TEC-14).
        shielded_now = (selection.kind, selection.item) == ("equipment", "force_field")
        for fire in [] if shielded_now else plan.fires:
            share, h = fire.cover.get(pose.hex, (0.0, 0))
            if share > 0:
                value -= (self.w.smart + (1 - self.w.smart) * share) * self.shot(
                    fire.craft,
                    fire.station,
                    fire.weapon,
                    me,
                    handling=h,
                    soak=pose.soak,
                    speed_dice=fire.speed_dice,
                )
        # Incoming missiles fly at the start of next turn.
        for missile in state.missiles.values():
            if missile.target != me.id:
                continue
            tt = state.type_of(me)
            size = self.rules.guided_pool(missile.pool, self.still_soak(me))
            near = 1.0 if missile.hex.distance(pose.hex) <= 5 else self.w.missile_far
            value -= (
                near
                * self.w.loss_weight
                * self.unit(me)
                * worth(
                    size,
                    False,
                    tt.scale - missile.scale,
                    1,
                    me.structure,
                    self.bonus(me),
                    rules=self.rules,
                )
            )
        # Next turn: where we may fire from, and who may fire at us.
        value += self.w.next_shot * self.next_shot(plan, pose, move)
        ahead = pose.hex.neighbor(pose.facing) if move <= 1 else pose.hex
        danger = 0.0
        for fire in plan.next_fires:
            share, h = fire.cover.get(ahead, (0.0, 0))
            if share > 0:
                danger += (self.w.smart + (1 - self.w.smart) * share) * self.shot(
                    fire.craft, fire.station, fire.weapon, me, handling=h, soak=-me.maneuver_soak
                )
        value -= self.w.next_danger * danger * (1.0 if move <= 1 else self.w.fast_escape)
        value -= self.trap(me, pose, move)
        value += self.blocking(plan, pose)
        value += self.rammed(plan, pose)
        for other in operational(state, self.side):
            if other.id != me.id and other.hex.distance(pose.hex) <= 1:
                value -= self.w.crowd
        return value

    def abort_spots(self, craft: CraftState) -> frozenset[Hex]:
        """Hexes a craft still to move may end in, aborting to an extra move if its
        pilot can pay for one (SFA-SEQ-5)."""
        state = self.state
        move = state.type_of(craft).move
        sel = state.selections.get(f"{craft.id}#0")
        budget = self.budget(craft, sel)
        once = state.options.get("willpower_once_per_turn", True)
        if craft.willpower >= 1 and move > 0 and not (once and craft.willpower_spent):
            budget = max(budget, self.rules.move_budget(move, "extra_move"))
        key = ("abort", craft.id, craft.hex, craft.facing, budget)
        found = self._spots.get(key)
        if found is None:
            found = frozenset(p.hex for p in self.poses(craft, budget))
            self._spots[key] = found
        return found

    def ram_paths(
        self, craft: CraftState, *, next_turn: bool = False
    ) -> dict[Hex, tuple[float, int, int]]:
        """Hex -> (share of the moves that fly into it, fewest and most hexes flown by
        then), over the moves a craft still to move may fly if it aborts to an extra
        move: abort moves are not kept out of other craft, so they can ram (SFA-SEQ-5)."""
        state = self.state
        move = state.type_of(craft).move
        once = state.options.get("willpower_once_per_turn", True)
        spent = once and craft.willpower_spent and not next_turn
        if craft.willpower < 1 or move <= 0 or spent:
            return {}
        budget = self.rules.move_budget(move, "extra_move")
        key = ("ram", craft.id, craft.hex, craft.facing, budget, next_turn)
        found = self._rams.get(key)
        if found is not None:
            return found
        taken = {c.hex for c in state.craft.values() if c.id != craft.id and c.side == craft.side}
        paths = flights(craft.hex, craft.facing, budget, 1, rules=self.rules)
        counts: dict[Hex, list[int]] = {}
        for _, path in paths:
            for k, h in enumerate(path.hexes, start=1):
                if h not in self._inside or h in taken:
                    break
                entry = counts.get(h)
                if entry is None:
                    counts[h] = [1, k, k]
                else:
                    entry[0] += 1
                    entry[1] = min(entry[1], k)
                    entry[2] = max(entry[2], k)
        found = {h: (c / max(1, len(paths)), lo, hi) for h, (c, lo, hi) in counts.items()}
        self._rams[key] = found
        return found

    def rammed(self, plan: Plan, pose: Pose) -> float:
        """Worth to us of the rams enemies still to move this turn could make into the
        hex we end in (each side takes the other's Structure times the hexes flown)."""
        state = self.state
        if state.phase != "act":
            return 0.0
        value = 0.0
        for enemy in operational(state, state.other(self.side)):
            if not self.has_moved(enemy) and not enemy.stunned:
                value -= self.ram_risk(enemy, plan.me, pose.hex)
            elif state.type_of(plan.me).move > 0:
                # Next turn it may ram us before we move off.
                value -= self.w.next_danger * self.ram_risk(
                    enemy, plan.me, pose.hex, next_turn=True
                )
        return value

    def ram_risk(
        self, enemy: CraftState, me: CraftState, where: Hex, *, next_turn: bool = False
    ) -> float:
        """Expected loss to us of an enemy still to move ramming our craft in a hex."""
        entry = self.ram_paths(enemy, next_turn=next_turn).get(where)
        if entry is None:
            return 0.0
        share, lo, hi = entry
        mine = msgspec.structs.replace(me, hex=where)
        worst = min(self.ram(enemy, mine, lo), self.ram(enemy, mine, hi))
        return -(self.w.smart + (1 - self.w.smart) * share) * worst if worst < 0 else 0.0

    def ram(self, mover: CraftState, other: CraftState, hexes: int) -> float:
        """Worth to us of `mover` flying `hexes` hexes into `other` (SFA-COL-1): each
        takes the other's starting Structure times the hexes, less its own Soak."""
        state = self.state
        worth_to_us = 0.0
        # Charged Hyper-Ram plates take no damage (SFA-TEC-17): `collision_hurt`.
        hurt = {
            mover.id: collision_hurt(state, mover, other, hexes, self.rules),
            other.id: collision_hurt(state, other, mover, hexes, self.rules),
        }
        for craft in (mover, other):
            if craft.side == self.side:
                worth_to_us -= self.lost(craft, hurt[craft.id])
            else:
                worth_to_us += self.lost(craft, hurt[craft.id]) / self.w.loss_weight
        return worth_to_us

    def blocking(self, plan: Plan, pose: Pose) -> float:
        """Collisions forced by a craft in another's forward hex: every move starts into
        that hex, so a craft with another in front of it must ram it (SFA-MOV-3, -COL-1).
        Worth to us of the ones this pose may force, either way."""
        state = self.state
        me = plan.me
        if state.type_of(me).move == 0:
            return 0.0
        mine = msgspec.structs.replace(me, hex=pose.hex, facing=pose.facing)
        ahead = pose.hex.neighbor(pose.facing)
        value = 0.0
        for enemy in operational(state, state.other(self.side)):
            if state.type_of(enemy).move == 0:
                continue
            pending = state.phase != "act" or not self.has_moved(enemy)
            # It may park in front of us before our next move...
            if enemy.hex == ahead and not pending:
                chance = self.w.block_later
            elif pending:
                spots = plan.spots.get(enemy.id, [])
                chance = (1 - self.w.smart) / len(spots) if ahead in spots else 0.0
                if ahead in spots or ahead in self.abort_spots(enemy):
                    chance += self.w.smart
            else:
                chance = 0.0
            if chance:
                value += chance * min(0.0, self.ram(mine, enemy, 1))
            # ...or we park in front of it before its next move.
            if pose.hex == enemy.hex.neighbor(enemy.facing):
                chance = 1.0 if pending else self.w.block_later
                value += chance * self.ram(enemy, mine, 1)
        for friend in operational(state, self.side):
            if friend.id != me.id and friend.hex == ahead:
                value += self.w.block_later * self.ram(mine, friend, 1)
        # A wreck drifts one hex ahead at the start of next turn (SFA-STR-1): into us,
        # or into the hex we must fly into first.
        for wreck in state.craft.values():
            if not wreck.disabled or wreck.id == me.id:
                continue
            drift = wreck.hex.neighbor(wreck.facing)
            if drift == pose.hex:
                value += self.ram(wreck, mine, 1)
            elif drift == ahead:
                value += self.ram(mine, wreck, 1)
        return value

    def next_shot(self, plan: Plan, pose: Pose, move: int) -> float:
        """Worth of the best shot next turn from the poses reachable from `pose`."""
        me = plan.me
        gun = self.best_gun(me)
        if gun is None:
            return 0.0
        station, weapon = gun
        if station == 0:
            nexts = self.reach(me, pose.hex, pose.facing, move)
        else:
            nexts = [Pose(pose.hex, pose.facing)]
        covers = [(p.handling, self.coverage(me, weapon, p.hex, p.facing)) for p in nexts]
        best = 0.0
        nearest = math.inf
        for target, _ in plan.targets:
            spots = plan.spots.get(target.id, [target.hex])
            total = 0.0
            for spot in spots:
                hs = [h for h, cover in covers if spot in cover]
                if hs:
                    total += self.shot(
                        me, station, weapon, target, handling=max(hs) - me.maneuver_handling
                    )
            best = max(best, total / len(spots))
            nearest = min(nearest, pose.hex.distance(target.hex))
        if best <= 0 and nearest < math.inf:
            best = -self.w.approach * max(0.0, nearest - weapon.range)
        return best

    def reach(self, craft: CraftState, where: Hex, facing: int, budget: int) -> list[Pose]:
        """End poses on the map of a craft's moves from a pose (other craft ignored)."""
        key = (craft.type, where, facing, budget)
        found = self._reach.get(key)
        if found is None:
            posed = msgspec.structs.replace(craft, hex=where, facing=facing)
            found = self.poses(posed, budget, strict=False)
            self._reach[key] = found
        return found

    def hazards(self, me: CraftState, path: Path) -> tuple[float, Pose, float]:
        """Expected worth lost flying a path (obstacles, collisions, the map edge), where
        it ends, and the chance the craft is out of action or gone."""
        state = self.state
        ctype = state.type_of(me)
        handling = self.rules.handling(ctype.handling, me.maneuver_handling + path.handling)
        size = self.rules.piloting_pool(me.pilot.dexterity, me.pilot.piloting, handling)
        alive = 1.0
        loss = 0.0
        left = me.structure
        moved = me.hexes_moved
        where = me.hex
        burnt: set[str] = set()
        for h in path.hexes:
            moved += 1
            if h not in self._inside:
                loss += alive * self.lost(me, left)
                return loss, Pose(where, me.facing), 1.0
            other = state.occupant(h, ignore=me.id)
            # It plays no rams of its own: only Hyper-Ram or `collide_on_entry` make
            # a hex shared with another craft a collision (SFA-COL-1).
            if other is not None and collides(state, me, False):
                mine = collision_hurt(state, me, other, moved, self.rules)
                theirs = collision_hurt(state, other, me, moved, self.rules)
                loss += alive * self.lost(me, mine)
                gain = self.lost(other, theirs) / (
                    1 if other.side == self.side else self.w.loss_weight
                )
                loss += alive * (gain if other.side == self.side else -gain)
                gone = alive if mine >= left else 0.0
                return loss, Pose(where, path.facing, path.soak, path.handling), 1 - alive + gone
            where = h
            loss += alive * plasma_danger(self, me, h, burnt)
            kind = state.map.terrain_at(h).kind
            # Hyper-Ram plates smash through obstacles with no roll (SFA-TEC-17).
            if kind in OBSTACLES and not me.ramming:
                structure, difficulty = OBSTACLES[kind]
                fail = fail_chance(size, difficulty, rules=self.rules)
                damage = self.rules.collision_damage(
                    structure, max(1, moved), collision_soak(state, me)
                )
                if damage > 0:
                    loss += alive * fail * self.lost(me, damage)
                    if damage >= left:
                        alive *= 1 - fail
        return loss, Pose(path.end, path.facing, path.soak, path.handling), 1 - alive

    def trap(self, me: CraftState, pose: Pose, move: int) -> float:
        """Price of a pose from which next turn's move has few safe ways to go."""
        if move <= 0:
            return 0.0
        key = (
            me.id,
            me.type,
            me.side,
            me.structure,
            me.pilot.dexterity,
            me.pilot.piloting,
            pose.hex,
            pose.facing,
            move,
        )
        known = self._traps.get(key)
        if known is None:
            known = self._traps[key] = self._trap(me, pose, move)
        return known

    def _trap(self, me: CraftState, pose: Pose, move: int) -> float:
        state = self.state
        options = flights(pose.hex, pose.facing, move, 1, rules=self.rules)
        safe = 0
        risky = math.inf
        ctype = state.type_of(me)
        size = self.rules.piloting_pool(me.pilot.dexterity, me.pilot.piloting, ctype.handling)
        for _, path in options:
            if not all(h in self._inside for h in path.hexes):
                continue
            safe += 1
            danger = 0.0
            for h in path.hexes:
                # The map's obstacles, looked up once per map (this runs for every hex of
                # every move from every pose scored).
                obstacle = self._obstacles.get(h)
                if obstacle is not None:
                    structure, difficulty = obstacle
                    damage = self.rules.collision_damage(structure, 1, collision_soak(state, me))
                    if damage > 0:
                        danger += fail_chance(size, difficulty, rules=self.rules) * self.lost(
                            me, damage
                        )
            risky = min(risky, danger)
        if safe == 0:
            return self.lost(me, me.structure)
        price = self.w.edge_price * (1 - safe / len(options))
        return price + (0.0 if risky == math.inf else risky)

    # ---- resolution ----------------------------------------------------------------

    def resolve(self, legal: list[Any]) -> list[Scored]:
        """Fire at the target worth most; buy a sure success when it may finish one. A
        shot that cannot hurt (a wreck, a Force Field, a Soak or scale the pool cannot
        pass) is worse than holding fire: it can only botch."""
        state = self.state
        craft_id, station = split_key(state.acting)
        me = state.craft[craft_id]
        sel = state.selections.get(state.acting)
        if sel is not None and sel.kind == "equipment":
            return tech_resolve(self, me, sel.item, legal)
        weapon = None
        if sel is not None:
            weapon = next((w for w in state.type_of(me).weapons if w.name == sel.item), None)
        scored: list[Scored] = []
        for action in legal:
            if not isinstance(action, A.Resolve):
                continue
            plain = A.Resolve(actor=action.actor, target=action.target, willpower=action.willpower)
            if action != plain:
                continue  # extras this player does not know (Power spent, rerolls...)
            if not action.target or weapon is None:
                scored.append((0.0, action, "holds fire"))
                continue
            value = self.target_value(me, station, weapon, action.target, sel, action.willpower)
            bought = " with a Willpower success" if action.willpower else ""
            hurts = self.may_hurt(me, station, weapon, action.target, sel, action.willpower)
            if value <= 0 and not hurts:
                value = -self.w.botch_price
                why = f"fire at {action.target}{bought}: cannot hurt it, can only botch"
            else:
                why = f"fire at {action.target}{bought}: worth {value:.2f}"
                if weapon.guided:
                    value -= self.w.missile_spend
                    why += f", less {self.w.missile_spend:.2f} for the missile"
            if action.willpower:
                value -= self.w.willpower_cost
                why += f", less {self.w.willpower_cost:.2f} for the Willpower"
            scored.append((value, action, why))
        return scored

    def may_hurt(
        self,
        me: CraftState,
        station: int,
        weapon: Weapon,
        target_id: str,
        sel: Selection | None,
        willpower: bool = False,
    ) -> bool:
        """Whether some roll of a shot at a craft does damage, with a bought success or
        without (a missile, which hunts, is given the benefit of the doubt)."""
        target = self.state.craft.get(target_id)
        if target is None:
            return target_id in self.state.missiles
        if target.disabled or target.structure <= 0 or target.side == self.side:
            return False
        if weapon.guided:
            return True
        if shielded(target) and not disrupts(self.state.type_of(me)):
            return False
        dice = sel.speed_dice if sel is not None else 0
        size, hits, steps = self.pool_for(me, station, weapon, target, speed_dice=dice)
        return any(
            d > 0 and p > 0 for d, p in damage_odds(size, willpower, steps, hits, rules=self.rules)
        )

    def target_value(
        self,
        me: CraftState,
        station: int,
        weapon: Weapon,
        target_id: str,
        sel: Selection | None,
        willpower: bool,
    ) -> float:
        """Worth of firing at a craft or a missile."""
        state = self.state
        dice = sel.speed_dice if sel is not None else 0
        target = state.craft.get(target_id)
        if target is not None:
            if target.side == self.side:
                return -1.0
            return self.shot(me, station, weapon, target, speed_dice=dice, willpower=willpower)
        missile = state.missiles.get(target_id)
        if missile is None:
            return 0.0
        person = me.pilot if station == 0 else me.gunners[station - 1]
        skill = person.piloting if station == 0 else person.gunnery
        stype = state.type_of(me)
        size = self.rules.attack_pool(
            person.dexterity,
            skill,
            self.rules.handling(stype.handling, me.maneuver_handling),
            weapon.attack,
            10,
            removed_for_speed=dice,
        )
        hits = self.rules.attack_rolls(weapon)
        up = missile.scale - (weapon.scale or stype.scale)  # SFA-MSL-3 at its scale
        down = kill_chance(size, willpower, up, hits, missile.structure, rules=self.rules)
        victim = state.craft.get(missile.target)
        if victim is None or victim.side != self.side:
            return 0.0
        vt = state.type_of(victim)
        msize = self.rules.guided_pool(missile.pool, self.still_soak(victim))
        saved = worth(
            msize,
            False,
            vt.scale - missile.scale,
            1,
            victim.structure,
            self.bonus(victim),
            rules=self.rules,
        )
        return down * self.unit(victim) * saved * self.w.loss_weight


# ---- helpers ----------------------------------------------------------------------------

KNOWN_KINDS = ("attack", "extra_move", "none")
"""Selection kinds this player expects of the enemy."""
SELECT_KINDS = (*KNOWN_KINDS, "equipment")
"""Selection kinds this player weighs for itself (technologies in `tech_sense`)."""


def guess_hidden(state: SfaState, side: str) -> None:
    """Fill in the enemy selections that are revealed by Speed only (SFA-SEQ-2): the
    hardest-hitting attack its Speed fits (with the dice it must have traded), else the
    extra move, else no action. Only this player's own copy of the state is changed."""
    if state.phase != "act":
        return
    for key in state.order:
        craft = state.craft.get(split_key(key)[0])
        if craft is None or craft.side == side or key in state.selections:
            continue
        speed = state.speeds.get(key)
        if speed is None:
            continue
        found: tuple[int, Selection] | None = None
        for kind, item in choices_for(state, key):
            if kind != "attack":
                continue
            base = speed_of(state, key, Selection(kind=kind, item=item))
            dice = speed - base
            if dice != 0 and not (0 < dice <= 10 and trades_dice(state, craft, kind, item)):
                continue
            weapon = next(w for w in state.type_of(craft).weapons if w.name == item)
            if found is None or weapon.attack > found[0]:
                found = (weapon.attack, Selection(kind=kind, item=item, speed_dice=dice))
        if found is not None:
            state.selections[key] = found[1]
        elif speed == speed_of(state, key, Selection(kind="extra_move")):
            state.selections[key] = Selection(kind="extra_move")
        else:
            state.selections[key] = Selection(kind="none")


def shielded(craft: CraftState) -> bool:
    """Whether a craft cannot be hurt by ordinary fire now: a Force Field is up, or it is
    cloaked (SFA-TEC-14, SFA-TEC-25, when the engine has them)."""
    return bool(getattr(craft, "force_field", False) or getattr(craft, "cloaked", False))


def trades_dice(state: SfaState, craft: CraftState, kind: str, item: str) -> bool:
    """Whether a selection may give up dice for Speed: an attack that rolls the actor's
    own pool, so not a missile (SFA-SEQ-2)."""
    if kind != "attack":
        return False
    weapon = next((w for w in state.type_of(craft).weapons if w.name == item), None)
    return weapon is not None and not weapon.guided


def order_key(state: SfaState, key: str, speed: int) -> tuple[Any, ...]:
    """Where an actor with this Speed falls in the turn order (bigger acts later):
    Speed, then Wits, then the side listed second (SFA-SEQ-3)."""
    craft_id, station = split_key(key)
    craft = state.craft[craft_id]
    person = craft.pilot if station == 0 else craft.gunners[station - 1]
    return (speed, -person.wits, state.sides.index(craft.side), key)


def share_below(mine: tuple[Any, ...], theirs: Sequence[tuple[Any, ...]]) -> float:
    """Share of the enemy's possible selections that would act before ours."""
    if not theirs:
        return 1.0
    return sum(1 for t in theirs if t < mine) / len(theirs)


def fallback(legal: Sequence[Any]) -> Any:
    """A harmless choice among actions this player does not understand: pass, select
    'none', hold fire, or else the first on offer."""
    for action in legal:
        if isinstance(action, A.Pass):
            return action
    for action in legal:
        if isinstance(action, A.Select) and action.kind == "none":
            return action
    for action in legal:
        if isinstance(action, A.Resolve) and not action.target:
            return action
    return legal[0]


@cache
def persona_player(name: str) -> Callable[[], SfaHeuristic]:
    """A factory of the heuristic playing a persona (`heuristic:NAME`), its weights read
    from the persona's data file (`weights.persona`) when a player is made. The same
    factory each time, so a subclass's players() equals its parent's."""

    def make() -> SfaHeuristic:
        return SfaHeuristic(persona(name), f"heuristic:{name}")

    return make


__all__ = ["SfaHeuristic", "damage_odds", "fallback", "persona_player", "worth"]
