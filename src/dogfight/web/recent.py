"""What happened lately, for the board: trails, attack lines and wrecks (the SCENE's
`recent`, docs/web-api.md).

Built only from what one seat may see: its scenes (the board adapter's, from
`Game.observation(seat)`) at the start of the turn and now, and the events the ruleset
shows it. The window is the current turn; while nothing has happened in it yet, the
turn before (so the computer's last moves stay on the board until the next ones).

Where each unit stood when a turn began is found by replaying the game's actions into
a new game once per turn (a whole game replays in tens of milliseconds); the scenes of
every seat at the turn's start are kept, the replayed game is not.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Mapping
from typing import Any

from dogfight.core.events import Event
from dogfight.core.game import Game

ATTACKER_KEYS = ("attacker", "actor", "unit")
"""Event data keys that may name who attacks, in order of preference."""
TARGET_KEYS = ("target", "defender")
"""Event data keys that name what is attacked: an event with both is an attack."""
DESTROYED_KEYS = ("model", "unit", "craft", "missile")
"""Event data keys naming what a `destroyed` event destroyed (a model before its flight)."""
HIT_KEYS = ("hits", "damage", "destroyed", "disabled", "allocations")
"""Event data keys whose truthy value marks a hit, damage or a kill (the log's 'hits'
filter and the board's hit markers)."""
MOVED = 1e-3
"""Board units (or degrees) under which a unit is taken not to have moved."""

Units = dict[str, dict[str, Any]]
"""Scene units by id: just where they stand and what they look like."""


def _pose(unit: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "unit": unit["id"],
        "flight": unit.get("flight"),
        "x": unit["x"],
        "y": unit["y"],
        "facing": unit.get("facing", 0.0),
        "side_index": unit.get("side_index", 0),
        "label": unit.get("label") or unit["id"],
        "radius": unit.get("radius", 0.0),
    }


def units_of(scene: Mapping[str, Any]) -> Units:
    """A scene's units by id (where each stands; a unit with no place is left out)."""
    return {
        u["id"]: _pose(u)
        for u in scene.get("units", [])
        if isinstance(u.get("x"), int | float) and isinstance(u.get("y"), int | float)
    }


class _Turns:
    """One game's turn starts, found by a replay: for the current turn and the one
    before, the action and event index it began at and every seat's units then."""

    def __init__(self, turn: Any, prefix: list[Any]) -> None:
        self.turn = turn
        self.prefix = prefix
        self.starts: list[tuple[Any, int, int, dict[str | None, Units]]] = []
        self.last_seen: dict[str | None, Units] = {}
        self.answers: dict[tuple[str | None, int, int], dict[str, Any]] = {}
        """What `recent` answered each seat at the position it answered at (a page
        polls the view many times a second while nothing changes)."""

    def fits(self, game: Game) -> bool:
        """Whether `game` is still in the turn replayed, on the same actions."""
        acts = game.actions
        if getattr(game.state, "turn", 0) != self.turn or len(acts) < len(self.prefix):
            return False
        return all(a is b for a, b in zip(self.prefix, acts, strict=False))


_TURNS: weakref.WeakKeyDictionary[Game, _Turns] = weakref.WeakKeyDictionary()


def _seats(game: Game) -> list[str | None]:
    return [*game.sides(), None]


def _replay_turns(board: Any, game: Game) -> _Turns:
    turn = getattr(game.state, "turn", 0)
    replaying = Game(game.scenario, seed=game.seed, rules=game.rule_overrides)
    # (turn, its first action's index, its first event's index, the game then): the
    # last two turns' starts are kept as copies, and only theirs are drawn as scenes
    found: list[tuple[Any, int, int, Game]] = []
    seen_turn: Any = object()
    for index in range(len(game.actions) + 1):
        now = getattr(replaying.state, "turn", 0)
        if now != seen_turn:
            seen_turn = now
            found.append((now, index, len(replaying.events), replaying.clone()))
            if len(found) > 2:
                found.pop(0)
        if index < len(game.actions):
            replaying.apply(game.actions[index])
    entry = _Turns(turn, list(game.actions[: found[-1][1]]) if found else [])
    entry.starts = [
        (t, index, first, {seat: units_of(board.scene(then, seat)) for seat in _seats(game)})
        for t, index, first, then in found
    ]
    return entry


def _turns(board: Any, game: Game) -> _Turns:
    entry = _TURNS.get(game)
    if entry is None or not entry.fits(game):
        old = entry
        entry = _replay_turns(board, game)
        if old is not None:
            entry.last_seen = old.last_seen
        _TURNS[game] = entry
    return entry


def _owners(ident: str, separators: str) -> list[str]:
    out = [ident]
    for sep in separators:
        if sep in ident:
            for name in (ident.rpartition(sep)[0], ident.split(sep)[0]):
                if name not in out:
                    out.append(name)
    return out


def _find(ident: Any, places: Iterable[Units], separators: str) -> dict[str, Any] | None:
    """Where the unit, flight or part named `ident` stands, in the first of `places`
    that has it."""
    if not isinstance(ident, str) or not ident:
        return None
    names = _owners(ident, separators)
    for units in places:
        for name in names:
            if name in units:
                return units[name]
        for name in names:
            for unit in units.values():
                if unit.get("flight") == name:
                    return unit
    return None


def is_hit(event: Event) -> bool:
    """True for an event that scores hits, deals damage or destroys or disables a unit
    (the log's hit rows and the board's hit markers alike)."""
    return any(bool(event.data.get(key)) for key in HIT_KEYS)


def _window(
    now: Units,
    start: Units,
    events: list[Event],
    last_seen: Units,
    separators: str,
) -> dict[str, Any]:
    trails = []
    for ident, unit in now.items():
        before = start.get(ident)
        if before is None:
            continue
        moved = math.hypot(unit["x"] - before["x"], unit["y"] - before["y"]) > MOVED
        turned = abs((unit["facing"] - before["facing"] + 180.0) % 360.0 - 180.0) > MOVED
        if moved or turned:
            trails.append(
                {
                    "unit": ident,
                    "x1": before["x"],
                    "y1": before["y"],
                    "facing1": before["facing"],
                    "x2": unit["x"],
                    "y2": unit["y"],
                    "facing2": unit["facing"],
                    "side_index": unit["side_index"],
                }
            )
    wrecks: dict[str, dict[str, Any]] = {}
    for event in events:
        if not event.data.get("destroyed"):
            continue
        named = [event.data[k] for k in DESTROYED_KEYS if isinstance(event.data.get(k), str)]
        ident = str(named[0]) if named else ""
        if not ident or ident in now or ident in wrecks:
            continue
        where = last_seen.get(ident) or start.get(ident)
        if where is not None:
            wrecks[ident] = {**where, "text": event.text}
    attacks: dict[tuple[str, str], dict[str, Any]] = {}
    places = (now, wrecks, last_seen, start)
    current: dict[str, Any] | None = None
    for event in events:
        target_id = next((event.data[k] for k in TARGET_KEYS if event.data.get(k)), None)
        attacker_id = next((event.data[k] for k in ATTACKER_KEYS if event.data.get(k)), None)
        if target_id is not None and attacker_id is not None:
            shooter = _find(attacker_id, places, separators)
            target = _find(target_id, places, separators)
            current = None
            if shooter is not None and target is not None and shooter is not target:
                key = (shooter["unit"], target["unit"])
                current = attacks.setdefault(
                    key,
                    {
                        "attacker": shooter["unit"],
                        "target": target["unit"],
                        "x1": shooter["x"],
                        "y1": shooter["y"],
                        "x2": target["x"],
                        "y2": target["y"],
                        "hit": False,
                        "text": event.text,
                    },
                )
        # the events after an attack (its rolls, damage, a kill) tell whether it hit
        if current is not None and is_hit(event):
            current["hit"] = True
    return {"trails": trails, "attacks": list(attacks.values()), "wrecks": list(wrecks.values())}


def recent(
    board: Any, game: Game, seat: str | None, scene: Mapping[str, Any], separators: str, live: bool
) -> dict[str, Any]:
    """The SCENE's `recent` for `seat`: trails from where units stood when the turn
    began, attack lines (hit or miss) and wrecks of the units destroyed this turn (the
    turn before, while nothing has happened in this one). `live`: the game as it
    stands (not a review step), whose scenes are remembered to place a wreck where
    its unit was last seen."""
    entry = _turns(board, game)
    key = (seat, len(game.actions), len(game.events))
    known = entry.answers.get(key)
    if known is not None:
        return known
    now = units_of(scene)
    last_seen = entry.last_seen.setdefault(seat, {})
    out: dict[str, Any] = {"turn": None, "trails": [], "attacks": [], "wrecks": []}
    for turn, _index, first_event, starts in reversed(entry.starts):
        raw = game.events[first_event:]
        shown = (game.ruleset.event_view(game.state, e, seat) for e in raw)
        events = [e for e in shown if e is not None]
        found = _window(now, starts.get(seat, {}), events, last_seen, separators)
        if found["trails"] or found["attacks"] or found["wrecks"]:
            out = {"turn": turn, **found}
            break
    if live:
        last_seen.update(now)
    # only the current position's answers are kept
    entry.answers = {k: v for k, v in entry.answers.items() if k[1:] == key[1:]}
    entry.answers[key] = out
    return out
