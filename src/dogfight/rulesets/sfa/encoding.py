"""SFA's fixed action numbering and observation vector, for `dogfight.rl` (docs/rl.md).

Each craft of a side has a slot, each actor a station of its craft; an action's cell
is its kind, those slots, the weapon's or technology's place on the craft's sheet and
coarse bins of its numbers (a move's end hex and facing as flown from the start, the
Speed dice traded). A side sees what `observe` shows it: the other side's secret
selections never, its cloaked craft only with Enhanced Sensors, and its decoys as the
craft they pretend to be, slotted by the names the side is shown (SFA-SEQ-1,
SFA-TEC-25, SFA-TEC-16).
"""

from __future__ import annotations

import functools
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
from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa import names as N
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actions import (
    Abort,
    Displace,
    Hologram,
    Interrupt,
    Move,
    Pass,
    Resolve,
    Select,
)
from dogfight.rulesets.sfa.maneuvers import ORIGIN, trace
from dogfight.rulesets.sfa.observe import alias_key
from dogfight.rulesets.sfa.state import CraftState, SfaState

KINDS = ("attack", "equipment", "extra_move", "none")
"""A selection's kinds (an unknown one takes the last cell)."""
ABORTS = ("extra_move", *sorted(T.ABORT_TECHS))
PHASES = ("turn_start", "select", "act")
SPEED_EDGES = (1, 3, 5, 7)
"""Speed dice traded: 0, 1-2, 3-4, 5-6, 7 or more."""
MOVE_DISTANCE_EDGES = (1, 3, 5)
"""Hexes from the start to the end of a move: 0, 1-2, 3-4, 5 or more."""
FREE_MOVE = 99
"""The allowance a move is traced with for its shape (legality is the engine's)."""
UNIT_FIELDS = (
    "present",
    "x",
    "y",
    "cos_facing",
    "sin_facing",
    "structure",
    "power",
    "willpower",
    "disabled",
    "stunned",
    "cloaked",
    "shielded",
    "speed",
    "moved",
    "selected_attack",
    "selected_equipment",
    "selected_move",
)
"""Per craft slot (docs/rl.md); the selections are shown for the side's own craft only."""


Piece = tuple[str, CraftState, Hex, int, bool]
"""A piece as a side is shown it: name, the craft it shows, hex, facing, cloaked."""


def _shown(state: SfaState, side: str) -> list[Piece]:
    """The other side's pieces as `side` is shown them, in the order of their shown
    names (which tells no decoy apart): a decoy shows its projector, cloaked only if the
    side sees the cloaked projector (as `observe.hide_from` shows it)."""
    table = N.names_for(state, side)
    pieces: list[Piece] = []
    # Whether the side sees the other side's cloaked craft depends on its own sensors
    # alone (`side_sees`): asked once, and only if a cloaked craft is met.
    sensors: bool | None = None
    for craft in state.craft.values():
        if craft.side == side:
            continue
        if craft.cloaked:
            if sensors is None:
                sensors = T.side_sees(state, side, craft)
            if not sensors:
                continue
        name = table.get(craft.id, craft.id)
        pieces.append((name, craft, craft.hex, craft.facing, craft.cloaked))
    for decoy in state.decoys.values():
        owner = state.craft.get(decoy.owner)
        if owner is not None and owner.side != side and decoy.on:
            cloaked = owner.cloaked and T.side_sees(state, side, owner)
            pieces.append((table.get(decoy.id, decoy.id), owner, decoy.hex, decoy.facing, cloaked))
    if len(pieces) > 1:
        pieces.sort(key=_piece_key)
    return pieces


def _piece_key(piece: Piece) -> Any:
    return _alias_key(piece[0])


