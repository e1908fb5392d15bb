"""A heuristic player for the `evo` ruleset.

It plans around inertia and never searches deeper than one activation. Every active
flight drifts 6" along its facing before it acts, and after its manoeuvres its facing
is the direction from where it started to where it ends (EVO-MOV-1, EVO-MOV-3). So
where a flight ends this activation fixes where it drifts next turn, and which way
its fixed guns can be turned then: a turn has to be set up a turn ahead.

Each decision is scored in points expected to be destroyed:

- Shots: the expected kills of a Shoot, from the real Target (stealth), Kill, Save by
  facing, AP, Dodge and 'on my six', with the dice given out over the fire zone as
  the rules do (nearest first, mixed zones). `shot_value` is the exact-where-easy
  core. A zone holding one of the player's own models is never fired into.
- Plans for the active flight: shoot from where the drift left it (once or twice),
  Rotate then Shoot, Ready then Shoot (Lock-on), one Manoeuvre then Shoot, two
  Manoeuvres, or nothing. Manoeuvres are our own displacements within Agility,
  checked with the ruleset's own `check`: every model the same way, or, for the best
  few, the wings staggered along the leader's course against fire zones
  (formation.py; each model its own move, EVO-MOV-2).
- A long shot at a stealthy target (EVO-STL-1) counts for `stealth_far_shot` of its
  worth when a manoeuvre this activation could close within 10" of it instead (with
  `stealth_patience`, whenever a manoeuvre is still possible).
- Where a plan leaves the flight is worth: the shots it will have next turn after its
  drift (a turn's worth of turning allowed, more on an enemy's six), less the fire it
  is exposed to from enemies after their own drift (more if they sit on its six), less
  the reactions it triggers now, and a heavy price for a drift that would carry a
  model off the table; the fire of a stealthy enemy from beyond 10" weighs more (it
  can be answered only at its stealth Target, `stealth_fear`); a little for being
  within 10" of a stealthy enemy next turn,
  and, under fire, for fewer of its models sharing one fire zone. Wards (wards.py:
  shuttles) weigh that fire more and never close; their escorts gain for ending
  near them.
- The weights are one `Weights` value (weights.py); the personas change some of
  them (data/evo/personas/).
- Torpedoes (EVO-TOR-1): a launch is scored like a Shoot with the torpedoes alone.
  Jump gates (EVO-GATE-3) are never used to leave: a model that jumps out scores
  nothing and a side with none left loses.
- Command bonus actions (EVO-CMD-3): first to a flight that lost actions, else as a
  third action to a flight with a shot in prospect.
- The roll-off: the winner goes first (measured better in every built-in scenario).
- Activations: flights with the best shots first, then the ones in most danger.
- Reactions: the target with the best expected kills; decline only when no reaction
  would do any good.

`weigh` returns every candidate with its score and a reason a player reads, best
first; `decide` plays the first. The player's own `rng` only breaks exact ties, so
play is deterministic given it. It
reads only its `Seat` (the state as its side knows it, the options, the ruleset), and
every rule it estimates with (Target and stealth, 'on my six', Save by facing, Dodge,
the fire zone, ranges and arcs, the drift and the course change) is a call to the
ruleset's `rules` (rulesets/evo/rules.py), so a ruleset that changes one rule changes
this player's estimates with it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from dogfight.core.choose import pick
from dogfight.core.errors import IllegalAction
from dogfight.core.play import Weighed
from dogfight.core.seat import Seat
from dogfight.geometry import Vec2
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.formation import spread_moves
from dogfight.rulesets.evo.odds import evo_removal_chance
from dogfight.rulesets.evo.ready import is_torpedo
from dogfight.rulesets.evo.rules import ARC_RANGES, COURSE_MIN_MOVE, EvoRules
from dogfight.rulesets.evo.shooting import on_my_six, save_score, target_score, unit_models
from dogfight.rulesets.evo.spatial import PointGrid
from dogfight.rulesets.evo.state import EvoState, Flight
from dogfight.rulesets.evo.units import UnitType, Weapon
from dogfight.rulesets.evo.wards import wards_of
from dogfight.rulesets.evo.weights import Weights

if TYPE_CHECKING:
    from dogfight.rulesets.evo.ruleset import EvoRuleset

EPS = 1e-3
TABLE_MARGIN = 0.25
"""How far inside the edge a manoeuvre must end (the centre leaving the table is fatal)."""


# ---- dice -------------------------------------------------------------------------------


def die_kill(
    rules: EvoRules,
    kind: UnitType,
    die: int,
    target: int,
    need: int,
    six: bool,
    raw: bool,
    *,
    dodge_saves: bool = True,
    no_dodge_on_six: bool = True,
) -> float:
    """The chance one damage die removes a model of `kind` (EVO-DMG-1..3, EVO-SIX-1):
    the rules' own `removal_chance` of each face, averaged.

    `target` is the Target and `need` the Save needed; `six` whether it is shot on its
    six. `raw` dice may still be discarded (a natural 1); otherwise the die is one kept.
    """
    kept = [f for f in range(1, die + 1) if not rules.discarded(f)]
    total = sum(
        (
            rules.removal_chance(
                face,
                kind,
                target=target,
                save=need,
                six=six,
                dodge_saves=dodge_saves,
                no_dodge_on_six=no_dodge_on_six,
            )
            for face in kept
        ),
        Fraction(0),
    )
    return float(total) / (die if raw else len(kept))


# ---- a snapshot of the table --------------------------------------------------------


@dataclass(slots=True)
class Craft:
    """One model as the player sees it: where it is, which way it faces, what it is."""

    id: str
    unit: str
    side: str
    kind: UnitType
    x: float
    y: float
    h: float
    """Heading in degrees."""
    worth: float

    def moved(self, x: float, y: float, h: float) -> Craft:
        """The same model at another pose."""
        return Craft(self.id, self.unit, self.side, self.kind, x, y, h, self.worth)


def bearing(x: float, y: float, h: float, tx: float, ty: float) -> float:
    """Bearing of (tx, ty) from a pose, relative to its heading (0 ahead, + to port)."""
    dx, dy = tx - x, ty - y
    if dx * dx + dy * dy < EPS * EPS:
        return 0.0
    return (math.degrees(math.atan2(dy, dx)) - h + 180.0) % 360.0 - 180.0


def arc_half_width(arc: str | None) -> float:
    """How far off the facing (either way) a forward arc reaches; 180 for all round."""
    return 180.0 if arc is None else ARC_RANGES[arc].width / 2


def turn_reach(agility: float, drift: float) -> float:
    """The largest change of course, in degrees, one Manoeuvre after the drift allows."""
    if agility >= drift:
        return 90.0 + math.degrees(math.asin(min(1.0, (agility - drift) / drift)))
    return math.degrees(math.asin(agility / drift))


def is_lock_on(weapon: Weapon) -> bool:
    """A weapon that needs a Ready (EVO-RDY-1)."""
    return weapon.trait("Lock-on") is not None


@dataclass(frozen=True, slots=True)
class Arm:
    """One weapon line with its traits read once."""

    range: float
    arc: str | None
    dice: int
    die: int
    ap: int
    lock_on: bool
    torpedo: bool = False
    """Fired only by a LaunchTorpedo, never by a Shoot or a reaction (EVO-TOR-1)."""


def arms_of(rules: EvoRules, kind: UnitType) -> list[Arm]:
    """A flight type's weapons as `Arm`s."""
    return [
        Arm(w.range, w.arc, w.dice, w.die, rules.ap(w), is_lock_on(w), is_torpedo(w))
        for w in kind.weapons
    ]


GRID_CELL = 12.0
"""Inches on a side of a cell of the player's grids of crafts."""


