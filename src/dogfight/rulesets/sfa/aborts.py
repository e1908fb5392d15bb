"""Abort actions (SFA-SEQ-5): a pilot pays 1 Willpower to swap its declared action for
an Abort action at any point before it resolves, and the abort acts at its own Speed.

The decision is offered when a faster actor interrupts the pilot (`A.Abort` or `A.Pass`
while `state.abort_offer` names the pilot), at the craft's move (`A.Move.abort`) and at
its resolution (`A.Abort` beside the `A.Resolve` actions). Before the craft has moved
every abort it can pay for is on offer (the 3 extra hexes, Boosters, Teleport, Force
Field, Plasma Field); once it has moved only the fields are, as the others are moves.
"""

from __future__ import annotations

from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.choices import abort_kinds
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.state import Selection, SfaState

FIELDS = frozenset({"force_field", "plasma_field"})
"""Aborts that are not moves: still open to a craft that has moved."""


def abort_selection(kind: str) -> Selection:
    """The selection an abort switches to."""
    return (
        Selection(kind="extra_move")
        if kind == "extra_move"
        else Selection(kind="equipment", item=kind)
    )


def pending_step(state: SfaState, key: str) -> str:
    """Where a pilot's action stands: its step if it is acting, the step it was
    interrupted at, or '' if it is not under way."""
    if state.acting == key:
        return state.step
    for entry in state.interrupted:
        if entry.startswith(key + "|"):
            return entry.split("|")[1]
    return ""


def open_kinds(state: SfaState, key: str) -> list[str]:
    """The aborts the pilot `key` may pay for now ([] if none)."""
    craft_id, station = split_key(key)
    craft = state.craft.get(craft_id)
    if craft is None or craft.disabled or station != 0 or key not in state.order:
        return []
    selection = state.selections.get(key)
    if selection is None:
        return []
    kinds = abort_kinds(state, craft, selection)
    if pending_step(state, key) in ("window_resolve", "resolve"):
        kinds = [k for k in kinds if k in FIELDS]
    return kinds


def abort_actions(state: SfaState, key: str) -> list[A.Abort]:
    """The `A.Abort` actions open to the pilot `key` now."""
    return [A.Abort(actor=key, to=kind) for kind in open_kinds(state, key)]


def offer_after_interrupt(state: SfaState, interrupted: str) -> None:
    """An interrupt was declared against `interrupted`: its pilot, if it could abort,
    is asked first (SFA-SEQ-5)."""
    state.abort_offer = interrupted if open_kinds(state, interrupted) else ""


def abort_problem(state: SfaState, action: A.Abort) -> str:
    """Why an abort is illegal now ('' if it is legal)."""
    at_resolve = state.step == "resolve" and state.acting == action.actor
    if action.actor != state.abort_offer and not at_resolve:
        return (
            f"{action.actor} may abort now only in answer to an interrupt or before it "
            "resolves (SFA-SEQ-5)"
        )
    kinds = open_kinds(state, action.actor)
    if action.to not in kinds:
        offered = ", ".join(kinds) or "none"
        return f"{action.actor} cannot abort to {action.to!r} now; open: {offered} (SFA-SEQ-5)"
    return ""


def raise_late_field(ctx: Ctx) -> None:
    """A field aborted to after moving, and slower than its interrupter, goes up as the
    pilot resumes at its resolution (SFA-SEQ-5)."""
    state = ctx.state
    key = state.acting
    if key not in state.late_fields:
        return
    state.late_fields = tuple(k for k in state.late_fields if k != key)
    craft = state.craft.get(split_key(key)[0])
    selection = state.selections.get(key)
    if craft is not None and selection is not None and selection.item in FIELDS:
        T.start_move_equipment(ctx, craft, selection.item)
