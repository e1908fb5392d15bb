"""The SFA resolution context: the core's, for SFA's state."""

from __future__ import annotations

from typing import Any

from dogfight.core.context import RuleContext
from dogfight.rulesets.sfa.state import SfaState


class Ctx(RuleContext[SfaState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()

    def emit(self, clause: str, text: str, **data: Any) -> None:
        """Log an event; once Holo-Projector aliases have changed, it is stamped with
        the naming period it was logged in, so that each side's log keeps the names it
        was shown then (SFA-TEC-16, `names`)."""
        period = len(self.state.names) - 1
        if period > 0:
            data.setdefault("names", period)
        super().emit(clause, text, **data)
