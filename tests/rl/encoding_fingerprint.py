"""A fingerprint of what the learning environments show, for a change meant to be a
speed-up only: run it on the code before and after (PYTHONPATH=src python
tests/rl/encoding_fingerprint.py) and compare the last line, which must not move.

Two random battles of every built-in scenario are played through the AEC environment
(a tenth of the steps with an index the mask may leave out, so that the nearest-cell
rule is played too). At every step it hashes each side's observation vector and mask,
the cells of the decision and of every legal action in the engine's order, the agent,
its reward and whether it is done. Not a test (pytest does not collect it): the
figures it prints are the code's own, to be compared from one commit to the next.
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

from dogfight.core.scenario import builtin_scenarios
from dogfight.rl.aec import DogfightAEC


def scenario_digest(env: DogfightAEC, battles: int = 2) -> bytes:
    """The hash of `battles` random battles of `env`'s scenario (seeds 1000, 1001, ...)."""
    digest = hashlib.sha256()
    for battle in range(battles):
        env.reset(seed=1000 + battle)
        rng = random.Random(battle)
        for agent in env.agent_iter():
            for side in env.possible_agents:
                seen = env.observe(side)
                digest.update(side.encode())
                digest.update(seen["observation"].tobytes())
                digest.update(seen["action_mask"].tobytes())
            obs, reward, done, cut, _info = env.last()
            digest.update(repr((agent, reward, done, cut)).encode())
            if done or cut:
                env.step(None)
                continue
            driver = env.driver
            legal = driver.game.legal_actions()
            cells = driver.encoding.cells(driver.game.state, legal)
            digest.update(np.asarray(cells, dtype=np.int64).tobytes())
            allowed = obs["action_mask"].nonzero()[0]
            pick = int(allowed[rng.randrange(len(allowed))])
            if rng.random() < 0.1:
                pick = rng.randrange(driver.size)
            env.step(pick)
    return digest.digest()


def main() -> None:
    """Print each scenario's digest, then the digest of them all."""
    total = hashlib.sha256()
    for scenario in builtin_scenarios(None):
        part = scenario_digest(DogfightAEC(scenario))
        print(scenario.ruleset, scenario.name, part.hex()[:16])
        total.update(part)
    print("total", total.hexdigest())


if __name__ == "__main__":
    main()
