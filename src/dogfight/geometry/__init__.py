"""Game-agnostic geometry: the free table (inches) and, later, hex maps."""

from dogfight.geometry.vec import (
    EPSILON,
    Arc,
    Pose,
    Table,
    Vec2,
    approach_point,
    edge_distance,
    in_contact,
    normalise_angle,
    overlaps,
    path_length,
    point_along,
)

__all__ = [
    "EPSILON",
    "Arc",
    "Pose",
    "Table",
    "Vec2",
    "approach_point",
    "edge_distance",
    "in_contact",
    "normalise_angle",
    "overlaps",
    "path_length",
    "point_along",
]
