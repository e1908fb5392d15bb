"""SFA dice pools (seed 003 "Attacking", rules-notes C.1/C.5): scripted-dice checks of
successes, cancelling 1s, botches, the one-die minimum, Willpower, difficulty and the
interscale rule, plus exact odds checked against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest

from dogfight.dice import scripted, seeded
from dogfight.dice.roller import ScriptExhausted
from dogfight.rulesets.sfa.pool import (
    PoolResult,
    Scale,
    attack_pool,
    exact_distribution,
    expected_net,
    roll_pool,
    scale_adjust,
)

# --- attack_pool -----------------------------------------------------------------------


def test_attack_pool_adds_and_subtracts() -> None:
    """Dexterity 3 + Piloting 2 + Handling 0 + Medium Laser 10 - total Soak 8 = 7 dice
    (the worked check in rules-notes C.5)."""
    assert attack_pool(3, 2, 0, 10, 8) == 7


def test_attack_pool_counts_negative_handling() -> None:
    assert attack_pool(3, 2, -3, 10, 8) == 4


def test_attack_pool_never_below_one_die() -> None:
    """Seed: whatever the target's Soak, the attacker always rolls at least 1 die."""
    assert attack_pool(1, 0, -5, 0, 20) == 1
    assert attack_pool(3, 2, 0, 5, 10) == 1  # exactly 0 before the minimum


def test_dice_removed_for_speed_come_off_the_pool() -> None:
    """Rules-notes C.7.3 PROPOSAL: one die buys one point of Speed."""
    assert attack_pool(3, 2, 0, 10, 8, removed_for_speed=3) == 4
    assert attack_pool(3, 2, 0, 10, 8, removed_for_speed=10) == 1


def test_removed_for_speed_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="removed_for_speed"):
        attack_pool(3, 2, 0, 10, 8, removed_for_speed=-1)


# --- roll_pool with scripted dice --------------------------------------------------------


def test_counts_successes_at_six_or_more() -> None:
    result = roll_pool(scripted(6, 7, 10, 5, 2), 5)
    assert result == PoolResult(
        faces=(6, 7, 10, 5, 2), successes=3, ones=0, net=3, botch=False, dice=5
    )


def test_each_one_cancels_a_success() -> None:
    result = roll_pool(scripted(8, 9, 1, 3), 4)
    assert (result.successes, result.ones, result.net, result.botch) == (2, 1, 1, False)


def test_equal_ones_and_successes_is_zero_but_not_a_botch() -> None:
    result = roll_pool(scripted(6, 1, 9, 1), 4)
    assert (result.successes, result.ones, result.net, result.botch) == (2, 2, 0, False)


def test_more_ones_than_successes_is_a_botch() -> None:
    """Seed: more 1s than successes is a botch (SFA's definition, rules-notes C.7.8)."""
    result = roll_pool(scripted(1, 1, 7, 4), 4)
    assert (result.successes, result.ones, result.net, result.botch) == (1, 2, 0, True)


def test_a_single_one_with_no_success_botches() -> None:
    result = roll_pool(scripted(1), 1)
    assert result.botch
    assert result.net == 0


def test_no_successes_and_no_ones_is_a_plain_failure() -> None:
    result = roll_pool(scripted(2, 3, 4, 5), 4)
    assert (result.net, result.botch) == (0, False)


def test_pool_below_one_still_rolls_one_die() -> None:
    for size in (0, -4):
        result = roll_pool(scripted(9), size)
        assert result.dice == 1
        assert result.faces == (9,)
        assert result.net == 1


def test_rolls_exactly_the_pool_and_records_every_die() -> None:
    dice = scripted(6, 6, 6, 2)
    result = roll_pool(dice, 3)
    assert result.dice == 3
    assert dice.count == 3
    assert [roll.value for roll in dice.take()] == [6, 6, 6]


def test_rolls_d10s() -> None:
    dice = seeded(11)
    roll_pool(dice, 12)
    rolls = dice.take()
    assert len(rolls) == 12
    assert all(roll.sides == 10 for roll in rolls)


def test_too_few_scripted_faces_is_an_error() -> None:
    with pytest.raises(ScriptExhausted):
        roll_pool(scripted(6, 6), 3)


def test_willpower_adds_a_success_the_ones_cannot_cancel() -> None:
    """Seed: 1 Willpower ensures one success, so at least 1 damage whatever the Soak."""
    result = roll_pool(scripted(1, 1, 1), 3, willpower=True)
    assert (result.successes, result.ones, result.net) == (0, 3, 1)
    assert result.willpower


def test_willpower_success_adds_to_rolled_successes() -> None:
    result = roll_pool(scripted(7, 8, 1, 4), 4, willpower=True)
    assert result.net == 2


def test_willpower_prevents_a_botch() -> None:
    """Rules-notes C.1/C.5: the bought success cannot be cancelled, so no botch."""
    result = roll_pool(scripted(1, 1, 7), 3, willpower=True)
    assert result.ones > result.successes
    assert not result.botch
    assert result.net == 1


def test_difficulty_moves_the_success_threshold() -> None:
    faces = (3, 5, 6, 8, 9, 1)
    assert roll_pool(scripted(*faces), 6, difficulty=8).successes == 2
    assert roll_pool(scripted(*faces), 6, difficulty=3).successes == 5
    assert roll_pool(scripted(*faces), 6).successes == 3
    assert roll_pool(scripted(*faces), 6, difficulty=9).difficulty == 9


def test_a_ten_always_succeeds_and_a_one_never_does() -> None:
    assert roll_pool(scripted(10), 1, difficulty=10).net == 1
    assert roll_pool(scripted(1), 1, difficulty=2).successes == 0


