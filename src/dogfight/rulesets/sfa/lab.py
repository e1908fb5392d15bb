"""How the lab fields sfa craft against each other: the standard duel map, the default
round-robin roster and the deployment of one side (core.hooks.LabSetup)."""

from __future__ import annotations

import copy
import math
from typing import Any

from dogfight.core.hooks import DuelBoard
from dogfight.core.ruleset import Ruleset

BOARD = DuelBoard(
    # As the built-in fighter duel: a 16 x 12 hex map, columns 3 and 12, rows 3 apart.
    width=16,
    height=12,
    edge=3,
    low=0,
    high=11,
    gap=3,
    spacing=1,
    rank=1,
    margin=0,
    turn_limit=10,
)


class SfaLab:
    """The sfa lab set-up: craft deploy in hex columns facing each other."""

    board: DuelBoard = BOARD

    def default_roster(self, rules: Ruleset) -> list[str]:
        """The Starfighter-scale craft that move: starships, the stationary Battlesat and
        Street Fighter people are not fighters to field one for one."""
        described = [rules.describe_unit(name) for name in rules.unit_names()]
        return [d["id"] for d in described if d.get("scale_level") == 1 and d.get("move")]

    def side(self, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
        """`count` craft of `unit` in columns at the left (first side) or right edge."""
        board = self.board
        prefix = "A" if left else "B"
        craft = []
        for i, (depth, along) in enumerate(slots(board, count)):
            column = int(board.edge - depth) if left else int(board.width - 1 - board.edge + depth)
            craft.append(
                {
                    "id": f"{prefix}{i + 1}",
                    "type": unit,
                    "at": [column, math.floor(along + 0.5)],
                    # Hex facings as in the built-in fighter duel: 2 faces right, 5 left.
                    "facing": 2 if left else 5,
                    "pilot": "regular",
                }
            )
        return {"name": name, "craft": craft}

    def playing_area(self) -> dict[str, Any]:
        """An sfa scenario gives a hex `map`, not a `table`."""
        return {"map": {"width": int(self.board.width), "height": int(self.board.height)}}

    def crowd_sizes(self) -> tuple[int, ...]:
        """`dogfight bench --units` times by default 4, 8, 16, 32 craft a side."""
        return (4, 8, 16, 32)

    def crowd(self, rules: Ruleset, count: int) -> dict[str, Any]:
        """`count` craft a side (core.hooks.LabSetup.crowd): the fighter duel's Rebel
        Fighters against Alien Disk-Fighters on a map grown with the count to keep the
        duel's density (2 craft a side on 16 x 12 hexes)."""
        # The same deployment as a duel's, on the grown map.
        grown = copy.copy(self)
        grown.board = board = self.board.grown(math.sqrt(count / 2))
        sides = [
            grown.side(name, unit, count, left)
            for left, name, unit in (
                (True, "Rebels", "rebel-fighter"),
                (False, "Aliens", "alien-disk-fighter"),
            )
        ]
        return {
            "name": f"crowd-{count}",
            "ruleset": rules.name,
            "title": f"Crowd: {count} craft a side",
            "turn_limit": board.turn_limit,
            "sides": sides,
            **grown.playing_area(),
        }


def slots(board: DuelBoard, count: int) -> list[tuple[float, float]]:
    """(depth from the own edge line, position along it) of `count` units, in ranks.

    The same deployment as the other rulesets' duel boards (sim/matchup.py's `_slots`,
    which the layers forbid a ruleset to import)."""
    usable = board.high - board.low
    per_rank = min(count, int(usable // board.spacing) + 1)
    out: list[tuple[float, float]] = []
    for r in range(math.ceil(count / per_rank)):
        in_rank = min(per_rank, count - r * per_rank)
        gap = min(board.gap, usable / (in_rank - 1)) if in_rank > 1 else 0.0
        first = (board.low + board.high) / 2 - gap * (in_rank - 1) / 2
        out.extend((_depth(board, r), first + gap * i) for i in range(in_rank))
    return out


def _depth(board: DuelBoard, rank: int) -> float:
    """How far rank number `rank` stands behind the front line (negative: in front)."""
    behind = int((board.edge - board.margin) // board.rank) + 1
    return rank * board.rank if rank < behind else -(rank - behind + 1) * board.rank


LAB = SfaLab()
