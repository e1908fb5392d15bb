"""What rules code needs while it resolves an action: state, options, dice and log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class RuleContext(Generic[S]):
    """The resolution context of one `apply` call, for any ruleset's state type."""

    state: S
    options: Mapping[str, OptionValue]
    log: EventLog
    rules: Any = None
    """The ruleset's rule functions (its `rules` object), so that a subclass that
    overrides one changes the engine with it."""

    def roll(self, sides: int = 6) -> int:
        """Roll one die (recorded with the next event)."""
        return self.log.dice.roll(sides)

    def roll_many(self, n: int, sides: int = 6) -> list[int]:
        """Roll `n` dice (recorded with the next event)."""
        return self.log.dice.roll_many(n, sides)

    def emit(self, clause: str, text: str, **data: Any) -> None:
        """Log an event citing a rule clause, stamped with the turn."""
        self.log.emit(clause, text, turn=getattr(self.state, "turn", 0), **data)

    def opt(self, name: str) -> Any:
        """An option's value."""
        return self.options[name]


class NoDice:
    """Dice for contexts that only ask questions (legal actions, checks): rolling is a bug."""

    count = 0
    pending = 0

    def take(self) -> tuple[()]:
        """Nothing is ever rolled."""
        return ()

    def roll(self, sides: int = 6) -> int:
        """Refuse: questions never roll dice."""
        raise RuntimeError("a rules query must not roll dice")

    def roll_many(self, n: int, sides: int = 6) -> list[int]:
        """Refuse: questions never roll dice."""
        raise RuntimeError("a rules query must not roll dice")
