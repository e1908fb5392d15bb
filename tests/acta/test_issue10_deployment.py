"""Issue 10, acta item 7: deployment zones and the deployment step (ACTA-DEP-4).

Each test builds a position through the Game API and checks the clause in
data/acta/rules.md named in the test.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.core import Game
from dogfight.core.errors import DataError
from dogfight.core.scenario import load_scenario, scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.dice import scripted
from dogfight.geometry import Vec2
from dogfight.rulesets.acta.actions import Deploy
from dogfight.rulesets.acta.heuristic import ActaHeuristic

from .builders import scenario_raw, unit
from .test_clauses_sequence import refused

E, K = "Empire", "Klingon"
ZONE_E = {"x": [2, 10], "y": [4, 32]}
ZONE_K = {"x": [26, 34], "y": [4, 32]}


def zoned(*units: dict[str, Any], zones: tuple[Any, Any] = (ZONE_E, ZONE_K)) -> Game:
    """A game of the given units whose sides have the given deployment zones."""
    raw = scenario_raw(*units)
    for side, zone in zip(raw["sides"], zones, strict=True):
        if zone is not None:
            side["deployment"] = zone
    return Game(scenario_from_raw(raw, "test"), seed=0, dice=scripted(6, 1))


def fleet() -> list[dict[str, Any]]:
    """A carrier (with its patrol) and a fighter each side."""
    return [
        unit(0, "tiger", 6, 18, id="E-CA", aboard={"dragonfly": 1}),
        unit(0, "dragonfly", 8, 10, id="E-F"),
        unit(1, "morgath", 30, 18, 180, id="K-CA", aboard={"zaresh": 1}),
        unit(1, "zaresh", 28, 10, 180, id="K-F", dogfight_drones=False),
    ]


def test_ACTA_DEP_4_no_zone_keeps_the_scenario_positions() -> None:
    """ACTA-DEP-4: without zones there is no deployment step; units stand at `at`."""
    raw = scenario_raw(*fleet())
    g = Game(scenario_from_raw(raw, "test"), seed=0, dice=scripted(6, 1))
    assert g.state.phase != "deploy"
    assert g.state.units["E-F"].pose.position == Vec2(8, 10)


def test_ACTA_DEP_4_sides_place_ships_then_fighters_alternately() -> None:
    """ACTA-DEP-4: ships first, then fighters (patrols included), the sides alternating,
    each placement a decision of the unit's owner."""
    g = zoned(*fleet())
    order = []
    while g.state.phase == "deploy":
        pending = g.state.deploy_pending[0]
        owner = g.state.units[pending].side
        assert g.current_player() == owner
        legal = g.legal_actions()
        assert legal and all(isinstance(a, Deploy) and a.unit == pending for a in legal)
        for action in legal:
            g.check(action)
        order.append(pending)
        g.apply(legal[0])
    assert order[:2] == ["E-CA", "K-CA"]
    assert set(order[2:]) == {"E-F", "E-CA-P1", "K-F", "K-CA-P2"}
    assert [g.state.units[u].side for u in order] == [E, K, E, K, E, K]


def test_ACTA_DEP_4_any_spot_in_the_zone_is_accepted_outside_refused() -> None:
    """ACTA-DEP-4: check accepts any spot in the zone, not only those offered; a spot
    outside the zone is refused with the zone in the reason."""
    g = zoned(*fleet())
    g.check(Deploy(unit="E-CA", x=2.0, y=31.3, heading=12.5))
    reason = refused(g, Deploy(unit="E-CA", x=12.0, y=18.0))
    assert "deployment zone" in reason and "ACTA-DEP-4" in reason
    assert "placed next" in refused(g, Deploy(unit="E-F", x=4.0, y=10.0))
    g.apply(Deploy(unit="E-CA", x=3.7, y=29.1, heading=0.0))
    assert g.state.units["E-CA"].pose.position == Vec2(3.7, 29.1)


