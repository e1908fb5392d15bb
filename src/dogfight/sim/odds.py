"""Exact odds of one resolution: counted with fractions, never sampled.

Each function mirrors one engine resolution on a fresh position and returns the
whole outcome distribution as exact `Fraction`s:

- `acta_dogfight`: one ACTA dogfight (d6 + Dogfight + support each, ACTA-DOG-5/6);
- `acta_attack`: one firing of an ACTA weapon (all its AD) at a fighter or a ship,
  to the damage points it does (ACTA-ATK-*, ACTA-FTR-*, ACTA-DMG-*, ACTA-RES-*);
- `evo_attack`: one Shoot of an EVO flight with one weapon at a flight, to the
  models removed (EVO-SHT-*, EVO-DMG-*, EVO-STL-1, EVO-SIX-1);
- `sfa_pool`: one SFA dice pool (`pool.exact_distribution`).

What each one assumes about the position is listed in the result's `notes`. Tests
check every kind against the engine by Monte Carlo (tests/sim/test_odds.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from dataclasses import replace as _replace
from fractions import Fraction
from functools import cache
from math import factorial

from dogfight.core.errors import DogfightError
from dogfight.core.options import OptionValue, resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.dice.exact import (
    D6,
    SIXTH,
    Distribution,
    PoolOdds,
    add,
    compositions,
    multinomial,
    poisson_binomial,
    tidy,
)
from dogfight.rulesets.acta import units as acta_units
from dogfight.rulesets.acta.combat import ToHit
from dogfight.rulesets.acta.dogfight import DOGFIGHT_DRONE_BONUS
from dogfight.rulesets.acta.fire_rules import drones_left, is_drone, multihit
from dogfight.rulesets.evo import units as evo_units
from dogfight.rulesets.evo.shooting import die_outcome, greedy_rest, save_fails, six_bonus
from dogfight.rulesets.sfa.pool import DEFAULT_DIFFICULTY, exact_distribution

Options = Mapping[str, OptionValue]


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


def rule_options(ruleset: str, rules: Mapping[str, object]) -> dict[str, OptionValue]:
    """The ruleset's full option set with `--rule` overrides (unknown or bad ones refused)."""
    return resolve_options(find_ruleset(ruleset).options, (rules, "--rule"))


# The generic counting pieces live in dice/exact.py; the old private names stay until
# the per-ruleset parts below move to their rulesets.
_tidy = tidy
_add = add
_compositions = compositions
_multinomial = multinomial
_poisson_binomial = poisson_binomial


# ---- ACTA ------------------------------------------------------------------------------


def acta_weapon(unit: acta_units.UnitType, name: str) -> acta_units.Weapon:
    """A unit's weapon by name (case-insensitive); the error lists its weapons."""
    for weapon in unit.weapons:
        if weapon.name.lower() == name.strip().lower():
            return weapon
    have = ", ".join(w.name for w in unit.weapons) or "none"
    raise DogfightError(f"acta unit '{unit.id}' has no weapon '{name}'; its weapons: {have}")


def _has_drones(unit: acta_units.UnitType) -> bool:
    return any(w.dogfight_drones for w in unit.weapons)


