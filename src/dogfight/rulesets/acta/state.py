"""ACTA game state: the units on the table and where the turn stands."""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator

import msgspec

from dogfight.core.ruleset import Outcome, UnitRecord
from dogfight.geometry import EPSILON, Pose, Table, Vec2, in_contact
from dogfight.rulesets.acta.actions import Fire
from dogfight.rulesets.acta.units import UnitType


class UnitState(msgspec.Struct, kw_only=True):
    """One ship or fighter on the table (or aboard a ship, for fighters)."""

    id: str
    type: str
    side: str
    pose: Pose
    damage: int
    """Damage points left; 0 destroys the unit."""
    shields: int = 0
    crew: int = 0
    criticals: dict[str, int] = msgspec.field(default_factory=dict)
    """Critical system -> severity level (ACTA-CRT-1)."""
    crippled: bool = False
    lost_traits: tuple[str, ...] = ()
    aboard: tuple[str, ...] = ()
    """Ships: the fighter types carried, one entry per fighter."""
    aboard_damage: tuple[int, ...] = ()
    """Damage left of each fighter aboard (recovered fighters are not repaired in battle)."""
    aboard_drones: tuple[bool, ...] = ()
    """Whether each fighter aboard swapped its drone for dogfight drones (ACTA-FTR-9)."""
    loadout_fixed: bool = False
    """Fighters: the scenario fixed the dogfight-drone swap; the player may not change it."""
    dogfight_drones: bool = False
    supporting: str = ""
    """Fighters: id of the friendly ship or fighter this one supports."""
    # --- per-turn flags: those listed in TURN_FLAGS or TURN_CARRIES below ---
    move_done: bool = False
    """Fighters: has had its move in the fighter movement step."""
    moved: bool = False
    distance_moved: float = 0.0
    carried: float = 0.0
    """Inches this fighter was carried by the unit it supports this turn."""
    special: str = ""
    """The Special Action performed this turn (passed its check), if any."""
    special_attempted: bool = False
    special_extra: int = 0
    """High Energy Turn: the extra 45-degree segments declared (ACTA-SPA-11)."""
    power_drain: bool = False
    """Set by All Power to Engines: next turn the ship moves at most 6" (ACTA-SPA-2)."""
    drain_next: bool = False
    drain_penalty: str = ""
    """This turn's power-drain penalty after All Power to Engines (ACTA-SPA-8)."""
    drain_penalty_next: str = ""
    """The penalty chosen with All Power to Engines, in force next turn (ACTA-SPA-8)."""
    drones_at: tuple[tuple[str, int], ...] = ()
    """(target, drones) launched this turn, for the drone limit (ACTA-TRT-10)."""
    fired: tuple[str, ...] = ()
    """Weapons fired this turn."""
    fighter_target: str = ""
    """Fighters: the one target of all their weapons this turn (one 'weapon system')."""
    attack_done: bool = False
    """Fighters: has made its attack this turn (fired, or stood down)."""
    dogfight_done: bool = False
    """Fighters: dogfought or supported a dogfight this turn (ACTA-DOG-3)."""
    barred: tuple[str, ...] = ()
    """Targets this fighter may not attack this turn (it was intercepted)."""
    on_defensive_fire: bool = False
    interceptors_used: int = 0
    anti_fighter_used: bool = False
    intercepted_from: str = ""
    """Fighters that left a base to intercept: the unit they may return to (kept
    across turns: not a per-turn flag)."""

    def new_turn(self) -> None:
        """Start a turn: what was chosen for this turn last turn takes effect
        (`TURN_CARRIES`), then every per-turn flag goes back to its default
        (`TURN_FLAGS`)."""
        for now, later in TURN_CARRIES:
            setattr(self, now, getattr(self, later))
        for name, default in _TURN_DEFAULTS.items():
            setattr(self, name, default)

    def take_aboard(self, ftype: str, damage: int, drones: bool) -> None:
        """Carry one more fighter (ships)."""
        self.aboard = (*self.aboard, ftype)
        self.aboard_damage = (*self.aboard_damage, damage)
        self.aboard_drones = (*self.aboard_drones, drones)

    def take_off(self, index: int) -> tuple[str, int, bool]:
        """Remove the fighter carried at `index`: its type, damage and drone swap."""
        entry = (self.aboard[index], self.aboard_damage[index], self.aboard_drones[index])
        self.aboard = self.aboard[:index] + self.aboard[index + 1 :]
        self.aboard_damage = self.aboard_damage[:index] + self.aboard_damage[index + 1 :]
        self.aboard_drones = self.aboard_drones[:index] + self.aboard_drones[index + 1 :]
        return entry


