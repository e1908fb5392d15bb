"""The EVO resolution context: the core's, with EVO's way of naming models."""

from __future__ import annotations

from dogfight.core.context import RuleContext
from dogfight.rulesets.evo.state import EvoState, Flight, Model


class Ctx(RuleContext[EvoState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()

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
