"""Why an action is illegal: `check` raises `IllegalAction` with the reason, and the
`*_problem` functions return it ('' when the action is legal).
"""

from __future__ import annotations

from typing import Any

from dogfight.core.context import NoDice
from dogfight.core.errors import IllegalAction
from dogfight.core.events import EventLog
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.aborts import abort_problem, abort_selection
from dogfight.rulesets.sfa.actors import interrupters, may_abort, may_spend_willpower, split_key
from dogfight.rulesets.sfa.choices import (
    MAX_SPEED_DICE,
    charging,
    choices_for,
    least_hexes,
    move_budget,
    person_budget,
    targets_for,
    traced_legal,
    trades_dice,
)
from dogfight.rulesets.sfa.collisions import ram_problem
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.maneuvers import ORIGIN, trace
from dogfight.rulesets.sfa.names import action_real
from dogfight.rulesets.sfa.rules import SfaRules
from dogfight.rulesets.sfa.state import CraftState, Selection, SfaState
from dogfight.rulesets.sfa.temporal import displace_problem


def question_ctx(state: SfaState, rules: SfaRules | None = None) -> Ctx:
    """A question-only context (with the ruleset's `rules`; sfa's own when None)."""
    return Ctx(state, state.options, EventLog(NoDice()), rules)  # type: ignore[arg-type]


def check(state: SfaState, action: Any, rules: SfaRules | None = None) -> None:
    """Raise `IllegalAction`, saying why, if the action is not legal now. The other
    side's pieces are named as the deciding side is shown them (SFA-TEC-16)."""
    if state.outcome is not None:
        raise IllegalAction("the game is over")
    if isinstance(action, A.Hologram) and state.temporal is None:
        problem = T.switch_problem(state, action.craft, action.on)
        if problem:
            raise IllegalAction(problem)
        return
    check_real(state, action_real(state, action), rules)


def check_real(state: SfaState, action: Any, rules: SfaRules | None = None) -> None:
    """`check` for an action naming pieces by their real ids."""
    ctx = question_ctx(state, rules)
    if isinstance(action, A.Displace) or state.temporal is not None:
        # A roll waits on a Temporal Displacement answer: nothing else is legal now.
        problem = displace_problem(state, action)
        if problem:
            raise IllegalAction(problem)
        return
    if isinstance(action, A.Select):
        if state.phase != "select":
            raise IllegalAction("actions are selected at the start of the turn only")
        if not state.to_select or action.actor != state.to_select[0]:
            nxt = state.to_select[0] if state.to_select else "nobody"
            raise IllegalAction(f"{nxt} selects next, not {action.actor}")
        if (action.kind, action.item) not in choices_for(state, action.actor):
            raise IllegalAction(
                f"{action.actor} cannot select {action.kind} {action.item!r} (SFA-SEQ-1)"
            )
        if action.speed_dice and not trades_dice(state, action.actor, action.kind, action.item):
            raise IllegalAction(
                "only an attack rolled with the pilot's or gunner's own pool "
                "can trade dice for Speed (SFA-SEQ-2)"
            )
        if not 0 <= action.speed_dice <= MAX_SPEED_DICE:
            raise IllegalAction(f"trade 0 to {MAX_SPEED_DICE} dice for Speed (SFA-SEQ-2)")
        return
    if state.phase != "act":
        raise IllegalAction(f"not now: the game is in its {state.phase} step")
    if isinstance(action, A.Abort):
        problem = abort_problem(state, action)
        if problem:
            raise IllegalAction(problem)
        return
    if state.abort_offer:
        if isinstance(action, A.Pass):
            return
        raise IllegalAction(
            f"{state.abort_offer} has been interrupted: it aborts or passes first (SFA-SEQ-5)"
        )
    if isinstance(action, A.Pass):
        if not state.step.startswith("window"):
            raise IllegalAction("there is no interrupt to pass on now")
        return
    if isinstance(action, A.Interrupt):
        if not state.step.startswith("window"):
            raise IllegalAction("there is nothing to interrupt now")
        if action.actor not in interrupters(state, state.active):
            raise IllegalAction(
                f"{action.actor} is not a faster actor of {state.active} still to act (SFA-SEQ-4)"
            )
        return
    if isinstance(action, A.Move):
        if state.step != "move" or split_key(state.acting)[0] != action.craft:
            raise IllegalAction(f"{action.craft} is not the craft moving now")
        problem = move_problem(ctx, action)
        if problem:
            raise IllegalAction(problem)
        return
    if isinstance(action, A.Resolve):
        if state.step != "resolve" or action.actor != state.acting:
            raise IllegalAction(f"{action.actor} is not resolving now")
        craft = state.craft[split_key(action.actor)[0]]
        sel = state.selections[action.actor]
        if sel.kind == "equipment":
            problem = equipment_resolve_problem(state, craft, sel, action)
            if problem:
                raise IllegalAction(problem)
            return
        if action.use or action.form or action.at is not None:
            raise IllegalAction(f"{action.actor} fires a weapon: give a target only (SFA-ATK-1)")
        if action.willpower and not may_spend_willpower(state, craft):
            raise IllegalAction(
                f"{craft.id}'s pilot has no Willpower to spend this turn (SFA-SEQ-6)"
            )
        problem = attack_extras_problem(state, craft, action)
        if problem:
            raise IllegalAction(problem)
        if action.target and action.target not in targets_for(ctx, action.actor):
            raise IllegalAction(
                f"{action.target} is not a target {action.actor}'s "
                "selected weapon can reach (SFA-ATK-2)"
            )
        return
    raise IllegalAction(f"{type(action).__name__} is not an sfa action")


