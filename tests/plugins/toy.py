"""A toy ruleset, as another package would ship it: two sides of counters trade shots.

Small enough to read in one go, yet it uses every hook the layers above the core ask
for: players, lab set-up, data folder (its scenarios sit beside it in toy_data/). Each
decision the side to move shoots one enemy counter (hit on 4+, one damage) or holds;
a side with no counters left loses; at the turn limit the side with more left wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.errors import DataError, IllegalAction, UnknownName
from dogfight.core.events import EventLog
from dogfight.core.hooks import DuelBoard
from dogfight.core.options import OptionValue
from dogfight.core.play import Player
from dogfight.core.ruleset import Outcome, Ruleset, UnitRecord
from dogfight.core.scenario import Scenario
from dogfight.core.seat import Seat

TYPES: dict[str, dict[str, Any]] = {
    "pawn": {"id": "pawn", "hits": 1, "points": 10},
    "rook": {"id": "rook", "hits": 2, "points": 25},
}


class Counter(msgspec.Struct, kw_only=True):
    id: str
    side: str
    type: str
    hits: int
    at: tuple[float, float]


class ToyState(msgspec.Struct, kw_only=True):
    turn: int
    sides: tuple[str, str]
    turn_limit: int
    counters: list[Counter]
    active: str = ""
    moves: int = 0
    outcome: Outcome | None = None

    def clone(self) -> ToyState:
        return msgspec.convert(msgspec.to_builtins(self), ToyState)

    def alive(self, side: str) -> list[Counter]:
        return [c for c in self.counters if c.side == side and c.hits > 0]


class Shoot(msgspec.Struct, frozen=True, tag="shoot"):
    target: str


class Hold(msgspec.Struct, frozen=True, tag="hold"):
    pass


ToyAction = Shoot | Hold


class ToyRuleset(Ruleset[ToyState, ToyAction]):
    """Two sides of counters trading shots."""

    name = "toy"
    title = "Toy counters (a test plugin)"
    action_type = ToyAction

    def data_folder(self) -> Path:
        return Path(__file__).parent / "toy_data"

    def setup(
        self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog
    ) -> ToyState:
        raw = scenario.raw
        sides = raw.get("sides")
        if not isinstance(sides, list) or len(sides) != 2:
            raise DataError(f"{scenario.where}: field 'sides': needs exactly two sides")
        counters = []
        for i, side in enumerate(sides):
            for j, unit in enumerate(side["units"]):
                if unit["type"] not in TYPES:
                    raise DataError(
                        f"{scenario.where}: field 'sides[{i}].units[{j}].type': no toy unit"
                    )
                counters.append(
                    Counter(
                        id=unit["id"],
                        side=side["name"],
                        type=unit["type"],
                        hits=TYPES[unit["type"]]["hits"],
                        at=tuple(unit["at"]),
                    )
                )
        names = (sides[0]["name"], sides[1]["name"])
        state = ToyState(
            turn=1,
            sides=names,
            turn_limit=int(raw.get("turn_limit", 5)),
            counters=counters,
            active=names[0],
        )
        log.emit("TOY-SET-1", f"{names[0]} against {names[1]}")
        return state

    def legal_actions(self, state: ToyState) -> list[ToyAction]:
        enemy = state.sides[1] if state.active == state.sides[0] else state.sides[0]
        return [Hold(), *(Shoot(target=c.id) for c in state.alive(enemy))]

    def check(self, state: ToyState, action: ToyAction) -> None:
        if action not in self.legal_actions(state):
            raise IllegalAction("no such target")

    def apply(self, state: ToyState, action: ToyAction, log: EventLog) -> None:
        if isinstance(action, Shoot):
            target = next(c for c in state.counters if c.id == action.target)
            if log.dice.roll() >= 4:
                target.hits -= 1
                log.emit("TOY-HIT-1", f"{state.active} hits {target.id}", target=target.id)
            else:
                log.emit("TOY-HIT-1", f"{state.active} misses {target.id}", target=target.id)
        else:
            log.emit("TOY-HOLD-1", f"{state.active} holds")
        first, second = state.sides
        state.moves += 1
        if state.moves % 2 == 0:
            state.turn += 1
        state.active = second if state.active == first else first
        left = {s: len(state.alive(s)) for s in state.sides}
        if not left[first] or not left[second]:
            winner = first if left[first] else second
            state.outcome = Outcome(winner=winner, reason="the other side has no counters")
        elif state.turn > state.turn_limit:
            best = max(left.values())
            leaders = [s for s in state.sides if left[s] == best]
            state.outcome = Outcome(
                winner=leaders[0] if len(leaders) == 1 else None, reason="turn limit"
            )

    def unit_names(self) -> list[str]:
        return sorted(TYPES)

    def describe_unit(self, name: str) -> dict[str, Any]:
        if name not in TYPES:
            raise UnknownName(f"no toy unit '{name}'")
        return dict(TYPES[name])

    def check_unit_file(self, path: Path) -> str:
        raise DataError(f"{path}: the toy ruleset reads no unit files")

    def roster(self, state: ToyState) -> list[UnitRecord]:
        return [
            UnitRecord(
                id=c.id,
                side=c.side,
                type=c.type,
                strength=TYPES[c.type]["hits"],
                remaining=max(c.hits, 0),
                destroyed=c.hits <= 0,
            )
            for c in state.counters
        ]

    def players(self) -> Mapping[str, Callable[[], Player]]:
        return {"greedy": Greedy}

    def lab(self) -> ToyLab:
        return LAB


class Greedy:
    """Shoots the weakest enemy counter it can see (ties broken by the player's rng)."""

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        state = seat.state()
        hits = {c.id: c.hits for c in state.counters}
        shots = [a for a in legal if isinstance(a, Shoot)]
        if not shots:
            return legal[0]
        low = min(hits[a.target] for a in shots)
        return rng.choice([a for a in shots if hits[a.target] == low])


class ToyLab:
    """The toy's duel board: counters in ranks at the two short edges of a 10 x 6 table."""

    board = DuelBoard(
        width=10, height=6, edge=1, low=1, high=5, gap=1, spacing=1, rank=1, margin=0, turn_limit=4
    )

    def default_roster(self, rules: Ruleset[Any, Any]) -> list[str]:
        return rules.unit_names()

    def side(self, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
        prefix = "A" if left else "B"
        board = self.board
        units = [
            {
                "id": f"{prefix}{i + 1}",
                "type": unit,
                "at": [board.edge - depth if left else board.width - board.edge + depth, along],
            }
            for i, (depth, along) in enumerate(board.slots(count))
        ]
        return {"name": name, "units": units}

    def playing_area(self) -> dict[str, Any]:
        return {"table": {"width": self.board.width, "height": self.board.height}}


LAB = ToyLab()
