"""Compare: one scenario without and with house rules, and whether the rules matter.

Both arms play the same seeds (battle i of each uses `derive_seed(seed, i)`), so
the design is paired: each seed gives one outcome without and one with the rules.
A side's change in win rate is tested with McNemar's exact test on the discordant
seeds (won in one arm and not in the other). Pairing removes the seed-to-seed
variation the two arms share (deployment rolls, the early dice, while the streams
still agree), so the test is never weaker than an unpaired two-proportion test, and
it stays exact for small counts. The difference's 95% interval is the Wald interval
for paired proportions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

import msgspec

from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.scenario import Scenario
from dogfight.core.text import agrees
from dogfight.dice import derive_seed
from dogfight.sim.matchup import Progress
from dogfight.sim.players import side_names
from dogfight.sim.runner import BattleResult, BattleTask, run_tasks
from dogfight.sim.stats import Z95, Interval, interval

ALPHA = 0.05
"""The significance level of the verdict."""


class SideChange(msgspec.Struct, frozen=True, kw_only=True):
    """One side's win rate without and with the rules, and the paired test."""

    side: str
    without: Interval
    with_rules: Interval
    difference: float
    """Win rate with the rules minus without (a fraction; x100 for points)."""
    low: float
    high: float
    """95% interval of the difference."""
    gained: int
    """Seeds this side wins only with the rules."""
    lost: int
    """Seeds this side wins only without them."""
    p_value: float
    """McNemar's exact test (two-sided) on `gained` against `lost`."""


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """What `dogfight compare` reports."""

    scenario: str
    rules: dict[str, str]
    battles: int
    seed: int
    sides: list[SideChange]
    draws_without: Interval
    draws_with: Interval
    mean_turns_without: float
    mean_turns_with: float
    significant: bool
    verdict: str


def paired_change(
    side: str, without: Sequence[str | None], with_rules: Sequence[str | None]
) -> SideChange:
    """`side`'s change in win rate between two arms of winners, seed by seed."""
    n = len(without)
    if len(with_rules) != n:
        raise ValueError("the two arms need the same number of battles")
    won_a = [w == side for w in without]
    won_b = [w == side for w in with_rules]
    gained = sum(b and not a for a, b in zip(won_a, won_b, strict=True))
    lost = sum(a and not b for a, b in zip(won_a, won_b, strict=True))
    diff = (gained - lost) / n if n else 0.0
    half = Z95 * math.sqrt(max(0.0, gained + lost - n * diff * diff)) / n if n else 1.0
    p = mcnemar_exact(gained, lost)
    return SideChange(
        side=side,
        without=interval(sum(won_a), n),
        with_rules=interval(sum(won_b), n),
        difference=diff,
        low=max(-1.0, diff - half),
        high=min(1.0, diff + half),
        gained=gained,
        lost=lost,
        p_value=min(1.0, p),
    )


def mcnemar_exact(gained: int, lost: int) -> float:
    """McNemar's exact test, two-sided: with no effect each discordant seed goes either
    way with chance 1/2, so the smaller count is Binomial(gained + lost, 1/2)."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(gained, lost) + 1))
    return min(1.0, 2 * tail / (1 << n))


def p_text(p: float) -> str:
    """'p = 0.041', or 'p < 0.001' for very small values."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3g}"


def verdict(rules: Mapping[str, str], change: SideChange, alpha: float = ALPHA) -> str:
    """The plain sentence: did the rules move the balance (for the side that moved most)?"""
    what = ", ".join(f"{k}={v}" for k, v in rules.items())
    points = 100 * abs(change.difference)
    direction = "more" if change.difference >= 0 else "less"
    who = agrees(change.side, "win")
    moved = f"{who} {points:.1f} points {direction} often ({p_text(change.p_value)})"
    if change.p_value < alpha:
        return f"With {what}, {moved}: the rule moves the balance."
    return (
        f"With {what}, no significant change: {moved}; "
        "the rule does not measurably move the balance."
    )


def judge(
    scenario: str,
    rules: Mapping[str, str],
    seed: int,
    sides: Sequence[str],
    without: Sequence[BattleResult],
    with_rules: Sequence[BattleResult],
) -> Comparison:
    """Compare two arms of results played on the same seeds."""
    winners_a = [r.winner for r in without]
    winners_b = [r.winner for r in with_rules]
    changes = [paired_change(side, winners_a, winners_b) for side in sides]
    # The side whose change is least likely to be chance (then the largest change).
    lead = min(changes, key=lambda c: (c.p_value, -abs(c.difference)))
    n = len(without)
    return Comparison(
        scenario=scenario,
        rules=dict(rules),
        battles=n,
        seed=seed,
        sides=changes,
        draws_without=interval(sum(w is None for w in winners_a), n),
        draws_with=interval(sum(w is None for w in winners_b), n),
        mean_turns_without=sum(r.turns for r in without) / n if n else 0.0,
        mean_turns_with=sum(r.turns for r in with_rules) / n if n else 0.0,
        significant=lead.p_value < ALPHA,
        verdict=verdict(rules, lead),
    )


def compare(
    scenario: Scenario,
    rules: Mapping[str, str],
    battles: int,
    seed: int = 1,
    *,
    players: Mapping[str, str] | None = None,
    base_rules: Mapping[str, str] | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Play `battles` battles of `scenario` without `rules` and `battles` with them.

    `base_rules` apply to both arms. Both arms use the same seeds; the rules are
    checked (by setting up a game) before any battle is played.
    """
    if not rules:
        raise DogfightError("compare needs at least one --rule KEY=VALUE to compare against")
    if battles < 1:
        raise DogfightError("compare needs at least one battle")
    base = dict(base_rules or {})
    changed = {**base, **rules}
    Game(scenario, seed=seed, rules=base)
    sides = side_names(Game(scenario, seed=seed, rules=changed))

    def tasks() -> Iterator[BattleTask]:
        for i in range(battles):
            game_seed = derive_seed(seed, i)
            for key, arm in (("without", base), ("with", changed)):
                yield BattleTask(
                    key=key,
                    index=i,
                    scenario=scenario,
                    seed=game_seed,
                    players=dict(players) if players else None,
                    rules=dict(arm) or None,
                )

    arms: dict[str, list[BattleResult]] = {"without": [], "with": []}
    for task, result in run_tasks(
        tasks(), jobs=jobs, cluster=cluster, progress=progress, total=2 * battles
    ):
        arms[task.key].append(result)
    return judge(scenario.name, rules, seed, sides, arms["without"], arms["with"])
