"""Exact checks: where a probability can be computed exactly, the engine's Monte Carlo
rate must agree with it (within 3 standard errors over 100,000 resolutions)."""

from __future__ import annotations

import math
from fractions import Fraction

import icepool
import pytest

from dogfight.core.events import EventLog
from dogfight.dice import seeded
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.shooting import allocate, on_my_six, resolve_die

from .builders import custom_unit, flight, gun, make_game

TRIALS = 100_000
TARGET, SAVE, KILL = 4, 5, 6


def within_three_standard_errors(hits: int, trials: int, exact: Fraction) -> None:
    p = float(exact)
    rate = hits / trials
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) <= 3 * se, f"observed {rate:.5f}, exact {p:.5f} (3 SE = {3 * se:.5f})"


def exact_removal(six: bool) -> Fraction:
    """P(one d6 damage die removes a Target 4+, Save 5+, Kill 6 model with no Dodge):
    a natural 1 is discarded (EVO-SHT-3); +1 on the six (EVO-SIX-1); at or over Kill
    removes (EVO-DMG-1); at or over Target is a hit whose Save fails on 1-4 (EVO-DMG-2)."""
    p_fail_save = Fraction(sum(1 for s in range(1, 7) if s == 1 or s < SAVE), 6)
    total = Fraction(0)
    for face in range(2, 7):  # a 1 is discarded
        value = face + (1 if six else 0)
        if value >= KILL:
            total += Fraction(1, 6)
        elif value >= TARGET:
            total += Fraction(1, 6) * p_fail_save
    return total


def icepool_removal(six: bool) -> Fraction:
    """The same, computed independently with icepool."""
    bonus = 1 if six else 0

    def removes(face: int, save: int) -> bool:
        if face == 1:
            return False
        value = face + bonus
        return value >= KILL or (value >= TARGET and (save == 1 or save < SAVE))

    return Fraction(icepool.map(removes, icepool.d6, icepool.d6).probability(True))


def test_exact_values() -> None:
    """The hand count: 1/6 + (2/6)(4/6) = 14/36 without the six; 2/6 + (2/6)(4/6) = 20/36
    with it; icepool agrees."""
    assert exact_removal(False) == Fraction(14, 36)
    assert exact_removal(True) == Fraction(20, 36)
    assert icepool_removal(False) == exact_removal(False)
    assert icepool_removal(True) == exact_removal(True)


@pytest.mark.parametrize("six", [False, True], ids=["ahead", "on-its-six"])
def test_exact_one_damage_die_removes_a_model(six: bool) -> None:
    """EVO-SHT-3 / EVO-DMG-1 / EVO-DMG-2 / EVO-SIX-1: one d6 damage die, rolled and
    allocated by the engine (allocate) and resolved by it (resolve_die), removes a
    Target 4+, Save 5+, Kill 6 model at the exact rate, with and without the +1 for
    a firer 8" dead astern."""
    shooter = custom_unit("gunner", weapons=[gun(range=18, dice=1)])
    plain = custom_unit("plain", target=TARGET, save=SAVE, kill=KILL, weapons=[])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        # T.1 8" from where F drifts to: facing away from F (astern) or towards it
        flight(1, "plain", 24, 24, 0 if six else 180, "T"),
        custom_units=[shooter, plain],
    )
    state = game.state
    firing = state.flights["F"]
    firer = state.models["F.1"]
    firer.pose = firer.pose.forward(6)  # where its drift would take it
    target = state.models["T.1"]
    weapon = state.types["gunner"].weapons[0]
    dice = seeded(20240917 + six)
    ctx = Ctx(state, state.options, EventLog(dice))
    assert on_my_six(ctx, target, [firer]) is six
    removed = 0
    for _ in range(TRIALS):
        for alloc in allocate(ctx, firing, target, [firer], [(weapon, firer)]):
            assert alloc.model is target
            for face, ap in alloc.dice:
                if resolve_die(ctx, target, face, ap, [firer], six) in ("kill", "failed"):
                    removed += 1
        dice.take()  # the rolls are not logged here: keep the pending list short
    within_three_standard_errors(removed, TRIALS, exact_removal(six))
