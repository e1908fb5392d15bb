"""Speed of the learning environments (`dogfight bench --rl`): random masked play.

For each built-in scenario, battles are played through the PettingZoo environment (each
once untimed, then timed, the same actions each time), an agent picking uniformly among
the cells its mask allows (reading `last()` at every step, as an agent does). Right
after each, the same battle is replayed through the Game API (the legal actions asked,
and the one at the same place of the listing applied: the listed object, which the
engine does not check again, as it does not check the environment's pick; applying a
copy would make the Game API pay a check the environment never pays), so the ratio is
the cost the environment adds: masks, observations and rewards. Times are this
process's CPU seconds, not wall-clock ones, so that other work on a shared machine
counts less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import msgspec
import numpy as np

from dogfight.core.game import Game
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import builtin_scenarios
from dogfight.dice import derive_seed
from dogfight.rl.aec import DogfightAEC


def _battle(env: DogfightAEC, seed: int, rng: random.Random) -> tuple[list[object], int]:
    """One random masked battle of the game of `seed`: its actions and its steps."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, done, cut, _info = env.last()
        if done or cut:
            env.step(None)
            continue
        # Read as booleans: numpy finds the set cells of a bool array 5 to 17 times
        # faster than of the int8 mask itself (docs/rl.md, "Speed").
        cells = obs["action_mask"].view(np.bool_).nonzero()[0]
        env.step(int(cells[rng.randrange(len(cells))]))
        steps += 1
    return list(env.driver.game.actions), steps


def _places(env: DogfightAEC, actions: list[object]) -> list[int]:
    """Where each action of the battle stands in the Game API's listing of its decision
    (untimed: it replays the battle once to find them)."""
    game = Game(env.driver.scenario, seed=env.driver.game.seed)
    places = []
    for action in actions:
        legal = game.legal_actions()
        places.append(legal.index(action))
        game.apply(legal[places[-1]])
    return places


def _replay(env: DogfightAEC, places: list[int]) -> None:
    """The same battle through the Game API, as a player of it plays: the legal actions
    asked, and the one at the same place of that listing applied (the listed object
    itself, which the engine need not check again, as the environment's pick is)."""
    game = Game(env.driver.scenario, seed=env.driver.game.seed)
    for at in places:
        game.apply(game.legal_actions()[at])


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
        rng = random.Random(seed)
        env_seconds = game_seconds = 0.0
        steps = 0
        for i in range(battles):
            # Each battle is played once untimed, to warm the rules' caches (move shapes,
            # unit tables) for both timed runs alike; then through the environment and at
            # once through the Game API, so that both meet the same load on the machine.
            game_seed, picks = derive_seed(seed, i), rng.getrandbits(63)
            _battle(env, game_seed, random.Random(picks))
            start = time.process_time()
            actions, taken = _battle(env, game_seed, random.Random(picks))
            env_seconds += time.process_time() - start
            places = _places(env, actions)
            start = time.process_time()
            _replay(env, places)
            game_seconds += time.process_time() - start
            steps += taken
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
