"""Exact checks: where a probability can be computed exactly, the engine's Monte Carlo
rate must agree with it (within 3 standard errors over 100,000 resolutions)."""

from __future__ import annotations

import math
from fractions import Fraction

import icepool

from dogfight.core.events import EventLog
from dogfight.dice import seeded
from dogfight.rulesets.acta.combat import measure, resolve_fire
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.dogfight import fight_one
from dogfight.rulesets.acta.targets import weapon_named

from .builders import make_game, unit

TRIALS = 100_000


def within_three_standard_errors(hits: int, trials: int, exact: Fraction) -> None:
    p = float(exact)
    rate = hits / trials
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) <= 3 * se, f"observed {rate:.5f}, exact {p:.5f} (3 SE = {3 * se:.5f})"


def test_exact_zaresh_beats_hummingbird_in_one_dogfight() -> None:
    """ACTA-DOG-5 / ACTA-DOG-6: a Zaresh (Dogfight +1) beats a Hummingbird (+3) with no
    support when d6 + 1 > d6 + 3; a tie (dogfight_tie=locked) destroys neither."""
    exact = (icepool.d6 + 1 > icepool.d6 + 3).probability(True)
    assert exact == Fraction(1, 6)
    exact_tie = (icepool.d6 + 1 == icepool.d6 + 3).probability(True)
    assert exact_tie == Fraction(4, 36)

    game = make_game(
        unit(0, "hummingbird", 10, 10, 0, id="H"),
        unit(1, "zaresh", 11, 10, 180, id="Z", dogfight_drones=False),
        dice=(6, 1),
    )
    state = game.state
    assert game.options["dogfight_tie"] == "locked"
    assert game.options["dogfight_loser"] == "destroyed"
    hummingbird, zaresh = state.units["H"], state.units["Z"]
    dice = seeded(20240601)
    wins = ties = 0
    for _ in range(TRIALS):
        log = EventLog(dice)
        fight_one(Ctx(state, state.options, log), zaresh, hummingbird, 0, 0)
        if "H" not in state.units:
            wins += 1
            state.units["H"] = hummingbird
        elif "Z" not in state.units:
            state.units["Z"] = zaresh
        else:
            ties += 1
        state.destroyed.clear()
    within_three_standard_errors(wins, TRIALS, exact)
    within_three_standard_errors(ties, TRIALS, exact_tie)


def test_exact_phaser_3f_damages_a_dodging_fighter_at_half_range() -> None:
    """ACTA-ATK-2 / ACTA-FTR-4 / ACTA-FTR-6: a Phaser-3F (1 AD, Precise, 2") fired by a
    fighter at a moved Dodge 5+ fighter within half range damages it with probability
    P(d6 - 1 >= 4, natural 6 hits, natural 1 misses) * P(d6 < 5)."""
    faces = range(1, 7)
    p_hit = Fraction(sum(1 for f in faces if f == 6 or (f != 1 and f - 1 >= 4)), 6)
    p_undodged = Fraction(sum(1 for f in faces if f < 5), 6)
    exact = p_hit * p_undodged
    assert exact == Fraction(2, 9)

    game = make_game(
        unit(0, "dragonfly", 10, 10, 0, id="D"),
        unit(1, "zaresh", 11.5, 10, 180, id="Z", dogfight_drones=True),
        dice=(6, 1),
    )
    state = game.state
    firer, target = state.units["D"], state.units["Z"]
    weapon = weapon_named(state, firer, "Phaser-3F")
    assert weapon is not None and weapon.ad == 1 and weapon.has("Precise")
    assert measure(state, firer, target) <= weapon.range / 2  # within half range: 4+
    target.moved = True  # it moved this turn, so its Dodge 5+ applies
    start_damage = target.damage
    dice = seeded(987654)
    damaged = 0
    for _ in range(TRIALS):
        log = EventLog(dice)
        resolve_fire(Ctx(state, state.options, log), firer, weapon, target)
        if "Z" not in state.units or target.damage < start_damage:
            damaged += 1
            target.damage = start_damage
            state.units["Z"] = target
            state.destroyed.clear()
    within_three_standard_errors(damaged, TRIALS, exact)
