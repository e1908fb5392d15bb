"""`fighter_may_fire` and `ship_may_fire` (issue 13: the fire phases ask them at every
step, stopping at the first shot) answer as `bool(fighter_shots)` / `bool(ship_shots)`
would, in every position of random games of the built-in scenarios."""

from __future__ import annotations

import random

import pytest

from dogfight.core.game import Game
from dogfight.core.scenario import builtin_scenarios
from dogfight.rulesets.acta.targets import (
    fighter_may_fire,
    fighter_shots,
    ship_may_fire,
    ship_shots,
)


@pytest.mark.parametrize("scenario", builtin_scenarios("acta"), ids=lambda s: s.name)
def test_may_fire_is_whether_the_shots_list_anything(scenario: object) -> None:
    seen = {True: 0, False: 0}
    for seed in range(2):
        game = Game(scenario, seed=seed)  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not game.is_over():
            ctx = game.ruleset.ctx(game.state)
            for unit in list(game.state.units.values()):
                if game.state.is_fighter(unit):
                    expected = bool(fighter_shots(ctx, unit))
                    assert fighter_may_fire(ctx, unit) is expected
                else:
                    expected = bool(ship_shots(ctx, unit))
                    assert ship_may_fire(ctx, unit) is expected
                seen[expected] += 1
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert seen[True] and seen[False]  # both answers were asked for
