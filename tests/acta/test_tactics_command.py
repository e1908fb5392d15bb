"""`dogfight tactics acta` and the counts behind it (rulesets/acta/tactics.py): each
figure of issue 14 measured over seeded battles and printed beside its target."""

from __future__ import annotations

import json
import random
from typing import Any

from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.seat import Seat
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.heuristic import ActaHeuristic
from dogfight.rulesets.acta.tactics import count_battles

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
    assert "turns no free fighter moves" in done.output
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
    assert "turns no free fighter moves" in names
    assert data["counts"]["furball"]["battles"] == 1


def test_an_unknown_player_kind_is_a_clear_error() -> None:
    done = runner.invoke(app, ["tactics", "acta", "--battles", "1", "--player", "genius"])
    assert done.exit_code != 0
    assert "--player: no acta player 'genius'" in done.output
