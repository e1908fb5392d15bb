"""All three boards: found by ruleset name, `describe_all` agrees with `describe`, and
kept observations follow the game as it changes."""

from __future__ import annotations

import pytest

from dogfight.core.errors import UnknownName
from dogfight.core.scene import shapes
from dogfight.web.boards import board_for

from .contract import positions

FIRST = {"acta": "acta/carrier-strike", "evo": "evo/skirmish", "sfa": "sfa/fighter-duel"}


@pytest.mark.parametrize("ruleset", sorted(FIRST))
def test_describe_all_is_describe_for_each(ruleset: str) -> None:
    board = board_for(ruleset)
    for game in positions(FIRST[ruleset], seed=1, steps=40, every=5):
        legal = game.legal_actions()
        assert board.describe_all(game, legal) == [board.describe(game, a) for a in legal]  # type: ignore[attr-defined]


def test_an_unknown_ruleset_has_no_board() -> None:
    with pytest.raises(UnknownName, match="no board"):
        board_for("chess")


@pytest.mark.parametrize("ruleset", sorted(FIRST))
def test_a_kept_observation_is_renewed_when_the_game_moves_on(ruleset: str) -> None:
    game = next(positions(FIRST[ruleset], seed=2, steps=0))
    seat = game.current_player()
    before = shapes.observed(game, seat)
    assert shapes.observed(game, seat) is before
    game.apply(game.legal_actions()[0])
    after = shapes.observed(game, seat)
    assert after is not before
    assert after == game.observation(seat)
