"""The EVO resolution context: the core's, with EVO's rule functions and its way of
naming models."""

from __future__ import annotations

from collections.abc import Mapping

from dogfight.core.context import RuleContext
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.state import EvoState, Flight, Model

DEFAULT_RULES = EvoRules()
"""The rules of a context built without a ruleset at hand (tests, old callers); the
ruleset always passes its own `rules`, so a subclass's reach the engine."""


class Ctx(RuleContext[EvoState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()

    def __init__(
        self,
        state: EvoState,
        options: Mapping[str, OptionValue],
        log: EventLog,
        rules: EvoRules | None = None,
    ) -> None:
        super().__init__(state, options, log, rules if rules is not None else DEFAULT_RULES)

    def name(self, what: Model | Flight | str) -> str:
        """A model or flight as the log names it."""
        state = self.state
        if isinstance(what, str):
            found = state.models.get(what) or state.flights.get(what)
            if found is None:
                return what
            what = found
        if isinstance(what, Model):
            return f"{what.id} ({state.type_of(what).name})"
        return f"{what.id} ({state.unit_type(what).name})"
