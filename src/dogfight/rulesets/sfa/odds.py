"""Exact odds of SFA resolutions, counted with fractions, never sampled.

- `sfa_pool`: one dice pool, counted by the ruleset's own `rules.pool_odds` (the same
  `judge` the engine rolls with).
- `attack_damage_odds`: the total damage of one attack's rolls (fire-linked guns and
  damage checks each roll the pool again), after the interscale rule: what the browser
  shows before a Resolve and what the heuristic prices shots with.
"""

from __future__ import annotations

from fractions import Fraction

from dogfight.core.errors import DogfightError
from dogfight.dice.exact import PoolOdds, tidy
from dogfight.rulesets.sfa.pool import DEFAULT_DIFFICULTY
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules

MAX_DICE = 200
"""The largest pool counted exactly (the count grows with the square of the pool)."""


def sfa_pool(
    dice: int,
    *,
    willpower: bool = False,
    difficulty: int = DEFAULT_DIFFICULTY,
    rules: SfaRules = SFA_RULES,
) -> PoolOdds:
    """The exact odds of one SFA pool (`rules.pool_odds`); bad sizes or difficulties are
    refused with a message."""
    if dice < 1:
        raise DogfightError(f"a pool has at least one die, not {dice}")
    if dice > MAX_DICE:
        raise DogfightError(f"{dice} dice is too many to count exactly (at most {MAX_DICE})")
    try:
        net, botch = rules.pool_odds(dice, willpower=willpower, difficulty=difficulty)
    except ValueError as exc:
        raise DogfightError(str(exc)) from None
    return PoolOdds(tidy(net), botch)


def attack_damage_odds(
    dice: int,
    willpower: bool,
    attack_scale: int,
    target_scale: int,
    rolls: int = 1,
    *,
    rules: SfaRules = SFA_RULES,
) -> dict[int, Fraction]:
    """Total damage -> probability of `rolls` rolls of one pool of `dice`, a Willpower
    success bought on the first roll only (SFA-ATK-5), each roll's damage after the
    interscale rule (`rules.attack_damage`)."""

    def one(bought: bool) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for net, p in sfa_pool(dice, willpower=bought, rules=rules).net.items():
            dealt = rules.attack_damage(net, attack_scale, target_scale, willpower=bought)
            out[dealt] = out.get(dealt, Fraction(0)) + p
        return out

    total = one(willpower)
    plain = one(False)
    for _ in range(rolls - 1):
        summed: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in plain.items():
                summed[a + b] = summed.get(a + b, Fraction(0)) + p * q
        total = summed
    return tidy(total)
