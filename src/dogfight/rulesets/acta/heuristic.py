"""A heuristic player for the `acta` ruleset.

It never searches: every legal action is scored with cheap estimates, exact where
that is easy, and the best one is taken. Worth is counted in Damage points, as the
turn-limit score counts it, plus a bonus for removing a unit (more for a fighter
whose guns are dangerous).

- Dogfights: the chance that d6 + a beats d6 + b is exact (`duel`). As nominator a
  fighter attacks when the expected exchange (enemy worth won less own worth lost,
  supporters and defending supporters counted) favours it, and supports otherwise;
  as defender it adds supporters where they swing the enemy's dogfights.
- Fighter moves: each offered spot is scored by the dogfights its base contacts
  offer both ways (friends still to move may join, enemies too), the fire it gives
  and takes this turn (who shoots first, who is locked, who can still dodge), the
  reach of enemy fighters still to move, enemy ships' guns, next turn's prospects
  and a carrier's escort.
- Fire: the expected worth of each shot from the real to-hit numbers, Dodge and
  shields; a fighter takes the target worth most to all its weapons.
- Ships: every offered move is scored at its end pose by the enemy worth it puts in
  its weapons' arcs and range, less the enemy ships' fire it walks into. Special
  Actions only when they clearly pay; carriers launch every turn they can and take
  damaged fighters home.
- Mood: it risks its fighters only for a clear edge, more so when ahead on the
  turn-limit score; in the last turns, not ahead, it gambles. Fighters already
  locked nominate on the plain odds.

Ties are broken with the player's own `rng` only, so play is deterministic.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from dogfight.core.choose import PositionMemo, pick
from dogfight.core.context import NoDice
from dogfight.core.events import EventLog
from dogfight.core.play import Weighed
from dogfight.core.seat import Seat
from dogfight.dice import Dice
from dogfight.geometry import EPSILON, Pose, Vec2
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.combat import (
    BLAST_DOORS,
    EVASIVE,
    INTENSIFY,
    ToHit,
    can_dodge,
    fighter_defence_dice,
    to_hit,
    weapon_arc,
)
from dogfight.rulesets.acta.context import BASE_RULES, Ctx
from dogfight.rulesets.acta.deployment import zone_centre
from dogfight.rulesets.acta.dogfight import dogfight_bonus
from dogfight.rulesets.acta.heuristic_reasons import reason
from dogfight.rulesets.acta.movement import fighter_budget, ship_max_speed, ship_path
from dogfight.rulesets.acta.odds import dogfight_chances
from dogfight.rulesets.acta.personas import DEFAULT, Weights, persona
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.sequence import scores
from dogfight.rulesets.acta.state import ActaState, UnitState
from dogfight.rulesets.acta.targets import weapons_of
from dogfight.rulesets.acta.units import Weapon

if TYPE_CHECKING:
    from dogfight.rulesets.acta.ruleset import ActaRuleset

# ---- weights (worth is counted in Damage points, as the turn-limit score counts it) ----

KILL_BONUS = 0.5
"""Worth of removing a unit on top of its Damage points: it stops fighting."""
DANGER_WEIGHT = 0.5
"""Extra worth of killing a fighter per hit it lands on a fighter at point-blank range."""
SHIELD_WORTH = 0.35
"""Worth of a point of shields knocked down, against 1 for a point of Damage."""
CONTACT_RISK = 0.6
"""Chance the enemy takes up a dogfight offered to it by base contact."""
LURK_CONTACT = 0.5
"""Chance an enemy fighter still to move comes into base contact when it can."""
LOCKED_WEIGHT = 0.35
"""Chance an enemy fighter locked in a dogfight gets free to shoot this turn."""
MOVING_TARGET = 0.35
"""Chance a target that still moves stays in range of a fighter's guns."""
JOIN_WEIGHT = 0.6
"""Chance a friendly fighter still to move joins a dogfight it can reach."""
FOE_JOIN_WEIGHT = 0.25
"""Chance an enemy fighter still to move comes to support a friend in a dogfight."""
PROSPECT_WEIGHT = 0.2
"""Weight of next turn's dogfight and fire prospects against a nearby enemy fighter."""
SHY_WEIGHT = 0.3
"""Share of a bad matchup counted in those prospects (fleeing wins no battles)."""
COHESION = 0.05
"""Worth of each friendly fighter close by (support and focused fire next turn)."""
SHIP_GUNS_RISK = 0.35
"""Share of the enemy ships' guns in range that a fighter expects to draw."""
FIGHTER_EXPOSURE = 0.5
"""Weight of the fire of the enemy fighters that can reach a ship's end pose (they move
after ships, so a ship that ends in their reach is attacked by as many as want to)."""
TEMPO = 0.05
"""Small worth of settling a dogfight now rather than staying locked."""
ESCORTS_WANTED = 4
"""Most fighters kept on a carrier's base (ACTA-SUP-1 allows four): one for every two
enemy fighters within two turns' reach of it (`escort_needs`)."""
INTERCEPT_RESERVE = 0.6
"""Worth of an escort left off defensive fire, free to intercept, for each enemy fighter
that may attack its ship this turn."""
ESCORT_SHARE = 0.75
"""Share of the worth enemy fighters near a carrier could fire at it that its escorts
save, split between the escorts it wants."""
WINGMAN = 0.3
"""Worth lost per inch a ship without fighter bays ends beyond 8" of its carrier (or,
with no carrier, 12" of its nearest friendly ship): a lone ship is every gun's target."""
EDGE_ROOM = 6.0
"""Inches from the table edge under which a ship loses worth (it cannot turn to fight)."""
AHEAD_GREED, AHEAD_CAUTION, AHEAD_CAUTION_PER_LEAD = 0.8, 1.0, 2.0
EVEN_GREED, EVEN_CAUTION = 0.8, 2.0
BEHIND_GREED, BEHIND_CAUTION = 0.8, 2.0
LATE_GREED, LATE_CAUTION, LATE_TURNS = 1.4, 0.6, 2
"""Mood on the turn-limit score (`mood`): guard a lead, chase a deficit, gamble late."""
NOMINATE_GREED, NOMINATE_CAUTION = 1.0, 1.0
"""Mood limits when nominating dogfights for fighters already locked."""
PLAN_EXHAUSTIVE = 512
OVERKILL = 0.45
"""How much a fighter shot is worth per shot already named at the same fighter, per
point of Damage it has left (a rough chance that the target is still there)."""
UNPLAYABLE = 100.0
"""The penalty per supporter of a dogfight plan that has no dogfight to support."""
"""Try every role assignment of a dogfight step when there are at most this many."""
NEVER = -1e6
"""The score of a move that is never wanted while anything else is legal."""
BOOST = "Boost Energy to Shields"


# ---- exact dice --------------------------------------------------------------------


@cache
def duel(
    diff: int, reroll_ties: bool = False, rules: ActaRules = BASE_RULES
) -> tuple[float, float]:
    """(win, lose) chances of d6 + diff against d6 (`odds.dogfight_chances`); ties are
    neither unless re-rolled."""
    win, lose, tie = dogfight_chances(diff, 0, rules=rules)
    if reroll_ties:
        return float(win / (1 - tie)), float(lose / (1 - tie))
    return float(win), float(lose)


def die_chance(rule: ToHit) -> float:
    """The chance one attack die hits under `rule` (1 always misses, 6 always hits)."""
    if rule.automatic:
        return 1.0
    return _die_chance(rule.need, rule.modifier)


@cache
def _die_chance(need: int, modifier: int) -> float:
    rule = ToHit(need=need, modifier=modifier, automatic=False)
    return sum(1 for face in range(1, 7) if rule.hits(face)) / 6


