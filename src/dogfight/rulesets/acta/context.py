"""The ACTA resolution context: the core's, with ACTA's way of naming units."""

from __future__ import annotations

from dogfight.core.context import RuleContext
from dogfight.rulesets.acta.state import ActaState, UnitState


class Ctx(RuleContext[ActaState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()

    def name(self, unit: UnitState | str) -> str:
        """A unit as the log names it: id and type name."""
        u = self.state.units.get(unit) if isinstance(unit, str) else unit
        if u is None:
            return str(unit)
        return f"{u.id} ({self.state.types[u.type].name})"
