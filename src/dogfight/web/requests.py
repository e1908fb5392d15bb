"""The request and reply bodies of the web API (docs/web-api.md), as msgspec Structs.

The server decodes each body straight into one of these (unknown fields refused), so
a malformed request is answered with a 400 naming the field before any game is
touched.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.limits import SEED_MAX
from dogfight.web.errors import BadRequest

SEED = Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
"""A seed the database can keep (SQLite integers are 64-bit; seeds are never negative)."""


class NewGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of `POST /api/games`."""

    ruleset: str
    seats: dict[str, str]
    scenario: str | None = None
    scenario_text: str | None = None
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    seed: SEED | None = None


class ScenarioText(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of `POST /api/scenarios/read`: an uploaded scenario to read."""

    ruleset: str
    scenario_text: str
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class ActionBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`POST /api/games/{game}/actions`: an index into the view's actions, or an action."""

    token: str | None = None
    index: int | None = None
    action: Any = None
    version: int | None = None


class MoveBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`POST /api/games/{game}/move`: a unit taken to a board point."""

    unit: str
    x: float
    y: float
    facing: float = 0.0
    token: str | None = None


class UndoBody(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`POST /api/games/{game}/undo`."""

    token: str | None = None


class SeatLink(msgspec.Struct, frozen=True, kw_only=True):
    """One seat in the reply to a new game: the token is shown this once only."""

    kind: str
    token: str | None
    link: str | None


class Created(msgspec.Struct, frozen=True, kw_only=True):
    """The reply to a new or opened game."""

    game: str
    seats: dict[str, SeatLink]
    spectator: str


def decode_action(game: Game, data: Any) -> Any:
    """An action sent as plain data, decoded with the ruleset's action type (400 if bad)."""
    try:
        return msgspec.convert(data, game.ruleset.action_type)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"field 'action': {exc}") from None
