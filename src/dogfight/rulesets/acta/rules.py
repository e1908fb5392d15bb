"""The ACTA rules as pure functions over plain values, each written once.

The engine (through `ctx.rules`), the exact odds (`acta.odds`, through `rules=`), the
computer player (through `seat.ruleset.rules`) and the browser board (through
`game.ruleset.rules`) all call these methods. A ruleset subclass that overrides one
(`rules = MyRules()`) therefore changes every one of them together.

No method here rolls dice or changes a state: each answers a question about numbers,
unit types, weapons or bearings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from dogfight.core.options import OptionValue
from dogfight.dice.exact import D6
from dogfight.geometry import Arc
from dogfight.rulesets.acta.units import Weapon

ARC_RANGES: dict[str, Arc] = {
    "F": Arc(-45, 45),
    "P": Arc(45, 135),
    "A": Arc(135, 225),
    "S": Arc(-135, -45),
    "FH": Arc(-90, 90),
    "PH": Arc(0, 180),
    "AH": Arc(90, 270),
    "SH": Arc(-180, 0),
    "T": Arc(-180, 180),
}
"""Bearings covered by each arc code; positive bearings are to port (ACTA-ARC-1)."""

DOGFIGHT_DRONE_BONUS = 2
"""The seed's (*) swap: dogfight drones add +2 to the Dogfight score (ACTA-FTR-9)."""


@dataclass(frozen=True, slots=True)
class ToHit:
    """How one attack die hits: the number needed, the modifier, or an automatic hit."""

    need: int
    modifier: int
    automatic: bool

    def hits(self, face: int) -> bool:
        """Whether a die face hits: natural 1 misses, natural 6 hits (ACTA-ATK-3)."""
        if self.automatic:
            return True
        if face == 1:
            return False
        if face == 6:
            return True
        return face + self.modifier >= self.need


