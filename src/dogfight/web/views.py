"""The view: everything one seat's browser is shown of a game, as plain JSON data.

Built only from what that seat may see: `Game.observation(seat)` (through the board
adapter), `Game.events_for(seat)`, and the legal actions when it is the seat's turn.
The shape is specified in docs/web-api.md.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from dogfight.core.errors import UnknownName
from dogfight.core.events import Event
from dogfight.core.game import Game
from dogfight.sim.runner import result_of
from dogfight.web.boards import PART_SEPARATORS, Board, board_for, part_separators
from dogfight.web.recent import is_hit, recent

SIDE_KEYS = ("side", "first", "winner")
"""Event data keys that may name a side outright (an initiative or game winner...)."""
UNIT_KEYS = ("unit", "attacker", "actor", "craft", "model", "missile")
"""Event data keys that name the unit acting, whose side the log shows."""


PACKED_KEYS = ("scene", "actions", "envelopes", "log", "summary")
"""The bulky parts of a view, which the server only passes on to the browser."""


def packed(view: dict[str, Any]) -> dict[str, Any]:
    """`view` with its bulky parts already encoded (`msgspec.Raw` JSON, which encodes
    as the very same JSON): a view built in a worker process crosses to the server as a
    few byte strings, where unpickling its nested data cost the server's one
    processor about a third of a millisecond a view, and the server's size estimate
    and answer copy bytes instead of encoding it twice more."""
    return {
        key: msgspec.Raw(msgspec.json.encode(value)) if key in PACKED_KEYS else value
        for key, value in view.items()
    }


def board_or_none(ruleset: str) -> Board | None:
    """The ruleset's board adapter, or None for a ruleset without one (a plugin's): the
    view then falls back to a bare scene and plain action labels."""
    try:
        return board_for(ruleset)
    except UnknownName:
        return None


def build_view(
    game: Game,
    *,
    game_id: str,
    seat: str | None,
    seats: Mapping[str, str],
    step: int | None,
    can_undo: bool,
    unit_sides: Mapping[str, str],
    steps: Sequence[Any] = (),
    start_events: int = 0,
) -> dict[str, Any]:
    """The view of `game` for `seat` (None: a spectator). `step` is set when reviewing.
    `steps` are the history's steps of the game's actions (who took each, and how many
    events the game had after it), `start_events` the events it had before any: the log
    tells from them which action each event came from."""
    board = board_or_none(game.ruleset.name)
    state = game.state
    outcome = game.outcome()
    current = game.current_player()
    your_turn = (
        outcome is None
        and step is None
        and seat is not None
        and current == seat
        and seats.get(seat) == "human"
    )
    actions: list[dict[str, Any]] = []
    envelopes: dict[str, Any] = {}
    if your_turn:
        actions = describe_actions(board, game, game.legal_actions())
        envelopes = board.envelopes(game) if board is not None else {}
    # A spectator's scene is the ruleset's observation for None: public information only.
    scene = scene_for(board, game, seat)
    shown = visible_events(game, seat)
    if board is not None:
        scene["recent"] = recent(
            board, game, seat, scene, part_separators(board), live=step is None
        )
    return {
        "game": game_id,
        "ruleset": game.ruleset.name,
        "scenario": {"name": game.scenario.name, "title": game.scenario.title},
        "seat": seat,
        "seats": dict(seats),
        "sides": list(game.sides()),
        "turn": getattr(state, "turn", 0),
        "turn_limit": getattr(state, "turn_limit", None),
        "phase": getattr(state, "phase", None),
        "phase_name": game.ruleset.phase_name(getattr(state, "phase", None)),
        "current": current,
        "your_turn": your_turn,
        "over": outcome is not None,
        "outcome": {"winner": outcome.winner, "reason": outcome.reason} if outcome else None,
        "summary": end_summary(game) if outcome is not None else None,
        # The seed shows every roll to come: it is shown once nothing is left to roll.
        "seed": game.seed if outcome is not None else None,
        "version": len(game.actions),
        "step": step,
        "scene": scene,
        "actions": actions,
        "envelopes": envelopes,
        "log": log_rows(
            [event for _, event in shown],
            unit_sides,
            part_separators(board),
            places=[place for place, _ in shown],
            steps=steps,
            start_events=start_events,
            names=actor_names(board, game, seat),
        ),
        "can_undo": can_undo,
    }


def end_summary(game: Game) -> dict[str, Any]:
    """What the end-of-game panel shows: turns played, and per side its score, units
    fielded, survivors, losses, kills and strength lost (the lab's `result_of`, so the
    figures are the ones `simulate` records)."""
    result = result_of(game)
    outcome = game.outcome()
    scores = outcome.scores if outcome is not None else {}
    sides = []
    for side in game.sides():
        mine = [u for u in result.units if u.side == side]
        sides.append(
            {
                "side": side,
                "score": scores.get(side),
                "fielded": sum(u.fielded for u in mine),
                "survivors": result.survivors.get(side, 0),
                "lost": sum(u.lost for u in mine),
                "kills": sum(u.kills for u in mine),
                "damage_taken": result.damage_taken.get(side, 0.0),
            }
        )
    return {"turns": result.turns, "actions": result.actions, "sides": sides}


def describe_actions(board: Board | None, game: Game, actions: list[Any]) -> list[dict[str, Any]]:
    """The view's ACTIONs, described by the board's `describe_all` when it has one (it
    reads the observation once for the whole list, not once per action)."""
    describe_all = getattr(board, "describe_all", None)
    if describe_all is None:
        return [describe(board, game, i, a) for i, a in enumerate(actions)]
    described = describe_all(game, actions)
    return [
        {"index": i, **dict(d), "action": msgspec.to_builtins(a)}
        for i, (a, d) in enumerate(zip(actions, described, strict=True))
    ]


def describe(board: Board | None, game: Game, index: int, action: Any) -> dict[str, Any]:
    """One ACTION of the view: the board's description, its index and the action data."""
    data = msgspec.to_builtins(action)
    if board is not None:
        described = dict(board.describe(game, action))
    else:
        kind = str(data.get("action", type(action).__name__)) if isinstance(data, dict) else ""
        described = {
            "kind": kind,
            "group": "other",
            "label": _plain_label(data),
            "unit": None,
            "target": None,
            "dest": None,
            "odds": None,
        }
    return {"index": index, **described, "action": data}


