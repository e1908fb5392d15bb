"""The sfa heuristic sees only its side (issue 12): over whole heuristic-v-heuristic
games, at every decision, a second game in which the other side's secret selections
(SFA-SEQ-1, SFA-SEQ-2) are changed to other legal ones and the dice are reseeded gets
exactly the same decision from the player (same generator seed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.seat import Seat
from dogfight.dice import seeded
from dogfight.rulesets.sfa.actors import speed_of
from dogfight.rulesets.sfa.choices import selections_for
from dogfight.rulesets.sfa.heuristic import SfaHeuristic
from dogfight.rulesets.sfa.ruleset import SfaRuleset
from dogfight.rulesets.sfa.state import SfaState

SCENARIOS = ("sfa/fighter-duel", "sfa/asteroid-field", "sfa/tech-melee", "sfa/missile-boat")
MAX_ACTIONS = 400
"""Enough for several turns of each scenario, short enough for the suite."""


def hidden_keys(game: Game, side: str) -> list[str]:
    """The other side's selections that `side`'s observation does not show."""
    shown = game.observation(side)["selections"]
    state: SfaState = game.state
    return sorted(
        key
        for key in state.selections
        if key not in shown and state.craft[key.partition("#")[0]].side != side
    )


def altered(game: Game, side: str, rng: random.Random) -> tuple[Game, int]:
    """A copy of `game` whose hidden selections are each changed to another legal one
    (consistent with a revealed Speed), with its dice reseeded; and how many changed."""
    copy = game.clone()
    state: SfaState = copy.state
    changed = 0
    for key in hidden_keys(game, side):
        real = state.selections[key]
        others = [s for s in selections_for(state, key) if s != real]
        if state.phase == "act" and key in state.speeds:
            others = [s for s in others if speed_of(state, key, s) == state.speeds[key]]
        if others:
            state.selections[key] = others[rng.randrange(len(others))]
            changed += 1
    copy.dice = seeded(rng.getrandbits(63))
    return copy, changed


@pytest.mark.parametrize("name", SCENARIOS)
def test_decisions_do_not_depend_on_the_other_sides_secrets_or_the_dice(name: str) -> None:
    game = Game(load_scenario(name), seed=5)
    sides = game.state.sides
    real = {side: SfaHeuristic() for side in sides}
    shadow = {side: SfaHeuristic() for side in sides}
    rng = random.Random(9)
    decisions = changed = 0
    for step in range(MAX_ACTIONS):
        side = game.current_player()
        if side is None:
            break
        legal = game.legal_actions()
        action = real[side].decide(Seat.of(game, side), legal, random.Random(step))
        other, n = altered(game, side, rng)
        assert other.legal_actions() == legal  # what this side may do is its own business
        again = shadow[side].decide(Seat.of(other, side), legal, random.Random(step))
        assert again == action, f"step {step}: {action} with the real secrets, {again} without"
        decisions += 1
        changed += n > 0
        game.apply(action)
    assert decisions > 50
    assert changed > 10  # the secrets really were changed under many decisions


def test_known_state_keeps_the_other_sides_selections_secret() -> None:
    """SFA-SEQ-1: while selecting, a side knows only its own selections."""
    game = Game(load_scenario("sfa/fighter-duel"), seed=3)
    first = game.current_player()
    while game.current_player() == first:
        game.apply(game.legal_actions()[0])
    second = game.current_player()
    assert second is not None and second != first
    made = set(game.state.selections)
    assert made
    assert Seat.of(game, second).state().selections == {}
    assert set(Seat.of(game, first).state().selections) == made


def test_known_state_is_a_copy() -> None:
    game = Game(load_scenario("sfa/fighter-duel"), seed=3)
    known = game.ruleset.known_state(game.state, game.state.sides[0])
    assert known is not game.state
    known.turn += 5
    assert game.state.turn != known.turn


def sample_selections(game: Game, side: str, seed: int) -> dict[str, Any]:
    ruleset = game.ruleset
    assert isinstance(ruleset, SfaRuleset)
    return dict(ruleset.sample_state(game.state, side, random.Random(seed)).selections)


def test_sample_state_redraws_the_other_sides_secrets_from_what_is_legal() -> None:
    """SFA-SEQ-1: a sampled state keeps our selections and draws theirs from the legal
    ones; the real game is not changed."""
    game = Game(load_scenario("sfa/fighter-duel"), seed=3)
    first = game.current_player()
    while game.current_player() == first:
        game.apply(game.legal_actions()[-1])
    second = game.current_player()
    assert second is not None
    real = dict(game.state.selections)
    draws = [sample_selections(game, second, seed) for seed in range(12)]
    assert game.state.selections == real
    for drawn in draws:
        assert set(drawn) == set(real)
        for key, sel in drawn.items():
            assert sel in selections_for(game.state, key)
    assert any(drawn != real for drawn in draws)
    # Our own selections are never redrawn.
    assert all(sample_selections(game, first, seed) == real for seed in range(5))


def test_sample_state_keeps_revealed_speeds() -> None:
    """SFA-SEQ-2: once Speeds are revealed, a redrawn selection gives the Speed shown."""
    game = Game(load_scenario("sfa/fighter-duel"), seed=3)
    while game.state.phase == "select":
        game.apply(game.legal_actions()[-1])
    side = game.current_player()
    assert side is not None
    state: SfaState = game.state
    for seed in range(8):
        drawn = game.ruleset.sample_state(state, side, random.Random(seed))
        for key in state.order:
            assert speed_of(drawn, key, drawn.selections[key]) == state.speeds[key]


def test_the_seat_sample_plays_on_without_touching_the_real_game() -> None:
    game = Game(load_scenario("sfa/fighter-duel"), seed=3)
    before = [e.text for e in game.events]
    copy = Seat.of(game).sample(random.Random(1))
    while not copy.is_over() and len(copy.actions) < 40:
        copy.apply(copy.legal_actions()[0])
    assert [e.text for e in game.events] == before


def test_sample_state_does_not_give_away_a_cloaked_craft() -> None:
    """SFA-TEC-25: a cloaked craft the side cannot see is left out of its known state,
    and a sampled state puts it on a free open hex drawn at random, not where it is."""
    game = Game(load_scenario("sfa/fighter-duel"), seed=3)
    state: SfaState = game.state
    mine = game.current_player()
    assert mine is not None
    enemy = next(c for c in sorted(state.craft.values(), key=lambda c: c.id) if c.side != mine)
    enemy.cloaked = True
    assert enemy.id not in game.ruleset.known_state(state, mine).craft
    places = set()
    for seed in range(10):
        drawn = game.ruleset.sample_state(state, mine, random.Random(seed)).craft[enemy.id]
        assert state.map.contains(drawn.hex)
        places.add((drawn.hex, drawn.facing))
    assert len(places) > 5
    assert state.craft[enemy.id].cloaked  # the real state is untouched
    # The other side sees its own craft where it is.
    other = game.ruleset.sample_state(state, enemy.side, random.Random(0))
    assert other.craft[enemy.id].hex == enemy.hex
