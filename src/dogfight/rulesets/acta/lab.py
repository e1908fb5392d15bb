"""How the lab fields acta units against each other: the duel board, roster and sides.

The board is the built-in furball's: a 36" table, fighters 4" apart, the two sides 14"
apart, facing each other from the left and right edges.
"""

from __future__ import annotations

import math
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

    def crowd_sizes(self) -> tuple[int, ...]:
        """`dogfight bench --units` times by default 10, 20, 40, 80, 160 fighters a side."""
        return (10, 20, 40, 80, 160)

    def crowd(self, rules: Ruleset, count: int) -> dict[str, Any]:
        """`count` seed fighters a side (core.hooks.LabSetup.crowd), each fleet flying
        its own seed types in turn, with one of its carriers (empty hangars: the
        fighters are out) for every 20 fighters behind its ranks. The table grows with
        the count to keep the furball's density (4 fighters a side on 36")."""
        described = [rules.describe_unit(name) for name in rules.unit_names()]
        fighters = self.default_roster(rules)
        fleets = sorted({d.get("fleet", "") for d in described if d["id"] in fighters})[:2]
        if len(fleets) < 2:
            fleets = [fleets[0], fleets[0]] if fleets else ["", ""]
        board = self.board.grown(math.sqrt(count / 4))
        sides = []
        for left, fleet in zip((True, False), fleets, strict=True):
            types = [d["id"] for d in described if d["id"] in fighters and d.get("fleet") == fleet]
            carriers = [
                d["id"]
                for d in described
                if d.get("kind") == "ship"
                and d.get("fleet") == fleet
                and any(str(t).startswith("Carrier") for t in d.get("traits", ()))
            ]
            prefix = "A" if left else "B"
            units: list[dict[str, Any]] = []
            slots = board.slots(count)
            for i, (depth, along) in enumerate(slots):
                x = board.edge - depth if left else board.width - board.edge + depth
                units.append(
                    {
                        "id": f"{prefix}-F{i + 1}",
                        "type": types[i % len(types)],
                        "at": [x, along],
                        "heading": 0 if left else 180,
                    }
                )
            ships = count // 20 if carriers else 0
            # The carriers stand 6" behind the last rank, spread along the line.
            back = max(depth for depth, _ in slots) + 6
            for j in range(ships):
                along = board.low + (board.high - board.low) * (j + 0.5) / ships
                x = board.edge - back if left else board.width - board.edge + back
                units.append(
                    {
                        "id": f"{prefix}-CV{j + 1}",
                        "type": carriers[j % len(carriers)],
                        "at": [x, along],
                        "heading": 0 if left else 180,
                    }
                )
            sides.append({"name": fleet or prefix, "initiative": 0, "units": units})
        return {
            "name": f"crowd-{count}",
            "ruleset": rules.name,
            "title": f"Crowd: {count} fighters a side",
            "turn_limit": board.turn_limit,
            "year": 180,
            "sides": sides,
            "table": {"width": board.width, "height": board.height},
        }


LAB = ActaLab()
