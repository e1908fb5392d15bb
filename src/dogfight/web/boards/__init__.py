"""Board adapters: what the browser draws and offers for one ruleset.

The browser holds no rules. For each ruleset an adapter turns what a seat may see
(`Game.observation(seat)`) into a scene of plain shapes, describes each legal action
for people (label, group, unit, target, destination, exact odds), draws movement
envelopes and turns a point chosen on the board into a movement action. The JSON
shapes are specified in docs/web-api.md.
"""

from __future__ import annotations

from importlib import import_module

from dogfight.core.errors import UnknownName
from dogfight.core.hooks import Board as _Board

Board = _Board
"""One ruleset's board adapter (the protocol lives in core/hooks.py)."""


BOARD_MODULES = {
    "acta": "dogfight.rulesets.acta.board",
    "evo": "dogfight.rulesets.evo.board",
    "sfa": "dogfight.rulesets.sfa.board",
}


def board_for(ruleset: str) -> Board:
    """The board adapter of a ruleset (raises UnknownName)."""
    try:
        module = import_module(BOARD_MODULES[ruleset])
    except KeyError:
        raise UnknownName(f"no board for ruleset {ruleset!r}") from None
    board: Board = module.BOARD
    return board
