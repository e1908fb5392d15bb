"""SFA game state: craft and missiles on the hex map, and where the turn stands."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from dogfight.core.ruleset import Outcome, UnitRecord
from dogfight.geometry.hex import Hex
from dogfight.geometry.hexmap import HexMap
from dogfight.rulesets.sfa.craft import Craft, Pilot


class Selection(msgspec.Struct, frozen=True, kw_only=True):
    """An actor's secret choice for the turn (SFA-SEQ-1)."""

    kind: str
    """'attack', 'equipment', 'extra_move' or 'none'."""
    item: str = ""
    """The weapon name or technology id."""
    speed_dice: int = 0
    """Dice taken out of the attack pool to act faster (SFA-SEQ-2)."""


class CraftState(msgspec.Struct, kw_only=True):
    """One spacecraft on the map."""

    id: str
    type: str
    side: str
    hex: Hex
    facing: int
    structure: int
    power: int
    pilot: Pilot
    gunners: tuple[Pilot, ...] = ()
    willpower: int = 0
    """The pilot's Willpower points left (aborts and bought successes spend them)."""
    botched: bool = False
    """A botch this turn: -2 Speed next turn (SFA-ATK-4)."""
    botch_penalty: bool = False
    """The botch penalty applies to this turn's Speed."""
    disabled: bool = False
    # --- this turn -----------------------------------------------------------------
    maneuver_soak: int = 0
    maneuver_handling: int = 0
    hexes_moved: int = 0
    willpower_spent: bool = False
    stunned: int = 0
    """Whole turns of actions still to lose: the craft drifts 1 hex instead (EMP,
    Death Blossom; SFA-TEC-09, SFA-TEC-06)."""
    stun_clause: str = ""
    """The clause that stunned it (SFA-TEC-09 EMP, SFA-TEC-06 Death Blossom)."""
    cloaked: bool = False
    """Stealth is on: hidden from the other side, untargetable by weapons (SFA-TEC-25)."""
    force_field: bool = False
    """A Force Field is up until the end of this turn (SFA-TEC-14)."""
    plasma_field: bool = False
    """A Plasma Field is up until the end of this turn (SFA-TEC-20)."""
    ramming: bool = False
    """Hyper-Ram is paid for this turn: collisions do not hurt this craft (SFA-TEC-17)."""
    charging: str = ""
    """The doomsday device (death_blossom, pi_tac_cannon) charged this turn."""
    charged: str = ""
    """The doomsday device charged last turn, ready to fire this turn (SFA-TEC-06/19)."""
    held_by: str = ""
    """The craft holding this one in a Tractor Beam (SFA-TEC-29)."""
    hold_power: int = 0
    """Power the holder puts into the beam at each turn end."""
    origin_type: str = ""
    """The design the craft started the battle as (Duplicator and Transformation
    switch `type` to a derived design)."""
    expended: dict[str, int] = msgspec.field(default_factory=dict)
    """Missiles and rocket salvos used, by weapon name: each is bought one at a time."""
    out_by: str = ""
    """The craft whose damage put this one out of action, if any (for statistics)."""


class Missile(msgspec.Struct, kw_only=True):
    """A missile or torpedo in flight: its own counter (SFA-MSL-1). Plasma missiles
    (SFA-TEC-21) and Remote Lasers (SFA-TEC-24) are counters of the same kind."""

    id: str
    side: str
    target: str
    hex: Hex
    pool: int
    moved: int = 0
    structure: int = 2
    kind: str = "missile"
    """'missile', 'plasma' (a Plasma Missile) or 'remote_laser'."""
    owner_type: str = ""
    """The launcher's design id (its Armor-Piercing and Disruptor levels apply)."""
    owner: str = ""
    life: int = 20
    """Hexes it may fly before it self-destructs (its range)."""
    scale: int = 1
    """The scale it fights at: its weapon's, which is the launcher's unless the weapon
    is of another scale (a Trinity Smart Missile or Fusion Warhead) (SFA-MSL-2)."""


class Decoy(msgspec.Struct, kw_only=True):
    """A Holo-Projector's decoy: looks like its projector to the other side (SFA-TEC-16)."""

    id: str
    owner: str
    hex: Hex
    facing: int
    on: bool = True
    """Shown: the projector may switch it off and on at any time during the turn; while
    off it is not seen, hit or swept away, but it keeps following its projector."""


class Trail(msgspec.Struct, frozen=True, kw_only=True):
    """Hexes a Plasma Trail was laid through, hot until the end of turn `until`
    (SFA-TEC-22)."""

    owner: str
    hexes: tuple[Hex, ...]
    until: int
    owner_type: str = ""