def test_ACTA_DEP_4_patrol_anywhere_in_zone_or_on_its_carrier() -> None:
    """ACTA-DEP-4: a carrier's patrol may go onto its carrier's base (supporting it) or
    anywhere in the zone; a fighter bought on its own may not go onto a base."""
    g = zoned(*fleet(), zones=(ZONE_E, None))
    g.apply(Deploy(unit="E-CA", x=9.0, y=18.0))
    assert g.state.deploy_pending[0] == "E-CA-P1"
    g.check(Deploy(unit="E-CA-P1", x=2.5, y=31.5))  # anywhere in the zone
    offered = [a for a in g.legal_actions() if a.support == "E-CA"]
    assert offered
    g.apply(offered[0])
    patrol = g.state.units["E-CA-P1"]
    assert patrol.supporting == "E-CA"
    assert "patrol" in refused(g, Deploy(unit="E-F", x=9.5, y=18.0, support="E-CA"))
    g.apply(Deploy(unit="E-F", x=3.0, y=5.0))
    assert g.state.phase != "deploy"  # the Klingons, with no zone, place nothing


def test_ACTA_DEP_4_a_ships_supporters_go_with_it() -> None:
    """ACTA-DEP-4 / ACTA-DEP-2: fighters the scenario puts on a ship's base move with the
    ship when it is placed and are not placed on their own."""
    g = zoned(
        unit(0, "tiger", 6, 18, id="E-CA"),
        unit(0, "dragonfly", 6.5, 18, id="E-F", supporting="E-CA"),
        unit(1, "morgath", 30, 18, 180, id="K-CA"),
        zones=(ZONE_E, None),
    )
    assert g.state.deploy_pending == ("E-CA",)
    g.apply(Deploy(unit="E-CA", x=4.0, y=10.0))
    assert g.state.units["E-F"].pose.position.distance(Vec2(4.5, 10.0)) < 1e-3
    assert g.state.units["E-F"].supporting == "E-CA"


@pytest.mark.parametrize(
    ("zone", "field", "words"),
    [
        ({"x": [2, 40], "y": [0, 10]}, "sides[0].deployment.x", "inside the table"),
        ({"x": [2, 10], "y": [-1, 10]}, "sides[0].deployment.y", "inside the table"),
        ({"x": [8, 2], "y": [0, 10]}, "sides[0].deployment.x", "above"),
        ({"x": [2, float("nan")], "y": [0, 10]}, "sides[0].deployment.x", "finite"),
        ({"x": [2, float("inf")], "y": [0, 10]}, "sides[0].deployment.x", "finite"),
    ],
)
def test_ACTA_DEP_4_zone_is_validated(zone: dict[str, Any], field: str, words: str) -> None:
    """ACTA-DEP-4: a zone must be finite and on the table; the error names file and field."""
    raw = scenario_raw(*fleet())
    raw["sides"][0]["deployment"] = zone
    with pytest.raises(DataError) as info:
        Game(scenario_from_raw(raw, "zones.yaml"), seed=0)
    assert "zones.yaml" in str(info.value) and field in str(info.value)
    assert words in str(info.value)


def test_ACTA_DEP_4_carrier_strike_has_zones() -> None:
    """ACTA-DEP-4: the built-in carrier-strike scenario gives both sides a zone."""
    g = Game(load_scenario("carrier-strike"), seed=1)
    assert g.state.phase == "deploy" and set(g.state.zones) == {E, K}


def test_ACTA_DEP_4_heuristic_places_ships_forward_and_fighters_near_ships() -> None:
    """ACTA-DEP-4: the computer places each ship at the enemy-facing half of its zone,
    apart from its other ship, and each fighter within 3" of a friendly ship."""
    g = Game(load_scenario("carrier-strike"), seed=1)
    ai = ActaHeuristic()
    rng = random.Random(0)
    while g.state.phase == "deploy":
        g.apply(ai.decide(Seat.of(g), g.legal_actions(), rng))
    for side, forward in ((E, lambda x: x >= 10), (K, lambda x: x <= 38)):
        ships = g.state.ships(side)
        assert all(forward(s.pose.position.x) for s in ships)
        assert ships[0].pose.position.distance(ships[1].pose.position) >= 5
        for f in g.state.fighters(side):
            near = min(s.pose.position.distance(f.pose.position) for s in ships)
            assert near <= 3
