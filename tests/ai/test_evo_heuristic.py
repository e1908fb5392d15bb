"""The evo heuristic player: exact dice odds, single decisions (shots, turns, Rotate,
Ready, reactions), legal answers, and its record against the random player."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from dogfight.ai import make_player
from dogfight.core import Game, load_scenario
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.heuristic import EvoHeuristic, die_kill
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.units import Trait, UnitType, find_unit

from .records import heuristic_record as play_record

BLUE, RED = "Blue", "Red"


# ---- helpers ----------------------------------------------------------------------


def unit(uid: str, **stats: Any) -> dict[str, Any]:
    """A one-model flight type for `custom_units` (a plain fighter unless told)."""
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


GUNSHIP = unit(
    "gunship",
    agility=0,
    weapons=[{"name": "Gun", "range": 18, "dice": 2, "die": 6, "arc": "FaF"}],
)
"""Cannot manoeuvre: its only choices are Shoot, Rotate and ending."""
DUCK = unit("duck", traits=["Dodge 5+"])
"""A target that cannot shoot back (so no reactions muddle a test)."""


def position(
    *flights: tuple[int, str, str, float, float, float], units: list[dict[str, Any]]
) -> Game:
    """A battle on a 48" table: (side index, id, type, x, y, heading) per flight.

    Blue goes first; activate a flight with `game.apply(A.Activate(unit=...))`.
    """
    sides = []
    for index, name in enumerate((BLUE, RED)):
        roster = [
            {"id": fid, "type": utype, "at": [x, y], "heading": heading}
            for side, fid, utype, x, y, heading in flights
            if side == index
        ]
        sides.append({"name": name, "units": roster})
    raw = {
        "name": "test",
        "ruleset": "evo",
        "title": "heuristic test position",
        "table": {"width": 48, "height": 48},
        "turn_limit": 6,
        "first": BLUE,
        "sides": sides,
        "custom_units": units,
    }
    return Game(scenario_from_raw(raw, "test"), seed=1)


def checked_decide(player: EvoHeuristic, game: Game, rng: random.Random) -> Any:
    """The player's answer, checked to be offered or (a custom Manoeuvre) legal."""
    legal = game.legal_actions()
    action = player.decide(Seat.of(game), legal, rng)
    if action not in legal:
        assert isinstance(action, A.Manoeuvre), f"{action} is not among the legal actions"
        game.check(action)
    return action


def heuristic_record(scenario_name: str, games: int) -> dict[str, int]:
    """Wins, draws and losses of the heuristic against the random player."""
    return play_record(scenario_name, games, EvoHeuristic)


# ---- exact odds ---------------------------------------------------------------------


def kind(kill: int, dodge: int | None = None) -> UnitType:
    """A flight type with this Kill score (and Dodge), for die_kill."""
    base = find_unit("sentri")
    traits = [Trait("Dodge", dodge)] if dodge is not None else []
    return msgspec.structs.replace(base, kill=kill, traits=traits)


