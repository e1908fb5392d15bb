"""The actors of a turn: each craft's pilot and gunners, keyed 'R1#0', 'R1#1'...

Their Speed and the order it sets (SFA-SEQ-2, SFA-SEQ-3), who may interrupt whom
(SFA-SEQ-4), and the Willpower a pilot spends (SFA-SEQ-5, SFA-SEQ-6).
"""

from __future__ import annotations

from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.craft import TECHNOLOGIES
from dogfight.rulesets.sfa.state import CraftState, Selection, SfaState

EXTRA_MOVE = 3
"""Hexes added by the 'move up to 3 more hexes' action, which is also its Speed bonus."""


def actor_key(craft: str, station: int) -> str:
    """'R1#0' for R1's pilot, 'R1#1' for its first gunner."""
    return f"{craft}#{station}"


def split_key(key: str) -> tuple[str, int]:
    """The craft id and station of an actor key."""
    craft, _, station = key.rpartition("#")
    return craft, int(station)


def describe_selection(sel: Selection, craft: CraftState | None = None) -> str:
    """A selection in words."""
    if sel.kind == "equipment":
        return T.describe(craft, sel.item)
    if sel.kind == "attack":
        return f"fires {sel.item}" + (f" (-{sel.speed_dice} dice)" if sel.speed_dice else "")
    return {"extra_move": "moves 3 more hexes", "none": "takes no action"}.get(sel.kind, sel.kind)


def speed_of(state: SfaState, key: str, sel: Selection) -> int:
    """Dexterity + Piloting (a gunner: Gunnery) + the action's modifier + dice traded,
    less 2 after a botch (SFA-SEQ-2)."""
    craft_id, station = split_key(key)
    craft = state.craft[craft_id]
    person = craft.pilot if station == 0 else craft.gunners[station - 1]
    skill = person.piloting if station == 0 else person.gunnery
    modifier = 0
    if sel.kind == "attack":
        weapon = next(w for w in state.type_of(craft).weapons if w.name == sel.item)
        modifier = weapon.speed
    elif sel.kind == "extra_move":
        modifier = EXTRA_MOVE
    elif sel.kind == "equipment":
        modifier = TECHNOLOGIES[sel.item].speed or 0
    penalty = 2 if craft.botch_penalty else 0
    return person.dexterity + skill + modifier + sel.speed_dice - penalty


def wits_of(state: SfaState, key: str) -> int:
    """The actor's Wits: on equal Speed the higher Wits is faster (SFA-SEQ-3, PROPOSAL)."""
    craft_id, station = split_key(key)
    craft = state.craft[craft_id]
    return craft.pilot.wits if station == 0 else craft.gunners[station - 1].wits


def interrupters(state: SfaState, side: str) -> list[str]:
    """The side's actors still to act that are faster than the one acting (SFA-SEQ-4)."""
    speed = state.speeds.get(split_key(state.acting)[0] and state.acting, 0)
    return [
        k
        for k in state.order
        if k != state.acting
        and state.speeds[k] > speed
        and split_key(k)[0] in state.craft
        and state.craft[split_key(k)[0]].side == side
        and not state.craft[split_key(k)[0]].disabled
        and not any(entry.startswith(k + "|") for entry in state.interrupted)
    ]


def may_spend_willpower(state: SfaState, craft: CraftState) -> bool:
    """A pilot with Willpower left, and (by option) none spent yet this turn (SFA-SEQ-6)."""
    if craft.willpower < 1:
        return False
    return not (state.options.get("willpower_once_per_turn", True) and craft.willpower_spent)


def may_abort(state: SfaState, craft: CraftState) -> bool:  # the 3 extra hexes
    """Whether the craft's pilot may pay 1 Willpower for an abort now (SFA-SEQ-5)."""
    return may_spend_willpower(state, craft) and state.type_of(craft).move > 0


def spend_willpower(craft: CraftState) -> None:
    """Pay one Willpower point."""
    craft.willpower -= 1
    craft.willpower_spent = True
