"""The evo heuristic answers the decisions issue 10 added: the roll-off order
(EVO-SEQ-1), Command bonus actions (EVO-CMD-3) and torpedo launches (EVO-TOR-1)."""

from __future__ import annotations

import random
from typing import Any

from dogfight.core import Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.heuristic import EvoHeuristic


def unit(uid: str, **stats: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": uid,
        "name": uid.title(),
        "power": "Test",
        "agility": 4,
        "target": 4,
        "save": 5,
        "kill": 6,
        "models": 1,
        "points": 10,
        "weapons": [],
    }
    base.update(stats)
    return base


def game_of(units: list[dict[str, Any]], *flights: dict[str, Any], **raw: Any) -> Game:
    sides = [
        {
            "name": name,
            "units": [
                {k: v for k, v in f.items() if k != "side"} for f in flights if f["side"] == i
            ],
        }
        for i, name in enumerate(("Blue", "Red"))
    ]
    data = {
        "name": "test",
        "ruleset": "evo",
        "table": {"width": 48, "height": 48},
        "sides": sides,
        "custom_units": units,
        **raw,
    }
    return Game(scenario_from_raw(data, "test"), seed=1)


def decide(game: Game) -> Any:
    legal = game.legal_actions()
    action = EvoHeuristic().decide(Seat.of(game), legal, random.Random(0))
    assert action in legal
    return action


DUCK = unit("duck")


def test_EVO_SEQ_1_heuristic_goes_first_when_it_wins_the_roll_off() -> None:
    game = game_of(
        [DUCK],
        {"side": 0, "id": "B", "type": "duck", "at": [5, 5]},
        {"side": 1, "id": "R", "type": "duck", "at": [40, 40]},
    )
    assert game.state.phase == "order"
    assert decide(game) == A.ChooseOrder(first=True)


def test_EVO_CMD_3_heuristic_gives_the_bonus_to_a_flight_that_lost_actions() -> None:
    boss = unit("boss", traits=["Command"])
    gunner = unit(
        "gunner",
        models=2,
        weapons=[{"name": "Gun", "range": 18, "dice": 2, "die": 6, "arc": "FaF"}],
    )
    game = game_of(
        [boss, gunner, DUCK],
        {"side": 0, "id": "C", "type": "boss", "at": [10, 20]},
        {"side": 0, "id": "G", "type": "gunner", "at": [10, 24], "models_at": [[10, 24], [10, 26]]},
        {"side": 1, "id": "R", "type": "duck", "at": [26, 25], "heading": 180},
        first="Blue",
    )
    g = game.state.flights["G"]
    g.suppressed = True
    g.leader = ""
    assert decide(game) == A.Activate(unit="G", command="C")


def test_EVO_TOR_1_heuristic_launches_at_a_target_only_torpedoes_reach() -> None:
    bomber = unit(
        "bomber",
        agility=0,
        weapons=[
            {
                "name": "Torpedo",
                "range": 20,
                "dice": 2,
                "die": 10,
                "arc": "FaF",
                "traits": ["Torpedo"],
                "shots": 1,
            }
        ],
    )
    game = game_of(
        [bomber, DUCK],
        {"side": 0, "id": "B", "type": "bomber", "at": [10, 24]},
        {"side": 1, "id": "R", "type": "duck", "at": [30, 24], "heading": 90},
        first="Blue",
    )
    game.apply(A.Activate(unit="B"))
    assert decide(game) == A.LaunchTorpedo(unit="B", target="R.1")