class ActaRules:
    """The rule functions of ACTA; subclass and override one to vary a rule."""

    # ---- ranges and arcs -------------------------------------------------------------

    def range_between(self, centres: float, edge_a: float, edge_b: float) -> float:
        """Range between two units whose centres are `centres` apart: measured from a
        fighter's base edge (its `edge` is its base radius; a ship's is 0) (ACTA-GEN-2)."""
        d = centres
        # Subtracting a ship's 0.0 leaves the float as it was.
        d -= edge_a
        d -= edge_b
        return max(0.0, d)

    def in_arc(self, arc_code: str, bearing: float) -> bool:
        """Whether a target at `bearing` (degrees, port positive) from the firer lies in
        the arc; borders count (ACTA-ARC-1)."""
        if arc_code == "T":
            return True
        return ARC_RANGES[arc_code].contains(bearing)

    # ---- to hit ----------------------------------------------------------------------

    def to_hit_modifier(
        self,
        weapon: Weapon,
        target_is_fighter: bool,
        options: Mapping[str, OptionValue],
        *,
        evasive: bool = False,
        weapon_crits: int = 0,
    ) -> int:
        """What is added to each attack die: Accurate (ACTA-TRT-2), Weak -1 (ACTA-TRT-7),
        the penalty against fighters unless Fighter-Killer (ACTA-FTR-4, ACTA-TRT-8),
        Evasive Action -1 (ACTA-SPA-5) and the firer's weapons critical level."""
        modifier = weapon.trait("Accurate") or 0
        if weapon.has("Weak"):
            modifier -= 1
        if target_is_fighter and not weapon.has("Fighter-Killer"):
            modifier -= int(options["fighter_to_hit_penalty"])
        if evasive:
            modifier -= 1
        return modifier - weapon_crits

    def to_hit(
        self,
        weapon: Weapon,
        target_is_fighter: bool,
        target_hull: int,
        dist: float,
        options: Mapping[str, OptionValue],
        *,
        evasive: bool = False,
        weapon_crits: int = 0,
    ) -> ToHit:
        """The to-hit roll of one weapon at a target `dist` inches away.

        Seeking weapons hit ships automatically within `seeking_range`, and fighters
        too with `drone_vs_fighter=auto` (ACTA-TRT-6); an evasive ship may still escape
        them by the opposed roll (ACTA-SPA-9, not here). Otherwise each die needs 4+
        within half range, else 5+ (ACTA-ATK-2), or the target's Hull score on the B5
        table (ACTA-RES-2), with `to_hit_modifier` added."""
        seeking_auto = not target_is_fighter or options["drone_vs_fighter"] == "auto"
        if weapon.has("Seeking") and dist <= float(options["seeking_range"]) and seeking_auto:
            return ToHit(need=0, modifier=0, automatic=True)
        modifier = self.to_hit_modifier(
            weapon, target_is_fighter, options, evasive=evasive, weapon_crits=weapon_crits
        )
        if options["resolution"] == "b5":
            if target_is_fighter:
                need = int(options["b5_fighter_hull"])
            else:
                need = target_hull or int(options["b5_default_hull"])
        else:
            need = 4 if dist <= weapon.range / 2 else 5
        return ToHit(need=need, modifier=modifier, automatic=False)

    def hit_chance(self, rule: ToHit) -> Fraction:
        """The chance one attack die hits under `rule`."""
        return Fraction(sum(1 for face in D6 if rule.hits(face)), 6)

    # ---- Dodge -----------------------------------------------------------------------

    def dodges(self, face: int, dodge: int) -> bool:
        """Whether a Dodge die showing `face` dodges a hit on Dodge `dodge`+ (ACTA-FTR-6)."""
        return face >= dodge

    def may_dodge(
        self,
        options: Mapping[str, OptionValue],
        *,
        moved: bool,
        engaged: bool = False,
        escorting: bool = False,
    ) -> bool:
        """Whether a unit may use its Dodge: always, unless `dodge_requires_move`; then
        only if it moved (or was carried) this turn, is locked in a dogfight, or supports
        a ship, which counts as moving with it (PROPOSAL) (ACTA-FTR-6)."""
        if not options["dodge_requires_move"]:
            return True
        return moved or engaged or escorting

    def dodge_chance(self, dodge: int | None) -> Fraction:
        """The chance one hit is dodged on Dodge `dodge`+ (None: no Dodge) (ACTA-FTR-6)."""
        if dodge is None:
            return Fraction(0)
        return Fraction(sum(1 for face in D6 if self.dodges(face, dodge)), 6)

    # ---- Special Actions -------------------------------------------------------------

    def intensified_ad(self, ad: int) -> int:
        """A ship on Intensify Defensive Fire fires its own weapons at half strength,
        rounded up (ACTA-SPA-4)."""
        return (ad + 1) // 2

    def intensify_factor(self, intensify: bool) -> int:
        """How many times a ship's defensive fire (its own and its fighters') rolls:
        doubled on Intensify Defensive Fire (ACTA-SPA-4)."""
        return 2 if intensify else 1

    # ---- dogfights -------------------------------------------------------------------

    def dogfight_score(self, dogfight: int, drones: bool) -> int:
        """A fighter's Dogfight score, +2 with dogfight drones (ACTA-FTR-9)."""
        return dogfight + (DOGFIGHT_DRONE_BONUS if drones else 0)

    def dogfight_bonus(self, dogfight: int, drones: bool, support: int) -> int:
        """What a fighter adds to its d6 in a dogfight: its Dogfight score (with
        drones) and one per supporting fighter (ACTA-DOG-3, ACTA-DOG-5)."""
        return self.dogfight_score(dogfight, drones) + support

    def dogfight_result(self, attacker_total: int, defender_total: int) -> int:
        """1 if the attacker wins the dogfight, -1 if the defender does, 0 for a tie:
        the higher total wins (ACTA-DOG-5, ACTA-DOG-6)."""
        return (attacker_total > defender_total) - (attacker_total < defender_total)

    # ---- fighters, Interceptors and ship damage ---------------------------------------

    def ship_speed(self, speed: float, *, all_power: bool, drive_crits: int, slowed: bool) -> float:
        """How far a ship may move this turn: its Speed, 16" on All Power to Engines
        (ACTA-SPA-2), 2" less per level of drive critical when critical effects are in
        use (ACTA-CRT-2), and at most 6" when crippled, evading or drained (ACTA-MOV-2,
        ACTA-MOV-3, ACTA-SPA-5)."""
        if all_power:
            speed = 16.0
        speed -= 2 * drive_crits
        if slowed:
            speed = min(speed, 6.0)
        return max(0.0, speed)

    def fighter_budget(self, speed: float, carried: float, moved: float) -> float:
        """Inches a fighter may still move this turn: its Speed less what it was carried
        and what it has moved (ACTA-FTR-2)."""
        return max(0.0, speed - carried - moved)

    def fighter_hit_damage(self) -> int:
        """Damage points each hit a fighter does not dodge costs it (ACTA-FTR-5)."""
        return 1

    def turn_inches(self, turn: int | None, crippled: bool) -> float | None:
        """Inches a ship moves straight before each turn, from its Turn score (None: a
        super-manoeuvrable ship, which turns freely); crippling doubles it, and a
        crippled SM ship needs 2" (ACTA-MOV-3)."""
        if turn is None:
            return 2.0 if crippled else None
        return float(turn * 2 if crippled else turn)

    def interceptor_need(self, used: int) -> int:
        """The roll an Interceptor die needs after `used` successes this turn: 2+, then
        3+, up to 6+ (ACTA-RES-4)."""
        return min(6, 2 + used)

    def face_chance(self, hits: Callable[[int], bool]) -> Fraction:
        """The chance one d6 satisfies `hits` (one of the face rules here)."""
        return Fraction(sum(1 for face in D6 if hits(face)), 6)

    def defensive_fire_stops(self, face: int) -> bool:
        """A defensive-fire die stops one incoming Seeking die on 4+ (ACTA-SUP-6)."""
        return face >= 4

    def defensive_fire_hurts(self, face: int) -> bool:
        """A natural 1 on a fighter's defensive-fire die costs it a point (ACTA-SUP-6)."""
        return face == 1

    def anti_fighter_hits(self, face: int) -> bool:
        """An Anti-Fighter die hits the nearest enemy fighter on 4+ (ACTA-RES-5)."""
        return face >= 4

    def blast_doors_save(self, face: int) -> bool:
        """Close Blast Doors saves one damage point on 5+ (ACTA-SPA-3)."""
        return face >= 5

    def trait_lost(self, face: int) -> bool:
        """A ship crippled now loses each trait rolled for on 4+ (ACTA-CRP-1)."""
        return face >= 4

    def hull_die(self, face: int, precise: int) -> tuple[int, bool]:
        """(damage, critical) of one hull die with Precise +`precise`: 1 nothing, 2-5 one
        damage, 6 one damage and a critical (ACTA-DMG-2, ACTA-TRT-3)."""
        total = face + precise
        if total <= 1:
            return 0, False
        return 1, total >= 6
