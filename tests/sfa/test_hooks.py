"""What the sfa ruleset offers the layers above it (core/ruleset.py hooks): its
players, board, lab set-up and rules text, the same as the layers used to build for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dogfight.core.registry import find_ruleset
from dogfight.rulesets.sfa.board import BOARD
from dogfight.rulesets.sfa.heuristic import SfaHeuristic

BEFORE = json.loads((Path(__file__).parent / "lab_expected" / "sides_before.json").read_text())
"""What sim/matchup.py built for sfa before the lab moved into the ruleset (recorded at
commit b57b7c8): the sides for each count and edge, and the default roster."""


def test_players_board_and_rules_text() -> None:
    sfa = find_ruleset("sfa")
    players = dict(sfa.players())
    assert players["heuristic"] is SfaHeuristic
    assert list(players) == ["heuristic", "heuristic:aggressive", "heuristic:cautious"]
    for kind, make in players.items():
        player = make()
        assert isinstance(player, SfaHeuristic)
        assert player.name == kind
    assert sfa.board() is BOARD
    assert sfa.rules_text() == ("rules.md", "technologies.md")


def test_lab_board_is_the_standard_duel_map() -> None:
    lab = find_ruleset("sfa").lab()
    assert lab is not None
    board = lab.board
    assert (board.width, board.height, board.turn_limit) == (16, 12, 10)
    assert (board.edge, board.low, board.high, board.gap, board.spacing) == (3, 0, 11, 3, 1)
    assert (board.rank, board.margin) == (1, 0)
    assert lab.playing_area() == {"map": {"width": 16, "height": 12}}


def test_lab_default_roster_as_before() -> None:
    sfa = find_ruleset("sfa")
    lab = sfa.lab()
    assert lab is not None
    assert lab.default_roster(sfa) == BEFORE["roster"]
    assert lab.default_roster(sfa)  # the Starfighter-scale craft that move


@pytest.mark.parametrize("count", [1, 2, 3, 7, 12, 13, 30])
@pytest.mark.parametrize("left", [True, False])
def test_lab_sides_deploy_as_before(count: int, left: bool) -> None:
    lab = find_ruleset("sfa").lab()
    assert lab is not None
    assert lab.side("A", "rebel-fighter", count, left) == BEFORE[f"{count}-{left}"]
