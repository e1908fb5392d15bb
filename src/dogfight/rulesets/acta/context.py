"""The ACTA resolution context: the core's, with ACTA's rule functions and its way of
naming units."""

from __future__ import annotations

from collections.abc import Mapping

from dogfight.core.context import RuleContext
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.state import ActaState, UnitState

BASE_RULES = ActaRules()
"""The rules of the `acta` ruleset itself, for a context built without the ruleset's."""


class Ctx(RuleContext[ActaState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()
    rules: ActaRules

    def __init__(
        self,
        state: ActaState,
        options: Mapping[str, OptionValue],
        log: EventLog,
        rules: ActaRules | None = None,
    ) -> None:
        # The ruleset passes its own `rules`; a context built by hand gets acta's.
        super().__init__(state, options, log, rules if rules is not None else BASE_RULES)

    def name(self, unit: UnitState | str) -> str:
        """A unit as the log names it: id and type name."""
        u = self.state.units.get(unit) if isinstance(unit, str) else unit
        if u is None:
            return str(unit)
        return f"{u.id} ({self.state.types[u.type].name})"
