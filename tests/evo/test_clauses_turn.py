"""Clause tests for EVO units, the turn sequence, activations and the end of the game;
legal actions over random play; malformed scenarios.

Each clause test builds a position, plays it through the Game API and checks the result
against one clause of data/evo/rules.md (named in the test and docstring).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from dogfight.core import Game, load_scenario
from dogfight.core.errors import DataError, IllegalAction
from dogfight.core.scenario import builtin_scenario_files, scenario_from_raw
from dogfight.rulesets.evo.actions import Activate, EndActivation, Manoeuvre, Move, Shoot
from dogfight.rulesets.evo.ruleset import check_elimination
from dogfight.rulesets.evo.units import catalog

from .builders import (
    BLUE,
    RED,
    activate,
    ctx_of,
    custom_unit,
    end,
    events,
    faces,
    fl,
    flight,
    gun,
    last,
    make_game,
    manoeuvre,
    scenario_raw,
    script,
    shoot,
    xy,
)

DUCK = custom_unit("duck", weapons=[], models=1)


# ---- units -------------------------------------------------------------------------------


def test_EVO_GEN_1_flights_of_round_based_models_with_a_leader() -> None:
    """EVO-GEN-1: each model is one fighter on a 0.5"-radius base; models belong to a
    flight whose leader is its first model."""
    game = make_game(
        flight(0, "starfury-aurora", 10, 24, 0, "B"),
        flight(1, "duck", 40, 24, 0, "R"),
        custom_units=[DUCK],
    )
    b = fl(game, "B")
    assert b.models == ("B.1", "B.2", "B.3")
    assert b.leader == "B.1"
    assert all(game.state.radius(game.state.models[m]) == 0.5 for m in b.models)
    assert {game.state.models[m].unit for m in b.models} == {"B"}


@pytest.mark.parametrize(("gap", "in_range"), [(12.0, True), (12.4, False)])
def test_EVO_GEN_1_ranges_are_centre_to_centre(gap: float, in_range: bool) -> None:
    """EVO-GEN-1: ranges are centre to centre: a 12" gun reaches a model 12" away, not one
    12.4" away (though the bases' edges are only 11.4" apart)."""
    popgun = custom_unit("popgun", weapons=[gun(range=12)])
    game = make_game(
        flight(0, "popgun", 10, 24, 0, "F"),
        flight(1, "duck", 16 + gap, 24, 0, "T"),
        custom_units=[popgun, DUCK],
    )
    activate(game, "F")
    assert game.is_legal(Shoot(unit="F", target="T.1")) is in_range


def test_EVO_STAT_1_stealth_target_parses() -> None:
    """EVO-STAT-1: a Target written "4-6" is Target 4 with a stealth Target 6; a plain
    number has no stealth Target."""
    nial = catalog()["nial"]
    assert (nial.target, nial.stealth_target) == (4, 6)
    frazi = catalog()["frazi"]
    assert (frazi.target, frazi.stealth_target) == (4, None)
    ghost = custom_unit("ghost", target="3-5", weapons=[])
    game = make_game(
        flight(0, "ghost", 10, 10, 0, "G"),
        flight(1, "duck", 40, 40, 0, "R"),
        custom_units=[ghost, DUCK],
    )
    utype = game.state.types["ghost"]
    assert (utype.target, utype.stealth_target) == (3, 5)


def test_EVO_STAT_1_stat_line_fields() -> None:
    """EVO-STAT-1: a flight type has Agility, Target, Save, Kill, traits, facing armour and
    weapons with range, dice, die, arc and traits; points per model."""
    bolt = catalog()["thunderbolt"]
    assert (bolt.agility, bolt.target, bolt.save, bolt.kill) == (3, 4, 4, 7)
    assert bolt.trait("Dodge") == 6
    assert bolt.armour == {"aft": 5}
    assert bolt.points == 30
    missile = next(w for w in bolt.weapons if w.name == "Missile rack")
    assert (missile.range, missile.dice, missile.die, missile.arc) == (24, 1, 10, "FaF")
    assert missile.trait("Lock-on") == 0
    tail = next(w for w in bolt.weapons if w.name == "Tail gun")
    assert tail.arc == "FaA"
    turret = catalog()["ea-shuttle"].weapons[0]
    assert turret.arc is None


def test_EVO_STAT_1_heavy_means_d10() -> None:
    """EVO-STAT-1: a Heavy weapon rolls d10s (even if its line says d6), so it can reach
    Kill 7: a 7 kills a Kill 7 model outright."""
    heavy = custom_unit("heavy", weapons=[gun(range=18, traits=["Heavy"])])
    brick = custom_unit("brick", kill=7, weapons=[])
    game = make_game(
        flight(0, "heavy", 10, 24, 0, "H"),
        flight(1, "brick", 24, 24, 0, "T"),
        custom_units=[heavy, brick],
    )
    assert game.state.types["heavy"].weapons[0].die == 10
    activate(game, "H")
    script(game, 7)  # impossible on a d6: the script would refuse it
    shoot(game, "H", "T.1")
    assert [r.sides for r in last(game, "EVO-SHT-4").rolls] == [10]
    assert "T.1" not in game.state.models
    assert "killed outright" in last(game, "EVO-DMG-1").text


# ---- the turn ----------------------------------------------------------------------------


def two_a_side(**kw: Any) -> Game:
    return make_game(
        flight(0, "duck", 10, 10, 0, "B1"),
        flight(0, "duck", 10, 30, 0, "B2"),
        flight(1, "duck", 40, 10, 180, "R1"),
        flight(1, "duck", 40, 30, 180, "R2"),
        custom_units=[DUCK],
        **kw,
    )


def test_EVO_SEQ_1_roll_off_with_a_tie_rolled_again() -> None:
    """EVO-SEQ-1: both sides roll a die, again on a tie; under roll_off=winner_first the
    winner goes first."""
    game = two_a_side(first=None, dice=(3, 3, 2, 5), rules={"roll_off": "winner_first"})
    rolls = [faces(e) for e in events(game, "EVO-SEQ-1") if e.rolls]
    assert rolls == [[3, 3], [2, 5]]
    assert "tie" in events(game, "EVO-SEQ-1")[1].text
    assert game.state.first == RED
    assert game.current_player() == RED
    assert [a.unit for a in game.legal_actions()] == ["R1", "R2"]


def test_EVO_SEQ_1_blue_wins_the_roll_off() -> None:
    """EVO-SEQ-1: the higher die takes the first turn (roll_off=winner_first)."""
    game = two_a_side(first=None, dice=(6, 1), rules={"roll_off": "winner_first"})
    assert game.state.first == BLUE
    assert game.current_player() == BLUE


def test_EVO_SEQ_1_scenario_names_the_first_side() -> None:
    """EVO-SEQ-1: a scenario's `first:` skips the roll-off: no dice are rolled."""
    game = two_a_side(first=RED)
    assert game.dice.count == 0
    assert game.current_player() == RED


