"""Issue 10 (evo item 7): the attacker allocates the dice left over (EVO-SHT-4, -SHT-5).

Each test builds a position, scripts the dice and plays it through the Game API.
Blue gunner F drifts from (10, 24) to (16, 24); Red T.2 (26, 24) is nearer than T.1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import IllegalAction
from dogfight.core.options import resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.core.seat import Seat
from dogfight.rulesets.evo.actions import Allocate
from dogfight.rulesets.evo.heuristic import EvoHeuristic
from dogfight.rulesets.evo.odds import evo_attack
from dogfight.rulesets.evo.units import find_unit

from .builders import BLUE, activate, custom_unit, flight, gun, last, make_game, script, shoot

ROCK2 = custom_unit("rock", target=7, save=7, kill=7, weapons=[], models=2)
"""No d6 can hit it: allocation tests need no saves."""
DUCK2 = custom_unit("duck", weapons=[], models=2)
"""Target 4, Save 5, Kill 6."""


def game_at(target: dict[str, Any], **kw: Any) -> Game:
    shooter = custom_unit("gunner", weapons=[gun(range=18, dice=3)])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, target["id"], 30, 24, 180, "T", models_at=[(30, 24), (26, 24)]),
        custom_units=[shooter, target],
        **kw,
    )
    activate(game, "F")
    return game


def test_EVO_SHT_4_the_firing_player_allocates_the_rest() -> None:
    """EVO-SHT-4: once T.2 (nearest) has the 5 and T.1 the 3, the 2 left over is Blue's
    to place: the game waits for Blue, offers choices, and puts it where Blue says."""
    game = game_at(ROCK2)
    script(game, 2, 5, 3)
    shoot(game, "F", "T.1")
    assert game.state.phase == "allocate"
    assert game.current_player() == BLUE
    legal = game.legal_actions()
    assert Allocate(to=("T.1",)) in legal and Allocate(to=("T.2",)) in legal
    game.apply(Allocate(to=("T.1",)))
    assert last(game, "EVO-SHT-4").data["allocations"] == {"T.2": [5], "T.1": [3, 2]}
    assert game.state.phase == "act"


def test_EVO_SHT_4_check_refuses_a_bad_allocation() -> None:
    """EVO-SHT-4: one model per die left over, and only models that may take one."""
    game = game_at(ROCK2)
    script(game, 2, 5, 3)
    shoot(game, "F", "T.1")
    with pytest.raises(IllegalAction, match="each of the 1 dice"):
        game.check(Allocate(to=("T.1", "T.2")))
    with pytest.raises(IllegalAction, match="may not take"):
        game.check(Allocate(to=("F.1",)))


def test_EVO_SHT_5_left_over_dice_only_on_the_target_flight() -> None:
    """EVO-SHT-5: in a mixed zone the dice left over go against the target's flight only:
    Red's other flight U, in the zone, may not be given one."""
    shooter = custom_unit("gunner", weapons=[gun(range=18, dice=6)])
    game = make_game(
        flight(0, "gunner", 10, 24, 0, "F"),
        flight(1, "rock", 30, 24, 180, "T", models_at=[(30, 24), (26, 24)]),
        flight(1, "rock", 30, 28, 180, "U", models=1),
        custom_units=[shooter, ROCK2],
    )
    activate(game, "F")
    # one die each first (T.2, T.1, U.1); of the other three, one each round T again
    # (5 to T.2, 4 to T.1), and the 3 is left over
    script(game, 2, 2, 2, 5, 4, 3)
    shoot(game, "F", "T.1")
    assert game.state.phase == "allocate"
    assert game.state.shot is not None and set(game.state.shot.takers) == {"T.1", "T.2"}
    with pytest.raises(IllegalAction, match="may not take"):
        game.check(Allocate(to=("U.1",)))


@pytest.mark.parametrize(("option", "expected"), [("spread", [5, 2]), ("target", [5])])
def test_EVO_SHT_4_fixed_rules_kept_as_options(option: str, expected: list[int]) -> None:
    """EVO-SHT-4: free_allocation=spread|target keep the fixed rules: no decision."""
    game = game_at(ROCK2, rules={"free_allocation": option})
    script(game, 2, 5, 3)
    shoot(game, "F", "T.1")
    assert game.state.phase != "allocate"
    assert last(game, "EVO-SHT-4").data["allocations"]["T.2"] == expected


def test_EVO_SHT_4_heuristic_puts_the_die_where_it_can_kill() -> None:
    """EVO-SHT-4: T.2 (nearest) already has a 6, a sure Kill; T.1 a 4, so the computer
    player gives the other 4 to T.1, where the fixed spread would waste it on T.2."""
    game = game_at(DUCK2)
    script(game, 4, 6, 4)
    shoot(game, "F", "T.1")
    assert game.state.phase == "allocate"
    choice = EvoHeuristic().decide(Seat.of(game), game.legal_actions(), random.Random(0))
    assert choice == Allocate(to=("T.1",))


def test_EVO_SHT_4_exact_odds_follow_the_choice() -> None:
    """EVO-SHT-4: `dogfight odds evo` under choose assumes the attacker's best allocation,
    which removes at least as many models on average as the fixed spread."""
    nial = find_unit("nial")
    chosen = evo_attack(nial, "Triple fusion cannon", nial, rule_options({}), range_inches=8)
    spread = evo_attack(
        nial,
        "Triple fusion cannon",
        nial,
        rule_options({"free_allocation": "spread"}),
        range_inches=8,
    )
    assert sum(chosen.odds.values()) == 1
    assert chosen.expected > spread.expected


def rule_options(rules: dict[str, object]) -> dict[str, Any]:
    """The evo options with these changed."""
    return dict(resolve_options(find_ruleset("evo").options, (rules, "--rule")))
