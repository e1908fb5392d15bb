"""Speed: battles and actions per second on the built-in scenarios.

Speed is measured here (`dogfight bench`), never in tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from dogfight.core.errors import UnknownName
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import builtin_scenario_files, load_scenario
from dogfight.dice import derive_seed
from dogfight.sim.players import DEFAULT_KIND, new_player
from dogfight.sim.runner import play_battle


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
    for path in builtin_scenario_files(name):
        scenario = load_scenario(str(path))
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
