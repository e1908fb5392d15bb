"""Speed of the learning environments (`dogfight bench --rl`): random masked play.

For each built-in scenario, battles are played through the PettingZoo environment (once
untimed, then timed), an
agent picking uniformly among the cells its mask allows (reading `last()` at every
step, as an agent does). The same battles are then replayed through the Game API (the
legal actions asked, the same action applied), so the ratio is the cost the
environment adds: masks, observations and rewards. Times are this process's CPU
seconds, not wall-clock ones, so that other work on a shared machine counts less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import msgspec

from dogfight.core.game import Game
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import builtin_scenarios
from dogfight.dice import derive_seed
from dogfight.rl.aec import DogfightAEC


def _play(env: DogfightAEC, battles: int, seed: int) -> tuple[list[tuple[int, list[object]]], int]:
    """`battles` random masked battles: each one's seed and actions, and the steps."""
    rng = random.Random(seed)
    played: list[tuple[int, list[object]]] = []
    steps = 0
    for i in range(battles):
        env.reset(seed=derive_seed(seed, i))
        for _agent in env.agent_iter():
            obs, _reward, done, cut, _info = env.last()
            if done or cut:
                env.step(None)
                continue
            cells = obs["action_mask"].nonzero()[0]
            env.step(int(cells[rng.randrange(len(cells))]))
            steps += 1
        played.append((env.driver.game.seed, list(env.driver.game.actions)))
    return played, steps


class RlBenchRow(msgspec.Struct, frozen=True, kw_only=True):
    """The speed of one ruleset's built-in scenarios through the AEC environment."""

    ruleset: str
    battles: int
    steps: int
    env_seconds: float
    game_seconds: float
    env_steps_per_s: float
    game_steps_per_s: float
    ratio: float
    """The environment's time over the Game API's for the same steps."""


def rl_benchmark(
    ruleset: str | None = None,
    battles: int = 5,
    seed: int = 1,
    on_row: Callable[[RlBenchRow], None] | None = None,
) -> list[RlBenchRow]:
    """Time `battles` random masked battles of every built-in scenario of each ruleset
    (or of `ruleset`), through the AEC environment and then through the Game API."""
    name = find_ruleset(ruleset).name if ruleset else None
    by_ruleset: dict[str, list[tuple[float, float, int, int]]] = {}
    for scenario in builtin_scenarios(name):
        env = DogfightAEC(scenario)
        # An untimed first pass warms the rules' caches (move shapes, unit tables) for
        # both timed passes alike: the replay after it would otherwise find them warm.
        _play(env, battles, seed)
        start = time.process_time()
        played, steps = _play(env, battles, seed)
        env_seconds = time.process_time() - start
        start = time.process_time()
        for game_seed, actions in played:
            game = Game(scenario, seed=game_seed)
            for action in actions:
                game.legal_actions()
                game.apply(action)
        game_seconds = time.process_time() - start
        by_ruleset.setdefault(scenario.ruleset, []).append(
            (env_seconds, game_seconds, steps, battles)
        )
    rows = []
    for rules, parts in by_ruleset.items():
        env_s = sum(p[0] for p in parts)
        game_s = sum(p[1] for p in parts)
        steps = sum(p[2] for p in parts)
        row = RlBenchRow(
            ruleset=rules,
            battles=sum(p[3] for p in parts),
            steps=steps,
            env_seconds=env_s,
            game_seconds=game_s,
            env_steps_per_s=steps / env_s if env_s > 0 else 0.0,
            game_steps_per_s=steps / game_s if game_s > 0 else 0.0,
            ratio=env_s / game_s if game_s > 0 else 0.0,
        )
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows
