"""Dice: seeded and scripted sources, recording, cloning, seed derivation."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from dogfight.dice import (
    Dice,
    Roll,
    ScriptedSource,
    ScriptExhausted,
    SeededSource,
    derive_seed,
    scripted,
    seeded,
)


def test_same_seed_same_sequence() -> None:
    assert seeded(42).roll_many(50) == seeded(42).roll_many(50)


def test_different_seeds_different_sequences() -> None:
    assert seeded(1).roll_many(50) != seeded(2).roll_many(50)


def test_faces_are_in_range() -> None:
    dice = seeded(7)
    for sides in (2, 6, 10, 20):
        faces = dice.roll_many(200, sides)
        assert min(faces) >= 1
        assert max(faces) <= sides
    # over 200 d20s every face should not all be the same
    assert len(set(seeded(7).roll_many(200, 20))) > 10


def test_default_die_is_d6() -> None:
    dice = seeded(3)
    dice.roll_many(100)
    assert {roll.sides for roll in dice.take()} == {6}


def test_never_touches_global_random() -> None:
    random.seed(1)
    dice = seeded(99)
    dice.roll_many(100)
    dice.clone().roll_many(10)
    after = random.random()
    random.seed(1)
    assert after == random.random()


def test_clone_continues_identically_and_independently() -> None:
    dice = seeded(5)
    dice.roll_many(17)
    copy = dice.clone()
    assert copy.count == dice.count
    ahead = copy.roll_many(30)
    # rolling the copy did not advance the original: it produces the same faces
    assert dice.roll_many(30) == ahead
    # rolling the original further does not disturb the copy
    dice.roll_many(5)
    fresh = seeded(5)
    fresh.roll_many(17 + 30)
    assert copy.roll_many(10) == fresh.roll_many(10)
    assert copy.count == 17 + 30 + 10
    assert dice.count == 17 + 30 + 5


def test_clone_streams_match_after_divergent_use() -> None:
    dice = seeded(11)
    dice.roll_many(3)
    copy = dice.clone()
    copy.roll_many(20)  # the copy runs ahead
    expected = seeded(11).roll_many(3 + 20)[3:]
    assert dice.roll_many(20) == expected


def test_clone_does_not_share_pending_rolls() -> None:
    dice = seeded(8)
    dice.roll_many(4)
    copy = dice.clone()
    copy.roll()
    assert dice.pending == 4
    assert copy.pending == 1


def test_scripted_faces_in_order() -> None:
    dice = scripted(6, 1, 3)
    assert dice.roll() == 6
    assert dice.roll() == 1
    assert dice.roll(4) == 3


def test_scripted_exhausted() -> None:
    dice = scripted(2)
    dice.roll()
    with pytest.raises(ScriptExhausted, match="1 faces"):
        dice.roll()


def test_scripted_impossible_face() -> None:
    dice = scripted(7)
    with pytest.raises(ValueError, match="d6"):
        dice.roll(6)
    # a rejected face is not consumed and not recorded
    assert dice.count == 0
    assert dice.roll(8) == 7


def test_scripted_remaining_and_clone() -> None:
    source = ScriptedSource([1, 2, 3, 4])
    dice = Dice(source)
    dice.roll()
    assert source.remaining == 3
    copy = dice.clone()
    assert copy.roll_many(3) == [2, 3, 4]
    assert source.remaining == 3
    assert dice.roll_many(3) == [2, 3, 4]


def test_take_returns_pending_in_order_and_clears() -> None:
    dice = scripted(4, 2, 5)
    dice.roll(6)
    dice.roll(8)
    assert dice.pending == 2
    assert dice.take() == (Roll(6, 4), Roll(8, 2))
    assert dice.pending == 0
    assert dice.take() == ()
    dice.roll(6)
    assert dice.take() == (Roll(6, 5),)


def test_count_counts_every_roll() -> None:
    dice = seeded(0)
    dice.roll()
    dice.roll_many(4, 10)
    dice.take()
    dice.roll(20)
    assert dice.count == 6


def test_derive_seed_deterministic_and_distinct() -> None:
    assert derive_seed(123, 4) == derive_seed(123, 4)
    seeds = [derive_seed(123, i) for i in range(1000)]
    assert len(set(seeds)) == len(seeds)
    assert derive_seed(1, 0) != derive_seed(2, 0)
    for s in [*seeds, derive_seed(2**62, 2**40), derive_seed(0, 0)]:
        assert 0 <= s < 2**63


def test_derive_seed_is_stable_across_versions() -> None:
    # Pinned so that a run's per-game seeds never change between releases (changed
    # once, from 31 to 63 bits, when 31-bit seeds were found to repeat in long runs).
    assert derive_seed(0, 0) == 0
    assert derive_seed(1, 0) == 53122247739156916
    assert [derive_seed(7, i) for i in range(3)] == [
        5431170865938906091,
        4209453674642900444,
        7599933838676742293,
    ]


def test_a_million_battle_seeds_of_one_run_are_distinct() -> None:
    # 31-bit seeds repeated 233 games in a 1,000,000-battle run; 63-bit ones from a
    # bijection never repeat within a run.
    for run_seed in (1, 2**62 + 12345):
        seeds = {derive_seed(run_seed, i) for i in range(1_000_000)}
        assert len(seeds) == 1_000_000
        assert min(seeds) >= 0 and max(seeds) < 2**63


def test_seeded_source_is_a_fair_d6() -> None:
    n = 60_000
    p = 1 / 6
    stderr = math.sqrt(p * (1 - p) / n)
    counts = Counter(Dice(SeededSource(2024)).roll_many(n, 6))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face, count in counts.items():
        assert abs(count / n - p) < 5 * stderr, (face, count)
