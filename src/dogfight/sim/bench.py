"""Speed: battles and actions per second on the built-in scenarios, and how a
simulation scales with worker processes (`dogfight bench --scaling`).

Speed is measured here (`dogfight bench`), never in tests.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sequence

import msgspec

from dogfight.core.errors import UnknownName
from dogfight.core.game import Game
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, builtin_scenarios
from dogfight.dice import derive_seed
from dogfight.sim.players import DEFAULT_KIND, new_player
from dogfight.sim.runner import iter_results, play_battle


class BenchRow(msgspec.Struct, frozen=True, kw_only=True):
    """The speed of one scenario."""

    ruleset: str
    scenario: str
    players: str
    """The player kind both sides used."""
    battles: int
    actions: int
    seconds: float
    battles_per_s: float
    actions_per_s: float


def bench_kind(ruleset: str) -> str:
    """The heuristic player if the ruleset has one, else the random player."""
    try:
        new_player(DEFAULT_KIND, ruleset)
    except UnknownName:
        return "random"
    return DEFAULT_KIND


def benchmark(
    ruleset: str | None = None,
    battles: int = 20,
    seed: int = 1,
    on_row: Callable[[BenchRow], None] | None = None,
) -> list[BenchRow]:
    """Time `battles` seeded battles of every built-in scenario (of `ruleset`, or all).

    Both sides are played by the same kind of player (see `bench_kind`); the
    games run one after another in this process.
    """
    name = find_ruleset(ruleset).name if ruleset else None
    rows: list[BenchRow] = []
    for scenario in builtin_scenarios(name):
        kind = bench_kind(scenario.ruleset)
        actions = 0
        start = time.perf_counter()
        for i in range(battles):
            game = play_battle(scenario, derive_seed(seed, i), default=kind)
            actions += len(game.actions)
        seconds = time.perf_counter() - start
        row = BenchRow(
            ruleset=scenario.ruleset,
            scenario=scenario.name,
            players=kind,
            battles=battles,
            actions=actions,
            seconds=seconds,
            battles_per_s=battles / seconds if seconds > 0 else 0.0,
            actions_per_s=actions / seconds if seconds > 0 else 0.0,
        )
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


class ScalingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One run of a scaling benchmark."""

    jobs: int
    seconds: float
    battles_per_s: float
    cpu_seconds: float
    """Processor time of this process and its workers: the parallel run's extra cost
    (starting processes, pickling) shows here even on a busy machine."""


class Scaling(msgspec.Struct, frozen=True, kw_only=True):
    """The same simulation timed with one process and with several."""

    ruleset: str
    scenario: str
    players: str
    battles: int
    seed: int
    runs: list[ScalingRow]
    speedup: float
    """Seconds with 1 job / seconds with the most jobs."""
    same_results: bool
    """Whether every run gave the same results (it must)."""


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def scaling(
    scenario: Scenario,
    battles: int = 2000,
    seed: int = 1,
    jobs: Sequence[int] = (1, 2),
    kind: str | None = None,
) -> Scaling:
    """Time `battles` battles of `scenario` with each number of `jobs` (the same
    simulation as `simulate --jobs N`, rows streamed and dropped) and the speedup of
    the largest over 1 job. Both sides play `kind` (default: `bench_kind`)."""
    kind = kind or bench_kind(scenario.ruleset)
    sides = Game(scenario, seed=seed).sides()
    players = {side: kind for side in sides}
    runs: list[ScalingRow] = []
    digests: set[int] = set()
    for count in jobs:
        cpu = _cpu_seconds()
        start = time.perf_counter()
        digest = 0
        for result in iter_results(scenario, battles, seed, count, players):
            # A running hash of every result: equal runs give equal digests.
            digest = hash((digest, msgspec.json.encode(result)))
        seconds = time.perf_counter() - start
        digests.add(digest)
        runs.append(
            ScalingRow(
                jobs=count,
                seconds=seconds,
                battles_per_s=battles / seconds if seconds > 0 else 0.0,
                cpu_seconds=_cpu_seconds() - cpu,
            )
        )
    base = next((r.seconds for r in runs if r.jobs == 1), runs[0].seconds)
    return Scaling(
        ruleset=scenario.ruleset,
        scenario=scenario.name,
        players=kind,
        battles=battles,
        seed=seed,
        runs=runs,
        speedup=base / runs[-1].seconds if runs[-1].seconds > 0 else 0.0,
        same_results=len(digests) == 1,
    )
