"""Scenarios may define their own unit types, inline or in unit files beside them."""

from __future__ import annotations

from pathlib import Path

import pytest

from dogfight.core import DataError, Game, load_scenario
from dogfight.core.gamefile import load_game, replay_matches, save_game

RAPTOR = """\
id: raptor
name: Raptor Interceptor
kind: fighter
fleet: Homebrew
speed: 11
turn: SM
dogfight: 2
damage: 1
traits: [Dodge 5+]
weapons:
- {name: Gun, range: 3, ad: 2, traits: [Precise]}
"""

SCENARIO = """\
name: homebrew
ruleset: acta
unit_files: [raptor.yaml]
sides:
- name: A
  units: [{type: raptor, at: [5, 5], id: R1}]
- name: B
  units: [{type: zaresh, at: [15, 5], id: Z1, dogfight_drones: false}]
"""


def test_unit_files_are_read_relative_to_the_scenario_and_saved_inline(tmp_path: Path) -> None:
    (tmp_path / "raptor.yaml").write_text(RAPTOR, encoding="utf-8")
    (tmp_path / "homebrew.yaml").write_text(SCENARIO, encoding="utf-8")
    game = Game(load_scenario(str(tmp_path / "homebrew.yaml")), seed=4)
    assert game.state.unit_type(game.state.units["R1"]).dogfight == 2
    assert "unit_files" not in game.scenario.raw
    path = save_game(game, tmp_path / "game.json")
    (tmp_path / "raptor.yaml").unlink()  # the game file must not need it any more
    loaded, gamefile = load_game(path)
    assert replay_matches(loaded, gamefile)
    assert loaded.state.types["raptor"].name == "Raptor Interceptor"


def test_inline_custom_unit_errors_name_the_field(tmp_path: Path) -> None:
    text = SCENARIO.replace("unit_files: [raptor.yaml]\n", "custom_units:\n- {id: raptor}\n")
    (tmp_path / "homebrew.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"field 'custom_units\[0\]\.name': missing"):
        Game(load_scenario(str(tmp_path / "homebrew.yaml")))


def test_missing_unit_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "homebrew.yaml").write_text(SCENARIO, encoding="utf-8")
    with pytest.raises(DataError, match=r"field 'unit_files\[0\]': no such file"):
        Game(load_scenario(str(tmp_path / "homebrew.yaml")))
