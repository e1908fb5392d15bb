"""What the sfa ruleset offers the layers above it (core/ruleset.py hooks): its
players, board, lab set-up and rules text, the same as the layers used to build for it."""

from __future__ import annotations

import pytest

from dogfight.core.registry import find_ruleset
from dogfight.rulesets.sfa.board import BOARD
from dogfight.rulesets.sfa.heuristic import SfaHeuristic
from dogfight.sim import matchup


def test_players_board_and_rules_text() -> None:
    sfa = find_ruleset("sfa")
    assert dict(sfa.players()) == {"heuristic": SfaHeuristic}
    assert sfa.board() is BOARD
    assert sfa.rules_text() == ("sfa.md", "sfa-technologies.md")


def test_lab_board_is_the_standard_duel_map() -> None:
    lab = find_ruleset("sfa").lab()
    assert lab is not None
    old = matchup.BOARDS["sfa"]
    assert {f: getattr(lab.board, f) for f in lab.board.__struct_fields__} == {
        f: getattr(old, f) for f in old.__struct_fields__
    }
    assert lab.playing_area() == {"map": {"width": 16, "height": 12}}


def test_lab_default_roster_as_before() -> None:
    sfa = find_ruleset("sfa")
    lab = sfa.lab()
    assert lab is not None
    assert lab.default_roster(sfa) == matchup.default_roster("sfa")
    assert lab.default_roster(sfa)  # the Starfighter-scale craft that move


@pytest.mark.parametrize("count", [1, 2, 3, 7, 12, 13, 30])
@pytest.mark.parametrize("left", [True, False])
def test_lab_sides_deploy_as_before(count: int, left: bool) -> None:
    lab = find_ruleset("sfa").lab()
    assert lab is not None
    old = matchup._sfa_side(matchup.BOARDS["sfa"], "A", "rebel-fighter", count, left)
    assert lab.side("A", "rebel-fighter", count, left) == old
