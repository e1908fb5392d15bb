"""Regression tests for sfa rule bugs found after the clause tests were written."""

from __future__ import annotations

import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.errors import DataError
from dogfight.core.scenario import scenario_from_raw
from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa.combat import bears
from dogfight.rulesets.sfa.setup import MAX_MAP_SIDE


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


def test_map_sizes_out_of_bounds_are_refused_naming_the_field() -> None:
    """A map of no hexes (or thousands a side) is bad scenario data, refused with the
    field named, not a crash deep in the hex code nor a map too large to draw."""
    raw = dict(load_scenario("fighter-duel").raw)
    for side, bad, expected in [
        ("width", 0, ">= 1"),
        ("height", -3, ">= 1"),
        ("width", MAX_MAP_SIDE + 1, f"<= {MAX_MAP_SIDE}"),
    ]:
        spoiled = {**raw, "map": {**raw["map"], side: bad}}
        with pytest.raises(DataError, match=rf"field 'map\.{side}'.*{expected}"):
            Game(scenario_from_raw(spoiled, "upload"), seed=1)
