"""Exact check (DESIGN "Tests, in layers" 3): a 7-die SFA attack pool rolled 100,000
times through `roll_pool` with seeded dice agrees with the exact distribution of net
successes and the exact botch chance, within 3 standard errors."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from dogfight.dice import seeded
from dogfight.rulesets.sfa.pool import exact_distribution, roll_pool

TRIALS = 100_000
SIZE = 7


def within_three_standard_errors(hits: int, trials: int, exact: Fraction, what: str) -> None:
    p = float(exact)
    rate = hits / trials
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) <= 3 * se, (
        f"{what}: observed {rate:.5f}, exact {p:.5f} (3 SE = {3 * se:.5f})"
    )


def test_seven_die_pool_matches_exact_odds() -> None:
    odds, botch = exact_distribution(SIZE)
    dice = seeded(20240603)
    nets: Counter[int] = Counter()
    botches = 0
    for _ in range(TRIALS):
        result = roll_pool(dice, SIZE)
        dice.take()  # as the event log would: keep the pending list short
        nets[result.net] += 1
        botches += result.botch
    assert dice.count == TRIALS * SIZE
    assert set(nets) <= set(odds)
    within_three_standard_errors(botches, TRIALS, botch, "botch")
    checked = 0
    for net, p in odds.items():
        if p > Fraction(1, 100):
            within_three_standard_errors(nets[net], TRIALS, p, f"net {net}")
            checked += 1
    assert checked >= 6
