"""dice/exact.py: the generic pieces of exact odds (issue 12), counted with fractions."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from itertools import product

from dogfight.dice.exact import (
    D6,
    SIXTH,
    Distribution,
    PoolOdds,
    add,
    compositions,
    mean,
    multinomial,
    poisson_binomial,
    tidy,
)


def test_compositions_are_every_ordered_split() -> None:
    got = list(compositions(3, 3))
    assert len(got) == len(set(got)) == 10  # C(3 + 2, 2)
    assert all(len(c) == 3 and sum(c) == 3 and min(c) >= 0 for c in got)
    assert list(compositions(2, 1)) == [(2,)]


def test_multinomial_matches_counting_every_roll() -> None:
    """Two hits, one miss in three d6 hitting on 5+, counted face by face."""
    hit = Fraction(2, 6)
    counted = Fraction(
        sum(1 for faces in product(D6, repeat=3) if sum(f >= 5 for f in faces) == 2), 6**3
    )
    assert multinomial((1, 2), (1 - hit, hit)) == counted == Fraction(6, 27)
    assert sum(multinomial(c, (SIXTH, SIXTH, 4 * SIXTH)) for c in compositions(4, 3)) == 1


def test_poisson_binomial_sums_independent_chances() -> None:
    dist = poisson_binomial([Fraction(1, 2), Fraction(1, 3)])
    assert dist == {2: Fraction(1, 6), 1: Fraction(1, 2), 0: Fraction(1, 3)}
    assert poisson_binomial([]) == {0: 1}


def test_tidy_add_and_means() -> None:
    odds: dict[int, Fraction] = {}
    add(odds, 2, Fraction(1, 4))
    add(odds, 0, Fraction(1, 2))
    add(odds, 2, Fraction(1, 4))
    add(odds, 1, Fraction(0))
    assert list(tidy(odds).items()) == [(0, Fraction(1, 2)), (2, Fraction(1, 2))]
    assert mean(odds) == 1 == Distribution(tidy(odds)).expected
    assert PoolOdds({1: Fraction(1, 3), 4: Fraction(2, 3)}, Fraction(0)).expected == 3


def test_exact_imports_nothing_above_dice() -> None:
    """dice < core: the module loads without the core, the rulesets or anything above."""
    code = "import sys, dogfight.dice.exact; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    above = ("dogfight.core", "dogfight.rulesets", "dogfight.sim", "dogfight.ai", "dogfight.cli")
    assert not [m for m in loaded if m.startswith(above)]