def _plain_label(data: Any) -> str:
    if not isinstance(data, dict):
        return str(data)
    kind = data.get("action", "")
    rest = ", ".join(f"{k} {v}" for k, v in data.items() if k != "action" and v not in ("", None))
    return f"{kind}: {rest}" if rest else str(kind)


def scene_for(board: Board | None, game: Game, seat: str | None) -> dict[str, Any]:
    """The SCENE for a seat, or a bare one while the ruleset has no board adapter (no
    size, no shapes: the page shows the action list; its unit is the docs' default)."""
    if board is not None:
        return board.scene(game, seat)
    return {
        "width": 0,
        "height": 0,
        "origin": [0, 0],
        "unit_name": "inch",
        "shapes": [],
        "units": [],
    }


def visible_events(game: Game, seat: str | None) -> list[tuple[int, Event]]:
    """`game.events_for(seat)` with each event's place in the whole log (the place
    tells which action caused it)."""
    shown = ((i, game.ruleset.event_view(game.state, e, seat)) for i, e in enumerate(game.events))
    return [(i, e) for i, e in shown if e is not None]


def actor_names(board: Board | None, game: Game, seat: str | None) -> Mapping[str, str]:
    """The board's words for the ids of actors that events name (its optional
    `actor_names`, from what `seat` sees), or none."""
    names = getattr(board, "actor_names", None)
    return names(game, seat) if names is not None else {}


