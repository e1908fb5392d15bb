"""Board adapters: what the browser draws and offers for one ruleset.

The browser holds no rules. For each ruleset an adapter turns what a seat may see
(`Game.observation(seat)`) into a scene of plain shapes, describes each legal action
for people (label, group, unit, target, destination, exact odds), draws movement
envelopes and turns a point chosen on the board into a movement action. The JSON
shapes are specified in docs/web-api.md.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

from dogfight.core.errors import UnknownName
from dogfight.core.game import Game


class Board(Protocol):
    """One ruleset's board adapter."""

    def scene(self, game: Game, seat: str | None) -> dict[str, Any]:
        """The SCENE for `seat` (None: a spectator), built from `game.observation(seat)` only."""
        ...

    def describe(self, game: Game, action: Any) -> dict[str, Any]:
        """An ACTION view without `index` and `action`: kind, group, label, unit, target,
        dest, odds. `action` is one of `game.legal_actions()`."""
        ...

    def envelopes(self, game: Game) -> dict[str, dict[str, Any]]:
        """ENVELOPEs of the units the current player may move now (unit id -> envelope)."""
        ...

    def compose_move(self, game: Game, unit: str, x: float, y: float, facing: float) -> Any:
        """A movement action taking `unit` to board point (x, y) facing `facing` degrees.

        Raises `IllegalAction` with the reason when no such move is legal now."""
        ...


BOARD_MODULES = {
    "acta": "dogfight.web.boards.acta",
    "evo": "dogfight.web.boards.evo",
    "sfa": "dogfight.web.boards.sfa",
}


def board_for(ruleset: str) -> Board:
    """The board adapter of a ruleset (raises UnknownName)."""
    try:
        module = import_module(BOARD_MODULES[ruleset])
    except KeyError:
        raise UnknownName(f"no board for ruleset {ruleset!r}") from None
    board: Board = module.BOARD
    return board
