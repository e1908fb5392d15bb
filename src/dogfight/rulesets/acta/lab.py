"""How the lab fields acta units against each other: the duel board, roster and sides.

The board is the built-in furball's: a 36" table, fighters 4" apart, the two sides 14"
apart, facing each other from the left and right edges.
"""

from __future__ import annotations

from typing import Any

from dogfight.core.hooks import DuelBoard
from dogfight.core.ruleset import Ruleset

BOARD = DuelBoard(
    width=36,
    height=36,
    edge=11,
    low=2,
    high=34,
    gap=4,
    spacing=2,
    rank=3,
    margin=1,
    turn_limit=8,
)
"""The acta duel board (sim/matchup.py's lab)."""


class ActaLab:
    """The acta lab set-up (core.hooks.LabSetup): the seed's fighters on the furball table."""

    board: DuelBoard = BOARD

    def default_roster(self, rules: Ruleset) -> list[str]:
        """The seed's fighters (kind fighter, origin seed: seed 000's seven); ships
        fight on other terms (carriers, escorts) and are left out."""
        described = [rules.describe_unit(name) for name in rules.unit_names()]
        return [
            d["id"] for d in described if d.get("kind") == "fighter" and d.get("origin") == "seed"
        ]

    def side(self, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
        """`count` of `unit` in ranks at the left (first side) or right edge, facing the
        other side, with no Initiative bonus."""
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
        return {"name": name, "initiative": 0, "units": units}

    def playing_area(self) -> dict[str, Any]:
        """The table of the duel board."""
        return {"table": {"width": self.board.width, "height": self.board.height}}


LAB = ActaLab()
