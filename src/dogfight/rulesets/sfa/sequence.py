"""The turn sequence: turns, the select and act phases, each actor's steps and
interrupt windows, and the end of the game (SFA-SEQ-*, SFA-SCL-2, SFA-WIN-*).

`advance` runs the automatic steps until a side must decide.
"""

from __future__ import annotations

from dogfight.core.ending import end_at_turn_limit, end_by_elimination
from dogfight.core.events import PRIVATE_TO
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.aborts import offer_after_interrupt, open_kinds, raise_late_field
from dogfight.rulesets.sfa.actors import (
    actor_key,
    describe_selection,
    interrupters,
    speed_of,
    split_key,
    wits_of,
)
from dogfight.rulesets.sfa.choices import charging, person_budget
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import STARSHIP
from dogfight.rulesets.sfa.missiles import fly_missiles
from dogfight.rulesets.sfa.state import CraftState, SfaState

STARSHIP_TURN = 5
"""Starfighter turns in one Starship turn (seed, "Interscale Combat")."""


def time_note(state: SfaState) -> str:
    """What the opening line says about scale and time (SFA-SCL-2, SFA-SF-3)."""
    if state.map_scale == 0:
        return " at Street Fighter scale"
    if state.mixed_time and state.options.get("starship_time", True):
        return f"; Starfighter turns, Starship-scale craft acting every {STARSHIP_TURN}th"
    return ""


def advance(ctx: Ctx) -> None:
    """Run automatic steps until a side must decide or the game is over."""
    state = ctx.state
    for _ in range(10_000):
        if state.outcome is not None:
            state.active = ""
            return
        if check_end(ctx):
            return
        if state.phase == "turn_start":
            start_turn(ctx)
        elif state.phase == "select":
            state.to_select = tuple(k for k in state.to_select if split_key(k)[0] in state.craft)
            if state.to_select:
                state.active = state.craft[split_key(state.to_select[0])[0]].side
                return
            reveal(ctx)
        elif state.phase == "act" and decide_next(ctx):
            return
    raise RuntimeError("turn sequence did not reach a decision")  # pragma: no cover


def start_turn(ctx: Ctx) -> None:
    """Reset the turn, fly the missiles, and ask every actor for a selection."""
    state = ctx.state
    if state.turn >= state.turn_limit:
        finish_at_turn_limit(ctx)
        return
    state.turn += 1
    ctx.emit("SFA-SEQ-1", f"turn {state.turn} begins")
    state.passive = starship_wait(ctx)
    for craft in state.craft.values():
        if craft.id in state.passive:
            continue  # its own turn, and what lasts for it, goes on (SFA-SCL-2)
        craft.maneuver_soak = craft.maneuver_handling = craft.hexes_moved = 0
        craft.willpower_spent = False
        craft.botch_penalty, craft.botched = craft.botched, False
    T.upkeep(ctx)
    fly_missiles(ctx)
    dazed: set[str] = set()
    for craft in sorted(state.craft.values(), key=lambda c: c.id):
        if craft.id in state.passive:
            continue
        if state.is_person(craft) and (craft.disabled or craft.stunned):
            # A person does not drift: knocked out, it lies where it fell (SFA-SF-6).
            if craft.stunned and not craft.disabled:
                craft.stunned -= 1
                dazed.add(craft.id)
                ctx.emit("SFA-SF-6", f"{craft.id} is stunned: no action this turn")
            continue
        if craft.disabled and craft.id in state.craft:
            drift_disabled(ctx, craft)
        elif craft.stunned and craft.id in state.craft:
            craft.stunned -= 1
            dazed.add(craft.id)
            T.drift(
                ctx,
                craft,
                craft.stun_clause or "SFA-TEC-09",
                f"{craft.id} is stunned: no action this turn, it drifts one hex",
            )
    state.selections = {}
    state.speeds = {}
    keys: list[str] = []
    for side in state.sides:
        for craft in state.operational(side):
            if craft.id in dazed or craft.id in state.passive:
                continue
            keys.append(actor_key(craft.id, 0))
            keys += [actor_key(craft.id, i + 1) for i in range(len(craft.gunners))]
    state.to_select = tuple(keys)
    state.phase = "select"


def starship_wait(ctx: Ctx) -> tuple[str, ...]:
    """The Starship-scale craft that sit out this turn: with Starship-scale craft and
    smaller units in one battle, a turn is a Starfighter turn, and 1 Starship turn is 5
    of them, so Starship-scale craft act on turns 1, 6, 11... (SFA-SCL-2)."""
    state = ctx.state
    own_turn = (state.turn - 1) % STARSHIP_TURN == 0
    if not state.mixed_time or not ctx.opt("starship_time") or own_turn:
        return ()
    waiting = tuple(
        sorted(c.id for c in state.craft.values() if state.type_of(c).scale >= STARSHIP)
    )
    if waiting and (state.turn - 1) % STARSHIP_TURN == 1:
        again = state.turn - 1 + STARSHIP_TURN
        ctx.emit(
            "SFA-SCL-2",
            f"{', '.join(waiting)} (Starship scale) "
            + ("hold their" if len(waiting) > 1 else "holds its")
            + f" course until turn {again}: 1 Starship turn is {STARSHIP_TURN} Starfighter turns",
            passive=list(waiting),
        )
    return waiting