class PendingRoll(msgspec.Struct, frozen=True, kw_only=True):
    """A roll just made that a Temporal Displacement Device may still change: what it
    was and who is still to say whether they re-roll it (SFA-TEC-28)."""

    kind: str
    """What was rolled: 'attack', 'missile', 'area', 'obstacle', 'tractor', 'beam'
    (the beam's side of a tractor contest) or 'escape' (the held craft's Move roll)."""
    by: str
    """The craft whose roll it is (a missile's launcher); '' if none."""
    against: str = ""
    """The craft it is rolled against; '' if none."""
    size: int = 0
    """Dice rolled."""
    net: int = 0
    """Net successes of the roll as it stands."""
    good: bool = False
    """Whether the roll, as it stands, does what its roller wanted."""
    harm: int = 0
    """Damage the roll does to `against` if it stands."""
    asked: tuple[str, ...] = ()
    """Craft still to say whether they re-roll it, the one to answer now first."""


class Rerolls(msgspec.Struct, kw_only=True):
    """An action whose resolution waits on a Temporal Displacement answer (SFA-TEC-28).

    The resolution is carried out again from `base` with the same dice (`faces`) and
    the answers given so far, so that it continues exactly where the roll was made."""

    action: Any = None
    """The action being resolved."""
    base: SfaState | None = None
    """The state before it (never changed: each replay starts from a copy). A side's
    view of the game (its observation) holds neither this nor `action`, whose secrets
    are not the side's to see."""
    faces: tuple[int, ...] = ()
    """Every die face drawn since `base`, in order."""
    answers: tuple[str, ...] = ()
    """For each re-rollable roll so far: the craft that re-rolled it, or '' if kept."""
    shown: int = 0
    """Events of the resolution already in the log (a replay does not repeat them)."""
    roll: PendingRoll
    """The roll waiting on an answer."""


class Actor(msgspec.Struct, frozen=True, kw_only=True):
    """One station that acts: a craft's pilot (station 0) or one of its gunners."""

    craft: str
    station: int

    @property
    def key(self) -> str:
        """'R1#0' for R1's pilot, 'R1#1' for its first gunner."""
        return f"{self.craft}#{self.station}"


