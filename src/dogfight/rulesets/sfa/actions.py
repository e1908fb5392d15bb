"""SFA actions: secret selections, interrupts, moves and resolutions."""

from __future__ import annotations

import msgspec


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="action"):
    """Base of every SFA action."""


class Select(Action, frozen=True, kw_only=True, tag="select"):
    """An actor's secret choice for the turn (SFA-SEQ-1).

    `kind` is 'attack' (with the weapon's name as `item`), 'extra_move' or 'none';
    `speed_dice` are attack dice given up for Speed (SFA-SEQ-2).
    """

    actor: str
    kind: str
    item: str = ""
    speed_dice: int = 0


class Interrupt(Action, frozen=True, kw_only=True, tag="interrupt"):
    """A faster actor acts now, before the slower one moves or resolves (SFA-SEQ-4)."""

    actor: str


class Pass(Action, frozen=True, kw_only=True, tag="pass"):
    """No interrupt by this side now."""


class Move(Action, frozen=True, kw_only=True, tag="move"):
    """Fly a craft: a string of steps (see `maneuvers`), optionally aborting first."""

    craft: str
    steps: str = ""
    abort: str = ""
    """'extra_move' to switch the action to 3 more hexes for 1 Willpower (SFA-SEQ-5)."""


class Resolve(Action, frozen=True, kw_only=True, tag="resolve"):
    """Fire the selected weapon at a target ('' to hold fire) (SFA-ATK-1)."""

    actor: str
    target: str = ""
    willpower: bool = False
    """Spend 1 Willpower for one sure success (SFA-ATK-5)."""


SfaAction = Select | Interrupt | Pass | Move | Resolve
"""Every SFA action, as one tagged union for game files."""