class View:
    """Everything one decision needs, read once from the state."""

    def __init__(
        self,
        state: EvoState,
        rules: EvoRules,
        kills: dict[tuple[Any, ...], float],
        game: int = 0,
        weights: Weights | None = None,
    ) -> None:
        self.state = state
        self.w = weights if weights is not None else Weights()
        """The weights of the player deciding."""
        self.game = game
        """The seat's key: which game this decision belongs to."""
        self.rules = rules
        self.kills = kills
        """Memo of `die_kill` for this game (the player keeps it by `seat.key`)."""
        self.drift = float(rules.drift)
        opt = state.options
        self.close = float(opt.get("close_range", 10.0))
        self.reach = rules.zone_reach(
            float(opt.get("fire_zone", 6.0)), str(opt.get("fire_zone_measure", "radius"))
        )
        # The attacker's own choice (choose) is estimated as going on round, like spread.
        self.spread = opt.get("free_allocation", "choose") in ("spread", "choose")
        self.reaction_close = opt.get("reaction_range", "close") == "close"
        self.dodge_saves = bool(opt.get("dodge_saves", True))
        self.no_dodge_on_six = bool(opt.get("no_dodge_on_six", True))
        self.leader_costs = bool(opt.get("leader_loss_costs_action", True))
        self.suppression = str(opt.get("suppression", "dice"))
        self.min_move = float(opt.get("course_min_move", COURSE_MIN_MOVE))
        self.width = state.table.width
        self.height = state.table.height
        self.last_turn = state.turn >= state.turn_limit
        # Leaving the table loses the model, unless the option stops it at the edge.
        self.off_table = (
            self.w.off_table if opt.get("leave_table", "disengage") == "disengage" else self.w.edge
        )
        self.crafts: dict[str, Craft] = {}
        self.arms: dict[str, list[Arm]] = {k: arms_of(rules, t) for k, t in state.types.items()}
        self.zones: dict[tuple[str, str], list[Craft]] = {}
        self.grids: dict[int, tuple[Sequence[Craft], PointGrid]] = {}
        self.outlooks: dict[tuple[str, frozenset[str], str], tuple[list[Foe], PointGrid]] = {}
        """The foes of outlooks made in this decision, by (side, acting next, type)."""
        self.gun_lists: dict[tuple[str, str], list[Gun]] = {}
        """Grids of the crafts lists asked about (by the list's id; the list is kept)."""
        self.wards = {
            fid for side in state.sides for fid in wards_of(state, side, self.w.ward_firepower)
        }
        """The flights played as wards (wards.py): kept away from the enemy, escorted."""
        for flight in state.flights.values():
            kind = state.types[flight.type]
            base = float(kind.points or 10)
            for mid in flight.models:
                model = state.models[mid]
                worth = base
                if mid == flight.leader and len(flight.models) > 1 and self.leader_costs:
                    worth *= 1 + self.w.leader_bonus
                pos = model.pose.position
                self.crafts[mid] = Craft(
                    mid, flight.id, flight.side, kind, pos.x, pos.y, model.pose.heading, worth
                )

    # ---- table ----------------------------------------------------------------------

    def on_table(self, x: float, y: float, margin: float = 0.0) -> bool:
        """True if the point is on the table, `margin` inside every edge."""
        return margin <= x <= self.width - margin and margin <= y <= self.height - margin

    def room(self, x: float, y: float, h: float) -> float:
        """How far a model can go straight ahead before leaving the table."""
        rad = math.radians(h)
        c, s = math.cos(rad), math.sin(rad)
        best = math.inf
        if c > 1e-9:
            best = min(best, (self.width - x) / c)
        elif c < -1e-9:
            best = min(best, -x / c)
        if s > 1e-9:
            best = min(best, (self.height - y) / s)
        elif s < -1e-9:
            best = min(best, -y / s)
        return max(0.0, best)

    def drifted(self, c: Craft) -> tuple[float, float]:
        """Where a model's next drift takes it."""
        rad = math.radians(c.h)
        return c.x + self.drift * math.cos(rad), c.y + self.drift * math.sin(rad)

    # ---- sides ----------------------------------------------------------------------

    def side_crafts(self, side: str) -> list[Craft]:
        """Every model of a side on the table."""
        return [c for c in self.crafts.values() if c.side == side]

    def flight_crafts(self, flight: Flight) -> list[Craft]:
        """A flight's models, leader first."""
        return [self.crafts[m] for m in flight.models if m in self.crafts]

    def within(self, crafts: Sequence[Craft], poses: Sequence[Craft], reach: float) -> list[Craft]:
        """The crafts (in list order) that may be within `reach` of one of the poses:
        what a Shoot from those poses need look at, the rest being out of range."""
        if not poses or reach < 0:
            return []
        found = self.grids.get(id(crafts))
        if found is None or found[0] is not crafts:
            found = self.grids[id(crafts)] = (
                crafts,
                PointGrid(((c.x, c.y) for c in crafts), GRID_CELL),
            )
        grid = found[1]
        x0 = min(p.x for p in poses) - reach
        x1 = max(p.x for p in poses) + reach
        y0 = min(p.y for p in poses) - reach
        y1 = max(p.y for p in poses) + reach
        return [crafts[i] for i in grid.in_box(x0, y0, x1, y1)]

    def guns(self, kind: UnitType, foe: UnitType) -> list[Gun]:
        """`guns_against`, once per pair of types in this decision."""
        key = (kind.id, foe.id)
        found = self.gun_lists.get(key)
        if found is None:
            found = self.gun_lists[key] = guns_against(self, kind, foe)
        return found

    def arm_reach(self, kind: UnitType) -> float:
        """The farthest a weapon of the type may fire (-1: none)."""
        arms = self.arms[kind.id]
        return self.rules.reach_limit(max(w.range for w in arms)) if arms else -1.0

    # ---- shooting ---------------------------------------------------------------------

    def kill(self, kind: UnitType, die: int, target: int, need: int, six: bool, raw: bool) -> float:
        """`die_kill` under this game's options, remembered for the game."""
        key = (kind.id, die, target, need, six, raw)
        found = self.kills.get(key)
        if found is None:
            found = self.kills[key] = die_kill(
                self.rules,
                kind,
                die,
                target,
                need,
                six,
                raw,
                dodge_saves=self.dodge_saves,
                no_dodge_on_six=self.no_dodge_on_six,
            )
        return found

    def facing_for(self, model: Craft, firers: Sequence[Craft]) -> str:
        """The facing most firers are on (EVO-ARM-1)."""
        return self.rules.save_facing(
            [bearing(model.x, model.y, model.h, f.x, f.y) for f in firers]
        )

    def stealth_holds(self, firers: Sequence[Craft], target: Craft) -> bool:
        """The target keeps its stealth Target against these firers: none is within
        close range of it (EVO-STL-1)."""
        nearest = min((math.hypot(f.x - target.x, f.y - target.y) for f in firers), default=0.0)
        return self.rules.stealthy(target.kind, nearest, self.close)

    def fire_zone(self, target: Craft, firing_unit: str) -> list[Craft]:
        """The fire zone of a Shoot by `firing_unit` at `target` with everything where it
        stands. The firing flight is never in its own zone, so wherever it moves to
        shoot, the zone is the same (cached)."""
        key = (target.id, firing_unit)
        found = self.zones.get(key)
        if found is None:
            found = self.zones[key] = self.zone(target, firing_unit, self.crafts.values())
        return found

    def zone(self, target: Craft, firing_unit: str, world: Iterable[Craft]) -> list[Craft]:
        """The models in the fire zone round the target (EVO-SHT-2)."""
        in_zone = self.rules.in_zone
        reach = self.reach
        return [
            c
            for c in world
            if c.unit != firing_unit and in_zone(math.hypot(c.x - target.x, c.y - target.y), reach)
        ]

    def shot_value(
        self,
        side: str,
        kind: UnitType,
        shooters: Sequence[Craft],
        target: Craft,
        zone: Sequence[Craft],
        *,
        ignore_arcs: bool,
        locked: str,
        reaction: bool,
        torpedo: bool = False,
    ) -> float | None:
        """Expected worth destroyed (enemy less friendly) by one Shoot; None if no dice.

        Follows EVO-SHT-1..5: every weapon in range and arc adds its dice; in a mixed
        zone every model takes one die first, nearest first; the rest go round the
        target's flight, nearest first (or, by option, onto the target).
        """
        rules = self.rules
        pool: list[tuple[int, int]] = []
        firers: list[Craft] = []
        for s in shooters:
            used = False
            rel: float | None = None
            dist = math.hypot(target.x - s.x, target.y - s.y)
            for w in self.arms[kind.id]:
                if not rules.weapon_may_fire(
                    lock_on=w.lock_on,
                    torpedo=w.torpedo,
                    locked=locked == target.unit,
                    launching=torpedo,
                    reaction=reaction,
                ):
                    continue
                if not rules.in_range(dist, w.range):
                    continue
                if not ignore_arcs and w.arc is not None:
                    if rel is None:
                        rel = bearing(s.x, s.y, s.h, target.x, target.y)
                    if not rules.in_arc(rel, w.arc):
                        continue
                pool.extend([(w.die, w.ap)] * w.dice)
                used = True
            if used:
                firers.append(s)
        if not pool:
            return None
        if any(c.side == side for c in zone):
            # Never fire into a zone holding one's own fighters (EVO-SHT-2, EVO-SHT-5:
            # they take dice like any model there); another target, or none, instead.
            return None
        pool.sort(reverse=True)
        near = sorted(
            zone, key=lambda c: (min(math.hypot(c.x - f.x, c.y - f.y) for f in firers), c.id)
        )
        # (die, ap, expected count, raw) per zone model
        given: list[list[tuple[int, int, float, bool]]] = [[] for _ in near]
        rest = pool
        takers = list(range(len(near)))
        if rules.zone_is_mixed([c.unit for c in near]):
            for i, (sides, pierce) in enumerate(pool[: len(near)]):
                given[i].append((sides, pierce, 1.0, True))
            rest = pool[len(near) :]
            takers = [i for i, c in enumerate(near) if c.unit == target.unit]
        if rest and takers:
            groups: dict[tuple[int, int], float] = {}
            for die, ap in rest:
                groups[(die, ap)] = groups.get((die, ap), 0.0) + (die - 1) / die
            kept = sum(groups.values())
            m = len(takers)
            for rank, i in enumerate(takers):
                if self.spread:
                    share = 0.0
                    j = rank
                    while j < kept:
                        share += min(1.0, kept - j)
                        j += m
                else:
                    share = min(1.0, max(0.0, kept - rank))
                    if near[i].id == target.id:
                        share += max(0.0, kept - m)
                if share <= 0:
                    continue
                for (die, ap), count in groups.items():
                    given[i].append((die, ap, share * count / kept, False))
        close = self.close
        value = 0.0
        per_unit: dict[str, float] = {}
        for i, c in enumerate(near):
            if not given[i]:
                continue
            gaps = [math.hypot(c.x - f.x, c.y - f.y) for f in firers]
            tn = rules.target_number(c.kind, min(gaps), close)
            # EVO-SIX-1: every model of the firing flight, not only those that fire.
            six = all(
                rules.on_six(
                    math.hypot(c.x - f.x, c.y - f.y), bearing(c.x, c.y, c.h, f.x, f.y), close
                )
                for f in shooters
            )
            facing = self.facing_for(c, firers)
            survive = 1.0
            for die, ap, count, raw in given[i]:
                need = rules.save_needed(c.kind, facing, ap)
                q = self.kill(c.kind, die, tn, need, six, raw)
                survive *= (1.0 - q) ** count
                per_unit[c.unit] = per_unit.get(c.unit, 0.0) + count * (
                    (die - 1) / die if raw else 1.0
                )
            worth = c.worth * (1.0 - survive)
            value += worth if c.side != side else -self.w.friendly_fire * worth
        for unit, dice in per_unit.items():
            flight = self.state.flights[unit]
            if (
                flight.side != side
                and not flight.suppressed
                and rules.suppresses(dice, len(flight.models), False, self.suppression)
            ):
                value += self.w.suppress_bonus * float(self.state.types[flight.type].points or 10)
        return value

    def quick_shot(
        self,
        kind: UnitType,
        poses: Sequence[Craft],
        enemies: Sequence[Craft],
        *,
        locked: str,
        ignore_arcs: bool = False,
    ) -> float:
        """A cheap estimate of the best Shoot from these poses (no fire zone)."""
        best = 0.0
        rules = self.rules
        close = self.close
        arms = self.arms[kind.id]
        # An enemy out of every weapon's range of every pose adds nothing.
        for t in self.within(enemies, poses, self.arm_reach(kind)):
            dice: dict[int, int] = {}
            firers: list[tuple[Craft, float]] = []
            for s in poses:
                dist = math.hypot(t.x - s.x, t.y - s.y)
                rel: float | None = None
                used = False
                for w in arms:
                    if not rules.weapon_may_fire(
                        lock_on=w.lock_on,
                        torpedo=w.torpedo,
                        locked=locked == t.unit,
                        launching=False,
                        reaction=False,
                    ):
                        continue
                    if not rules.in_range(dist, w.range):
                        continue
                    if not ignore_arcs and w.arc is not None:
                        if rel is None:
                            rel = bearing(s.x, s.y, s.h, t.x, t.y)
                        if not rules.in_arc(rel, w.arc):
                            continue
                    dice[w.die] = dice.get(w.die, 0) + w.dice
                    used = True
                if used:
                    firers.append((s, dist))
            if not firers:
                continue
            tn = rules.target_number(t.kind, min(d for _, d in firers), close)
            six = all(rules.on_six(d, bearing(t.x, t.y, t.h, s.x, s.y), close) for s, d in firers)
            # A cheap estimate: the Save as printed, whatever the facing and AP.
            kills = sum(
                n * self.kill(t.kind, die, tn, t.kind.save, six, True) for die, n in dice.items()
            )
            best = max(best, min(kills, 3.0) * t.worth)
        return best


