"""Exact odds of one EVO Shoot: counted with fractions over the engine's own steps.

`evo_attack` follows one Shoot of a flight with one weapon at a flight on a fresh
position, to the models removed (EVO-SHT-*, EVO-DMG-*, EVO-STL-1, EVO-SIX-1). Every
rule it applies (the Target, the Save, the six bonus, the dodge, the discarded 1s,
the dice given out) is a method of the `rules` object it is given, the same one the
engine resolves with, so a ruleset that changes one rule changes its odds too. What it
assumes about the position is listed in the result's `notes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from dogfight.core.errors import DogfightError
from dogfight.core.options import OptionValue
from dogfight.dice.exact import (
    Distribution,
    add,
    compositions,
    multinomial,
    poisson_binomial,
    tidy,
)
from dogfight.rulesets.evo.context import DEFAULT_RULES
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.units import UnitType, Weapon

Options = Mapping[str, OptionValue]

MAX_DICE = 200
"""The most dice one exact count takes."""


def evo_weapon(unit: UnitType, name: str) -> Weapon:
    """A flight type's weapon by name (case-insensitive); the error lists its weapons."""
    for weapon in unit.weapons:
        if weapon.name.lower() == name.strip().lower():
            return weapon
    have = ", ".join(w.name for w in unit.weapons) or "none"
    raise DogfightError(f"evo unit '{unit.id}' has no weapon '{name}'; its weapons: {have}")


def evo_removal_chance(
    face: int,
    target: UnitType,
    options: Options,
    *,
    target_score: int,
    save_needed: int,
    six: bool,
    rules: EvoRules = DEFAULT_RULES,
) -> Fraction:
    """P(one damage die showing `face` removes its model): the engine's `resolve_die`."""
    return rules.removal_chance(
        face,
        target,
        target=target_score,
        save=save_needed,
        six=six,
        dodge_saves=bool(options["dodge_saves"]),
        no_dodge_on_six=bool(options["no_dodge_on_six"]),
    )


def evo_attack(
    firer: UnitType,
    weapon_name: str,
    target: UnitType,
    options: Options,
    *,
    range_inches: float | None = None,
    six: bool = False,
    models: int | None = None,
    firers: int | None = None,
    rules: EvoRules = DEFAULT_RULES,
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
    if not rules.in_range(dist, weapon.range):
        raise DogfightError(
            f"{weapon.name} of '{firer.id}' reaches {weapon.range:g} inches; "
            f"the target at {dist:g} is out of range"
        )
    close = float(options["close_range"])
    if six and not rules.within_close(dist, close):
        raise DogfightError(
            f"--six needs the firers within close range ({close:g} inches), not {dist:g}"
        )
    target_score = rules.target_number(target, dist, close)
    # On its six every firer is astern of the target; otherwise they are taken ahead.
    facing = rules.facing_of(180.0 if six else 0.0)
    save_needed = rules.save_needed(target, facing, rules.ap(weapon))
    dice = shooters * weapon.dice
    if dice > MAX_DICE:
        raise DogfightError(f"{dice} dice is too many to count exactly (at most {MAX_DICE})")
    faces = range(1, weapon.die + 1)
    chance = {
        face: evo_removal_chance(
            face,
            target,
            options,
            target_score=target_score,
            save_needed=save_needed,
            six=six,
            rules=rules,
        )
        for face in faces
        if not rules.discarded(face)
    }
    # Faces with the same chance are interchangeable once sorted (the chance never falls
    # as the face rises), so dice are counted by kind: discarded faces, then each band
    # of kept faces from the highest down.
    p_face = Fraction(1, weapon.die)
    p_discarded = p_face * sum(1 for face in faces if rules.discarded(face))
    bands: list[tuple[Fraction, Fraction]] = []  # (P(face in band), removal chance)
    for face in sorted(chance, reverse=True):
        if bands and bands[-1][1] == chance[face]:
            bands[-1] = (bands[-1][0] + p_face, chance[face])
        else:
            bands.append((p_face, chance[face]))
    mode = str(options["free_allocation"])
    nearest = list(range(count))
    odds: dict[int, Fraction] = {}
    for counts in compositions(dice, len(bands) + 1):
        p = multinomial(counts, (p_discarded, *(b[0] for b in bands)))
        if not p:
            continue
        kept: list[Fraction] = []
        for n, (_, c) in zip(counts[1:], bands, strict=True):
            kept.extend([c] * n)
        survive = [Fraction(1)] * count
        first, rest = rules.first_round(kept, nearest)  # EVO-SHT-4: one each, nearest first
        for who, c in first:
            survive[who] *= 1 - c
        if mode == "choose":
            # The attacker's choice: the computer player's greedy_rest, the same function.
            picks = rules.greedy_rest(survive, [[c] * count for c in rest])
        else:  # spread, or target (the nominated model is taken to be the nearest)
            picks = rules.rest_takers(len(rest), nearest, 0, mode)
        for c, who in zip(rest, picks, strict=True):
            survive[who] *= 1 - c
        for removed, q in poisson_binomial([1 - s for s in survive]).items():
            add(odds, removed, p * q)
    notes = [
        f"{shooters} firing model(s) x {weapon.dice} {weapon.name} dice, all in range and arc",
        f"{count} target model(s), all in the fire zone at the same distance",
        f"range {dist:g} inches" + (" (pass --range)" if range_inches is None else ""),
        f"shot at its aft from close range (on my six, {rules.six_bonus(True):+d})"
        if six
        else "shot from the front",
    ]
    if mode == "choose":
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
    return Distribution(tidy(odds), tuple(notes), facts)


__all__ = ["Distribution", "evo_attack", "evo_removal_chance", "evo_weapon"]