def test_EVO_SEQ_2_player_turns() -> None:
    """EVO-SEQ-2: in its player turn a side activates each of its flights once, then the
    other side does the same; a flight of the other side may not be activated meanwhile."""
    game = two_a_side()
    order = []
    for _ in range(4):
        side = game.current_player()
        with pytest.raises(IllegalAction):
            game.check(Activate(unit="R1" if side == BLUE else "B1"))
        fid = next(a.unit for a in game.legal_actions() if isinstance(a, Activate))
        order.append((side, fid))
        activate(game, fid)
        end(game, fid)
    assert order == [(BLUE, "B1"), (BLUE, "B2"), (RED, "R1"), (RED, "R2")]
    assert any("player turn" in e.text for e in events(game, "EVO-SEQ-2"))
    assert game.state.turn == 2 and game.current_player() == BLUE


def test_EVO_SEQ_2_option_alternate() -> None:
    """EVO-SEQ-2: activation=alternate: the sides take turns activating one flight."""
    game = two_a_side(options={"activation": "alternate"})
    order = []
    for _ in range(4):
        fid = next(a.unit for a in game.legal_actions() if isinstance(a, Activate))
        order.append(fid)
        activate(game, fid)
        end(game, fid)
    assert order == ["B1", "R1", "B2", "R2"]


