"""One game seen through its ruleset's encoding: masks, observations, rewards.

Both environments (`aec.py`, `gym.py`) drive a `Driver`. At each decision it maps every
legal action to its cell (`Encoding.index`); the first action listed for a cell stands
for it, so the mask is 1 exactly on the cells holding a legal action, and `decode`
of such a cell gives that action back (of any other cell, it refuses). Stepping with a
cell the mask leaves out plays the legal action of the nearest cell holding one, so an
agent that ignores the mask still plays legally.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

import numpy as np

from dogfight.core.encoding import Encoding
from dogfight.core.errors import DataError
from dogfight.core.game import Game
from dogfight.core.limits import SEED_MAX
from dogfight.core.scenario import Scenario, load_scenario
from dogfight.dice import derive_seed

REWARDS = ("outcome", "damage")
"""The reward schemes: +1/-1/0 at the end, or per-step damage dealt minus taken."""
OBS_LIMIT = 2.0
"""Every observation number lies in -OBS_LIMIT..OBS_LIMIT (clipped there)."""


def as_scenario(scenario: Scenario | str) -> Scenario:
    """A scenario from a `Scenario`, a built-in scenario's name ('RULESET/NAME') or a path."""
    return load_scenario(scenario) if isinstance(scenario, str) else scenario


def game_seed(seed: int) -> int:
    """The game seed of a reset seed: any whole number from 0 to 2**64 - 1 (a 64-bit
    seed above the engine's 63-bit range is folded into it, distinct seeds staying
    distinct but for chance)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise DataError(f"seed: must be a whole number, not {seed!r}")
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise DataError(f"seed: must be from 0 to 2**64 - 1, not {seed}")
    return seed if seed <= SEED_MAX else derive_seed(seed & SEED_MAX, 1 + (seed >> 63))


class Decision:
    """The legal actions of one decision by cell: mask, picks and sorted cells."""

    __slots__ = ("_cells", "_legal", "_size", "_sorted", "_table")

    def __init__(self, encoding: Encoding, state: Any, legal: list[Any]) -> None:
        self._legal = legal
        # The cell of each legal action, in the order listed: the first action listed
        # for a cell stands for it (`pick` finds it by one C-level search of this list,
        # where a table by cell, built at every decision, cost more than all the picks).
        self._cells: list[int] = encoding.cells(state, legal)
        self._size = encoding.size
        self._sorted: list[int] | None = None
        self._table: dict[int, Any] | None = None

    def mask(self) -> np.ndarray:
        """A new int8 array, 1 exactly on the cells holding a legal action (new at each
        call, so that a caller may keep or change it)."""
        mask = np.zeros(self._size, dtype=np.int8)
        if self._cells:
            mask.put(self._cells, 1)
        return mask

    @property
    def table(self) -> dict[int, Any]:
        """The legal action standing for each cell holding one (built when first asked)."""
        if self._table is None:
            # Built from the end, a later action's entry is overwritten by an earlier one's.
            self._table = dict(zip(reversed(self._cells), reversed(self._legal), strict=True))
        return self._table

    @property
    def cells(self) -> list[int]:
        """The cells holding a legal action, ascending (sorted when first asked: only an
        index the mask leaves out needs them)."""
        if self._sorted is None:
            self._sorted = sorted(set(self._cells))
        return self._sorted

    def pick(self, cell: int) -> Any:
        """The legal action of `cell`, or of the nearest cell holding one."""
        try:
            return self._legal[self._cells.index(cell)]
        except ValueError:
            pass
        cells = self.cells
        if not cells:
            raise ValueError("no side decides now: the battle is over (reset it)")
        at = bisect.bisect_left(cells, cell)
        if at == len(cells) or (at > 0 and cell - cells[at - 1] <= cells[at] - cell):
            at -= 1
        return self.table[cells[at]]


class Driver:
    """A game of one scenario, restarted by `start(seed)`, read through its encoding."""

    def __init__(
        self,
        scenario: Scenario | str,
        *,
        rules: Mapping[str, object] | None = None,
        reward: str = "outcome",
    ) -> None:
        if reward not in REWARDS:
            raise DataError(f"reward: must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.scenario = as_scenario(scenario)
        self.rules = dict(rules or {})
        self.reward = reward
        self._sizes: tuple[int, int] | None = None
        self.start(0)

    def start(self, seed: int) -> None:
        """A new game with this seed (the same seed, the same game)."""
        self.game = Game(self.scenario, seed=game_seed(seed), rules=self.rules)
        previous: Encoding | None = getattr(self, "encoding", None)
        try:
            self.encoding: Encoding = self.game.ruleset.encoding(self.game.state)
        except NotImplementedError as exc:
            raise DataError(f"{self.scenario.where}: {exc}") from None
        self.encoding.carry(previous)
        if self._sizes not in (None, self._measure()):
            raise RuntimeError(
                f"{self.scenario.where}: the ruleset's encoding changed size with the seed"
            )
        self._sizes = self._measure()
        self.sides: tuple[str, ...] = self.game.sides()
        self._decision: Decision | None = None
        self._decided_at = -1
        self._losses = self._loss_fractions() if self.reward == "damage" else {}

    def _measure(self) -> tuple[int, int]:
        return self.encoding.size, len(self.encoding.fields)

    @property
    def size(self) -> int:
        """How many action cells."""
        return self.encoding.size

    @property
    def obs_size(self) -> int:
        """How many numbers in an observation vector."""
        return len(self.encoding.fields)

    def decision(self) -> Decision:
        """The current decision's cells (computed once per decision)."""
        done = len(self.game.actions)
        if self._decision is None or self._decided_at != done:
            self._decision = Decision(self.encoding, self.game.state, self.game.legal_actions())
            self._decided_at = done
        return self._decision

    def observation(self, side: str) -> dict[str, np.ndarray]:
        """PettingZoo's classic observation: the vector and the action mask (zeros but
        for the side deciding now)."""
        numbers = self.encoding.observe(self.game.state, side)
        vector = np.fromiter(numbers, np.float32, len(numbers))
        # The two ufuncs clip as np.clip does (NaN stays NaN) at a fraction of its cost.
        np.minimum(vector, OBS_LIMIT, out=vector)
        np.maximum(vector, -OBS_LIMIT, out=vector)
        deciding = self.game.current_player() == side
        mask = self.decision().mask() if deciding else np.zeros(self.size, dtype=np.int8)
        return {"observation": vector, "action_mask": mask}

    def play(self, cell: int) -> dict[str, float]:
        """Apply the action of `cell` (see `Decision.pick`); each side's reward."""
        self.game.apply(self.decision().pick(int(cell)))
        return self.rewards()

    def apply(self, action: Any) -> dict[str, float]:
        """Apply an engine action (checked as any); each side's reward."""
        self.game.apply(action)
        return self.rewards()

    def rewards(self) -> dict[str, float]:
        """Each side's reward for the last action (see `REWARDS`)."""
        if self.reward == "damage":
            now = self._loss_fractions()
            before, self._losses = self._losses, now
            first, second = self.sides[0], self.sides[-1]
            lost = {s: now[s] - before.get(s, 0.0) for s in self.sides}
            return {first: lost[second] - lost[first], second: lost[first] - lost[second]}
        outcome = self.game.outcome()
        if outcome is None or outcome.winner is None:
            return dict.fromkeys(self.sides, 0.0)
        return {s: 1.0 if s == outcome.winner else -1.0 for s in self.sides}

    def _loss_fractions(self) -> dict[str, float]:
        """The share of each side's strength lost so far (roster: fielded and remaining)."""
        strength = dict.fromkeys(self.sides, 0.0)
        left = dict.fromkeys(self.sides, 0.0)
        for record in self.game.ruleset.roster(self.game.state):
            if record.side in strength:
                strength[record.side] += record.strength
                left[record.side] += record.remaining
        return {s: 1.0 - left[s] / strength[s] if strength[s] else 0.0 for s in self.sides}


