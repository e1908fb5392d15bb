"""What a side may see of the state and the log: secret selections, cloaked craft, and
nothing that tells a decoy from a craft (SFA-SEQ-1, SFA-TEC-25, SFA-TEC-16)."""

from __future__ import annotations

from typing import Any

import msgspec

from dogfight.core.events import Event, visible_to
from dogfight.rulesets.sfa import names as N
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.state import SfaState

PRIVATE_FIELDS = ("types", "names", "name_sides", "switched")
"""State fields no player is shown: the type tables (looked up separately), and how
aliases map to real ids (SFA-TEC-16)."""

SORTED_FIELDS = ("craft", "selections", "speeds", "owner", "start_structure", "disengaged")
"""Fields keyed by piece shown in key order: the order things were added in (a decoy
after the craft) would otherwise tell them apart."""


def observe(state: SfaState, player: str | None) -> dict[str, Any]:
    """The state as `player` may see it (None: a spectator)."""
    data = msgspec.to_builtins(state)
    for field in PRIVATE_FIELDS:
        data.pop(field, None)
    # SFA-SEQ-1: selections stay secret while they are being chosen; SFA-SEQ-2: once
    # Speeds are revealed only the Speed is shown, and an action becomes the other
    # side's to see when it has been taken (it has left the order).
    pending = set(state.order) if state.phase == "act" else set(data["selections"])
    data["selections"] = {
        key: sel
        for key, sel in data["selections"].items()
        if key not in pending
        or (
            state.craft.get(split_key(key)[0]) is not None
            and state.craft[split_key(key)[0]].side == player
        )
    }
    hide_from(state, player, data)
    if data.get("temporal") is not None:
        # SFA-TEC-28: a side sees the roll waiting on an answer, not the state before
        # the action (which holds the other side's secrets) nor the dice record.
        data["temporal"] = {"roll": data["temporal"]["roll"]}
    table = N.names_for(state, player)
    if table:
        mirror(state, data, table)
        data = N.rename(data, N.renamer(table))
        for field in SORTED_FIELDS:
            data[field] = dict(sorted(data[field].items()))
    return dict(data)


def hide_from(state: SfaState, player: str | None, data: dict[str, Any]) -> None:
    """What the other side may not see: cloaked craft (unless it has Enhanced Sensors),
    and which 'craft' are really decoys (SFA-TEC-25, SFA-TEC-13, SFA-TEC-16). A
    spectator (None) sees only what every side sees."""
    crafts: dict[str, Any] = data["craft"]
    for craft in state.craft.values():
        if not T.side_sees(state, player, craft):
            crafts.pop(craft.id, None)
    mine: dict[str, Any] = {}
    for decoy in state.decoys.values():
        owner = state.craft.get(decoy.owner)
        if owner is None:
            continue
        if owner.side == player:
            mine[decoy.id] = data["decoys"][decoy.id]
            continue
        if not decoy.on:
            continue  # switched off: nothing is shown (SFA-TEC-16)
        fake = msgspec.to_builtins(owner)
        fake.update(id=decoy.id, hex=[decoy.hex.q, decoy.hex.r], facing=decoy.facing)
        # Shown as its projector is: cloaked only to a side whose sensors see the cloaked
        # projector; to any other it is an uncloaked craft.
        fake["cloaked"] = owner.cloaked and T.side_sees(state, player, owner)
        crafts[decoy.id] = fake
        data["owner"][decoy.id] = owner.side
        data["start_structure"][decoy.id] = state.start_structure.get(owner.id, 0)
    data["craft"] = dict(sorted(crafts.items()))
    data["decoys"] = mine


def mirror(state: SfaState, data: dict[str, Any], table: dict[str, str]) -> None:
    """A shown decoy has the actors its projector has: the same Speeds, the same place
    in the order, the same revealed selections, so that the turn's bookkeeping names
    craft and decoy alike (SFA-TEC-16). Of the pair, the one with the lower alias is
    shown first, and shown acting when the projector acts."""
    for decoy in state.decoys.values():
        if decoy.id not in data["craft"] or decoy.owner not in state.craft:
            continue
        real, fake = decoy.owner, decoy.id
        fake_first = alias_key(table.get(fake, fake)) < alias_key(table.get(real, real))
        for field in ("to_select", "order", "tie", "late_fields"):
            out: list[str] = []
            for key in data[field]:
                other = twin(key, real, fake)
                out += [key] if other is None else ([other, key] if fake_first else [key, other])
            data[field] = out
        for field in ("selections", "speeds"):
            for key, value in list(data[field].items()):
                other = twin(key, real, fake)
                if other is not None:
                    data[field][other] = value
        if real in data["passive"]:
            data["passive"] = [*data["passive"], fake]
        for field in ("acting", "abort_offer"):
            other = twin(data[field], real, fake) if data[field] else None
            if other is not None and fake_first:
                data[field] = other


def twin(key: str, real: str, fake: str) -> str | None:
    """The decoy's actor key matching its projector's actor `key` (None for another's)."""
    craft, _, station = key.rpartition("#")
    return f"{fake}#{station}" if craft == real else None


def alias_key(name: str) -> tuple[str, int, str]:
    """Aliases in their natural order: Wx2 before Wx10."""
    head, mark, number = name.rpartition(N.MARK)
    return (head, int(number), "") if mark and number.isdigit() else (name, 0, name)


def event_view(state: SfaState, event: Event, player: str | None) -> Event | None:
    """The event as `player` (None: a spectator) is shown it, or None if it may not see
    it: pieces it does not own named as it was shown them when the event was logged, and
    a selection not said to be any one actor's (a decoy selects nothing) (SFA-TEC-16)."""
    if not visible_to(event, player):
        return None
    table = N.names_for(state, player, int(event.data.get(N.PERIOD, 0)))
    data = {k: v for k, v in event.data.items() if k != N.PERIOD}
    if not table:
        if N.PERIOD not in event.data:
            return event
        return msgspec.structs.replace(event, data=data)
    text = event.text
    actor = data.get("actor")
    if event.clause == "SFA-SEQ-1" and isinstance(actor, str) and split_key(actor)[0] in table:
        text = text.replace(f" for {actor}", "")
        del data["actor"]
    text = N.rename_text(text, table)
    return Event(
        clause=event.clause,
        text=text,
        rolls=event.rolls,
        data=N.rename(data, N.renamer(table)),
    )