def test_EVO_SEQ_2_a_side_with_nothing_left_passes() -> None:
    """EVO-SEQ-2: under alternate activation a side with no flights left to activate
    passes, and the other side goes on."""
    game = make_game(
        flight(0, "duck", 10, 10, 0, "B1"),
        flight(0, "duck", 10, 30, 0, "B2"),
        flight(1, "duck", 40, 10, 180, "R1"),
        custom_units=[DUCK],
        options={"activation": "alternate"},
    )
    order = []
    for _ in range(3):
        fid = next(a.unit for a in game.legal_actions() if isinstance(a, Activate))
        order.append(fid)
        activate(game, fid)
        end(game, fid)
    assert order == ["B1", "R1", "B2"]
    assert game.state.turn == 2


def test_EVO_ACT_1_drifts_even_with_no_actions() -> None:
    """EVO-ACT-1: a flight that takes no action still drifts when activated."""
    game = two_a_side()
    activate(game, "B1")
    end(game, "B1")
    assert xy(game, "B1.1") == (16, 10)
    assert fl(game, "B1").activated
    assert fl(game, "B1").actions == ()


def test_EVO_ACT_1_at_most_two_actions() -> None:
    """EVO-ACT-1: up to two actions: after the second the activation is over, and a third
    action is refused."""
    game = two_a_side()
    activate(game, "B1")
    manoeuvre(game, "B1", ("B1.1", 1, 0))
    assert game.state.active_unit == "B1"
    manoeuvre(game, "B1", ("B1.1", 1, 0))
    assert fl(game, "B1").activated
    assert game.state.active_unit == ""
    with pytest.raises(IllegalAction):
        game.check(Manoeuvre(unit="B1", moves=(Move("B1.1", 1, 0),)))
    with pytest.raises(IllegalAction):
        game.check(EndActivation(unit="B1"))


def test_EVO_ACT_1_each_flight_once_per_turn() -> None:
    """EVO-ACT-1: each flight is the active unit exactly once per turn."""
    game = two_a_side()
    activate(game, "B1")
    end(game, "B1")
    with pytest.raises(IllegalAction, match="EVO-ACT-1"):
        game.check(Activate(unit="B1"))
    assert Activate(unit="B1") not in game.legal_actions()
    assert game.legal_actions() == [Activate(unit="B2")]


