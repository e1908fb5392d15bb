"""Batch play: run battles, many at once and in parallel, and summarise them."""

from dogfight.sim.bench import BenchRow, benchmark
from dogfight.sim.players import (
    DEFAULT_KIND,
    PlayerUnavailable,
    check_players,
    new_player,
    parse_ai_args,
    player_rng,
    side_names,
)
from dogfight.sim.runner import (
    BattleResult,
    BattleTask,
    UnitStats,
    iter_results,
    play_battle,
    play_game,
    result_of,
    run_battle,
    run_tasks,
    simulate,
)
from dogfight.sim.stats import (
    Interval,
    SideStats,
    Summary,
    SummaryBuilder,
    UnitTypeStats,
    summarize,
    wilson,
)

__all__ = [
    "DEFAULT_KIND",
    "BattleResult",
    "BattleTask",
    "BenchRow",
    "Interval",
    "PlayerUnavailable",
    "SideStats",
    "Summary",
    "SummaryBuilder",
    "UnitStats",
    "UnitTypeStats",
    "benchmark",
    "check_players",
    "iter_results",
    "new_player",
    "parse_ai_args",
    "play_battle",
    "play_game",
    "player_rng",
    "result_of",
    "run_battle",
    "run_tasks",
    "side_names",
    "simulate",
    "summarize",
    "wilson",
]
