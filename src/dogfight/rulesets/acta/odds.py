"""Exact odds of one ACTA resolution: counted with fractions, never sampled.

- `acta_dogfight`: one dogfight (d6 + Dogfight + support each, ACTA-DOG-5/6);
- `acta_attack`: one firing of a weapon (all its AD) at a fighter or a ship, to the
  damage points it does (ACTA-ATK-*, ACTA-FTR-*, ACTA-DMG-*, ACTA-RES-*).

Each is an enumeration over the engine's own steps, die by die and hit by hit, and
every rule in it is a call of the `ActaRules` passed as `rules` (default: acta's own),
the same functions the engine calls through `ctx.rules`; so a ruleset that overrides
a rule gets odds that follow it. What each assumes about the position is listed in
the result's `notes`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from dataclasses import replace as _replace
from fractions import Fraction
from functools import cache
from math import comb
from typing import TypeVar

from dogfight.core.errors import DogfightError
from dogfight.core.options import OptionValue
from dogfight.dice.exact import D6, SIXTH, Distribution, add, tidy
from dogfight.rulesets.acta import units as acta_units
from dogfight.rulesets.acta.fire_rules import drones_left, is_drone, multihit
from dogfight.rulesets.acta.rules import ActaRules, ToHit

BASE_RULES = ActaRules()

Options = Mapping[str, OptionValue]
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class DogfightOdds:
    """Who wins one ACTA dogfight."""

    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction
    attacker_bonus: int
    """Dogfight score + drones + support added to the attacker's d6."""
    defender_bonus: int
    notes: tuple[str, ...] = ()


def _add(into: dict[K, Fraction], key: K, p: Fraction) -> None:
    """`dice.exact.add` for the chain's own states (tuples and ship positions)."""
    into[key] = into.get(key, Fraction(0)) + p


def acta_weapon(unit: acta_units.UnitType, name: str) -> acta_units.Weapon:
    """A unit's weapon by name (case-insensitive); the error lists its weapons."""
    for weapon in unit.weapons:
        if weapon.name.lower() == name.strip().lower():
            return weapon
    have = ", ".join(w.name for w in unit.weapons) or "none"
    raise DogfightError(f"acta unit '{unit.id}' has no weapon '{name}'; its weapons: {have}")


def _has_drones(unit: acta_units.UnitType) -> bool:
    return any(w.dogfight_drones for w in unit.weapons)


# ---- dogfights -------------------------------------------------------------------------


