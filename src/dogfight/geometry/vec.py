"""Free-table geometry: vectors, poses, round bases, arcs and table edges.

Distances are in inches. Headings are in degrees, measured anticlockwise from
the +x axis (0 = east, 90 = north), as in ordinary maths; bearings relative to
a heading are normalised to the half-open range (-180, 180].

Nothing here knows about any game.
"""

from __future__ import annotations

import itertools
import math

import msgspec

EPSILON = 1e-3
"""Tolerance for 'touching' and 'on the border' tests, in inches or degrees.

Tabletop geometry is measured by hand, so a thousandth of an inch either way counts
as exact. It is also larger than the rounding of stored positions (4 decimals), so a
base placed in contact stays in contact after rounding."""


class Vec2(msgspec.Struct, frozen=True, array_like=True):
    """A point or displacement on the table, in inches."""

    x: float
    y: float

    def __add__(self, other: Vec2) -> Vec2:
        return Vec2(self.x + other.x, self.y + other.y)

    def __sub__(self, other: Vec2) -> Vec2:
        return Vec2(self.x - other.x, self.y - other.y)

    def __mul__(self, k: float) -> Vec2:
        return Vec2(self.x * k, self.y * k)

    def length(self) -> float:
        """Euclidean length."""
        return math.hypot(self.x, self.y)

    def distance(self, other: Vec2) -> float:
        """Centre-to-centre distance to another point."""
        return math.hypot(self.x - other.x, self.y - other.y)

    def angle(self) -> float:
        """Direction of this vector in degrees (0 = +x, anticlockwise)."""
        return math.degrees(math.atan2(self.y, self.x))

    @staticmethod
    def polar(length: float, degrees: float) -> Vec2:
        """The vector of the given length pointing in the given direction."""
        rad = math.radians(degrees)
        return Vec2(length * math.cos(rad), length * math.sin(rad))

    def rotated(self, degrees: float) -> Vec2:
        """This vector turned anticlockwise by `degrees`."""
        rad = math.radians(degrees)
        c, s = math.cos(rad), math.sin(rad)
        return Vec2(self.x * c - self.y * s, self.x * s + self.y * c)

    def rounded(self, places: int = 4) -> Vec2:
        """Rounded coordinates, so that saved games stay short and stable."""
        return Vec2(round(self.x, places), round(self.y, places))


def normalise_angle(degrees: float) -> float:
    """Fold an angle into (-180, 180].

    >>> normalise_angle(270)
    -90.0
    >>> normalise_angle(-180)
    180.0
    """
    a = math.fmod(degrees, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return float(a)


class Pose(msgspec.Struct, frozen=True, array_like=True):
    """A position with a heading (degrees)."""

    position: Vec2
    heading: float

    def forward(self, distance: float) -> Pose:
        """The pose reached by moving straight ahead."""
        return Pose(self.position + Vec2.polar(distance, self.heading), self.heading)

    def turned(self, degrees: float) -> Pose:
        """The same position, heading turned anticlockwise (positive = to port)."""
        return Pose(self.position, normalise_angle(self.heading + degrees))

    def bearing_to(self, point: Vec2) -> float:
        """Bearing of `point` relative to this pose's heading, in (-180, 180].

        0 is dead ahead, positive to port (left), negative to starboard (right).
        """
        if point.distance(self.position) < EPSILON:
            return 0.0
        return normalise_angle((point - self.position).angle() - self.heading)


class Arc(msgspec.Struct, frozen=True, array_like=True):
    """A firing arc: the bearings from `start` anticlockwise to `end`, inclusive.

    An arc of 360 degrees or more covers every bearing.
    """

    start: float
    end: float

    @property
    def width(self) -> float:
        """Angular width in degrees (an `end` below `start` wraps through 360)."""
        width = self.end - self.start
        return width + 360.0 if width < 0 else width

    def contains(self, bearing: float) -> bool:
        """True if the relative bearing lies in the arc (borders included)."""
        if self.width >= 360.0 - EPSILON:
            return True
        offset = (bearing - self.start) % 360.0
        return offset <= self.width + EPSILON or offset >= 360.0 - EPSILON


class Table(msgspec.Struct, frozen=True):
    """A rectangular playing area with its lower-left corner at (0, 0)."""

    width: float
    height: float

    def contains(self, point: Vec2, margin: float = 0.0) -> bool:
        """True if `point` is on the table, at least `margin` from every edge."""
        return (
            margin - EPSILON <= point.x <= self.width - margin + EPSILON
            and margin - EPSILON <= point.y <= self.height - margin + EPSILON
        )

    def clamp(self, point: Vec2, margin: float = 0.0) -> Vec2:
        """The nearest point on the table at least `margin` from every edge."""
        return Vec2(
            min(max(point.x, margin), self.width - margin),
            min(max(point.y, margin), self.height - margin),
        )


def edge_distance(a: Vec2, radius_a: float, b: Vec2, radius_b: float) -> float:
    """Edge-to-edge distance between two round bases (0 when touching or overlapping)."""
    return max(0.0, a.distance(b) - radius_a - radius_b)


def in_contact(a: Vec2, radius_a: float, b: Vec2, radius_b: float) -> bool:
    """True if two round bases touch or overlap."""
    return a.distance(b) <= radius_a + radius_b + EPSILON


def overlaps(a: Vec2, radius_a: float, b: Vec2, radius_b: float) -> bool:
    """True if two round bases overlap by more than a touch."""
    return a.distance(b) < radius_a + radius_b - EPSILON


def point_along(path: list[Vec2], distance: float) -> tuple[Vec2, float]:
    """The point `distance` inches along a polyline, and the heading there.

    Past the end of the path, the last point is returned.
    """
    if len(path) == 1:
        return path[0], 0.0
    travelled = 0.0
    heading = 0.0
    for start, end in itertools.pairwise(path):
        seg = start.distance(end)
        if seg < EPSILON:
            continue
        heading = (end - start).angle()
        if travelled + seg >= distance - EPSILON:
            t = max(0.0, distance - travelled) / seg
            return start + (end - start) * t, heading
        travelled += seg
    return path[-1], heading


def path_length(path: list[Vec2]) -> float:
    """Total length of a polyline."""
    return sum(a.distance(b) for a, b in itertools.pairwise(path))


def approach_point(start: Vec2, target: Vec2, stop_at: float, budget: float) -> Vec2:
    """Move from `start` straight towards `target`, stopping `stop_at` short of
    its centre or after `budget` inches, whichever comes first."""
    gap = start.distance(target) - stop_at
    if gap <= 0:
        return start
    step = min(gap, budget)
    return start + Vec2.polar(step, (target - start).angle())
