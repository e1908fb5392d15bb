"""ACTA's fixed action numbering and observation vector, for `dogfight.rl` (docs/rl.md).

Every unit of a side (ships, fighters on the table, and room for the fighters its
carriers may launch) has a slot; an action's cell is its kind, the slots it names and
coarse bins of its numbers (a move's direction and length, a weapon's place on the
unit's card). ACTA has no hidden information, so a side sees the whole table.
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
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.ruleset import SPECIAL_ACTIONS
from dogfight.rulesets.acta.state import ActaState, UnitState

SPECIALS = tuple(SPECIAL_ACTIONS)
"""Special Action names in the rules' order (an unknown name takes the last cell)."""
DRAINS = ("move", "phasers", "one_system")
PHASES = (
    "setup",
    "deploy",
    "turn_start",
    "ship_move",
    "fighter_order",
    "fighter_move",
    "movement_end",
    "intercept",
    "defensive_fire",
    "fighter_attack",
    "fighter_fire",
    "ship_fire",
    "launch",
    "end",
)
UNIT_FIELDS = (
    "present",
    "x",
    "y",
    "cos_heading",
    "sin_heading",
    "damage_left",
    "fighter",
    "crippled",
    "supporting",
    "moved",
    "attack_done",
    "weapons_ready",
    "aboard",
    "shields",
)
"""Per unit slot (docs/rl.md): what the observation says of each unit."""
MOVE_SECTORS = 8
FIGHTER_DISTANCE_EDGES = (0.5, 4.0)
"""A fighter's move: stay, short (under 4"), long."""
SHIP_TURN_EDGES = (-67.5, -22.5, 22.5, 67.5)
SHIP_DISTANCE_EDGES = (0.5, 4.5, 8.5)


