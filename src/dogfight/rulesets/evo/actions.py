"""EVO actions: activating a flight, its two actions, and reactions."""

from __future__ import annotations

import msgspec


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """Base of every EVO action."""


class ChooseOrder(Action, frozen=True, kw_only=True, tag="choose_order"):
    """The winner of the roll-off goes first (`first=True`) or second (EVO-SEQ-1)."""

    first: bool


class Activate(Action, frozen=True, kw_only=True, tag="activate"):
    """Nominate a flight as the active unit: it drifts 6" and may act (EVO-ACT-1).

    `command` names a friendly Command flight that gives it a bonus action (EVO-CMD-3).
    """

    unit: str
    command: str = ""


class Move(msgspec.Struct, frozen=True, array_like=True):
    """One model's displacement in a manoeuvre, in table inches."""

    model: str
    dx: float
    dy: float


class Manoeuvre(Action, frozen=True, kw_only=True, tag="manoeuvre"):
    """Each model moves up to its Agility in any direction (EVO-MOV-2).

    `moves` lists each model's displacement; models left out stay where they are.
    """

    unit: str
    moves: tuple[Move, ...] = ()


class Rotate(Action, frozen=True, kw_only=True, tag="rotate"):
    """Pivot to bring fixed guns to bear; as the first action it frees the second
    action's Shoot from arcs (EVO-ROT-1)."""

    unit: str


class Shoot(Action, frozen=True, kw_only=True, tag="shoot"):
    """Fire every weapon that can bear at one enemy model's fire zone (EVO-SHT-1)."""

    unit: str
    target: str


class Ready(Action, frozen=True, kw_only=True, tag="ready"):
    """Lock on to an enemy flight, so Lock-on weapons may fire at it (EVO-RDY-1)."""

    unit: str
    target_unit: str


class LaunchTorpedo(Action, frozen=True, kw_only=True, tag="launch"):
    """A Ready that launches the flight's Torpedo weapons at one enemy model's fire zone
    (EVO-TOR-1)."""

    unit: str
    target: str


class JumpOut(Action, frozen=True, kw_only=True, tag="jump"):
    """A Ready that activates a jump gate: the flight's models within its radius leave
    the table through it (EVO-GATE-3)."""

    unit: str
    gate: str


class EndActivation(Action, frozen=True, kw_only=True, tag="end_activation"):
    """The active flight takes no more actions this turn."""

    unit: str


class React(Action, frozen=True, kw_only=True, tag="react"):
    """A free Shoot at the flight that triggered the reaction (EVO-REA-2)."""

    unit: str
    target: str


class Decline(Action, frozen=True, kw_only=True, tag="decline"):
    """No (more) reactions to this action."""


class Allocate(Action, frozen=True, kw_only=True, tag="allocate"):
    """The firing player places the dice left over once every model in the zone has one
    (EVO-SHT-4): `to` names the model for each such die, highest die first."""

    to: tuple[str, ...]


EvoAction = (
    ChooseOrder
    | Activate
    | Manoeuvre
    | Rotate
    | Shoot
    | Ready
    | LaunchTorpedo
    | JumpOut
    | EndActivation
    | React
    | Decline
    | Allocate
)
"""Every EVO action, as one tagged union for game files."""
