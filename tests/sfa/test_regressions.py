"""Regression tests for sfa rule bugs found after the clause tests were written."""

from __future__ import annotations

from dogfight.core import Game, load_scenario
from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa.combat import bears


def test_SFA_TEC_03_auto_turrets_fire_along_the_six_straight_lines_only() -> None:
    """SFA-TEC-03: the Alien Disk-Fighter's turret laser, aimed by its Auto-Turrets for a
    pilot with no gunner, reaches hexes on the six straight lines but none between them."""
    game = Game(load_scenario("fighter-duel"), seed=1)
    state = game.state
    disk = state.craft["A1"]
    laser = state.type_of(disk).weapons[0]
    assert not disk.gunners and state.type_of(disk).has("auto_turrets")
    on_line = disk.hex + Hex(2, 0)
    off_line = disk.hex + Hex(2, -1)
    assert bears(state, disk, laser, on_line) == ""
    assert "six straight lines" in bears(state, disk, laser, off_line)
