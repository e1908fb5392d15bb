"""Clause tests for EVO reactions: what triggers them, what they may shoot, how often.

Each test builds a position, plays it through the Game API and checks the result against
one clause of data/evo/rules.md (named in the test and docstring).
"""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.rulesets.evo.actions import Decline, React

from .builders import (
    BLUE,
    RED,
    activate,
    custom_unit,
    end,
    fl,
    flight,
    gun,
    last,
    make_game,
    manoeuvre,
    rotate,
    script,
    shoot,
)

DUCK = custom_unit("duck", weapons=[], models=1)
TURRET = custom_unit("turret", weapons=[gun(range=18)], models=1)
"""An all-round 18" gun."""
FIXED = custom_unit("fixed", weapons=[gun(range=18, arc="FaF")], models=1)
"""An 18" gun fixed forward."""


def mover_game(*extra: dict[str, Any], **kw: Any) -> Game:
    """Blue duck M drifts to (16, 24); Red turret R at (30, 24) (14" away)."""
    units = kw.pop("custom_units", [DUCK, TURRET, FIXED])
    return make_game(
        flight(0, "duck", 10, 24, 0, "M"),
        flight(1, "turret", 30, 24, 90, "R"),
        *extra,
        custom_units=units,
        **kw,
    )


def test_EVO_REA_1_action_within_close_range_triggers() -> None:
    """EVO-REA-1: an action completed within 10" of an enemy flight lets it react: the
    reacting side decides next, and may react at the active flight or decline."""
    game = mover_game()
    activate(game, "M")
    assert game.state.phase == "act"
    manoeuvre(game, "M", ("M.1", 4, 0))  # (20, 24): exactly 10" from R.1
    assert game.state.phase == "react"
    assert game.current_player() == RED
    assert React(unit="R", target="M.1") in game.legal_actions()
    assert Decline() in game.legal_actions()
    game.apply(Decline())
    assert game.state.phase == "act" and game.current_player() == BLUE


def test_EVO_REA_1_not_beyond_close_range_when_not_shot_at() -> None:
    """EVO-REA-1: an action more than 10" away that does not shoot at the flight triggers
    nothing, though the turret's 18" gun could reach."""
    game = mover_game()
    activate(game, "M")
    manoeuvre(game, "M", ("M.1", 0, 4))  # (16, 28): 14.6" from R.1
    assert game.state.phase == "act"
    assert game.current_player() == BLUE
    assert not game.is_legal(React(unit="R", target="M.1"))


def test_EVO_REA_1_shot_at_from_beyond_close_range_triggers() -> None:
    """EVO-REA-1: a flight shot at may react even from beyond 10" (under option
    reaction_range=weapon; by default EVO-REA-2 keeps it from firing back that far)."""
    sniper = custom_unit("sniper", weapons=[gun(range=18)])
    game = make_game(
        flight(0, "sniper", 10, 24, 0, "S"),
        flight(1, "turret", 30, 24, 90, "R"),
        custom_units=[sniper, TURRET],
        rules={"reaction_range": "weapon"},
    )
    activate(game, "S")  # to (16, 24): 14" from R.1
    script(game, 2)
    shoot(game, "S", "R.1")
    assert game.state.phase == "react"
    script(game, 2)
    game.apply(React(unit="R", target="S.1"))
    reacted = last(game, "EVO-REA-2")
    assert reacted.data["unit"] == "R"
    assert last(game, "EVO-SHT-1").data["target"] == "S.1"
    assert fl(game, "R").reacted


def test_EVO_REA_1_being_in_the_fire_zone_counts_as_shot_at() -> None:
    """EVO-REA-1: a Red flight with a model in the fire zone (5" from the target, 16" from
    the firer) was shot at, so it may react, even though the Shoot's single die went to
    the nearer target (under reaction_range=weapon: by default EVO-REA-2 stops a
    reaction at 16")."""
    popgun = custom_unit("popgun", weapons=[gun(range=12)])
    game = make_game(
        flight(0, "popgun", 10, 24, 0, "F"),
        flight(1, "duck", 27, 24, 180, "T"),
        flight(1, "turret", 32, 24, 90, "C"),
        custom_units=[popgun, DUCK, TURRET],
        rules={"reaction_range": "weapon"},
    )
    activate(game, "F")  # to (16, 24): T.1 11" away, C.1 16" away, 5" from T.1
    script(game, 2)  # a miss on T.1
    shoot(game, "F", "T.1")
    assert game.state.phase == "react"
    assert game.is_legal(React(unit="C", target="F.1"))


def test_EVO_REA_1_one_flight_at_a_time_then_decline() -> None:
    """EVO-REA-1: the reacting side chooses its eligible flights one at a time; after one
    reacts the others may still react, and a Decline ends the window."""
    game = mover_game(flight(1, "turret", 29, 27, 90, "Q"))
    activate(game, "M")
    manoeuvre(game, "M", ("M.1", 4, 0))
    script(game, 2)
    game.apply(React(unit="R", target="M.1"))
    assert game.state.phase == "react"
    assert [a for a in game.legal_actions() if isinstance(a, React)] == [
        React(unit="Q", target="M.1")
    ]
    game.apply(Decline())
    assert game.state.phase == "act"
    assert not fl(game, "Q").reacted


