"""What a side may see of the state: secret selections, cloaked craft and decoys."""

from __future__ import annotations

from typing import Any

import msgspec

from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.state import SfaState


def observe(state: SfaState, player: str | None) -> dict[str, Any]:
    """The state as `player` may see it (None: a spectator)."""
    data = msgspec.to_builtins(state)
    data.pop("types", None)
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
        fake = msgspec.to_builtins(owner)
        fake.update(id=decoy.id, hex=[decoy.hex.q, decoy.hex.r], facing=decoy.facing)
        fake["cloaked"] = False
        crafts[decoy.id] = fake
        data["owner"][decoy.id] = owner.side
        data["start_structure"][decoy.id] = state.start_structure.get(owner.id, 0)
    data["craft"] = dict(sorted(crafts.items()))
    data["decoys"] = mine
