"""The SFA resolution context: the core's, for SFA's state, with SFA's rule functions."""

from __future__ import annotations

from collections.abc import Mapping

from dogfight.core.context import RuleContext
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules
from dogfight.rulesets.sfa.state import SfaState


class Ctx(RuleContext[SfaState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()
    rules: SfaRules

    def __init__(
        self,
        state: SfaState,
        options: Mapping[str, OptionValue],
        log: EventLog,
        rules: SfaRules | None = None,
    ) -> None:
        # The ruleset passes its own `rules`; a context built by hand gets sfa's.
        super().__init__(state, options, log, rules if rules is not None else SFA_RULES)