@cache
def at_least(n: int, p: float, k: int) -> float:
    """P(at least k successes in n tries of chance p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def expected_capped(n: int, p: float, cap: int) -> float:
    """E[min(hits, cap)] for n tries of chance p."""
    return sum(at_least(n, p, k) for k in range(1, cap + 1))


@cache
def hits_summary(dice: tuple[tuple[int, float], ...], need: int) -> tuple[float, float]:
    """(P(hits >= need), E[min(hits, need)]) for groups of (dice, chance) rolled together."""
    dist = [1.0]
    for n, p in dice:
        for _ in range(n):
            nxt = [0.0] * (len(dist) + 1)
            for i, q in enumerate(dist):
                nxt[i] += q * (1 - p)
                nxt[i + 1] += q * p
            dist = nxt
    kill = sum(dist[need:])
    capped = sum(min(i, need) * q for i, q in enumerate(dist))
    return kill, capped


def fighter_danger(ctx: Ctx, fighter: UnitState) -> float:
    """Hits the fighter's weapons land on a typical fighter at point-blank range: the
    to-hit roll of the rules (`ActaRules.to_hit_modifier`, ACTA-ATK-2, 4+ within half
    range), about two in three not dodged unless Fighter-Killer."""
    total = 0.0
    for weapon in weapons_of(ctx.state, fighter):
        killer = weapon.has("Fighter-Killer")
        mod = ctx.rules.to_hit_modifier(weapon, True, ctx.options)
        p = die_chance(ToHit(need=4, modifier=mod, automatic=False))
        total += weapon.ad * p * (1.0 if killer else 2 / 3)
    return total


def mood(state: ActaState, me: str) -> tuple[float, float]:
    """(greed, caution) from the turn-limit score: guard a lead, chase a deficit.

    Level, it plays safe: against a weaker player, avoiding coin-flips wins more
    battles than trading evenly; only near the turn limit does it chase a result.
    """
    if state.phase == "setup" or state.turn_limit <= 0:
        return 1.0, 1.0
    shares = scores(state)
    lead = shares.get(me, 0.0) - shares.get(state.other(me), 0.0)
    left = max(0, state.turn_limit - state.turn)
    if lead > 0.05:
        caution = AHEAD_CAUTION + AHEAD_CAUTION_PER_LEAD * min(0.6, lead)
        return AHEAD_GREED, caution + (0.3 if left <= 1 else 0.0)
    if left <= LATE_TURNS:
        return LATE_GREED, LATE_CAUTION
    if lead >= -0.05:
        return EVEN_GREED, EVEN_CAUTION
    return BEHIND_GREED, BEHIND_CAUTION


# ---- the view of one decision ------------------------------------------------------


@dataclass(slots=True)
class View:
    """What one decision needs: the state, its side, and cached per-unit facts."""

    state: ActaState
    ctx: Ctx
    me: str
    foe: str
    my_fighters: list[UnitState] = field(default_factory=list)
    foe_fighters: list[UnitState] = field(default_factory=list)
    my_ships: list[UnitState] = field(default_factory=list)
    foe_ships: list[UnitState] = field(default_factory=list)
    greed: float = 1.0
    """Weight of enemy worth won: above 1 when behind on the turn-limit score."""
    caution: float = 1.0
    """Weight of own worth risked: above 1 when ahead, below when time runs out."""
    memo: dict[Any, Any] = field(default_factory=dict)
    """Answers already worked out for this decision."""
    radii: dict[str, float] = field(default_factory=dict)
    """Unit type id -> base radius (looked up in the hot geometry helpers)."""
    edges: dict[str, float] = field(default_factory=dict)
    """Unit type id -> what ranges leave off its centre distance: a fighter's base
    radius, 0 for a ship (ranges are measured from a fighter's base edge, ACTA-GEN-2)."""
    fighter_types: dict[str, bool] = field(default_factory=dict)
    """Unit type id -> True for fighters."""
    weights: Weights = DEFAULT
    """The persona's weights (`personas.Weights`)."""
    lasting: dict[Any, Any] = field(default_factory=dict)
    """Answers that hold for the whole game, shared by its decisions: each is keyed by
    every unit field it reads (the options and unit types never change in a game)."""

    @classmethod
    def of(
        cls, seat: Seat, lasting: dict[Any, Any] | None = None, weights: Weights = DEFAULT
    ) -> View:
        """The view of the seat's decision: acta hides nothing, so the state the seat
        may know is the state; `lasting` is kept between one game's decisions, and
        `weights` are the persona's."""
        state = cast(ActaState, seat.state())
        rules = cast("ActaRuleset", seat.ruleset).rules
        ctx = Ctx(state, seat.options, EventLog(cast(Dice, NoDice())), rules)
        me = state.active
        view = cls(state=state, ctx=ctx, me=me, foe=state.other(me), weights=weights)
        if lasting is not None:
            view.lasting = lasting
        tables = view.lasting.get("type tables")
        if tables is None:
            radii = {tid: t.base_radius for tid, t in state.types.items()}
            fighters = {tid: t.is_fighter for tid, t in state.types.items()}
            edges = {tid: radii[tid] if fighters[tid] else 0.0 for tid in state.types}
            tables = view.lasting["type tables"] = (radii, fighters, edges)
        view.radii, view.fighter_types, view.edges = tables
        for unit in state.units.values():
            fighter = state.types[unit.type].is_fighter
            mine = unit.side == me
            if fighter:
                (view.my_fighters if mine else view.foe_fighters).append(unit)
            else:
                (view.my_ships if mine else view.foe_ships).append(unit)
        greed, caution = mood(state, me)
        view.greed, view.caution = greed * weights.greed, caution * weights.caution
        return view

    def opt(self, name: str) -> Any:
        return self.ctx.options.get(name)

    # -- worth and dogfights --

    def worth(self, unit: UnitState) -> float:
        """What destroying the unit is worth: its Damage, fighters aboard, and a bonus."""
        return max(0, unit.damage) + sum(unit.aboard_damage) + self.kill_bonus(unit)

    def kill_bonus(self, unit: UnitState) -> float:
        """Worth of removing a unit beyond its Damage: more for a dangerous fighter."""
        if not self.is_fighter(unit):
            return KILL_BONUS
        key = ("danger", unit.type, unit.dogfight_drones)
        danger = self.lasting.get(key)
        if danger is None:
            danger = self.lasting[key] = fighter_danger(self.ctx, unit)
        return KILL_BONUS + DANGER_WEIGHT * float(danger)

    def dogfight_loss(self, unit: UnitState) -> float:
        """What losing a dogfight costs this fighter."""
        if self.opt("dogfight_loser") == "damage" and unit.damage > 1:
            return 1.0
        return self.worth(unit)

    def df(self, fighter: UnitState) -> int:
        """What the fighter adds to its d6 before supporters (`ActaRules.dogfight_bonus`)."""
        return dogfight_bonus(self.state, fighter, 0, self.ctx.rules)

    def odds(
        self, attacker: UnitState, enemy: UnitState, plus: float, minus: float
    ) -> tuple[float, float]:
        """(win, lose) for `attacker` against `enemy` with `plus` and `minus` support.

        Fractional support (an expected number of supporters) interpolates.
        """
        diff = self.df(attacker) + plus - self.df(enemy) - minus
        reroll = self.opt("dogfight_tie") == "reroll"
        low = math.floor(diff)
        frac = diff - low
        rules = self.ctx.rules
        win, lose = duel(max(-7, min(7, low)), reroll, rules)
        if frac > 1e-9:
            win2, lose2 = duel(max(-7, min(7, low + 1)), reroll, rules)
            win += frac * (win2 - win)
            lose += frac * (lose2 - lose)
        return win, lose

    def exchange(self, attacker: UnitState, enemy: UnitState, plus: float, minus: float) -> float:
        """Expected worth won less worth lost if `attacker` dogfights `enemy`.

        Kept for the whole game: it is asked thousands of times a battle and reads only
        the mood and the fields in `dogfight_key`."""
        key = (
            "exchange",
            self.greed,
            self.caution,
            dogfight_key(attacker),
            dogfight_key(enemy),
            plus,
            minus,
        )
        known = self.lasting.get(key)
        if known is None:
            known = self.lasting[key] = self._exchange(attacker, enemy, plus, minus)
        return float(known)

    def _exchange(self, attacker: UnitState, enemy: UnitState, plus: float, minus: float) -> float:
        win, lose = self.odds(attacker, enemy, plus, minus)
        return self.greed * win * self.dogfight_loss(
            enemy
        ) - self.caution * lose * self.dogfight_loss(attacker)

    # -- geometry --

    def radius(self, unit: UnitState) -> float:
        return self.radii[unit.type]

    def is_fighter(self, unit: UnitState) -> bool:
        return self.fighter_types[unit.type]

    # gap and touches run hundreds of times per decision: Vec2.distance is inlined
    # (the same sum, so the same float) and the radii come from the view's tables.

    def gap(self, a: UnitState, at: Vec2, b: UnitState, bt: Vec2 | None = None) -> float:
        """Range from `a` (standing at `at`) to `b`, measured as ACTA-GEN-2 says."""
        to = bt if bt is not None else b.pose.position
        centres = math.hypot(at.x - to.x, at.y - to.y)
        return self.ctx.rules.range_between(centres, self.edges[a.type], self.edges[b.type])

    def touches(self, a: UnitState, at: Vec2, b: UnitState) -> bool:
        radii = self.radii
        limit = radii[a.type] + radii[b.type] + EPSILON
        to = b.pose.position
        return math.hypot(at.x - to.x, at.y - to.y) <= limit

    # -- fire --

    def shot_value(
        self,
        firer: UnitState,
        weapon: Weapon,
        target: UnitState,
        dist: float,
        *,
        dodge: bool | None = None,
    ) -> float:
        """Expected worth of one weapon's attack on a target at a range.

        `dodge` says whether a fighter target may dodge (None: as the rules say now).
        """
        if dodge is None:
            dodge = can_dodge(self.ctx, target)
        key = ("shot", firer.id, weapon.name, target.id, round(dist, 3), dodge)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._lasting_shot_value(firer, weapon, target, dist, dodge)
        return float(known)

    def _lasting_shot_value(
        self, firer: UnitState, weapon: Weapon, target: UnitState, dist: float, dodge: bool
    ) -> float:
        """`_shot_value`, kept for the whole game: it reads only the fields in the key
        (through `to_hit`, Dodge, `kill_bonus` and `worth`, shields and Special Actions);
        the range is exact, not rounded, so a kept answer is the one a fresh call gives."""
        key = (
            "shot",
            firer.type,
            firer.special,
            firer.criticals.get("weapons", 0),
            weapon.name,
            target.type,
            target.dogfight_drones,
            target.damage,
            target.shields,
            target.aboard_damage,
            target.special,
            target.lost_traits,
            dist,
            dodge,
        )
        known = self.lasting.get(key)
        if known is None:
            known = self.lasting[key] = self._shot_value(firer, weapon, target, dist, dodge)
        return float(known)

    def _shot_value(
        self, firer: UnitState, weapon: Weapon, target: UnitState, dist: float, dodge: bool
    ) -> float:
        rule = to_hit(self.ctx, firer, weapon, target, dist)
        p = die_chance(rule)
        ad = weapon.ad
        if not self.is_fighter(firer) and firer.special == INTENSIFY:
            ad = self.ctx.rules.intensified_ad(ad)
        if self.is_fighter(target):
            dodge_at = self.state.unit_type(target).trait("Dodge")
            if (
                dodge
                and dodge_at is not None
                and "Dodge" not in target.lost_traits
                and not weapon.has("Fighter-Killer")
            ):
                p *= 1 - self.dodge_chance(dodge_at)
            left = max(1, target.damage)
            return expected_capped(ad, p, left) + at_least(ad, p, left) * self.kill_bonus(target)
        return self._ship_damage_value(weapon, target, ad, p, rule.automatic)

    def dodge_chance(self, dodge: int) -> float:
        """The chance one hit is dodged on `dodge`+ (`ActaRules.dodge_chance`)."""
        return float(self.ctx.rules.dodge_chance(dodge))

    def hull_damage_per_point(self, precise: int) -> float:
        """Expected damage of one hull die (`ActaRules.hull_die`)."""
        rules = self.ctx.rules
        return sum(rules.hull_die(face, precise)[0] for face in range(1, 7)) / 6

    def _ship_damage_value(
        self, weapon: Weapon, ship: UnitState, ad: int, p: float, automatic: bool
    ) -> float:
        per_hit = weapon.trait("Multihit") or 1
        hits = ad * p
        six_share = 0.0 if automatic or p <= 0 else min(1.0, (1 / 6) / p)
        raw = hits * per_hit
        bypass = raw * six_share
        rest = raw - bypass
        shields = max(0, ship.shields)
        to_shields = min(rest, shields)
        hull = bypass + rest - to_shields
        per_point = self.hull_damage_per_point(1 if weapon.has("Precise") else 0)
        if ship.special == BLAST_DOORS:
            per_point *= float(1 - self.ctx.rules.face_chance(self.ctx.rules.blast_doors_save))
        value = hull * per_point + to_shields * SHIELD_WORTH
        if hull * per_point >= ship.damage:
            value += self.worth(ship) - ship.damage
        return value

    def volley(
        self, firer: UnitState, at: Vec2, target: UnitState, target_at: Vec2, dodge: bool
    ) -> tuple[float, float]:
        """(kill chance, expected worth) of all the unit's weapons fired at one target.

        Fighters' weapons are all turreted in practice, so arcs are not checked here.
        """
        return self.volley_at(firer, target, self.gap(firer, at, target, target_at), dodge)

    def volley_at(
        self, firer: UnitState, target: UnitState, dist: float, dodge: bool
    ) -> tuple[float, float]:
        """`volley` at a range already measured."""
        key = ("volley", firer.id, target.id, round(dist, 3), dodge)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._lasting_volley(firer, target, dist, dodge)
        return cast(tuple[float, float], known)

    def _lasting_volley(
        self, firer: UnitState, target: UnitState, dist: float, dodge: bool
    ) -> tuple[float, float]:
        """`_volley`, kept for the whole game when the target is a fighter.

        Against a fighter the answer reads only the fields in the key below (through
        `weapons_of`, `to_hit`, Dodge and `kill_bonus`); the range is exact, not rounded,
        so a kept answer is the one a fresh call would give.
        """
        if not self.is_fighter(target):
            return self._volley(firer, target, dist, dodge)
        key = (
            "volley",
            firer.type,
            firer.dogfight_drones,
            firer.criticals.get("weapons", 0),
            target.type,
            target.dogfight_drones,
            target.damage,
            target.special,
            target.lost_traits,
            dist,
            dodge,
        )
        known = self.lasting.get(key)
        if known is None:
            known = self.lasting[key] = self._volley(firer, target, dist, dodge)
        return cast(tuple[float, float], known)

    def _volley(
        self, firer: UnitState, target: UnitState, dist: float, dodge: bool
    ) -> tuple[float, float]:
        weapons = [w for w in weapons_of(self.state, firer) if dist <= w.range + EPSILON]
        if not weapons:
            return 0.0, 0.0
        if not self.is_fighter(target):
            value = sum(self.shot_value(firer, w, target, dist) for w in weapons)
            return 0.0, value
        ttype = self.state.unit_type(target)
        dodge_at = ttype.trait("Dodge") if dodge and "Dodge" not in target.lost_traits else None
        dice: list[tuple[int, float]] = []
        for weapon in weapons:
            p = die_chance(to_hit(self.ctx, firer, weapon, target, dist))
            if dodge_at is not None and not weapon.has("Fighter-Killer"):
                p *= 1 - self.dodge_chance(dodge_at)
            dice.append((weapon.ad, round(p, 6)))
        left = max(1, target.damage)
        kill, capped = hits_summary(tuple(dice), left)
        return kill, capped + kill * self.kill_bonus(target)

    def best_attack(self, fighter: UnitState) -> float:
        """The most worth the fighter could shoot off one target from where it is."""
        best = 0.0
        enemies = self.foe_units() if fighter.side == self.me else self.my_units()
        at = fighter.pose.position
        for target in enemies:
            if target.id not in fighter.barred:
                best = max(best, self.volley(fighter, at, target, target.pose.position, True)[1])
        return best

    def engaged(self, fighter: UnitState) -> bool:
        enemies = self.foe_fighters if fighter.side == self.me else self.my_fighters
        pos = fighter.pose.position
        return any(self.touches(fighter, pos, e) for e in enemies)

    def foe_units(self) -> list[UnitState]:
        return self.foe_fighters + self.foe_ships

    def my_units(self) -> list[UnitState]:
        return self.my_fighters + self.my_ships


@dataclass(slots=True)
class Board:
    """Facts shared by every fighter move scored in one decision."""

    my_touching: dict[str, list[UnitState]]
    """Enemy fighter id -> my fighters touching it."""
    foe_touching_mine: dict[str, int]
    """My fighter id -> enemy fighters touching it."""
    foe_moves_later: set[str]
    """Enemy fighters that will still move this turn."""
    foe_locked: set[str]
    """Enemy fighters locked in a dogfight now."""
    reach: dict[str, float]
    """Longest weapon range of each fighter."""
    escorts: dict[str, int]
    """Carrier id -> escorts it still wants."""
    escort_worth: dict[str, float]
    """Carrier id -> worth of one escort on its base (`escort_needs`)."""
    fire_first: bool
    """True if my fighters attack first this turn."""
    my_rows: dict[str, dict[str, tuple[float, float]]]
    """My fighter id -> enemy id -> (kill chance, worth) of its volley from where it is."""
    foe_rows: dict[str, dict[str, tuple[float, float]]]
    """Enemy fighter id -> my fighter id -> (kill chance, worth) of its volley now."""
    lurkers: dict[str, float]
    """My fighter id -> worth enemies still to move could shoot off it where it is."""
    dodges: dict[str, bool] = field(default_factory=dict)
    """Enemy id -> whether it may dodge my fire this turn (see `may_dodge`)."""

    @classmethod
    def of(cls, view: View) -> Board:
        state = view.state
        foe_later = view.foe in state.fighter_sides[1:]
        # Each (mine, enemy) pair in base contact, found once: touching is symmetric
        # (the same sums either way round), so an enemy is locked if it is in a pair.
        pairs = [
            (f, e)
            for f in view.my_fighters
            for e in view.foe_fighters
            if view.touches(f, f.pose.position, e)
        ]
        foe_locked = {e.id for _, e in pairs}
        needs, worths = escort_needs(view)
        foe_moves_later = {
            f.id
            for f in view.foe_fighters
            if foe_later and not f.move_done and f.id not in foe_locked
        }
        reach = {
            f.id: max((w.range for w in weapons_of(state, f)), default=0.0)
            for f in view.my_fighters + view.foe_fighters
        }
        board = cls(
            my_touching={e.id: [f for f, foe in pairs if foe is e] for e in view.foe_fighters},
            foe_touching_mine={
                f.id: sum(1 for mine, _ in pairs if mine is f) for f in view.my_fighters
            },
            foe_moves_later=foe_moves_later,
            foe_locked=foe_locked,
            reach=reach,
            escorts=needs,
            escort_worth=worths,
            fire_first=state.initiative == view.me,
            my_rows={},
            foe_rows={},
            lurkers={},
        )
        for fighter in view.my_fighters:
            at = fighter.pose.position
            dodge = fighter.moved or fighter.carried > 0 or bool(fighter.supporting)
            if board.foe_touching_mine[fighter.id]:
                dodge = True
            # Free to fire unless it has attacked or is locked (Board.can_fire).
            silent = fighter.attack_done or board.foe_touching_mine[fighter.id] > 0
            board.my_rows[fighter.id] = board.row(view, fighter, at, silent)
            for enemy in view.foe_fighters:
                hit = board.enemy_volley(view, enemy, fighter, at, dodge)
                if hit is not None:
                    board.foe_rows.setdefault(enemy.id, {})[fighter.id] = hit
            board.lurkers[fighter.id] = board.lurking(view, fighter, at, dodge)
        return board

    def can_fire(self, view: View, fighter: UnitState, at: Vec2) -> bool:
        """Whether my fighter standing at `at` will be free to fire this turn."""
        if fighter.attack_done:
            return False
        return not any(view.touches(fighter, at, e) for e in view.foe_fighters)

    def row(
        self, view: View, fighter: UnitState, at: Vec2, silent: bool
    ) -> dict[str, tuple[float, float]]:
        """Enemy id -> (kill chance, worth) of my fighter's volley from `at`."""
        out: dict[str, tuple[float, float]] = {}
        if silent:
            return out
        reach = self.reach.get(fighter.id, 0.0)
        for target in view.foe_units():
            dist = view.gap(fighter, at, target)
            if dist > reach + EPSILON:
                continue
            kill, value = view.volley_at(fighter, target, dist, self.may_dodge(view, target))
            if value > 0:
                out[target.id] = (kill, value)
        return out

    def may_dodge(self, view: View, target: UnitState) -> bool:
        """Whether an enemy may dodge my fighters' fire this turn (asked once per enemy
        and decision): one that has had its move and did not move may not."""
        known = self.dodges.get(target.id)
        if known is None:
            known = self.dodges[target.id] = target.id in self.foe_moves_later or can_dodge(
                view.ctx, target
            )
        return known

    def enemy_volley(
        self, view: View, enemy: UnitState, fighter: UnitState, at: Vec2, dodge: bool
    ) -> tuple[float, float] | None:
        """An enemy fighter that stays put firing at my fighter at `at`, if it can."""
        if enemy.attack_done or enemy.id in self.foe_moves_later:
            return None
        if view.gap(enemy, enemy.pose.position, fighter, at) > self.reach[enemy.id] + EPSILON:
            return None
        if view.touches(fighter, at, enemy):
            return None  # locked with my fighter: a dogfight, not a shot
        return view.volley(enemy, enemy.pose.position, fighter, at, dodge)

    def joiners(self, view: View, enemy: UnitState, mover: UnitState) -> float:
        """Expected fighters of mine still to move this turn that can join a fight on
        `enemy` as supporters (at most two)."""
        count = 0
        for friend in view.my_fighters:
            if friend.id == mover.id or friend.move_done or self.foe_touching_mine[friend.id]:
                continue
            reach = (
                fighter_budget(view.state, friend, view.ctx.rules)
                + view.radius(friend)
                + view.radius(enemy)
            )
            if friend.pose.position.distance(enemy.pose.position) <= reach:
                count += 1
        return JOIN_WEIGHT * min(count, 2)

    def foe_joiners(self, view: View, enemy: UnitState) -> float:
        """Expected enemy fighters still to move that may come to support `enemy`."""
        count = 0
        for other in view.foe_fighters:
            if other.id == enemy.id or other.id not in self.foe_moves_later:
                continue
            reach = (
                fighter_budget(view.state, other, view.ctx.rules)
                + view.radius(other)
                + view.radius(enemy)
            )
            if other.pose.position.distance(enemy.pose.position) <= reach:
                count += 1
        return FOE_JOIN_WEIGHT * min(count, 2)

    def lurking(self, view: View, fighter: UnitState, at: Vec2, dodge: bool) -> float:
        """Worth the enemy fighters still to move might shoot off my fighter at `at`."""
        total = 0.0
        for enemy in view.foe_fighters:
            if enemy.id not in self.foe_moves_later or enemy.attack_done:
                continue
            speed = view.state.unit_type(enemy).speed
            gap = view.gap(enemy, enemy.pose.position, fighter, at)
            if gap <= speed + self.reach[enemy.id]:
                total += view.weights.lurk * view.volley(enemy, at, fighter, at, dodge)[1]
            if gap <= speed + EPSILON:
                # It may also come into base contact: a dogfight either way.
                ex = view.exchange(fighter, enemy, 0, 0)
                total -= LURK_CONTACT * (ex if ex < 0 else 0.5 * ex)
        return total

    def exchange(
        self,
        view: View,
        fighter: UnitState,
        row: dict[str, tuple[float, float]],
        hits_on_me: dict[str, tuple[float, float]],
    ) -> tuple[float, float]:
        """(worth my fighters shoot off, worth shot off mine) this turn, with `fighter`'s
        volley `row` and the enemy volleys at it `hits_on_me` replacing the current ones."""
        rows = dict(self.my_rows)
        rows[fighter.id] = row
        foe_rows = {eid: dict(targets) for eid, targets in self.foe_rows.items()}
        for targets in foe_rows.values():
            targets.pop(fighter.id, None)
        for eid, hit in hits_on_me.items():
            foe_rows.setdefault(eid, {})[fighter.id] = hit
        # If the enemy shoots first, my fighters may not live to fire.
        alive = {uid: 1.0 for uid in rows}
        if not self.fire_first:
            for eid, targets in foe_rows.items():
                weight = LOCKED_WEIGHT if eid in self.foe_locked else 1.0
                total = sum(v for _, v in targets.values())
                for uid, (kill, value) in targets.items():
                    if total > 0:
                        alive[uid] *= 1 - weight * kill * value / total
        damage: dict[str, float] = {}
        spared: dict[str, float] = {}
        for uid, targets in rows.items():
            total = sum(v for _, v in targets.values())
            if total <= 0:
                continue
            for eid, (kill, value) in targets.items():
                share = value / total * alive[uid]
                damage[eid] = damage.get(eid, 0.0) + share * value
                spared[eid] = spared.get(eid, 1.0) * (1 - share * kill)
        won = 0.0
        for eid, amount in damage.items():
            enemy = view.state.units[eid]
            scale = MOVING_TARGET if eid in self.foe_moves_later else 1.0
            won += scale * min(amount, view.worth(enemy))
        lost = 0.0
        for eid, targets in foe_rows.items():
            total = sum(v for _, v in targets.values())
            if total <= 0:
                continue
            weight = LOCKED_WEIGHT if eid in self.foe_locked else 1.0
            if self.fire_first:
                weight *= spared.get(eid, 1.0)
            lost += weight * sum(v * v for _, v in targets.values()) / total
        lost += sum(self.lurkers.values())
        return won, lost


def duel_fire(view: View, fighter: UnitState, enemy: UnitState) -> float:
    """Point-blank exchange of fire between two fighters: mine less theirs."""
    spot = enemy.pose.position
    mine = view.volley(fighter, spot, enemy, spot, True)[1]
    theirs = view.volley(enemy, spot, fighter, spot, True)[1]
    return mine - theirs


def dogfight_key(unit: UnitState) -> tuple[Any, ...]:
    """Every field of a unit that `View.exchange` reads (its dogfight score and worth),
    besides the game's options and unit types, which never change in a game."""
    return (unit.type, unit.dogfight_drones, unit.damage, unit.aboard_damage)


def fighter_key(unit: UnitState) -> tuple[Any, ...]:
    """Every field of a fighter that `View.exchange` and `duel_fire` read (besides the
    game's options and unit types, which never change in a game)."""
    return (
        unit.type,
        unit.dogfight_drones,
        unit.damage,
        unit.aboard_damage,
        unit.criticals.get("weapons", 0),
        unit.special,
        unit.lost_traits,
    )


def matchup(view: View, fighter: UnitState, enemy: UnitState) -> float:
    """How `fighter` fares against `enemy` one on one: the dogfight exchange plus the
    point-blank fire. Kept for the whole game (it is asked for every pair of fighters
    at every fighter move), keyed by the mood and both fighters' fields."""
    key = ("matchup", view.greed, view.caution, fighter_key(fighter), fighter_key(enemy))
    known = view.lasting.get(key)
    if known is None:
        known = view.lasting[key] = view.exchange(fighter, enemy, 0, 0) + duel_fire(
            view, fighter, enemy
        )
    return float(known)


def escort_needs(view: View) -> tuple[dict[str, int], dict[str, float]]:
    """How many more escorts each friendly carrier wants on its base (one for every two
    enemy fighters within two turns' reach of it, at least one while any are about), and
    what one escort is worth to it: `Weights.escort` and a share of the worth those enemy
    fighters could fire at it, which its escorts intercept or shoot down."""
    if not view.foe_fighters and not any(s.aboard for s in view.foe_ships):
        return {}, {}
    needs: dict[str, int] = {}
    worths: dict[str, float] = {}
    for ship in view.my_ships:
        if view.state.unit_type(ship).craft <= 0:
            continue
        at = ship.pose.position
        near = 0
        threat = 0.0
        for enemy in view.foe_fighters:
            speed = view.state.unit_type(enemy).speed
            if enemy.pose.position.distance(at) <= 2 * speed + 6.0:
                near += 1
                dist = max(0.0, view.gap(enemy, enemy.pose.position, ship) - speed)
                threat += sum(
                    view.shot_value(enemy, w, ship, max(dist, 0.0))
                    for w in weapons_of(view.state, enemy)
                    if w.range + speed >= dist
                )
        have = len(view.state.supporters_of(ship.id))
        want = min(ESCORTS_WANTED, max(1, (near + 1) // 2))
        needs[ship.id] = max(0, want - have)
        worths[ship.id] = view.weights.escort + ESCORT_SHARE * threat / want
    return needs, worths


# ---- the player --------------------------------------------------------------------


class ActaHeuristic:
    """A fast, sensible computer player for `acta`: one-step scoring of the legal actions.

    With `strict=True` an internal error is raised rather than answered with a
    safe default (tests use this to find the heuristic's own bugs).
    """

    name = "heuristic"

    def __init__(
        self,
        *,
        strict: bool = False,
        keep_answers: bool = True,
        weights: Weights = DEFAULT,
        name: str = "heuristic",
    ) -> None:
        self.strict = strict
        self.keep_answers = keep_answers
        """Keep answers that hold for the whole game between its decisions (False: work
        everything out afresh at each decision, to check that keeping them changes
        nothing)."""
        self.weights = weights
        """The persona's weights (`personas.Weights`; the defaults are the plain player)."""
        self.name = name
        self.fallbacks = 0
        """How many decisions fell back to the default after an internal error."""
        self._key: int | None = None
        """`Seat.key` of the game played now."""
        self.lasting: dict[Any, Any] = {}
        """`View.lasting` of the game played now (a new game starts it afresh)."""
        self.positions: PositionMemo | None = None
        """Scorings remembered by position while `remember_positions` is on."""

    def remember_positions(self, on: bool) -> None:
        """Remember each position's scoring afresh (True), or stop (False). The scoring
        reads only the state the seat may know (acta hides nothing), its options and
        rules, and this player's weights, so a position met again is scored the same."""
        self.positions = PositionMemo() if on else None

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """One of `legal`: the best-scoring action, ties broken with `rng`."""
        memo = self.positions
        if memo is None:
            return self._choose(seat, legal, rng)[2]
        key = memo.key(seat.side, seat.state())
        scored = memo.recall(key, legal)
        if scored is not None:
            return pick(scored, rng)
        view, scored, choice = self._choose(seat, legal, rng)
        if view is not None:
            memo.keep(key, legal, scored)
        return choice

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """Every candidate scored, best first, each with a reason in player words; the
        first is what `decide` picks with an equal `rng` (ties broken the same way)."""
        view, scored, choice = self._choose(seat, legal, rng)
        if view is None:
            return [Weighed(choice, 0.0, "a safe default: the scoring failed here")]
        first = next(i for i, (_, action) in enumerate(scored) if action is choice)
        order = sorted((i for i in range(len(scored)) if i != first), key=lambda i: -scored[i][0])
        out = []
        for i in (first, *order):
            score, action = scored[i]
            out.append(Weighed(action, float(score), reason(view, action)))
        return out

    def _choose(
        self, seat: Seat, legal: list[Any], rng: random.Random
    ) -> tuple[View | None, list[tuple[float, Any]], Any]:
        """(view, scored candidates, choice); a failed scoring gives (None, [], default)."""
        if not legal:
            raise ValueError("no legal action to choose from")
        if seat.key != self._key or not self.keep_answers:
            self._key, self.lasting = seat.key, {}
        try:
            view = View.of(seat, self.lasting, self.weights)
            scored = self.score(view, legal)
            choice = pick(scored, rng)
        except Exception:
            if self.strict:
                raise
            choice = None
        if choice is None:
            self.fallbacks += 1
            return None, [], default_action(legal)
        return view, scored, choice

    # -- dispatch --

    def score(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Every legal action with its score (higher is better)."""
        phase = view.state.phase
        handler = _PHASES.get(phase)
        if handler is None:
            return [(0.0, a) for a in legal]
        return handler(self, view, legal)

    # -- setup --

    def score_loadout(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Swap drones for dogfight drones when the enemy brings many fighters."""
        foe_fighters = len(view.foe_fighters) + sum(len(s.aboard) for s in view.foe_ships)
        foe_ships = len(view.foe_ships)
        want = foe_fighters >= 3 or (foe_fighters >= 1 and foe_ships == 0)
        if foe_ships and foe_fighters < 2 * foe_ships:
            want = False
        on_table = any(action.swap for action in legal)
        aboard = any(getattr(action, "swap_aboard", ()) for action in legal)
        out = []
        for action in legal:
            value = 0.0
            if on_table:
                value += 1.0 if bool(action.swap) == want else 0.0
            if aboard:
                value += 1.0 if bool(getattr(action, "swap_aboard", ())) == want else 0.0
            out.append((value, action))
        return out

    # -- deployment --

    def score_deploy(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Place ships forward in the zone, towards the enemy, and fighters close beside
        a friendly ship (screening it), a patrol on its carrier's base best of all when
        the enemy brings fighters (ACTA-DEP-4)."""
        state = view.state
        side = state.active
        enemy = state.zones.get(state.other(side))
        aim = (
            zone_centre(enemy)
            if enemy is not None
            else Vec2(state.table.width / 2, state.table.height / 2)
        )
        foe_fighters = len(view.foe_fighters) + sum(len(s.aboard) for s in view.foe_ships)
        out = []
        for action in legal:
            unit = state.units[action.unit]
            spot = Vec2(action.x, action.y)
            value = -0.1 * spot.distance(aim)
            others = [u for u in state.ships(side) if u.id != unit.id]
            if not state.is_fighter(unit):
                # Spread the ships out: a crowd is one target for every gun.
                near = min((u.pose.position.distance(spot) for u in others), default=99.0)
                value -= 0.5 * max(0.0, 5.0 - near)
            if state.is_fighter(unit):
                ships = [s for s in state.ships(side) if s.id != unit.id]
                if ships:
                    near = min(s.pose.position.distance(spot) for s in ships)
                    value -= max(0.0, near - 3.0)
                if action.support:
                    value += 1.0 if foe_fighters else 0.2
            out.append((value, action))
        return out

    # -- ship movement and Special Actions --

    def score_ship_move(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        state = view.state
        crit = bool(view.opt("crit_effects"))
        out: list[tuple[float, Any]] = []
        moves_by_ship: dict[str, list[tuple[float, Any]]] = {}
        for action in legal:
            if isinstance(action, A.MoveShip):
                ship = state.units[action.unit]
                _, end, problem = ship_path(state, ship, action.legs, crit, view.ctx.rules)
                if problem:
                    continue
                moves_by_ship.setdefault(ship.id, []).append(
                    (self.ship_pose_value(view, ship, end, action), action)
                )
        for moves in moves_by_ship.values():
            out.extend(moves)
        for action in legal:
            if isinstance(action, A.DeclareSpecial):
                ship = state.units[action.unit]
                best_move = max((s for s, _ in moves_by_ship.get(ship.id, [])), default=0.0)
                out.append((best_move + self.special_value(view, ship, action.name), action))
        return out

    def ship_pose_value(self, view: View, ship: UnitState, end: Pose, move: A.MoveShip) -> float:
        """Enemy worth in the ship's arcs and range at `end`, less its exposure."""
        state = view.state
        at = end.position
        value = 0.0
        weapons = weapons_of(state, ship)
        missing = str(view.opt("missing_arc"))
        for weapon in weapons:
            arc = weapon_arc(weapon, missing)
            best = 0.0
            for target in view.foe_units():
                dist = view.gap(ship, at, target)
                if dist > weapon.range + EPSILON:
                    continue
                bearing = end.bearing_to(target.pose.position)
                if not view.ctx.rules.in_arc(arc, bearing):
                    continue
                shot = view.shot_value(ship, weapon, target, dist, dodge=True)
                if view.is_fighter(target):
                    shot *= 0.5  # fighters move after ships: they may not stay
                best = max(best, shot)
            value += best
        value -= view.weights.ship_exposure * self.ship_exposure(view, ship, at)
        # Close on enemy ships (warships) or keep a stand-off distance (carriers).
        carrier = bool(ship.aboard) or state.unit_type(ship).craft > 0
        if view.foe_ships:
            nearest = min(at.distance(s.pose.position) for s in view.foe_ships)
            if carrier:
                value -= 0.05 * max(0.0, 14.0 - nearest)
            else:
                # A warship with nothing in reach closes in: parked, it wins nothing.
                value -= (0.02 if value > 0 else 0.06) * max(0.0, nearest - 6.0)
        elif view.foe_fighters and not carrier:
            nearest = min(at.distance(f.pose.position) for f in view.foe_fighters)
            value -= 0.01 * nearest
        if carrier and view.foe_fighters:
            # A carrier keeps its distance from enemy fighters: its escorts meet them.
            nearest = min(at.distance(f.pose.position) for f in view.foe_fighters)
            value -= 0.05 * max(0.0, 24.0 - nearest)
        value -= WINGMAN * self.alone(view, ship, at)
        # Stay away from the table edge, a corner most of all: a ship pinned there
        # cannot turn to fight.
        table = state.table
        near_x = min(at.x, table.width - at.x)
        near_y = min(at.y, table.height - at.y)
        value -= 0.2 * max(0.0, EDGE_ROOM - min(near_x, near_y))
        if near_x < EDGE_ROOM and near_y < EDGE_ROOM:
            value -= 1.0
        # Supporters that cannot keep up are left behind.
        travelled = sum(max(0.0, leg.distance) for leg in move.legs)
        for fighter in state.supporters_of(ship.id):
            if travelled > state.unit_type(fighter).speed + EPSILON:
                value -= 0.3
        return value

    def alone(self, view: View, ship: UnitState, at: Vec2) -> float:
        """Inches a ship standing at `at` is beyond its group: a ship without fighter
        bays keeps within 8" of a friendly carrier, else within 12" of a friendly ship."""
        state = view.state
        if state.unit_type(ship).craft > 0:
            return 0.0
        others = [s for s in view.my_ships if s.id != ship.id]
        carriers = [s for s in others if state.unit_type(s).craft > 0]
        group, limit = (carriers, 8.0) if carriers else (others, 12.0)
        if not group:
            return 0.0
        nearest = min(at.distance(s.pose.position) for s in group)
        return max(0.0, nearest - limit)

    def ship_exposure(self, view: View, ship: UnitState, at: Vec2) -> float:
        """Worth the enemy ships' guns could take off `ship` standing at `at`."""
        state = view.state
        crit = bool(view.opt("crit_effects"))
        missing = str(view.opt("missing_arc"))
        total = 0.0
        for enemy in view.foe_ships:
            still = enemy.id in state.ships_to_move.get(view.foe, ())
            reach = ship_max_speed(state, enemy, crit, view.ctx.rules) if still else 0.0
            gap = view.gap(enemy, enemy.pose.position, ship, at)
            bearing = enemy.pose.bearing_to(at)
            for weapon in weapons_of(state, enemy):
                if gap > weapon.range + reach + EPSILON:
                    continue
                arc = weapon_arc(weapon, missing)
                if not still and not view.ctx.rules.in_arc(arc, bearing):
                    continue
                shot = view.shot_value(enemy, weapon, ship, max(0.0, gap - reach))
                total += shot * (0.6 if still else 1.0)
        for enemy in view.foe_fighters:
            if enemy.attack_done:
                continue
            speed = state.unit_type(enemy).speed
            gap = max(0.0, view.gap(enemy, enemy.pose.position, ship, at) - speed)
            # An escort mostly stays with its own ship (`escort_needs`).
            weight = FIGHTER_EXPOSURE * (0.25 if enemy.supporting else 1.0)
            for weapon in weapons_of(state, enemy):
                if gap <= weapon.range + EPSILON:
                    total += weight * view.shot_value(enemy, weapon, ship, gap)
        return total

    def special_value(self, view: View, ship: UnitState, name: str) -> float:
        """Special Actions are rare: only when they clearly pay (they stop launches)."""
        state = view.state
        stype = state.unit_type(ship)
        needs_deck = bool(ship.aboard) or (
            stype.craft > len(ship.aboard)
            and any(
                f.damage < state.unit_type(f).damage
                and f.pose.position.distance(ship.pose.position) < 14
                for f in view.my_fighters
            )
        )
        if needs_deck:
            return -5.0
        threat = self.threat_to(view, ship)
        if name == BOOST:
            missing = stype.shields - ship.shields
            dice = max(1, stype.shields // 10)
            if missing >= 3.5 * dice and ship.shields <= stype.shields // 2:
                return 0.5 + 0.1 * min(missing, 3.5 * dice)
            return -5.0
        badly = ship.damage <= max(stype.crippled, stype.damage // 2) and threat >= ship.damage / 3
        if name == BLAST_DOORS and badly and ship.shields <= 2:
            return 0.4 * threat
        if name == EVASIVE and badly and threat >= ship.damage / 2:
            return 0.2 * threat
        return -5.0

    def threat_to(self, view: View, unit: UnitState) -> float:
        """Rough expected worth the enemy could fire at the unit next Attack Phase."""
        total = 0.0
        for enemy in view.foe_units():
            reach = 0.0 if not view.is_fighter(enemy) else view.state.unit_type(enemy).speed
            dist = view.gap(enemy, enemy.pose.position, unit)
            for weapon in weapons_of(view.state, enemy):
                if dist <= weapon.range + reach + EPSILON:
                    total += view.shot_value(enemy, weapon, unit, max(0.0, dist - reach))
        return total

    # -- fighter movement --

    def score_fighter_order(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Moving last is an advantage: the other side moves its fighters first."""
        return [(1.0 if a.first == view.foe else 0.0, a) for a in legal]

    def score_fighter_move(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        state = view.state
        board = Board.of(view)
        out: list[tuple[float, Any]] = []
        best_other: dict[str, float] = {}
        recovers: list[A.Recover] = []
        for action in legal:
            if isinstance(action, A.MoveFighter):
                fighter = state.units[action.unit]
                value = self.fighter_spot_value(
                    view, board, fighter, Vec2(action.x, action.y), action.support
                )
                out.append((value, action))
                best_other[fighter.id] = max(best_other.get(fighter.id, -1e9), value)
            elif isinstance(action, A.Recover):
                recovers.append(action)
            else:
                out.append((-50.0, action))  # EndMovement: every fighter has a hold move
        for action in recovers:
            fighter = state.units[action.unit]
            out.append((self.recover_value(view, fighter, best_other.get(fighter.id, 0.0)), action))
        return out

    def fighter_spot_value(
        self, view: View, board: Board, fighter: UnitState, at: Vec2, support: str
    ) -> float:
        """How good it is for `fighter` to end its move at `at` (supporting `support`)."""
        here = fighter.pose.position
        moved = at.distance(here) > 0.01
        contacts = [e for e in view.foe_fighters if view.touches(fighter, at, e)]
        dodge = moved or bool(support) or bool(contacts) or fighter.carried > 0
        value = 0.0
        if contacts:
            minus = len(contacts) - 1
            deltas = []
            for enemy in contacts:
                before = board.my_touching.get(enemy.id, [])
                mates = board.joiners(view, enemy, fighter)
                foes = board.foe_joiners(view, enemy)
                after = self.contact_value(
                    view,
                    enemy,
                    [*before, fighter],
                    board.foe_touching_mine,
                    {fighter.id: minus},
                    board.fire_first,
                    mates,
                    foes,
                )
                now = self.contact_value(
                    view, enemy, before, board.foe_touching_mine, {}, board.fire_first, mates, foes
                )
                deltas.append(after - now)
            deltas.sort(reverse=True)
            # It attacks one enemy at most; every enemy it touches may attack it.
            value += deltas[0] + sum(min(0.0, d) for d in deltas[1:])
        else:
            value += self.prospects(view, fighter, at)
        # Free to fire unless it has attacked or ends touching an enemy fighter
        # (Board.can_fire, with the contacts already found).
        row = board.row(view, fighter, at, fighter.attack_done or bool(contacts))
        hits_on_me: dict[str, tuple[float, float]] = {}
        for enemy in view.foe_fighters:
            hit = board.enemy_volley(view, enemy, fighter, at, dodge)
            if hit is not None:
                hits_on_me[enemy.id] = hit
        saved = board.lurkers[fighter.id]
        board.lurkers[fighter.id] = board.lurking(view, fighter, at, dodge)
        won, lost = board.exchange(view, fighter, row, hits_on_me)
        board.lurkers[fighter.id] = saved
        value += view.greed * won - view.caution * view.weights.fire_risk * lost
        value -= view.caution * self.ship_threat(view, fighter, at, dodge)
        if support:
            if board.escorts.get(support, 0) > 0 or fighter.supporting == support:
                value += board.escort_worth.get(support, 0.0)
            value += 0.05  # a supporter may dodge and intercept
        elif fighter.supporting in board.escorts:
            value -= board.escort_worth[fighter.supporting]  # leaving a carrier's escort
        if moved:
            value += 0.02  # a fighter that moved may dodge (ACTA-FTR-6)
        return value

    def contact_value(
        self,
        view: View,
        enemy: UnitState,
        mine: Sequence[UnitState],
        foe_touching_mine: dict[str, int],
        extra_minus: dict[str, int],
        first: bool,
        joiners: float = 0.0,
        foe_joiners: float = 0.0,
    ) -> float:
        """Worth of having `mine` in base contact with `enemy` (dogfights both ways).

        `first` is True if my side nominates its dogfights first this turn.
        `joiners` and `foe_joiners` are the expected fighters of each side still to
        come and join this fight as supporters.
        """
        if not mine:
            return 0.0
        others = len(mine) - 1 + joiners
        best, best_win = -1e9, 0.0
        worst, worst_lose = 1e9, 0.0
        for mate in mine:
            theirs = max(0, extra_minus.get(mate.id, foe_touching_mine.get(mate.id, 1) - 1))
            theirs_all = theirs + foe_joiners
            if first:
                # I nominate first: my supporters help my attack, their free fighters
                # touching my attacker defend; their reply finds mine all committed.
                attack = view.exchange(mate, enemy, others, theirs_all)
                reply = view.exchange(mate, enemy, 0.0, theirs_all)
            else:
                # They nominate first: my free fighters touching the enemy defend (and
                # are then committed); my reply finds theirs all committed.
                reply = view.exchange(mate, enemy, others, theirs_all)
                attack = view.exchange(mate, enemy, 0.0, 0.0)
            if attack > best:
                best, best_win = (
                    attack,
                    view.odds(mate, enemy, others if first else 0.0, theirs_all if first else 0.0)[
                        0
                    ],
                )
            if reply < worst:
                worst = reply
                worst_lose = view.odds(mate, enemy, 0.0 if first else others, theirs_all)[1]
        attack_value = max(0.0, best)
        counter = CONTACT_RISK * min(0.0, worst)
        if first:
            # My attack goes first: the enemy strikes back only if it survives.
            return attack_value + counter * (1 - (best_win if attack_value > 0 else 0.0))
        # The enemy may strike first and take my attacker down.
        survive = 1 - (CONTACT_RISK * worst_lose if counter < 0 else 0.0)
        return counter + attack_value * survive

    def prospects(self, view: View, fighter: UnitState, at: Vec2) -> float:
        """Next turn's prospects from a spot touching no enemy fighter: near what it
        beats, not too near what beats it, and close to friends (support, focus fire)."""
        targets, friends = self.prospect_table(view, fighter)
        value = 0.0
        x, y = at.x, at.y
        edge = view.edges[fighter.type]
        nearest = math.inf
        for tx, ty, target_edge, pair in targets:
            # view.gap inlined (the same operations, so the same float): this runs for
            # every target from every spot offered.
            dist = math.hypot(x - tx, y - ty)
            dist -= edge
            dist -= target_edge
            dist = max(0.0, dist)
            nearest = min(nearest, dist)
            if pair is not None:
                value += PROSPECT_WEIGHT * pair * max(0.0, 1.0 - dist / 18.0)
            else:
                value += 0.1 * max(0.0, 1.0 - dist / 24.0)
        for fx, fy in friends:
            dist = math.hypot(x - fx, y - fy)
            value += COHESION * max(0.0, 1.0 - dist / 8.0)
        if targets:
            value -= view.weights.approach * nearest / 10.0
        return value

    def prospect_table(
        self, view: View, fighter: UnitState
    ) -> tuple[list[tuple[float, float, float, float | None]], list[tuple[float, float]]]:
        """What `prospects` needs of the other units, worked out once per fighter and
        decision: each enemy's (x, y, base edge, matchup or None for a ship) and each
        friendly fighter's (x, y)."""
        key = ("prospects", fighter.id)
        known = view.memo.get(key)
        if known is not None:
            return cast(
                tuple[list[tuple[float, float, float, float | None]], list[tuple[float, float]]],
                known,
            )
        targets: list[tuple[float, float, float, float | None]] = []
        for target in view.foe_units():
            pair: float | None = None
            if view.is_fighter(target):
                pair = matchup(view, fighter, target)
                if pair < 0:
                    pair *= SHY_WEIGHT
            spot = target.pose.position
            targets.append((spot.x, spot.y, view.edges[target.type], pair))
        friends = [
            (f.pose.position.x, f.pose.position.y) for f in view.my_fighters if f.id != fighter.id
        ]
        view.memo[key] = (targets, friends)
        return targets, friends

    def ship_threat(self, view: View, fighter: UnitState, at: Vec2, dodge: bool) -> float:
        """Expected worth enemy ships' guns could take off the fighter at `at`."""
        total = 0.0
        missing = str(view.opt("missing_arc"))
        for ship in view.foe_ships:
            dist = view.gap(ship, ship.pose.position, fighter, at)
            bearing = ship.pose.bearing_to(at)
            for weapon in weapons_of(view.state, ship):
                if dist > weapon.range + EPSILON:
                    continue
                arc = weapon_arc(weapon, missing)
                if not view.ctx.rules.in_arc(arc, bearing):
                    continue
                total += view.shot_value(ship, weapon, fighter, dist, dodge=dodge)
        return SHIP_GUNS_RISK * total

    def recover_value(self, view: View, fighter: UnitState, best_other: float) -> float:
        """Take a damaged fighter home when it has nothing better to do; never an
        undamaged one (it would only sit out turns to be launched again, ACTA-LCH-3)."""
        full = view.state.unit_type(fighter).damage
        if fighter.damage >= full:
            return NEVER
        if best_other < 0.5:
            return max(best_other, 0.0) + 0.2 + 0.1 * (full - fighter.damage)
        return best_other - 10.0

    # -- the Attack Phase --

    def score_intercept(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        state = view.state
        pending = state.intercept
        if pending is None:
            return [(0.0, a) for a in legal]
        attacker = state.units.get(pending.attacker)
        protected = state.units.get(pending.protected)
        if attacker is None or protected is None:
            return [(0.0 if a.fighters else 1.0, a) for a in legal]
        blocked = view.best_attack(attacker)
        if pending.fire is not None:
            weapon = next(
                (w for w in weapons_of(state, attacker) if w.name == pending.fire.weapon), None
            )
            if weapon is not None:
                dist = view.gap(attacker, attacker.pose.position, protected)
                blocked = max(blocked, view.shot_value(attacker, weapon, protected, dist))
        out = []
        for action in legal:
            if not action.fighters:
                out.append((0.0, action))
                continue
            group = [state.units[f] for f in action.fighters]
            dogfight = self.contact_value(
                view, attacker, group, {}, {f.id: 0 for f in group}, state.initiative == view.me
            )
            cost = 0.15 * len(group)
            out.append((blocked + dogfight - cost, action))
        return out

    def score_defensive_fire(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Guards enough to stop the Seeking dice coming at each ship (ACTA-SUP-6): each
        guard rolls its dice against every Seeking attack, so one guard often stops them
        all, and the rest stay free to intercept (ACTA-SUP-4)."""
        state = view.state
        incoming: dict[str, list[int]] = {}
        attackers: dict[str, int] = {}
        for ship in view.my_ships:
            incoming[ship.id] = self.seeking_attacks_at(view, ship)
            attackers[ship.id] = self.fighters_in_reach(view, ship)
        # Only ACTA:SF resolution in seeking mode rolls each guard against every attack.
        pooled = not (
            view.opt("resolution") == "sf" and view.opt("defensive_fire_mode") == "seeking"
        )
        rules = view.ctx.rules
        stops = float(rules.face_chance(rules.defensive_fire_stops))
        safe = float(1 - rules.face_chance(rules.defensive_fire_hurts))
        out = []
        for action in legal:
            value = 0.0
            by_ship: dict[str, list[UnitState]] = {}
            for uid in action.fighters:
                fighter = state.units[uid]
                by_ship.setdefault(fighter.supporting, []).append(fighter)
                value -= view.best_attack(fighter)
            for ship in view.my_ships:
                guards = by_ship.get(ship.id, [])
                free = [
                    f
                    for f in state.supporters_of(ship.id)
                    if f.id not in action.fighters and not view.engaged(f)
                ]
                value += INTERCEPT_RESERVE * min(len(free), attackers.get(ship.id, 0))
                attacks = incoming.get(ship.id, [])
                if not guards:
                    continue
                if not attacks:
                    value -= 0.2 * len(guards)
                    continue
                rolled = sum(self.guard_dice(view, g) for g in guards)
                if pooled:
                    cancelled = min(float(sum(attacks)), rolled * stops)
                else:
                    cancelled = sum(min(float(ad), rolled * stops) for ad in attacks)
                value += 1.5 * cancelled
                rolls = 1 if pooled else len(attacks)
                for g in guards:
                    n = self.guard_dice(view, g) * rolls
                    value -= (1 - safe**n) * 0.5 * view.worth(g) / 2
            out.append((value, action))
        return out

    def fighters_in_reach(self, view: View, ship: UnitState) -> int:
        """Enemy fighters free to attack the ship this Attack Phase (in a weapon's range
        and not locked): each is one an escort left free may intercept."""
        count = 0
        for enemy in view.foe_fighters:
            if enemy.attack_done or view.engaged(enemy):
                continue
            dist = view.gap(enemy, enemy.pose.position, ship)
            if any(dist <= w.range + EPSILON for w in weapons_of(view.state, enemy)):
                count += 1
        return count

    def seeking_attacks_at(self, view: View, ship: UnitState) -> list[int]:
        """The AD of each Seeking attack the enemy can bring on the ship this turn."""
        out: list[int] = []
        for enemy in view.foe_units():
            if view.is_fighter(enemy) and (enemy.attack_done or view.engaged(enemy)):
                continue
            dist = view.gap(enemy, enemy.pose.position, ship)
            bearing = enemy.pose.bearing_to(ship.pose.position)
            for weapon in weapons_of(view.state, enemy):
                if not weapon.has("Seeking") or dist > weapon.range + EPSILON:
                    continue
                arc = weapon_arc(weapon, str(view.opt("missing_arc")))
                if not view.ctx.rules.in_arc(arc, bearing):
                    continue
                out.append(weapon.ad)
        return out

    def guard_dice(self, view: View, fighter: UnitState) -> int:
        """Dice the fighter rolls on defensive fire (`combat.fighter_defence_dice`)."""
        return fighter_defence_dice(view.ctx, fighter)

    def score_fighter_attack(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        state = view.state
        if state.attack_sides and state.attack_sides[0] != view.me:
            return self.score_defender_support(view, legal)
        # Already locked, a fighter that holds back only hands the enemy the first
        # roll: nominate on the plain odds, whatever the mood.
        view.greed = max(view.greed, NOMINATE_GREED)
        view.caution = min(view.caution, NOMINATE_CAUTION)
        plan = self.dogfight_plan(view, legal)
        out: list[tuple[float, Any]] = []
        for action in legal:
            if isinstance(action, A.Dogfight):
                chosen = plan.get(action.unit)
                out.append((1.0 if chosen == action.enemy else 0.0, action))
            elif isinstance(action, A.Support):
                # Supporting is legal only once a dogfight it helps is named, so the
                # plan's attackers are named first (ACTA-DOG-3).
                out.append((0.9 if plan.get(action.unit) == "" else 0.0, action))
            else:
                out.append((0.0, action))
        return out

    def dogfight_plan(self, view: View, legal: list[Any]) -> dict[str, str]:
        """Roles for the unassigned engaged fighters: enemy id to attack, or '' to support.

        Coordinate ascent from 'everyone supports': each fighter in turn takes the role
        that most improves the expected exchange of the whole step.
        """
        options: dict[str, list[str]] = {}
        for action in legal:
            if isinstance(action, A.Dogfight):
                options.setdefault(action.unit, []).append(action.enemy)
            elif isinstance(action, A.Support):
                options.setdefault(action.unit, [])
        # Start from every fighter attacking its first enemy: a plan whose supporters have
        # no dogfight to support is not allowed (ACTA-DOG-3), so all-support is no start.
        plan: dict[str, str] = {
            uid: (enemies[0] if enemies else "") for uid, enemies in options.items()
        }
        order = sorted(options)
        combos = 1
        for uid in order:
            combos *= 1 + len(options[uid])
        if combos <= PLAN_EXHAUSTIVE:
            best_plan, best_value = plan, self.plan_value(view, plan)
            for roles in itertools.product(*(["", *options[uid]] for uid in order)):
                trial = dict(zip(order, roles, strict=True))
                value = self.plan_value(view, trial)
                if value > best_value + 1e-9:
                    best_plan, best_value = trial, value
            return best_plan
        for _ in range(3):
            changed = False
            for uid in sorted(options):
                best_role = plan[uid]
                best = self.plan_value(view, plan)
                for role in ["", *options[uid]]:
                    trial = dict(plan)
                    trial[uid] = role
                    value = self.plan_value(view, trial)
                    if value > best + 1e-9:
                        best, best_role = value, role
                if best_role != plan[uid]:
                    plan[uid] = best_role
                    changed = True
            if not changed:
                break
        return plan

    def plan_value(self, view: View, plan: dict[str, str]) -> float:
        """Expected exchange of this step's dogfights under a plan (plus those already set)."""
        state = view.state
        fights: list[tuple[str, str]] = list(state.dogfights)
        fights += [(uid, enemy) for uid, enemy in plan.items() if enemy]
        supporters = [state.units[s] for s in state.supporters if s in state.units]
        supporters += [state.units[uid] for uid, enemy in plan.items() if not enemy]
        targets = {e for _, e in fights}
        defenders = [f for f in view.foe_fighters if f.id not in targets and not f.attack_done]
        survive: dict[str, float] = {}
        total = 0.0
        # ACTA-DOG-3: a supporter must touch an enemy its side is fighting; a plan that
        # breaks this cannot be played, so it scores far below any that can.
        for s in supporters:
            if not any(
                e.id in targets and view.touches(s, s.pose.position, e) for e in view.foe_fighters
            ):
                total -= UNPLAYABLE
        for uid, eid in fights:
            attacker = state.units.get(uid)
            enemy = state.units.get(eid)
            if attacker is None or enemy is None:
                continue
            plus = sum(1 for s in supporters if view.touches(s, s.pose.position, enemy))
            minus = sum(1 for d in defenders if view.touches(d, d.pose.position, attacker))
            alive = survive.get(eid, 1.0)
            win, _ = view.odds(attacker, enemy, plus, minus)
            total += alive * (view.exchange(attacker, enemy, plus, minus) + TEMPO)
            survive[eid] = alive * (1 - win)
        return total

    def score_defender_support(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """As defender: add supporters where they swing the enemy's dogfights."""
        state = view.state
        still_to_nominate = view.me in state.attack_sides[1:]
        out = []
        supporters = [state.units[s] for s in state.supporters if s in state.units]
        for action in legal:
            chosen = [state.units[f] for f in action.fighters]
            value = 0.0
            for uid, eid in state.dogfights:
                attacker = state.units.get(uid)
                mine = state.units.get(eid)
                if attacker is None or mine is None:
                    continue
                plus = sum(1 for s in supporters if view.touches(s, s.pose.position, mine))
                minus = sum(1 for d in chosen if view.touches(d, d.pose.position, attacker))
                win, lose = view.odds(attacker, mine, plus, minus)
                value += view.greed * lose * view.dogfight_loss(attacker)
                value -= view.caution * win * view.dogfight_loss(mine)
            if still_to_nominate:
                for d in chosen:
                    best = 0.0
                    for enemy in view.foe_fighters:
                        if view.touches(d, d.pose.position, enemy):
                            best = max(best, view.exchange(d, enemy, 0, 0))
                    value -= 0.8 * best
            out.append((value, action))
        return out

    def score_fire(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Fighters pick the target worth most for all their weapons; ships shot by shot."""
        state = view.state
        fighter_totals: dict[tuple[str, str], float] = {}
        single: dict[int, float] = {}
        for index, action in enumerate(legal):
            if not isinstance(action, A.Fire):
                continue
            firer = state.units[action.unit]
            target = state.units[action.target]
            weapon = next(w for w in weapons_of(state, firer) if w.name == action.weapon)
            dist = view.gap(firer, firer.pose.position, target)
            value = view.shot_value(firer, weapon, target, dist)
            if view.is_fighter(firer):
                # ACTA-FTR-7: shots already named are rolled first; against a fighter
                # each one makes a further shot likelier to find it gone.
                queued = sum(
                    1 for q in state.volley if q.target == target.id and q.unit != firer.id
                )
                if queued and view.is_fighter(target):
                    value *= OVERKILL ** (queued / max(1, target.damage))
                value += 0.01  # any shot beats none
            single[index] = value
            key = (action.unit, action.target)
            fighter_totals[key] = fighter_totals.get(key, 0.0) + value
        out = []
        for index, action in enumerate(legal):
            if isinstance(action, A.Fire):
                value = single[index]
                if view.is_fighter(state.units[action.unit]):
                    value = fighter_totals[(action.unit, action.target)] + 0.001 * value
                out.append((value, action))
            else:
                out.append((0.005, action))
        return out

    # -- the End Phase --

    def score_launch(self, view: View, legal: list[Any]) -> list[tuple[float, Any]]:
        """Launch every turn: a dogfighter against many fighters, else a striker, forward."""
        state = view.state
        many_foes = len(view.foe_fighters) >= max(2, len(view.my_fighters))
        targets = view.foe_units()
        out = []
        for action in legal:
            if not action.fighter:
                out.append((0.0, action))
                continue
            ftype = state.types[action.fighter]
            ship = state.units[action.ship]
            index = ship.aboard.index(action.fighter)
            health = ship.aboard_damage[index] / max(1, ftype.damage)
            value = 1.0 + 0.3 * health
            if many_foes:
                value += 0.1 * ftype.dogfight
            else:
                value += 0.05 * sum(w.ad for w in ftype.weapons) + 0.02 * ftype.dogfight
            spot = Vec2(action.x, action.y)
            if targets:
                nearest = min(spot.distance(t.pose.position) for t in targets)
                value -= 0.005 * nearest
            out.append((value, action))
        return out


def aggressive_player() -> ActaHeuristic:
    """The `heuristic:aggressive` persona (data/acta/personas/aggressive.yaml)."""
    return ActaHeuristic(weights=persona("aggressive"), name="heuristic:aggressive")


def cautious_player() -> ActaHeuristic:
    """The `heuristic:cautious` persona (data/acta/personas/cautious.yaml)."""
    return ActaHeuristic(weights=persona("cautious"), name="heuristic:cautious")


PERSONA_PLAYERS: dict[str, Callable[[], ActaHeuristic]] = {
    "heuristic:aggressive": aggressive_player,
    "heuristic:cautious": cautious_player,
}
"""Player kind -> factory of each persona in `personas.PERSONAS` (the same functions at
every call, so a subclass's players() equals its parent's)."""

Scorer = Callable[[ActaHeuristic, View, list[Any]], list[tuple[float, Any]]]
_PHASES: dict[str, Scorer] = {
    "deploy": ActaHeuristic.score_deploy,
    "setup": ActaHeuristic.score_loadout,
    "ship_move": ActaHeuristic.score_ship_move,
    "fighter_order": ActaHeuristic.score_fighter_order,
    "fighter_move": ActaHeuristic.score_fighter_move,
    "intercept": ActaHeuristic.score_intercept,
    "defensive_fire": ActaHeuristic.score_defensive_fire,
    "fighter_attack": ActaHeuristic.score_fighter_attack,
    "fighter_fire": ActaHeuristic.score_fire,
    "ship_fire": ActaHeuristic.score_fire,
    "launch": ActaHeuristic.score_launch,
}


def default_action(legal: list[Any]) -> Any:
    """A safe choice when scoring fails: hold, pass, decline or cease fire if offered."""
    for action in legal:
        if isinstance(action, (A.EndMovement, A.EndAttacks)):
            return action
        if (
            isinstance(action, (A.Intercept, A.DefensiveFire, A.DefenderSupport))
            and not action.fighters
        ):
            return action
        if isinstance(action, A.MoveShip) and not action.legs:
            return action
    return legal[0]
