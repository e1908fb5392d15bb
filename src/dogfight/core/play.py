"""The play loop: ask whoever must decide, apply, repeat until the game ends."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from dogfight.core.errors import DogfightError
from dogfight.core.events import Event
from dogfight.core.game import Game
from dogfight.core.seat import Seat


class Player(Protocol):
    """Anything that picks an action."""

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """Choose one action (normally one of `legal`) for the side to move, knowing
        only what `seat` shows."""
        ...


@dataclass(frozen=True)
class Weighed:
    """One candidate a computer player weighed: the action, its score or estimated
    value (higher is better for the deciding side), and why, in words a player reads."""

    action: Any
    score: float
    reason: str


@runtime_checkable
class WeighingPlayer(Player, Protocol):
    """A player that can show the candidates it weighed for a decision.

    `weigh` returns them best first; `decide` with the same seat, legal actions and an
    equal generator returns the first one's action. Explanations (`battle --explain`,
    the browser's "why?") and the search player's move ordering read it.
    """

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        """The candidates considered, best first (at least one)."""
        ...


@runtime_checkable
class RememberingPlayer(Player, Protocol):
    """A player that can remember what it worked out at a position and answer the
    same position again from memory, with the same choice for an equal generator.

    The search player plays many playouts from one decision, and they pass through the
    same positions (until a die is rolled, every world it draws plays the same moves):
    remembering makes those decisions cheap without changing one of them.
    """

    def remember_positions(self, on: bool) -> None:
        """Start remembering afresh (True), or forget and stop (False)."""
        ...


class RunawayGame(DogfightError):
    """A game took more actions than any legal game should (a rules bug)."""


def play(
    game: Game,
    players: Mapping[str, Player],
    rng: random.Random,
    *,
    max_actions: int = 100_000,
    on_events: Callable[[list[Event]], None] | None = None,
) -> Game:
    """Play `game` to the end with one player per side; returns the same game.

    `rng` is the players' own generator (never the dice), so that changing a
    player does not change the dice of the rules.
    """
    steps = 0
    while not game.is_over():
        side = game.current_player()
        if side is None:
            break
        player = players.get(side)
        if player is None:
            raise DogfightError(f"no player for side '{side}'")
        legal = game.legal_actions()
        if not legal:
            raise RunawayGame(f"side '{side}' must decide but has no legal action")
        action = player.decide(Seat(game, side), legal, rng)
        events = game.apply(action)
        if on_events is not None:
            on_events(events)
        steps += 1
        if steps > max_actions:
            raise RunawayGame(f"game passed {max_actions} actions without ending")
    return game