def dogfight_chances(
    attacker_bonus: int, defender_bonus: int, *, rules: ActaRules = BASE_RULES
) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, tie) of one roll of d6 + bonus each, decided by
    `ActaRules.dogfight_result` (ACTA-DOG-5/6)."""
    win = lose = tie = Fraction(0)
    for fa in D6:
        for fd in D6:
            result = rules.dogfight_result(fa + attacker_bonus, fd + defender_bonus)
            if result > 0:
                win += SIXTH * SIXTH
            elif result < 0:
                lose += SIXTH * SIXTH
            else:
                tie += SIXTH * SIXTH
    return win, lose, tie


def acta_dogfight(
    attacker: acta_units.UnitType,
    defender: acta_units.UnitType,
    options: Options,
    *,
    attacker_support: int = 0,
    defender_support: int = 0,
    attacker_drones: bool = False,
    defender_drones: bool = False,
    rules: ActaRules = BASE_RULES,
) -> DogfightOdds:
    """Odds of one dogfight: each side rolls d6 + its `ActaRules.dogfight_bonus` (Dogfight,
    +2 with dogfight drones, +1 per supporting fighter); the higher total wins
    (ACTA-DOG-5). A tie leaves both locked (ACTA-DOG-6), or with `dogfight_tie=reroll`
    is rolled again until someone wins, which renormalises the wins and makes the tie 0."""
    for unit, role in ((attacker, "attacker"), (defender, "defender")):
        if not unit.is_fighter:
            raise DogfightError(f"the {role} '{unit.id}' is a ship: only fighters dogfight")
    for unit, drones in ((attacker, attacker_drones), (defender, defender_drones)):
        if drones and not _has_drones(unit):
            raise DogfightError(
                f"acta unit '{unit.id}' has no (*) weapon to swap for dogfight drones"
            )
    for support, role in ((attacker_support, "attacker"), (defender_support, "defender")):
        if support < 0:
            raise DogfightError(f"--{role}-support must not be negative, not {support}")
    a = rules.dogfight_bonus(attacker.dogfight, attacker_drones, attacker_support)
    d = rules.dogfight_bonus(defender.dogfight, defender_drones, defender_support)
    win, lose, tie = dogfight_chances(a, d, rules=rules)
    notes = ["a tie leaves both fighters locked until the next Attack Phase (dogfight_tie=locked)"]
    if options["dogfight_tie"] == "reroll":
        # Rolling again until someone wins: P(win) / P(not a tie).
        win, lose, tie = win / (1 - tie), lose / (1 - tie), Fraction(0)
        notes = ["ties are rolled again until someone wins (dogfight_tie=reroll)"]
    notes.append(f"the loser is {options['dogfight_loser']} (dogfight_loser)")
    return DogfightOdds(win, lose, tie, a, d, tuple(notes))


# ---- attacks ---------------------------------------------------------------------------


def acta_to_hit(
    weapon: acta_units.Weapon,
    target: acta_units.UnitType,
    dist: float,
    options: Options,
    *,
    rules: ActaRules = BASE_RULES,
) -> ToHit:
    """The engine's to-hit roll (`ActaRules.to_hit`) on a fresh position: no Evasive
    Action, no weapon criticals on the firer."""
    return rules.to_hit(weapon, target.is_fighter, target.hull, dist, options)


@cache
def _hit_counts(rule: ToHit, ad: int) -> dict[tuple[int, int], Fraction]:
    """(hits, hits on a natural 6) -> probability for `ad` attack dice, die by die."""
    if rule.automatic:
        return {(ad, 0): Fraction(1)}
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(ad):
        after: dict[tuple[int, int], Fraction] = {}
        for (hits, sixes), p in states.items():
            for face in D6:
                if rule.hits(face):
                    _add(after, (hits + 1, sixes + (face == 6)), p * SIXTH)
                else:
                    _add(after, (hits, sixes), p * SIXTH)
        states = after
    return states


def acta_attack(
    firer: acta_units.UnitType,
    weapon_name: str,
    target: acta_units.UnitType,
    options: Options,
    *,
    range_inches: float | None = None,
    moved: bool = True,
    rules: ActaRules = BASE_RULES,
) -> Distribution:
    """Damage points one firing of a weapon (all its AD) does to a fresh target.

    A fighter takes damage per hit it fails to dodge, up to its Damage. A ship takes
    hits in order: Dodge and Interceptors (B5, or the interceptor defensive-fire mode),
    shields absorbing per point unless the hit was a natural 6 (ACTA:SF), then one hull
    die per point left (Multihit) with Precise; a critical on the shields halves what is
    left of them for the later hits. The count is hull damage, capped at the ship's
    Damage.
    """
    weapon = acta_weapon(firer, weapon_name)
    dist = 0.0 if range_inches is None else float(range_inches)
    if not dist >= 0:  # negative, or nan (which compares false with every range)
        raise DogfightError(f"--range must be a distance of 0 inches or more, not {dist:g}")
    if dist > weapon.range:
        raise DogfightError(
            f"{weapon.name} of '{firer.id}' reaches {weapon.range:g} inches; "
            f"the target at {dist:g} is out of range"
        )
    rule = acta_to_hit(weapon, target, dist, options, rules=rules)
    ad = weapon.ad
    if is_drone(weapon):
        # ACTA-TRT-10: a fresh turn, so the whole allowance is left.
        allowed = drones_left(0, int(options["drone_limit"]))
        ad = ad if allowed is None else min(ad, allowed)
    counts = _hit_counts(rule, ad)
    b5 = options["resolution"] == "b5"
    may_dodge = rules.may_dodge(options, moved=moved)
    notes = [
        f"range {dist:g} inches"
        + (" (point blank; pass --range)" if range_inches is None else "")
        + f"; the target {'moved' if moved else 'did not move'} this turn",
        "a fresh target: full Damage and shields, no criticals, no Special Actions "
        "(no Evasive Action, Close Blast Doors or Intensify Defensive Fire)",
    ]
    facts: dict[str, str | int | float] = {"ad": ad, "range": dist}
    if rule.automatic:
        facts["to_hit"] = "automatic (Seeking)"
    else:
        facts["to_hit"] = f"{rule.need}+" + (f" {rule.modifier:+d}" if rule.modifier else "")
    if target.is_fighter:
        dodge = target.trait("Dodge")
        if weapon.has("Fighter-Killer") or not may_dodge:
            dodge = None
        odds = _fighter_damage(counts, rules.dodge_chance(dodge), target.damage, rules)
        facts["dodge"] = f"{dodge}+" if dodge is not None else "none"
    else:
        odds = _ship_damage(counts, weapon, target, options, may_dodge, dist, rules)
        interceptors = b5 or options["defensive_fire_mode"] == "interceptor"
        if interceptors:
            notes.append("no fighters on defensive fire: only the ship's own Interceptors roll")
        elif weapon.has("Seeking"):
            notes.append("no fighters on defensive fire against the Seeking attack")
        if not b5:
            facts["shields"] = target.shields
    return Distribution(tidy(odds), tuple(notes), facts)


def _fighter_damage(
    counts: Mapping[tuple[int, int], Fraction],
    p_dodge: Fraction,
    damage: int,
    rules: ActaRules,
) -> dict[int, Fraction]:
    """Each hit is dodged or not; each one not dodged does `fighter_hit_damage`."""
    per_hit = rules.fighter_hit_damage()
    odds: dict[int, Fraction] = {}
    for (hits, _), p in counts.items():
        for dodged in range(hits + 1):
            q = comb(hits, dodged) * p_dodge**dodged * (1 - p_dodge) ** (hits - dodged)
            if q:
                add(odds, min(damage, (hits - dodged) * per_hit), p * q)
    return odds


@dataclass(frozen=True, slots=True)
class _Ship:
    """Where a ship stands between two hits of one attack."""

    dealt: int
    shields: int
    intercepts: int
    dodge: bool
    crippled: bool


@cache
def _hull_dice(points: int, precise: int, rules: ActaRules) -> dict[tuple[int, bool], Fraction]:
    """(damage, any critical) -> probability for `points` hull dice (`ActaRules.hull_die`,
    ACTA-DMG-2), die by die."""
    states: dict[tuple[int, bool], Fraction] = {(0, False): Fraction(1)}
    for _ in range(points):
        after: dict[tuple[int, bool], Fraction] = {}
        for (damage, crit), p in states.items():
            for face in D6:
                dealt, critical = rules.hull_die(face, precise)
                _add(after, (damage + dealt, crit or critical), p * SIXTH)
        states = after
    return states


def _ship_damage(
    counts: Mapping[tuple[int, int], Fraction],
    weapon: acta_units.Weapon,
    ship: acta_units.UnitType,
    options: Options,
    may_dodge: bool,
    dist: float,
    rules: ActaRules,
) -> dict[int, Fraction]:
    """The engine's `combat.hit_ship` as a Markov chain over the hits."""
    b5 = options["resolution"] == "b5"
    per_hit = multihit(weapon, dist)  # Multihit, or a phaser's Kill Zone (ACTA-TRT-9)
    precise = 1 if weapon.has("Precise") else 0
    interceptors = b5 or options["defensive_fire_mode"] == "interceptor"
    own_dice = (ship.trait("Interceptors") or 0) if interceptors else 0
    dodge = ship.trait("Dodge") if b5 and may_dodge else None
    shield_crit = SIXTH if options["crit_effects"] and not b5 else Fraction(0)
    start = _Ship(0, ship.shields, 0, dodge is not None, False)
    step = _Hit(ship, per_hit, precise, b5, dodge, own_dice, shield_crit, rules)
    odds: dict[int, Fraction] = {}
    for (hits, sixes), p_counts in counts.items():
        states: dict[_Ship, Fraction] = {start: p_counts}
        for index in range(hits):
            bypass = index < sixes and not b5
            after: dict[_Ship, Fraction] = {}
            for s, p in states.items():
                for nxt, q in step.next(s, bypass):
                    _add(after, nxt, p * q)
            states = after
        for s, p in states.items():
            add(odds, s.dealt, p)
    return odds