def test_EVO_ACT_1_every_model_takes_the_same_action() -> None:
    """EVO-ACT-1: the flight acts as one: a Shoot fires every acting model's weapons."""
    game = make_game(
        flight(0, "starfury-aurora", 10, 24, 0, "B"),
        flight(1, "duck", 28, 24, 0, "T"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    script(game, *[2] * 6)
    shoot(game, "B", "T.1")
    assert last(game, "EVO-SHT-1").data["dice"] == 6
    assert "3 model(s)" in last(game, "EVO-SHT-1").text


# ---- the end of the game -------------------------------------------------------------------


def test_EVO_WIN_1_a_side_with_no_models_loses() -> None:
    """EVO-WIN-1: when Red's last model is destroyed Red loses at once."""
    popgun = custom_unit("popgun", weapons=[gun(range=18)])
    game = make_game(
        flight(0, "popgun", 10, 24, 0, "F"),
        flight(1, "duck", 24, 24, 0, "T"),
        custom_units=[popgun, DUCK],
    )
    activate(game, "F")
    script(game, 6)
    shoot(game, "F", "T.1")
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == BLUE
    assert RED in outcome.reason
    assert game.legal_actions() == []
    assert last(game, "EVO-WIN-1").data["winner"] == BLUE


def test_EVO_WIN_1_leaving_the_table_also_empties_a_side() -> None:
    """EVO-WIN-1: the last Blue model disengaging leaves Blue with no models: Red wins."""
    game = make_game(
        flight(0, "duck", 44, 24, 0, "B"),
        flight(1, "duck", 10, 24, 0, "R"),
        custom_units=[DUCK],
    )
    activate(game, "B")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == RED


def test_EVO_WIN_1_both_sides_gone_is_a_draw() -> None:
    """EVO-WIN-1: if both sides are gone, the game is a draw."""
    game = two_a_side()
    state = game.state
    for f in state.flights.values():
        f.models = ()
    state.models.clear()
    assert check_elimination(ctx_of(game))
    assert state.outcome is not None and state.outcome.winner is None


def win2_game(**options: Any) -> Game:
    """One turn: Blue gunner F shoots at Red's two ducks T (10 points each)."""
    popgun = custom_unit("popgun", weapons=[gun(range=18)])
    duck2 = custom_unit("duck", weapons=[], models=2)
    return make_game(
        flight(0, "popgun", 10, 24, 0, "F"),
        flight(1, "duck", 24, 24, 90, "T", models_at=[(24, 24), (24, 40)]),
        custom_units=[popgun, duck2],
        options=options,
        turn_limit=1,
    )


def test_EVO_WIN_2_share_of_points_at_the_turn_limit() -> None:
    """EVO-WIN-2: at the turn limit each side scores the share of the enemy's starting
    points it destroyed; the higher share wins."""
    game = win2_game()
    activate(game, "F")
    script(game, 6)
    shoot(game, "F", "T.1")
    end(game, "F")
    activate(game, "T")
    end(game, "T")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == BLUE
    assert outcome.scores == {BLUE: 0.5, RED: 0.0}
    assert last(game, "EVO-WIN-2").data["winner"] == BLUE


def test_EVO_WIN_2_equal_scores_draw_and_disengaged_do_not_count() -> None:
    """EVO-WIN-2: a Red model that leaves the table is not destroyed: no score, a draw."""
    game = make_game(
        flight(0, "duck", 10, 10, 0, "B"),
        flight(1, "duck", 24, 44, 90, "T", models_at=[(24, 44), (24, 40)]),
        custom_units=[custom_unit("duck", weapons=[], models=2)],
        turn_limit=1,
    )
    activate(game, "B")
    end(game, "B")
    activate(game, "T")  # T.1 drifts to y = 50: off the table
    assert fl(game, "T").disengaged == 1
    end(game, "T")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert outcome.scores == {BLUE: 0.0, RED: 0.0}


def test_EVO_WIN_2_option_draw() -> None:
    """EVO-WIN-2: turn_limit_result=draw makes every game that reaches the limit a draw."""
    game = win2_game(turn_limit_result="draw")
    activate(game, "F")
    script(game, 6)
    shoot(game, "F", "T.1")
    end(game, "F")
    activate(game, "T")
    end(game, "T")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.scores[BLUE] == 0.5


# ---- legal actions over random play ------------------------------------------------------


SCENARIOS = [p.stem for p in builtin_scenario_files("evo")]


@pytest.mark.parametrize("name", SCENARIOS)
def test_legal_actions_are_all_accepted_in_random_play(name: str) -> None:
    """Every action legal_actions() offers passes check(), over random play of each
    built-in scenario (two seeds each), and random play ends within the turn limit."""
    for seed in (1, 2):
        game = Game(load_scenario(f"evo/{name}"), seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over():
                break
            legal = game.legal_actions()
            assert legal, "a side must always have something to do"
            for action in legal:
                game.check(action)  # raises IllegalAction if not accepted
            game.apply(rng.choice(legal))
        assert game.is_over(), f"{name} seed {seed} did not end"


# ---- malformed scenarios -----------------------------------------------------------------


def write_scenario(tmp_path: Path, raw: dict[str, Any]) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    return path


def base_raw() -> dict[str, Any]:
    return scenario_raw(
        flight(0, "starfury-aurora", 6, 24, 0, "A1"),
        flight(1, "frazi", 42, 24, 180, "B1"),
    )


def set_unit(raw: dict[str, Any], side: int, **fields: Any) -> dict[str, Any]:
    raw["sides"][side]["units"][0].update(fields)
    return raw


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: set_unit(r, 0, type="starfury-zeta"), "field 'sides[0].units[0].type'"),
        (lambda r: set_unit(r, 1, at=[60, 24]), "field 'sides[1].units[0]'"),
        (lambda r: set_unit(r, 1, id="A1"), "field 'sides[1].units[0].id'"),
        (
            lambda r: set_unit(r, 0, models=2, models_at=[[6, 24], [6, 28], [6, 32]]),
            "field 'sides[0].units[0].models_at'",
        ),
        (lambda r: set_unit(r, 1, at=[6, 24.5]), "overlaps A1.1"),
        (lambda r: set_unit(r, 0, spacing="wide"), "field 'sides[0].units[0].spacing'"),
        (lambda r: {**r, "table": {"width": 0, "height": 48}}, "field 'table.width'"),
        (lambda r: {**r, "turn_limit": "six"}, "field 'turn_limit'"),
        (lambda r: {**r, "sides": r["sides"][:1]}, "field 'sides'"),
        (
            lambda r: {**r, "custom_units": [custom_unit("x", target="hard")]},
            "custom_units[0]: unit 'x': field 'target'",
        ),
        (
            lambda r: {**r, "custom_units": [custom_unit("x", kill=12)]},
            "custom_units[0]: unit 'x': field 'kill'",
        ),
        (
            lambda r: {**r, "custom_units": [{**custom_unit("x"), "colour": "red"}]},
            "field 'custom_units[0].colour'",
        ),
        (
            lambda r: {
                **r,
                "custom_units": [custom_unit("x", weapons=[gun(arc="Sideways")])],
            },
            "custom_units[0]: unit 'x': field 'weapons[0].arc'",
        ),
        (lambda r: {k: v for k, v in r.items() if k != "sides"}, "field 'sides'"),
    ],
    ids=[
        "unknown-type",
        "off-table",
        "duplicate-id",
        "models-at-count",
        "overlap",
        "spacing-text",
        "table-zero",
        "turn-limit-text",
        "one-side",
        "custom-target",
        "custom-kill",
        "custom-unknown-field",
        "custom-arc",
        "no-sides",
    ],
)
def test_malformed_evo_scenario_gives_a_one_line_data_error(
    tmp_path: Path, change: Any, field: str
) -> None:
    """A malformed evo scenario file fails to load as a game with one DataError line that
    names the file and the field."""
    path = write_scenario(tmp_path, change(base_raw()))
    with pytest.raises(DataError) as info:
        Game(load_scenario(str(path)), seed=1)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert field in message


