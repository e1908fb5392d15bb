"""`dogfight tactics acta` and the counts behind it (rulesets/acta/tactics.py): each
figure of issue 14 measured over seeded battles and printed beside its target."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.game import Game
from dogfight.core.scenario import load_scenario, scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.heuristic import ActaHeuristic
from dogfight.rulesets.acta.tactics import Tally, count_battles, play_counted

runner = CliRunner()


class Holder:
    """Plays like the heuristic but never moves a fighter: the standoff the figures catch."""

    def __init__(self) -> None:
        self.inner = ActaHeuristic(strict=True)

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        for action in legal:
            if isinstance(action, A.EndMovement):
                return action
        return self.inner.decide(seat, legal, rng)


def test_a_standoff_is_counted_in_every_turn_and_no_combat_turn() -> None:
    # Furball fighters start 14" apart and nobody moves (ACTA-FTR-1: a side may end its
    # fighter movement at once): every one of the 8 turns is a standoff, for both
    # sides, and the first combat turn is "never" (the turn limit + 1).
    tally = count_battles("acta", "furball", 1, Holder, {})
    assert tally.standoffs == 8
    assert tally.side_standoffs == 16
    assert tally.first_combat == [9]


def test_the_heuristic_furball_has_no_standoff_and_fights_early() -> None:
    tally = count_battles("acta", "furball", 2, ActaHeuristic, {})
    assert tally.standoffs == 0
    assert max(tally.first_combat) <= 4


def test_the_command_prints_each_figure_beside_its_target() -> None:
    done = runner.invoke(
        app, ["tactics", "acta", "--battles", "1", "--scenario", "furball", "--no-random"]
    )
    assert done.exit_code == 0, done.output
    assert "first shot or dogfight, turn (median)" in done.output
    assert "standoff turns (no move, no fire)" in done.output
    assert "furball: median decision (ms)" in done.output
    assert "escort-mission" not in done.output


def test_the_command_json_lists_figures_and_counts() -> None:
    done = runner.invoke(
        app,
        ["tactics", "acta", "--battles", "1", "--scenario", "furball", "--no-random", "--json"],
    )
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["player"] == "heuristic" and data["battles"] == 1
    names = {f["figure"] for f in data["figures"]}
    assert "standoff turns (no move, no fire)" in names
    assert data["counts"]["furball"]["battles"] == 1


def test_an_unknown_player_kind_is_a_clear_error() -> None:
    done = runner.invoke(app, ["tactics", "acta", "--battles", "1", "--player", "genius"])
    assert done.exit_code != 0
    assert "--player: no acta player 'genius'" in done.output


def test_fighters_that_hold_within_range_and_fire_are_no_standoff() -> None:
    """The furball with the squadrons 2" apart (their guns reach): fighters that never
    move still shoot each other each turn, and a turn of holding and firing is a fight,
    not a standoff; the turns once one side's guns are gone and nobody fires are."""
    raw = copy.deepcopy(load_scenario("acta/furball").raw)
    for unit in raw["sides"][1]["units"]:
        unit["at"] = [13, unit["at"][1]]
    scenario = scenario_from_raw(raw, "close furball")
    game = Game(scenario, seed=0)
    tally = Tally()
    play_counted(game, {s: Holder() for s in game.state.sides}, random.Random(0), tally)
    # The turns in which some fighter fired, from a replay of the same actions.
    replay, fired = Game(scenario, seed=0), set()
    for action in game.actions:
        turn = replay.state.turn
        if any(e.clause == "ACTA-ATK-1" for e in replay.apply(action)):
            fired.add(turn)
    assert tally.first_combat == [1]
    assert tally.side_standoffs >= 2 * len(set(fired))  # nobody ever moved...
    assert tally.standoffs == 8 - len(set(fired))  # ...but the turns with fire are fights
