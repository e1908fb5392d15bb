"""Statistics of a batch of battles: win and draw rates with Wilson intervals, turns."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import msgspec

from dogfight.sim.runner import BattleResult

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


class Interval(msgspec.Struct, frozen=True, kw_only=True):
    """A proportion with its confidence interval."""

    count: int
    n: int
    rate: float
    low: float
    high: float


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for `successes` out of `n` (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible for
    rates near 0 or 1 and for small `n`. With `n` = 0 nothing is known: (0, 1).
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # Exact ends: rounding would otherwise leave 0 successes a low of 1e-17.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def interval(count: int, n: int) -> Interval:
    """`count` of `n` as a rate with its 95% Wilson interval."""
    low, high = wilson(count, n)
    return Interval(count=count, n=n, rate=count / n if n else 0.0, low=low, high=high)


class SideStats(msgspec.Struct, frozen=True, kw_only=True):
    """One side's record over a batch."""

    side: str
    wins: Interval


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """A batch of battles in numbers."""

    battles: int
    sides: list[SideStats]
    draws: Interval
    mean_turns: float
    median_turns: float
    mean_actions: float


def summarize(results: Sequence[BattleResult], sides: Sequence[str]) -> Summary:
    """Win rate per side and draw rate (with 95% Wilson intervals), mean and median turns."""
    n = len(results)
    wins = {side: 0 for side in sides}
    draws = 0
    for result in results:
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] = wins.get(result.winner, 0) + 1
    turns = [r.turns for r in results]
    return Summary(
        battles=n,
        sides=[SideStats(side=side, wins=interval(count, n)) for side, count in wins.items()],
        draws=interval(draws, n),
        mean_turns=statistics.fmean(turns) if turns else 0.0,
        median_turns=float(statistics.median(turns)) if turns else 0.0,
        mean_actions=statistics.fmean(r.actions for r in results) if results else 0.0,
    )
