"""Computer players decide on what their side may know, nothing more (DESIGN.md: Player;
issue 12 item 4). For every ruleset, every built-in scenario and every kind of player
the ruleset offers, a whole game is played; at each computer decision a copy of the game
is drawn as the deciding side knows it (`Seat.sample`: the other side's secrets resampled
by `Ruleset.sample_state`, the future dice reseeded), and the player, given the same
generator seed, must choose the same action on the copy as on the real game. A player
that read the real dice or the other side's secret choices would, sooner or later, not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from dogfight.ai import make_player, player_kinds
from dogfight.core.game import Game
from dogfight.core.play import Player
from dogfight.core.registry import all_rulesets
from dogfight.core.scenario import builtin_scenarios
from dogfight.core.seat import Seat

SEARCH_DECISIONS = 8
"""Decisions checked for the search player (at a small budget): each costs a few
playouts, and the search's own reading of the seat is that of its guide's and of
`Seat.sample`, checked over whole games with the other kinds."""

PERSONA_DECISIONS = 40
"""Decisions checked for a persona (`heuristic:aggressive`): the same code as its base
kind, which is checked over whole games, with other weights."""

LARGE_DECISIONS = {"starbase-assault": (300, 2)}
"""In the large scenarios (issue 13), the decisions checked for the heuristic kind and
for the search: a whole heuristic game of starbase-assault costs about half a minute
(twice, a real and a blind player), a search decision there some seconds. The whole
games of the other scenarios check the same code."""

CASES = [
    pytest.param(scenario, kind, id=f"{scenario.ruleset}/{scenario.name}-{kind}")
    for ruleset in all_rulesets()
    for scenario in builtin_scenarios(ruleset.name)
    for kind in player_kinds(ruleset)
]


def _decisions_match(
    scenario: Any, kind: str, seed: int, new: Callable[[], Player], limit: int | None = None
) -> int:
    """Play one game (its first `limit` decisions); returns how many were checked."""
    game = Game(scenario, seed=seed)
    real = {side: new() for side in game.sides()}
    # A second player of each side sees only drawn copies: the same game as far as the
    # side knows (a copy keeps `seat.key`), so the player's memory of its own earlier
    # decisions carries from one copy to the next as it does on the real game.
    blind = {side: new() for side in game.sides()}
    chooser = random.Random(seed)
    checked = 0
    while not game.is_over() and (limit is None or checked < limit):
        side = game.current_player()
        assert side is not None
        legal = game.legal_actions()
        seat = Seat(game, side)
        copy = seat.sample(random.Random(chooser.getrandbits(64)))
        assert copy.dice.source is not game.dice.source
        assert copy.legal_actions() == legal, "the legal actions depend on a secret"
        assert copy.observation(side) == game.observation(side), "the copy looks different"
        player_seed = chooser.getrandbits(64)
        action = real[side].decide(seat, legal, random.Random(player_seed))
        drawn = blind[side].decide(
            Seat(copy, side), copy.legal_actions(), random.Random(player_seed)
        )
        assert drawn == action, f"decision {checked} of {side} ({kind}) read what it may not know"
        game.apply(action)
        checked += 1
    return checked


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "kind"), CASES)
def test_every_decision_is_the_same_on_a_game_drawn_from_the_sides_knowledge(
    scenario: Any, kind: str
) -> None:
    ruleset = Game(scenario).ruleset
    large = LARGE_DECISIONS.get(scenario.name)
    if kind == "search":
        limit = large[1] if large else SEARCH_DECISIONS
        made = _decisions_match(scenario, kind, 7, lambda: make_player("search:8", ruleset), limit)
    elif ":" in kind:
        made = _decisions_match(
            scenario, kind, 7, lambda: make_player(kind, ruleset), PERSONA_DECISIONS
        )
    else:
        made = _decisions_match(
            scenario, kind, 7, lambda: make_player(kind, ruleset), large[0] if large else None
        )
    assert made > 0


class PeekingPlayer:
    """Cheats: picks by the next face of the game's real dice (through the private
    `seat._game`, which only core may use)."""

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        return legal[seat._game.dice.clone().roll(len(legal)) - 1]


def test_a_player_reading_the_real_dice_is_caught() -> None:
    """The check above can fail: a player that reads the dice decides otherwise on the
    drawn copy, whose dice were reseeded."""
    scenario, kind = CASES[0].values
    with pytest.raises(AssertionError, match="read what it may not know"):
        _decisions_match(scenario, kind, 7, PeekingPlayer)


def test_every_ruleset_is_checked_with_every_player_kind() -> None:
    """The cases above cover each registered ruleset with each kind it offers."""
    covered = {(p.values[0].ruleset, p.values[1]) for p in CASES}
    for ruleset in all_rulesets():
        for kind in player_kinds(ruleset):
            assert (ruleset.name, kind) in covered