class ActaEncoding(Encoding):
    """The numbering for one ACTA game (built from its first state)."""

    def __init__(self, state: ActaState) -> None:
        per_side = {side: 0 for side in state.sides}
        for unit in state.units.values():
            per_side[unit.side] += 1 + len(unit.aboard)
        self.capacity = max(per_side.values())
        c = self.capacity
        self.weapons = max((len(t.weapons) for t in state.types.values()), default=1) or 1
        self.layout = ActionLayout(
            [
                ("loadout", [("swapped", 3)]),
                ("deploy", [("unit", c), ("cell", 9)]),
                ("special", [("unit", c), ("name", len(SPECIALS)), ("variant", 4)]),
                ("move_ship", [("unit", c), ("turn", 5), ("distance", 4)]),
                ("fighter_order", [("other_first", 2)]),
                ("move_fighter", [("unit", c), ("sector", MOVE_SECTORS), ("distance", 3),
                                  ("support", 2)]),
                ("recover", [("unit", c)]),
                ("end_movement", [("-", 1)]),
                ("intercept", [("fighters", 4)]),
                ("defensive_fire", [("fighters", 4)]),
                ("dogfight", [("unit", c), ("enemy", c)]),
                ("support", [("unit", c)]),
                ("defender_support", [("fighters", 4)]),
                ("fire", [("unit", c), ("weapon", self.weapons), ("target", c)]),
                ("end_attacks", [("unit", c + 1)]),
                ("launch", [("ship", c), ("launches", 2), ("sector", 4)]),
            ]
        )
        self.fields = (
            *unit_fields("own", c, UNIT_FIELDS),
            *unit_fields("enemy", c, UNIT_FIELDS),
            "turn",
            "deciding",
            "initiative",
            *(f"phase.{p}" for p in PHASES),
        )
        clock = [0]
        self.slots = {side: Slots(c, clock) for side in state.sides}
        self._memo = Memo(clock)
        self._fighter_block = next(
            b.start for b in self.layout.blocks() if b.kind == "move_fighter"
        )
        """Where a fighter's move cells start (unit x 8 sectors x 3 lengths x support)."""
        self.width, self.height = state.table.width, state.table.height
        self._present: tuple[str, ...] = ()
        # What the cells and the observation read of each unit type, looked up once.
        self._weapon = {
            (tid, w.name): k
            for tid, t in state.types.items()
            for k, w in reversed(list(enumerate(t.weapons)))
        }
        self._kind = {
            tid: (
                max(1, t.damage),
                1.0 if t.is_fighter else 0.0,
                len(t.weapons),
                max(1, t.shields) if t.shields else 0,
            )
            for tid, t in state.types.items()
        }
        self._place(state)

    def _place(self, state: ActaState) -> None:
        """Slot every unit on the table (a new launch takes a free slot); nothing to do
        while the table holds the units it held last time."""
        present = tuple(state.units)
        if present == self._present:
            return
        for side, slots in self.slots.items():
            slots.place(uid for uid, u in state.units.items() if u.side == side)
        self._present = present

    def _slot(self, state: ActaState, uid: str) -> int:
        unit = state.units.get(uid)
        if unit is None:
            return 0
        slots = self.slots[unit.side]
        if slots.of(uid) < 0:
            self._place(state)
        return max(0, slots.of(uid))

    def index(self, state: ActaState, action: Any) -> int:
        """The cell of an ACTA action of the side deciding now. A fighter's move and a
        launch are placed from where the unit stands and the fighter order from who
        decides; any other action's cell depends on the slots only, so it is remembered."""
        if isinstance(action, A.MoveFighter | A.Launch | A.FighterOrder):
            return self._index(state, action)
        cell = self._memo.get(action)
        return cell if cell is not None else self._memo.put(action, self._index(state, action))

    def cells(self, state: ActaState, actions: list[Any]) -> list[int]:
        """`index` of each action; a fighter's moves (most of a movement decision) are
        numbered here directly, from the mover's place looked up once."""
        memo, units, out = self._memo.table(), state.units, []
        start = self._fighter_block
        movers: dict[str, tuple[int, float, float]] = {}
        low, high = FIGHTER_DISTANCE_EDGES
        for action in actions:
            kind = type(action)
            if kind is A.MoveFighter:
                mover = movers.get(action.unit)
                if mover is None:
                    unit = units.get(action.unit)
                    if unit is None:
                        out.append(self.index(state, action))
                        continue
                    pos = unit.pose.position
                    base = start + self._slot(state, unit.id) * MOVE_SECTORS * 6
                    mover = movers[action.unit] = (base, pos.x, pos.y)
                dx, dy = action.x - mover[1], action.y - mover[2]
                dist = math.hypot(dx, dy)
                part = sector(dx, dy, MOVE_SECTORS) if dist >= low else 0
                far = 0 if dist < low else 1 if dist < high else 2
                out.append(mover[0] + (part * 3 + far) * 2 + (1 if action.support else 0))
                continue
            cell = None if kind is A.Launch or kind is A.FighterOrder else memo.get(action)
            out.append(cell if cell is not None else self.index(state, action))
        return out

    def _index(self, state: ActaState, action: Any) -> int:
        lay, slot = self.layout, self._slot
        if isinstance(action, A.Fire):
            unit = state.units.get(action.unit)
            weapon = self._weapon.get((unit.type, action.weapon), 0) if unit is not None else 0
            return lay.index(
                "fire", slot(state, action.unit), weapon, slot(state, action.target)
            )
        if isinstance(action, A.MoveFighter):
            unit = state.units.get(action.unit)
            dx = dy = 0.0
            if unit is not None:
                dx = action.x - unit.pose.position.x
                dy = action.y - unit.pose.position.y
            dist = math.hypot(dx, dy)
            return lay.index(
                "move_fighter",
                slot(state, action.unit),
                sector(dx, dy, MOVE_SECTORS) if dist >= FIGHTER_DISTANCE_EDGES[0] else 0,
                bin_of(dist, FIGHTER_DISTANCE_EDGES),
                1 if action.support else 0,
            )
        if isinstance(action, A.MoveShip):
            turn = sum(leg.turn for leg in action.legs)
            distance = sum(leg.distance for leg in action.legs)
            return lay.index(
                "move_ship",
                slot(state, action.unit),
                bin_of(turn, SHIP_TURN_EDGES),
                bin_of(distance, SHIP_DISTANCE_EDGES),
            )
        if isinstance(action, A.EndAttacks):
            return lay.index("end_attacks", slot(state, action.unit) + 1 if action.unit else 0)
        if isinstance(action, A.Dogfight):
            return lay.index("dogfight", slot(state, action.unit), slot(state, action.enemy))
        if isinstance(action, A.EndMovement):
            return lay.index("end_movement", 0)
        if isinstance(action, A.Deploy):
            col = min(2, max(0, int(action.x / self.width * 3)))
            row = min(2, max(0, int(action.y / self.height * 3)))
            return lay.index("deploy", slot(state, action.unit), row * 3 + col)
        if isinstance(action, A.DeclareSpecial):
            name = SPECIALS.index(action.name) if action.name in SPECIALS else len(SPECIALS) - 1
            variant = action.extra
            if action.drain:
                variant = DRAINS.index(action.drain) + 1 if action.drain in DRAINS else 0
            return lay.index("special", slot(state, action.unit), name, variant)
        if isinstance(action, A.FighterOrder):
            return lay.index("fighter_order", 0 if action.first == state.active else 1)
        if isinstance(action, A.Recover):
            return lay.index("recover", slot(state, action.unit))
        if isinstance(action, A.Intercept):
            return lay.index("intercept", len(action.fighters))
        if isinstance(action, A.DefensiveFire):
            return lay.index("defensive_fire", len(action.fighters))
        if isinstance(action, A.Support):
            return lay.index("support", slot(state, action.unit))
        if isinstance(action, A.DefenderSupport):
            return lay.index("defender_support", len(action.fighters))
        if isinstance(action, A.Launch):
            ship = state.units.get(action.ship)
            where = 0
            if ship is not None and action.fighter:
                dx = action.x - ship.pose.position.x
                dy = action.y - ship.pose.position.y
                where = sector(dx, dy, 4)
            return lay.index("launch", slot(state, action.ship), 1 if action.fighter else 0, where)
        if isinstance(action, A.ChooseLoadout):
            return lay.index("loadout", len(action.swap) + len(action.swap_aboard))
        raise TypeError(f"not an ACTA action: {action!r}")

    def observe(self, state: ActaState, side: str) -> list[float]:
        """Own slots, enemy slots, then the turn, who decides and the phase."""
        self._place(state)
        out: list[float] = []
        blank = [0.0] * len(UNIT_FIELDS)
        for who in (side, state.other(side)):
            for uid in self.slots[who].holders():
                unit = state.units.get(uid) if uid is not None else None
                out.extend(self._unit(state, unit) if unit is not None else blank)
        out.append(state.turn / max(1, state.turn_limit))
        out.append(1.0 if state.active == side else 0.0)
        out.append(1.0 if state.initiative == side else 0.0)
        out.extend(1.0 if state.phase == p else 0.0 for p in PHASES)
        return out

    def _unit(self, state: ActaState, unit: UnitState) -> list[float]:
        damage, fighter, weapons, shields = self._kind[unit.type]
        pos = unit.pose.position
        rad = math.radians(unit.pose.heading)
        return [
            1.0,
            pos.x / self.width * 2 - 1,
            pos.y / self.height * 2 - 1,
            math.cos(rad),
            math.sin(rad),
            unit.damage / damage,
            fighter,
            1.0 if unit.crippled else 0.0,
            1.0 if unit.supporting else 0.0,
            1.0 if unit.moved or unit.move_done else 0.0,
            1.0 if unit.attack_done else 0.0,
            1.0 - len(unit.fired) / weapons if weapons else 0.0,
            min(1.0, len(unit.aboard) / 12),
            unit.shields / shields if shields else 0.0,
        ]
