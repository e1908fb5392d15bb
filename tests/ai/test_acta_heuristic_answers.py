"""The acta heuristic keeps some answers for a whole game (for speed): keeping them must
not change a single decision."""

from __future__ import annotations

import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.seat import Seat
from dogfight.rulesets.acta.heuristic import ActaHeuristic
from dogfight.sim.players import player_rng


def actions_played(scenario: str, seed: int, *, keep_answers: bool) -> tuple[list[object], int]:
    """Play a battle heuristic against heuristic; its actions and the answers kept."""
    game = Game(load_scenario(scenario), seed=seed)
    players = {side: ActaHeuristic(strict=True, keep_answers=keep_answers) for side in game.sides()}
    rng = player_rng(seed)
    kept = 0
    while not game.is_over():
        side = game.current_player()
        assert side is not None
        player = players[side]
        game.apply(player.decide(Seat.of(game), game.legal_actions(), rng))
        kept = max(kept, len(player.lasting))
    return game.actions, kept


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [("furball", 1), ("furball", 2), ("escort-mission", 1), ("carrier-strike", 1)],
)
def test_kept_answers_change_no_decision(scenario: str, seed: int) -> None:
    kept_actions, kept = actions_played(scenario, seed, keep_answers=True)
    fresh_actions, fresh_kept = actions_played(scenario, seed, keep_answers=False)
    assert kept_actions == fresh_actions
    # The check means something only if answers were kept across decisions.
    assert kept > fresh_kept
