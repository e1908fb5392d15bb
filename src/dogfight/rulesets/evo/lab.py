"""How the lab fields evo flights against each other: the duel board and the sides.

The board is the built-in skirmish's: a 48" table, flights 12" apart (a flight of 3
stands 4" wide, of 5 8" wide: hence at least 10" between leaders), the two sides
facing each other from the left and right edges.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from dogfight.core.errors import DogfightError
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

    def crowd_sizes(self) -> tuple[int, ...]:
        """`dogfight bench --units` times by default 5, 10, 20, 40 flights of 4 a side."""
        return (5, 10, 20, 40)

    def crowd(self, rules: Ruleset, count: int) -> dict[str, Any]:
        """`count` flights of 4 a side (core.hooks.LabSetup.crowd): the skirmish's
        powers and types (Earth Alliance Starfuries, Aurora and Nova in turn, against
        Narn Frazis) on a table grown with the count to keep the skirmish's density
        (3 flights a side on 48")."""
        # The same deployment as a duel's, on the grown board.
        grown = copy.copy(self)
        grown.board = board = self.board.grown(math.sqrt(count / 3))
        sides = []
        for left, name, types in (
            (True, "Earth Alliance", ("starfury-aurora", "starfury-nova")),
            (False, "Narn Regime", ("frazi",)),
        ):
            known = [t for t in types if t in rules.unit_names()]
            if not known:
                raise DogfightError(f"the {rules.name} catalog has none of {', '.join(types)}")
            side = grown.side(name, known[0], count, left)
            for i, flight in enumerate(side["units"]):
                flight["type"] = known[i % len(known)]
                flight["models"] = 4
            sides.append(side)
        return {
            "name": f"crowd-{count}",
            "ruleset": rules.name,
            "title": f"Crowd: {count} flights of 4 a side",
            "turn_limit": board.turn_limit,
            "sides": sides,
            "table": {"width": board.width, "height": board.height},
        }


LAB = EvoLab()