# ---- what a spot is worth for next turn -------------------------------------------------


@dataclass(slots=True)
class Gun:
    """One weapon line reduced to what the outlook needs, with its kill chances."""

    range: float
    arc: str | None
    half: float
    """How far off the facing the arc reaches (180: all round)."""
    aft: bool
    dice: float
    """Dice, halved for Lock-on weapons (they need a Ready first)."""
    kills: tuple[float, float, float, float]
    """Kill chance of one die against the other side's type, indexed
    2 * (on its six) + (stealth Target in use)."""


def guns_against(view: View, kind: UnitType, foe: UnitType) -> list[Gun]:
    """A flight type's weapons as the outlook uses them against another type."""
    guns = []
    # The Target beyond close range (stealth) and within it.
    far = view.rules.target_number(foe, math.inf, view.close)
    near = view.rules.target_number(foe, 0.0, view.close)
    for w in kind.weapons:
        kills = []
        for six in (False, True):
            for stealth in (False, True):
                tn = far if stealth else near
                kills.append(view.kill(foe, w.die, tn, foe.save, six, True))
        guns.append(
            Gun(
                w.range,
                w.arc,
                arc_half_width(w.arc),
                w.arc == "FaA",
                w.dice
                * (0.5 if is_lock_on(w) else view.w.torpedo_outlook if is_torpedo(w) else 1.0),
                (kills[0], kills[1], kills[2], kills[3]),
            )
        )
    return guns