def move_problem(ctx: Ctx, action: A.Move) -> str:
    """Why a move is illegal ('' if it is legal)."""
    state = ctx.state
    craft = state.craft[action.craft]
    selection = state.selections[state.acting]
    if action.ram and (craft.held_by or state.is_person(craft)):
        return f"{craft.id} does not fly its own move now: it cannot ram (SFA-COL-1)"
    if craft.held_by:
        if action.abort or action.steps:
            return (
                f"{craft.id} is held in {craft.held_by}'s Tractor Beam: the holder "
                "drags it up to 2 hexes (SFA-TEC-29)"
            )
        if action.dest is not None and action.dest not in T.drag_choices(state, craft):
            return "drag the held craft to an empty hex within 2 hexes (SFA-TEC-29)"
        return ""
    if state.is_person(craft):
        return person_move_problem(state, craft, selection, action)
    if action.abort == "teleport" and action.dest is None:
        return "aborting to a Teleport is to jump: give the hex it lands on (SFA-TEC-27)"
    problem, selection = abort_mode(state, craft, selection, action.abort)
    if problem:
        return problem
    if action.dest is not None:
        if action.ram:
            return "a craft rams by flying into it, not by a Teleport (SFA-COL-1)"
        if (selection.kind, selection.item) != ("equipment", "teleport"):
            return "only a Teleport moves to a chosen hex (SFA-TEC-27)"
        if action.steps:
            return "a Teleport replaces the move: give no steps (SFA-TEC-27)"
        return T.teleport_problem(state, craft, action.dest)
    return steps_problem(ctx, craft, selection, action.steps, ram=action.ram)


def abort_mode(
    state: SfaState, craft: CraftState, selection: Selection, abort: str
) -> tuple[str, Selection]:
    """Why the craft may not abort to `abort` now ('' if it may; nothing to check when
    `abort` is ''), and the selection it then moves under (SFA-SEQ-5)."""
    if abort and abort_selection(abort) == selection:
        return f"{abort} is already {craft.id}'s action: nothing to abort to (SFA-SEQ-5)", selection
    if not abort:
        return "", selection
    if abort != "extra_move" and abort not in T.ABORT_TECHS:
        offered = ", ".join(["extra_move", *sorted(T.ABORT_TECHS)])
        return f"the abort actions on offer are: {offered} (SFA-SEQ-5)", selection
    if abort == "extra_move":
        if not may_abort(state, craft):
            return f"{craft.id}'s pilot has no Willpower left for an abort (SFA-SEQ-5)", selection
        return "", Selection(kind="extra_move")
    if not may_spend_willpower(state, craft):
        return f"{craft.id}'s pilot has no Willpower left for an abort (SFA-SEQ-5)", selection
    problem = T.equipment_problem(state, craft, abort)
    if problem:
        return problem, selection
    return "", Selection(kind="equipment", item=abort)


