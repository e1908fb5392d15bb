"""Learning environments for every ruleset: PettingZoo (AEC) and Gymnasium (docs/rl.md).

`env(scenario)` is a PettingZoo `AECEnv` whose agents are the scenario's sides;
`GymEnv(scenario)` is a Gymnasium `Env` for one side against a built-in player.
Both number actions and lay out observations as the ruleset's `Ruleset.encoding`
says; `decode` and `encode` convert between indices and engine actions. Needs the
`rl` extra (pettingzoo, gymnasium).
"""

from __future__ import annotations

from dogfight.rl.aec import DogfightAEC, env
from dogfight.rl.codec import decode, describe, encode
from dogfight.rl.gym import GymEnv

__all__ = ["DogfightAEC", "GymEnv", "decode", "describe", "encode", "env"]
