"""A ruleset's fixed numbering of actions and fixed-size view of a state, for learning.

Reinforcement-learning libraries want a finite action set whose members mean the same
thing in every state (`Discrete(n)`) and a vector of numbers of fixed length. The
engine's actions are records with names and continuous values, and its states are
nested data, so each ruleset says, through `Ruleset.encoding`, how one maps onto the
other:

- `Encoding.index(state, action)` puts any action of the side deciding now into one
  of `size` cells of an `ActionLayout` (unit slot x action kind x a coarse bin of its
  parameters). Several legal actions may share a cell: the cell stands for all of them
  and the first one listed represents it.
- `Encoding.observe(state, side)` is a list of `len(fields)` numbers holding only what
  `side` may see, laid out in per-unit slots (its own units first, then the enemy's).

Units are given slots by `Slots`, in the order they are first seen, so a slot keeps
its unit for the whole game. The generic layer above (`dogfight.rl`) builds action
masks and environments from these; nothing here names a ruleset.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec


class Block(msgspec.Struct, frozen=True):
    """One kind of action's cells: `start` to `start + size`, a product of dimensions."""

    kind: str
    start: int
    dims: tuple[tuple[str, int], ...]
    """(name, number of values) of each coordinate, the last varying fastest."""

    @property
    def size(self) -> int:
        """How many cells the kind takes."""
        return math.prod(n for _, n in self.dims)


class ActionLayout:
    """Numbers the cells of each action kind one after another: `index(kind, *coords)`.

    A coordinate outside its dimension is clamped to the nearest value, so that an
    action with a parameter beyond the bins (a seventh weapon of a six-weapon layout)
    still has a cell."""

    __slots__ = ("_blocks", "_strides", "size")

    def __init__(self, blocks: Sequence[tuple[str, Sequence[tuple[str, int]]]]) -> None:
        self._blocks: dict[str, Block] = {}
        self._strides: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {}
        start = 0
        for kind, dims in blocks:
            if kind in self._blocks:
                raise ValueError(f"action kind '{kind}' given twice")
            if any(n < 1 for _, n in dims):
                raise ValueError(f"action kind '{kind}': every dimension needs a value")
            block = Block(kind, start, tuple((name, int(n)) for name, n in dims))
            self._blocks[kind] = block
            strides: list[tuple[int, int]] = []
            step = block.size
            for _, n in block.dims:
                step //= n
                strides.append((step, n))
            self._strides[kind] = (start, tuple(strides))
            start += block.size
        self.size: int = start
        """How many cells in all: the `n` of `Discrete(n)`."""

    def index(self, kind: str, *coords: int) -> int:
        """The cell of `kind` at `coords` (one per dimension, clamped into range)."""
        start, strides = self._strides[kind]
        if len(coords) != len(strides):
            raise ValueError(f"action kind '{kind}' has {len(strides)} coordinates")
        for k, (step, n) in enumerate(strides):
            c = coords[k]
            start += step * (0 if c < 0 else n - 1 if c >= n else c)
        return start

    def blocks(self) -> list[Block]:
        """The kinds in order, for documentation and `explain`."""
        return list(self._blocks.values())

    def explain(self, index: int) -> str:
        """What cell `index` stands for, e.g. 'fire(unit=2, weapon=0, target=5)'."""
        for block in self._blocks.values():
            if block.start <= index < block.start + block.size:
                rest = index - block.start
                parts: list[str] = []
                step = block.size
                for name, n in block.dims:
                    step //= n
                    parts.append(f"{name}={rest // step}")
                    rest %= step
                return f"{block.kind}({', '.join(parts)})"
        raise ValueError(f"action index {index} is outside 0..{self.size - 1}")


class Slots:
    """Gives each unit of one side a slot from 0 to `capacity - 1`, the first time it is
    seen, and keeps it there while the unit is on the table; a new unit takes the
    lowest slot no unit now present holds. With every slot held, a new unit has none
    (-1) until one frees: an observation then leaves it out."""

    __slots__ = ("_holder", "_of", "capacity", "clock")

    def __init__(self, capacity: int, clock: list[int] | None = None) -> None:
        self.capacity = max(1, capacity)
        self._of: dict[str, int] = {}
        self._holder: list[str | None] = [None] * self.capacity
        self.clock = clock if clock is not None else [0]
        """clock[0] grows each time a unit is given a slot (cells worked out before may
        be stale); several `Slots` may share one clock, and a `Memo` watches it."""

    def place(self, present: Iterable[str]) -> None:
        """Give a slot to each unit of `present` (in that order) that has none yet."""
        keys = list(present)
        if self._of.keys() >= set(keys):  # every one placed already (most calls)
            return
        now = set(keys)
        for key in keys:
            if key in self._of:
                continue
            for slot, holder in enumerate(self._holder):
                if holder is None or holder not in now:
                    if holder is not None:
                        del self._of[holder]
                    self._holder[slot] = key
                    self._of[key] = slot
                    self.clock[0] += 1
                    break

    def of(self, key: str) -> int:
        """The unit's slot (-1 if it has none)."""
        return self._of.get(key, -1)

    def holders(self) -> list[str | None]:
        """The unit in each slot (None: never held)."""
        return list(self._holder)


