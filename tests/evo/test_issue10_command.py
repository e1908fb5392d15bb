"""Issue 10, evo item 2: lost actions won back by command (EVO-CMD-3, rules-notes B.4 and
B.8). A flight with the Command trait gives one friendly flight within command range a
bonus action once per turn, so a leaderless, suppressed flight is not left only to drift.

Each test builds a position, plays it through the Game API and checks the actions the
flight may take against the clause in data/evo/rules.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.evo.actions import Activate, EndActivation
from dogfight.rulesets.evo.units import catalog

from .builders import activate, custom_unit, end, events, fl, flight, last, make_game

DUCK = custom_unit("duck", weapons=[], models=2)
BOSS = custom_unit("boss", weapons=[], models=1, traits=["Command"])


def position(**kw: Any) -> Game:
    """Blue: a Command flight C at (10, 20) and a two-model flight B 4" from it, and a far
    flight F; Red: one far flight."""
    return make_game(
        flight(0, "boss", 10, 20, 0, "C"),
        flight(0, "duck", 10, 24, 0, "B", models_at=[(10, 24), (12, 24)]),
        flight(0, "duck", 10, 40, 0, "F", models_at=[(10, 40), (12, 40)]),
        flight(1, "duck", 44, 4, 180, "R", models_at=[(44, 4), (44, 8)]),
        custom_units=[DUCK, BOSS],
        **kw,
    )


def cripple(game: Game, fid: str) -> None:
    """Mark a flight as having lost its leader and been suppressed (two actions lost)."""
    flight = fl(game, fid)
    flight.suppressed = True
    flight.leader = ""


def test_EVO_CMD_3_bonus_wins_back_an_action_for_a_leaderless_suppressed_flight() -> None:
    """EVO-CMD-3: B has lost its leader (-1, EVO-CMD-2) and is suppressed (-1, EVO-SUP-1):
    alone it could only drift. C's Command gives it one action back."""
    game = position()
    cripple(game, "B")
    assert Activate(unit="B", command="C") in game.legal_actions()
    activate_cmd = game.apply(Activate(unit="B", command="C"))
    assert fl(game, "B").allowed == 1
    assert fl(game, "C").gave_command
    assert any(e.clause == "EVO-CMD-3" for e in activate_cmd)
    assert last(game, "EVO-CMD-3").data["by"] == "C"
    assert game.state.phase == "act" and game.state.active_unit == "B"


def test_EVO_CMD_3_without_command_the_flight_only_drifts() -> None:
    """EVO-CMD-3 (control): the same flight activated without the bonus has no action and
    its activation ends at once."""
    game = position()
    cripple(game, "B")
    activate(game, "B")
    assert fl(game, "B").allowed == 0
    assert fl(game, "B").activated and game.state.phase == "activate"


def test_EVO_CMD_3_bonus_gives_a_third_action() -> None:
    """EVO-CMD-3: a flight with its two actions gets a third, no more."""
    game = position()
    game.apply(Activate(unit="B", command="C"))
    assert fl(game, "B").allowed == 3


def test_EVO_CMD_3_once_per_turn_and_only_within_range() -> None:
    """EVO-CMD-3: C's bonus is given once a turn; F (16" away) is out of its range; the
    bonus is back next turn."""
    game = position()
    legal = game.legal_actions()
    assert Activate(unit="F", command="C") not in legal
    with pytest.raises(IllegalAction, match="EVO-CMD-3"):
        game.check(Activate(unit="F", command="C"))
    game.apply(Activate(unit="C", command="C"))  # to itself
    assert fl(game, "C").allowed == 3
    end(game, "C")
    assert Activate(unit="B", command="C") not in game.legal_actions()
    with pytest.raises(IllegalAction, match="EVO-CMD-3"):
        game.check(Activate(unit="B", command="C"))
    for fid in ("B", "F"):
        activate(game, fid)
        if game.state.phase == "act":
            game.apply(EndActivation(unit=fid))
    activate(game, "R")
    end(game, "R")
    assert game.state.turn == 2
    assert not fl(game, "C").gave_command


def test_EVO_CMD_3_a_flight_without_the_trait_gives_nothing() -> None:
    """EVO-CMD-3: only a flight with the Command trait gives the bonus."""
    game = position()
    with pytest.raises(IllegalAction, match="EVO-CMD-3"):
        game.check(Activate(unit="C", command="B"))


def test_EVO_CMD_3_option_off() -> None:
    """EVO-CMD-3: command_bonus=false offers no bonus."""
    game = position(rules={"command_bonus": False})
    assert all(not a.command for a in game.legal_actions())
    assert events(game, "EVO-CMD-3") == []


def test_EVO_CMD_3_a_built_in_unit_has_the_trait() -> None:
    """EVO-CMD-3: the built-in squadron leader's flight carries Command."""
    assert catalog()["aurora-leader"].trait("Command") == 0
