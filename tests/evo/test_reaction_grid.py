"""`reaction_candidates` asks the model grid which enemy flights have a model near the
trigger (issue 13: it walked every enemy model at every action). The flights it names
are those a walk over every enemy flight names, in every position of random games of
the built-in scenarios and of a crowd large enough for the grid's cells."""

from __future__ import annotations

import random

import pytest

from dogfight.core.game import Game
from dogfight.core.scenario import Scenario, builtin_scenarios
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.ruleset import reaction_candidates
from dogfight.rulesets.evo.shooting import Reach, distance, reaction_target_ok
from dogfight.rulesets.evo.state import Flight, PendingReaction
from dogfight.sim.bench import crowd_scenario


def walked(ctx: Ctx) -> list[Flight]:
    """The candidates by looking at every model of every enemy flight."""
    state = ctx.state
    pending = state.reaction
    assert pending is not None
    trigger = state.flights[pending.trigger]
    if not trigger.models:
        return []
    close = float(ctx.opt("close_range"))
    triggers = state.models_of(trigger)
    box = Reach(triggers, ctx.rules.reach_limit(close))
    out = []
    for flight in state.live_flights(state.other(trigger.side)):
        if flight.reacted or flight.id in pending.declined:
            continue
        near = flight.id in pending.shot_at or any(
            ctx.rules.within_close(distance(m, t), close)
            for m in state.models_of(flight)
            if box.holds(m)
            for t in triggers
        )
        if near and any(reaction_target_ok(ctx, flight, t) for t in state.models_of(trigger)):
            out.append(flight)
    return out


SCENARIOS = [*builtin_scenarios("evo"), crowd_scenario("evo", 15, 4)]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_the_grid_names_the_flights_a_walk_over_all_names(scenario: Scenario) -> None:
    asked = found = 0
    for seed in range(2):
        game = Game(scenario, seed=seed)
        rng = random.Random(seed)
        while not game.is_over() and game.state.turn <= 4:
            state = game.state
            ctx = game.ruleset.ctx(state)
            saved = state.reaction
            # Every flight of the side to act as a trigger, as after its action.
            for flight in list(state.flights.values()):
                if not flight.models:
                    continue
                state.reaction = PendingReaction(trigger=flight.id, shot_at=())
                expected = [f.id for f in walked(ctx)]
                assert [f.id for f in reaction_candidates(ctx)] == expected
                asked += 1
                found += bool(expected)
            state.reaction = saved
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert asked and found  # some positions had flights that could react
