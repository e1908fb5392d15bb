"""Regression tests for rule bugs found after the clause tests were written."""

from __future__ import annotations

from dogfight.geometry import EPSILON, Vec2
from dogfight.rulesets.acta import actions as A

from .builders import make_game, unit


def test_ACTA_SUP_4_an_intercepted_attacker_may_not_dogfight_the_protected_fighter() -> None:
    """ACTA-SUP-4: after an interception the attacker may not go on to attack the
    supported fighter, by dogfight either."""
    game = make_game(
        unit(0, "hummingbird", 10, 10, id="E-F1"),
        unit(0, "wasp", 10, 11, id="E-F2", supporting="E-F1"),
        unit(1, "zaresh", 14, 10, id="K-F1", dogfight_drones=False),
        initiative=(0, 10),
        dice=[1, 1],
    )
    game.apply(A.FighterOrder(first="Klingon"))
    game.apply(A.MoveFighter(unit="K-F1", x=11, y=10, heading=180))
    assert game.state.phase == "intercept"
    game.apply(A.Intercept(attacker="K-F1", fighters=("E-F2",)))
    while game.state.phase != "fighter_attack":
        game.apply(
            next(a for a in game.legal_actions() if isinstance(a, A.EndMovement | A.DefensiveFire))
        )
    barred = A.Dogfight(unit="K-F1", enemy="E-F1")
    assert barred not in game.legal_actions()
    assert not game.is_legal(barred)
    assert A.Dogfight(unit="K-F1", enemy="E-F2") in game.legal_actions()


def test_ACTA_FTR_2_full_speed_moves_are_offered() -> None:
    """ACTA-FTR-2: the move that closes with an enemy at full Speed is offered even
    when rounding puts it a hair past the Speed."""
    game = make_game(
        unit(0, "wasp", 3.3, 4.1, id="E-F1"),
        unit(1, "zaresh", 30.7, 29.9, id="K-F1", dogfight_drones=False),
        dice=[5, 2],
    )
    game.apply(A.FighterOrder(first="Empire"))
    start = game.state.units["E-F1"].pose.position
    full = [
        a
        for a in game.legal_actions()
        if isinstance(a, A.MoveFighter)
        and a.unit == "E-F1"
        and abs(Vec2(a.x, a.y).distance(start) - 12) <= EPSILON
    ]
    assert full