class Memo:
    """Cells of actions whose cell depends only on the action and the slots: kept until
    a slot changes hands (the slots' shared `clock` moves) or it holds `limit` of them.

    Stale cells are let go by starting a new table, not by emptying the old one, so that
    the table of a game's first slots (`start`) outlives them: a later game of the same
    scenario starting with the same slots takes it over (`Encoding.carry`)."""

    __slots__ = ("_cells", "_clock", "_stamp", "limit", "start")

    def __init__(self, clock: list[int], limit: int = 50_000) -> None:
        self._clock = clock
        self._cells: dict[Any, int] = {}
        self._stamp = -1
        self.limit = limit
        self.start: tuple[Any, dict[Any, int]] | None = None
        """(memo key, table) of the slots the game started with (see `Encoding.carry`)."""

    def get(self, key: Any) -> int | None:
        """The remembered cell of `key`, if still good."""
        stamp = self._clock[0]
        if stamp != self._stamp or len(self._cells) >= self.limit:
            self._cells = {}
            self._stamp = stamp
            return None
        return self._cells.get(key)

    def table(self) -> dict[Any, int]:
        """The remembered cells themselves (a new table when they go stale), for a loop
        over many actions that reads them directly."""
        self.get(None)
        return self._cells

    def put(self, key: Any, cell: int) -> int:
        """Remember `cell` for `key`; returns it."""
        self._cells[key] = cell
        return cell

    def begin(self, key: Any, earlier: Memo | None) -> None:
        """Mark the slots now held (described by `key`) as this game's first, taking
        over `earlier`'s table of its first slots if those were the same."""
        if earlier is not None and earlier.start is not None and earlier.start[0] == key:
            self._cells = earlier.start[1]
            self._stamp = self._clock[0]
        self.start = (key, self.table())


def bin_of(value: float, edges: Sequence[float]) -> int:
    """Which of `len(edges) + 1` bins `value` falls in (edges ascending)."""
    for i, edge in enumerate(edges):
        if value < edge:
            return i
    return len(edges)


def sector(dx: float, dy: float, count: int) -> int:
    """Which of `count` equal sectors (0 along +x, counting anticlockwise) the
    direction (dx, dy) points into."""
    angle = math.atan2(dy, dx) % (2 * math.pi)
    return int(angle / (2 * math.pi) * count + 0.5) % count


class Encoding(ABC):
    """A ruleset's fixed action numbering and observation layout for one scenario.

    Built by `Ruleset.encoding(state)` from a game's first state; it may keep what it
    learns during one game (which unit holds which slot), so each game gets its own."""

    layout: ActionLayout
    """The action cells: `layout.size` is the `n` of `Discrete(n)`."""
    fields: tuple[str, ...]
    """The name of each number of `observe`, e.g. 'own0.x' (for docs/rl.md)."""

    @property
    def size(self) -> int:
        """How many action indices."""
        return self.layout.size

    @abstractmethod
    def index(self, state: Any, action: Any) -> int:
        """The cell of an action of the side deciding now, from 0 to `size - 1`."""

    def cells(self, state: Any, actions: list[Any]) -> list[int]:
        """The cell of each of `actions` (all of the side deciding now): `index` of each,
        unless the ruleset has a quicker way for a whole list."""
        index = self.index
        return [index(state, action) for action in actions]

    @abstractmethod
    def observe(self, state: Any, side: str) -> list[float]:
        """`len(fields)` numbers, mostly in -1..1, holding only what `side` may see."""

    def carry(self, previous: Encoding | None) -> None:
        """Called at the start of a game, `previous` the encoding of the last game of the
        same scenario (a learning environment's reset), if any: this game starts from
        the cells `previous` remembered while its slots were as this game's are now
        (`memo_key`), so that a new game need not work out again the cells of the
        actions offered game after game."""
        key = self.memo_key()
        if key is not None:
            same = previous is not None and type(previous) is type(self)
            earlier = previous.memo() if same and previous is not None else None
            self.memo().begin(key, earlier)

    def memo_key(self) -> Any:
        """What the remembered cells depend on beyond the actions and the scenario (the
        units in each slot, ...), or None for an encoding that remembers none."""
        return None

    def memo(self) -> Memo:
        """The remembered cells (for an encoding whose `memo_key` is not None)."""
        raise NotImplementedError


def unit_fields(prefix: str, count: int, names: Sequence[str]) -> list[str]:
    """Field names of `count` unit slots: 'own0.x', 'own0.y', ..., 'own1.x', ..."""
    return [f"{prefix}{k}.{name}" for k in range(count) for name in names]
