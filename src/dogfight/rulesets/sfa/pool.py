"""Storyteller dice pools as Space Fighter Alpha uses them (seed 003, "Attacking").

An attack is a pool of d10s rolled against a difficulty (normally 6). Each die at or
above the difficulty is a success; each 1 takes one success away; a roll with more 1s
than successes is a botch (SFA's own definition, which is also the 1st/2nd-edition
Storyteller one: rules-notes C.1, C.7.8). One Willpower point buys a success that the 1s
cannot cancel. A pool is never smaller than one die.

Nothing here knows about craft, maps or game state: callers pass in the numbers and a
`Dice` object, so the same code serves attacks, missiles, Plasma Fields and tractor-beam
contests, and tests can script every face.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from fractions import Fraction
from math import factorial

import msgspec

from dogfight.dice import Dice

SIDES = 10
"""Storyteller pools are d10s."""

DEFAULT_DIFFICULTY = 6
"""SFA: "any roll of 6 or more is considered a success"."""

MIN_POOL = 1
"""However big the target's Soak, at least one die is rolled."""

SCALE_STEP_SUCCESSES = 5
"""Successes removed (firing up) or added (firing down) per step of scale."""


class Scale(IntEnum):
    """The scale ladder for interscale combat, smallest first (rules-notes C.7.16).

    Only the difference between two scales matters, so any int works as a scale; a
    target whose Enhanced Soak makes it count one scale higher is simply `scale + 1`.
    """

    STREET_FIGHTER = 0
    STARFIGHTER = 1
    STARSHIP = 2


class PoolResult(msgspec.Struct, frozen=True, kw_only=True):
    """What one pool roll came to, with every face kept for the event log."""

    faces: tuple[int, ...]
    """Every die rolled, in the order rolled."""
    successes: int
    """Dice at or above the difficulty."""
    ones: int
    """Dice showing 1; each cancels one success."""
    net: int
    """Successes left after the 1s (never below 0), plus the bought Willpower success."""
    botch: bool
    """More 1s than successes, and no Willpower success bought."""
    dice: int
    """How many dice were actually rolled (the pool after the one-die minimum)."""
    willpower: bool = False
    """Whether a Willpower point bought a guaranteed success."""
    difficulty: int = DEFAULT_DIFFICULTY
    """The target number each die had to reach."""


def _check_difficulty(difficulty: int) -> None:
    # A 1 is always a failure that cancels, so difficulty 1 would make 1s count twice;
    # above 10 nothing could succeed on a d10.
    if not 2 <= difficulty <= SIDES:
        raise ValueError(f"difficulty must be 2..{SIDES}, got {difficulty}")


def attack_pool(
    dexterity: int,
    skill: int,
    handling: int,
    weapon_modifier: int,
    target_soak: int,
    *,
    removed_for_speed: int = 0,
) -> int:
    """The number of dice an attack rolls.

    Adds the shooter's Dexterity, its skill (Piloting for the pilot, Gunnery for a
    dedicated gunner), the craft's current Handling and the weapon's Damage modifier,
    then takes away the target's total Soak and any dice the shooter gave up to raise
    its Speed (one die per point of Speed: rules-notes C.7.3). The result is never
    below one die. `target_soak` is the *total* Soak (pilot Dexterity + Piloting +
    craft Soak + Handling + maneuvers), not the craft's Soak stat.
    """
    if removed_for_speed < 0:
        raise ValueError(f"removed_for_speed cannot be negative, got {removed_for_speed}")
    raw = dexterity + skill + handling + weapon_modifier - target_soak - removed_for_speed
    return max(MIN_POOL, raw)


Judge = Callable[[int, int, bool], tuple[int, bool]]
"""(successes, ones, willpower) -> (net successes, botch): how a roll is counted."""


def judge(successes: int, ones: int, willpower: bool) -> tuple[int, bool]:
    """Net successes and botch for a roll with these counts."""
    net = max(0, successes - ones) + (1 if willpower else 0)
    # The bought success cannot be cancelled, so the roll always succeeds and cannot
    # botch (rules-notes C.1, C.5).
    botch = ones > successes and not willpower
    return net, botch