def acta_dogfight(
    attacker: acta_units.UnitType,
    defender: acta_units.UnitType,
    options: Options,
    *,
    attacker_support: int = 0,
    defender_support: int = 0,
    attacker_drones: bool = False,
    defender_drones: bool = False,
) -> DogfightOdds:
    """Odds of one dogfight: each side rolls d6 + Dogfight (+2 with dogfight drones)
    + one per supporting fighter; the higher total wins (ACTA-DOG-5). A tie leaves both
    locked (ACTA-DOG-6), or with `dogfight_tie=reroll` is rolled again until someone
    wins, which renormalises the wins and makes the tie 0."""
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
    a = attacker.dogfight + (DOGFIGHT_DRONE_BONUS if attacker_drones else 0) + attacker_support
    d = defender.dogfight + (DOGFIGHT_DRONE_BONUS if defender_drones else 0) + defender_support
    win = lose = tie = Fraction(0)
    for fa in D6:
        for fd in D6:
            if fa + a > fd + d:
                win += SIXTH * SIXTH
            elif fa + a < fd + d:
                lose += SIXTH * SIXTH
            else:
                tie += SIXTH * SIXTH
    notes = ["a tie leaves both fighters locked until the next Attack Phase (dogfight_tie=locked)"]
    if options["dogfight_tie"] == "reroll":
        # Rolling again until someone wins: P(win) / P(not a tie).
        win, lose, tie = win / (1 - tie), lose / (1 - tie), Fraction(0)
        notes = ["ties are rolled again until someone wins (dogfight_tie=reroll)"]
    notes.append(f"the loser is {options['dogfight_loser']} (dogfight_loser)")
    return DogfightOdds(win, lose, tie, a, d, tuple(notes))


def acta_to_hit(
    weapon: acta_units.Weapon, target: acta_units.UnitType, dist: float, options: Options
) -> ToHit:
    """The engine's `combat.to_hit` on a fresh position: no Evasive Action, no weapon
    criticals on the firer."""
    target_is_fighter = target.is_fighter
    seeking_auto = not target_is_fighter or options["drone_vs_fighter"] == "auto"
    if weapon.has("Seeking") and dist <= float(options["seeking_range"]) and seeking_auto:
        return ToHit(need=0, modifier=0, automatic=True)
    modifier = weapon.trait("Accurate") or 0
    if weapon.has("Weak"):
        modifier -= 1
    if target_is_fighter and not weapon.has("Fighter-Killer"):
        modifier -= int(options["fighter_to_hit_penalty"])
    if options["resolution"] == "b5":
        if target_is_fighter:
            need = int(options["b5_fighter_hull"])
        else:
            need = target.hull or int(options["b5_default_hull"])
    else:
        need = 4 if dist <= weapon.range / 2 else 5
    return ToHit(need=need, modifier=modifier, automatic=False)


def _hit_counts(rule: ToHit, ad: int) -> dict[tuple[int, int], Fraction]:
    """(hits, hits on a natural 6) -> probability, for `ad` attack dice."""
    if rule.automatic:
        return {(ad, 0): Fraction(1)}
    p_six = SIXTH if rule.hits(6) else Fraction(0)
    p_hit = Fraction(sum(1 for f in range(1, 6) if rule.hits(f)), 6)
    p_miss = 1 - p_six - p_hit
    out: dict[tuple[int, int], Fraction] = {}
    for misses, plain, sixes in _compositions(ad, 3):
        p = _multinomial((misses, plain, sixes), (p_miss, p_hit, p_six))
        if p:
            key = (plain + sixes, sixes)
            out[key] = out.get(key, Fraction(0)) + p
    return out


def _dodge_chance(dodge: int | None) -> Fraction:
    return Fraction(0) if dodge is None else Fraction(sum(1 for f in D6 if f >= dodge), 6)


