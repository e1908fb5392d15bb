"""Plain-data SHAPEs for the board (docs/web-api.md) and the free-table conversions.

Board coordinates are SVG's: x right, y down, angles in degrees clockwise from up.
The free-table rulesets measure from the lower-left corner with y up and
headings anticlockwise from +x, so both the y axis and the sense of angles flip.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from dogfight.core.game import Game

Shape = dict[str, Any]
T = TypeVar("T")


def _shape(kind: str, cls: str, title: str | None, **fields: Any) -> Shape:
    out: Shape = {"kind": kind, "cls": cls, **fields}
    if title:
        out["title"] = title
    return out


def rect(x: float, y: float, w: float, h: float, cls: str, title: str | None = None) -> Shape:
    """A rectangle with its top-left corner at (x, y)."""
    return _shape("rect", cls, title, x=x, y=y, w=w, h=h)


def circle(x: float, y: float, r: float, cls: str, title: str | None = None) -> Shape:
    """A circle."""
    return _shape("circle", cls, title, x=x, y=y, r=r)


def polygon(points: list[tuple[float, float]], cls: str, title: str | None = None) -> Shape:
    """A closed polygon."""
    return _shape("polygon", cls, title, points=[[round(x, 4), round(y, 4)] for x, y in points])


def line(x1: float, y1: float, x2: float, y2: float, cls: str, title: str | None = None) -> Shape:
    """A straight line."""
    return _shape("line", cls, title, x1=x1, y1=y1, x2=x2, y2=y2)


def wedge(
    x: float, y: float, r: float, start: float, end: float, cls: str, title: str | None = None
) -> Shape:
    """A pie slice swept clockwise from `start` to `end` (board degrees, `end` > `start`;
    `end` may pass 360). A sweep of 360 or more is a full circle."""
    return _shape("wedge", cls, title, x=x, y=y, r=r, start=start, end=end)


def text(x: float, y: float, words: str, cls: str, title: str | None = None) -> Shape:
    """A label."""
    return _shape("text", cls, title, x=x, y=y, text=words)


# ---- observations ----------------------------------------------------------------------

_KEPT: weakref.WeakKeyDictionary[Game, tuple[tuple[int, int], dict[Any, Any]]] = (
    weakref.WeakKeyDictionary()
)


def kept(game: Game, key: Any, compute: Callable[[], T]) -> T:
    """`compute()`, remembered for `game` until it changes (an action is applied):
    describing the dozens of actions of one decision would otherwise redo it for each.
    The value is shared: read it, never change it."""
    version = (len(game.actions), id(game.state))
    entry = _KEPT.get(game)
    if entry is None or entry[0] != version:
        entry = (version, {})
        _KEPT[game] = entry
    if key not in entry[1]:
        entry[1][key] = compute()
    value: T = entry[1][key]
    return value


def observed(game: Game, seat: str | None) -> dict[str, Any]:
    """`game.observation(seat)`, kept while the game stands still (see `kept`)."""
    return kept(game, ("observation", seat), lambda: game.observation(seat))


# ---- free-table conversions -------------------------------------------------------------


def place_text(x: float, y: float, heading: float) -> str:
    """A table point and heading in the words the event log uses: table coordinates
    (origin at the lower-left corner, y up) and the heading in degrees anticlockwise
    from east, as the engine keeps it. Every label shown to people says a place this
    way, so a move's button and the log line it makes read the same."""
    return f"({x:.1f}, {y:.1f}) facing {heading:.0f}°"


def board_facing(heading: float) -> float:
    """A table heading (anticlockwise from +x) as a board facing (clockwise from up),
    in [0, 360)."""
    return round((90.0 - heading) % 360.0, 3) % 360.0


