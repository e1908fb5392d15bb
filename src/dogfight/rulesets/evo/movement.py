"""EVO movement: the 6" inertia drift, manoeuvres, course change, table edges, overlaps."""

from __future__ import annotations

import math
from collections.abc import Iterable

from dogfight.geometry import EPSILON, Pose, Vec2
from dogfight.rulesets.evo import spatial
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.rules import COURSE_MIN_MOVE, DRIFT
from dogfight.rulesets.evo.spatial import grid_of
from dogfight.rulesets.evo.state import EvoState, Flight, Model

__all__ = ["COURSE_MIN_MOVE", "DRIFT"]  # re-exported: the numbers live in rules.py


def clash(ctx: Ctx, model: Model, at: Vec2, others: Iterable[Model] | None = None) -> Model | None:
    """Another model whose base this one would overlap at `at`: the first of `others`
    (default: every model on the table, in table order)."""
    state = ctx.state
    # `overlaps` written out (the same sums, so the same answer): asked of every model
    # near every placement and every nudge back along a path.
    r = state.radius(model)
    x, y = at.x, at.y
    types = state.types
    flights = state.flights
    mid = model.id
    for other in state.models.values() if others is None else others:
        pos = other.pose.position
        if (
            other.id != mid
            and math.hypot(x - pos.x, y - pos.y)
            < r + types[flights[other.unit].type].base_radius - EPSILON
        ):
            return other
    return None


def near_path(ctx: Ctx, model: Model, start: Vec2, end: Vec2) -> list[Model]:
    """The models whose bases could touch this one anywhere on the way from `end` back
    to `start` (and perhaps a few more): the only ones `place` need ask about while it
    nudges the model back. A point of the path (rounded to 0.1") lies within the path's
    length (plus the rounding) of `end`, so anything farther than that plus both radii
    cannot overlap it."""
    state = ctx.state
    reach = start.distance(end) + 2 * state.radius(model) + 1.0 + largest_radius(state)
    return grid_of(state).in_box(end.x - reach, end.y - reach, end.x + reach, end.y + reach)


def largest_radius(state: EvoState) -> float:
    """The largest base radius of any type in the battle."""
    return max((t.base_radius for t in state.types.values()), default=0.0)


def place(ctx: Ctx, model: Model, start: Vec2, end: Vec2) -> Vec2:
    """Where a model moving from `start` to `end` stops: it may pass through others but
    not end overlapping one, so it is nudged back along its path (EVO-MOV-5)."""
    others = near_path(ctx, model, start, end)
    if clash(ctx, model, end, others) is None:
        return end
    length = start.distance(end)
    steps = max(1, int(length / 0.1))
    for i in range(1, steps + 1):
        back = end + (start - end) * (i / steps)
        back = back.rounded()
        if clash(ctx, model, back, others) is None:
            ctx.emit(
                "EVO-MOV-5", f"{ctx.name(model)} stops short to avoid another base", model=model.id
            )
            return back
    return start


def set_down(ctx: Ctx, model: Model, start: Vec2, end: Vec2) -> bool:
    """Move a model to `end` (after overlap nudging) and apply the table edge rule.

    Returns False if the model left the table and was removed (EVO-MOV-4).
    """
    state = ctx.state
    end = end.rounded()
    if not state.table.contains(end):
        if ctx.opt("leave_table") == "disengage":
            remove(ctx, model, "EVO-MOV-4", "leaves the table and disengages", destroyed=False)
            return False
        end = state.table.clamp(end).rounded()
    model.pose = Pose(place(ctx, model, start, end), model.pose.heading)
    spatial.moved(state, model)
    return True


def move_together(ctx: Ctx, moves: list[tuple[Model, Vec2]]) -> list[str]:
    """Move several models at once: all go, then any left on another base is nudged back
    (EVO-MOV-5) and any off the table is removed or stopped (EVO-MOV-4).

    Moving together means a flight's models never block each other's paths.
    """
    starts = {model.id: model.pose.position for model, _ in moves}
    # Placing asks the grid (built here the first time), so it follows every step.
    grid = grid_of(ctx.state)
    for model, end in moves:
        model.pose = Pose(end.rounded(), model.pose.heading)
        grid.moved(model)
    kept = []
    for model, end in moves:
        # Lift the model off its end point while it finds its place there.
        model.pose = Pose(starts[model.id], model.pose.heading)
        grid.moved(model)
        if set_down(ctx, model, starts[model.id], end):
            kept.append(model.id)
    return kept


def drift(ctx: Ctx, flight: Flight) -> None:
    """Mark every model's start point and drift it 6" along its facing (EVO-MOV-1).

    The drift is not an action and triggers no reaction.
    """
    state = ctx.state
    length = float(ctx.rules.drift)
    moves = []
    for model in state.models_of(flight):
        model.start = model.pose.position
        moves.append((model, model.pose.forward(length).position))
    moved = move_together(ctx, moves)
    ctx.emit(
        "EVO-MOV-1",
        f'{ctx.name(flight)} drifts {length:g}" on inertia',
        unit=flight.id,
        models=moved,
    )


def course_change(ctx: Ctx, model: Model) -> None:
    """After a manoeuvre the new facing is the direction from the start point to where
    the model is now; a net move too short to have a direction keeps the old facing
    (EVO-MOV-3). Only manoeuvres call this: the drift, and a drift stopped at the table
    edge, never turn a model."""
    if model.start is None:
        return
    heading = ctx.rules.new_heading(
        model.start, model.pose.position, model.pose.heading, float(ctx.opt("course_min_move"))
    )
    model.pose = Pose(model.pose.position, heading)


def remove(
    ctx: Ctx,
    model: Model,
    clause: str,
    why: str,
    *,
    destroyed: bool,
    by: str = "",
    shooter: str = "",
) -> None:
    """Take a model off the table: destroyed (by side `by`, flight `shooter`), or
    disengaged (left the table)."""
    state = ctx.state
    flight = state.flights[model.unit]
    del state.models[model.id]
    spatial.removed(state, model.id)
    flight.models = tuple(m for m in flight.models if m != model.id)
    flight.acting = tuple(m for m in flight.acting if m != model.id)
    if destroyed and by == flight.side:
        flight.friendly_losses += 1
    elif destroyed:
        flight.destroyed += 1
    else:
        flight.disengaged += 1
    if destroyed and not flight.models:
        flight.lost_to = shooter
    lost_leader = flight.leader == model.id
    if lost_leader:
        flight.leader = ""
    ctx.emit(
        clause,
        f"{ctx.name(model)} {why}"
        + ("; the flight has lost its leader" if lost_leader and flight.models else ""),
        model=model.id,
        unit=flight.id,
        destroyed=destroyed,
        **({"by": shooter or None} if destroyed else {}),
    )
