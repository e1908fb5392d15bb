"""Statistics of a batch of battles: win and draw rates with Wilson intervals, turns,
survivors, damage, and kills and losses per unit type."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

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
    """One side's record over a batch (means are per battle)."""

    side: str
    wins: Interval
    mean_survivors: float = 0.0
    mean_damage_dealt: float = 0.0
    """Strength the enemy lost, in the ruleset's measure (see `UnitRecord`)."""
    mean_damage_taken: float = 0.0


class UnitTypeStats(msgspec.Struct, frozen=True, kw_only=True):
    """One side's units of one type over a batch: totals and rates."""

    side: str
    type: str
    fielded: int
    lost: int
    kills: int
    damage_taken: float
    loss_rate: float
    """Lost / fielded."""
    kills_per_unit: float
    """Kills / fielded."""


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """A batch of battles in numbers."""

    battles: int
    sides: list[SideStats]
    draws: Interval
    mean_turns: float
    median_turns: float
    mean_actions: float
    swapped: int = 0
    """Battles played with the sides swapped."""
    units: list[UnitTypeStats] = msgspec.field(default_factory=list)
    turn_counts: dict[int, int] = msgspec.field(default_factory=dict)
    """Battles that ended on each turn (for the turns histogram)."""


class SummaryBuilder:
    """Summary statistics built one result at a time, in memory that does not grow
    with the number of battles (turns are kept as a count per turn value)."""

    def __init__(self, sides: Sequence[str]) -> None:
        self.sides = list(sides)
        self.battles = 0
        self.draws = 0
        self.swapped = 0
        self.actions = 0
        self.wins: dict[str, int] = {side: 0 for side in self.sides}
        self.turns: Counter[int] = Counter()
        self.survivors: dict[str, int] = {side: 0 for side in self.sides}
        self.dealt: dict[str, float] = {side: 0.0 for side in self.sides}
        self.taken: dict[str, float] = {side: 0.0 for side in self.sides}
        self.units: dict[tuple[str, str], list[float]] = {}

    def add(self, result: BattleResult) -> None:
        """Count one battle."""
        self.battles += 1
        self.swapped += result.swapped
        self.actions += result.actions
        self.turns[result.turns] += 1
        if result.winner is None:
            self.draws += 1
        else:
            self.wins[result.winner] = self.wins.get(result.winner, 0) + 1
        for side, count in result.survivors.items():
            self.survivors[side] = self.survivors.get(side, 0) + count
        for side, value in result.damage_dealt.items():
            self.dealt[side] = self.dealt.get(side, 0.0) + value
        for side, value in result.damage_taken.items():
            self.taken[side] = self.taken.get(side, 0.0) + value
        for u in result.units:
            row = self.units.setdefault((u.side, u.type), [0, 0, 0, 0.0])
            row[0] += u.fielded
            row[1] += u.lost
            row[2] += u.kills
            row[3] += u.damage_taken

    def summary(self) -> Summary:
        """The statistics of the battles added so far."""
        n = self.battles
        sides = list(self.wins)  # the given sides first, then any other winner

        def mean(total: float) -> float:
            return total / n if n else 0.0

        order = {side: i for i, side in enumerate(sides)}
        units = [
            UnitTypeStats(
                side=side,
                type=utype,
                fielded=int(row[0]),
                lost=int(row[1]),
                kills=int(row[2]),
                damage_taken=row[3],
                loss_rate=row[1] / row[0] if row[0] else 0.0,
                kills_per_unit=row[2] / row[0] if row[0] else 0.0,
            )
            for (side, utype), row in sorted(
                self.units.items(), key=lambda item: (order.get(item[0][0], len(order)), item[0])
            )
        ]
        return Summary(
            battles=n,
            sides=[
                SideStats(
                    side=side,
                    wins=interval(self.wins[side], n),
                    mean_survivors=mean(self.survivors.get(side, 0)),
                    mean_damage_dealt=mean(self.dealt.get(side, 0.0)),
                    mean_damage_taken=mean(self.taken.get(side, 0.0)),
                )
                for side in sides
            ],
            draws=interval(self.draws, n),
            mean_turns=mean(sum(t * c for t, c in self.turns.items())),
            median_turns=counted_median(self.turns),
            turn_counts=dict(sorted(self.turns.items())),
            mean_actions=mean(self.actions),
            swapped=self.swapped,
            units=units,
        )


def nearest_rank(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0 < q <= 1) of `values` by nearest rank: the smallest value with
    at least a share `q` of the values at or below it (0.0 if there are none). The
    benchmarks' percentiles all use it, so their figures compare."""
    if not values:
        return 0.0
    ranked = sorted(values)
    return ranked[max(0, math.ceil(q * len(ranked)) - 1)]


def counted_median(counts: Mapping[int, int]) -> float:
    """The median of values given as value -> how many times (0.0 if there are none)."""
    n = sum(counts.values())
    if n == 0:
        return 0.0
    # The two middle positions (0-based); equal when n is odd.
    lo, hi = (n - 1) // 2, n // 2
    seen = 0
    low_value: int | None = None
    for value in sorted(counts):
        seen += counts[value]
        if low_value is None and seen > lo:
            low_value = value
        if seen > hi:
            return (low_value + value) / 2 if low_value is not None else float(value)
    raise AssertionError("unreachable")  # pragma: no cover


def summarize(results: Iterable[BattleResult], sides: Sequence[str]) -> Summary:
    """Win rate per side and draw rate (with 95% Wilson intervals), turns, survivors,
    damage and per-unit-type counts of a batch (see `SummaryBuilder` to stream)."""
    builder = SummaryBuilder(sides)
    for result in results:
        builder.add(result)
    return builder.summary()