def roll_pool(
    dice: Dice,
    size: int,
    *,
    willpower: bool = False,
    difficulty: int = DEFAULT_DIFFICULTY,
    judge: Judge = judge,
) -> PoolResult:
    """Roll a pool of `size` d10s (at least one) and count it.

    With `willpower`, one Willpower point has been spent: net successes gain one that
    the 1s cannot cancel, and the roll cannot botch. Spending the point is the
    caller's business; this only applies its effect. Every die goes through `dice`,
    so it is recorded for the event log. `judge` counts the roll (a ruleset's
    `rules.judge`, so that its exact odds count the same way).
    """
    _check_difficulty(difficulty)
    count = max(MIN_POOL, size)
    faces = tuple(dice.roll_many(count, SIDES))
    return count_faces(faces, willpower=willpower, difficulty=difficulty, judge=judge)


def count_faces(
    faces: tuple[int, ...],
    *,
    willpower: bool = False,
    difficulty: int = DEFAULT_DIFFICULTY,
    judge: Judge = judge,
) -> PoolResult:
    """Count faces already rolled as one pool: successes, 1s, net and botch. A roll
    changed after it was made (one die of it rolled again, SFA-TEC-28) is counted here
    as any roll is."""
    _check_difficulty(difficulty)
    successes = sum(1 for face in faces if face >= difficulty)
    ones = faces.count(1)
    net, botch = judge(successes, ones, willpower)
    return PoolResult(
        faces=faces,
        successes=successes,
        ones=ones,
        net=net,
        botch=botch,
        dice=len(faces),
        willpower=willpower,
        difficulty=difficulty,
    )


def exact_distribution(
    size: int,
    *,
    willpower: bool = False,
    difficulty: int = DEFAULT_DIFFICULTY,
    judge: Judge = judge,
) -> tuple[dict[int, Fraction], Fraction]:
    """The exact odds of a pool roll: net successes -> probability, and the botch chance.

    Counts outcomes by how many dice were successes, how many were 1s and how many
    were neither (a multinomial over three kinds of face), so it is exact and quick
    for any pool size. Only net values that can happen appear; the probabilities sum
    to 1. The same one-die minimum as `roll_pool` applies, and the same `judge`.
    """
    _check_difficulty(difficulty)
    n = max(MIN_POOL, size)
    p_success = Fraction(SIDES - difficulty + 1, SIDES)
    p_one = Fraction(1, SIDES)
    p_other = 1 - p_success - p_one
    odds: dict[int, Fraction] = {}
    botch = Fraction(0)
    for successes in range(n + 1):
        for ones in range(n - successes + 1):
            others = n - successes - ones
            ways = factorial(n) // (factorial(successes) * factorial(ones) * factorial(others))
            p = ways * p_success**successes * p_one**ones * p_other**others
            if p == 0:  # at difficulty 2 every face but 1 succeeds: no "other" faces
                continue
            net, botched = judge(successes, ones, willpower)
            odds[net] = odds.get(net, Fraction(0)) + p
            if botched:
                botch += p
    return {net: odds[net] for net in sorted(odds)}, botch


def expected_net(
    size: int, *, willpower: bool = False, difficulty: int = DEFAULT_DIFFICULTY
) -> Fraction:
    """The exact mean number of net successes (damage, for an attack) of a pool."""
    odds, _ = exact_distribution(size, willpower=willpower, difficulty=difficulty)
    return sum((net * p for net, p in odds.items()), Fraction(0))


def scale_adjust(net: int, attacker_scale: int, target_scale: int) -> int:
    """Net successes after the interscale rule (seed 003, "Interscale Combat").

    Firing at a larger scale loses 5 successes per step of difference, down to 0.
    Firing at a smaller scale gains 5 per step, but only on a roll that already did
    damage (at least one net success): a roll that missed stays a miss. A success
    bought with Willpower counts like any other success here. The seed's example: the
    starship Macron's 10-die pool against a Street Fighter's Soak 8 rolls 2 dice; 2
    successes plus 10 for the two steps down make 12 damage.
    """
    if net < 0:
        raise ValueError(f"net successes cannot be negative, got {net}")
    steps = target_scale - attacker_scale
    if steps > 0:
        return max(0, net - SCALE_STEP_SUCCESSES * steps)
    if steps < 0 and net >= 1:
        return net + SCALE_STEP_SUCCESSES * -steps
    return net


def attack_damage(
    net: int,
    attacker_scale: int,
    target_scale: int,
    *,
    willpower: bool,
    adjust: Callable[[int, int, int], int] = scale_adjust,
) -> int:
    """The damage of an attack roll: the net successes after the interscale rule
    (`adjust`, normally `scale_adjust`), but at least 1 when a Willpower success was
    bought, whatever the target's Soak or scale (SFA-ATK-5: the bought success always
    does 1 damage).
    """
    damage = adjust(net, attacker_scale, target_scale)
    return max(1, damage) if willpower else damage
