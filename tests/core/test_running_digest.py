"""`RunningDigest`: the digest of a growing event log, hashed a piece at a time, is
always `log_digest` of the whole log (what the web server stores after every action)."""

from __future__ import annotations

import random

import pytest

from dogfight.core.game import Game
from dogfight.core.gamefile import RunningDigest, log_digest
from dogfight.core.scenario import builtin_scenarios

SCENARIOS = [s for s in builtin_scenarios() if s.name in ("furball", "skirmish", "fighter-duel")]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_after_every_action_it_is_the_whole_logs_digest(scenario: object) -> None:
    game = Game(scenario, seed=3)  # type: ignore[arg-type]
    running = RunningDigest()
    assert running.of([]) == log_digest([])
    rng = random.Random(3)
    copies = []
    while not game.is_over() and len(game.actions) < 120:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        assert running.of(game.events) == log_digest(game.events)
        if len(game.actions) % 40 == 0:
            copies.append((running.copy(), list(game.events)))
    # A copy goes on from where it was, apart from the one it was copied from.
    for copy, events in copies:
        assert copy.of(events) == log_digest(events)
        assert copy.of(game.events) == log_digest(game.events)


def test_a_shorter_or_another_log_is_hashed_from_its_start() -> None:
    scenario = SCENARIOS[0]
    game, other = Game(scenario, seed=1), Game(scenario, seed=2)
    for g, picks, actions in ((game, 5, 30), (other, 6, 90)):
        rng = random.Random(picks)
        while len(g.actions) < actions and not g.is_over():
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    running = RunningDigest()
    running.of(game.events)
    shorter = game.events[:10]
    assert running.of(shorter) == log_digest(shorter)
    # As long as the first log, but other events: not taken for its continuation.
    running.of(game.events)
    longer = other.events[: len(game.events) + 1]
    assert len(longer) == len(game.events) + 1
    assert log_digest(longer[: len(game.events)]) != log_digest(game.events)
    assert running.of(longer) == log_digest(longer)