TURN_CARRIES: tuple[tuple[str, str], ...] = (
    ("power_drain", "drain_next"),
    ("drain_penalty", "drain_penalty_next"),
)
"""(this turn's field, the field set for next turn): All Power to Engines drains the
ship in the turn after it (ACTA-SPA-2, ACTA-SPA-8)."""
TURN_FLAGS: tuple[str, ...] = (
    "move_done",
    "moved",
    "distance_moved",
    "carried",
    "special",
    "special_attempted",
    "special_extra",
    "drain_next",
    "drain_penalty_next",
    "drones_at",
    "fired",
    "fighter_target",
    "attack_done",
    "dogfight_done",
    "barred",
    "on_defensive_fire",
    "interceptors_used",
    "anti_fighter_used",
)
"""The unit fields that last one turn: `UnitState.new_turn` sets each back to its
declared default at the start of a turn (ACTA-SEQ-1)."""
_TURN_DEFAULTS = {
    f.name: f.default for f in msgspec.structs.fields(UnitState) if f.name in TURN_FLAGS
}
# Every per-turn flag has a plain default (no factory), so one value serves every unit.
assert set(_TURN_DEFAULTS) == set(TURN_FLAGS), "a per-turn flag without a plain default"


class PendingIntercept(msgspec.Struct, kw_only=True):
    """An attack waiting while the defender decides whether to intercept it."""

    attacker: str
    protected: str
    fire: Fire | None = None
    """The shot to resume if the defender declines (None: a move into contact)."""
    resume_phase: str = ""
    """The phase to return to once the defender has decided."""
    remaining: tuple[str, ...] = ()
    """Other supported units the attacker touches, offered in turn if this one declines."""


