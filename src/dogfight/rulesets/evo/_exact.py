"""Generic pieces of exact counting the evo odds are built on (no rules in here).

These are the ruleset-independent helpers of the exact odds: an outcome distribution,
compositions, the multinomial and the Poisson binomial. They belong in a shared module
below the rulesets (dice/exact.py, planned for issue 12); until that exists this
private copy keeps rulesets/evo free of imports from dogfight.sim.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial


@dataclass(frozen=True, slots=True)
class Distribution:
    """An outcome count (models removed...) -> probability, with what it assumed."""

    odds: dict[int, Fraction]
    notes: tuple[str, ...] = ()
    facts: dict[str, str | int | float] = field(default_factory=dict)
    """What the computation used (dice, Target, Save...), for display."""

    @property
    def expected(self) -> Fraction:
        """The exact mean."""
        return sum((k * p for k, p in self.odds.items()), Fraction(0))


def tidy(odds: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The distribution in key order, without impossible outcomes."""
    return {k: odds[k] for k in sorted(odds) if odds[k] != 0}


def add(into: dict[int, Fraction], key: int, p: Fraction) -> None:
    """Add `p` to the chance of outcome `key`."""
    into[key] = into.get(key, Fraction(0)) + p


def compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write n as an ordered sum of `parts` non-negative counts."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in compositions(n - first, parts - 1):
            yield (first, *rest)


def multinomial(counts: Sequence[int], probs: Sequence[Fraction]) -> Fraction:
    """The chance of exactly these counts of each kind, for independent draws."""
    ways = factorial(sum(counts))
    p = Fraction(1)
    for c, q in zip(counts, probs, strict=True):
        ways //= factorial(c)
        p *= q**c
    return ways * p


def poisson_binomial(chances: Sequence[Fraction]) -> dict[int, Fraction]:
    """How many of independent events with these chances happen."""
    dist = {0: Fraction(1)}
    for c in chances:
        nxt: dict[int, Fraction] = {}
        for k, p in dist.items():
            add(nxt, k + 1, p * c)
            add(nxt, k, p * (1 - c))
        dist = nxt
    return dist