def test_die_kill_matches_enumeration() -> None:
    """EVO-DMG-1..3, EVO-SIX-1: the player's die chances are the rules' own."""
    rules = EvoRules()
    # A kept d6 (2-6) against Target 4, Kill 6, Save 4+: a 6 kills; a 4 or 5 hits and
    # the save fails on 1-3.
    assert die_kill(rules, kind(6), 6, 4, 4, False, False) == pytest.approx((1 + 2 * 0.5) / 5)
    # The same die as rolled (a 1 is discarded) and on the model's six (+1, EVO-SIX-1).
    assert die_kill(rules, kind(6), 6, 4, 4, False, True) == pytest.approx((1 + 2 * 0.5) / 6)
    assert die_kill(rules, kind(6), 6, 4, 4, True, True) == pytest.approx((2 + 2 * 0.5) / 6)
    # Dodge 5+ turns a Kill into a hit a third of the time; then Save 5+ fails 4 in 6.
    dodged = 2 / 6 * 4 / 6
    assert die_kill(rules, kind(6, 5), 6, 4, 5, False, True) == pytest.approx(
        (1 - 2 / 6 + dodged + 2 * 4 / 6) / 6
    )
    # On its six it may not dodge (no_dodge_on_six), unless the option allows it.
    assert die_kill(rules, kind(6, 5), 6, 4, 5, True, True) == pytest.approx((2 + 2 * 4 / 6) / 6)
    assert die_kill(rules, kind(6, 5), 6, 4, 5, True, True, no_dodge_on_six=False) == pytest.approx(
        (2 * (1 - 2 / 6 + dodged) + 2 * 4 / 6) / 6
    )
    # A Save of 7+ cannot be made; Kill 7 needs a d10.
    assert die_kill(rules, kind(7), 6, 4, 7, False, True) == pytest.approx(3 / 6)
    assert die_kill(rules, kind(7), 10, 4, 4, False, True) == pytest.approx((4 + 3 * 0.5) / 10)


# ---- single decisions ---------------------------------------------------------------