def acta_attack(
    firer: acta_units.UnitType,
    weapon_name: str,
    target: acta_units.UnitType,
    options: Options,
    *,
    range_inches: float | None = None,
    moved: bool = True,
) -> Distribution:
    """Damage points one firing of a weapon (all its AD) does to a fresh target.

    A fighter takes one point per hit it fails to dodge, up to its Damage. A ship
    takes hits in order: Dodge and Interceptors (B5, or the interceptor defensive-fire
    mode), shields absorbing per point unless the hit was a natural 6 (ACTA:SF), then
    one hull die per point left (Multihit) with Precise; a critical on the shields
    halves what is left of them for the later hits. The count is hull damage, capped
    at the ship's Damage.
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
    rule = acta_to_hit(weapon, target, dist, options)
    ad = weapon.ad
    if is_drone(weapon):
        # ACTA-TRT-10: a fresh turn, so the whole allowance is left.
        allowed = drones_left(0, int(options["drone_limit"]))
        ad = ad if allowed is None else min(ad, allowed)
    counts = _hit_counts(rule, ad)
    b5 = options["resolution"] == "b5"
    may_dodge = moved or not options["dodge_requires_move"]
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
        odds = _fighter_damage(counts, _dodge_chance(dodge), target.damage)
        facts["dodge"] = f"{dodge}+" if dodge is not None else "none"
    else:
        odds = _ship_damage(counts, weapon, target, options, may_dodge, dist)
        interceptors = b5 or options["defensive_fire_mode"] == "interceptor"
        if interceptors:
            notes.append("no fighters on defensive fire: only the ship's own Interceptors roll")
        elif weapon.has("Seeking"):
            notes.append("no fighters on defensive fire against the Seeking attack")
        if not b5:
            facts["shields"] = target.shields
    return Distribution(_tidy(odds), tuple(notes), facts)


def _fighter_damage(
    counts: Mapping[tuple[int, int], Fraction], p_dodge: Fraction, damage: int
) -> dict[int, Fraction]:
    odds: dict[int, Fraction] = {}
    for (hits, _), p in counts.items():
        for dodged in range(hits + 1):
            q = Fraction(factorial(hits), factorial(dodged) * factorial(hits - dodged))
            q *= p_dodge**dodged * (1 - p_dodge) ** (hits - dodged)
            if q:
                _add(odds, min(damage, hits - dodged), p * q)
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
def _hull_dice(points: int, precise: int) -> dict[tuple[int, bool], Fraction]:
    """(damage, any critical) -> probability for `points` hull dice (ACTA-DMG-2)."""
    p_none = Fraction(sum(1 for f in D6 if f + precise <= 1), 6)
    p_crit = Fraction(sum(1 for f in D6 if f + precise >= 6), 6)
    p_dmg = 1 - p_none - p_crit
    out: dict[tuple[int, bool], Fraction] = {}
    for none, dmg, crit in _compositions(points, 3):
        p = _multinomial((none, dmg, crit), (p_none, p_dmg, p_crit))
        if p:
            key = (dmg + crit, crit > 0)
            out[key] = out.get(key, Fraction(0)) + p
    return out


def _ship_damage(
    counts: Mapping[tuple[int, int], Fraction],
    weapon: acta_units.Weapon,
    ship: acta_units.UnitType,
    options: Options,
    may_dodge: bool,
    dist: float = 0.0,
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
    odds: dict[int, Fraction] = {}
    for (hits, sixes), p_counts in counts.items():
        states: dict[_Ship, Fraction] = {start: p_counts}
        for index in range(hits):
            bypass = index < sixes and not b5
            after: dict[_Ship, Fraction] = {}
            for s, p in states.items():
                for nxt, q in _one_hit(
                    s, ship, per_hit, precise, bypass, b5, dodge, own_dice, shield_crit
                ):
                    after[nxt] = after.get(nxt, Fraction(0)) + p * q
            states = after
        for s, p in states.items():
            _add(odds, s.dealt, p)
    return odds


def _one_hit(
    s: _Ship,
    ship: acta_units.UnitType,
    per_hit: int,
    precise: int,
    bypass: bool,
    b5: bool,
    dodge: int | None,
    own_dice: int,
    shield_crit: Fraction,
) -> Iterator[tuple[_Ship, Fraction]]:
    """The next states after one hit, with their chances."""
    if s.dealt >= ship.damage:
        yield s, Fraction(1)  # destroyed: the rest of the hits are lost
        return
    through = Fraction(1)
    if s.dodge:
        p_dodge = _dodge_chance(dodge)
        yield s, p_dodge
        through -= p_dodge
    if own_dice:
        need = min(6, 2 + s.intercepts)
        p_stop = 1 - Fraction(need - 1, 6) ** own_dice
        yield _replace(s, intercepts=s.intercepts + 1), through * p_stop
        through *= 1 - p_stop
    points, shields = per_hit, s.shields
    if not b5 and shields > 0 and not bypass:
        taken = min(points, shields)
        shields -= taken
        points -= taken
    if points <= 0:
        yield _replace(s, shields=shields), through
        return
    for (damage, crit), q in _hull_dice(points, precise).items():
        halves = shield_crit if crit else Fraction(0)
        for shield_left, r in ((shields // 2, halves), (shields, 1 - halves)):
            if r == 0:
                continue
            yield from _after_damage(
                _replace(s, shields=shield_left), ship, damage, through * q * r
            )


def _after_damage(
    s: _Ship, ship: acta_units.UnitType, damage: int, p: Fraction
) -> Iterator[tuple[_Ship, Fraction]]:
    """Damage, destruction and crippling (ACTA-DMG-4, ACTA-CRP-1)."""
    dealt = min(ship.damage, s.dealt + damage)
    s = _replace(s, dealt=dealt)
    if dealt >= ship.damage or s.crippled or ship.damage - dealt > ship.crippled:
        yield s, p
        return
    # Crippled now: each trait (Dodge among them) is lost on a 4+.
    if s.dodge:
        yield _replace(s, crippled=True, dodge=False), p / 2
        yield _replace(s, crippled=True), p / 2
    else:
        yield _replace(s, crippled=True), p


# ---- EVO -------------------------------------------------------------------------------


def evo_weapon(unit: evo_units.UnitType, name: str) -> evo_units.Weapon:
    """A flight type's weapon by name (case-insensitive); the error lists its weapons."""
    for weapon in unit.weapons:
        if weapon.name.lower() == name.strip().lower():
            return weapon
    have = ", ".join(w.name for w in unit.weapons) or "none"
    raise DogfightError(f"evo unit '{unit.id}' has no weapon '{name}'; its weapons: {have}")


