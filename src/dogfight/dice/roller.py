"""Dice that a game owns: seeded for play, scripted for tests, always recorded.

A `Dice` object hands out die rolls from a source and remembers every roll
until the caller collects them with `take()`; the rules attach the collected
rolls to the event that used them, so the log shows every die.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable

import msgspec


class Roll(msgspec.Struct, frozen=True, array_like=True):
    """One die rolled: its number of sides and the face that came up."""

    sides: int
    value: int


class ScriptExhausted(RuntimeError):
    """A scripted dice source ran out of faces (the test scripted too few)."""


class DiceSource(ABC):
    """Where faces come from."""

    @abstractmethod
    def face(self, sides: int) -> int:
        """One face of a fair die with `sides` sides, 1..sides."""

    @abstractmethod
    def clone(self) -> DiceSource:
        """An independent copy that will produce the same future faces."""


class SeededSource(DiceSource):
    """Faces from a private `random.Random`, so games never touch the global one."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def face(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def clone(self) -> SeededSource:
        copy = SeededSource(0)
        copy._rng.setstate(self._rng.getstate())
        return copy


class ScriptedSource(DiceSource):
    """Faces given in advance, in order: how tests script the dice.

    Raises `ScriptExhausted` when asked for more faces than were given, and
    `ValueError` when a scripted face cannot come up on the die being rolled.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted faces are still unused."""
        return len(self._faces) - self._next

    def face(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise ScriptExhausted(f"dice script ran out after {len(self._faces)} faces")
        value = self._faces[self._next]
        if not 1 <= value <= sides:
            raise ValueError(f"scripted face {value} is impossible on a d{sides}")
        self._next += 1
        return value

    def clone(self) -> ScriptedSource:
        copy = ScriptedSource(self._faces)
        copy._next = self._next
        return copy


class Dice:
    """The dice of one game: rolls from a source and records each roll."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self._pending: list[Roll] = []
        self.count = 0
        """Total dice rolled by this object: lets tests check that none went unlogged."""

    def roll(self, sides: int = 6) -> int:
        """Roll one die and record it."""
        value = self.source.face(sides)
        self._pending.append(Roll(sides, value))
        self.count += 1
        return value

    def roll_many(self, n: int, sides: int = 6) -> list[int]:
        """Roll `n` dice and record them."""
        return [self.roll(sides) for _ in range(n)]

    def take(self) -> tuple[Roll, ...]:
        """The rolls made since the last `take()`, in order; clears them."""
        taken = tuple(self._pending)
        self._pending.clear()
        return taken

    @property
    def pending(self) -> int:
        """Rolls made but not yet taken into an event."""
        return len(self._pending)

    def clone(self) -> Dice:
        """Independent dice that continue from the same point."""
        copy = Dice(self.source.clone())
        copy.count = self.count
        return copy


def seeded(seed: int) -> Dice:
    """Dice from a seed."""
    return Dice(SeededSource(seed))


def scripted(*faces: int) -> Dice:
    """Dice that come up with exactly these faces, in order (for tests)."""
    return Dice(ScriptedSource(faces))


SEED_MASK = 2**63 - 1
"""Derived seeds keep 63 bits: they fit a signed 64-bit field and are never negative."""


def derive_seed(run_seed: int, index: int) -> int:
    """The seed of game number `index` in a run: stable across processes and
    Python versions (no `hash()`), so a batch can be split over workers.

    Seeds are 63-bit (0 to 2**63 - 1, the range every seed takes). Each step is a
    bijection modulo 2**63 (adding an odd multiple of `index`, xor-shifting right,
    multiplying by an odd number), so the games of one run never share a seed.
    """
    x = (run_seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9) & SEED_MASK
    x ^= x >> 31
    x = (x * 0x94D049BB133111EB) & SEED_MASK
    x ^= x >> 29
    return x