def drift_disabled(ctx: Ctx, craft: CraftState) -> None:
    """A disabled craft drifts one hex ahead each turn (SFA-STR-1)."""
    T.drift(ctx, craft, "SFA-STR-1", f"{craft.id} drifts one hex, out of action")


def reveal(ctx: Ctx) -> None:
    """Speeds are revealed and the order set, slowest first (SFA-SEQ-2, SFA-SEQ-3)."""
    state = ctx.state
    for craft in sorted(state.craft.values(), key=lambda c: c.id):
        chosen = [s for k, s in state.selections.items() if split_key(k)[0] == craft.id]
        if craft.cloaked and any(s.kind != "none" for s in chosen):
            # Announcing a new action drops the cloak at once (SFA-TEC-25).
            craft.cloaked = False
            ctx.emit("SFA-TEC-25", f"{craft.id} decloaks to act", unit=craft.id)
    for key, sel in state.selections.items():
        state.speeds[key] = speed_of(state, key, sel)
    ranked = sorted(
        state.selections,
        key=lambda k: (
            state.speeds[k],
            wits_of(state, k),
            state.sides.index(state.craft[split_key(k)[0]].side),
            k,
        ),
    )
    state.order = tuple(ranked)
    state.acting = ""
    state.interrupted = ()
    state.tie = ()
    # SFA-SEQ-2, rules-notes C.3: revealing shows each action's Speed only; what it is
    # (weapon, technology, target, dice traded) stays the actor's side's own until the
    # action resolves.
    for side in state.sides:
        own = [k for k in ranked if state.craft[split_key(k)[0]].side == side]
        if own:
            mine = "; ".join(
                f"{k} {describe_selection(state.selections[k], state.craft.get(split_key(k)[0]))}"
                for k in own
            )
            ctx.emit("SFA-SEQ-2", f"{side}'s actions: {mine}", **{PRIVATE_TO: side})
    # A shown decoy is listed with its projector's Speed, as the observation shows it.
    public = {k: state.speeds[T.twin_of(state, k)] for k in T.with_twins(state, list(ranked))}
    text = "; ".join(f"{k} Speed {v}" for k, v in public.items())
    ctx.emit("SFA-SEQ-2", f"Speeds revealed, slowest first: {text}", speeds=public)
    state.phase = "act"


def decide_next(ctx: Ctx) -> bool:
    """Move the act phase on to its next decision; False when the turn has ended."""
    state = ctx.state
    if not state.acting:
        state.order = tuple(
            k
            for k in state.order
            if split_key(k)[0] in state.craft
            and (not state.craft[split_key(k)[0]].disabled or k in state.tie)
        )
        if not state.order:
            end_turn(ctx)
            return False
        if state.order[0] not in state.tie:
            state.tie = tie_of(state, state.order[0])
        begin_actor(ctx, state.order[0])
        return False
    if state.abort_offer:
        pilot = state.craft.get(split_key(state.abort_offer)[0])
        if pilot is not None and open_kinds(state, state.abort_offer):
            state.active = pilot.side
            return True
        state.abort_offer = ""
    craft_id, _ = split_key(state.acting)
    craft = state.craft.get(craft_id)
    if craft is None or (craft.disabled and state.acting not in state.tie):
        finish_actor(ctx)
        return False
    if state.step.startswith("window"):
        state.window_sides = tuple(s for s in state.window_sides if interrupters(state, s))
        if state.window_sides:
            state.active = state.window_sides[0]
            return True
        state.step = "move" if state.step == "window_move" else "resolve"
        return False
    if state.step == "move":
        if (
            state.is_person(craft)
            and not craft.held_by
            and not person_budget(state, craft, state.selections[state.acting])
        ):
            # Nowhere a person could go this turn: no move to decide (SFA-SF-3).
            open_window(state, "window_resolve")
            return False
        holder = state.craft.get(craft.held_by) if craft.held_by else None
        if craft.held_by and holder is None:
            craft.held_by = ""
        # A craft held in a Tractor Beam is moved by its holder (SFA-TEC-29).
        state.active = holder.side if holder is not None else craft.side
        return True
    if state.step == "resolve":
        raise_late_field(ctx)
        selection = state.selections[state.acting]
        waits = selection.kind == "attack" or (
            selection.kind == "equipment"
            and selection.item in T.RESOLVE_TECHS
            and not charging(craft, selection)
            and bool(T.resolve_options(state, craft, selection.item))
        )
        if not waits:
            finish_actor(ctx)
            return False
        state.active = craft.side
        return True
    raise RuntimeError(f"unknown step {state.step}")  # pragma: no cover


