"""What the other side calls a piece: opaque aliases for craft and decoys (SFA-TEC-16).

A side that can project decoys (a Holo-Projector aboard any of its craft) has every
piece shown to the other side, and to spectators, under an alias such as `Wx3`, the
same for craft and decoys: the side's initial, an `x`, and a number. The owner always
sees its real ids. Aliases are handed out only from what the other side can see
anyway (a piece's side and its place on the map), never from whether it is a decoy:

- at set-up, every craft of such a side, in order of place;
- whenever a Holo-Projector changes what is shown (a decoy projected, switched on or
  off), the projector and its decoy both get fresh ones, in order of place, so that
  neither keeps a name with a history.

Each change starts a new period (`SfaState.names`); events are stamped with the period
they were logged in, so that a player's log keeps the names it was shown then.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from dogfight.core.errors import IllegalAction
from dogfight.rulesets.sfa.state import SfaState

PERIOD = "names"
"""The event data key holding the naming period an event was logged in (absent: 0)."""

MARK = "x"
"""Between a side's initial and the number: no scenario id needs to look like it."""


def side_letter(side: str) -> str:
    """The initial an alias of `side`'s pieces starts with."""
    return next((ch.upper() for ch in side if ch.isalnum()), "U")


def can_project(state: SfaState, side: str) -> bool:
    """Whether any craft of `side` carries a Holo-Projector."""
    return any(
        state.types[c.type].has("holo_projector") for c in state.craft.values() if c.side == side
    )


def veiled(state: SfaState) -> set[str]:
    """Sides whose pieces the other side sees under aliases."""
    return set(state.name_sides.values())


def veil(state: SfaState, *, late: bool = False) -> None:
    """Give aliases to every craft of each side that can now project decoys and has none
    yet: at set-up, or `late` (a Duplicator copying a Holo-Projector), when the events
    logged so far keep the real names they were shown under."""
    done = veiled(state)
    fresh = [
        c.id for c in state.craft.values() if c.side not in done and can_project(state, c.side)
    ]
    if fresh:
        if late and not state.names:
            state.names = ({},)
        realias(state, fresh)


def _piece(state: SfaState, pid: str) -> tuple[str, tuple[int, int]]:
    """A piece's side and place."""
    craft = state.craft.get(pid)
    if craft is not None:
        return craft.side, (craft.hex.q, craft.hex.r)
    decoy = state.decoys[pid]
    return state.owner[decoy.owner], (decoy.hex.q, decoy.hex.r)


def realias(state: SfaState, ids: Iterable[str]) -> None:
    """Start a new naming period in which each of `ids` has a fresh alias, handed out in
    order of place on the map (what the other side sees), never reused."""
    current = dict(state.names[-1]) if state.names else {}
    issued = {alias for period in state.names for alias in period.values()}
    taken = set(state.owner) | set(state.start_structure) | set(state.decoys)
    taken |= set(state.missiles)
    pieces = [(pid, *_piece(state, pid)) for pid in ids]
    # A piece's place is public; the id only breaks a tie of two pieces in one hex.
    for pid, side, _ in sorted(pieces, key=lambda p: (p[2], p[0])):
        state.name_sides[pid] = side
        n = 1
        while f"{side_letter(side)}{MARK}{n}" in issued | taken:
            n += 1
        alias = f"{side_letter(side)}{MARK}{n}"
        issued.add(alias)
        current[pid] = alias
    state.names = (*state.names, current)


def period(state: SfaState) -> int:
    """The naming period now (the one new events are stamped with)."""
    return max(0, len(state.names) - 1)


def names_for(state: SfaState, player: str | None, when: int | None = None) -> dict[str, str]:
    """Real id -> the name `player` (None: a spectator) is shown, for the pieces it does
    not own, in period `when` (default: now)."""
    if not state.names:
        return {}
    table = state.names[min(len(state.names) - 1, period(state) if when is None else when)]
    return {k: v for k, v in table.items() if state.name_sides.get(k) != player}


