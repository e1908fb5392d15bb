"""Events: what happened when an action resolved, with its dice and rule clause."""

from __future__ import annotations

from typing import Any

import msgspec

from dogfight.dice import Dice, Roll


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """One thing that happened.

    `clause` is the id of the rule clause applied (see data/<ruleset>/rules.md), `text` a
    sentence for people, `rolls` every die rolled for it, `data` machine-readable
    details (unit ids, totals...) for tools and tests.
    """

    clause: str
    text: str
    rolls: tuple[Roll, ...] = ()
    data: dict[str, Any] = msgspec.field(default_factory=dict)

    def dice_text(self) -> str:
        """The rolls as people write them, e.g. 'd6: 4, 6'."""
        if not self.rolls:
            return ""
        sides = {r.sides for r in self.rolls}
        label = f"d{next(iter(sides))}" if len(sides) == 1 else "dice"
        return f"{label}: " + ", ".join(str(r.value) for r in self.rolls)


PRIVATE_TO = "private_to"
"""An event whose `data` names a side under this key is shown to that side only: hidden
information (a cloaked craft's course, say) stays out of the other side's log."""


def visible_to(event: Event, player: str | None) -> bool:
    """Whether a player (None: a spectator, who sees public events only) may see it."""
    owner = event.data.get(PRIVATE_TO)
    return owner is None or owner == player


class EventLog:
    """Collects the events of one `apply`, attaching pending dice to each."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, clause: str, text: str, **data: Any) -> Event:
        """Record an event citing `clause`; any dice rolled since the last event go with it."""
        event = Event(clause=clause, text=text, rolls=self.dice.take(), data=data)
        self.events.append(event)
        return event
