"""Spreading a flight against fire zones (EVO-SHT-2, EVO-MOV-2, EVO-MOV-3, EVO-CMD-1).

A Shoot's fire zone takes every model within 6" of its target, so a flight flying in
a tight line abreast gives its whole flight to one zone. Each model may manoeuvre its
own way (EVO-MOV-2), so the heuristic staggers the wings along the flight's course:
one `gap` inches ahead of the leader, the next `gap` behind, and so on. A zone round
one wing then misses the other, while every wing stays inside command range (6") of
its leader.

The stagger is along the course, never across it, because a model's facing is the
direction from its start point to where it ends (EVO-MOV-3): a wing pushed sideways
would fly a diverging course and drift out of command range a turn later. A wing here
ends on the line through its own start point in the direction the leader travelled,
so it keeps the leader's course, only farther along it or less far.

Pure geometry over plain numbers: the player turns its candidate moves into per-model
moves with `spread_moves`, and the rules check the result like any Manoeuvre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]


def along_offsets(wings: int, gap: float) -> list[float]:
    """How far ahead (+) or behind (-) of the leader each wing belongs, in order: one
    ahead, one behind, any more abreast of it (farther would leave command range)."""
    return [(gap, -gap)[k] if k < 2 else 0.0 for k in range(wings)]


def on_course(
    start: Point,
    now: Point,
    unit: Point,
    reach: float,
    want: float,
    origin: Point,
    least: float = 1.0,
) -> Point | None:
    """The end point on the line from `start` along `unit` within `reach` of `now`
    whose distance along `unit` past `origin` is nearest `want`, at least `least` from
    the start (a shorter net move sets no course, EVO-MOV-3); None if no such point
    is in reach."""
    ux, uy = unit
    # Points start + t * unit; reachable where |start + t u - now| <= reach.
    wx, wy = start[0] - now[0], start[1] - now[1]
    p = wx * ux + wy * uy
    c = wx * wx + wy * wy - reach * reach
    disc = p * p - c
    if disc < 0:
        return None
    root = math.sqrt(disc)
    low, high = max(-p - root, least), -p + root
    if high < low:
        return None
    # t at which the point sits `want` along the course from the origin.
    t = want + (origin[0] - start[0]) * ux + (origin[1] - start[1]) * uy
    t = min(max(t, low), high)
    return start[0] + t * ux, start[1] + t * uy


def spread_moves(
    starts: Sequence[Point],
    models: Sequence[Point],
    lead_move: Point,
    gap: float,
    reach: float,
    keep: float,
    least: float = 1.0,
) -> list[Point] | None:
    """Each model's move (leader first) when the leader makes `lead_move`: each wing
    flies the leader's course, staggered ahead or behind it, and ends within `keep`
    of the leader; None when the leader's move gives no course to stagger along, or
    a wing cannot reach the leader's course."""
    dx, dy = lead_move
    lx, ly = models[0][0] + dx, models[0][1] + dy
    tx, ty = lx - starts[0][0], ly - starts[0][1]
    travel = math.hypot(tx, ty)
    if travel < 1e-6:
        return None
    unit = (tx / travel, ty / travel)

    # Wings in order across the course, so neighbours go opposite ways.
    def across(i: int) -> float:
        return (starts[i][0] - starts[0][0]) * -unit[1] + (starts[i][1] - starts[0][1]) * unit[0]

    side = sorted(range(1, len(models)), key=across)
    moves: list[Point] = [(dx, dy)] * len(models)
    ahead: float | None = None
    for k, (i, want) in enumerate(zip(side, along_offsets(len(side), gap), strict=True)):
        if k == 1 and ahead is not None:
            # The wing behind keeps 2 * gap from the one ahead, which may have fallen
            # short of its place (the leader already flew its whole Agility).
            want = min(want, ahead - 2 * gap)
        # Within `keep` of the leader: the stagger shrinks for a wing far abreast.
        room = math.sqrt(max(0.0, keep * keep - across(i) ** 2))
        want = math.copysign(min(abs(want), room), want)
        end = on_course(starts[i], models[i], unit, reach, want, (lx, ly), least)
        if end is None:
            return None  # this wing cannot fly the leader's course: no stagger
        moves[i] = (end[0] - models[i][0], end[1] - models[i][1])
        if k == 0:
            ahead = (end[0] - lx) * unit[0] + (end[1] - ly) * unit[1]
    return moves


__all__ = ["along_offsets", "on_course", "spread_moves"]