def steps_problem(
    ctx: Ctx, craft: CraftState, selection: Selection, steps: str, *, ram: bool = False
) -> str:
    """Why flying `steps` under `selection` is illegal ('' if it is legal): the movement
    rules, Move 0, a doomsday charge, the Boosters and, for a ram, meeting a craft."""
    return steps_problems(ctx, craft, selection, [steps], ram=ram)[0]


def steps_problems(
    ctx: Ctx, craft: CraftState, selection: Selection, moves: list[str], *, ram: bool = False
) -> list[str]:
    """`steps_problem` of each of `moves`, the budget counted once for them all."""
    state = ctx.state
    budget = move_budget(state, craft, selection, ctx.rules)
    least = least_hexes(state, craft, selection)
    move = state.type_of(craft).move
    holds = least == 0 and charging(craft, selection)
    boosted = selection.kind == "equipment" and budget > move
    # A move among the traced legal shapes of this facing and budget passes the
    # movement rules and the Boosters' (the same trace): only Move 0, a charge or a
    # ram asks more of it.
    simple = move != 0 and not holds and not ram
    known = traced_legal(craft.facing, budget, least, move, boosted, ctx.rules.maneuver)
    out = []
    for steps in moves:
        if simple and steps in known:
            out.append("")
            continue
        # Traced from the origin hex: what is checked here (the maneuvers, whether any
        # hex is entered, the movement rules) does not depend on where the move starts.
        path = trace(
            ORIGIN, craft.facing, steps, budget, min_hexes=least, maneuver=ctx.rules.maneuver
        )
        problem = path.problem
        if move == 0 and path.maneuvers:
            problem = "a craft with Move 0 may not maneuver (SFA-MOV-2)"
        elif holds and path.hexes:
            problem = f"{craft.id} must hold still to charge its {T.label(selection.item)}"
        elif not problem and boosted and T.booster_problem(steps, move):
            problem = T.booster_problem(steps, move)
        elif not problem and ram:
            problem = ram_problem(state, craft, selection, steps, ctx.rules)
        out.append(problem)
    return out


def person_move_problem(
    state: SfaState, craft: CraftState, selection: Selection, action: A.Move
) -> str:
    """Why a Street Fighter's move is illegal ('' if it is legal) (SFA-SF-3)."""
    if action.abort:
        return f"{craft.id} is a Street Fighter: the engine has no abort for it (SFA-SF-2)"
    if action.steps:
        return f"{craft.id} is a Street Fighter: give the hex it moves to, not steps (SFA-SF-3)"
    if action.dest is None or action.dest == craft.hex:
        return ""
    budget = person_budget(state, craft, selection)
    if craft.hex.distance(action.dest) > budget:
        return f"{craft.id} may move {budget} hex{'es' if budget != 1 else ''} this turn (SFA-SF-3)"
    if not state.map.contains(action.dest):
        return "that hex is off the map"
    if state.occupant(action.dest, ignore=craft.id) is not None:
        return "someone is already in that hex"
    return ""


def equipment_resolve_problem(
    state: SfaState, craft: CraftState, sel: Selection, action: A.Resolve
) -> str:
    """Why a Resolve of a technology action is illegal ('' if it is legal)."""
    if action.willpower or action.reroll:
        return "Willpower and Temporal Displacement apply to weapon attacks only"
    if not (action.target or action.at is not None or action.form or action.use or action.power):
        return ""  # not resolving the action is always allowed
    if sel.item not in T.RESOLVE_TECHS or charging(craft, sel):
        return f"{T.label(sel.item)} has nothing to resolve now"
    return T.resolve_problem(
        state,
        craft,
        sel.item,
        target=action.target,
        at=action.at,
        form=action.form,
        use=action.use,
        power=action.power,
    )


def attack_extras_problem(state: SfaState, craft: CraftState, action: A.Resolve) -> str:
    """Targeting Computer Power and Temporal Displacement on an attack (SFA-TEC-26/28)."""
    ctype = state.type_of(craft)
    if action.power:
        if not ctype.has("targeting_computer"):
            return f"{craft.id} has no Targeting Computer to spend Power on (SFA-TEC-26)"
        if not 0 < action.power <= craft.power:
            return f"spend 1 to {craft.power} Power on the Targeting Computer (SFA-TEC-26)"
        if action.target not in state.craft:
            return "the Targeting Computer works against craft only (SFA-TEC-26)"
    if action.reroll:
        return "Temporal Displacement is used after the roll is seen, with Displace (SFA-TEC-28)"
    return ""