class ActaState(msgspec.Struct, kw_only=True):
    """One position of an ACTA battle."""

    turn: int
    turn_limit: int
    table: Table
    sides: tuple[str, str]
    initiative_bonus: dict[str, int]
    units: dict[str, UnitState]
    types: dict[str, UnitType]
    """The unit types used in this battle."""
    options: dict[str, bool | int | float | str] = msgspec.field(default_factory=dict)
    """The rule options of this game (fixed for the whole game)."""
    phase: str = "setup"
    active: str = ""
    """The side that decides next."""
    initiative: str = ""
    """This turn's initiative winner."""
    loadout_pending: tuple[str, ...] = ()
    zones: dict[str, tuple[float, float, float, float]] = msgspec.field(default_factory=dict)
    """Each side's deployment zone (x_min, x_max, y_min, y_max), if it has one."""
    deploy_pending: tuple[str, ...] = ()
    """Units still to be placed in their zones, in order (ACTA-DEP-4)."""
    ships_to_move: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    moving_ship: str = ""
    fighter_sides: tuple[str, ...] = ()
    """Sides still to move fighters, in order."""
    attack_sides: tuple[str, ...] = ()
    """Sides still to nominate fighter attacks, in order."""
    dogfights: tuple[tuple[str, str], ...] = ()
    """(attacker, enemy) pairs nominated this step."""
    supporters: tuple[str, ...] = ()
    """The nominating side's fighters assigned to support this step."""
    defender_supporters: tuple[str, ...] | None = None
    """The defender's supporting fighters (None: not yet asked)."""
    fought_pairs: tuple[tuple[str, str], ...] = ()
    """Pairs of fighters (ids sorted) that have rolled their dogfight this Attack Phase:
    neither side may roll that pair again until the next one (ACTA-DOG-6)."""
    volley: tuple[Fire, ...] = ()
    """Fighter shots nominated by the side now attacking, not yet resolved (ACTA-FTR-7)."""
    defensive_fire_sides: tuple[str, ...] = ()
    ships_to_fire: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    firing_ship: str = ""
    last_fire_side: str = ""
    launches_pending: tuple[str, ...] = ()
    launch_queue: tuple[tuple[str, str, float, float, float], ...] = ()
    intercept: PendingIntercept | None = None
    destroyed: list[str] = msgspec.field(default_factory=list)
    fallen: tuple[UnitRecord, ...] = ()
    """Destroyed units (fighters lost aboard included) as they were, and by whom: for
    statistics. A tuple, replaced on each loss, so that `clone` may share it."""
    start_strength: dict[str, int] = msgspec.field(default_factory=dict)
    serial: int = 0
    """Counter for ids of launched fighters."""
    outcome: Outcome | None = None

    def clone(self) -> ActaState:
        """An independent copy (units are copied; their fields are immutable or copied)."""
        dup = copy.copy(self)
        dup.units = {}
        for uid, unit in self.units.items():
            u = copy.copy(unit)
            u.criticals = dict(unit.criticals)
            dup.units[uid] = u
        dup.initiative_bonus = dict(self.initiative_bonus)
        dup.ships_to_move = dict(self.ships_to_move)
        dup.ships_to_fire = dict(self.ships_to_fire)
        dup.destroyed = list(self.destroyed)
        dup.start_strength = dict(self.start_strength)
        dup.intercept = copy.copy(self.intercept)
        return dup

    def record_loss(self, unit: UnitState, by: str | None) -> None:
        """Keep a destroyed unit, and each fighter lost aboard it, in `fallen`.

        The killer's side and type are kept with them: a fighter recovered aboard a
        ship later loses its id, and its kills must still count for it."""
        killer = self.units.get(by) if by else None
        by_side: str | None
        by_type: str | None
        if killer is not None:
            by_side, by_type = killer.side, killer.type
        else:  # gone in the same exchange, or unknown
            fallen = next((r for r in self.fallen if r.id == by), None) if by else None
            by_side, by_type = (fallen.side, fallen.type) if fallen else (None, None)
        lost = [(unit.id, unit.type)]
        lost += [(f"{unit.id}/aboard-{k + 1}", ftype) for k, ftype in enumerate(unit.aboard)]
        self.fallen = (
            *self.fallen,
            *(
                UnitRecord(
                    id=uid,
                    side=unit.side,
                    type=utype,
                    strength=float(self.types[utype].damage),
                    remaining=0.0,
                    destroyed=True,
                    destroyed_by=by,
                    destroyed_by_side=by_side,
                    destroyed_by_type=by_type,
                )
                for uid, utype in lost
            ),
        )

    # ---- queries -------------------------------------------------------------

    def unit_type(self, unit: UnitState) -> UnitType:
        """The type of a unit."""
        return self.types[unit.type]

    def other(self, side: str) -> str:
        """The opposing side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def on_table(self, side: str | None = None) -> list[UnitState]:
        """Units on the table (optionally of one side), in id order."""
        return [u for u in self.units.values() if side is None or u.side == side]

    def fighters(self, side: str | None = None) -> list[UnitState]:
        """Fighters on the table."""
        # One pass over the units: this is asked many times per action.
        types = self.types
        return [
            u
            for u in self.units.values()
            if (side is None or u.side == side) and types[u.type].is_fighter
        ]

    def ships(self, side: str | None = None) -> list[UnitState]:
        """Ships on the table."""
        types = self.types
        return [
            u
            for u in self.units.values()
            if (side is None or u.side == side) and not types[u.type].is_fighter
        ]

    def radius(self, unit: UnitState) -> float:
        """Base radius in inches."""
        return self.types[unit.type].base_radius

    def is_fighter(self, unit: UnitState) -> bool:
        """True for fighters."""
        return self.types[unit.type].is_fighter

    def touching(self, a: UnitState, b: UnitState) -> bool:
        """True if two bases are in contact."""
        return in_contact(a.pose.position, self.radius(a), b.pose.position, self.radius(b))

    def enemy_fighters_touching(self, unit: UnitState) -> list[UnitState]:
        """Enemy fighters in base contact with this unit."""
        return list(self._enemy_fighters_touching(unit))

    def _enemy_fighters_touching(self, unit: UnitState) -> Iterator[UnitState]:
        enemy = self.other(unit.side)
        types = self.types
        at, r = unit.pose.position, types[unit.type].base_radius
        x, y, uid = at.x, at.y, unit.id
        # Asked for every fighter at every step (who is locked?): one pass, and
        # `in_contact` written out (the same sums, so the same answer).
        for e in self.units.values():
            if e.side != enemy:
                continue
            etype = types[e.type]
            if not etype.is_fighter or e.id == uid:
                continue
            pos = e.pose.position
            if math.hypot(x - pos.x, y - pos.y) <= r + etype.base_radius + EPSILON:
                yield e

    def engaged(self, fighter: UnitState) -> bool:
        """True if a fighter is locked in a dogfight (touching an enemy fighter)."""
        return next(self._enemy_fighters_touching(fighter), None) is not None

    def supporters_of(self, unit_id: str) -> list[UnitState]:
        """Friendly fighters supporting this unit."""
        return [u for u in self.units.values() if u.supporting == unit_id]

    def position(self, unit_id: str) -> Vec2:
        """Where a unit is."""
        return self.units[unit_id].pose.position
