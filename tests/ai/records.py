"""Playing a heuristic against the random player, for the players' win-rate tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from dogfight.ai import RandomPlayer
from dogfight.core import Game, load_scenario, play


def heuristic_record(scenario_name: str, games: int, hero: Callable[[], Any]) -> dict[str, int]:
    """Wins, draws and losses of `hero()` against the random player, each side in turn
    (game seed i; the players' generator random.Random(i))."""
    scenario = load_scenario(scenario_name)
    record = {"win": 0, "draw": 0, "loss": 0}
    for i in range(games):
        game = Game(scenario, seed=i)
        sides = game.sides()
        me = sides[i % 2]
        players: dict[str, Any] = {s: hero() if s == me else RandomPlayer() for s in sides}
        play(game, players, random.Random(i))
        outcome = game.outcome()
        assert outcome is not None
        if outcome.winner == me:
            record["win"] += 1
        elif outcome.winner is None:
            record["draw"] += 1
        else:
            record["loss"] += 1
    return record
