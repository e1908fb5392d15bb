"""Temporal Displacement as a reaction (SFA-TEC-28): after each weapon attack roll, and
before its damage is done, a craft carrying the device (the attacker, or the craft
rolled against) may pay 5 Power to have the roll made again, the new roll standing.

The seed: "re-roll the last die rolled ... at any time, without the use of an
action"; the rules notes (C.6) read the die as the whole last roll. The attacker's side
is asked first, then the target's; after a re-roll both are asked again.
"""

from __future__ import annotations

from typing import Any

from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.state import AttackRun, SfaState

TEMPORAL_POWER = 5
"""Power one use of the device costs (seed, Temporal Displacement Device)."""


def may_displace(state: SfaState, craft_id: str) -> bool:
    """Whether a craft has the device, is in the battle and can pay for a use now."""
    craft = state.craft.get(craft_id)
    return (
        craft is not None
        and state.type_of(craft).has("temporal_displacement")
        and craft.power >= TEMPORAL_POWER
    )


def who_may_displace(state: SfaState, run: AttackRun) -> tuple[str, ...]:
    """The craft to ask about the pending roll: the attacker's, then the target's."""
    out = [c for c in (split_key(run.actor)[0], run.target) if may_displace(state, c)]
    return tuple(dict.fromkeys(out))


def displace_actions(state: SfaState) -> list[Any]:
    """The answers open to the craft asked now: keep the roll, or re-roll it."""
    run = state.attack
    if run is None or not run.asked:
        return []
    craft = run.asked[0]
    return [A.Displace(craft=craft, use=False), A.Displace(craft=craft, use=True)]


def displace_problem(state: SfaState, action: Any) -> str:
    """Why an action is illegal while a roll waits on a re-roll answer ('' if legal)."""
    run = state.attack
    if run is None or not run.asked:
        return "there is no roll to re-roll now (SFA-TEC-28)"
    if not isinstance(action, A.Displace):
        return (
            f"{run.asked[0]} first says whether it re-rolls the last roll with its "
            "Temporal Displacement Device (SFA-TEC-28)"
        )
    if action.craft != run.asked[0]:
        return f"{run.asked[0]}, not {action.craft}, decides on a re-roll now (SFA-TEC-28)"
    if action.use and not may_displace(state, action.craft):
        return f"{action.craft} lacks the {TEMPORAL_POWER} Power for a re-roll (SFA-TEC-28)"
    return ""
