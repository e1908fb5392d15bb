"""Every legal action of the side to decide now, for players and the AI."""

from __future__ import annotations

from typing import Any

from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.aborts import abort_actions
from dogfight.rulesets.sfa.actors import interrupters, may_spend_willpower, split_key
from dogfight.rulesets.sfa.checks import abort_mode, question_ctx, steps_problems
from dogfight.rulesets.sfa.choices import (
    abort_kinds,
    move_choices,
    offered_moves,
    person_moves,
    selections_for,
    targets_for,
)
from dogfight.rulesets.sfa.collisions import ram_choices
from dogfight.rulesets.sfa.names import actions_shown
from dogfight.rulesets.sfa.rules import SfaRules
from dogfight.rulesets.sfa.state import SfaState
from dogfight.rulesets.sfa.temporal import displace_actions


def legal_actions(state: SfaState, rules: SfaRules | None = None) -> list[Any]:
    """The actions the side to decide may take now (none once the game is over), under
    the ruleset's `rules` (sfa's own when None), naming the other side's pieces as this
    side is shown them (SFA-TEC-16). Whenever it holds a decoy it may also switch that
    decoy off or on first (SFA-TEC-16), except while a roll waits on a Temporal
    Displacement answer (SFA-TEC-28)."""
    if state.outcome is not None or not state.active:
        return []
    out = actions_shown(state, _legal_actions(state, rules))
    if state.temporal is not None:
        return out
    return out + [A.Hologram(craft=c, on=on) for c, on in T.switch_choices(state)]


def _legal_actions(state: SfaState, rules: SfaRules | None) -> list[Any]:
    """The actions the side to decide may take now, with real ids."""
    ctx = question_ctx(state, rules)
    out: list[Any] = []
    if state.temporal is not None:
        out = displace_actions(state)
    elif state.phase == "select":
        key = state.to_select[0]
        out = [
            A.Select(actor=key, kind=s.kind, item=s.item, speed_dice=s.speed_dice)
            for s in selections_for(state, key)
        ]
    elif state.abort_offer:
        out = [A.Pass(), *abort_actions(state, state.abort_offer)]
    elif state.step.startswith("window"):
        out = [A.Pass()]
        out += [A.Interrupt(actor=k) for k in interrupters(state, state.active)]
    elif state.step == "move":
        craft_id, _ = split_key(state.acting)
        craft = state.craft[craft_id]
        sel = state.selections[state.acting]
        if craft.held_by:
            return [A.Move(craft=craft_id, dest=d) for d in T.drag_choices(state, craft)]
        if state.is_person(craft):
            return [A.Move(craft=craft_id)] + [
                A.Move(craft=craft_id, dest=d) for d in person_moves(state, craft, sel)
            ]
        offered = offered_moves(state, craft, sel, ctx.rules)
        out = [A.Move(craft=craft_id, steps=steps) for steps in offered[0]]
        out += [
            A.Move(craft=craft_id, steps=s, ram=True)
            for s in ram_choices(state, craft, sel, ctx.rules, offered)
        ]
        if (sel.kind, sel.item) == ("equipment", "teleport"):
            out += [A.Move(craft=craft_id, dest=d) for d in T.teleport_choices(state, craft)]
        for kind in abort_kinds(state, craft, sel):
            if kind == "teleport":
                out += [
                    A.Move(craft=craft_id, dest=d, abort=kind)
                    for d in T.teleport_choices(state, craft)
                ]
                continue
            # Offered like ordinary moves: on the map and clear of other craft first;
            # each checked as `move_problem` would (the abort itself checked once).
            problem, mode = abort_mode(state, craft, sel, kind)
            if problem:
                continue
            moves = move_choices(state, craft, mode, ctx.rules)
            out += [
                A.Move(craft=craft_id, steps=steps, abort=kind)
                for steps, problem in zip(
                    moves, steps_problems(ctx, craft, mode, moves), strict=True
                )
                if problem == ""
            ]
    elif state.step == "resolve":
        out = [A.Resolve(actor=state.acting), *abort_actions(state, state.acting)]
        craft = state.craft[split_key(state.acting)[0]]
        sel = state.selections[state.acting]
        if sel.kind == "equipment":
            for fields in T.resolve_options(state, craft, sel.item):
                out.append(A.Resolve(actor=state.acting, **fields))  # type: ignore[arg-type]
            return out
        ctype = state.type_of(craft)
        for target in targets_for(ctx, state.acting):
            out.append(A.Resolve(actor=state.acting, target=target))
            if may_spend_willpower(state, craft):
                out.append(A.Resolve(actor=state.acting, target=target, willpower=True))
            aimed = state.craft.get(target)
            if ctype.has("targeting_computer") and aimed is not None:
                spend = min(craft.power, aimed.maneuver_soak)
                if spend > 0:
                    out.append(A.Resolve(actor=state.acting, target=target, power=spend))
    return out
