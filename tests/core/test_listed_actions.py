"""`Game.apply` skips the ruleset's check only for an action that is itself one the last
`legal_actions` listed for the state as it stands (issue 13: the random player's and
the lab's every step); anything else is checked as before."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from dogfight.core.errors import IllegalAction
from dogfight.core.game import Game, new_game


def counting(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The actions the ruleset is asked to check, from now on."""
    seen: list[Any] = []
    real = game.ruleset.check

    def check(state: Any, action: Any) -> None:
        seen.append(action)
        real(state, action)

    monkeypatch.setattr(game.ruleset, "check", check)
    return seen


@pytest.mark.parametrize("name", ["acta/furball", "evo/skirmish", "sfa/fighter-duel"])
def test_a_listed_action_is_not_checked_again_and_a_copy_is(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(name, seed=3)
    twin = new_game(name, seed=3)
    seen = counting(game, monkeypatch)  # both games share the ruleset: counts both
    copies = []
    for _ in range(12):
        legal = game.legal_actions()
        game.apply(legal[-1])
        listed = twin.legal_actions()[-1]
        copy = msgspec.json.decode(msgspec.json.encode(listed), type=type(listed))
        assert copy is not listed and copy == listed
        twin.apply(copy)
        copies.append(copy)
    # Only the twin's copies were checked; the listed actions were not checked again.
    assert len(seen) == len(copies) and all(a is b for a, b in zip(seen, copies, strict=True))
    assert twin.events == game.events


def test_an_action_listed_before_the_last_apply_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = new_game("evo/skirmish", seed=1)
    old = game.legal_actions()
    game.apply(old[0])
    seen = counting(game, monkeypatch)
    stale = old[0]
    if game.is_legal(stale):
        game.apply(stale)
    else:
        with pytest.raises(IllegalAction):
            game.apply(stale)
    assert seen and seen[-1] is stale


def test_a_clone_checks_what_the_original_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game("acta/furball", seed=2)
    action = game.legal_actions()[0]
    copy = game.clone()
    seen = counting(copy, monkeypatch)
    copy.apply(action)
    assert seen == [action]