def _driver(env: Any) -> Driver:
    driver = getattr(getattr(env, "unwrapped", env), "driver", None)
    if not isinstance(driver, Driver):
        raise TypeError(f"not a dogfight.rl environment: {env!r}")
    return driver


def decode(env: Any, index: int, *, nearest: bool = False) -> Any:
    """The legal action that action `index` stands for now in `env` (a `dogfight.rl`
    environment). An index the mask leaves out holds none: ValueError, unless `nearest`,
    which gives the legal action of the nearest index holding one (what `step` plays)."""
    driver = _driver(env)
    if not 0 <= int(index) < driver.size:
        raise ValueError(f"action index {index} is outside 0..{driver.size - 1}")
    decision = driver.decision()
    if not nearest and int(index) not in decision.table:
        if not decision.cells:
            raise ValueError("no side decides now: the battle is over (reset it)")
        raise ValueError(
            f"action index {index} ({driver.encoding.layout.explain(int(index))}) holds no "
            "legal action now (see the action mask)"
        )
    return decision.pick(int(index))


def encode(env: Any, action: Any) -> int:
    """The action index of an engine action of the side deciding now in `env`."""
    driver = _driver(env)
    return driver.encoding.index(driver.game.state, action)


def describe(env: Any) -> str:
    """The action cells of `env` as a Markdown table: kind, dimensions, first index."""
    layout = _driver(env).encoding.layout
    lines = ["| kind | cells | first |", "|---|---|---|"]
    for block in layout.blocks():
        dims = " x ".join(f"{name} ({n})" for name, n in block.dims)
        lines.append(f"| {block.kind} | {dims} | {block.start} |")
    return "\n".join(lines)