def named(text: str, names: Mapping[str, str]) -> str:
    """`text` with every whole actor id of `names` in it replaced by its words."""
    if not names:
        return text
    keys = sorted((k for k in names if k and k in text), key=len, reverse=True)
    if not keys:
        return text
    pattern = re.compile(r"(?<![\w#.])(" + "|".join(map(re.escape, keys)) + r")(?![\w#])")
    return pattern.sub(lambda m: names[m.group(1)], text)


def log_rows(
    events: list[Event],
    unit_sides: Mapping[str, str],
    separators: str = PART_SEPARATORS,
    *,
    places: Sequence[int] | None = None,
    steps: Sequence[Any] = (),
    start_events: int = 0,
    names: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The LOG of the view: each visible event with its dice, side, whether it hit, and
    the action that caused it (`step`, from 0, and `by`, the side that took it; None
    for the setup's events, or without `steps` and `places`, each event's place in the
    whole log).
    `separators`: the board's `part_separators`, see `side_of`; `names`: words for the
    actor ids the texts hold."""
    ends = [step.events for step in steps]
    rows = []
    for seq, event in enumerate(events):
        place = places[seq] if places is not None else -1
        index = bisect.bisect_right(ends, place) if place >= start_events else None
        by = steps[index] if index is not None and index < len(steps) else None
        rows.append(
            {
                "seq": seq,
                "clause": event.clause,
                "text": named(event.text, names or {}),
                "dice": event.dice_text(),
                "side": side_of(event, unit_sides, separators),
                "hit": is_hit(event),
                "step": index if by is not None else None,
                "by": by.side if by is not None else None,
            }
        )
    return rows


def side_of(
    event: Event, unit_sides: Mapping[str, str], separators: str = PART_SEPARATORS
) -> str | None:
    """The side an event is about: named outright, or the side of the unit it names,
    itself or through a part of it (`UNIT<sep>PART` for a separator in `separators`)."""
    for key in SIDE_KEYS:
        value = event.data.get(key)
        if isinstance(value, str) and value in unit_sides.values():
            return value
    for key in UNIT_KEYS:
        value = event.data.get(key)
        if not isinstance(value, str) or not value:
            continue
        for name in (value, *owners(value, separators)):
            if name in unit_sides:
                return unit_sides[name]
    return None


def owners(ident: str, separators: str) -> list[str]:
    """What a part's id may belong to: for each separator in it, the id up to its last
    occurrence (a unit whose own id holds the separator), then up to its first."""
    found: list[str] = []
    for sep in separators:
        if sep in ident:
            for name in (ident.rpartition(sep)[0], ident.split(sep)[0]):
                if name not in found:
                    found.append(name)
    return found


def names_unknown(events: Sequence[Event], unit_sides: Mapping[str, str]) -> bool:
    """Whether any of `events` names a unit (itself or through a part of it) or a side
    that `unit_sides` does not hold: the cue to scan the state again
    (`unit_sides_of`), since a unit that enters play is named by the events that bring
    it (a launch, a missile fired)."""
    sides = set(unit_sides.values())
    for event in events:
        data = event.data
        for key in SIDE_KEYS:
            value = data.get(key)
            if isinstance(value, str) and value and value not in sides:
                return True
        for key in UNIT_KEYS:
            value = data.get(key)
            if (
                isinstance(value, str)
                and value
                and value not in unit_sides
                and not any(name in unit_sides for name in owners(value, PART_SEPARATORS))
            ):
                return True
    return False


def unit_sides_of(game: Game) -> dict[str, str]:
    """Unit id -> side for every unit in the game's state (server side only: the view
    sends just the side of a unit an already visible event names)."""
    found: dict[str, str] = {}
    _collect(msgspec.to_builtins(game.state), found, depth=0)
    return found


def _collect(data: Any, found: dict[str, str], depth: int) -> None:
    if depth > 4:
        return
    if isinstance(data, dict):
        unit_id, side = data.get("id"), data.get("side")
        if isinstance(unit_id, str) and isinstance(side, str):
            found[unit_id] = side
            return
        for value in data.values():
            _collect(value, found, depth + 1)
    elif isinstance(data, list):
        for value in data:
            _collect(value, found, depth + 1)
