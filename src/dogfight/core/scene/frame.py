"""Free-table coordinates for boards: the table's frame and an observed unit's pose.

The free-table rulesets measure from the lower-left corner with y up; the board draws
from the top-left with y down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from dogfight.geometry import Pose, Vec2


class Frame(msgspec.Struct, frozen=True):
    """The table's size, for turning table points into board points and back."""

    width: float
    height: float

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """A table point on the board."""
        return round(x, 4), round(self.height - y, 4)

    def to_table(self, x: float, y: float) -> tuple[float, float]:
        """A board point on the table."""
        return round(x, 4), round(self.height - y, 4)


def frame_of(obs: Mapping[str, Any]) -> Frame:
    """The frame of an observation's table."""
    return Frame(float(obs["table"]["width"]), float(obs["table"]["height"]))


def pose_of(unit: Mapping[str, Any]) -> Pose:
    """An observed unit's pose."""
    (x, y), heading = unit["pose"]
    return Pose(Vec2(float(x), float(y)), float(heading))


def table_shapes(frame: Frame) -> list[dict[str, Any]]:
    """The free table as the board draws it: its rectangle and its four edges."""
    from dogfight.core.scene import shapes as S

    w, h = frame.width, frame.height
    return [
        S.rect(0.0, 0.0, w, h, "table", f'table {w:g}" x {h:g}"'),
        S.line(0.0, 0.0, w, 0.0, "edge"),
        S.line(w, 0.0, w, h, "edge"),
        S.line(w, h, 0.0, h, "edge"),
        S.line(0.0, h, 0.0, 0.0, "edge"),
    ]
