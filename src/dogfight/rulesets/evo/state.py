"""EVO game state: flights of models on the table and where the turn stands."""

from __future__ import annotations

import copy

import msgspec

from dogfight.core.ruleset import Outcome
from dogfight.geometry import Pose, Table, Vec2
from dogfight.rulesets.evo.units import UnitType


class Model(msgspec.Struct, kw_only=True):
    """One fighter. Its heading is its facing: the direction it drifts."""

    id: str
    unit: str
    pose: Pose
    start: Vec2 | None = None
    """Where it was before this activation's drift: the course change is measured from it."""


class Gate(msgspec.Struct, frozen=True, kw_only=True):
    """A jump gate on the table (EVO-GATE-1)."""

    id: str
    position: Vec2
    heading: float
    radius: float


class Flight(msgspec.Struct, kw_only=True):
    """A unit of models with a leader."""

    id: str
    type: str
    side: str
    models: tuple[str, ...]
    """Ids of the models still on the table, leader first."""
    leader: str
    """'' once the leader is lost and until a new one is named (EVO-CMD-2)."""
    activated: bool = False
    reacted: bool = False
    actions: tuple[str, ...] = ()
    """Actions taken in the current activation, in order."""
    allowed: int = 2
    """Actions allowed in the current activation."""
    acting: tuple[str, ...] = ()
    """Models in command at the start of this activation: the ones that act (EVO-CMD-1)."""
    ready_target: str = ""
    """The flight its Lock-on weapons are locked on to this activation (EVO-RDY-1)."""
    gave_command: bool = False
    """Its Command bonus action has been given this turn (EVO-CMD-3)."""
    suppressed: bool = False
    """Suppressed: one action fewer in its next activation (EVO-SUP-1)."""
    start_models: int = 0
    destroyed: int = 0
    """Models destroyed by enemy fire: what the enemy scores (EVO-WIN-2)."""
    friendly_losses: int = 0
    """Models destroyed by their own side's fire zones (EVO-SHT-2)."""
    disengaged: int = 0
    lost_to: str = ""
    """The flight that destroyed its last model, once it has none left (for statistics)."""
    reserve: str = ""
    """The jump gate it will arrive through, while it waits in hyperspace (EVO-GATE-2)."""
    arrive_turn: int = 0
    waiting: tuple[str, ...] = ()
    """Ids of its models still in hyperspace, leader first (EVO-GATE-2)."""
    jumped: int = 0
    """Models that left the table through a jump gate (EVO-GATE-3)."""
    launches: tuple[str, ...] = ()
    """One entry per torpedo launch: the weapon's name (EVO-TOR-1)."""
    launching: bool = False
    """True while a torpedo launch resolves: only Torpedo weapons fire (EVO-TOR-1)."""


class PendingReaction(msgspec.Struct, kw_only=True):
    """A reaction window opened by an enemy action (EVO-REA-1)."""

    trigger: str
    """The flight whose action triggered it."""
    shot_at: tuple[str, ...] = ()
    """Flights that had models in the fire zone of the triggering Shoot."""
    declined: tuple[str, ...] = ()


class PendingShot(msgspec.Struct, kw_only=True):
    """A Shoot waiting for its firing player to allocate the dice left over (EVO-SHT-4)."""

    flight: str
    target: str
    reaction: bool
    firers: tuple[str, ...]
    given: dict[str, list[tuple[int, int]]]
    """Each zone model's dice so far: (face, AP)."""
    rest: list[tuple[int, int]]
    """The dice to allocate, highest first."""
    takers: tuple[str, ...]
    """The models that may take them, nearest the firers first."""
    shot_at: tuple[str, ...]
    before: dict[str, int]
    """Models per flight when the Shoot began (EVO-SUP-1)."""


_ID_ORDER: dict[tuple[str, ...], tuple[str, ...]] = {}
"""Flight keys in table order -> the same keys sorted. A game's flights never change
once set up, so every position of it (and its clones) shares one entry, and asking is
a look-up instead of a sort at every step."""


def id_order(flights: dict[str, Flight]) -> tuple[str, ...]:
    """The keys of `flights` (each flight's id: setup keys them so) in id order."""
    keys = tuple(flights)
    found = _ID_ORDER.get(keys)
    if found is None:
        if len(_ID_ORDER) > 1024:
            _ID_ORDER.clear()  # bounded over a long run of many different games
        found = _ID_ORDER[keys] = tuple(sorted(keys))
    return found


class EvoState(msgspec.Struct, kw_only=True):
    """One position of an EVO battle."""

    turn: int
    turn_limit: int
    table: Table
    sides: tuple[str, str]
    flights: dict[str, Flight]
    models: dict[str, Model]
    types: dict[str, UnitType]
    options: dict[str, bool | int | float | str] = msgspec.field(default_factory=dict)
    first: str = ""
    """The side that takes the first player turn of every game turn."""
    roll_winner: str = ""
    """The side that won the roll-off and chooses the order (EVO-SEQ-1)."""
    phase: str = "turn_start"
    active: str = ""
    """The side that decides next."""
    turn_side: str = ""
    """Player-turn mode: the side whose player turn it is."""
    active_unit: str = ""
    reaction: PendingReaction | None = None
    gates: dict[str, Gate] = msgspec.field(default_factory=dict)
    """Jump gates by id (EVO-GATE-1)."""
    start_points: dict[str, int] = msgspec.field(default_factory=dict)
    shot: PendingShot | None = None
    """A Shoot waiting for the attacker's allocation (phase 'allocate')."""
    outcome: Outcome | None = None

    def clone(self) -> EvoState:
        """An independent copy."""
        dup = copy.copy(self)
        dup.flights = {k: copy.copy(v) for k, v in self.flights.items()}
        dup.models = {k: copy.copy(v) for k, v in self.models.items()}
        dup.reaction = copy.copy(self.reaction)
        dup.shot = copy.deepcopy(self.shot)
        dup.start_points = dict(self.start_points)
        return dup

    # ---- queries -------------------------------------------------------------------

    def other(self, side: str) -> str:
        """The opposing side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def unit_type(self, flight: Flight) -> UnitType:
        """A flight's type."""
        return self.types[flight.type]

    def flight_of(self, model: Model) -> Flight:
        """The flight a model belongs to."""
        return self.flights[model.unit]

    def type_of(self, model: Model) -> UnitType:
        """A model's unit type."""
        return self.types[self.flights[model.unit].type]

    def flights_by_id(self) -> list[Flight]:
        """Every flight, in id order."""
        flights = self.flights
        return [flights[k] for k in id_order(flights)]

    def live_flights(self, side: str | None = None) -> list[Flight]:
        """Flights with models on the table, in id order."""
        return [f for f in self.flights_by_id() if f.models and (side is None or f.side == side)]

    def models_of(self, flight: Flight) -> list[Model]:
        """The flight's models on the table, leader first."""
        return [self.models[m] for m in flight.models]

    def radius(self, model: Model) -> float:
        """Base radius."""
        return self.type_of(model).base_radius
