"""Exact distributions: outcome counts with `Fraction` probabilities, counted, never sampled.

The generic pieces every ruleset's exact odds are built from (rulesets/<r>/odds.py): the
result types and the counting helpers. Nothing here knows a rule; it knows dice.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial

D6 = range(1, 7)
"""The faces of a six-sided die."""
SIXTH = Fraction(1, 6)
"""The chance of one face of a d6."""


@dataclass(frozen=True, slots=True)
class Distribution:
    """An outcome count (damage points, models removed, net successes) -> probability."""

    odds: dict[int, Fraction]
    notes: tuple[str, ...] = ()
    facts: dict[str, str | int | float] = field(default_factory=dict)
    """What the computation used (to-hit number, dice, Target...), for display."""

    @property
    def expected(self) -> Fraction:
        """The exact mean."""
        return mean(self.odds)


@dataclass(frozen=True, slots=True)
class PoolOdds:
    """One dice pool: net successes -> probability, and the botch chance."""

    net: dict[int, Fraction]
    botch: Fraction

    @property
    def expected(self) -> Fraction:
        """The exact mean of net successes."""
        return mean(self.net)


def mean(odds: Mapping[int, Fraction]) -> Fraction:
    """The exact mean of a distribution over counts."""
    return sum((k * p for k, p in odds.items()), Fraction(0))


def tidy(odds: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The distribution in rising order of outcome, without impossible outcomes."""
    return {k: odds[k] for k in sorted(odds) if odds[k] != 0}


def add(into: dict[int, Fraction], key: int, p: Fraction) -> None:
    """Add probability `p` to outcome `key` of `into`."""
    into[key] = into.get(key, Fraction(0)) + p


def compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write n as an ordered sum of `parts` non-negative counts."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in compositions(n - first, parts - 1):
            yield (first, *rest)


def multinomial(counts: tuple[int, ...], probs: tuple[Fraction, ...]) -> Fraction:
    """The chance that sum(counts) independent draws fall `counts[i]` times in class i,
    each draw landing in class i with chance `probs[i]`."""
    ways = factorial(sum(counts))
    p = Fraction(1)
    for c, q in zip(counts, probs, strict=True):
        ways //= factorial(c)
        p *= q**c
    return ways * p


def poisson_binomial(chances: list[Fraction]) -> dict[int, Fraction]:
    """How many of independent events with these chances happen."""
    dist = {0: Fraction(1)}
    for c in chances:
        nxt: dict[int, Fraction] = {}
        for k, p in dist.items():
            add(nxt, k + 1, p * c)
            add(nxt, k, p * (1 - c))
        dist = nxt
    return dist


__all__ = [
    "D6",
    "SIXTH",
    "Distribution",
    "PoolOdds",
    "add",
    "compositions",
    "mean",
    "multinomial",
    "poisson_binomial",
    "tidy",
]
