"""`reaction_candidates` and `zone_models` ask the model grid which models are near
(issue 13: they walked every model on the table at every action or shot). What they
name is what a walk over every model names, in every position of random games of the
built-in scenarios and of a crowd large enough for the grid's cells."""

from __future__ import annotations

import random

import pytest

from dogfight.core.game import Game
from dogfight.core.scenario import Scenario, builtin_scenarios
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.ruleset import reaction_candidates
from dogfight.rulesets.evo.shooting import Reach, distance, reaction_target_ok, zone_models
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


@pytest.mark.parametrize("scenario", SCENARIOS[-1:], ids=lambda s: s.name)
def test_the_fire_zone_is_the_models_a_walk_over_all_finds(scenario: Scenario) -> None:
    game = Game(scenario, seed=4)
    rng = random.Random(4)
    crowded = 0
    while not game.is_over() and game.state.turn <= 3:
        state = game.state
        ctx = game.ruleset.ctx(state)
        reach = ctx.rules.zone_reach(float(ctx.opt("fire_zone")), str(ctx.opt("fire_zone_measure")))
        flights = list(state.flights.values())
        for target in list(state.models.values())[::7]:
            flight = flights[rng.randrange(len(flights))]
            centre = target.pose.position
            walked_zone = [
                m.id
                for m in state.models.values()
                if m.unit != flight.id
                and ctx.rules.in_zone(m.pose.position.distance(centre), reach)
            ]
            assert [m.id for m in zone_models(ctx, flight, target)] == walked_zone
            crowded += len(walked_zone) > 1
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert crowded  # some zones held more than their target
