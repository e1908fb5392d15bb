"""Building EVO positions for clause tests: inline scenarios, bespoke units, scripted dice.

A position is two sides ("Blue", side 0, and "Red", side 1) with flights placed by
`flight()`. `make_game()` names Blue as the side that goes first unless told otherwise
(`first=None` asks for the roll-off, whose two dice then come first in the script).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dogfight.core import Event, Game
from dogfight.core.events import EventLog
from dogfight.core.scenario import scenario_from_raw
from dogfight.dice import ScriptedSource, scripted
from dogfight.rulesets.evo.actions import (
    Activate,
    Decline,
    EndActivation,
    Manoeuvre,
    Move,
    Rotate,
    Shoot,
)
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.state import Flight, Model

BLUE, RED = "Blue", "Red"
SIDES = (BLUE, RED)


def flight(
    side: int,
    type: str,
    x: float,
    y: float,
    heading: float = 0.0,
    id: str = "",
    *,
    models: int = 0,
    models_at: list[tuple[float, float]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One flight for `scenario_raw()`; `side` is 0 (Blue) or 1 (Red).

    `models_at` places each model (leader first); otherwise the flight stands line
    abreast round its leader at (x, y).
    """
    entry: dict[str, Any] = {"side": side, "type": type, "at": [x, y], "heading": heading}
    if id:
        entry["id"] = id
    if models:
        entry["models"] = models
    if models_at is not None:
        entry["models_at"] = [list(p) for p in models_at]
    entry.update(extra)
    return entry


def custom_unit(uid: str, **stats: Any) -> dict[str, Any]:
    """A bespoke flight type for a scenario's `custom_units` (defaults: a plain fighter
    with Target 4, Save 5, Kill 6, Agility 4, no traits and one all-round 12" gun)."""
    unit: dict[str, Any] = {
        "id": uid,
        "name": uid.title(),
        "power": "Test",
        "agility": 4,
        "target": 4,
        "save": 5,
        "kill": 6,
        "models": 1,
        "points": 10,
        "weapons": [{"name": "Gun", "range": 12, "dice": 1, "die": 6}],
    }
    unit.update(stats)
    return unit


def gun(name: str = "Gun", range: float = 12, dice: int = 1, **extra: Any) -> dict[str, Any]:
    """A weapon line for `custom_unit(weapons=[...])`."""
    return {"name": name, "range": range, "dice": dice, "die": 6, **extra}


def scenario_raw(
    *flights: dict[str, Any],
    table: tuple[float, float] = (48, 48),
    options: dict[str, Any] | None = None,
    turn_limit: int = 6,
    first: str | None = BLUE,
    custom_units: Iterable[dict[str, Any]] = (),
    jump_gates: Iterable[dict[str, Any]] = (),
) -> dict[str, Any]:
    """A scenario file's content with the given flights on the two sides (and jump
    gates, EVO-GATE-1)."""
    sides = []
    for index, name in enumerate(SIDES):
        roster = [
            {k: v for k, v in f.items() if k != "side"} for f in flights if f["side"] == index
        ]
        sides.append({"name": name, "units": roster})
    raw: dict[str, Any] = {
        "name": "test",
        "ruleset": "evo",
        "title": "test position",
        "table": {"width": table[0], "height": table[1]},
        "turn_limit": turn_limit,
        "sides": sides,
        "options": dict(options or {}),
    }
    if first:
        raw["first"] = first
    gates = list(jump_gates)
    if gates:
        raw["jump_gates"] = gates
    units = list(custom_units)
    if units:
        raw["custom_units"] = units
    return raw


def make_game(
    *flights: dict[str, Any],
    dice: Iterable[int] = (),
    rules: dict[str, Any] | None = None,
    **kw: Any,
) -> Game:
    """A game of the given flights whose dice come up exactly as `dice`, in order."""
    raw = scenario_raw(*flights, **kw)
    return Game(scenario_from_raw(raw, "test"), seed=0, rules=rules, dice=scripted(*dice))


def script(game: Game, *faces: int) -> None:
    """From now on the game's dice come up as `faces`, in order."""
    game.dice.source = ScriptedSource(faces)


def dice_left(game: Game) -> int:
    """Scripted faces not yet rolled."""
    source = game.dice.source
    assert isinstance(source, ScriptedSource)
    return source.remaining


def events(game: Game, clause: str) -> list[Event]:
    """The game's events that cite `clause`."""
    return [e for e in game.events if e.clause == clause]


def last(game: Game, clause: str) -> Event:
    """The latest event citing `clause`."""
    found = events(game, clause)
    assert found, f"no {clause} event"
    return found[-1]


def faces(event: Event) -> list[int]:
    """The dice an event rolled."""
    return [r.value for r in event.rolls]


def ctx_of(game: Game) -> Ctx:
    """A resolution context on the game's state (its dice, a fresh log)."""
    return Ctx(game.state, game.state.options, EventLog(game.dice), game.ruleset.rules)


def model(game: Game, mid: str) -> Model:
    """A model on the table."""
    return game.state.models[mid]


def fl(game: Game, fid: str) -> Flight:
    """A flight."""
    return game.state.flights[fid]


def xy(game: Game, mid: str) -> tuple[float, float]:
    """A model's position."""
    p = game.state.models[mid].pose.position
    return (p.x, p.y)


def heading(game: Game, mid: str) -> float:
    """A model's facing in degrees."""
    return game.state.models[mid].pose.heading


def decline_reactions(game: Game) -> None:
    """Let the reacting side pass, if a reaction window is open."""
    while game.state.phase == "react":
        game.apply(Decline())


def activate(game: Game, fid: str) -> list[Event]:
    """Activate a flight (it drifts)."""
    return game.apply(Activate(unit=fid))


def manoeuvre(game: Game, fid: str, *moves: tuple[str, float, float]) -> list[Event]:
    """A Manoeuvre of the given (model, dx, dy) moves."""
    return game.apply(Manoeuvre(unit=fid, moves=tuple(Move(m, dx, dy) for m, dx, dy in moves)))


def shoot(game: Game, fid: str, target: str) -> list[Event]:
    """A Shoot at one model."""
    return game.apply(Shoot(unit=fid, target=target))


def rotate(game: Game, fid: str) -> list[Event]:
    """A Rotate."""
    return game.apply(Rotate(unit=fid))


def end(game: Game, fid: str) -> list[Event]:
    """End the active flight's activation."""
    return game.apply(EndActivation(unit=fid))