class SfaState(msgspec.Struct, kw_only=True):
    """One position of an SFA battle."""

    turn: int
    turn_limit: int
    map: HexMap
    sides: tuple[str, str]
    craft: dict[str, CraftState]
    types: dict[str, Craft]
    options: dict[str, bool | int | float | str] = msgspec.field(default_factory=dict)
    missiles: dict[str, Missile] = msgspec.field(default_factory=dict)
    phase: str = "turn_start"
    active: str = ""
    selections: dict[str, Selection] = msgspec.field(default_factory=dict)
    """Actor key -> its selection this turn. Hidden from the other side until revealed."""
    to_select: tuple[str, ...] = ()
    """Actor keys still to choose, the current side's first."""
    speeds: dict[str, int] = msgspec.field(default_factory=dict)
    order: tuple[str, ...] = ()
    """Actor keys that have not acted yet, slowest first (SFA-SEQ-3)."""
    acting: str = ""
    """The actor whose move or resolution is pending."""
    step: str = ""
    """'window_move', 'move', 'window_resolve' or 'resolve'."""
    window_sides: tuple[str, ...] = ()
    """Sides still to be asked whether a faster actor interrupts (SFA-SEQ-4)."""
    interrupted: tuple[str, ...] = ()
    """Actors that are being interrupted, outermost first."""
    temporal: Rerolls | None = None
    """The action being resolved while a roll waits on a re-roll answer (SFA-TEC-28)."""
    abort_offer: str = ""
    """A pilot just interrupted, asked whether it aborts before the interrupter acts
    (SFA-SEQ-5)."""
    late_fields: tuple[str, ...] = ()
    """Pilots that aborted to a field after moving, slower than their interrupter: the
    field goes up when they resume (SFA-SEQ-5)."""
    tie: tuple[str, ...] = ()
    """Actors of both sides tied on Speed and Wits whose actions are being taken as one
    simultaneous moment: each still acts if another of them puts it out (SFA-SEQ-3)."""
    serial: int = 0
    start_structure: dict[str, int] = msgspec.field(default_factory=dict)
    disengaged: dict[str, int] = msgspec.field(default_factory=dict)
    """Craft that left the map -> their Structure then: lost to the battle, not knocked
    out, so they score nothing for the enemy (SFA-WIN-2)."""
    owner: dict[str, str] = msgspec.field(default_factory=dict)
    """Craft id -> side, kept after the craft is gone (for scores)."""
    destroyed: list[str] = msgspec.field(default_factory=list)
    gone: tuple[UnitRecord, ...] = ()
    """Craft destroyed or off the map, as they were when they went (for statistics). A
    tuple, replaced on each loss, so that `clone` may share it."""
    decoys: dict[str, Decoy] = msgspec.field(default_factory=dict)
    """Holo-Projector decoys by id (SFA-TEC-16)."""
    trails: list[Trail] = msgspec.field(default_factory=list)
    """Plasma Trails still hot (SFA-TEC-22)."""
    names: tuple[dict[str, str], ...] = ()
    """What the other side calls each piece of a side that can project decoys: one
    mapping (real id -> alias) per period, the last one current; a mapping is never
    changed once the next begins, so old events keep the names they were logged under
    (SFA-TEC-16; see `observe`). Never shown to a player."""
    name_sides: dict[str, str] = msgspec.field(default_factory=dict)
    """The side of every piece ever given an alias (a decoy's owner's side)."""
    switched: tuple[str, ...] = ()
    """Decoys switched off or on at the decision now pending: each once per decision."""
    area_hits: list[str] = msgspec.field(default_factory=list)
    """'source|victim' pairs already hurt this turn by a Plasma Field or Trail."""
    map_scale: int = 1
    """The map's scale: 1 (Starfighter hexes of about 1 km) when any craft is in the
    battle, 0 (Street Fighter hexes of 2.5 m) when only Street Fighters are (SFA-SF-3)."""
    mixed_time: bool = False
    """The battle started with Starship-scale craft and smaller units: with option
    `starship_time`, the Starship-scale craft act on every 5th turn only (SFA-SCL-2)."""
    passive: tuple[str, ...] = ()
    """Craft that neither choose nor act this turn: Starship-scale craft between their
    own turns (SFA-SCL-2)."""
    outcome: Outcome | None = None

    def clone(self) -> SfaState:
        """An independent copy."""
        dup = copy.copy(self)
        dup.craft = {k: copy.copy(v) for k, v in self.craft.items()}
        for unit in dup.craft.values():
            unit.expended = dict(unit.expended)
        dup.missiles = {k: copy.copy(v) for k, v in self.missiles.items()}
        dup.selections = dict(self.selections)
        dup.speeds = dict(self.speeds)
        dup.start_structure = dict(self.start_structure)
        dup.destroyed = list(self.destroyed)
        dup.disengaged = dict(self.disengaged)
        dup.types = dict(self.types)
        dup.decoys = {k: copy.copy(v) for k, v in self.decoys.items()}
        dup.trails = list(self.trails)
        dup.area_hits = list(self.area_hits)
        dup.owner = dict(self.owner)
        dup.name_sides = dict(self.name_sides)
        if self.temporal is not None:
            # `base` is never changed, so the copies share it.
            dup.temporal = copy.copy(self.temporal)
        return dup

    def other(self, side: str) -> str:
        """The opposing side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def record(
        self, craft: CraftState, *, gone: bool = False, destroyed: bool = False
    ) -> UnitRecord:
        """A craft as a roster record: out of action (disabled) counts as destroyed, by
        whoever put it out; strength is Structure (Health for a person), none left once
        `gone` from the battle."""
        return UnitRecord(
            id=craft.id,
            side=craft.side,
            type=craft.origin_type or craft.type,
            strength=float(self.start_structure.get(craft.id, 0)),
            remaining=0.0 if gone else float(max(0, craft.structure)),
            destroyed=destroyed or craft.disabled,
            destroyed_by=craft.out_by or None,
        )

    def remove_craft(self, craft: CraftState, *, destroyed: bool) -> None:
        """Take a craft out of the battle (destroyed, or off the map), keeping its record."""
        self.gone = (*self.gone, self.record(craft, gone=True, destroyed=destroyed))
        del self.craft[craft.id]

    def type_of(self, craft: CraftState) -> Craft:
        """A craft's design."""
        return self.types[craft.type]

    def operational(self, side: str | None = None) -> list[CraftState]:
        """Craft on the map and not disabled, in id order."""
        return [
            c
            for c in sorted(self.craft.values(), key=lambda c: c.id)
            if not c.disabled and (side is None or c.side == side)
        ]

    def is_person(self, craft: CraftState) -> bool:
        """Whether the unit is a Street Fighter rather than a craft (SFA-SF-1)."""
        return self.types[craft.type].fighter is not None

    def occupant(self, where: Hex, ignore: str = "") -> CraftState | None:
        """The craft in a hex, if any. On a Starfighter-scale map a Street Fighter takes
        up no room: a person and a craft may share a hex (SFA-SF-3)."""
        for c in self.craft.values():
            if c.hex == where and c.id != ignore:
                if self.map_scale >= 1 and self.is_person(c):
                    continue
                return c
        return None


def new_missile_id(state: SfaState) -> str:
    """The next missile counter's id: M and the launch's serial number, skipping any id
    a craft (on the map or gone), a decoy or a missile holds: a scenario may name a
    craft M1 (starbase-assault's mothership), and two pieces with one id would be
    one piece to the log, the board and the rules that look pieces up by id."""
    taken = state.owner.keys() | state.start_structure.keys() | state.craft.keys()
    while True:
        state.serial += 1
        mid = f"M{state.serial}"
        if mid not in taken and mid not in state.decoys and mid not in state.missiles:
            return mid
