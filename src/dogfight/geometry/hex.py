"""Hex-grid geometry: axial coordinates, facings, lines, arcs and pixel layout.

This follows Red Blob Games' formulation ("Hexagonal Grids" and its reference
implementation): a `Hex` is stored in axial coordinates `(q, r)` and the third cube
coordinate `s = -q - r` is derived; `hex_distance`, `hex_round`, `hex_lerp`,
`hex_linedraw`, `Orientation` and `Layout` keep Red Blob's names and maths.

Conventions
-----------
Hexes are **flat-topped** and drawn with y pointing *down* the page, as in SVG
(`Layout` with the `FLAT` orientation). The six directions, and so the six
facings, are numbered clockwise from north (straight up the page)::

    index  Facing  axial (q, r)   cube (q, r, s)
      0      N       ( 0, -1)       ( 0, -1, +1)
      1      NE      (+1, -1)       (+1, -1,  0)
      2      SE      (+1,  0)       (+1,  0, -1)
      3      S       ( 0, +1)       ( 0, +1, -1)
      4      SW      (-1, +1)       (-1, +1,  0)
      5      NW      (-1,  0)       (-1,  0, +1)

A facing points through a hex *side*. `turn(facing, steps)` with positive `steps`
turns **clockwise** (to the right, starboard), negative anticlockwise; likewise
`Hex.rotate_right` is a clockwise turn of 60 degrees about the origin. (The
free-table `vec` module measures headings anticlockwise because its y axis points
up; on the hex board y points down and clockwise is the natural sense.)

Relative directions and sextants are counted the same way, clockwise from the
facing: 0 ahead, 1 ahead-right, 2 behind-right, 3 astern, 4 behind-left,
5 ahead-left. See `sextant` for the exact, border-deterministic definition used by
`in_arc`.

Nothing here knows about any game.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from enum import IntEnum
from functools import lru_cache

import msgspec

from dogfight.geometry.vec import Vec2


class Hex(msgspec.Struct, frozen=True, array_like=True, order=True):
    """A hex in axial coordinates; serialises as `[q, r]`.

    Hexes are also displacement vectors: they add, subtract and scale.

    >>> Hex(1, -3) + Hex(3, -7)
    Hex(q=4, r=-10)
    >>> Hex(3, -7).s
    4
    >>> Hex(0, 0).distance(Hex(3, -7))
    7
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, `-q - r`."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        """This displacement multiplied by `k`."""
        return Hex(self.q * k, self.r * k)

    def length(self) -> int:
        """Distance from the origin hex, in hex steps."""
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: Hex) -> int:
        """Distance to another hex, in hex steps (the fewest moves between them)."""
        return (self - other).length()

    def neighbor(self, direction: int) -> Hex:
        """The adjacent hex in a direction (0 = N, clockwise; taken modulo 6).

        >>> Hex(0, 0).neighbor(0), Hex(0, 0).neighbor(2)
        (Hex(q=0, r=-1), Hex(q=1, r=0))
        """
        return self + DIRECTIONS[direction % 6]

    def neighbors(self) -> list[Hex]:
        """The six adjacent hexes, in direction order (N, NE, SE, S, SW, NW)."""
        return [self + d for d in DIRECTIONS]

    def rotate_left(self) -> Hex:
        """This displacement turned 60 degrees anticlockwise about the origin.

        >>> DIRECTIONS[1].rotate_left() == DIRECTIONS[0]
        True
        """
        return Hex(-self.s, -self.q)

    def rotate_right(self) -> Hex:
        """This displacement turned 60 degrees clockwise about the origin.

        >>> DIRECTIONS[0].rotate_right() == DIRECTIONS[1]
        True
        """
        return Hex(-self.r, -self.s)

    def ring(self, radius: int) -> list[Hex]:
        """The hexes exactly `radius` steps away, centred on this hex.

        The ring starts at the hex `radius` steps due north and goes clockwise;
        it has `6 * radius` hexes (just this hex for radius 0).

        >>> Hex(0, 0).ring(1) == Hex(0, 0).neighbors()
        True
        """
        if radius < 0:
            raise ValueError(f"ring radius must be >= 0, not {radius}")
        if radius == 0:
            return [self]
        results: list[Hex] = []
        h = self + DIRECTIONS[0].scale(radius)
        for side in range(6):
            step = DIRECTIONS[(side + 2) % 6]
            for _ in range(radius):
                results.append(h)
                h = h + step
        return results

    def spiral(self, radius: int) -> list[Hex]:
        """Every hex within `radius` steps: this hex, then ring 1, ring 2, ...

        It has `1 + 3 * radius * (radius + 1)` hexes.
        """
        if radius < 0:
            raise ValueError(f"spiral radius must be >= 0, not {radius}")
        results = [self]
        for k in range(1, radius + 1):
            results.extend(self.ring(k))
        return results


DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)
"""The six unit steps, indexed by facing: N, NE, SE, S, SW, NW (clockwise)."""


def hex_distance(a: Hex, b: Hex) -> int:
    """Distance between two hexes in hex steps (Red Blob's name for `a.distance(b)`)."""
    return a.distance(b)


# --- facings -------------------------------------------------------------


class Facing(IntEnum):
    """The six facings, each through a hex side, numbered clockwise from north.

    A `Facing` is an `int`, so it indexes `DIRECTIONS` and serialises as 0..5.
    """

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5


def turn(facing: int, steps: int) -> Facing:
    """The facing after turning `steps` hex sides; positive is clockwise (right).

    >>> turn(Facing.N, 1), turn(Facing.N, -1), turn(Facing.SW, 3)
    (<Facing.NE: 1>, <Facing.NW: 5>, <Facing.NE: 1>)
    """
    # A tuple lookup rather than Facing(...): the same member, without the enum call's
    # cost (movement traces turn at every step).
    return _FACINGS[(facing + steps) % 6]


_FACINGS = tuple(Facing)
"""The facings by number."""


def facing_between(a: Hex, b: Hex) -> Facing:
    """The facing that points from `a` to the adjacent hex `b`.

    Raises `ValueError` if the hexes are not adjacent.

    >>> facing_between(Hex(0, 0), Hex(1, 0))
    <Facing.SE: 2>
    """
    try:
        return Facing(DIRECTIONS.index(b - a))
    except ValueError:
        raise ValueError(f"{a} and {b} are not adjacent") from None


def relative_direction(facing: int, direction: int) -> int:
    """How many clockwise steps `direction` is from `facing`, in 0..5.

    0 is dead ahead, 1 ahead-right, 2 behind-right, 3 astern, 4 behind-left,
    5 ahead-left.

    >>> relative_direction(Facing.N, Facing.NW)
    5
    """
    return (direction - facing) % 6


# --- rounding and lines --------------------------------------------------


class FractionalHex(msgspec.Struct, frozen=True, array_like=True):
    """A point between hex centres, in fractional cube coordinates (q + r + s = 0)."""

    q: float
    r: float
    s: float


def hex_round(h: FractionalHex) -> Hex:
    """The hex containing a fractional cube point.

    Each coordinate is rounded (halves up) and the one that moved furthest is
    recomputed from the other two, so the result keeps q + r + s = 0.

    >>> hex_round(FractionalHex(0.4, -0.3, -0.1))
    Hex(q=0, r=0)
    """
    qi = math.floor(h.q + 0.5)
    ri = math.floor(h.r + 0.5)
    si = math.floor(h.s + 0.5)
    q_diff = abs(qi - h.q)
    r_diff = abs(ri - h.r)
    s_diff = abs(si - h.s)
    if q_diff > r_diff and q_diff > s_diff:
        qi = -ri - si
    elif r_diff > s_diff:
        ri = -qi - si
    return Hex(qi, ri)


def hex_lerp(a: Hex | FractionalHex, b: Hex | FractionalHex, t: float) -> FractionalHex:
    """The point a fraction `t` of the way from `a` to `b`, in cube coordinates."""
    return FractionalHex(
        a.q + (b.q - a.q) * t,
        a.r + (b.r - a.r) * t,
        a.s + (b.s - a.s) * t,
    )


LINE_NUDGE = FractionalHex(1e-6, 2e-6, -3e-6)
"""The "epsilon hex" from Red Blob's line-drawing article, added to both ends of a line.

A line can pass exactly through a point halfway between two hexes (along an edge,
or across an edge's midpoint), where rounding would be a coin toss decided by
floating-point noise. The nudge moves the whole line a hair in a fixed direction
that is not parallel to any hex edge, so every such tie breaks the same way: lines
are deterministic and `hex_linedraw(b, a)` is `hex_linedraw(a, b)` reversed. (Red
Blob's implementation page uses (1e-6, 1e-6, -2e-6), which leaves ties between
hexes that differ along q - r unbroken.)"""


def hex_linedraw(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from `a` to `b`, both included.

    The line has `distance + 1` hexes and each is adjacent to the next.

    >>> hex_linedraw(Hex(0, 0), Hex(1, -5))
    [Hex(q=0, r=0), Hex(q=0, r=-1), Hex(q=0, r=-2), Hex(q=1, r=-3), Hex(q=1, r=-4), Hex(q=1, r=-5)]
    """
    return list(_linedraw(a, b))


@lru_cache(maxsize=65536)
def _linedraw(a: Hex, b: Hex) -> tuple[Hex, ...]:
    # Remembered: the players ask for the same lines of fire over and over, and each
    # costs a lerp and a rounding per hex. The caller gets its own list.
    n = a.distance(b)
    if n == 0:
        return (a,)
    e = LINE_NUDGE
    a_nudge = FractionalHex(a.q + e.q, a.r + e.r, a.s + e.s)
    b_nudge = FractionalHex(b.q + e.q, b.r + e.r, b.s + e.s)
    step = 1.0 / n
    return tuple(hex_round(hex_lerp(a_nudge, b_nudge, step * i)) for i in range(n + 1))


def straight_line(start: Hex, facing: int, length: int) -> list[Hex]:
    """The `length` hexes straight ahead of `start` along `facing` (start excluded).

    This is the line a forward-firing weapon covers.

    >>> straight_line(Hex(0, 0), Facing.SE, 3)
    [Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=3, r=0)]
    """
    step = DIRECTIONS[facing % 6]
    return [start + step.scale(k) for k in range(1, length + 1)]


def in_forward_line(origin: Hex, facing: int, target: Hex) -> bool:
    """True if `target` lies on the straight line ahead of `origin` along `facing`.

    The origin hex itself is not on the line.

    >>> in_forward_line(Hex(0, 0), Facing.N, Hex(0, -4))
    True
    >>> in_forward_line(Hex(0, 0), Facing.N, Hex(1, -4))
    False
    """
    d = target - origin
    n = d.length()
    return n > 0 and d == DIRECTIONS[facing % 6].scale(n)


# --- sextants and arcs ---------------------------------------------------

# Closed sextant k, after turning the board so the facing points north, is the set
# of cube offsets whose coordinates are ordered as below (indices into (q, r, s)).
_SEXTANT_ORDER: dict[int, tuple[int, int, int]] = {
    0: (1, 0, 2),  # r <= q <= s   ahead
    1: (1, 2, 0),  # r <= s <= q   ahead-right
    2: (2, 1, 0),  # s <= r <= q   behind-right
    3: (2, 0, 1),  # s <= q <= r   astern
    4: (0, 2, 1),  # q <= s <= r   behind-left
    5: (0, 1, 2),  # q <= r <= s   ahead-left
}
# A border hex goes to whichever of its two sextants comes first here: the one
# nearer the front.
_SEXTANT_PREFERENCE = (0, 1, 5, 2, 4, 3)


def _facing_north(origin: Hex, facing: int, target: Hex) -> tuple[int, int, int]:
    """Cube offset from origin to target, with the board turned so facing is north."""
    d = target - origin
    if d.length() == 0:
        raise ValueError("a hex has no sextant relative to itself")
    for _ in range(facing % 6):
        d = d.rotate_left()
    return (d.q, d.r, d.s)


def closed_sextants(origin: Hex, facing: int, target: Hex) -> frozenset[int]:
    """Every sextant whose closed 60-degree wedge holds `target`: one, or two on a border.

    Sextant k (relative to `facing`) is the wedge centred on relative direction k
    and bounded by the lines through hex corners ("spines") 30 degrees either side.
    With the board turned so that `facing` points north and the target's offset
    from `origin` written in cube coordinates (q, r, s), the closed wedges are::

        0 ahead         r <= q <= s        3 astern        s <= q <= r
        1 ahead-right   r <= s <= q        4 behind-left   q <= s <= r
        2 behind-right  s <= r <= q        5 ahead-left    q <= r <= s

    A target whose offset has two equal coordinates lies on a border and is in
    both neighbouring wedges. Raises `ValueError` if `target` is `origin`.

    >>> sorted(closed_sextants(Hex(0, 0), Facing.N, Hex(1, -2)))
    [0, 1]
    """
    c = _facing_north(origin, facing, target)
    return frozenset(k for k, (i, j, m) in _SEXTANT_ORDER.items() if c[i] <= c[j] <= c[m])


def sextant(origin: Hex, facing: int, target: Hex) -> int:
    """The sextant (0..5, clockwise from ahead) of `target` as seen from `origin`.

    Inside a wedge this is the unique entry of `closed_sextants`. A target on a
    border between two sextants is given to the one **nearer the front**, which
    is symmetric left to right: 0|1 -> 0, 1|2 -> 1, 2|3 -> 2, 3|4 -> 4, 4|5 -> 5,
    5|0 -> 0. So hexes exactly abeam count as ahead-right/ahead-left, and the
    spines 30 degrees off the bow count as dead ahead. Raises `ValueError` if
    `target` is `origin`.

    >>> sextant(Hex(0, 0), Facing.N, Hex(0, -3))
    0
    >>> sextant(Hex(0, 0), Facing.N, Hex(2, -1))  # exactly abeam to the right
    1
    >>> sextant(Hex(0, 0), Facing.S, Hex(2, -1))  # facing the other way: abeam left
    5
    """
    c = _facing_north(origin, facing, target)
    for k in _SEXTANT_PREFERENCE:
        i, j, m = _SEXTANT_ORDER[k]
        if c[i] <= c[j] <= c[m]:
            return k
    raise AssertionError("unreachable: the six closed sextants cover the plane")


FORWARD_ARC: frozenset[int] = frozenset({0})
"""The 60-degree cone straight ahead."""
FRONT_ARC: frozenset[int] = frozenset({5, 0, 1})
"""The front 180 degrees (hexes exactly abeam included, see `sextant`)."""
REAR_ARC: frozenset[int] = frozenset({3})
"""The 60-degree cone straight astern."""
ALL_ROUND: frozenset[int] = frozenset(range(6))
"""All 360 degrees."""


def in_arc(origin: Hex, facing: int, target: Hex, arc: Collection[int]) -> bool:
    """True if `target` is in an arc given as a set of allowed sextants (0..5).

    Uses `sextant`, so a target on a border belongs to exactly one side (the one
    nearer the front). A target in the origin hex itself has no bearing and counts
    as in any non-empty arc; whether range-0 fire is allowed is the game's business.

    >>> in_arc(Hex(0, 0), Facing.N, Hex(2, -1), FRONT_ARC)
    True
    >>> in_arc(Hex(0, 0), Facing.N, Hex(2, -1), FORWARD_ARC)
    False
    """
    for k in arc:
        if not 0 <= k < 6:
            raise ValueError(f"sextants are 0..5, not {k}")
    if target == origin:
        return bool(arc)
    return sextant(origin, facing, target) in arc


# --- offset coordinates --------------------------------------------------


class OffsetCoord(msgspec.Struct, frozen=True, array_like=True, order=True):
    """Column and row in the "odd-q" offset layout; serialises as `[col, row]`.

    Columns are the flat-top hexes' vertical columns (col = q); odd columns sit
    half a hex lower than even ones, and rows count down the page.
    """

    col: int
    row: int


def hex_to_offset(h: Hex) -> OffsetCoord:
    """Odd-q offset coordinates of a hex (Red Blob's `qoffset_from_cube(ODD, h)`).

    >>> hex_to_offset(Hex(1, 2))
    OffsetCoord(col=1, row=2)
    """
    return OffsetCoord(h.q, h.r + (h.q - (h.q & 1)) // 2)


def offset_to_hex(col: int, row: int) -> Hex:
    """The hex at an odd-q offset column and row (inverse of `hex_to_offset`)."""
    return Hex(col, row - (col - (col & 1)) // 2)


# --- pixel layout --------------------------------------------------------


class Orientation(msgspec.Struct, frozen=True):
    """The hex-to-pixel matrix `f`, its inverse `b`, and the first corner's angle.

    `start_angle` is in sixths of a turn: corner i lies at 60 * (start_angle - i)
    degrees from +x, with y pointing down.
    """

    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float


_SQRT3 = math.sqrt(3.0)

FLAT = Orientation(
    3.0 / 2.0, 0.0, _SQRT3 / 2.0, _SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0, 0.0
)
"""Flat-topped hexes: the orientation the direction names (N, NE, ...) assume."""

POINTY = Orientation(
    _SQRT3, _SQRT3 / 2.0, 0.0, 3.0 / 2.0, _SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5
)
"""Pointy-topped hexes (the direction names no longer match the compass)."""


class Layout(msgspec.Struct, frozen=True):
    """Placement of the grid on a page: orientation, hex size and origin.

    `size` is the centre-to-corner radius along x and y (equal for regular hexes)
    and `origin` is the pixel position of `Hex(0, 0)`'s centre; y points down.

    >>> layout = Layout(FLAT, Vec2(10.0, 10.0), Vec2(0.0, 0.0))
    >>> layout.hex_to_pixel(Hex(2, 0))
    Vec2(x=30.0, y=17.32050807568877)
    >>> layout.hex_at(Vec2(30.0, 17.0))
    Hex(q=2, r=0)
    """

    orientation: Orientation = FLAT
    size: Vec2 = Vec2(1.0, 1.0)
    origin: Vec2 = Vec2(0.0, 0.0)

    def hex_to_pixel(self, h: Hex) -> Vec2:
        """The pixel position of a hex's centre."""
        m = self.orientation
        x = (m.f0 * h.q + m.f1 * h.r) * self.size.x
        y = (m.f2 * h.q + m.f3 * h.r) * self.size.y
        return Vec2(x + self.origin.x, y + self.origin.y)

    def pixel_to_hex(self, p: Vec2) -> FractionalHex:
        """The fractional cube coordinates of a pixel (round with `hex_round`)."""
        m = self.orientation
        x = (p.x - self.origin.x) / self.size.x
        y = (p.y - self.origin.y) / self.size.y
        q = m.b0 * x + m.b1 * y
        r = m.b2 * x + m.b3 * y
        return FractionalHex(q, r, -q - r)

    def hex_at(self, p: Vec2) -> Hex:
        """The hex containing a pixel."""
        return hex_round(self.pixel_to_hex(p))

    def hex_corner_offset(self, corner: int) -> Vec2:
        """Offset of corner `corner` (0..5) from a hex's centre."""
        angle = 2.0 * math.pi * (self.orientation.start_angle - corner) / 6.0
        return Vec2(self.size.x * math.cos(angle), self.size.y * math.sin(angle))

    def polygon_corners(self, h: Hex) -> list[Vec2]:
        """The six corners of a hex, e.g. for an SVG `<polygon>`."""
        centre = self.hex_to_pixel(h)
        return [centre + self.hex_corner_offset(i) for i in range(6)]
