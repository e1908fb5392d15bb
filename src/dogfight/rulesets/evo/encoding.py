"""EVO's fixed action numbering and observation vector, for `dogfight.rl` (docs/rl.md).

Each flight of a side has a slot (reserves waiting in hyperspace included); a model is
named by its place in its flight's starting line-up. An action's cell is its kind,
those slots and coarse bins of its numbers (a manoeuvre's direction and length). EVO
has no hidden information, so a side sees the whole table.
"""

from __future__ import annotations

import math
from typing import Any

from dogfight.core.encoding import (
    ActionLayout,
    Encoding,
    Memo,
    Slots,
    bin_of,
    sector,
    unit_fields,
)
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.state import EvoState, Flight

PHASES = ("turn_start", "order", "activate", "act", "react", "allocate")
UNIT_FIELDS = (
    "present",
    "x",
    "y",
    "cos_heading",
    "sin_heading",
    "models_left",
    "activated",
    "reacted",
    "suppressed",
    "actions_left",
    "locked_on",
    "in_reserve",
    "active",
    "shot",
    "torpedoes_left",
)
"""Per flight slot (docs/rl.md): what the observation says of each flight."""
MOVE_SECTORS = 8


class EvoEncoding(Encoding):
    """The numbering for one EVO game (built from its first state)."""

    def __init__(self, state: EvoState) -> None:
        per_side = {side: 0 for side in state.sides}
        for flight in state.flights.values():
            per_side[flight.side] += 1
        c = self.capacity = max(per_side.values())
        self.lineup: dict[str, tuple[str, ...]] = {
            f.id: (*f.models, *f.waiting) for f in state.flights.values()
        }
        self._lineup_size = {fid: len(models) or 1 for fid, models in self.lineup.items()}
        self.model_place = {
            mid: k for models in self.lineup.values() for k, mid in enumerate(models)
        }
        m = self.models = max((len(v) for v in self.lineup.values()), default=1) or 1
        self.layout = ActionLayout(
            [
                ("choose_order", [("first", 2)]),
                ("activate", [("unit", c), ("command", 2)]),
                ("manoeuvre", [("unit", c), ("sector", MOVE_SECTORS), ("distance", 3)]),
                ("rotate", [("unit", c)]),
                ("shoot", [("unit", c), ("target", c), ("model", m)]),
                ("ready", [("unit", c), ("target", c)]),
                ("launch", [("unit", c), ("target", c), ("model", m)]),
                ("jump", [("unit", c)]),
                ("end_activation", [("unit", c)]),
                ("react", [("unit", c), ("model", m)]),
                ("decline", [("-", 1)]),
                ("allocate", [("first_model", m), ("dice", 4)]),
            ]
        )
        self.fields = (
            *unit_fields("own", c, UNIT_FIELDS),
            *unit_fields("enemy", c, UNIT_FIELDS),
            "turn",
            "deciding",
            "turn_side",
            "first",
            *(f"phase.{p}" for p in PHASES),
        )
        clock = [0]
        self.slots = {side: Slots(c, clock) for side in state.sides}
        for side, slots in self.slots.items():
            slots.place(fid for fid, f in state.flights.items() if f.side == side)
        self.width, self.height = state.table.width, state.table.height
        self._memo = Memo(clock)
        self._manoeuvre_block = next(b.start for b in self.layout.blocks() if b.kind == "manoeuvre")
        """Where the manoeuvre cells start (flight x 8 sectors x 3 lengths)."""
        # Each flight type's Torpedo launches a battle (EVO-TOR-1): what a flight has
        # left is read from its launches.
        self._torpedoes = {
            tid: sum(w.shots for w in t.weapons if w.trait("Torpedo") is not None)
            for tid, t in state.types.items()
        }

    def _slot(self, state: EvoState, fid: str) -> int:
        flight = state.flights.get(fid)
        return max(0, self.slots[flight.side].of(fid)) if flight is not None else 0

    def _model(self, state: EvoState, mid: str) -> tuple[int, int]:
        """(flight slot, place in the flight) of a model."""
        model = state.models.get(mid)
        return (self._slot(state, model.unit) if model else 0, self.model_place.get(mid, 0))

    def memo_key(self) -> Any:
        """The units holding each slot: the remembered cells depend on nothing else that
        changes from one game of a scenario to the next."""
        return (
            tuple(tuple(s.holders()) for s in self.slots.values()),
            tuple(self.model_place.items()),
        )

    def memo(self) -> Memo:
        """The remembered cells."""
        return self._memo

    def index(self, state: EvoState, action: Any) -> int:
        """The cell of an EVO action of the side deciding now (an action's cell depends
        on the slots only, so it is remembered)."""
        cell = self._memo.get(action)
        return cell if cell is not None else self._memo.put(action, self._index(state, action))

    def cells(self, state: EvoState, actions: list[Any]) -> list[int]:
        """`index` of each action; a flight's manoeuvres (most of its choices, each of
        new lengths) are numbered here directly, its block and Agility looked up once."""
        memo, out = self._memo.table(), []
        start = self._manoeuvre_block
        movers: dict[str, tuple[int, float]] = {}
        for action in actions:
            if type(action) is A.Manoeuvre:
                # Its cell depends on the action, the slots and the flight's Agility
                # only: remembered, as a flight is offered the same shapes turn after turn.
                cell = memo.get(action)
                if cell is not None:
                    out.append(cell)
                    continue
                mover = movers.get(action.unit)
                if mover is None:
                    flight = state.flights.get(action.unit)
                    if flight is None:
                        out.append(self.index(state, action))
                        continue
                    mover = movers[action.unit] = (
                        start + self._slot(state, flight.id) * MOVE_SECTORS * 3,
                        state.types[flight.type].agility * 0.6,
                    )
                moves = action.moves
                n = len(moves) or 1
                dx = sum(m.dx for m in moves) / n
                dy = sum(m.dy for m in moves) / n
                dist = math.hypot(dx, dy)
                if dist <= 0.05:
                    cell = mover[0] + (0 if dist < 0.05 else 1)
                else:
                    far = 1 if dist < mover[1] else 2
                    cell = mover[0] + sector(dx, dy, MOVE_SECTORS) * 3 + far
                out.append(self._memo.put(action, cell))
                continue
            cell = memo.get(action)
            out.append(cell if cell is not None else self.index(state, action))
        return out

    def _index(self, state: EvoState, action: Any) -> int:
        lay, slot = self.layout, self._slot
        if isinstance(action, A.Manoeuvre):
            n = len(action.moves) or 1
            dx = sum(m.dx for m in action.moves) / n
            dy = sum(m.dy for m in action.moves) / n
            flight = state.flights.get(action.unit)
            agility = state.types[flight.type].agility if flight else 1.0
            dist = math.hypot(dx, dy)
            return lay.index(
                "manoeuvre",
                slot(state, action.unit),
                sector(dx, dy, MOVE_SECTORS) if dist > 0.05 else 0,
                bin_of(dist, (0.05, agility * 0.6)),
            )
        if isinstance(action, A.Shoot | A.LaunchTorpedo):
            where, place = self._model(state, action.target)
            kind = "shoot" if isinstance(action, A.Shoot) else "launch"
            return lay.index(kind, slot(state, action.unit), where, place)
        if isinstance(action, A.Activate):
            return lay.index("activate", slot(state, action.unit), 1 if action.command else 0)
        if isinstance(action, A.EndActivation):
            return lay.index("end_activation", slot(state, action.unit))
        if isinstance(action, A.Rotate):
            return lay.index("rotate", slot(state, action.unit))
        if isinstance(action, A.Ready):
            return lay.index("ready", slot(state, action.unit), slot(state, action.target_unit))
        if isinstance(action, A.React):
            place = self._model(state, action.target)[1]
            return lay.index("react", slot(state, action.unit), place)
        if isinstance(action, A.Decline):
            return lay.index("decline", 0)
        if isinstance(action, A.Allocate):
            first = self.model_place.get(action.to[0], 0) if action.to else 0
            return lay.index("allocate", first, len(action.to) - 1)
        if isinstance(action, A.JumpOut):
            return lay.index("jump", slot(state, action.unit))
        if isinstance(action, A.ChooseOrder):
            return lay.index("choose_order", 1 if action.first else 0)
        raise TypeError(f"not an EVO action: {action!r}")

    def observe(self, state: EvoState, side: str) -> list[float]:
        """Own flight slots, enemy flight slots, then the turn, who decides, the phase."""
        out: list[float] = []
        blank = [0.0] * len(UNIT_FIELDS)
        other = state.sides[1] if side == state.sides[0] else state.sides[0]
        for who in (side, other):
            for fid in self.slots[who].holders():
                flight = state.flights.get(fid) if fid is not None else None
                out.extend(self._flight(state, flight) if flight is not None else blank)
        out.append(state.turn / max(1, state.turn_limit))
        out.append(1.0 if state.active == side else 0.0)
        out.append(1.0 if state.turn_side == side else 0.0)
        out.append(1.0 if state.first == side else 0.0)
        out.extend(1.0 if state.phase == p else 0.0 for p in PHASES)
        return out

    def _flight(self, state: EvoState, flight: Flight) -> list[float]:
        lineup = self._lineup_size.get(flight.id, 1)
        shots = self._torpedoes.get(flight.type, 0)
        lead_id = flight.leader or (flight.models[0] if flight.models else "")
        lead = state.models.get(lead_id)
        x = y = cos_h = sin_h = 0.0
        if lead is not None:
            rad = math.radians(lead.pose.heading)
            x = lead.pose.position.x / self.width * 2 - 1
            y = lead.pose.position.y / self.height * 2 - 1
            cos_h, sin_h = math.cos(rad), math.sin(rad)
        return [
            1.0 if flight.models else 0.0,
            x,
            y,
            cos_h,
            sin_h,
            len(flight.models) / lineup,
            1.0 if flight.activated else 0.0,
            1.0 if flight.reacted else 0.0,
            1.0 if flight.suppressed else 0.0,
            max(0, flight.allowed - len(flight.actions)) / 3,
            1.0 if flight.ready_target else 0.0,
            len(flight.waiting) / lineup,
            1.0 if state.active_unit == flight.id else 0.0,
            1.0 if "shoot" in flight.actions else 0.0,
            max(0.0, 1.0 - len(flight.launches) / shots) if shots else 0.0,
        ]
