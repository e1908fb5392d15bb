"""The PettingZoo environment: the sides of a scenario take turns as the rules say.

The agent selected is always the side the rules ask next, be it for a move, a
reaction, an interception or a secret selection, so one side may act many times in a
row. Rewards come at the end (`outcome`) or at every step (`damage`); when the battle
ends every side is terminated (a turn limit ends it too, as the rules' own outcome).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dogfight.core.errors import DataError
from dogfight.core.scenario import Scenario
from dogfight.rl.codec import OBS_LIMIT, Driver

RENDER_MODES = ("ansi", "human")


def observation_space(driver: Driver) -> spaces.Dict:
    """The classic PettingZoo observation: a float32 vector and an int8 action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                -OBS_LIMIT, OBS_LIMIT, shape=(driver.obs_size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(driver.size,), dtype=np.int8),
        }
    )


def render_text(driver: Driver) -> str:
    """A few lines on the game: turn, who decides, the last events."""
    game = driver.game
    lines = [f"{game.scenario.name}: {game.ruleset.summary(game.state)}"]
    outcome = game.outcome()
    lines.append(
        f"outcome: {outcome.winner or 'draw'} ({outcome.reason})"
        if outcome
        else f"deciding: {game.current_player()}"
    )
    lines.extend(f"  {e.text}" for e in game.events_for(None)[-3:])
    return "\n".join(lines)


class DogfightAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """A PettingZoo AEC environment for one scenario (see `env`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it as a class field)
        "name": "dogfight_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: Scenario | str,
        *,
        rules: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        reward: str = "outcome",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise DataError(
                f"render_mode: must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.driver = Driver(scenario, rules=rules, reward=reward)
        self.possible_agents = list(self.driver.sides)
        self.observation_spaces = {a: observation_space(self.driver) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.driver.size) for a in self.possible_agents}
        self._seeds = random.Random(0)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of a side (the same for every side)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """`Discrete(n)`, n the scenario's number of action cells."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new battle: the game of `seed` (without one, the next of the seeds drawn
        from the last seed given)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game = seed
        else:
            game = self._seeds.getrandbits(63)
        self.driver.start(game)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._deciding()

    def _deciding(self) -> str:
        side = self.driver.game.current_player()
        return side if side is not None else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees now; its mask is all zeros unless it is the one deciding."""
        return self.driver.observation(agent)

    def step(self, action: int | None) -> None:
        """The selected side takes action `action` (a cell; see `dogfight.rl.decode`)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"side '{agent}' must act: an action index, not None")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.driver.play(int(action))
        over = self.driver.game.is_over()
        self.rewards = {a: rewards.get(a, 0.0) for a in self.agents}
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._deciding()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """'ansi': the text; 'human': printed; no render mode: nothing."""
        if self.render_mode is None:
            return None
        text = render_text(self.driver)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(
    scenario: Scenario | str,
    *,
    rules: Mapping[str, object] | None = None,
    render_mode: str | None = None,
    reward: str = "outcome",
) -> DogfightAEC:
    """A PettingZoo AEC environment of `scenario` (a `Scenario`, a built-in name or a
    file), with rule overrides `rules`, reward 'outcome' or 'damage'."""
    return DogfightAEC(scenario, rules=rules, render_mode=render_mode, reward=reward)