@dataclass(slots=True)
class Foe:
    """An enemy flight as the outlook sees it: its leader stands for the flight."""

    x: float
    y: float
    h: float
    qx: float
    """Where it shoots from next: after its drift if it acts before us again."""
    qy: float
    models: int
    worth: float
    acts: bool
    """It acts before the flight's next activation."""
    mine: list[Gun]
    """My flight's guns against it."""
    theirs: list[Gun]
    """Its guns against my flight."""
    turn: float
    agility: float
    kind: UnitType


class Outlook:
    """Scores where an activation leaves a flight: next turn's shots after its drift,
    less the fire the enemy can bring first, with the table edges and crowding."""

    def __init__(self, view: View, flight: Flight, acts_next: set[str]) -> None:
        state = view.state
        self.view = view
        self.flight = flight.id
        self.kind = kind = state.types[flight.type]
        self.agility = view.rules.movement_budget(kind.agility)
        self.turn = turn_reach(self.agility, view.drift)
        rules = view.rules
        # `score` adds nothing for a foe whose leader is farther than `foe_reach` from
        # mine (no six within close range, no fire within 30" of a drift point, no
        # approach within 40"), nor for a friend beyond the fire zone; `danger` nothing
        # for a foe beyond 30" of its drift point. The grids hand them only those near
        # enough, in list order, so their sums are the same.
        self.foe_reach = max(rules.reach_limit(view.close), 40.0 + 2 * view.drift) + 1.0
        self.danger_reach = 30.0 + view.drift + 1.0
        key = (flight.side, frozenset(acts_next), kind.id)
        found = view.outlooks.get(key)
        if found is None:
            foes = self.foes_of(view, flight.side, acts_next, kind)
            found = view.outlooks[key] = (
                foes,
                PointGrid(((f.x, f.y) for f in foes), self.foe_reach),
            )
        self.foes, self.foe_grid = found
        self.friend_reach = rules.reach_limit(view.reach)
        self._friends: tuple[list[Craft], PointGrid] | None = None
        self.ward = flight.id in view.wards
        """This flight is a ward: it fears fire more and does not close on the enemy."""
        self.escorted = [
            c
            for c in view.crafts.values()
            if c.side == flight.side and c.unit in view.wards and c.unit != flight.id
        ]
        """The ward models this flight escorts (none for a ward itself)."""
        if self.ward:
            self.escorted = []

    @staticmethod
    def foes_of(view: View, side: str, acts_next: set[str], kind: UnitType) -> list[Foe]:
        """The enemy flights (id order) as an outlook of a flight of `kind` sees them."""
        state = view.state
        foes: list[Foe] = []
        for enemy in state.live_flights(state.other(side)):
            crafts = view.flight_crafts(enemy)
            if not crafts:
                continue
            lead = crafts[0]
            acts = enemy.id in acts_next
            qx, qy = view.drifted(lead) if acts else (lead.x, lead.y)
            alive = [c for c in crafts if not acts or view.on_table(*view.drifted(c))]
            if not alive:
                continue  # its drift carries the whole flight off the table
            foe = state.types[enemy.type]
            foes.append(
                Foe(
                    lead.x,
                    lead.y,
                    lead.h,
                    qx,
                    qy,
                    len(alive),
                    float(foe.points or 10),
                    acts,
                    view.guns(kind, foe),
                    view.guns(foe, kind),
                    turn_reach(view.rules.movement_budget(foe.agility), view.drift),
                    view.rules.movement_budget(foe.agility),
                    foe,
                )
            )
        return foes

    @property
    def friends(self) -> list[Craft]:
        """The models of the flight's side outside the flight, in table order."""
        return self.friend_index()[0]

    def friend_index(self) -> tuple[list[Craft], PointGrid]:
        """`friends` and their grid, made the first time they are asked for."""
        if self._friends is None:
            view = self.view
            side = view.state.flights[self.flight].side
            friends = [c for c in view.crafts.values() if c.side == side and c.unit != self.flight]
            self._friends = (friends, PointGrid(((c.x, c.y) for c in friends), self.friend_reach))
        return self._friends

    def score(self, me: Sequence[Craft]) -> float:
        """The worth of ending this activation with the flight's models at `me`."""
        view = self.view
        rules = view.rules
        drift = view.drift
        lead = me[0]
        each = lead.worth
        n = len(me)
        close = view.close
        w = view.w
        value = 0.0
        last = view.last_turn
        if not last:
            # The next drift must stay on the table; heading at an edge wastes a turn.
            width, height = view.width, view.height
            for c in me:
                rad = math.radians(c.h)
                qx, qy = c.x + drift * math.cos(rad), c.y + drift * math.sin(rad)
                if not (0.3 <= qx <= width - 0.3 and 0.3 <= qy <= height - 0.3):
                    value -= view.off_table * c.worth
                elif not (8.0 <= qx <= width - 8.0 and 8.0 <= qy <= height - 8.0):
                    room = view.room(qx, qy, c.h)
                    if room < 8.0:
                        value -= view.w.edge * c.worth * (1.0 - room / 8.0)
        lx, ly, lh = lead.x, lead.y, lead.h
        rad = math.radians(lh)
        qx, qy = lx + drift * math.cos(rad), ly + drift * math.sin(rad)
        # Shared fire zones with friendly flights.
        reach = view.reach
        friends, friend_grid = self.friend_index()
        r = self.friend_reach
        for i in friend_grid.in_box(lx - r, ly - r, lx + r, ly + r):
            c = friends[i]
            if rules.in_zone(math.hypot(c.x - lx, c.y - ly), reach):
                value -= view.w.crowd * each
        agility = self.agility
        my_turn = self.turn
        opportunity = 0.0
        approach = 0.0
        threat = 0.0
        unanswered = 0.0
        foes = self.foes
        r = self.foe_reach
        for i in self.foe_grid.in_box(lx - r, ly - r, lx + r, ly + r):
            f = foes[i]
            # Here and now: who is on whose six.
            gap = math.hypot(f.x - lx, f.y - ly)
            if rules.on_six(gap, bearing(lx, ly, lh, f.x, f.y), close):
                value -= view.w.aft_danger * each * n
            if rules.on_six(gap, bearing(f.x, f.y, f.h, lx, ly), close):
                value += w.six_bonus * each * n
            # The enemy shoots first, from its drift point, at where I end.
            if f.acts:
                fire = f.models * self.incoming(f, lx, ly, lh)
                threat += fire
                if f.kind.stealth_target is not None and not rules.within_close(
                    math.hypot(f.qx - lx, f.qy - ly), close
                ):
                    # EVO-STL-1: fire from beyond 10" of a stealthy flight, which my
                    # answer from here meets at its stealth Target.
                    unanswered += fire
            if last:
                continue
            # My next activation: from my drift point, at where the enemy will be.
            dist = math.hypot(f.qx - qx, f.qy - qy)
            approach = max(approach, f.worth * max(0.0, 1.0 - dist / 40.0))
            if dist > 30.0:
                continue
            rel = abs(bearing(qx, qy, lh, f.qx, f.qy))
            six = rules.on_six(dist, bearing(f.qx, f.qy, f.h, qx, qy), close)
            if f.kind.stealth_target is not None and rules.within_close(dist, close):
                # EVO-STL-1: from within close range its stealth Target is lost.
                value += w.stealth_close * each * n
            # Stealth holds if even a full Manoeuvre closer leaves us beyond close range.
            index = 2 * six + rules.stealthy(f.kind, dist - agility, close)
            shots = 0.0
            for g in f.mine:
                if rules.in_range(dist, g.range) and rules.in_arc(rel, g.arc):
                    factor = 1.4
                elif not g.aft and rel <= g.half + my_turn and dist <= g.range + agility:
                    factor = 1.0
                elif dist <= g.range:
                    factor = 0.6
                else:
                    continue
                shots += factor * g.dice * g.kills[index]
            if six:
                shots *= 1.0 + w.six_setup  # EVO-SIX-1: set up next turn's +1 a die
            opportunity = max(opportunity, min(n * shots, float(f.models)) * f.worth)
        fear = w.threat
        if self.ward:
            fear *= w.ward_fear
            approach = 0.0
        if not last:
            value += w.opportunity * opportunity + w.approach * n * approach
        exposed = min(threat, 0.9 * n)
        if unanswered > 0:
            fear *= 1.0 + w.stealth_fear * unanswered / threat
        value -= fear * exposed * each
        if self.escorted:
            near = min(math.hypot(c.x - lx, c.y - ly) for c in self.escorted)
            value += w.escort * each * n * max(0.0, 1.0 - near / (2.0 * close))
        if n >= 2 and w.stack > 0 and exposed > 0:
            # EVO-SHT-2: the share of the flight's pairs one fire zone catches together,
            # against the fire it is exposed to (a zone on fewer models removes fewer).
            in_zone = rules.in_zone
            pairs = sum(
                1
                for i, a in enumerate(me)
                for b in me[i + 1 :]
                if in_zone(math.hypot(a.x - b.x, a.y - b.y), reach)
            )
            value -= w.stack * exposed * each * 2 * pairs / (n * (n - 1))
        return value

    def incoming(self, f: Foe, x: float, y: float, h: float) -> float:
        """Expected kills one model of `f` scores on my model at (x, y) facing h, shooting
        from its drift point: straight ahead, after a turn of manoeuvre, or a Rotate."""
        dist = math.hypot(x - f.qx, y - f.qy)
        if dist > 30.0:
            return 0.0
        rules = self.view.rules
        close = self.view.close
        rel = abs(bearing(f.qx, f.qy, f.h, x, y))
        behind = rules.on_six(dist, bearing(x, y, h, f.qx, f.qy), close)
        index = 2 * behind + rules.stealthy(self.kind, dist - f.agility, close)
        kills = 0.0
        for g in f.theirs:
            if rules.in_range(dist, g.range) and rules.in_arc(rel, g.arc):
                factor = 1.0 if g.aft else 1.4
            elif not g.aft and rel <= g.half + f.turn and dist <= g.range + f.agility:
                factor = 0.9
            elif dist <= g.range:
                factor = 0.6
            else:
                continue
            kills += factor * g.dice * g.kills[index]
        return kills

    def danger(self, me: Sequence[Craft]) -> float:
        """Expected worth the enemy can destroy of the flight where it stands."""
        lead = me[0]
        foes = self.foes
        r = self.danger_reach
        near = self.foe_grid.in_box(lead.x - r, lead.y - r, lead.x + r, lead.y + r)
        kills = sum(foes[i].models * self.incoming(foes[i], lead.x, lead.y, lead.h) for i in near)
        return min(kills, 0.9 * len(me)) * lead.worth