def shown_name(state: SfaState, player: str | None, pid: str) -> str:
    """The name `player` is shown for a piece now (its real id if not aliased for it)."""
    return names_for(state, player).get(pid, pid)


def renamer(table: dict[str, str]) -> Callable[[str], str]:
    """A function naming one value as `table` does: an id, an actor key 'id#n', or
    '|'-joined pairs of those."""

    def one(value: str) -> str:
        if value in table:
            return table[value]
        if "|" in value:
            return "|".join(one(part) for part in value.split("|"))
        craft, hash_, station = value.rpartition("#")
        if hash_ and craft in table and station.isdigit():
            return f"{table[craft]}#{station}"
        return value

    return one


KEEP = frozenset({"type", "origin_type", "owner_type", "side", "sides", "kind", "item", "name"})
"""Fields that never hold a piece's id (a type or side may be spelt like one)."""


def rename(value: Any, one: Callable[[str], str], key: str = "") -> Any:
    """Plain data with every piece id (dict keys too) renamed by `one`."""
    if key in KEEP:
        return value
    if isinstance(value, str):
        return one(value)
    if isinstance(value, dict):
        return {
            (one(k) if isinstance(k, str) else k): rename(v, one, str(k)) for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [rename(v, one, key) for v in value]
    return value


@functools.lru_cache(maxsize=256)
def _pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w~-])({alternatives})(?![\w~-])")


def rename_text(text: str, table: dict[str, str]) -> str:
    """A sentence with each piece id it names (as a word) replaced by its alias."""
    if not table:
        return text
    return _pattern(tuple(sorted(table))).sub(lambda m: table[m.group(1)], text)


ACTION_FIELDS = ("actor", "craft", "target")
"""Action fields that name a piece (or an actor key)."""


def action_shown(state: SfaState, action: Any) -> Any:
    """An action of the side deciding now, naming pieces as that side is shown them."""
    table = names_for(state, state.active)
    if not table:
        return action
    one = renamer(table)
    changes = {f: one(getattr(action, f)) for f in ACTION_FIELDS if getattr(action, f, "")}
    return _replace(action, changes)


def actions_shown(state: SfaState, actions: list[Any]) -> list[Any]:
    """`action_shown` of each of `actions`, the names looked up once for them all."""
    table = names_for(state, state.active)
    if not table:
        return list(actions)
    one = renamer(table)
    named: dict[str, str] = {}  # the many actions of one decision name few pieces
    out = []
    for action in actions:
        changes: dict[str, str] = {}
        for f in ACTION_FIELDS:
            value = getattr(action, f, "")
            if value:
                shown = named.get(value)
                if shown is None:
                    shown = named[value] = one(value)
                if shown != value:
                    changes[f] = shown
        out.append(msgspec.structs.replace(action, **changes) if changes else action)
    return out


def action_real(state: SfaState, action: Any) -> Any:
    """An action of the side deciding now, as named by it, with real ids: an alias is
    mapped back, and a real id of a piece it is shown under an alias is refused."""
    table = names_for(state, state.active)
    if not table:
        return action
    back = {alias: pid for pid, alias in table.items()}
    real = renamer(back)
    changes: dict[str, str] = {}
    for f in ACTION_FIELDS:
        value = getattr(action, f, "")
        if not isinstance(value, str) or not value:
            continue
        named = value.rpartition("#")[0] if "#" in value else value
        if named in table:
            raise IllegalAction(
                f"{f} '{value}': name the other side's pieces as you are shown them (SFA-TEC-16)"
            )
        changes[f] = real(value)
    return _replace(action, changes)


def _replace(action: Any, changes: dict[str, str]) -> Any:
    changes = {k: v for k, v in changes.items() if getattr(action, k) != v}
    return msgspec.structs.replace(action, **changes) if changes else action