def test_EVO_REA_2_must_target_the_triggering_flight() -> None:
    """EVO-REA-2: a reaction must shoot at the flight that triggered it, not at another
    flight of that side."""
    game = mover_game(flight(0, "duck", 24, 28, 0, "N"), first=RED)
    activate(game, "R")  # turret drifts to (30, 30)
    end(game, "R")
    activate(game, "M")
    manoeuvre(game, "M", ("M.1", 4, 0))  # (20, 24): 11.7" from R.1, N.1 is 8.7"
    assert game.state.phase == "act", 'beyond 10": no reaction'
    manoeuvre(game, "M", ("M.1", 4, 0))  # (24, 24): 8.5" from R.1
    assert game.state.phase == "react"
    with pytest.raises(IllegalAction, match="EVO-REA-2"):
        game.check(React(unit="R", target="N.1"))
    assert game.is_legal(React(unit="R", target="M.1"))


def test_EVO_REA_2_printed_arcs_only() -> None:
    """EVO-REA-2: a flight whose fixed-forward gun does not bear on the triggering flight
    (behind it) may not react; facing it, it may."""
    for facing, reacts in ((0, False), (180, True)):
        game = make_game(
            flight(0, "duck", 10, 24, 0, "M"),
            flight(1, "fixed", 26, 24, facing, "R"),
            custom_units=[DUCK, FIXED],
        )
        activate(game, "M")
        manoeuvre(game, "M", ("M.1", 2, 0))  # (18, 24): 8" from R.1
        assert (game.state.phase == "react") is reacts, facing
        if not reacts:
            with pytest.raises(IllegalAction):
                game.check(React(unit="R", target="M.1"))


def test_EVO_REA_2_a_rotate_does_not_free_a_reaction_from_arcs() -> None:
    """EVO-REA-2 / EVO-ROT-1: a Red flight that rotated in its own activation still reacts
    only within its printed arcs: a Blue flight behind it triggers no reaction."""
    game = make_game(
        flight(0, "duck", 4, 24, 0, "M"),
        flight(1, "fixed", 20, 24, 0, "R"),
        custom_units=[DUCK, FIXED],
        first=RED,
    )
    activate(game, "R")  # to (26, 24), facing +x
    rotate(game, "R")
    end(game, "R")
    activate(game, "M")  # to (10, 24)
    manoeuvre(game, "M", ("M.1", 4, 0))  # (14, 24): 12" astern of R.1
    manoeuvre(game, "M", ("M.1", 4, 0))  # (18, 24): 8" astern
    assert game.state.phase != "react"
    assert not fl(game, "R").reacted


def test_EVO_REA_3_once_per_turn() -> None:
    """EVO-REA-3: a flight reacts at most once per turn: after reacting to the first
    action it is not offered the second; next turn it may react again."""
    game = mover_game()
    activate(game, "M")
    manoeuvre(game, "M", ("M.1", 4, 0))  # (20, 24): 10" from R.1
    script(game, 2)
    game.apply(React(unit="R", target="M.1"))
    assert game.state.phase == "act"
    manoeuvre(game, "M", ("M.1", 4, 0))  # (24, 24): 6" from R.1
    assert game.state.turn == 1
    assert game.current_player() == RED and game.state.phase == "activate"
    activate(game, "R")  # turret drifts to (30, 30)
    end(game, "R")
    assert game.state.turn == 2
    assert not fl(game, "R").reacted
    activate(game, "M")  # (30, 24): 6" from R.1
    manoeuvre(game, "M")  # an empty manoeuvre is still an action
    assert game.state.phase == "react"
    assert game.is_legal(React(unit="R", target="M.1"))


def test_EVO_REA_3_a_reaction_does_not_trigger_reactions() -> None:
    """EVO-REA-3: a reaction never triggers another: Blue's turret W, within 10" of R and
    in the fire zone of R's reaction shot, is not offered a reaction to it."""
    game = mover_game(flight(0, "turret", 22, 20, 90, "W"))
    activate(game, "M")
    manoeuvre(game, "M", ("M.1", 4, 0))  # (20, 24)
    assert game.state.phase == "react"
    script(game, 2, 2)  # one die for M.1, one for W.1 (a mixed zone)
    game.apply(React(unit="R", target="M.1"))
    assert "W.1" in last(game, "EVO-SHT-4").data["allocations"]
    assert game.state.phase == "act"
    assert game.current_player() == BLUE
    assert game.state.reaction is None
    with pytest.raises(IllegalAction):
        game.check(React(unit="W", target="R.1"))


def test_EVO_CLS_1_close_range_option_moves_the_reaction_line() -> None:
    """EVO-CLS-1: reactions use close range: an action 11" away triggers none by default,
    but does with close_range=12."""
    for close, reacts in ((None, False), (12, True)):
        game = mover_game(rules={"close_range": close} if close else None)
        activate(game, "M")
        manoeuvre(game, "M", ("M.1", 3, 0))  # (19, 24): 11" from R.1
        assert (game.state.phase == "react") is reacts