@dataclass(frozen=True, slots=True)
class _Hit:
    """One hit on a ship, as the engine's `combat.hit_ship` resolves it."""

    ship: acta_units.UnitType
    per_hit: int
    precise: int
    b5: bool
    dodge: int | None
    own_dice: int
    shield_crit: Fraction
    rules: ActaRules

    def next(self, s: _Ship, bypass: bool) -> Iterator[tuple[_Ship, Fraction]]:
        """The next states after one hit, with their chances."""
        ship, rules = self.ship, self.rules
        if s.dealt >= ship.damage:
            yield s, Fraction(1)  # destroyed: the rest of the hits are lost
            return
        through = Fraction(1)
        if s.dodge:
            p_dodge = rules.dodge_chance(self.dodge)
            yield s, p_dodge
            through -= p_dodge
        if self.own_dice:
            need = rules.interceptor_need(s.intercepts)
            p_stop = 1 - Fraction(sum(1 for f in D6 if f < need), 6) ** self.own_dice
            yield _replace(s, intercepts=s.intercepts + 1), through * p_stop
            through *= 1 - p_stop
        points, shields = self.per_hit, s.shields
        if not self.b5 and shields > 0 and not bypass:
            taken = min(points, shields)
            shields -= taken
            points -= taken
        if points <= 0:
            yield _replace(s, shields=shields), through
            return
        for (damage, crit), q in _hull_dice(points, self.precise, rules).items():
            halves = self.shield_crit if crit else Fraction(0)
            for shield_left, r in ((shields // 2, halves), (shields, 1 - halves)):
                if r == 0:
                    continue
                yield from self.after_damage(
                    _replace(s, shields=shield_left), damage, through * q * r
                )

    def after_damage(self, s: _Ship, damage: int, p: Fraction) -> Iterator[tuple[_Ship, Fraction]]:
        """Damage, destruction and crippling (ACTA-DMG-4, ACTA-CRP-1)."""
        ship = self.ship
        dealt = min(ship.damage, s.dealt + damage)
        s = _replace(s, dealt=dealt)
        if dealt >= ship.damage or s.crippled or ship.damage - dealt > ship.crippled:
            yield s, p
            return
        # Crippled now: each trait (Dodge among them) may be lost (`ActaRules.trait_lost`).
        if s.dodge:
            lost = self.rules.face_chance(self.rules.trait_lost)
            yield _replace(s, crippled=True, dodge=False), p * lost
            yield _replace(s, crippled=True), p * (1 - lost)
        else:
            yield _replace(s, crippled=True), p
