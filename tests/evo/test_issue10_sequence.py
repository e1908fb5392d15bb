"""Issue 10, evo item 8: the winner of the roll-off chooses whether to go first or
second (EVO-SEQ-1), as a decision through the Game API.

Each test builds a position, scripts the roll-off dice and checks the turn order against
the clause in data/evo/rules.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.evo.actions import Activate, ChooseOrder

from .builders import BLUE, RED, custom_unit, events, flight, make_game

DUCK = custom_unit("duck", weapons=[], models=1)


def two_a_side(**kw: Any) -> Game:
    return make_game(
        flight(0, "duck", 10, 10, 0, "B1"),
        flight(1, "duck", 40, 10, 180, "R1"),
        custom_units=[DUCK],
        first=None,
        **kw,
    )


def test_EVO_SEQ_1_winner_is_asked_first_or_second() -> None:
    """EVO-SEQ-1: Red wins the roll-off (2 v 5) and is the one to decide: its choices are
    to go first or second, and nobody may activate a flight yet."""
    game = two_a_side(dice=(2, 5))
    assert game.current_player() == RED
    assert game.state.phase == "order"
    assert game.legal_actions() == [ChooseOrder(first=True), ChooseOrder(first=False)]
    with pytest.raises(IllegalAction, match="roll-off winner"):
        game.check(Activate(unit="R1"))
    assert "Red wins" in events(game, "EVO-SEQ-1")[-1].text


def test_EVO_SEQ_1_winner_chooses_to_go_second() -> None:
    """EVO-SEQ-1: Red wins and chooses to go second: Blue takes the first player turn
    of every game turn."""
    game = two_a_side(dice=(2, 5))
    game.apply(ChooseOrder(first=False))
    assert game.state.first == BLUE
    assert game.current_player() == BLUE
    assert [a.unit for a in game.legal_actions()] == ["B1"]
    assert "chooses to go second" in events(game, "EVO-SEQ-1")[-1].text


def test_EVO_SEQ_1_winner_chooses_to_go_first() -> None:
    """EVO-SEQ-1: Blue wins (6 v 1) and chooses to go first."""
    game = two_a_side(dice=(6, 1))
    assert game.current_player() == BLUE
    game.apply(ChooseOrder(first=True))
    assert game.state.first == BLUE and game.current_player() == BLUE


def test_EVO_SEQ_1_loser_may_not_choose() -> None:
    """EVO-SEQ-1: only the winner decides; the game asks nobody else."""
    game = two_a_side(dice=(2, 5))
    assert game.current_player() != BLUE


def test_EVO_SEQ_1_scenario_first_skips_the_choice() -> None:
    """EVO-SEQ-1: a scenario's `first:` side needs no roll-off and no choice."""
    game = make_game(
        flight(0, "duck", 10, 10, 0, "B1"),
        flight(1, "duck", 40, 10, 180, "R1"),
        custom_units=[DUCK],
        first=RED,
    )
    assert game.state.phase == "activate" and game.current_player() == RED
