"""How the lab fields evo flights against each other: the duel board and the sides.

The board is the built-in skirmish's: a 48" table, flights 12" apart (a flight of 3
stands 4" wide, of 5 8" wide: hence at least 10" between leaders), the two sides
facing each other from the left and right edges.
"""

from __future__ import annotations

from typing import Any

from dogfight.core.hooks import DuelBoard
from dogfight.core.ruleset import Ruleset

BOARD = DuelBoard(
    width=48,
    height=48,
    edge=6,
    low=4,
    high=44,
    gap=12,
    spacing=10,
    rank=2,
    margin=1,
    turn_limit=6,
)
"""The evo duel board (sim/matchup.py's lab)."""


class EvoLab:
    """The evo lab set-up (core.hooks.LabSetup): every flight type, on the skirmish table."""

    board: DuelBoard = BOARD

    def default_roster(self, rules: Ruleset) -> list[str]:
        """Every flight type of the catalog."""
        return [rules.describe_unit(name)["id"] for name in rules.unit_names()]

    def side(self, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
        """`count` flights of `unit` in ranks at the left (first side) or right edge,
        facing the other side."""
        board = self.board
        prefix = "A" if left else "B"
        units = []
        for i, (depth, along) in enumerate(board.slots(count)):
            x = board.edge - depth if left else board.width - board.edge + depth
            units.append(
                {
                    "id": f"{prefix}{i + 1}",
                    "type": unit,
                    "at": [x, along],
                    "heading": 0 if left else 180,
                }
            )
        return {"name": name, "units": units}

    def playing_area(self) -> dict[str, Any]:
        """The table of the duel board."""
        return {"table": {"width": self.board.width, "height": self.board.height}}


LAB = EvoLab()