@pytest.mark.parametrize("difficulty", [0, 1, 11])
def test_impossible_difficulty_is_refused(difficulty: int) -> None:
    with pytest.raises(ValueError, match="difficulty"):
        roll_pool(scripted(6), 1, difficulty=difficulty)


def test_pool_result_is_frozen() -> None:
    result = roll_pool(scripted(6), 1)
    with pytest.raises(AttributeError):
        result.net = 5  # type: ignore[misc]


# --- interscale ------------------------------------------------------------------------


def test_macron_against_reogi_takes_twelve() -> None:
    """Seed "Interscale Combat" example: the Macron (starship, pool 10) fires on Reogi
    (a Street Fighter, Soak 8): 2 dice, 2 successes, +10 for two steps down = 12."""
    size = attack_pool(0, 0, 0, 10, 8)
    assert size == 2
    result = roll_pool(scripted(7, 9), size)
    assert result.net == 2
    assert scale_adjust(result.net, Scale.STARSHIP, Scale.STREET_FIGHTER) == 12


def test_firing_down_a_scale_needs_a_successful_roll() -> None:
    assert scale_adjust(0, Scale.STARSHIP, Scale.STARFIGHTER) == 0
    assert scale_adjust(1, Scale.STARSHIP, Scale.STARFIGHTER) == 6


def test_firing_up_a_scale_removes_five_per_step() -> None:
    assert scale_adjust(7, Scale.STARFIGHTER, Scale.STARSHIP) == 2
    assert scale_adjust(4, Scale.STARFIGHTER, Scale.STARSHIP) == 0
    assert scale_adjust(12, Scale.STREET_FIGHTER, Scale.STARSHIP) == 2


def test_same_scale_is_unchanged() -> None:
    for net in range(5):
        assert scale_adjust(net, Scale.STARFIGHTER, Scale.STARFIGHTER) == net


def test_enhanced_soak_as_one_scale_up() -> None:
    """Enhanced Soak counts the target one scale higher: the first 5 successes go."""
    assert scale_adjust(6, Scale.STARFIGHTER, Scale.STARFIGHTER + 1) == 1


def test_willpower_success_counts_for_interscale_bonus() -> None:
    result = roll_pool(scripted(1, 2), 2, willpower=True)
    assert scale_adjust(result.net, Scale.STARFIGHTER, Scale.STREET_FIGHTER) == 6


def test_negative_net_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        scale_adjust(-1, Scale.STARFIGHTER, Scale.STARFIGHTER)


# --- exact distribution ------------------------------------------------------------------


def brute_force(
    size: int, willpower: bool, difficulty: int
) -> tuple[dict[int, Fraction], Fraction]:
    """Every one of the 10**size outcomes, each counted through roll_pool."""
    counts: dict[int, int] = {}
    botches = 0
    total = 10**size
    for faces in itertools.product(range(1, 11), repeat=size):
        result = roll_pool(scripted(*faces), size, willpower=willpower, difficulty=difficulty)
        counts[result.net] = counts.get(result.net, 0) + 1
        botches += result.botch
    return {net: Fraction(c, total) for net, c in sorted(counts.items())}, Fraction(botches, total)


@pytest.mark.parametrize("size", [1, 2, 3, 4])
@pytest.mark.parametrize(("willpower", "difficulty"), [(False, 6), (True, 6), (False, 8)])
def test_exact_matches_brute_force(size: int, willpower: bool, difficulty: int) -> None:
    assert exact_distribution(size, willpower=willpower, difficulty=difficulty) == brute_force(
        size, willpower, difficulty
    )


@pytest.mark.parametrize("size", [1, 2, 5, 7, 12, 20])
@pytest.mark.parametrize("difficulty", [2, 6, 10])
def test_exact_sums_to_one(size: int, difficulty: int) -> None:
    odds, botch = exact_distribution(size, difficulty=difficulty)
    assert sum(odds.values()) == 1
    assert all(p > 0 for p in odds.values())
    assert 0 < botch < 1


@pytest.mark.parametrize("size", [1, 3, 7, 15])
def test_exact_matches_icepool(size: int) -> None:
    """An independent route: each die scores +1 (6+), -1 (a 1) or 0; sum the pool."""
    die = icepool.d10.map(lambda face: 1 if face >= 6 else (-1 if face == 1 else 0))
    total = size @ die
    denominator = total.denominator()
    expected: dict[int, Fraction] = {}
    for outcome, quantity in total.items():
        net = max(0, outcome)
        expected[net] = expected.get(net, Fraction(0)) + Fraction(quantity, denominator)
    botch = sum(
        (Fraction(q, denominator) for outcome, q in total.items() if outcome < 0), Fraction(0)
    )
    assert exact_distribution(size) == (expected, botch)


def test_exact_with_willpower_shifts_net_and_never_botches() -> None:
    plain, _ = exact_distribution(7)
    bought, botch = exact_distribution(7, willpower=True)
    assert botch == 0
    assert bought == {net + 1: p for net, p in plain.items()}
    assert expected_net(7, willpower=True) == expected_net(7) + 1


def test_exact_below_one_is_one_die() -> None:
    assert exact_distribution(0) == exact_distribution(1)
    odds, botch = exact_distribution(1)
    assert odds == {0: Fraction(5, 10), 1: Fraction(5, 10)}
    assert botch == Fraction(1, 10)


def test_expected_net_of_the_worked_check() -> None:
    """Rules-notes C.5: a 7-die pool does about 2.8 damage."""
    assert expected_net(1) == Fraction(1, 2)
    assert round(float(expected_net(7)), 1) == 2.8
