"""The evo heuristic plays the seed's tactics (issue 14): constructed positions where a
tactic decides, the candidates it weighs, the personas, and `dogfight tactics evo`."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core import Game, load_scenario
from dogfight.core.errors import DataError
from dogfight.core.play import WeighingPlayer
from dogfight.core.registry import find_ruleset
from dogfight.core.seat import Seat
from dogfight.geometry import Vec2
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.formation import spread_moves
from dogfight.rulesets.evo.heuristic import EvoHeuristic
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.wards import wards_of
from dogfight.rulesets.evo.weights import Weights, load_weights, persona

from .test_evo_heuristic import DUCK, GUNSHIP, position, unit

GUN = [{"name": "Gun", "range": 18, "dice": 2, "die": 6, "arc": "FaF"}]
WING = unit("wing", models=3, weapons=GUN)
"""A flight of three in line abreast, 2" apart: one fire zone holds all of it."""
FOE = unit("foe", models=3, agility=3, weapons=GUN)


def weigh(player: EvoHeuristic, game: Game) -> list[Any]:
    """The player's weighed candidates for the decision now."""
    return player.weigh(Seat.of(game), game.legal_actions(), random.Random(0))


# ---- fire zones ------------------------------------------------------------------


def test_EVO_SHT_2_never_fires_into_a_zone_holding_its_own_fighter() -> None:
    # The only target has a Blue duck 2" from it: a Shoot is on offer, but its zone
    # holds a friend, so the gunship holds its fire.
    game = position(
        (0, "B", "gunship", 4, 24, 0),
        (0, "F", "duck", 16, 26, 0),
        (1, "R", "duck", 16, 24, 180),
        units=[GUNSHIP, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    assert A.Shoot(unit="B", target="R.1") in game.legal_actions()
    choice = weigh(EvoHeuristic(), game)[0].action
    assert not isinstance(choice, A.Shoot)
    # With a second target clear of friends, it shoots that one.
    game = position(
        (0, "B", "gunship", 4, 24, 0),
        (0, "F", "duck", 16, 26, 0),
        (1, "R", "duck", 16, 24, 180),
        (1, "CLEAR", "duck", 18, 18, 180),
        units=[GUNSHIP, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    assert weigh(EvoHeuristic(), game)[0].action == A.Shoot(unit="B", target="CLEAR.1")


def test_EVO_MOV_2_a_flight_in_one_zone_spreads_when_it_will_be_shot_at() -> None:
    # The foe, 22" off after Blue's drift, shoots first next turn: Blue closes and
    # shoots, and its models take different moves so one zone no longer holds them all.
    game = position((0, "B", "wing", 6, 24, 0), (1, "R", "foe", 34, 24, 180), units=[WING, FOE])
    game.apply(A.Activate(unit="B"))
    choice = weigh(EvoHeuristic(), game)[0].action
    assert isinstance(choice, A.Manoeuvre)
    assert len({(m.dx, m.dy) for m in choice.moves}) > 1
    game.check(choice)
    game.apply(choice)
    models = [game.state.models[m].pose for m in ("B.1", "B.2", "B.3")]
    # Every model keeps the leader's course (EVO-MOV-3) ...
    assert len({round(p.heading, 1) for p in models}) == 1
    # ... and the two wings are beyond one fire zone of each other (EVO-SHT-2).
    assert models[1].position.distance(models[2].position) > 6.0
    # Without a spread gap the same flight moves as one.
    game = position((0, "B", "wing", 6, 24, 0), (1, "R", "foe", 34, 24, 180), units=[WING, FOE])
    game.apply(A.Activate(unit="B"))
    tight = weigh(EvoHeuristic(Weights(spread_gap=0)), game)[0].action
    assert isinstance(tight, A.Manoeuvre)
    assert len({(m.dx, m.dy) for m in tight.moves}) == 1


def test_spread_moves_stagger_the_wings_along_the_leaders_course() -> None:
    # Starts 6" behind (the drift); the leader moves 4" straight on.
    starts = [(6.0, 24.0), (6.0, 22.0), (6.0, 26.0)]
    now = [(12.0, 24.0), (12.0, 22.0), (12.0, 26.0)]
    moves = spread_moves(starts, now, (4.0, 0.0), 4.5, 4.0, 5.75)
    assert moves is not None
    ends = [(x + dx, y + dy) for (x, y), (dx, dy) in zip(now, moves, strict=True)]
    rules = EvoRules()
    for (sx, sy), (ex, ey), move in zip(starts, ends, moves, strict=True):
        # The leader's course (heading 0, EVO-MOV-3), within command range of it and
        # within the manoeuvre's reach.
        assert rules.new_heading(Vec2(sx, sy), Vec2(ex, ey), 0.0, 0.5) == 0.0
        assert math.hypot(ex - ends[0][0], ey - ends[0][1]) <= 5.75 + 1e-9
        assert math.hypot(*move) <= 4.0 + 1e-9
    assert math.hypot(ends[1][0] - ends[2][0], ends[1][1] - ends[2][1]) > 6.0


# ---- stealth ---------------------------------------------------------------------


def test_EVO_STL_1_closes_within_10_of_a_stealthy_target_before_shooting() -> None:
    # A stealthy target 14" off after the drift: a Shoot now meets its stealth Target;
    # one manoeuvre brings the fighter within 10", and it shoots from there.
    fighter = unit("fighter", agility=4, weapons=GUN)
    ghost = unit("ghost", target="4-6")
    game = position(
        (0, "B", "fighter", 4, 24, 0), (1, "G", "ghost", 24, 24, 0), units=[fighter, ghost]
    )
    game.apply(A.Activate(unit="B"))
    assert A.Shoot(unit="B", target="G.1") in game.legal_actions()
    player = EvoHeuristic()
    first = weigh(player, game)[0].action
    assert isinstance(first, A.Manoeuvre)
    game.apply(first)
    gap = game.state.models["B.1"].pose.position.distance(game.state.models["G.1"].pose.position)
    assert gap <= 10.0
    assert weigh(player, game)[0].action == A.Shoot(unit="B", target="G.1")


STARFURY = unit("starfury", models=3, agility=4, points=20, traits=["Dodge 6+"], weapons=GUN)
NIAL = unit(
    "nial",
    models=3,
    agility=5,
    target="4-6",
    points=32,
    traits=["Dodge 5+"],
    weapons=[{"name": "Fusion", "range": 18, "dice": 3, "die": 6, "arc": "FaF"}],
)
"""Stat lines like the stealth-ambush's Aurora and Nial (data/evo/units)."""


def activation(player: EvoHeuristic, nial_x: float) -> tuple[list[str], float]:
    """A Starfury flight's whole activation against a Nial flight coming head-on (the
    Nials act first next turn): the actions it takes, and how far its leader ends from
    the Nials' next drift point."""
    game = position(
        (0, "B", "starfury", 6, 24, 0), (1, "R", "nial", nial_x, 24, 180), units=[STARFURY, NIAL]
    )
    game.apply(A.Activate(unit="B"))
    taken: list[str] = []
    while game.state.phase == "act" and game.state.active_unit == "B":
        action = player.decide(Seat.of(game), game.legal_actions(), random.Random(0))
        taken.append(type(action).__name__)
        game.apply(action)
    lead = game.state.models["B.1"].pose.position
    return taken, lead.distance(Vec2(nial_x - 6.0, 24.0))


def test_EVO_STL_1_stands_off_fire_it_could_answer_only_at_the_stealth_target() -> None:
    # The Nials, 32" off, drift to 26" off next turn and shoot first, at 18": the plain
    # player (stealth_fear 1) holds its long shot and closes inside 10" of where they
    # will be instead, where its answer meets their base Target; without the fear it
    # takes the shot at their stealth Target and ends in their guns' reach.
    plain, fearless = EvoHeuristic(), EvoHeuristic(Weights(stealth_fear=0))
    taken, gap = activation(plain, 34)
    assert "Shoot" not in taken and gap <= 10.0
    taken, gap = activation(fearless, 34)
    assert "Shoot" in taken and 10.0 < gap <= 18.0
    # 36" off (30" after their drift) it cannot get inside 10": it stands off beyond
    # their reach (18" of their drift point), where the fearless player charges into it.
    taken, gap = activation(plain, 38)
    assert gap > 18.0
    taken, gap = activation(fearless, 38)
    assert gap <= 18.0


# ---- weigh ------------------------------------------------------------------------


def test_weigh_gives_the_candidates_best_first_and_decide_is_the_first() -> None:
    player = EvoHeuristic()
    assert isinstance(player, WeighingPlayer)
    for name in ("evo/skirmish", "evo/shuttle-escort"):
        game = Game(load_scenario(name), seed=3)
        rng_a, rng_b = random.Random(3), random.Random(3)
        for _ in range(120):
            if game.is_over():
                break
            seat, legal = Seat.of(game), game.legal_actions()
            weighed = player.weigh(seat, legal, rng_a)
            assert weighed and all(c.reason for c in weighed)
            scores = [c.score for c in weighed[1:]]
            assert scores == sorted(scores, reverse=True)
            action = player.decide(seat, legal, rng_b)
            assert action == weighed[0].action
            game.apply(action)


def test_weigh_explains_in_a_players_words() -> None:
    game = position(
        (0, "B", "gunship", 4, 24, 0),
        (1, "AWAY", "duck", 16, 28, 0),
        units=[GUNSHIP, DUCK],
    )
    game.apply(A.Activate(unit="B"))
    weighed = weigh(EvoHeuristic(), game)
    assert weighed[0].reason.startswith("shoot at AWAY.1 (Duck):")
    assert any(c.reason.startswith("end the activation") for c in weighed)


# ---- personas ---------------------------------------------------------------------


def test_personas_are_offered_by_the_ruleset() -> None:
    kinds = find_ruleset("evo").players()
    assert {"heuristic", "heuristic:aggressive", "heuristic:cautious"} <= set(kinds)
    made = kinds["heuristic:cautious"]()
    assert isinstance(made, EvoHeuristic)
    assert made.weights == persona("cautious")
    assert persona("cautious").react_risk > Weights().react_risk > persona("aggressive").react_risk


def test_a_persona_changes_the_decision_it_should() -> None:
    # A Shoot that draws a heavy reaction: the aggressive and plain players take it,
    # the cautious one holds its fire (react_risk).
    big = unit(
        "big",
        models=3,
        agility=0,
        save=3,
        kill=7,
        weapons=[{"name": "Gun", "range": 18, "dice": 6, "die": 6}],
    )

    def first(player: EvoHeuristic) -> Any:
        game = position(
            (0, "B", "gunship", 4, 24, 0), (1, "R", "big", 18, 24, 180), units=[GUNSHIP, big]
        )
        game.apply(A.Activate(unit="B"))
        return weigh(player, game)[0].action

    assert isinstance(first(EvoHeuristic(persona("aggressive"))), A.Shoot)
    assert isinstance(first(EvoHeuristic()), A.Shoot)
    assert isinstance(first(EvoHeuristic(persona("cautious"))), A.EndActivation)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("bravery: 2\n", "bravery"),
        ("threat: .nan\n", "threat"),
        ("threat: .inf\n", "threat"),
        ("threat: yes\n", "threat"),
        ("threat: -1\n", "threat"),
        ("stealth_far_shot: 2\n", "stealth_far_shot"),
    ],
)
def test_a_bad_persona_file_names_the_file_and_field(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "brave.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_weights(path)
    assert str(path) in str(err.value)
    assert f"field '{field}'" in str(err.value)


def test_a_persona_file_changes_only_its_weights(tmp_path: Path) -> None:
    path = tmp_path / "steady.yaml"
    path.write_text("# steady\nthreat: 0.4  # a comment\n", encoding="utf-8")
    assert load_weights(path) == Weights(threat=0.4)


# ---- the tactics command ----------------------------------------------------------


def test_tactics_evo_prints_each_figure_beside_its_target() -> None:
    result = CliRunner().invoke(
        app, ["tactics", "evo", "--battles", "1", "--scenario", "skirmish", "--json"]
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    names = [f["name"] for f in found["figures"]]
    assert "damage dice on the target's six (skirmish)" in names
    assert "shots into a zone holding own models" in names
    friendly = next(f for f in found["figures"] if f["name"].startswith("shots into"))
    assert friendly["value"] == 0.0 and friendly["met"] is True
    assert sum(found["wins"]["skirmish"].values()) == 1


def test_tactics_evo_refuses_another_rulesets_scenario_and_unknown_kinds() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["tactics", "evo", "--battles", "1", "--scenario", "furball"])
    assert result.exit_code != 0
    assert "--scenario" in result.output and "not evo" in result.output
    result = runner.invoke(app, ["tactics", "evo", "--battles", "1", "--player", "genius"])
    assert result.exit_code != 0
    assert "--player" in result.output and "genius" in result.output


def test_the_shuttles_are_the_wards_of_the_escort_mission() -> None:
    # Weak guns for their points make the shuttles wards; the Razik (one light gun, but
    # 12" of it for 15 points) and the Starfuries are not.
    state = Game(load_scenario("evo/shuttle-escort"), seed=1).state
    assert wards_of(state, "Earth Alliance") == ["EA-S"]
    assert wards_of(state, "Centauri Republic") == []
    # A side made of wards only has nobody to escort them: none is played as a ward.
    assert wards_of(state, "Earth Alliance", threshold=100.0) == []
