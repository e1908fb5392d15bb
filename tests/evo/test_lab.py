"""The evo lab set-up (rulesets/evo/lab.py): the skirmish-sized duel board and its sides,
as sim/matchup.py built them before they moved into the ruleset."""

from __future__ import annotations

from dogfight.core.game import Game
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import scenario_from_raw


def test_duel_board_is_the_skirmish_table() -> None:
    lab = find_ruleset("evo").lab()
    assert lab is not None
    board = lab.board
    assert (board.width, board.height, board.turn_limit) == (48, 48, 6)
    assert (board.edge, board.low, board.high, board.gap, board.spacing) == (6, 4, 44, 12, 10)
    assert (board.rank, board.margin) == (2, 1)
    assert lab.playing_area() == {"table": {"width": 48, "height": 48}}


def test_sides_stand_in_ranks_facing_each_other() -> None:
    lab = find_ruleset("evo").lab()
    assert lab is not None
    left = lab.side("X", "razik", 3, True)
    assert left == {
        "name": "X",
        "units": [
            {"id": f"A{i + 1}", "type": "razik", "at": [6, y], "heading": 0}
            for i, y in enumerate((12.0, 24.0, 36.0))
        ],
    }
    right = lab.side("Y", "razik", 6, False)
    # Five fit the line 10" apart; the sixth stands in a second rank behind it.
    assert [u["at"] for u in right["units"]] == [
        [42, 4.0], [42, 14.0], [42, 24.0], [42, 34.0], [42, 44.0], [44, 24.0],
    ]  # fmt: skip
    assert {u["heading"] for u in right["units"]} == {180}


def test_a_duel_from_the_lab_sets_up() -> None:
    """The sides and table make a scenario the ruleset accepts."""
    rules = find_ruleset("evo")
    lab = rules.lab()
    assert lab is not None
    assert lab.default_roster(rules) == rules.unit_names()
    raw = {
        "name": "duel",
        "ruleset": "evo",
        "title": "Duel",
        "turn_limit": lab.board.turn_limit,
        "sides": [lab.side("A", "razik", 2, True), lab.side("B", "sentri", 2, False)],
        **lab.playing_area(),
    }
    game = Game(scenario_from_raw(raw, "duel"), seed=0)
    assert len(game.state.flights) == 4
