"""ACTA actions: a player's intents, small immutable records.

Each is a msgspec struct tagged by `kind`, so game files store them as JSON
objects such as ``{"kind": "fire", "unit": "K-F1", "weapon": "Drone", "target": "E-CV1"}``.
"""

from __future__ import annotations

import msgspec


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """Base of every ACTA action."""


class ChooseLoadout(Action, frozen=True, kw_only=True, tag="loadout"):
    """Before the battle: which fighters swap their (*) drone for dogfight drones (ACTA-FTR-9).

    `swap` names fighters on the table; `swap_aboard` names ships whose carried (*)
    fighters all swap.
    """

    swap: tuple[str, ...] = ()
    swap_aboard: tuple[str, ...] = ()


class Deploy(Action, frozen=True, kw_only=True, tag="deploy"):
    """Before the battle: place a unit in its side's deployment zone (ACTA-DEP-4).

    `support` puts a carrier's combat space patrol on that carrier's base instead."""

    unit: str
    x: float
    y: float
    heading: float = 0.0
    support: str = ""


class DeclareSpecial(Action, frozen=True, kw_only=True, tag="special"):
    """Declare a Special Action for a ship about to move (ACTA-SPA-1).

    With All Power to Engines, `drain` is the power-drain penalty the owner takes next
    turn: 'move', 'phasers' or 'one_system' ('' is 'move') (ACTA-SPA-8). With High
    Energy Turn, `extra` is the number of extra 45-degree segments tried (ACTA-SPA-11).
    """

    unit: str
    name: str
    drain: str = ""
    extra: int = 0
    """High Energy Turn: how many extra 45-degree segments the ship tries (1-3)
    (ACTA-SPA-11)."""


class Leg(msgspec.Struct, frozen=True, array_like=True):
    """One piece of a ship's move: turn (degrees, + = to port) and then go straight."""

    turn: float
    distance: float


class MoveShip(Action, frozen=True, kw_only=True, tag="move_ship"):
    """Move a ship along its legs (ACTA-MOV-2)."""

    unit: str
    legs: tuple[Leg, ...] = ()


class FighterOrder(Action, frozen=True, kw_only=True, tag="fighter_order"):
    """The initiative winner names the side that moves all its fighters first (ACTA-SEQ-3)."""

    first: str


class MoveFighter(Action, frozen=True, kw_only=True, tag="move_fighter"):
    """Move a fighter to a point and facing; optionally support a friendly unit there."""

    unit: str
    x: float
    y: float
    heading: float
    support: str = ""


class Recover(Action, frozen=True, kw_only=True, tag="recover"):
    """Move a fighter into contact with a friendly ship, which takes it aboard (ACTA-LCH-3)."""

    unit: str
    ship: str


class EndMovement(Action, frozen=True, kw_only=True, tag="end_movement"):
    """The side's remaining fighters stay where they are this turn."""


class Intercept(Action, frozen=True, kw_only=True, tag="intercept"):
    """Supporting fighters meet an enemy fighter attacking what they support (ACTA-SUP-4).

    An empty `fighters` declines to intercept.
    """

    attacker: str
    fighters: tuple[str, ...] = ()


class DefensiveFire(Action, frozen=True, kw_only=True, tag="defensive_fire"):
    """Which supporting fighters spend this turn on defensive fire (ACTA-SUP-6)."""

    fighters: tuple[str, ...] = ()


class Dogfight(Action, frozen=True, kw_only=True, tag="dogfight"):
    """One of the nominating side's fighters attacks an enemy fighter it touches (ACTA-DOG-3)."""

    unit: str
    enemy: str


class Support(Action, frozen=True, kw_only=True, tag="support"):
    """One of the nominating side's engaged fighters supports its side's dogfights."""

    unit: str


class DefenderSupport(Action, frozen=True, kw_only=True, tag="defender_support"):
    """The defending side's unengaged fighters that add +1 to the dogfights they touch."""

    fighters: tuple[str, ...] = ()


class Fire(Action, frozen=True, kw_only=True, tag="fire"):
    """Fire one weapon of a unit at a target (ACTA-ATK-1)."""

    unit: str
    weapon: str
    target: str


class EndAttacks(Action, frozen=True, kw_only=True, tag="end_attacks"):
    """The unit (a ship) or, with no unit, the side's fighters stop firing this turn."""

    unit: str = ""


class Launch(Action, frozen=True, kw_only=True, tag="launch"):
    """A ship launches one fighter, placed within 3" at the end of the End Phase (ACTA-LCH-1).

    An empty `fighter` means the ship launches nothing this turn.
    """

    ship: str
    fighter: str = ""
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0


ActaAction = (
    ChooseLoadout
    | Deploy
    | DeclareSpecial
    | MoveShip
    | FighterOrder
    | MoveFighter
    | Recover
    | EndMovement
    | Intercept
    | DefensiveFire
    | Dogfight
    | Support
    | DefenderSupport
    | Fire
    | EndAttacks
    | Launch
)
"""Every ACTA action, as one tagged union for decoding game files."""
