"""The one replay loop (core/gamefile.py `replay`): game files, the web's stored games,
undo and review all rebuild a game through it."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from dogfight.core.errors import DataError
from dogfight.core.game import Game
from dogfight.core.gamefile import ReplayError, log_digest, replay, replay_gamefile, to_gamefile
from dogfight.core.scenario import load_scenario

SCENARIOS = ["acta/furball", "evo/skirmish", "sfa/fighter-duel"]


def played(name: str, steps: int = 30) -> Game:
    """A game with up to `steps` first-legal actions taken."""
    game = Game(load_scenario(name), seed=3)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_replay_rebuilds_the_same_game_from_actions_or_plain_data(name: str) -> None:
    game = played(name)
    again = replay(Game(game.scenario, seed=3), game.actions)
    assert log_digest(again.events) == log_digest(game.events)
    raw = [msgspec.to_builtins(a) for a in game.actions]
    decoded = replay(Game(game.scenario, seed=3), raw, decode=game.ruleset.action_type)
    assert decoded.actions == game.actions
    assert log_digest(decoded.events) == log_digest(game.events)


def test_each_step_goes_through_the_callers_apply_in_order() -> None:
    game = played("acta/furball", 12)
    seen: list[int] = []

    def noting(replaying: Game, action: Any) -> None:
        seen.append(len(replaying.actions))
        replaying.apply(action)

    replay(Game(game.scenario, seed=3), game.actions, apply=noting)
    assert seen == list(range(len(game.actions)))


def test_an_action_that_does_not_decode_is_named_by_its_index() -> None:
    game = played("acta/furball", 6)
    raw: list[Any] = [msgspec.to_builtins(a) for a in game.actions]
    raw[4] = {"action": "no-such-action"}
    fresh = Game(game.scenario, seed=3)
    with pytest.raises(ReplayError) as caught:
        replay(fresh, raw, decode=game.ruleset.action_type)
    assert (caught.value.index, caught.value.decoding) == (4, True)
    assert len(fresh.actions) == 4  # left after the actions before it
    assert isinstance(caught.value, DataError)


def test_an_action_that_does_not_apply_is_named_by_its_index_from_start() -> None:
    game = played("acta/furball", 6)
    # An action legal at the start but refused by the rules after three actions.
    start = Game(game.scenario, seed=3)
    after = replay(Game(game.scenario, seed=3), game.actions[:3])
    refused = next(a for a in [*start.legal_actions(), *game.actions] if not after.is_legal(a))
    actions = [*game.actions[:3], refused]
    with pytest.raises(ReplayError) as caught:
        replay(Game(game.scenario, seed=3), actions, start=10)
    assert (caught.value.index, caught.value.decoding) == (13, False)
    assert "does not replay" in str(caught.value)


def test_a_game_file_names_the_field_of_the_action_that_fails() -> None:
    game = played("acta/furball", 6)
    gamefile = to_gamefile(game)
    gamefile.actions[2] = {"action": "no-such-action"}
    with pytest.raises(DataError, match=r"^saved: field 'actions\[2\]': ") as caught:
        replay_gamefile(gamefile, "saved")
    assert "does not replay" not in str(caught.value)
    gamefile.actions[2] = msgspec.to_builtins(game.actions[0])
    with pytest.raises(DataError, match=r"^saved: field 'actions\[2\]': does not replay \("):
        replay_gamefile(gamefile, "saved")
