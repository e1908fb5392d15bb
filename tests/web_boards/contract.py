"""Checks that board adapter output matches the JSON shapes of docs/web-api.md, and
seeded ways to reach mid-game positions."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from dogfight.ai import make_player
from dogfight.core.game import Game
from dogfight.core.scenario import load_scenario
from dogfight.core.seat import Seat

GROUPS = {
    "move",
    "attack",
    "dogfight",
    "support",
    "reaction",
    "launch",
    "special",
    "secret",
    "speed",
    "end",
    "other",
}
SHAPE_FIELDS = {
    "rect": {"x", "y", "w", "h"},
    "circle": {"x", "y", "r"},
    "polygon": {"points"},
    "line": {"x1", "y1", "x2", "y2"},
    "wedge": {"x", "y", "r", "start", "end"},
    "text": {"x", "y", "text"},
}
CLASSES = {
    "blocked",
    "table",
    "edge",
    "grid",
    "obstacle",
    "terrain",
    "arc",
    "range",
    "command",
    "envelope",
    "trail",
}
UNIT_FIELDS = {
    "id": str,
    "side": str,
    "side_index": int,
    "type": str,
    "label": str,
    "x": float,
    "y": float,
    "facing": float,
    "radius": float,
    "status": str,
    "mine": bool,
    "details": dict,
    "overlays": list,
}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_shape(shape: dict[str, Any]) -> None:
    """One SHAPE: a known kind and class, and the kind's numeric fields."""
    assert shape["kind"] in SHAPE_FIELDS, shape
    assert shape["cls"] in CLASSES, shape
    for key in SHAPE_FIELDS[shape["kind"]]:
        assert key in shape, (key, shape)
    if shape["kind"] == "polygon":
        assert len(shape["points"]) >= 3, shape
        assert all(len(p) == 2 and all(_number(c) for c in p) for p in shape["points"])
    elif shape["kind"] == "text":
        assert isinstance(shape["text"], str) and _number(shape["x"])
    else:
        assert all(_number(shape[k]) for k in SHAPE_FIELDS[shape["kind"]]), shape
    if shape["kind"] == "wedge":
        assert shape["start"] <= shape["end"] <= shape["start"] + 360, shape


def check_scene(scene: dict[str, Any], sides: tuple[str, ...], seat: str | None) -> None:
    """A SCENE: sizes, unit name, shapes, and every unit's fields and types."""
    json.dumps(scene)
    assert _number(scene["width"]) and scene["width"] > 0
    assert _number(scene["height"]) and scene["height"] > 0
    assert len(scene["origin"]) == 2
    assert scene["unit_name"] in ("inch", "hex")
    for shape in scene["shapes"]:
        check_shape(shape)
    ids = [u["id"] for u in scene["units"]]
    assert len(ids) == len(set(ids)), ids
    for unit in scene["units"]:
        for key, kind in UNIT_FIELDS.items():
            value = unit[key]
            if kind is float:
                assert _number(value), (key, unit)
            else:
                assert isinstance(value, kind), (key, unit)
        assert unit["side"] in sides
        assert sides[unit["side_index"]] == unit["side"]
        assert unit["mine"] == (seat is not None and unit["side"] == seat)
        assert 0 <= unit["facing"] < 360
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in unit["details"].items())
        for shape in unit["overlays"]:
            check_shape(shape)


def check_action_view(view: dict[str, Any]) -> None:
    """An ACTION view without `index` and `action`."""
    json.dumps(view)
    assert isinstance(view["kind"], str) and view["kind"]
    assert view["group"] in GROUPS, view
    assert isinstance(view["label"], str) and view["label"].strip(), view
    assert view["unit"] is None or isinstance(view["unit"], str)
    assert view["target"] is None or isinstance(view["target"], str)
    if view["dest"] is not None:
        assert {"x", "y", "facing"} <= set(view["dest"])
        assert all(_number(view["dest"][k]) for k in ("x", "y", "facing"))
    if "choice" in view:
        # the parts of a secret selection, for one form per actor
        choice = view["choice"]
        assert view["group"] == "secret"
        assert {"actor", "who", "what", "speed_dice"} <= set(choice), choice
        assert set(choice) <= {"actor", "who", "what", "speed_dice", "speed"}, choice
        assert all(isinstance(choice[k], str) and choice[k] for k in ("actor", "who", "what"))
        assert isinstance(choice["speed_dice"], int) and choice["speed_dice"] >= 0
        assert choice.get("speed") is None or isinstance(choice["speed"], int)
    odds = view["odds"]
    if odds is not None:
        assert isinstance(odds["title"], str)
        assert odds["outcomes"]
        assert all(isinstance(k, str) and _number(p) for k, p in odds["outcomes"].items())
        assert abs(sum(odds["outcomes"].values()) - 1.0) < 1e-9
        assert odds["expected"] is None or _number(odds["expected"])


def check_envelope(uid: str, env: dict[str, Any]) -> None:
    """An ENVELOPE."""
    json.dumps(env)
    assert env["unit"] == uid
    assert isinstance(env["free"], bool)
    assert env["shapes"]
    for shape in env["shapes"]:
        check_shape(shape)
    assert env["facings"] is None or all(_number(f) for f in env["facings"])
    assert env["facing"] in ("chosen", "set_by_move"), env
    if "facing_from" in env:
        assert env["facing"] == "set_by_move"
        assert len(env["facing_from"]) == 2 and all(_number(c) for c in env["facing_from"])


def positions(
    name: str, seed: int, steps: int, every: int = 1, player: str = "random"
) -> Iterator[Game]:
    """The game at its start and after each `every` legal actions chosen by seeded
    players of one kind, up to `steps` actions or the end (the game is cloned, so
    callers may change what they get)."""
    game = Game(load_scenario(name), seed=seed)
    rng = random.Random(seed)
    chooser = make_player(player, game.ruleset.name)
    yield game.clone()
    for step in range(1, steps + 1):
        if game.is_over():
            return
        legal = game.legal_actions()
        game.apply(chooser.decide(Seat.of(game), legal, rng))
        if step % every == 0 and not game.is_over():
            yield game.clone()
