"""The SFA resolution context: the core's, for SFA's state."""

from __future__ import annotations

from dogfight.core.context import RuleContext
from dogfight.rulesets.sfa.state import SfaState


class Ctx(RuleContext[SfaState]):
    """The resolution context of one `apply` call."""

    __slots__ = ()
