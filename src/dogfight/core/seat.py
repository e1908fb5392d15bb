"""What one side's computer player may know when it decides.

A player is handed a `Seat`, never the `Game`: its side, the ruleset and options, its
observation, the events it may see, the state as it may know it, and, for search, games
drawn consistent with that knowledge (the other side's secrets resampled from what is
legal, the future dice reseeded). The real dice and the other side's secret choices are
not reachable through it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dogfight.core.options import OptionValue

if TYPE_CHECKING:
    from dogfight.core.events import Event
    from dogfight.core.game import Game
    from dogfight.core.ruleset import Ruleset


class Seat:
    """One side's view of a game at a decision."""

    __slots__ = ("_game", "side")

    def __init__(self, game: Game, side: str | None = None) -> None:
        side = side if side is not None else game.current_player()
        if side is None:
            raise ValueError("a seat needs a side: the game is over")
        self._game = game
        self.side: str = side

    @classmethod
    def of(cls, game: Game, side: str | None = None) -> Seat:
        """The seat of `side` (default: the side that decides next) in `game`."""
        return cls(game, side)

    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        """The rules being played."""
        return self._game.ruleset

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """The rule options in force (public: both sides agreed them)."""
        return self._game.options

    @property
    def key(self) -> int:
        """Stays the same for every decision of one game, and for the games drawn from
        it by `sample` (the same game as far as this side knows): players may keep
        what they remember of a game under it."""
        return self._game.key

    def observation(self) -> dict[str, Any]:
        """What this side may see."""
        return self._game.observation(self.side)

    def events(self) -> list[Event]:
        """The log as this side may see it."""
        return self._game.events_for(self.side)

    def legal_actions(self) -> list[Any]:
        """The legal actions of the side deciding now (this side)."""
        return self._game.legal_actions()

    def state(self) -> Any:
        """The state as this side may know it (`Ruleset.known_state`): read it, do not
        change it. In a ruleset without hidden information this is the state itself."""
        return self._game.ruleset.known_state(self._game.state, self.side)

    def sample(self, rng: random.Random) -> Game:
        """A game drawn consistent with what this side knows: the other side's secrets
        resampled (`Ruleset.sample_state`), the dice reseeded from `rng`. Changing it
        never changes the real game."""
        from dogfight.dice import seeded

        copy = self._game.clone()
        copy.state = self._game.ruleset.sample_state(self._game.state, self.side, rng)
        copy.dice = seeded(rng.getrandbits(63))
        return copy
