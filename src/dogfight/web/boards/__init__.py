"""Board adapters: what the browser draws and offers for one ruleset.

The browser holds no rules. For each ruleset an adapter turns what a seat may see
(`Game.observation(seat)`) into a scene of plain shapes, describes each legal action
for people (label, group, unit, target, destination, exact odds), draws movement
envelopes and turns a point chosen on the board into a movement action. The JSON
shapes are specified in docs/web-api.md.

The web names no ruleset: a ruleset gives its adapter through its `board()` hook
(core/ruleset.py), so a plugin or a subclass registered under a new name is drawn too.

Beyond the `Board` protocol (core/hooks.py), the web reads one optional attribute of
an adapter, with a default for an adapter that lacks it:

- `part_separators` (str): the characters after which an id in event data names a
  part of a unit rather than the unit (a unit's station, a model of a group), so the
  log can show the side of the unit it belongs to.
"""

from __future__ import annotations

from dogfight.core.errors import UnknownName
from dogfight.core.hooks import Board as _Board
from dogfight.core.registry import find_ruleset
from dogfight.core.ruleset import Ruleset

Board = _Board
"""One ruleset's board adapter (the protocol lives in core/hooks.py)."""

PART_SEPARATORS = "#."
"""`part_separators` of an adapter that does not set its own: '#' and '.', the marks
the built-in rulesets' event ids use today for a part of a unit (a board that sets its
own makes this default unneeded for it)."""


def board_of(ruleset: Ruleset) -> Board | None:
    """The board adapter a ruleset gives (None: it has none)."""
    return ruleset.board()


def board_for(ruleset: str) -> Board:
    """The board adapter of the ruleset named `ruleset` (raises UnknownName when there
    is no such ruleset or it has no board)."""
    try:
        found = find_ruleset(ruleset)
    except UnknownName:
        raise UnknownName(f"no board for ruleset {ruleset!r}: no such ruleset") from None
    board = board_of(found)
    if board is None:
        raise UnknownName(f"no board for ruleset {ruleset!r}")
    return board


def part_separators(board: Board | None) -> str:
    """The adapter's `part_separators`, or the default (also for no adapter at all)."""
    separators = getattr(board, "part_separators", PART_SEPARATORS)
    return separators if isinstance(separators, str) else PART_SEPARATORS