# ---- the player -------------------------------------------------------------------------


@dataclass(slots=True)
class Plan:
    """A candidate first action for the active flight and what its plan is worth."""

    value: float
    action: Any
    """The first action; for a manoeuvre plan, its (dx, dy) until it is chosen."""
    poses: list[Craft]
    """Where the flight's acting models end the plan's movement."""
    shoots: bool = False
    ignore_arcs: bool = False
    locked: str = ""
    shots: float = 1.0
    """How many Shoots the plan takes."""
    quick: float = 0.0
    """The cheap estimate of its Shoot, for the shortlist."""
    used: int = 0
    """Manoeuvres the plan's movement takes (0: none)."""
    starts: list[tuple[float, float]] | None = None
    """The start points the acting models drifted from (manoeuvre plans)."""


class EvoHeuristic:
    """Plays `evo`: shoots well, flies with its inertia, reacts whenever it can."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None, name: str = "heuristic") -> None:
        self.weights = weights if weights is not None else Weights()
        """What this player weighs (a persona's, or the plain heuristic's)."""
        self.name = name
        # Set again, the same, when one decision is weighed twice (an explanation and
        # then the move), so weighing has no effect of its own.
        self._pending: dict[tuple[int, tuple[Any, ...], int], A.Manoeuvre] = {}
        """Manoeuvres chosen in the activation under way, by (game, activation, actions
        taken before it): the second half of a two-manoeuvre plan repeats the first."""
        # die_kill values of the game being played (seat.key): its unit types and
        # options stay the same from one decision to the next.
        self._kills: tuple[int, dict[tuple[Any, ...], float]] = (0, {})

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """One action: a member of `legal`, or a custom Manoeuvre the rules accept
        (the first of `weigh`)."""
        return self.weigh(seat, legal, rng)[0].action

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """The candidates considered for this decision with their scores (points of enemy
        destroyed, less the player's own expected losses) and why, best first."""
        if len(legal) == 1:
            return [Weighed(legal[0], 0.0, "the only choice")]
        state: EvoState = seat.state()
        rules = ruleset_of(seat).rules
        if self._kills[0] != seat.key:
            self._kills = (seat.key, {})
        view = View(state, rules, self._kills[1], seat.key, self.weights)
        if state.phase == "order":
            return self.order(legal)
        if state.phase == "activate":
            return self.activate(view, legal, rng)
        if state.phase == "react":
            return self.react(view, legal, rng)
        if state.phase == "act":
            return self.act(seat, view, legal, rng)
        if state.phase == "allocate":
            return [Weighed(self.allocate(seat, state, legal), 0.0, ALLOCATE_REASON)]
        return [Weighed(legal[0], 0.0, "the first choice")]  # pragma: no cover

    # ---- the roll-off --------------------------------------------------------------------

    def order(self, legal: list[Any]) -> list[Weighed]:
        """Go first when the roll-off is won (EVO-SEQ-1).

        Measured heuristic against heuristic (seeds 1000+, each scenario's own roll-off):
        the side going first won 26 of 40 skirmish battles, 19 of 30 shuttle-escort and
        23 of 30 stealth-ambush: the first shots of the battle outweigh seeing the
        enemy's drift first.
        """
        first = next((a for a in legal if isinstance(a, A.ChooseOrder) and a.first), legal[0])
        out = [Weighed(first, 1.0, "go first: the first shots outweigh seeing the enemy drift")]
        return out + [Weighed(a, 0.0, "go second") for a in legal if a != first]

    # ---- activation order ------------------------------------------------------------

    def activate(self, view: View, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """Flights with the best shots after their drift first, then those in danger."""
        state = view.state
        scored: list[Weighed] = []
        for action in legal:
            if not isinstance(action, A.Activate):
                continue
            flight = state.flights[action.unit]
            me = view.flight_crafts(flight)
            if not me:
                continue
            enemy_side = state.other(flight.side)
            enemies = view.side_crafts(enemy_side)
            drifted = [c.moved(*view.drifted(c), c.h) for c in me]
            kind = me[0].kind
            shot = max(
                view.quick_shot(kind, drifted, enemies, locked=""),
                0.8 * view.quick_shot(kind, drifted, enemies, locked="", ignore_arcs=True),
            )
            outlook = Outlook(view, flight, {f.id for f in state.live_flights(enemy_side)})
            danger = outlook.danger(me)
            value = shot + view.w.danger_order * danger
            reason = f"activate {flight.id}: shots worth {shot:.2f} after its drift"
            if danger > 0:
                reason += f", in danger of losing {danger:.2f}"
            if action.command:
                value += self.command_worth(view.rules, state, flight, action.command, legal, shot)
                reason += f", with a bonus action from {action.command}"
            scored.append(Weighed(action, value, reason))
        if not scored:
            return [Weighed(legal[0], 0.0, "the first flight")]
        return ranked(scored, rng)

    # ---- allocating the dice left over ---------------------------------------------------

    def allocate(self, seat: Seat, state: EvoState, legal: list[Any]) -> Any:
        """Each left-over die, highest first, on the model it is likeliest to remove
        (greedy_rest, as the exact odds assume), from the engine's own die chances; if
        that is not on offer, the offered allocation with the most expected removals."""
        pending = state.shot
        if pending is None:  # pragma: no cover - only asked in phase 'allocate'
            return legal[0]
        ctx = ruleset_of(seat).ctx(state)
        rules: EvoRules = ctx.rules
        shooter = state.flights[pending.flight]
        firers = [state.models[m] for m in pending.firers if m in state.models]
        everyone = unit_models(ctx, shooter)
        takers = [state.models[m] for m in pending.takers]

        def chance(model: Any, face: int, ap: int) -> Fraction:
            six = on_my_six(ctx, model, everyone)
            need, _ = save_score(ctx, model, firers, ap)
            return evo_removal_chance(
                face,
                state.type_of(model),
                state.options,
                target_score=target_score(ctx, model, firers),
                save_needed=need,
                six=six,
                rules=rules,
            )

        survive = []
        for m in takers:
            alive = Fraction(1)
            for face, ap in pending.given.get(m.id, []):
                alive *= 1 - chance(m, face, ap)
            survive.append(alive)
        rows = [[chance(m, face, ap) for m in takers] for face, ap in pending.rest]
        best = A.Allocate(to=tuple(takers[j].id for j in rules.greedy_rest(survive, rows)))
        if best in legal:
            return best
        # A player answers from what is on offer: the offered allocation that removes
        # the most models on average.
        index = {m.id: j for j, m in enumerate(takers)}

        def removed(action: A.Allocate) -> Fraction:
            alive = list(survive)
            for row, mid in zip(rows, action.to, strict=True):
                alive[index[mid]] *= 1 - row[index[mid]]
            return sum((1 - a for a in alive), Fraction(0))

        offered = [a for a in legal if isinstance(a, A.Allocate)]
        return max(offered, key=removed) if offered else legal[0]

    def command_worth(
        self,
        rules: EvoRules,
        state: EvoState,
        flight: Flight,
        giver: str,
        legal: list[Any],
        shot: float,
    ) -> float:
        """What a Command bonus action is worth to this activation (EVO-CMD-3).

        A flight that would lose actions (a dead leader, suppression) gains most: its
        one action back. Otherwise the bonus is a third action, worth a further Shoot,
        but only when no penalised flight the same giver could help is still waiting.
        """
        if self.penalty(rules, state, flight):
            return self.weights.command_rescue + shot
        waiting = [
            state.flights[a.unit]
            for a in legal
            if isinstance(a, A.Activate) and a.command == giver and a.unit != flight.id
        ]
        if any(self.penalty(rules, state, f) for f in waiting) or shot <= 0:
            return -EPS
        return self.weights.second_shot * 0.5 * shot

    @staticmethod
    def penalty(rules: EvoRules, state: EvoState, flight: Flight) -> int:
        """Actions the flight loses at its next activation (EVO-CMD-2, EVO-SUP-1)."""
        costs = bool(state.options.get("leader_loss_costs_action", True))
        full = rules.actions_allowed(leader_lost=False, suppressed=False, leader_costs=costs)
        now = rules.actions_allowed(
            leader_lost=not flight.leader or flight.leader not in state.models,
            suppressed=flight.suppressed,
            leader_costs=costs,
        )
        return full - now

    # ---- reactions ---------------------------------------------------------------------

    def react(self, view: View, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """The reaction with the best expected kills; decline only if none does good."""
        state = view.state
        scored: list[Weighed] = []
        decline: Any = None
        for action in legal:
            if isinstance(action, A.Decline):
                decline = action
                continue
            if not isinstance(action, A.React):
                continue
            flight = state.flights[action.unit]
            target = view.crafts[action.target]
            value = view.shot_value(
                flight.side,
                state.types[flight.type],
                view.flight_crafts(flight),
                target,
                view.fire_zone(target, flight.id),
                ignore_arcs=False,
                locked="",
                reaction=True,
            )
            if value is None:
                continue  # nothing bears, or the zone holds friends
            scored.append(
                Weighed(
                    action,
                    value,
                    f"{flight.id} reacts at {target.id} ({target.kind.name}): "
                    f"{value:.2f} points expected",
                )
            )
        if not scored or (decline is not None and max(c.score for c in scored) < 0):
            why = "decline: no reaction would do good" if scored else "decline: nothing to fire"
            chosen = decline if decline is not None else legal[0]
            return [Weighed(chosen, 0.0, why), *sorted(scored, key=lambda c: -c.score)]
        out = ranked(scored, rng)
        if decline is not None:
            out.append(Weighed(decline, 0.0, "decline"))
        return out

    # ---- the active flight --------------------------------------------------------------

    def act(self, seat: Seat, view: View, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """Weigh the active flight's next actions by the plans they start."""
        state = view.state
        flight = state.flights[state.active_unit]
        side = flight.side
        kind = state.types[flight.type]
        left = flight.allowed - len(flight.actions)
        me = [view.crafts[m] for m in flight.acting if m in view.crafts]
        end = next((a for a in legal if isinstance(a, A.EndActivation)), legal[-1])
        if not me or left <= 0:
            return [Weighed(end, 0.0, "no action left: end the activation")]
        enemy_side = state.other(side)
        enemies = view.side_crafts(enemy_side)
        acts_next = {f.id for f in state.live_flights(enemy_side)}
        if view.last_turn:
            acts_next = {f.id for f in state.live_flights(enemy_side) if not f.activated}
        ignore_now = flight.actions[:1] == ("rotate",)
        outlook = Outlook(view, flight, acts_next)
        here = outlook.score(me)
        manoeuvring = all(a == "manoeuvre" for a in flight.actions)
        moving = self.manoeuvres(view, flight, me, enemies, outlook, left) if manoeuvring else []
        # EVO-STL-1: the stealthy models one manoeuvre can bring within 10" this
        # activation; a long shot at one of them waits for that manoeuvre.
        closable = {
            e.id
            for e in enemies
            if e.kind.stealth_target is not None
            and moving
            and (
                view.w.stealth_patience > 0
                or any(p.shoots and not view.stealth_holds(p.poses, e) for p in moving)
            )
        }
        scored = [Weighed(end, here, f"end the activation here (position worth {here:.2f})")]
        for action in legal:
            plan: Plan | None = None
            if isinstance(action, A.Shoot):
                shots = 1.0 + (view.w.second_shot if left >= 2 else 0.0)
                plan = Plan(here, action, me, True, ignore_now, flight.ready_target, shots)
                what = "shoot"
            elif isinstance(action, A.Rotate) and left >= 2:
                plan = Plan(here, action, me, True, True)
                what = "rotate, then shoot free of arcs"
            elif isinstance(action, A.Ready) and left >= 2:
                plan = Plan(here, action, me, True, False, action.target_unit)
                what = f"lock on to {action.target_unit}, then shoot"
            elif isinstance(action, A.LaunchTorpedo):
                scored.extend(self.launch(view, flight, action, me, enemies, here, left))
                continue
            if plan is None:
                continue
            target = view.crafts.get(action.target) if isinstance(action, A.Shoot) else None
            if target is not None:
                shot = view.shot_value(
                    side,
                    kind,
                    me,
                    target,
                    view.fire_zone(target, flight.id),
                    ignore_arcs=ignore_now,
                    locked=flight.ready_target,
                    reaction=False,
                )
                best = shot if shot is not None else 0.0
            else:
                best, target = self.best_shot(view, side, kind, plan, enemies)
            if best <= 0 or target is None:
                continue
            far = target.id in closable and view.stealth_holds(me, target)
            worth = best * (view.w.stealth_far_shot if far else 1.0)
            risk = self.reaction_risk(view, flight, plan, target, enemies, best)
            value = here + worth * plan.shots - view.w.react_risk * risk
            reason = f"{what} at {target.id} ({target.kind.name}): {best:.2f} points expected"
            if plan.shots > 1:
                reason += ", and again"
            scored.append(Weighed(action, value, reason + notes(far, risk)))

        if manoeuvring:
            # Stage 1: cheap shot estimates; stage 2: exact shots and reactions for the best.
            for plan in moving:
                if plan.shoots:
                    plan.quick = view.quick_shot(kind, plan.poses, enemies, locked=plan.locked)
            moving.sort(key=lambda p: -(p.value + p.quick))
            shortlist = int(view.w.shortlist)
            # The best moves again with the wings spread; each move keeps its better form.
            for i, plan in enumerate(moving[:shortlist]):
                spread = self.spread_plan(view, flight, me, outlook, plan, left)
                if spread is None:
                    continue
                if spread.shoots:
                    spread.quick = view.quick_shot(kind, spread.poses, enemies, locked=plan.locked)
                if spread.value + spread.quick > plan.value + plan.quick + EPS:
                    moving[i] = spread
            for plan in moving[:shortlist]:
                value = plan.value
                best, target = 0.0, None
                far = False
                if plan.shoots:
                    best, target = self.best_shot(view, side, kind, plan, enemies)
                    # Another manoeuvre could close on a stealthy target instead.
                    far = (
                        target is not None
                        and target.id in closable
                        and view.stealth_holds(plan.poses, target)
                    )
                    value += best * (view.w.stealth_far_shot if far else 1.0)
                risk = self.reaction_risk(view, flight, plan, target, enemies, best)
                value -= view.w.react_risk * risk
                action = A.Manoeuvre(
                    unit=flight.id,
                    moves=tuple(
                        A.Move(c.id, round(dx, 4), round(dy, 4))
                        for c, (dx, dy) in zip(me, plan.action, strict=True)
                    ),
                )
                scored.append(
                    Weighed(action, value, manoeuvre_reason(plan, target, best, far, risk))
                )

        out = ranked(scored, rng)
        choice = out[0].action
        if isinstance(choice, A.Manoeuvre) and choice not in legal and not accepted(seat, choice):
            fallback = [
                c for c in scored if not isinstance(c.action, A.Manoeuvre) or c.action in legal
            ]
            out = ranked(fallback, rng)
            choice = out[0].action
        if isinstance(choice, A.Manoeuvre):
            key = (seat.key, activation_key(state, flight), len(flight.actions))
            if any(k[:2] != key[:2] for k in self._pending):
                self._pending = {}  # a new activation: forget the last one's
            self._pending[key] = choice
        return out

    def launch(
        self,
        view: View,
        flight: Flight,
        action: A.LaunchTorpedo,
        me: list[Craft],
        enemies: list[Craft],
        here: float,
        left: int,
    ) -> list[Weighed]:
        """Score a torpedo launch (EVO-TOR-1): its expected kills, then a Shoot with the
        guns if an action is left, less the reactions and a little for spending a
        limited torpedo."""
        state = view.state
        kind = state.types[flight.type]
        target = view.crafts.get(action.target)
        if target is None:
            return []
        shot = view.shot_value(
            flight.side,
            kind,
            me,
            target,
            view.fire_zone(target, flight.id),
            ignore_arcs=False,
            locked=flight.ready_target,
            reaction=False,
            torpedo=True,
        )
        if shot is None or shot <= 0:
            return []
        plan = Plan(here, action, me, True, False, flight.ready_target)
        value = here + shot * (1.0 - view.w.torpedo_keep)
        if left >= 2:
            guns, _ = self.best_shot(view, flight.side, kind, plan, enemies)
            value += view.w.second_shot * guns
        risk = self.reaction_risk(view, flight, plan, target, enemies, shot)
        value -= view.w.react_risk * risk
        reason = (
            f"launch torpedoes at {target.id} ({target.kind.name}): "
            f"{shot:.2f} points expected" + notes(False, risk)
        )
        return [Weighed(action, value, reason)]

    def best_shot(
        self,
        view: View,
        side: str,
        kind: UnitType,
        plan: Plan,
        enemies: Sequence[Craft],
    ) -> tuple[float, Craft | None]:
        """The best Shoot's exact value from the plan's poses, and its target."""
        best, target = 0.0, None
        # An enemy out of every weapon's range has no Shoot (shot_value None).
        for t in view.within(enemies, plan.poses, view.arm_reach(kind)):
            value = view.shot_value(
                side,
                kind,
                plan.poses,
                t,
                view.fire_zone(t, plan.poses[0].unit),
                ignore_arcs=plan.ignore_arcs,
                locked=plan.locked,
                reaction=False,
            )
            if value is not None and value > best:
                best, target = value, t
        return best, target

    def reaction_risk(
        self,
        view: View,
        flight: Flight,
        plan: Plan,
        target: Craft | None,
        enemies: Sequence[Craft],
        shot: float = 0.0,
    ) -> float:
        """What the enemy's reactions to this plan are expected to destroy (EVO-REA-1).

        Flights within close range of where the flight ends, and flights in the fire
        zone of its Shoot, may each react once with their printed arcs. One that is
        only triggered by the Shoot reacts after it, with what `shot` (the Shoot's
        expected worth destroyed) leaves of it.
        """
        if isinstance(plan.action, A.EndActivation):
            return 0.0
        state = view.state
        rules = view.rules
        poses = plan.poses
        close = view.close
        shot_at: set[str] = set()
        if target is not None:
            shot_at = {
                c.unit
                for c in enemies
                if rules.in_zone(math.hypot(c.x - target.x, c.y - target.y), view.reach)
            }
        others = [c for c in view.crafts.values() if c.unit != flight.id]
        world = [*poses, *others]
        by_unit: dict[str, list[Craft]] = {}
        for c in enemies:
            by_unit.setdefault(c.unit, []).append(c)
        # Does the flight's first action already come within close range (react now)?
        first_near = not isinstance(plan.action, A.Shoot)
        risk = 0.0
        for unit, crafts in by_unit.items():
            enemy = state.flights[unit]
            if enemy.reacted:
                continue
            near = any(
                rules.within_close(math.hypot(c.x - p.x, c.y - p.y), close)
                for c in crafts
                for p in poses
            )
            if unit not in shot_at and not near:
                continue
            left = 1.0
            if target is not None and unit == target.unit and not (near and first_near):
                left = max(0.0, 1.0 - shot / sum(c.worth for c in crafts))
            ekind = state.types[enemy.type]
            best = 0.0
            for p in poses:
                # EVO-REA-2: a reaction fires only at models in close range of it.
                if view.reaction_close and not any(
                    rules.within_close(math.hypot(c.x - p.x, c.y - p.y), close) for c in crafts
                ):
                    continue
                value = view.shot_value(
                    enemy.side,
                    ekind,
                    crafts,
                    p,
                    view.zone(p, unit, world),
                    ignore_arcs=False,
                    locked="",
                    reaction=True,
                )
                if value is not None:
                    best = max(best, value)
            risk += best * left
        return risk

    def manoeuvres(
        self,
        view: View,
        flight: Flight,
        me: list[Craft],
        enemies: list[Craft],
        outlook: Outlook,
        left: int,
    ) -> list[Plan]:
        """Manoeuvre plans: one move then a Shoot, or two moves (the first half now)."""
        state = view.state
        kind = state.types[flight.type]
        agility = view.rules.movement_budget(kind.agility)
        if agility <= 0:
            return []
        starts: list[tuple[float, float]] = []
        for c in me:
            start = state.models[c.id].start
            if start is None:
                rad = math.radians(c.h)
                starts.append((c.x - view.drift * math.cos(rad), c.y - view.drift * math.sin(rad)))
            else:
                starts.append((start.x, start.y))
        lead, (sx, sy) = me[0], starts[0]
        moves: set[tuple[float, float, int]] = set()  # (dx, dy, actions used)
        leaders = list({c.unit: c for c in reversed(enemies)}.values())
        # Two half-length moves ending where one full move would are never better
        # than that move and a Shoot, so two-move plans go the whole way.
        budgets: list[tuple[float, int, tuple[float, ...]]] = [(agility, 1, (1.0, 0.5))]
        if left >= 2:
            budgets.append((2 * agility, 2, (1.0,)))
        for budget, used, fractions in budgets:
            for k in range(int(view.w.directions)):
                ang = math.radians(lead.h + 360.0 * k / int(view.w.directions))
                for frac in fractions:
                    moves.add(
                        (
                            round(budget * frac * math.cos(ang), 4),
                            round(budget * frac * math.sin(ang), 4),
                            used,
                        )
                    )
            for e in leaders:
                for px, py in self.aims(view, lead, sx, sy, e, used):
                    dx, dy = px - lead.x, py - lead.y
                    dist = math.hypot(dx, dy)
                    if dist > budget:
                        dx, dy = dx * budget / dist, dy * budget / dist
                    moves.add((round(dx, 4), round(dy, 4), used))
        earlier = self._pending.get(
            (view.game, activation_key(state, flight), len(flight.actions) - 1)
        )
        if earlier is not None and earlier.moves:
            # The second half of a two-manoeuvre plan is the same move again.
            first = earlier.moves[0]
            moves.add((first.dx, first.dy, 1))
        plans: list[Plan] = []
        for dx, dy, used in moves:
            if math.hypot(dx, dy) < 0.05:
                continue
            if not view.on_table(lead.x + dx, lead.y + dy, TABLE_MARGIN):
                continue
            each = [(dx, dy)] * len(me)
            plan = self.moved_plan(view, flight, me, starts, outlook, each, used, left)
            if plan is not None:
                plans.append(plan)
        return plans

    def moved_plan(
        self,
        view: View,
        flight: Flight,
        me: list[Craft],
        starts: list[tuple[float, float]],
        outlook: Outlook,
        each: list[tuple[float, float]],
        used: int,
        left: int,
    ) -> Plan | None:
        """The plan of one per-model move (the whole of one or two Manoeuvres), or None
        if it would take the leader off the table."""
        dx, dy = each[0]
        poses: list[Craft] = []
        each = list(each)
        for i, (c, (mx, my)) in enumerate(zip(me, starts, strict=True)):
            ex, ey = each[i]
            x, y = c.x + ex, c.y + ey
            if not view.on_table(x, y, TABLE_MARGIN):
                ex, ey = each[i] = (dx, dy)  # no room to spread: fly as the leader
                x, y = c.x + ex, c.y + ey
                if not view.on_table(x, y, TABLE_MARGIN):
                    return None
            h = view.rules.new_heading(Vec2(mx, my), Vec2(x, y), c.h, view.min_move)
            poses.append(c.moved(x, y, h))
        value = outlook.score(poses)
        step = 0.5 if used == 2 else 1.0
        shoots = used == 1 and left >= 2
        move = tuple((ex * step, ey * step) for ex, ey in each)
        return Plan(
            value,
            move,
            poses,
            shoots=shoots,
            locked=flight.ready_target,
            used=used,
            starts=starts,
        )

    def spread_plan(
        self, view: View, flight: Flight, me: list[Craft], outlook: Outlook, plan: Plan, left: int
    ) -> Plan | None:
        """The plan's move with the wings staggered along the course (formation.py), or
        None if the flight cannot spread (EVO-MOV-2: each model its own way)."""
        gap = view.w.spread_gap
        if gap <= 0 or len(me) < 2 or plan.starts is None or not plan.used:
            return None
        agility = view.rules.movement_budget(me[0].kind.agility)
        step = 0.5 if plan.used == 2 else 1.0
        dx, dy = plan.action[0]
        # Wings end inside command range of the leader, with room for rounding.
        keep = float(view.state.options.get("command_range", 6.0)) - 0.25
        staggered = spread_moves(
            plan.starts,
            [(c.x, c.y) for c in me],
            (dx / step, dy / step),
            gap,
            agility * plan.used,
            keep,
            view.min_move + 0.5,
        )
        if staggered is None:
            return None
        return self.moved_plan(view, flight, me, plan.starts, outlook, staggered, plan.used, left)

    def aims(
        self, view: View, lead: Craft, sx: float, sy: float, enemy: Craft, used: int
    ) -> list[tuple[float, float]]:
        """Points that turn the flight's course towards an enemy (now, or after its
        drift when setting up next turn), and a point on its six."""
        points: list[tuple[float, float]] = []
        if used == 1:
            tx, ty = enemy.x, enemy.y
        else:
            tx, ty = view.drifted(enemy)
        # On the line from my start point to the target, my course points at it.
        lx, ly = tx - sx, ty - sy
        norm = lx * lx + ly * ly
        if norm > 1e-6:
            t = ((lead.x - sx) * lx + (lead.y - sy) * ly) / norm
            points.append((sx + lx * t, sy + ly * t))
            reach = view.rules.movement_budget(lead.kind.agility) * used
            # The farthest point along that line within reach.
            px, py = sx + lx * t, sy + ly * t
            off = math.hypot(px - lead.x, py - lead.y)
            if off < reach:
                along = math.sqrt(reach * reach - off * off) / math.sqrt(norm)
                points.append((px + lx * along, py + ly * along))
        rad = math.radians(enemy.h)
        for back in (5.0, 8.0):
            points.append((tx - back * math.cos(rad), ty - back * math.sin(rad)))
        return points


ALLOCATE_REASON = "each die left over, highest first, on the model it is likeliest to remove"


def ranked(cands: list[Weighed], rng: random.Random) -> list[Weighed]:
    """The candidates best first: the first is `pick`'s choice (equal best broken with
    `rng`, as `decide` always has), the rest by score."""
    chosen = pick([(c.score, c) for c in cands], rng)
    return [chosen, *sorted((c for c in cands if c is not chosen), key=lambda c: -c.score)]


def notes(far: bool, risk: float) -> str:
    """The clauses a shot's reason ends with: a long shot at stealth, the reactions."""
    out = ""
    if far:
        out += '; held back: beyond 10" its stealth holds'
    if risk > 0:
        out += f"; reactions cost {risk:.2f}"
    return out


def manoeuvre_reason(plan: Plan, target: Craft | None, best: float, far: bool, risk: float) -> str:
    """A manoeuvre plan in a player's words."""
    moves = {(round(dx, 1), round(dy, 1)) for dx, dy in plan.action}
    dx, dy = plan.action[0]
    text = f'manoeuvre {math.hypot(dx, dy):.1f}"'
    if len(moves) > 1:
        text += ", spreading the flight against fire zones"
    if plan.shoots and target is not None:
        text += f", then shoot at {target.id} ({target.kind.name}): {best:.2f} points expected"
    elif plan.shoots:
        text += ", then shoot if anything bears"
    else:
        text += " twice, setting up next turn"
    return text + f" (position worth {plan.value:.2f})" + notes(far, risk)


def activation_key(state: EvoState, flight: Flight) -> tuple[Any, ...]:
    """What tells one activation from every other: the flight, the turn and the start
    points its models drifted from."""
    starts = []
    for mid in flight.acting:
        start = state.models[mid].start if mid in state.models else None
        starts.append((mid, start.x, start.y) if start is not None else (mid,))
    return (flight.id, state.turn, tuple(starts))


def ruleset_of(seat: Seat) -> EvoRuleset:
    """The seat's ruleset, as the evo ruleset (or a subclass of it) this player plays."""
    return cast("EvoRuleset", seat.ruleset)


def accepted(seat: Seat, action: Any) -> bool:
    """Whether the rules accept a custom action now, asked of the ruleset on the state
    this side knows (never the game)."""
    try:
        seat.ruleset.check(seat.state(), action)
    except IllegalAction:
        return False
    return True


__all__ = ["EvoHeuristic", "die_kill"]