def table_heading(facing: float) -> float:
    """A board facing as a table heading in (-180, 180]."""
    a = math.fmod(90.0 - facing, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return a


def arc_wedge(
    x: float, y: float, r: float, facing: float, start: float, end: float, cls: str, title: str
) -> Shape:
    """A firing arc given as relative bearings (anticlockwise from `start` to `end`, positive
    to port, as the free-table rulesets write them) drawn round a unit at board `facing`."""
    width = end - start
    if width < 0:
        width += 360.0
    if width >= 360.0 - 1e-6:
        return circle(x, y, r, cls, title)
    # Anticlockwise bearings become clockwise board angles: the sweep starts at -end.
    first = (facing - end) % 360.0
    return wedge(x, y, r, round(first, 3), round(first + width, 3), cls, title)


def circle_polygon(
    x: float, y: float, r: float, bounds: tuple[float, float, float, float], points: int = 180
) -> list[tuple[float, float]]:
    """A polygon just outside a circle (circumscribed, so it covers every point of the
    circle), clipped to the box (x0, y0, x1, y1)."""
    reach = r / math.cos(math.pi / points)
    ring = [
        (
            x + reach * math.cos(2 * math.pi * i / points),
            y + reach * math.sin(2 * math.pi * i / points),
        )
        for i in range(points)
    ]
    return clip_to_box(ring, bounds)


def clip_to_box(
    ring: list[tuple[float, float]], bounds: tuple[float, float, float, float]
) -> list[tuple[float, float]]:
    """Sutherland-Hodgman clipping of a polygon to an axis-aligned box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = bounds
    out = ring
    # Each edge of the box: the axis it bounds, the bound, and which side is kept.
    for axis, bound, low in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        src, out = out, []
        for i, cur in enumerate(src):
            prev = src[i - 1]
            cur_in = cur[axis] >= bound if low else cur[axis] <= bound
            prev_in = prev[axis] >= bound if low else prev[axis] <= bound
            if cur_in != prev_in:
                out.append(_cut(prev, cur, axis, bound))
            if cur_in:
                out.append(cur)
        if not out:
            break
    return out


def _cut(
    a: tuple[float, float], b: tuple[float, float], axis: int, bound: float
) -> tuple[float, float]:
    """Where segment a-b crosses the line `axis` = `bound`."""
    t = (bound - a[axis]) / (b[axis] - a[axis])
    other = 1 - axis
    value = a[other] + t * (b[other] - a[other])
    return (bound, value) if axis == 0 else (value, bound)


# ---- hit tests (used by the adapters and tests) -------------------------------------------


def contains(shape: Shape, x: float, y: float, tolerance: float = 1e-3) -> bool:
    """Whether board point (x, y) lies in a SHAPE (borders and `tolerance` included).

    Lines and text contain nothing; a wedge is tested by radius and angle."""
    kind = shape["kind"]
    if kind == "circle":
        return bool(math.hypot(x - shape["x"], y - shape["y"]) <= shape["r"] + tolerance)
    if kind == "rect":
        return bool(
            shape["x"] - tolerance <= x <= shape["x"] + shape["w"] + tolerance
            and shape["y"] - tolerance <= y <= shape["y"] + shape["h"] + tolerance
        )
    if kind == "polygon":
        return _in_polygon(shape["points"], x, y, tolerance)
    if kind == "wedge":
        dist = math.hypot(x - shape["x"], y - shape["y"])
        if dist > shape["r"] + tolerance or dist < shape.get("r0", 0.0) - tolerance:
            return False
        if dist < tolerance:
            return True
        angle = math.degrees(math.atan2(x - shape["x"], -(y - shape["y"]))) % 360.0
        offset = (angle - shape["start"]) % 360.0
        return bool(offset <= shape["end"] - shape["start"] + 1e-6 or offset >= 360.0 - 1e-6)
    return False


def _in_polygon(points: list[list[float]], x: float, y: float, tolerance: float) -> bool:
    inside = False
    n = len(points)
    for i in range(n):
        ax, ay = points[i - 1]
        bx, by = points[i]
        if _segment_distance(x, y, ax, ay, bx, by) <= tolerance:
            return True
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    t = 0.0 if span == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / span))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def in_any(shapes: list[Shape], x: float, y: float, tolerance: float = 1e-3) -> bool:
    """Whether the point lies in any of the shapes."""
    return any(contains(s, x, y, tolerance) for s in shapes)


def in_envelope(shapes: list[Shape], x: float, y: float, tolerance: float = 1e-3) -> bool:
    """Whether the point lies in an ENVELOPE's shapes: in one of them, and in none of its
    holes (shapes of class `blocked`: points the rules refuse, such as a base stacked on
    another; a hole's border belongs to the envelope)."""
    holes = [s for s in shapes if s.get("cls") == "blocked"]
    open_ = [s for s in shapes if s.get("cls") != "blocked"]
    return in_any(open_, x, y, tolerance) and not in_any(holes, x, y, -tolerance)
