"""The EVO rules as pure functions: written once, called by everyone who needs them.

The engine (through `ctx.rules`), the exact odds (rulesets/evo/odds.py), the computer
player (`seat.ruleset.rules`) and the board (`game.ruleset.rules`) all ask an
`EvoRules` object: a ruleset subclass that overrides one method here changes every
one of them with it. The methods take plain values (distances, bearings, dice faces,
unit-type records) and neither roll dice nor change a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

from dogfight.geometry import EPSILON, Arc, Vec2
from dogfight.rulesets.evo.units import UnitType, Weapon

T = TypeVar("T")
K = TypeVar("K")

ARC_RANGES: dict[str, Arc] = {
    "FaF": Arc(-45, 45),
    "EaF": Arc(-135, 135),
    "FaA": Arc(135, 225),
}
"""Bearings (relative to facing, + to port) each arc covers (EVO-ARC-1)."""
AFT = Arc(135, 225)
"""A model's aft quadrant: where 'on my six' firers must be (EVO-SIX-1)."""
FACING_ARCS = (
    ("front", Arc(-45, 45)),
    ("port", Arc(45, 135)),
    ("aft", Arc(135, 225)),
    ("starboard", Arc(-135, -45)),
)
"""The four facings of a model's armour, in the order a bearing is tested (EVO-ARM-1)."""

ACTIONS_PER_ACTIVATION = 2
"""Actions an active flight takes, before losses and Command bonuses (EVO-ACT-1)."""
DRIFT = 6.0
"""Every model drifts this far straight ahead at the start of its activation (EVO-MOV-1)."""
COURSE_MIN_MOVE = 0.5
"""Default of option `course_min_move`: a net move shorter than this (half a base's
width) has no direction to speak of, so the facing stays as it was (EVO-MOV-3)."""
D6 = range(1, 7)


