"""Issue 16 item 1: one coordinate system and one angle convention everywhere. A move's
button says the place the log line it makes says."""

from __future__ import annotations

import re

import pytest

from dogfight.core.game import Game
from dogfight.core.scenario import load_scenario

PLACE = re.compile(r"\((-?\d+\.\d), (-?\d+\.\d)\)(?: facing (-?\d+))?")


@pytest.mark.parametrize("scenario", ["acta/furball", "acta/escort-mission", "evo/skirmish"])
def test_a_moves_label_says_the_place_its_log_line_says(scenario: str) -> None:
    game = Game(load_scenario(scenario), seed=3)
    board = game.ruleset.board()
    assert board is not None
    checked = 0
    while not game.is_over() and checked < 12:
        legal = game.legal_actions()
        moves = [a for a in legal if board.describe(game, a).get("group") == "move"]
        if not moves:
            game.apply(legal[0])
            continue
        action = moves[len(moves) // 2]
        label = board.describe(game, action)["label"]
        said = PLACE.search(label)
        events = game.apply(action)
        logged = [PLACE.search(e.text) for e in events if PLACE.search(e.text)]
        if said is None or not logged:
            continue
        # The log's last place is where the move ended; a fighter's line gives no facing.
        end = logged[-1]
        assert said.group(1, 2) == end.group(1, 2), (label, [e.text for e in events])
        if end.group(3) is not None:
            assert said.group(3) == end.group(3), (label, [e.text for e in events])
        checked += 1
    assert checked >= 3
