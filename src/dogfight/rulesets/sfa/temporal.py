"""Temporal Displacement as a reaction (SFA-TEC-28).

The seed: "Allows the player to re-roll the last die rolled ... 5 Power per use and can
be used at any time without the use of an action". So the device is asked after a roll
is seen, not before it is made, and about rolls made against its craft as well as its
own: every attack roll (a weapon's, a missile's, an area effect's), every Piloting roll
through obstacles and every roll of a tractor beam or of the craft straining in one.
The rules notes (C.6) read "the last die" as the whole last roll; option
`temporal_reroll` = die re-rolls only the die rolled last.

A roll is made deep inside some other rule (a missile's flight, a move through
debris), so the engine cannot simply stop there and wait. Instead, an action whose
resolution may meet such a roll is carried out with dice that are recorded; at a roll
the device may change, with no answer yet, the resolution stops (`Suspend`) and the
state records the action, the state before it, the faces drawn and the answers given.
Once the craft's side answers, the action is carried out again from that state with
the same faces and answers, its events already shown left out of the log, so that it
goes on exactly where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from dogfight.core.events import Event, EventLog
from dogfight.dice import Dice, DiceSource
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.pool import (
    DEFAULT_DIFFICULTY,
    SIDES,
    PoolResult,
    count_faces,
    roll_pool,
)
from dogfight.rulesets.sfa.state import PendingRoll, Rerolls, SfaState

TEMPORAL_POWER = 5
"""Power one use of the device costs (seed, Temporal Displacement Device)."""

DEVICE = "temporal_displacement"


class Suspend(Exception):
    """A roll waits on an answer: the resolution under way stops here."""

    def __init__(self, roll: PendingRoll) -> None:
        super().__init__(f"{roll.asked[0]} may re-roll the last roll (SFA-TEC-28)")
        self.roll = roll


class _Recorded(DiceSource):
    """Faces drawn again from a record first, then from the game's own dice; every face
    served is recorded, for the next replay."""

    def __init__(self, real: Dice, faces: tuple[int, ...]) -> None:
        self.real = real
        self.faces = faces
        self.next = 0
        self.drawn: list[int] = []

    def face(self, sides: int) -> int:
        if self.next < len(self.faces):
            value = self.faces[self.next]
            self.next += 1
        else:
            value = self.real.source.face(sides)
            self.real.count += 1
        self.drawn.append(value)
        return value

    def clone(self) -> _Recorded:
        dup = _Recorded(self.real, self.faces)
        dup.next = self.next
        dup.drawn = list(self.drawn)
        return dup


class ReplayLog(EventLog):
    """The log of a resolution that a Temporal Displacement Device may stop: it leaves
    out the first `mute` events (already in the game's log from an earlier attempt),
    adds the rest to the game's log, and hands each offered roll its recorded answer."""

    def __init__(
        self, real: EventLog, faces: tuple[int, ...], answers: tuple[str, ...], mute: int
    ) -> None:
        self.source = _Recorded(real.dice, faces)
        super().__init__(Dice(self.source))
        self.events = real.events
        self.mute = mute
        self.count = 0
        self.answers = answers
        self.offered = 0

    def emit(self, clause: str, text: str, **data: Any) -> Event:
        event = Event(clause=clause, text=text, rolls=self.dice.take(), data=data)
        self.count += 1
        if self.count > self.mute:
            self.events.append(event)
        return event


# ---- who may use it ---------------------------------------------------------------


def may_displace(state: SfaState, craft_id: str) -> bool:
    """Whether a craft has the device, is in the battle and can pay for a use now."""
    craft = state.craft.get(craft_id)
    return (
        craft is not None
        and not craft.disabled
        and state.type_of(craft).has(DEVICE)
        and craft.power >= TEMPORAL_POWER
    )


def who_may_displace(state: SfaState, by: str, against: str) -> tuple[str, ...]:
    """The craft to ask about a roll: its roller's, then the one rolled against."""
    return tuple(dict.fromkeys(c for c in (by, against) if c and may_displace(state, c)))


def in_play(state: SfaState) -> bool:
    """Whether any craft in the battle carries the device (else no roll is offered and
    actions resolve as they always did, with no recording)."""
    return any(state.type_of(c).has(DEVICE) for c in state.craft.values())


# ---- the roll ---------------------------------------------------------------------


def roll(
    ctx: Ctx,
    size: int,
    *,
    kind: str,
    by: str,
    against: str = "",
    willpower: bool = False,
    difficulty: int = DEFAULT_DIFFICULTY,
    good: Callable[[PoolResult], bool] | None = None,
    harm: Callable[[PoolResult], int] | None = None,
) -> PoolResult:
    """Roll a pool that a Temporal Displacement Device may re-roll once it is seen
    (SFA-TEC-28): the result that stands. `by` is the craft whose roll it is,
    `against` the craft it is rolled against; `good` says whether a result does what
    the roller wanted (default: a net success) and `harm` the damage it does to
    `against` if it stands, both for the players deciding."""
    result = roll_pool(
        ctx.log.dice, size, willpower=willpower, difficulty=difficulty, judge=ctx.rules.judge
    )
    log = ctx.log
    if not isinstance(log, ReplayLog):
        return result
    state = ctx.state
    while True:
        asked = who_may_displace(state, by, against)
        if not asked:
            return result
        pending = PendingRoll(
            kind=kind,
            by=by,
            against=against,
            size=result.dice,
            net=result.net,
            good=good(result) if good is not None else result.net >= 1,
            harm=harm(result) if harm is not None else 0,
            asked=asked,
        )
        ctx.emit(
            "SFA-TEC-28",
            (f"{by}'s {kind} roll" if by else f"a {kind} roll")
            + (f" against {against}" if against else "")
            + f": {dice_count(result.dice)}, {result.net} net"
            + (f", {pending.harm} damage" if pending.harm else "")
            + "; Temporal Displacement may re-roll it",
            unit=by or against,
            target=against,
            dice=result.dice,
            net=result.net,
        )
        index = log.offered
        log.offered += 1
        if index >= len(log.answers):
            raise Suspend(pending)
        user = log.answers[index]
        if not user:
            return result
        craft = state.craft[user]
        craft.power -= TEMPORAL_POWER
        again = "the die rolled last" if die_only(ctx) else f"the roll of {dice_count(result.dice)}"
        ctx.emit(
            "SFA-TEC-28",
            f"{user} fires its Temporal Displacement Device: {again} is made again "
            f"({craft.power} Power left)",
            unit=user,
        )
        result = reroll(ctx, result)


def dice_count(n: int) -> str:
    """'1 die', '4 dice'."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def die_only(ctx: Ctx) -> bool:
    """Option `temporal_reroll` = die: only the die rolled last is rolled again."""
    return bool(ctx.opt("temporal_reroll") == "die")


def reroll(ctx: Ctx, result: PoolResult) -> PoolResult:
    """The roll made again: whole (the notes' reading), or only its last die under
    option `temporal_reroll` = die (the seed's words taken literally)."""
    if die_only(ctx):
        faces = (*result.faces[:-1], ctx.log.dice.roll(SIDES))
        return count_faces(
            faces, willpower=result.willpower, difficulty=result.difficulty, judge=ctx.rules.judge
        )
    return roll_pool(
        ctx.log.dice,
        result.dice,
        willpower=result.willpower,
        difficulty=result.difficulty,
        judge=ctx.rules.judge,
    )


# ---- resolving an action that a roll may stop --------------------------------------


def apply_action(
    state: SfaState, action: Any, log: EventLog, body: Callable[[SfaState, Any, EventLog], None]
) -> None:
    """Resolve `action` with `body(state, action, log)` (the ruleset's own resolution).
    When a craft with the device is in the battle, the resolution is recorded so that a
    roll may stop it for an answer; a `Displace` gives that answer and the resolution
    goes on."""
    if isinstance(action, A.Displace):
        answer(state, action, log, body)
        return
    if not in_play(state):
        body(state, action, log)
        return
    attempt(state, state.clone(), action, (), (), 0, log, body)


def attempt(
    state: SfaState,
    base: SfaState,
    action: Any,
    answers: tuple[str, ...],
    faces: tuple[int, ...],
    shown: int,
    log: EventLog,
    body: Callable[[SfaState, Any, EventLog], None],
) -> None:
    """Carry out `action` on `state` (equal to `base`), replaying `faces` and
    `answers`; if a roll stops it, record where, and hand the decision to the side of
    the first craft asked."""
    replay = ReplayLog(log, faces, answers, shown)
    try:
        body(state, action, replay)
    except Suspend as stop:
        state.temporal = Rerolls(
            action=action,
            base=base,
            faces=tuple(replay.source.drawn),
            answers=answers,
            shown=replay.count,
            roll=stop.roll,
        )
        state.active = state.craft[stop.roll.asked[0]].side


def answer(
    state: SfaState,
    action: A.Displace,
    log: EventLog,
    body: Callable[[SfaState, Any, EventLog], None],
) -> None:
    """Take a craft's answer about the pending roll. A craft that keeps it hands the
    question on to the next craft asked, if any; a re-roll, or the last craft keeping
    it, lets the resolution go on from the state before it with this answer added."""
    run = state.temporal
    assert run is not None and run.base is not None
    pending = run.roll
    if not action.use:
        Ctx(state, state.options, log).emit(
            "SFA-TEC-28", f"{action.craft} lets the roll stand", unit=action.craft
        )
        if len(pending.asked) > 1:
            run.roll = msgspec.structs.replace(pending, asked=pending.asked[1:])
            state.active = state.craft[run.roll.asked[0]].side
            return
    answers = (*run.answers, action.craft if action.use else "")
    restore(state, run.base.clone())
    attempt(state, run.base, run.action, answers, run.faces, run.shown, log, body)


def restore(state: SfaState, source: SfaState) -> None:
    """Make `state` (the game's own object) hold what `source` holds."""
    for field in msgspec.structs.fields(SfaState):
        setattr(state, field.name, getattr(source, field.name))


# ---- the decision through the Game API ---------------------------------------------


def displace_actions(state: SfaState) -> list[Any]:
    """The answers open to the craft asked now: keep the roll, or re-roll it."""
    run = state.temporal
    if run is None or not run.roll.asked:
        return []
    craft = run.roll.asked[0]
    return [A.Displace(craft=craft, use=False), A.Displace(craft=craft, use=True)]


def displace_problem(state: SfaState, action: Any) -> str:
    """Why an action is illegal while a roll waits on a re-roll answer ('' if legal)."""
    run = state.temporal
    if run is None or not run.roll.asked:
        return "there is no roll to re-roll now (SFA-TEC-28)"
    asked = run.roll.asked[0]
    if run.base is None:
        return (
            "this copy of the game holds only what one side may know: the roll that "
            "waits cannot be carried on from it (SFA-TEC-28)"
        )
    if not isinstance(action, A.Displace):
        return (
            f"{asked} first says whether it re-rolls the last roll with its "
            "Temporal Displacement Device (SFA-TEC-28)"
        )
    if action.craft != asked:
        return f"{asked}, not {action.craft}, decides on a re-roll now (SFA-TEC-28)"
    if action.use and not may_displace(state, action.craft):
        return f"{action.craft} lacks the {TEMPORAL_POWER} Power for a re-roll (SFA-TEC-28)"
    return ""


def wants_reroll(state: SfaState, craft_id: str, *, few: int, hurt: int) -> bool:
    """A plain judgement of the pending roll for `craft_id`'s side: its own roll of at
    least `few` dice that did not do what it wanted, or a roll against it that does at
    least `hurt` damage, puts it out, or grabs it in a tractor beam."""
    run = state.temporal
    craft = state.craft.get(craft_id)
    if run is None or craft is None:
        return False
    pending = run.roll
    if craft_id == pending.by:
        return not pending.good and pending.size >= few
    if craft_id != pending.against:
        return False
    if pending.kind in ("tractor", "beam", "escape"):
        return pending.good
    return pending.harm > 0 and (pending.harm >= hurt or pending.harm >= craft.structure)
