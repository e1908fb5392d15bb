"""SFA actions: secret selections, interrupts, moves and resolutions."""

from __future__ import annotations

import msgspec

from dogfight.geometry.hex import Hex


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="action"):
    """Base of every SFA action."""


class Select(Action, frozen=True, kw_only=True, tag="select"):
    """An actor's secret choice for the turn (SFA-SEQ-1).

    `kind` is 'attack' (with the weapon's name as `item`), 'equipment' (with an
    advanced technology's id as `item`, SFA-TEC-*), 'extra_move' or 'none';
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
    """Switch the action for 1 Willpower (SFA-SEQ-5) to 'extra_move' (3 more hexes) or
    to an abort technology: 'boosters', 'force_field', 'plasma_field', 'teleport'."""
    dest: Hex | None = None
    """Where a Teleport lands (SFA-TEC-27), or where a Tractor Beam drags a held craft
    (SFA-TEC-29); `steps` is then empty."""
    ram: bool = False
    """Ram on purpose: the move ends in a collision with the first craft in a hex it
    enters (SFA-COL-1). Without it, a craft flies through or into a hex another craft
    holds and shares it."""


class Abort(Action, frozen=True, kw_only=True, tag="abort"):
    """Swap the pilot's declared action for an Abort action, for 1 Willpower, before it
    resolves (SFA-SEQ-5): in answer to an interrupt, or at its own resolution. `to` is
    'extra_move' (3 more hexes) or an abort technology ('boosters', 'force_field',
    'plasma_field', 'teleport'). At the craft's move the abort is `Move.abort`."""

    actor: str
    to: str


class Displace(Action, frozen=True, kw_only=True, tag="displace"):
    """After an attack roll, a craft with a Temporal Displacement Device (the attacker's,
    or the target's) says whether it pays 5 Power to have the roll made again, the new
    roll standing (SFA-TEC-28)."""

    craft: str
    use: bool = False


class Resolve(Action, frozen=True, kw_only=True, tag="resolve"):
    """Resolve the selected action: fire the weapon at a target ('' to hold fire)
    (SFA-ATK-1), or use the selected technology. A Resolve that names no target, hex,
    form and has `use` false performs nothing (the seed lets an action go unresolved)."""

    actor: str
    target: str = ""
    """The craft or missile aimed at (weapons, Duplicator, Tractor Beam, Plasma Missile,
    Remote Laser)."""
    willpower: bool = False
    """Spend 1 Willpower for one sure success (SFA-ATK-5)."""
    power: int = 0
    """Power spent: on the Targeting Computer for an attack (SFA-TEC-26), or put into a
    Tractor Beam at each turn end (SFA-TEC-29)."""
    reroll: bool = False
    """Refused: Temporal Displacement is decided after the roll, with `Displace`
    (SFA-TEC-28). Kept so that old game files load and say why."""
    at: Hex | None = None
    """Where a Holo-Projector puts its decoy (SFA-TEC-16)."""
    form: str = ""
    """The form a Transformation switches to (SFA-TEC-30)."""
    use: bool = False
    """Use an untargeted technology (EMP, Death Blossom, Pi-Tac Cannon, Stealth)."""


class Hologram(Action, frozen=True, kw_only=True, tag="hologram"):
    """Switch a craft's Holo-Projector decoy off (`on` false) or back on, at any decision
    of its side during the turn, without an action (SFA-TEC-16). The same side then
    decides what it was deciding."""

    craft: str
    on: bool


SfaAction = Select | Interrupt | Pass | Move | Resolve | Abort | Displace | Hologram
"""Every SFA action, as one tagged union for game files."""