def evo_removal_chance(
    face: int,
    target: evo_units.UnitType,
    options: Options,
    *,
    target_score: int,
    save_needed: int,
    six: bool,
) -> Fraction:
    """P(one damage die showing `face` removes its model): the engine's `resolve_die`."""
    outcome = die_outcome(face + six_bonus(six), target_score, target.kill)
    if outcome == "miss":
        return Fraction(0)
    p_fail_save = Fraction(sum(1 for r in D6 if save_fails(r, save_needed)), 6)
    if outcome == "kill":
        dodge = target.trait("Dodge")
        may_dodge = bool(options["dodge_saves"]) and dodge is not None
        if may_dodge and six and options["no_dodge_on_six"]:
            may_dodge = False
        if not may_dodge:
            return Fraction(1)
        p_dodge = _dodge_chance(dodge)
        return (1 - p_dodge) + p_dodge * p_fail_save
    return p_fail_save


def evo_attack(
    firer: evo_units.UnitType,
    weapon_name: str,
    target: evo_units.UnitType,
    options: Options,
    *,
    range_inches: float | None = None,
    six: bool = False,
    models: int | None = None,
    firers: int | None = None,
) -> Distribution:
    """Models removed from a target flight by one Shoot with one weapon.

    Every firing model is in range and arc and adds the weapon's dice; every target
    model is in the fire zone, all at the same distance. The dice are rolled, 1s
    discarded, and the highest die goes to the nearest model and on round the flight
    (EVO-SHT-4); each model's dice are resolved until one removes it.
    """
    weapon = evo_weapon(firer, weapon_name)
    count = target.models if models is None else models
    shooters = firer.models if firers is None else firers
    if count < 1:
        raise DogfightError(f"--models must be at least 1, not {count}")
    if shooters < 1:
        raise DogfightError(f"--firers must be at least 1, not {shooters}")
    dist = 0.0 if range_inches is None else float(range_inches)
    if not dist >= 0:  # negative, or nan (which compares false with every range)
        raise DogfightError(f"--range must be a distance of 0 inches or more, not {dist:g}")
    if dist > weapon.range:
        raise DogfightError(
            f"{weapon.name} of '{firer.id}' reaches {weapon.range:g} inches; "
            f"the target at {dist:g} is out of range"
        )
    close = float(options["close_range"])
    if six and dist > close:
        raise DogfightError(
            f"--six needs the firers within close range ({close:g} inches), not {dist:g}"
        )
    stealthy = target.stealth_target is not None and dist > close + 1e-3
    target_score = target.stealth_target if stealthy and target.stealth_target else target.target
    facing = "aft" if six else "front"
    save_needed = target.armour.get(facing, target.save) + (weapon.trait("AP") or 0)
    dice = shooters * weapon.dice
    if dice > 200:
        raise DogfightError(f"{dice} dice is too many to count exactly (at most 200)")
    chance = {
        face: evo_removal_chance(
            face, target, options, target_score=target_score, save_needed=save_needed, six=six
        )
        for face in range(2, weapon.die + 1)
    }
    # Faces with the same chance are interchangeable once sorted (the chance never falls
    # as the face rises), so dice are counted by kind: discarded 1s, then each band of
    # faces from the highest down.
    bands: list[tuple[Fraction, Fraction]] = []  # (P(face in band), removal chance)
    for face in range(weapon.die, 1, -1):
        p_face = Fraction(1, weapon.die)
        if bands and bands[-1][1] == chance[face]:
            bands[-1] = (bands[-1][0] + p_face, chance[face])
        else:
            bands.append((p_face, chance[face]))
    p_one = Fraction(1, weapon.die)
    rule = options["free_allocation"]
    odds: dict[int, Fraction] = {}
    for counts in _compositions(dice, len(bands) + 1):
        p = _multinomial(counts, (p_one, *(b[0] for b in bands)))
        if not p:
            continue
        kept: list[Fraction] = []
        for n, (_, c) in zip(counts[1:], bands, strict=True):
            kept.extend([c] * n)
        survive = [Fraction(1)] * count
        for i, c in enumerate(kept[:count]):
            survive[i] *= 1 - c  # EVO-SHT-4: one each, highest to nearest
        rest = kept[count:]
        if rule == "choose":
            # The attacker's choice: the computer player's greedy_rest, the same function.
            picks = greedy_rest(survive, [[c] * count for c in rest])
        elif rule == "spread":
            picks = [i % count for i in range(len(rest))]
        else:  # target: the nominated model is taken to be the nearest
            picks = [0] * len(rest)
        for c, who in zip(rest, picks, strict=True):
            survive[who] *= 1 - c
        for removed, q in _poisson_binomial([1 - s for s in survive]).items():
            _add(odds, removed, p * q)
    notes = [
        f"{shooters} firing model(s) x {weapon.dice} {weapon.name} dice, all in range and arc",
        f"{count} target model(s), all in the fire zone at the same distance",
        f"range {dist:g} inches" + (" (pass --range)" if range_inches is None else ""),
        "shot at its aft from close range (on my six, +1)" if six else "shot from the front",
    ]
    if rule == "choose":
        notes.append("dice left over placed as the computer player would (greedy_rest)")
    if weapon.trait("Lock-on") is not None:
        notes.append("a Lock-on weapon: the flight is taken to have Readied at the target")
    facts: dict[str, str | int | float] = {
        "dice": dice,
        "die": f"d{weapon.die}",
        "target": target_score,
        "save": save_needed,
        "kill": target.kill,
    }
    return Distribution(_tidy(odds), tuple(notes), facts)


# ---- SFA -------------------------------------------------------------------------------


def sfa_pool(
    dice: int, *, willpower: bool = False, difficulty: int = DEFAULT_DIFFICULTY
) -> PoolOdds:
    """The exact odds of one SFA pool (`pool.exact_distribution`)."""
    if dice < 1:
        raise DogfightError(f"a pool has at least one die, not {dice}")
    if dice > 200:
        raise DogfightError(f"{dice} dice is too many to count exactly (at most 200)")
    try:
        net, botch = exact_distribution(dice, willpower=willpower, difficulty=difficulty)
    except ValueError as exc:
        raise DogfightError(str(exc)) from None
    return PoolOdds(_tidy(net), botch)