class EvoRules:
    """Every EVO rule that more than one layer needs, as one method each."""

    drift: float = DRIFT
    """The inertia drift's length (EVO-MOV-1)."""

    # ---- distances: weapon range, close range, the fire zone ----------------------------

    def in_range(self, dist: float, reach: float) -> bool:
        """A distance within a weapon's range, borders included (EVO-SHT-1)."""
        return dist <= reach + EPSILON

    def reach_limit(self, reach: float) -> float:
        """The farthest distance that `in_range`, `within_close` or `in_zone` accepts
        for this reach: spatial pre-filters skip anything farther without asking them
        (a subclass that widens one of those widens this with it)."""
        return reach + EPSILON

    def within_close(self, dist: float, close: float) -> bool:
        """A distance within close range, borders included (EVO-CLS-1): no stealth, and
        the distance 'on my six' and a reaction need (EVO-STL-1, EVO-SIX-1, EVO-REA-2)."""
        return dist <= close + EPSILON

    def zone_reach(self, size: float, measure: str) -> float:
        """How far from the target's centre the fire zone reaches: its size as a radius,
        or half of it as a diameter (EVO-SHT-2, option fire_zone_measure)."""
        return size if measure == "radius" else size / 2

    def in_zone(self, dist: float, reach: float) -> bool:
        """A model this far from the target is in the fire zone (EVO-SHT-2)."""
        return dist <= reach + EPSILON

    # ---- arcs and facings -----------------------------------------------------------------

    def in_arc(self, bearing: float, arc: str | None) -> bool:
        """A relative bearing inside a weapon's arc (EVO-ARC-1); no arc: all round."""
        return arc is None or ARC_RANGES[arc].contains(bearing)

    def astern(self, bearing: float) -> bool:
        """A relative bearing in the model's aft quadrant (EVO-SIX-1)."""
        return AFT.contains(bearing)

    def facing_of(self, bearing: float) -> str:
        """The armour facing a firer at this relative bearing is on (EVO-ARM-1)."""
        for name, arc in FACING_ARCS:
            if arc.contains(bearing):
                return name
        return "front"  # pragma: no cover - the four arcs cover every bearing

    def save_facing(self, bearings: Sequence[float]) -> str:
        """The facing most firers are on, front winning ties (EVO-ARM-1)."""
        counts = {name: 0 for name, _ in FACING_ARCS}
        for bearing in bearings:
            counts[self.facing_of(bearing)] += 1
        return max(counts, key=lambda k: (counts[k], k == "front"))

    # ---- the numbers a die is rolled against --------------------------------------------

    def stealthy(self, utype: UnitType, nearest: float, close: float) -> bool:
        """Whether the model's stealth Target applies: it has one and no firer is within
        close range (EVO-STL-1)."""
        return utype.stealth_target is not None and not self.within_close(nearest, close)

    def target_number(self, utype: UnitType, nearest: float, close: float) -> int:
        """The model's Target against firers whose nearest is `nearest` away (EVO-STL-1)."""
        if self.stealthy(utype, nearest, close) and utype.stealth_target is not None:
            return utype.stealth_target
        return utype.target

    def on_six(self, dist: float, bearing: float, close: float) -> bool:
        """One firer at `dist`, at relative `bearing` from the model, is on its six:
        within close range and in its aft arc (EVO-SIX-1). The model is on its six when
        every model of the firing unit is."""
        return self.within_close(dist, close) and self.astern(bearing)

    def six_bonus(self, six: bool) -> int:
        """'On my six' adds 1 to every die assigned to the model (EVO-SIX-1)."""
        return 1 if six else 0

    def save_needed(self, utype: UnitType, facing: str, ap: int) -> int:
        """The Save a model needs against a die from a weapon with `ap`: by the facing
        (EVO-ARM-1), worsened by AP (EVO-DMG-2)."""
        return utype.armour.get(facing, utype.save) + ap

    # ---- a die against a model ----------------------------------------------------------

    def die_outcome(self, value: int, target: int, kill: int) -> str:
        """What a die's value (after any 'on my six' bonus) does: 'kill', 'hit' or 'miss'.

        A Kill is an upgraded hit (EVO-DMG-1/2): a value below the Target misses whatever
        the Kill score, and only a hit that also reaches the Kill removes outright.
        """
        if value < target:
            return "miss"
        return "kill" if value >= kill else "hit"

    def dodge_roll(
        self, utype: UnitType, six: bool, *, dodge_saves: bool, no_dodge_on_six: bool
    ) -> int | None:
        """The roll a model needs to dodge a Kill, or None if it may not (EVO-DMG-3):
        it needs the Dodge trait and option dodge_saves, and by option no_dodge_on_six
        a model shot on its six may not dodge."""
        dodge = utype.trait("Dodge")
        if not dodge_saves or dodge is None or (six and no_dodge_on_six):
            return None
        return dodge

    def dodges(self, roll: int, need: int) -> bool:
        """A Dodge roll succeeds at or over the number needed (EVO-DMG-3)."""
        return roll >= need

    def save_fails(self, roll: int, need: int) -> bool:
        """A Save roll fails below the score needed, and a natural 1 always fails
        (EVO-DMG-2)."""
        return roll == 1 or roll < need

    def removal_chance(
        self,
        face: int,
        utype: UnitType,
        *,
        target: int,
        save: int,
        six: bool,
        dodge_saves: bool,
        no_dodge_on_six: bool,
    ) -> Fraction:
        """The exact chance a kept die showing `face` removes its model: the steps of the
        engine's `resolve_die` (EVO-DMG-1..3, EVO-SIX-1) counted over the d6 they roll."""
        outcome = self.die_outcome(face + self.six_bonus(six), target, utype.kill)
        if outcome == "miss":
            return Fraction(0)
        fail = Fraction(sum(1 for r in D6 if self.save_fails(r, save)), 6)
        if outcome == "hit":
            return fail
        dodge = self.dodge_roll(
            utype, six, dodge_saves=dodge_saves, no_dodge_on_six=no_dodge_on_six
        )
        if dodge is None:
            return Fraction(1)
        p_dodge = Fraction(sum(1 for r in D6 if self.dodges(r, dodge)), 6)
        return (1 - p_dodge) + p_dodge * fail

    def discarded(self, face: int) -> bool:
        """Natural 1s on damage dice are discarded (EVO-SHT-3)."""
        return face == 1

    # ---- giving the dice out ------------------------------------------------------------

    def zone_is_mixed(self, units: Sequence[str]) -> bool:
        """A fire zone holding models of more than one flight (EVO-SHT-5): then every
        model takes one die first, nearest first, and the rest go to the target's flight."""
        return len(set(units)) > 1

    def first_round(
        self, kept: Sequence[T], takers: Sequence[K]
    ) -> tuple[list[tuple[K, T]], list[T]]:
        """The kept dice, highest first, one each to the takers, nearest first; and the
        dice left over (EVO-SHT-4)."""
        given = list(zip(takers, kept, strict=False))
        return given, list(kept[len(takers) :])

    def rest_takers(self, count: int, takers: Sequence[T], target: T, mode: str) -> list[T]:
        """Who takes each of `count` dice left over under a fixed rule (EVO-SHT-4
        options): `spread` goes on round the takers, nearest first; `target` puts them
        all on the nominated model (the nearest taker if it is not one)."""
        if not takers:
            return []
        if mode == "target":
            who = target if target in takers else takers[0]
            return [who] * count
        return [takers[i % len(takers)] for i in range(count)]

    def greedy_rest(
        self, survive: Sequence[Fraction], chances: Sequence[Sequence[Fraction]]
    ) -> list[int]:
        """The attacker's best allocation, die by die, highest first: each die goes to the
        taker it is likeliest to remove, given what that taker already faces (EVO-SHT-4).

        `survive[j]` is taker j's chance of surviving the dice it already has;
        `chances[d][j]` the chance die d removes taker j. Returns a taker index per die.
        The computer player and the exact odds both answer free allocation with it.
        """
        alive = list(survive)
        out = []
        for row in chances:
            best = max(range(len(alive)), key=lambda j: (alive[j] * row[j], -j))
            out.append(best)
            alive[best] *= 1 - row[best]
        return out

    # ---- movement and actions -----------------------------------------------------------

    def movement_budget(self, agility: float) -> float:
        """How far one Manoeuvre may move a model: its Agility (EVO-MOV-2)."""
        return agility

    def within_agility(self, step: float, agility: float) -> bool:
        """A manoeuvre's displacement within the model's budget (EVO-MOV-2)."""
        return step <= self.movement_budget(agility) + EPSILON

    def actions_allowed(self, *, leader_lost: bool, suppressed: bool, leader_costs: bool) -> int:
        """Actions a flight has at activation, before any Command bonus (EVO-ACT-1): one
        fewer for naming a new leader (EVO-CMD-2, option leader_loss_costs_action), one
        fewer if suppressed (EVO-SUP-1), never below none."""
        allowed = ACTIONS_PER_ACTIVATION
        if leader_lost and leader_costs:
            allowed -= 1
        if suppressed:
            allowed -= 1
        return max(0, allowed)

    def suppresses(self, dice: float, models: int, lost: bool, mode: str) -> bool:
        """Whether an enemy Shoot suppresses a flight (EVO-SUP-1, option suppression):
        `dice` is assigned at least as many dice (after the 1s) as it had `models`;
        `casualty` it lost a model; `off` never."""
        if mode == "off":
            return False
        return dice >= models if mode == "dice" else lost

    def new_heading(self, start: Vec2, end: Vec2, heading: float, min_move: float) -> float:
        """The facing after a course change: the direction from `start` to `end`, or the
        old `heading` if the net move is shorter than `min_move` (EVO-MOV-3)."""
        travel = end - start
        if travel.length() <= max(min_move, EPSILON):
            return heading
        return round(travel.angle(), 3)

    # ---- weapons --------------------------------------------------------------------------

    def weapon_may_fire(
        self, *, lock_on: bool, torpedo: bool, locked: bool, launching: bool, reaction: bool
    ) -> bool:
        """Whether a weapon may fire at all in this Shoot, range and arc aside: a Lock-on
        weapon only after a Ready at the target's flight, never in a reaction
        (EVO-RDY-1); a Torpedo only in a launch, and a launch fires only torpedoes
        (EVO-TOR-1)."""
        if lock_on and (reaction or not locked):
            return False
        return torpedo == (launching and not reaction)

    def ap(self, weapon: Weapon) -> int:
        """The weapon's AP value, 0 without the trait (EVO-DMG-2)."""
        return weapon.trait("AP") or 0