def tie_of(state: SfaState, first: str) -> tuple[str, ...]:
    """The actors still to act that are tied with `first` on Speed and Wits, when they
    belong to both sides: with option `speed_ties` 'simultaneous' (the default) they act
    at one moment, so each takes its action even if another of them puts its craft out
    of action first (SFA-SEQ-3, rules-notes C.3 proposal). Empty otherwise."""
    if state.options.get("speed_ties", "simultaneous") != "simultaneous":
        return ()
    rank = (state.speeds[first], wits_of(state, first))
    group = tuple(k for k in state.order if (state.speeds[k], wits_of(state, k)) == rank)
    sides = {state.craft[split_key(k)[0]].side for k in group}
    return group if len(sides) > 1 else ()


def begin_actor(ctx: Ctx, key: str) -> None:
    """An actor's slot opens: faster actors may interrupt before its move (SFA-SEQ-4)."""
    state = ctx.state
    state.acting = key
    _, station = split_key(key)
    state.step = "window_move" if station == 0 else "window_resolve"
    side = state.craft[split_key(key)[0]].side
    state.window_sides = (state.other(side), side)


def interrupt(ctx: Ctx, actor: str) -> None:
    """A faster actor interrupts the one acting (SFA-SEQ-4); the interrupted pilot may
    answer with an abort before the interrupter acts (SFA-SEQ-5)."""
    state = ctx.state
    interrupted = state.acting
    ctx.emit(
        "SFA-SEQ-4",
        f"{actor} (Speed {state.speeds[actor]}) interrupts {interrupted}",
        actor=actor,
        interrupts=interrupted,
    )
    state.interrupted = (*state.interrupted, f"{interrupted}|{state.step}")
    begin_actor(ctx, actor)
    offer_after_interrupt(state, interrupted)


def open_window(state: SfaState, step: str) -> None:
    """Before a move or a resolution, each side in turn may interrupt with a faster
    actor: the other side first, then the actor's own (SFA-SEQ-4)."""
    state.step = step
    craft = state.craft.get(split_key(state.acting)[0])
    state.window_sides = (state.other(craft.side), craft.side) if craft is not None else ()


def finish_actor(ctx: Ctx) -> None:
    """The actor has acted; resume whoever it interrupted."""
    state = ctx.state
    state.order = tuple(k for k in state.order if k != state.acting)
    if state.interrupted:
        entry = state.interrupted[-1]
        state.interrupted = state.interrupted[:-1]
        key, step = entry.split("|")
        state.acting, state.step = key, step
        side = state.craft[split_key(key)[0]].side if split_key(key)[0] in state.craft else ""
        state.window_sides = (state.other(side), side) if side else ()
    else:
        state.acting = ""
        state.step = ""


def end_turn(ctx: Ctx) -> None:
    """The turn ends: Tractor Beam contests, and charged devices become ready."""
    T.end_of_turn(ctx)
    ctx.state.phase = "turn_start"


def check_end(ctx: Ctx) -> bool:
    """A side with no craft still fighting has lost (SFA-WIN-1)."""
    state = ctx.state
    if state.phase == "turn_start" and state.turn == 0:
        return False
    if state.phase == "act" and any(k in state.order for k in state.tie):
        return False  # a simultaneous moment is played out in full first (SFA-SEQ-3)
    fighting = {c.side for c in state.craft.values() if not c.disabled}
    beaten = [s for s in state.sides if s not in fighting]
    if not beaten:
        return False  # the scores are counted only for an ending
    return end_by_elimination(
        ctx,
        beaten,
        scores(state),
        "SFA-WIN-1",
        why="has no craft still fighting",
        why_both="neither side has a craft fighting",
    )


def scores(state: SfaState) -> dict[str, float]:
    """Each side's share of the enemy's starting Structure it has knocked out."""
    out = {}
    for side in state.sides:
        enemy = state.other(side)
        start = sum(v for k, v in state.start_structure.items() if state.owner[k] == enemy)
        left = sum(max(0, c.structure) for c in state.craft.values() if c.side == enemy)
        left += sum(v for k, v in state.disengaged.items() if state.owner[k] == enemy)
        out[side] = round(1 - left / start, 4) if start else 0.0
    return out


def finish_at_turn_limit(ctx: Ctx) -> None:
    """At the turn limit, the side that knocked out more wins (SFA-WIN-2)."""
    end_at_turn_limit(
        ctx,
        scores(ctx.state),
        "SFA-WIN-2",
        decided=ctx.opt("turn_limit_result") == "damage",
        what="did more damage",
    )