class SfaEncoding(Encoding):
    """The numbering for one SFA game (built from its first state)."""

    def __init__(self, state: SfaState) -> None:
        per_side = {side: 0 for side in state.sides}
        stations = items = 1
        for craft in state.craft.values():
            per_side[craft.side] += 1
            stations = max(stations, 1 + len(craft.gunners))
            kind = state.types[craft.type]
            items = max(items, len(kind.weapons), len(kind.technologies))
        # Decoys show as craft of the other side: room for one per Holo-Projector.
        for craft in state.craft.values():
            if state.types[craft.type].technology("holo_projector") is not None:
                per_side[craft.side] += 1
        c = self.capacity = max(per_side.values())
        self.stations, self.items = stations, items
        s = stations
        self.layout = ActionLayout(
            [
                (
                    "select",
                    [
                        ("craft", c),
                        ("station", s),
                        ("kind", len(KINDS)),
                        ("item", items),
                        ("speed_dice", len(SPEED_EDGES) + 1),
                    ],
                ),
                ("interrupt", [("craft", c), ("station", s)]),
                ("pass", [("-", 1)]),
                (
                    "move",
                    [
                        ("craft", c),
                        ("direction", 7),
                        ("distance", len(MOVE_DISTANCE_EDGES) + 1),
                        ("turn", 6),
                        ("abort", 3),
                        ("ram", 2),
                    ],
                ),
                (
                    "resolve",
                    [
                        ("craft", c),
                        ("station", s),
                        ("target", c + 2),
                        ("willpower", 2),
                        ("extra", 5),
                    ],
                ),
                ("abort", [("craft", c), ("station", s), ("to", len(ABORTS))]),
                ("displace", [("craft", c), ("use", 2)]),
                ("hologram", [("craft", c), ("on", 2)]),
            ]
        )
        self.fields = (
            *unit_fields("own", c, UNIT_FIELDS),
            *unit_fields("enemy", c, UNIT_FIELDS),
            "turn",
            "deciding",
            *(f"phase.{p}" for p in PHASES),
        )
        clock = [0]
        self.own = {side: Slots(c, clock) for side in state.sides}
        self.seen = {side: Slots(c, clock) for side in state.sides}
        """Slots of the other side's pieces as each side is shown them (by shown name)."""
        self.width, self.height = max(1, state.map.width), max(1, state.map.height)
        self._memo = Memo(clock)
        move = next(b for b in self.layout.blocks() if b.kind == "move")
        self._move_block = (move.start, move.size // c)
        """Where the move cells start, and how many each craft has."""
        self._scales: dict[str, tuple[int, int, int]] = {}
        """Per craft type: its structure, power and move, each at least 1."""
        self._present: dict[str, tuple[str, ...]] = {}
        """Per side: the craft on the map when its own craft were last given slots."""
        self._blank = [0.0] * len(UNIT_FIELDS)
        self._speeds: dict[str, int] = {}
        self._selected: dict[str, set[str]] = {}
        for side in state.sides:
            self._place(state, side)

    def _place(self, state: SfaState, side: str) -> list[Piece]:
        # A side's own craft need new slots only when the craft on the map change.
        present = tuple(state.craft)
        if self._present.get(side) != present:
            self.own[side].place(cid for cid, c in state.craft.items() if c.side == side)
            self._present[side] = present
        shown = _shown(state, side)
        self.seen[side].place([piece[0] for piece in shown])
        return shown

    def _own(self, state: SfaState, craft_id: str) -> int:
        craft = state.craft.get(craft_id)
        if craft is None:
            return 0
        slots = self.own[craft.side]
        if slots.of(craft_id) < 0:
            self._place(state, craft.side)
        return max(0, slots.of(craft_id))

    def _actor(self, state: SfaState, key: str) -> tuple[int, int]:
        """(craft slot, station) of an actor key 'craft#station' (a bare craft id: its
        pilot, so that any action, legal or not, has a cell)."""
        craft_id, mark, station = key.rpartition("#")
        if not mark or not station.isdigit():
            return self._own(state, key), 0
        return self._own(state, craft_id), int(station)

    def _target(self, state: SfaState, target: str) -> int:
        """0: none; 1 + slot: a piece of the other side as shown; the last: anything else."""
        if not target:
            return 0
        side = state.active
        name = N.shown_name(state, side, target)
        slot = self.seen[side].of(name) if side in self.seen else -1
        if slot < 0 and side in self.seen:
            self._place(state, side)
            slot = self.seen[side].of(name)
        return 1 + slot if slot >= 0 else self.capacity + 1

    def memo_key(self) -> Any:
        """The units holding each slot: the remembered cells depend on nothing else that
        changes from one game of a scenario to the next."""
        return tuple(tuple(s.holders()) for s in (*self.own.values(), *self.seen.values()))

    def memo(self) -> Memo:
        """The remembered cells."""
        return self._memo

    def index(self, state: SfaState, action: Any) -> int:
        """The cell of an SFA action of the side deciding now. A move's cell depends on
        the slots and the facing it starts from, and most others' on the slots only:
        those are remembered (turn after turn the same moves are offered)."""
        if isinstance(action, Move):
            if action.dest is not None:
                return self._move(state, action)
            craft = state.craft.get(action.craft)
            key: Any = (action, craft.facing if craft is not None else 0)
        elif isinstance(action, Resolve) and action.target:
            return self._index(state, action)  # the target's shown name may change
        else:
            key = action
        cell = self._memo.get(key)
        return cell if cell is not None else self._memo.put(key, self._index(state, action))

    def cells(self, state: SfaState, actions: list[Any]) -> list[int]:
        """`index` of each action. A decision offers some forty moves: a move's cell is
        its craft's block plus a part that depends only on the facing, the steps, the
        abort and the ram (`_move_part`, worked out once for every game); those cells
        are kept by block, facing, abort and ram, keyed by the steps alone, and the
        engine lists a craft's moves in runs of the same abort and ram, so most of a
        movement decision is one lookup per move. The rest go through `index`."""
        memo, crafts = self._memo.table(), state.craft
        out: list[int] = []
        append = out.append
        start, width = self._move_block
        craft_id: str | None = None
        abort, ram = "", False
        base = facing = 0
        kept: dict[str, int] = {}
        for action in actions:
            kind = type(action)
            if kind is Move and action.dest is None:
                if action.craft != craft_id or action.abort != abort or action.ram != ram:
                    craft = crafts.get(action.craft)
                    if craft is None:
                        craft_id = None
                        append(self.index(state, action))
                        continue
                    craft_id, facing = action.craft, craft.facing
                    abort, ram = action.abort, action.ram
                    base = start + width * min(self.capacity - 1, self._own(state, craft.id))
                    kept = self._kept_moves(base, facing, abort, ram)
                cell = kept.get(action.steps)
                if cell is None:
                    cell = kept[action.steps] = base + _move_part(facing, action.steps, abort, ram)
                append(cell)
                continue
            if kind is Move:
                # A Teleport or a Tractor Beam drag: its cell depends on the craft's
                # slot and the offset to its end, so it is remembered with the hex the
                # craft starts from (a teleport offers every hex within reach).
                craft = crafts.get(action.craft)
                key = (action, craft.hex if craft is not None else None)
                cell = memo.get(key)
                append(cell if cell is not None else self._memo.put(key, self._move(state, action)))
                continue
            cell = None if kind is Resolve and action.target else memo.get(action)
            append(cell if cell is not None else self.index(state, action))
        return out

    @staticmethod
    def _kept_moves(base: int, facing: int, abort: str, ram: bool) -> dict[str, int]:
        """The cells of the moves (steps to cell) of the craft block at `base` flying
        from `facing` with this abort and ram: a pure function of the four (the block's
        first cell plus `_move_part`), so kept for every game of every scenario, as a
        new game's encoding would otherwise number its moves afresh (emptied if it
        ever grows large)."""
        key = (base, facing, abort, ram)
        table = _KEPT.get(key)
        if table is None:
            if len(_KEPT) >= 4096:
                _KEPT.clear()
            table = _KEPT[key] = {}
        elif len(table) >= 4096:
            table.clear()
        return table

    def _index(self, state: SfaState, action: Any) -> int:
        lay = self.layout
        if isinstance(action, Move):
            return self._move(state, action)
        if isinstance(action, Select):
            craft, station = self._actor(state, action.actor)
            kind = KINDS.index(action.kind) if action.kind in KINDS else len(KINDS) - 1
            return lay.index(
                "select",
                craft,
                station,
                kind,
                self._item(state, action),
                bin_of(action.speed_dice, SPEED_EDGES),
            )
        if isinstance(action, Resolve):
            craft, station = self._actor(state, action.actor)
            extra = 0
            if action.power:
                extra = 1
            elif action.at is not None:
                extra = 2
            elif action.form:
                extra = 3
            elif action.use:
                extra = 4
            return lay.index(
                "resolve",
                craft,
                station,
                self._target(state, action.target),
                1 if action.willpower else 0,
                extra,
            )
        if isinstance(action, Pass):
            return lay.index("pass", 0)
        if isinstance(action, Interrupt):
            return lay.index("interrupt", *self._actor(state, action.actor))
        if isinstance(action, Abort):
            to = ABORTS.index(action.to) if action.to in ABORTS else 0
            return lay.index("abort", *self._actor(state, action.actor), to)
        if isinstance(action, Displace):
            return lay.index("displace", self._own(state, action.craft), 1 if action.use else 0)
        if isinstance(action, Hologram):
            return lay.index("hologram", self._own(state, action.craft), 1 if action.on else 0)
        raise TypeError(f"not an SFA action: {action!r}")

    def _item(self, state: SfaState, action: Select) -> int:
        """The weapon's or technology's place on the craft's sheet."""
        craft = state.craft.get(action.actor.rpartition("#")[0])
        if craft is None or not action.item:
            return 0
        kind = state.types[craft.type]
        if action.kind == "attack":
            names = [w.name for w in kind.weapons]
        else:
            names = [t.id for t in kind.technologies]
        return names.index(action.item) if action.item in names else 0

    def _move(self, state: SfaState, action: Move) -> int:
        craft = state.craft.get(action.craft)
        if action.dest is not None and craft is not None:
            end = action.dest - craft.hex
            direction, distance, turned = (*_offset(end.q, end.r), 0)
        else:
            direction, distance, turned = _shape(craft.facing if craft else 0, action.steps)
        abort = 0 if not action.abort else 1 if action.abort == "extra_move" else 2
        return self.layout.index(
            "move",
            self._own(state, action.craft),
            direction,
            distance,
            turned,
            abort,
            1 if action.ram else 0,
        )

    def observe(self, state: SfaState, side: str) -> list[float]:
        """Own craft slots, the other side's shown pieces' slots, the turn, the phase."""
        shown = self._place(state, side)
        # Each craft's highest Speed and its own selections' kinds, read in one pass.
        speeds: dict[str, int] = {}
        for key, value in state.speeds.items():
            cid = key.rpartition("#")[0]
            speeds[cid] = max(value, speeds.get(cid, 0))
        selected: dict[str, set[str]] = {}
        crafts = state.craft
        for key, sel in state.selections.items():
            owner = crafts.get(key.rpartition("#")[0])
            if owner is not None and owner.side == side:
                selected.setdefault(owner.id, set()).add(sel.kind)
        self._speeds, self._selected = speeds, selected
        out: list[float] = []
        blank = self._blank
        row = self._craft
        for held in self.own[side].holders():
            craft = crafts.get(held) if held is not None else None
            if craft is None:
                out += blank
            else:
                out += row(state, craft, craft.hex, craft.facing, craft.cloaked, True)
        by_name = {piece[0]: piece[1:] for piece in shown}
        for name in self.seen[side].holders():
            piece = by_name.get(name) if name is not None else None
            out += row(state, *piece, False) if piece is not None else blank
        out.append(state.turn / max(1, state.turn_limit))
        out.append(1.0 if state.active == side else 0.0)
        out += _PHASE_FLAGS.get(state.phase, _NO_PHASE)
        return out

    def _craft(
        self,
        state: SfaState,
        craft: CraftState,
        where: Hex,
        facing: int,
        cloaked: bool,
        own: bool,
    ) -> list[float]:
        scale = self._scales.get(craft.type)
        if scale is None:
            kind = state.types[craft.type]
            scale = self._scales[craft.type] = (
                max(1, kind.structure),
                max(1, kind.power),
                max(1, kind.move),
            )
        structure, power, move = scale
        col, row = where.q, where.r + (where.q - (where.q & 1)) // 2
        trig = _TRIG.get(facing)
        if trig is None:
            trig = (math.cos(facing * math.pi / 3), math.sin(facing * math.pi / 3))
        speed = self._speeds.get(craft.id, 0) / 20
        moved = craft.hexes_moved / move
        willpower = craft.pilot.willpower
        selected = self._selected.get(craft.id, ()) if own else ()
        # The same numbers as min(1.0, x) and max(1, n) would give, without the calls.
        return [
            1.0,
            col / self.width * 2 - 1,
            row / self.height * 2 - 1,
            trig[0],
            trig[1],
            craft.structure / structure,
            craft.power / power,
            craft.willpower / (willpower if willpower > 1 else 1),
            1.0 if craft.disabled else 0.0,
            1.0 if craft.stunned else 0.0,
            1.0 if cloaked else 0.0,
            1.0 if craft.force_field or craft.plasma_field else 0.0,
            speed if speed < 1.0 else 1.0,
            moved if moved < 1.0 else 1.0,
            1.0 if "attack" in selected else 0.0,
            1.0 if "equipment" in selected else 0.0,
            1.0 if "extra_move" in selected else 0.0,
        ]


_KEPT: dict[tuple[int, int, str, bool], dict[str, int]] = {}
"""Move cells by craft block's first cell, facing, abort and ram, then steps
(`SfaEncoding._kept_moves`)."""

_PHASE_FLAGS = {p: tuple(1.0 if q == p else 0.0 for q in PHASES) for p in PHASES}
"""The observation's phase numbers for each phase (all zeros for any other: `_NO_PHASE`)."""
_NO_PHASE = (0.0,) * len(PHASES)

_TRIG = {f: (math.cos(f * math.pi / 3), math.sin(f * math.pi / 3)) for f in range(6)}
"""(cos, sin) of each facing, as `_craft` would work them out."""


_alias_key = functools.lru_cache(maxsize=1 << 12)(alias_key)
"""`alias_key`, remembered: the same few names are sorted at every observation."""


def _offset(q: int, r: int) -> tuple[int, int]:
    """(direction cell: 0 none, 1-6 the sixth of the plane; distance bin) of a hex offset."""
    distance = (abs(q) + abs(r) + abs(q + r)) // 2
    direction = 1 + sector(q + r / 2, r * math.sqrt(3) / 2, 6) if distance else 0
    return direction, bin_of(distance, MOVE_DISTANCE_EDGES)


@functools.lru_cache(maxsize=1 << 14)
def _shape(facing: int, steps: str) -> tuple[int, int, int]:
    """A move's (direction, distance bin, facing change) as flown from `facing`: the same
    for every craft and place, so worked out once."""
    path = trace(ORIGIN, facing, steps, FREE_MOVE)
    return (*_offset(path.end.q, path.end.r), (path.facing - facing) % 6)


@functools.lru_cache(maxsize=1 << 15)
def _move_part(facing: int, steps: str, abort: str, ram: bool) -> int:
    """A move's cell within its craft's block (the layout's `move` dimensions after
    `craft`, the last varying fastest), as `SfaEncoding.index` numbers it."""
    direction, distance, turned = _shape(facing, steps)
    aborting = 0 if not abort else 1 if abort == "extra_move" else 2
    bins = len(MOVE_DISTANCE_EDGES) + 1
    return (((direction * bins + distance) * 6 + turned) * 3 + aborting) * 2 + (1 if ram else 0)
