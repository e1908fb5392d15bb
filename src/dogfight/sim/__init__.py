"""Batch play: run battles, many at once and in parallel, and summarise them."""

from dogfight.sim.bench import BenchRow, bench
from dogfight.sim.players import (
    DEFAULT_KIND,
    PlayerUnavailable,
    new_player,
    parse_ai_args,
    player_rng,
    side_names,
)
from dogfight.sim.runner import BattleResult, play_battle, result_of, run_battle, simulate
from dogfight.sim.stats import Interval, SideStats, Summary, summarize, wilson

__all__ = [
    "DEFAULT_KIND",
    "BattleResult",
    "BenchRow",
    "Interval",
    "PlayerUnavailable",
    "SideStats",
    "Summary",
    "bench",
    "new_player",
    "parse_ai_args",
    "play_battle",
    "player_rng",
    "result_of",
    "run_battle",
    "side_names",
    "simulate",
    "summarize",
    "wilson",
]
