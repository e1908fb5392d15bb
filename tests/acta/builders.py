"""Building ACTA positions for clause tests: inline scenarios and scripted dice."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dogfight.core import Event, Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.dice import ScriptedSource, scripted

SIDES = ("Empire", "Klingon")


def unit(
    side: int, type: str, x: float, y: float, heading: float = 0.0, id: str = "", **extra: Any
) -> dict[str, Any]:
    """One roster entry for `scenario()`; `side` is 0 (Empire) or 1 (Klingon)."""
    entry: dict[str, Any] = {"side": side, "type": type, "at": [x, y], "heading": heading}
    if id:
        entry["id"] = id
    entry.update(extra)
    return entry


def scenario_raw(
    *units: dict[str, Any],
    table: tuple[float, float] = (36, 36),
    options: dict[str, Any] | None = None,
    turn_limit: int = 8,
    year: int | None = None,
    initiative: tuple[int, int] = (0, 0),
) -> dict[str, Any]:
    """A scenario file's content with the given units on two sides."""
    sides = []
    for index, name in enumerate(SIDES):
        roster = []
        for entry in units:
            if entry["side"] == index:
                roster.append({k: v for k, v in entry.items() if k != "side"})
        sides.append({"name": name, "initiative": initiative[index], "units": roster})
    raw: dict[str, Any] = {
        "name": "test",
        "ruleset": "acta",
        "title": "test position",
        "table": {"width": table[0], "height": table[1]},
        "turn_limit": turn_limit,
        "sides": sides,
        "options": dict(options or {}),
    }
    if year is not None:
        raw["year"] = year
    return raw


def make_game(
    *units: dict[str, Any], dice: Iterable[int] = (), rules: dict[str, Any] | None = None, **kw: Any
) -> Game:
    """A game of the given units whose dice come up exactly as `dice`, in order.

    The first dice are used by the turn-1 initiative roll (Empire's die, then Klingon's).
    Any (*) drone fighter should preset `dogfight_drones` so no loadout choice is asked.
    """
    raw = scenario_raw(*units, **kw)
    return Game(scenario_from_raw(raw, "test"), seed=0, rules=rules, dice=scripted(*dice))


def script(game: Game, *faces: int) -> None:
    """From now on the game's dice come up as `faces`, in order."""
    game.dice.source = ScriptedSource(faces)


def events(game: Game, clause: str) -> list[Event]:
    """The game's events that cite `clause`."""
    return [e for e in game.events if e.clause == clause]


def faces(event: Event) -> list[int]:
    """The dice an event rolled."""
    return [r.value for r in event.rolls]