def test_wellformed_base_scenario_loads(tmp_path: Path) -> None:
    """The base of the malformed cases is itself good (so each case tests its change)."""
    path = write_scenario(tmp_path, base_raw())
    game = Game(load_scenario(str(path)), seed=1)
    assert set(game.state.flights) == {"A1", "B1"}
    raw = scenario_from_raw(base_raw(), "inline")
    assert Game(raw, seed=1).current_player() == BLUE


def test_EVO_WIN_2_friendly_fire_does_not_score_for_the_enemy() -> None:
    """EVO-WIN-2: a Blue model killed by Blue's own Shoot (it stood in the fire zone) was
    not destroyed by Red: Red, which never fired, scores nothing and does not win."""
    popgun = custom_unit("popgun", weapons=[gun(range=18, dice=2)])
    game = make_game(
        flight(0, "popgun", 10, 24, 0, "F"),
        flight(0, "duck", 28, 24, 90, "W"),
        flight(1, "duck", 24, 24, 90, "T"),
        flight(1, "duck", 40, 40, 180, "U"),
        custom_units=[popgun, DUCK],
        turn_limit=1,
    )
    activate(game, "F")
    script(game, 2, 6)  # mixed zone: T.1 the 2 (a miss), W.1 the 6 (killed)
    shoot(game, "F", "T.1")
    assert "W.1" not in game.state.models
    end(game, "F")
    for fid in ("T", "U"):
        activate(game, fid)
        end(game, fid)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores[RED] == 0.0
    assert outcome.winner != RED
