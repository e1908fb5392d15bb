"""What rules code needs while it resolves an action: state, options, dice, log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.rulesets.acta.state import ActaState, UnitState


@dataclass(frozen=True, slots=True)
class Ctx:
    """The resolution context of one `apply` call."""

    state: ActaState
    options: Mapping[str, OptionValue]
    log: EventLog

    def roll(self, sides: int = 6) -> int:
        """Roll one die (recorded with the next event)."""
        return self.log.dice.roll(sides)

    def roll_many(self, n: int, sides: int = 6) -> list[int]:
        """Roll `n` dice (recorded with the next event)."""
        return self.log.dice.roll_many(n, sides)

    def emit(self, clause: str, text: str, **data: Any) -> None:
        """Log an event citing a rule clause."""
        self.log.emit(clause, text, turn=self.state.turn, **data)

    def opt(self, name: str) -> Any:
        """An option's value."""
        return self.options[name]

    def name(self, unit: UnitState | str) -> str:
        """A unit as the log names it: id and type name."""
        u = self.state.units.get(unit) if isinstance(unit, str) else unit
        if u is None:
            return str(unit)
        return f"{u.id} ({self.state.types[u.type].name})"