def test_shoots_the_target_with_better_expected_kills() -> None:
    # Two lone Ducks 8" ahead after the drift, well apart: one faces away (the gunship
    # is on its six: +1 and no dodge), the other faces the gunship.
    game = position(
        (0, "B", "gunship", 4, 24, 0),
        (1, "AWAY", "duck", 16, 28, 0),
        (1, "TOWARD", "duck", 16, 20, 180),
        units=[GUNSHIP, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    legal = game.legal_actions()
    assert A.Shoot(unit="B", target="AWAY.1") in legal
    assert A.Shoot(unit="B", target="TOWARD.1") in legal
    action = EvoHeuristic().decide(Seat.of(game), legal, random.Random(0))
    assert action == A.Shoot(unit="B", target="AWAY.1")


def test_prefers_the_target_it_can_hit_over_a_stealthy_one() -> None:
    # The same range, but one target has a stealth Target of 6 beyond 10" (EVO-STL-1).
    ghost = unit("ghost", target="4-6")
    game = position(
        (0, "B", "gunship", 4, 24, 0),
        (1, "PLAIN", "duck", 22, 28, 180),
        (1, "GHOST", "ghost", 22, 18, 180),
        units=[GUNSHIP, DUCK, ghost],
    )
    game.apply(A.Activate(unit="B"))
    action = EvoHeuristic().decide(Seat.of(game), game.legal_actions(), random.Random(0))
    assert action == A.Shoot(unit="B", target="PLAIN.1")


def test_manoeuvres_to_bring_fixed_guns_to_bear() -> None:
    # After the drift the Duck is about 56 degrees off the nose: out of the FaF arc,
    # but one manoeuvre turns the course far enough.
    fighter = unit(
        "fighter",
        agility=4,
        weapons=[{"name": "Gun", "range": 18, "dice": 2, "die": 6, "arc": "FaF"}],
    )
    game = position(
        (0, "B", "fighter", 10, 24, 0),
        (1, "R", "duck", 22, 33, 0),
        units=[fighter, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    assert not any(isinstance(a, A.Shoot) for a in game.legal_actions())
    player, rng = EvoHeuristic(), random.Random(0)
    action = checked_decide(player, game, rng)
    assert isinstance(action, A.Manoeuvre)
    game.apply(action)
    assert A.Shoot(unit="B", target="R.1") in game.legal_actions()
    assert checked_decide(player, game, rng) == A.Shoot(unit="B", target="R.1")


def test_rotates_then_shoots_when_no_manoeuvre_can_bring_guns_to_bear() -> None:
    # The Duck sits on the fighter's aft quarter: Agility 3 cannot turn that far, but
    # a Rotate frees the next Shoot from arcs (EVO-ROT-1).
    fighter = unit(
        "slowpoke",
        agility=3,
        weapons=[{"name": "Gun", "range": 18, "dice": 2, "die": 6, "arc": "FaF"}],
    )
    game = position(
        (0, "B", "slowpoke", 10, 24, 0),
        (1, "R", "duck", 10.4, 29.7, 0),
        units=[fighter, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    player, rng = EvoHeuristic(), random.Random(0)
    action = checked_decide(player, game, rng)
    assert action == A.Rotate(unit="B")
    game.apply(action)
    assert checked_decide(player, game, rng) == A.Shoot(unit="B", target="R.1")


def test_readies_lock_on_weapons_for_a_target_only_they_reach() -> None:
    # Only the 24" Lock-on missile reaches a target 20" away: Ready, then Shoot.
    bomber = unit(
        "bomber",
        agility=0,
        weapons=[
            {"name": "Gun", "range": 12, "dice": 2, "die": 6, "arc": "FaF"},
            {
                "name": "Missile",
                "range": 24,
                "dice": 1,
                "die": 10,
                "arc": "FaF",
                "traits": ["Lock-on"],
            },
        ],
    )
    game = position(
        (0, "B", "bomber", 4, 24, 0),
        (1, "R", "duck", 30, 24, 180),
        units=[bomber, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    player, rng = EvoHeuristic(), random.Random(0)
    action = checked_decide(player, game, rng)
    assert action == A.Ready(unit="B", target_unit="R")
    game.apply(action)
    assert checked_decide(player, game, rng) == A.Shoot(unit="B", target="R.1")


def test_reacts_when_it_can() -> None:
    # Blue's Duck manoeuvres within 10" of Red's gunship, which faces it: Red reacts.
    game = position(
        (0, "B", "duck", 10, 24, 0),
        (1, "R", "gunship", 24, 24, 180),
        units=[GUNSHIP, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    game.apply(A.Manoeuvre(unit="B", moves=(A.Move("B.1", 0.5, 0.0),)))
    assert game.current_player() == RED
    legal = game.legal_actions()
    assert A.React(unit="R", target="B.1") in legal
    assert EvoHeuristic().decide(Seat.of(game), legal, random.Random(0)) == A.React(
        unit="R", target="B.1"
    )


def test_does_not_drift_off_the_table() -> None:
    # Heading straight for the east edge 10" away: after this activation the next
    # drift must still land on the table.
    fighter = unit("fighter", agility=4)
    game = position(
        (0, "B", "fighter", 32, 24, 0),
        (1, "R", "duck", 6, 6, 90),
        units=[fighter, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    player, rng = EvoHeuristic(), random.Random(0)
    while game.current_player() == BLUE and game.state.phase == "act":
        game.apply(checked_decide(player, game, rng))
    model = game.state.models["B.1"]
    assert game.state.table.contains(model.pose.forward(6).position)


def test_answers_are_legal_and_deterministic() -> None:
    # Heuristic against heuristic on every built-in scenario: every answer is on offer
    # or an accepted custom Manoeuvre, and the same seeds give the same game.
    for name in ("evo/skirmish", "evo/stealth-ambush", "evo/shuttle-escort", "evo/jump-point"):
        histories = []
        for _ in range(2):
            game = Game(load_scenario(name), seed=7)
            player, rng = EvoHeuristic(), random.Random(7)
            for _ in range(2000):
                if game.is_over():
                    break
                game.apply(checked_decide(player, game, rng))
            assert game.is_over()
            histories.append(list(game.actions))
        assert histories[0] == histories[1]


def test_make_player_gives_the_evo_heuristic() -> None:
    assert isinstance(make_player("heuristic", "evo"), EvoHeuristic)


# ---- against the random player ------------------------------------------------------


def test_beats_the_random_player_in_the_skirmish() -> None:
    # 200 battles, 100 as each side; about 5 s on a laptop.
    record = heuristic_record("evo/skirmish", 200)
    assert record["win"] >= 180, record
