"""The Gymnasium environment: one side of a scenario against a built-in player.

After the agent's action, the opponent (any player kind `dogfight.ai.make_player`
offers for the ruleset) plays every decision that is its own, from its `Seat`, until
the agent must decide again or the battle ends. The opponent's generator is drawn from
the reset seed, so `reset(seed=s)` and the same actions give the same battle.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from dogfight.ai import make_player
from dogfight.core.errors import DataError
from dogfight.core.scenario import Scenario
from dogfight.core.seat import Seat
from dogfight.rl.aec import RENDER_MODES, observation_space, render_text
from dogfight.rl.codec import Driver


class GymEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """A Gymnasium environment: `side` (default: the scenario's first) against
    `opponent` (a player kind, default 'heuristic'; 'random' always exists)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012

    def __init__(
        self,
        scenario: Scenario | str,
        *,
        side: str | None = None,
        opponent: str = "heuristic",
        rules: Mapping[str, object] | None = None,
        reward: str = "outcome",
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise DataError(
                f"render_mode: must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.driver = Driver(scenario, rules=rules, reward=reward)
        sides = self.driver.sides
        if side is None:
            side = sides[0]
        if side not in sides:
            raise DataError(f"side: the scenario's sides are {', '.join(sides)}, not {side!r}")
        self.side = side
        self.opponent_kind = opponent
        self.opponent = make_player(opponent, self.driver.game.ruleset)
        self.observation_space: spaces.Dict = observation_space(self.driver)  # type: ignore[assignment]
        self.action_space: spaces.Discrete = spaces.Discrete(self.driver.size)  # type: ignore[assignment]
        self._seeds = random.Random(0)
        self._rng = random.Random(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new battle (the game of `seed`), played by the opponent up to the agent's
        first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            game = seed
        else:
            game = self._seeds.getrandbits(63)
        self.driver.start(game)
        self._rng = random.Random(self._seeds.getrandbits(63))
        self.opponent = make_player(self.opponent_kind, self.driver.game.ruleset)
        self._opponent_plays()
        return self.driver.observation(self.side), {}

    def _opponent_plays(self) -> float:
        """The opponent's decisions until the agent's turn or the end; the agent's reward."""
        game, total = self.driver.game, 0.0
        while not game.is_over() and game.current_player() != self.side:
            seat = Seat(game)
            action = self.opponent.decide(seat, game.legal_actions(), self._rng)
            total += self.driver.apply(action)[self.side]
        return total

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """The agent's action (a cell; see `dogfight.rl.decode`), then the opponent's."""
        game = self.driver.game
        if game.is_over():
            raise RuntimeError("the battle is over: call reset()")
        reward = self.driver.play(int(action))[self.side]
        reward += self._opponent_plays()
        if self.render_mode == "human":
            self.render()
        return self.driver.observation(self.side), float(reward), game.is_over(), False, {}

    def render(self) -> str | None:  # type: ignore[override]
        """'ansi': the text; 'human': printed; no render mode: nothing."""
        if self.render_mode is None:
            return None
        text = render_text(self.driver)
        if self.render_mode == "human":
            print(text)
            return None
        return text
