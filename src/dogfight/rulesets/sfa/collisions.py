"""When a move is a collision, and the rams a craft may choose (SFA-COL-1).

The seed forces no craft into a collision: craft may share a hex, and a collision
happens when a craft rams another on purpose (a `Move` with `ram`, or any move with
its Hyper-Ram plates charged, SFA-TEC-17), or, under option `collide_on_entry`, as
soon as a craft enters a hex another craft holds.
"""

from __future__ import annotations

from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.choices import least_hexes, move_budget, offered_moves
from dogfight.rulesets.sfa.maneuvers import Path, trace
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules
from dogfight.rulesets.sfa.state import CraftState, Selection, SfaState


def crowding_collides(state: SfaState) -> bool:
    """Whether merely entering an occupied hex is a collision (option `collide_on_entry`)."""
    return bool(state.options.get("collide_on_entry", False))


def collides(state: SfaState, craft: CraftState, ram: bool) -> bool:
    """Whether the craft collides with a craft in a hex it enters this move: it rams on
    purpose, or has its Hyper-Ram charged, or the option makes every entry one."""
    return ram or craft.ramming or crowding_collides(state)


def ram_victim(state: SfaState, craft: CraftState, path: Path) -> str:
    """The craft the mover would ram first along a path, as its side sees the map:
    '' if the path meets none (SFA-COL-1)."""
    for where in path.hexes:
        if not state.map.contains(where):
            return ""
        other = state.occupant(where, ignore=craft.id)
        if other is not None and T.sees(state, craft, other):
            return other.id
    return ""


def ram_problem(
    state: SfaState,
    craft: CraftState,
    selection: Selection,
    steps: str,
    rules: SfaRules = SFA_RULES,
) -> str:
    """Why a deliberate ram along these steps is illegal, beyond the move itself being
    legal ('' if it is legal) (SFA-COL-1)."""
    budget = move_budget(state, craft, selection, rules)
    least = least_hexes(state, craft, selection)
    if not ram_victim(state, craft, trace(craft.hex, craft.facing, steps, budget, min_hexes=least)):
        return f"{craft.id}'s move meets no craft to ram (SFA-COL-1)"
    return ""


def ram_choices(
    state: SfaState,
    craft: CraftState,
    selection: Selection,
    rules: SfaRules = SFA_RULES,
    offered: tuple[list[str], set[str]] | None = None,
) -> list[str]:
    """Step strings on which the craft may ram on purpose: every offered move that
    meets a craft it can see (SFA-COL-1). None with Hyper-Ram charged or selected, or
    under `collide_on_entry`, whose moves into craft are rams already. `offered`: what
    `offered_moves` gave for the same craft and selection, if the caller has it."""
    if craft.ramming or crowding_collides(state):
        return []
    if (selection.kind, selection.item) == ("equipment", "hyper_ram"):
        return []
    moves, rams = offered or offered_moves(state, craft, selection, rules)
    # The rams among the moves on offer, as `ram_problem` finds them (one look each).
    return [steps for steps in moves if steps and steps in rams]
