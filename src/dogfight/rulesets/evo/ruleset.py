"""The `evo` ruleset: Babylon 5 fighters on Battlefield Evolution (seed 001).

A turn: each side activates each of its flights once (in player turns, or
alternating, by option). An active flight drifts 6" and then takes up to two
actions; enemy flights may react to each action with a free Shoot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from dogfight.core.context import NoDice
from dogfight.core.ending import end_at_turn_limit, end_by_elimination
from dogfight.core.errors import IllegalAction
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.core.ruleset import Ruleset, UnitRecord, swap_side_order
from dogfight.core.scenario import Scenario, inline_unit_files
from dogfight.core.text import agrees, plural_name
from dogfight.geometry import EPSILON, Vec2
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.command import commanders, give_command, may_give
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.movement import course_change, drift, move_together, remove
from dogfight.rulesets.evo.options import OPTIONS
from dogfight.rulesets.evo.ready import (
    arrive,
    in_hyperspace,
    jump_out,
    launchable,
    may_arrive,
    record_launch,
    usable_gates,
)
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.setup import build_state
from dogfight.rulesets.evo.shooting import (
    Allocation,
    Deal,
    Reach,
    allocations,
    deal,
    distance,
    firing_dice,
    fixed_rest,
    may_fire_at,
    on_my_six,
    reaction_target_ok,
    resolve_die,
    unit_models,
    weapon_reach,
    zone_models,
)
from dogfight.rulesets.evo.spatial import grid_of, nearest_of_side
from dogfight.rulesets.evo.state import EvoState, Flight, Model, PendingReaction, PendingShot
from dogfight.rulesets.evo.units import catalog, describe, find_unit, load_unit_file

if TYPE_CHECKING:
    from dogfight.core.encoding import Encoding
    from dogfight.core.hooks import Board, Command, LabSetup
    from dogfight.core.play import Player


class EvoRuleset(Ruleset[EvoState, A.EvoAction]):
    """Babylon 5 fighter-scale rules on Battlefield Evolution."""

    name = "evo"
    title = "Babylon 5 fighters on Battlefield Evolution (seed 001)"
    phase_names: ClassVar[Mapping[str, str]] = {
        "turn_start": "Start of turn",
        "order": "Initiative roll-off",
        "activate": "Activation",
        "act": "Actions",
        "react": "Reaction",
        "allocate": "Allocating hits",
    }
    """The phases in people's words (seed 001 on the Battlefield Evolution turn)."""
    odds_help = "EVO: one Shoot with one weapon."
    """The help line of `dogfight odds evo`."""
    aliases = ("bfevo", "b5evo")
    quick_scenario = "skirmish"
    search_budget = 20
    search_horizon = 1
    options = OPTIONS
    action_type = A.EvoAction
    unit_file_keys = (frozenset({"agility", "target"}),)
    score_meaning = "share of the enemy's starting points destroyed"  # scores()
    rules: ClassVar[EvoRules] = EvoRules()
    """The rule functions the engine, odds, player and board all call: a subclass
    overrides one by `rules = MyRules()`."""
    data_name: ClassVar[str] = "evo"
    """The name the ruleset's own files go by (rules text), kept by subclasses that
    register under another name."""

    # ---- the Ruleset hooks ------------------------------------------------------------

    def resolve_scenario(self, scenario: Scenario) -> Scenario:
        return inline_unit_files(scenario)

    def setup(
        self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog
    ) -> EvoState:
        state = build_state(scenario)
        state.options = dict(options)
        ctx = Ctx(state, state.options, log, self.rules)
        ctx.emit(
            "EVO-SEQ-1",
            f"{scenario.title}: {state.sides[0]} v {state.sides[1]}, "
            f'{state.turn_limit} turns on a {state.table.width:g}x{state.table.height:g}" '
            "table",
        )
        state.phase = "turn_start"
        if not state.first:
            roll_off(ctx)
        advance(ctx)
        return state

    def unit_names(self) -> list[str]:
        return sorted(catalog())

    # ---- what the layers above ask (core/hooks.py) ----------------------------------------

    def players(self) -> Mapping[str, Callable[[], Player]]:
        from dogfight.rulesets.evo.heuristic import EvoHeuristic
        from dogfight.rulesets.evo.weights import PERSONAS, persona

        def made(name: str) -> Callable[[], Player]:
            kind = f"heuristic:{name}"
            # The persona file is read (and checked) when a player is made.
            return lambda: EvoHeuristic(persona(name), kind)

        return {"heuristic": EvoHeuristic, **{f"heuristic:{n}": made(n) for n in PERSONAS}}

    def encoding(self, state: EvoState) -> Encoding:
        """The fixed action numbering and observation for learning (docs/rl.md)."""
        from dogfight.rulesets.evo.encoding import EvoEncoding

        return EvoEncoding(state)

    def board(self) -> Board:
        from dogfight.rulesets.evo.board import BOARD

        return BOARD

    def lab(self) -> LabSetup:
        from dogfight.rulesets.evo.lab import LAB

        return LAB

    def commands(self) -> tuple[Command, ...]:
        from dogfight.rulesets.evo.commands import evo_commands

        return evo_commands(self)

    def describe_unit(self, name: str) -> dict[str, Any]:
        return describe(find_unit(name))

    def check_unit_file(self, path: Path) -> str:
        unit = load_unit_file(path)
        return f"'{unit.id}' ({unit.name}), {unit.models} models"

    def summary(self, state: EvoState) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "phase": state.phase,
            "survivors": {
                side: [
                    {"id": f.id, "type": f.type, "models": len(f.models)}
                    for f in state.live_flights(side)
                ]
                for side in state.sides
            },
        }

    def actor_of(self, action: A.EvoAction) -> str | None:
        """The flight an action activates, moves or fires; None for the side's choices
        (initiative, declining a reaction, placing dice)."""
        unit = getattr(action, "unit", "")
        return unit if isinstance(unit, str) and unit else None

    def standing(self, state: EvoState) -> dict[str, float]:
        """The turn limit's count (EVO-WIN-2), for the search player: each side's
        share of the enemy's starting points destroyed."""
        return scores(state)

    def roster(self, state: EvoState) -> list[UnitRecord]:
        """Every flight; strength is models. A flight is destroyed once its last model
        is shot down (not when it disengages), by the flight that fired that shot."""
        return [
            UnitRecord(
                id=f.id,
                side=f.side,
                type=f.type,
                strength=float(f.start_models),
                remaining=float(len(f.models)),
                destroyed=not f.models and bool(f.lost_to),
                destroyed_by=f.lost_to or None,
            )
            for f in sorted(state.flights.values(), key=lambda f: f.id)
        ]

    def swap_sides(self, scenario: Scenario) -> Scenario:
        """Side order (the roll-off's dice) changes, and a scenario's `first` side
        becomes the other one (EVO-SEQ-1)."""
        swapped = swap_side_order(scenario)
        first = scenario.raw.get("first")
        sides = scenario.raw.get("sides")
        if not first or not isinstance(sides, list) or len(sides) != 2:
            return swapped
        names = [s.get("name") if isinstance(s, dict) else None for s in sides]
        if first not in names:
            return swapped  # setup names the bad field
        raw = dict(swapped.raw)
        raw["first"] = names[1] if first == names[0] else names[0]
        return msgspec.structs.replace(swapped, raw=raw)

    # ---- legal actions ----------------------------------------------------------------

    def ctx(self, state: EvoState) -> Ctx:
        """A question-only context (no dice) for the state."""
        return Ctx(state, state.options, EventLog(NoDice()), self.rules)  # type: ignore[arg-type]

    def legal_actions(self, state: EvoState) -> list[Any]:
        ctx = self.ctx(state)
        side = state.active
        if state.outcome is not None or not side:
            return []
        out: list[Any] = []
        if state.phase == "order":
            out = [A.ChooseOrder(first=True), A.ChooseOrder(first=False)]
        elif state.phase == "activate":
            givers = may_give(state, side)
            for f in ready_flights(state, side):
                out.append(A.Activate(unit=f.id))
                out.extend(
                    A.Activate(unit=f.id, command=c.id) for c in commanders(state, f, givers)
                )
        elif state.phase == "act":
            flight = state.flights[state.active_unit]
            if may_manoeuvre(flight):
                out.extend(manoeuvre_choices(ctx, flight))
            # Rotate is legal at any point, though only a first Rotate frees the Shoot.
            out.append(A.Rotate(unit=flight.id))
            # Only enemies within some weapon's reach of an acting model can be shot at
            # (firing_dice and launch_dice fire from the acting models).
            box = Reach(
                (state.models[m] for m in flight.acting if m in state.models),
                weapon_reach(ctx, flight),
            )
            lock_on = has_lock_on(state, flight)
            torpedoes = bool(launchable(state, flight))
            enemy_side = state.other(side)
            in_reach: dict[str, set[str]] = {}
            for m in grid_of(state).in_box(box.x0, box.y0, box.x1, box.y1):
                if state.flights[m.unit].side == enemy_side and box.holds(m):
                    in_reach.setdefault(m.unit, set()).add(m.id)
            for enemy in state.live_flights(enemy_side):
                close = in_reach.get(enemy.id)
                near = [state.models[m] for m in enemy.models if m in close] if close else []
                for model in near:
                    if may_fire_at(ctx, flight, model, reaction=False):
                        out.append(A.Shoot(unit=flight.id, target=model.id))
                if lock_on and flight.ready_target != enemy.id:
                    out.append(A.Ready(unit=flight.id, target_unit=enemy.id))
                if torpedoes:
                    out.extend(
                        A.LaunchTorpedo(unit=flight.id, target=model.id)
                        for model in near
                        if launch_dice(ctx, flight, model)
                    )
            out.extend(A.JumpOut(unit=flight.id, gate=g.id) for g in usable_gates(state, flight))
            out.append(A.EndActivation(unit=flight.id))
        elif state.phase == "allocate":
            out = allocation_choices(state)
        elif state.phase == "react":
            assert state.reaction is not None
            trigger = state.flights[state.reaction.trigger]
            for flight in reaction_candidates(ctx):
                for model in state.models_of(trigger):
                    if reaction_target_ok(ctx, flight, model):
                        out.append(A.React(unit=flight.id, target=model.id))
            out.append(A.Decline())
        return out

    # ---- checking -----------------------------------------------------------------------

    def check(self, state: EvoState, action: Any) -> None:
        ctx = self.ctx(state)
        side = state.active
        if state.outcome is not None:
            raise IllegalAction("the game is over")
        phases: dict[type, str] = {
            A.ChooseOrder: "order",
            A.Activate: "activate",
            A.Manoeuvre: "act",
            A.Rotate: "act",
            A.Shoot: "act",
            A.Ready: "act",
            A.LaunchTorpedo: "act",
            A.JumpOut: "act",
            A.EndActivation: "act",
            A.React: "react",
            A.Decline: "react",
            A.Allocate: "allocate",
        }
        phase = phases.get(type(action))
        if phase is None:
            raise IllegalAction(f"{type(action).__name__} is not an evo action")
        if phase != state.phase:
            waiting = {
                "order": "the roll-off winner to choose first or second (EVO-SEQ-1)",
                "activate": "a flight to activate",
                "act": "the active flight's action",
                "react": "reactions",
                "allocate": "the firing player's allocation of the dice left over",
            }.get(state.phase, state.phase)
            raise IllegalAction(f"not now: the game waits for {waiting} ({side} to decide)")
        if isinstance(action, A.Activate):
            flight = self.own_flight(state, action.unit, arriving=True)
            if flight.activated:
                raise IllegalAction(f"{flight.id} has already been active this turn (EVO-ACT-1)")
            if action.command and action.command not in {c.id for c in commanders(state, flight)}:
                raise IllegalAction(
                    f"{action.command} may not give {flight.id} a bonus action: it needs the "
                    "Command trait, its leader on the table and within command range of "
                    f"{flight.id}, and its bonus not yet given this turn (EVO-CMD-3)"
                )
            return
        if isinstance(action, A.Decline | A.ChooseOrder):
            return
        if isinstance(action, A.Allocate):
            check_allocation(state, action)
            return
        if isinstance(action, A.React):
            self.check_react(ctx, action)
            return
        flight = self.own_flight(state, action.unit)
        if flight.id != state.active_unit:
            raise IllegalAction(f"{state.active_unit} is the active flight, not {flight.id}")
        if len(flight.actions) >= flight.allowed:
            raise IllegalAction(f"{flight.id} has no actions left this activation")
        if isinstance(action, A.Manoeuvre):
            self.check_manoeuvre(ctx, flight, action)
        elif isinstance(action, A.Shoot):
            target = state.models.get(action.target)
            if target is None:
                raise IllegalAction(f"no model {action.target!r} on the table")
            if state.flights[target.unit].side == flight.side:
                raise IllegalAction(f"{target.id} is one of your own models")
            if not may_fire_at(ctx, flight, target, reaction=False):
                raise IllegalAction(
                    f"no weapon of {flight.id} is in range and arc of "
                    f"{target.id} (EVO-SHT-1, EVO-ARC-1)"
                )
        elif isinstance(action, A.Ready):
            enemy = state.flights.get(action.target_unit)
            if enemy is None or not enemy.models or enemy.side == flight.side:
                raise IllegalAction(f"{action.target_unit!r} is not an enemy flight on the table")
            if not has_lock_on(state, flight):
                raise IllegalAction(f"{flight.id} has no Lock-on weapon to ready (EVO-RDY-1)")
        elif isinstance(action, A.LaunchTorpedo):
            target = state.models.get(action.target)
            if target is None or state.flights[target.unit].side == flight.side:
                raise IllegalAction(f"{action.target!r} is not an enemy model on the table")
            if not launchable(state, flight):
                raise IllegalAction(f"{flight.id} has no torpedoes left to launch (EVO-TOR-1)")
            if not launch_dice(ctx, flight, target):
                raise IllegalAction(
                    f"no torpedo of {flight.id} is in range and arc of {target.id} (EVO-TOR-1)"
                )
        elif isinstance(action, A.JumpOut):
            gate = state.gates.get(action.gate)
            if gate is None:
                raise IllegalAction(f"no jump gate called {action.gate!r} (EVO-GATE-1)")
            if gate not in usable_gates(state, flight):
                raise IllegalAction(
                    f'no acting model of {flight.id} is within {gate.radius:g}" of jump gate '
                    f"{gate.id} (EVO-GATE-3)"
                )

    def own_flight(self, state: EvoState, fid: str, *, arriving: bool = False) -> Flight:
        """A flight of the side deciding, on the table (or, if `arriving`, one due to
        arrive through a jump gate, EVO-GATE-2)."""
        flight = state.flights.get(fid)
        due = arriving and flight is not None and may_arrive(state, flight)
        if flight is None or not (flight.models or due):
            if flight is not None and in_hyperspace(flight):
                raise IllegalAction(
                    f"{fid} is in hyperspace until turn {flight.arrive_turn} (EVO-GATE-2)"
                )
            raise IllegalAction(f"no flight {fid!r} on the table")
        if flight.side != state.active:
            raise IllegalAction(f"{fid} is not one of {state.active}'s flights")
        return flight

    def check_manoeuvre(self, ctx: Ctx, flight: Flight, action: A.Manoeuvre) -> None:
        """Manoeuvres come first; each model within Agility; the flight keeps together."""
        state = ctx.state
        if not may_manoeuvre(flight):
            raise IllegalAction("all manoeuvres come before any other action (EVO-MOV-2)")
        agility = state.unit_type(flight).agility
        ends: dict[str, Vec2] = {}
        for move in action.moves:
            if move.model not in flight.acting:
                raise IllegalAction(
                    f"{move.model} is not a model of {flight.id} in command (EVO-CMD-1)"
                )
            if move.model in ends:
                raise IllegalAction(f"{move.model} is moved twice")
            step = Vec2(move.dx, move.dy).length()
            if not ctx.rules.within_agility(step, agility):
                raise IllegalAction(
                    f'{move.model} may move {agility:g}" per manoeuvre, not {step:.2f}" (EVO-MOV-2)'
                )
            ends[move.model] = state.models[move.model].pose.position + Vec2(move.dx, move.dy)
        leader = flight.leader
        if leader and leader in state.models:
            # A model may not manoeuvre out of command range; one the drift already
            # carried out may still manoeuvre, if it gets no farther away (EVO-CMD-1).
            lead_now = state.models[leader].pose.position
            lead_end = ends.get(leader, lead_now)
            reach = float(ctx.opt("command_range"))
            for mid, end in ends.items():
                gap = end.distance(lead_end)
                was = state.models[mid].pose.position.distance(lead_now)
                if gap > reach + EPSILON and gap > was + EPSILON:
                    raise IllegalAction(
                        f'{mid} would end {gap:.1f}" from its leader, beyond the {reach:g}" '
                        "command range (EVO-CMD-1)"
                    )

    def check_react(self, ctx: Ctx, action: A.React) -> None:
        """A reaction is a free Shoot at the triggering flight, in printed arcs (EVO-REA-2)."""
        state = ctx.state
        assert state.reaction is not None
        flight = self.own_flight(state, action.unit)
        if flight not in reaction_candidates(ctx):
            why = "has already reacted this turn" if flight.reacted else "was not triggered"
            raise IllegalAction(f"{flight.id} may not react: it {why} (EVO-REA-1, EVO-REA-3)")
        target = state.models.get(action.target)
        if target is None or target.unit != state.reaction.trigger:
            raise IllegalAction(
                f"a reaction must shoot at the flight that triggered it, "
                f"{state.reaction.trigger} (EVO-REA-2)"
            )
        if not may_fire_at(ctx, flight, target, reaction=True):
            raise IllegalAction(
                f"no weapon of {flight.id} bears on {target.id} in its printed arcs (EVO-REA-2)"
            )
        if not reaction_target_ok(ctx, flight, target):
            close = float(ctx.opt("close_range"))
            raise IllegalAction(
                f'{target.id} is not within close range ({close:g}") of any model of '
                f"{flight.id} that could fire at it: a reaction fires only at models in "
                "close range (EVO-REA-2, EVO-CLS-1)"
            )

    # ---- applying -----------------------------------------------------------------------

    def apply(self, state: EvoState, action: Any, log: EventLog) -> None:
        ctx = Ctx(state, state.options, log, self.rules)
        if isinstance(action, A.ChooseOrder):
            choose_order(ctx, action.first)
        elif isinstance(action, A.Activate):
            begin_activation(ctx, state.flights[action.unit], action.command)
        elif isinstance(action, A.Decline):
            assert state.reaction is not None
            ctx.emit("EVO-REA-1", f"{state.active} makes no (more) reactions")
            state.reaction = None
            state.phase = "act"
        elif isinstance(action, A.Allocate):
            finish_shot(ctx, action.to)
        elif isinstance(action, A.React):
            flight = state.flights[action.unit]
            flight.reacted = True
            ctx.emit(
                "EVO-REA-2",
                f"{ctx.name(flight)} reacts, shooting at {ctx.name(action.target)}",
                unit=flight.id,
            )
            shoot(ctx, flight, state.models[action.target], reaction=True)
        else:
            flight = state.flights[action.unit]
            if isinstance(action, A.EndActivation):
                ctx.emit("EVO-ACT-1", f"{ctx.name(flight)} ends its activation", unit=flight.id)
                end_activation(ctx, flight)
            else:
                take_action(ctx, flight, action)
        advance(ctx)


# ---- the turn sequence ------------------------------------------------------------------


def roll_off(ctx: Ctx) -> None:
    """Before the battle both sides roll a die, again on a tie; the winner chooses to go
    first or second (EVO-SEQ-1), or by option `roll_off=winner_first` goes first."""
    state = ctx.state
    a, b = state.sides
    for _ in range(1000):
        ra, rb = ctx.roll(), ctx.roll()
        if ra != rb:
            winner = a if ra > rb else b
            if ctx.opt("roll_off") == "winner_first":
                state.first = winner
                ctx.emit(
                    "EVO-SEQ-1",
                    f"roll-off {a} {ra} v {b} {rb}: {state.first} goes first",
                    first=state.first,
                )
            else:
                state.roll_winner = winner
                state.phase = "order"
                ctx.emit(
                    "EVO-SEQ-1",
                    f"roll-off {a} {ra} v {b} {rb}: {agrees(winner, 'win')} and "
                    f"{'choose' if plural_name(winner) else 'chooses'} the order",
                    winner=winner,
                )
            return
        ctx.emit("EVO-SEQ-1", f"roll-off {a} {ra} v {b} {rb}: a tie, roll again")
    raise RuntimeError("roll-off tied 1000 times")  # pragma: no cover - dice script bug


def choose_order(ctx: Ctx, first: bool) -> None:
    """The roll-off winner's choice: it takes the first turn, or leaves it to the other
    side (EVO-SEQ-1)."""
    state = ctx.state
    winner = state.roll_winner
    state.first = winner if first else state.other(winner)
    ctx.emit(
        "EVO-SEQ-1",
        f"{winner} chooses to go {'first' if first else 'second'}: {state.first} goes first",
        first=state.first,
    )
    state.phase = "turn_start"


def advance(ctx: Ctx) -> None:
    """Run the automatic steps until a side must decide or the game is over."""
    state = ctx.state
    for _ in range(10_000):
        if state.outcome is not None:
            state.active = ""
            return
        if check_elimination(ctx):
            return
        if state.phase == "order":
            state.active = state.roll_winner
            return
        if state.phase == "turn_start":
            start_turn(ctx)
        elif state.phase == "activate":
            if choose_activating_side(ctx):
                return
        elif state.phase == "act":
            flight = state.flights.get(state.active_unit)
            if flight is None or not flight.models or len(flight.actions) >= flight.allowed:
                if flight is not None:
                    end_activation(ctx, flight)
                else:  # pragma: no cover - a flight never disappears from the dict
                    state.phase = "activate"
                continue
            state.active = flight.side
            return
        elif state.phase == "allocate":
            assert state.shot is not None
            state.active = state.flights[state.shot.flight].side
            return
        elif state.phase == "react":
            if reaction_candidates(ctx):
                state.active = state.other(state.flights[state.active_unit].side)
                return
            state.reaction = None
            state.phase = "act"
    raise RuntimeError("turn sequence did not reach a decision")  # pragma: no cover


def start_turn(ctx: Ctx) -> None:
    """A new game turn: every flight may be active once and react once (EVO-SEQ-2)."""
    state = ctx.state
    if state.turn >= state.turn_limit:
        finish_at_turn_limit(ctx)
        return
    state.turn += 1
    for flight in state.flights.values():
        flight.activated = False
        flight.reacted = False
        flight.actions = ()
        flight.ready_target = ""
        flight.gave_command = False
    state.turn_side = state.first
    state.phase = "activate"
    ctx.emit("EVO-SEQ-2", f"turn {state.turn} begins; {state.first} first")


def ready_flights(state: EvoState, side: str) -> list[Flight]:
    """The side's flights on the table not yet active this turn."""
    out = []
    for f in state.flights_by_id():
        if f.side == side and not f.activated:
            if f.models:
                out.append(f)
            if may_arrive(state, f):
                out.append(f)  # due through a jump gate (EVO-GATE-2)
    return out


def choose_activating_side(ctx: Ctx) -> bool:
    """Whose flight activates next; False (and a new turn) when all have been active."""
    state = ctx.state
    side = state.turn_side
    if ready_flights(state, side):
        state.active = side
        return True
    other = state.other(side)
    if ready_flights(state, other):
        if ctx.opt("activation") == "player_turns":
            ctx.emit("EVO-SEQ-2", f"{side}'s player turn ends; {other}'s begins")
        state.turn_side = other
        state.active = other
        return True
    state.phase = "turn_start"
    return False


def begin_activation(ctx: Ctx, flight: Flight, command: str = "") -> None:
    """Name a new leader if needed, take a Command bonus action if one is given, note
    who is in command, and drift (EVO-ACT-1, EVO-CMD-3)."""
    state = ctx.state
    state.active_unit = flight.id
    flight.actions = ()
    flight.ready_target = ""
    ctx.emit("EVO-ACT-1", f"{ctx.name(flight)} is the active flight", unit=flight.id)
    arriving = in_hyperspace(flight)
    if arriving:
        arrive(ctx, flight)
    leader_lost = not flight.leader or flight.leader not in state.models
    if leader_lost:
        new_leader(ctx, flight)
    suppressed = flight.suppressed
    if suppressed:
        flight.suppressed = False
        ctx.emit("EVO-SUP-1", f"{ctx.name(flight)} is suppressed: one action fewer", unit=flight.id)
    allowed = ctx.rules.actions_allowed(
        leader_lost=leader_lost,
        suppressed=suppressed,
        leader_costs=bool(ctx.opt("leader_loss_costs_action")),
    )
    if command:
        allowed = give_command(ctx, state.flights[command], flight, allowed)
    flight.allowed = allowed
    leader = state.models[flight.leader]
    reach = float(ctx.opt("command_range"))
    flight.acting = tuple(
        m for m in flight.models if distance(state.models[m], leader) <= reach + EPSILON
    )
    stray = [m for m in flight.models if m not in flight.acting]
    if stray:
        ctx.emit(
            "EVO-CMD-1",
            f"out of command, only drifting and reacting: {', '.join(stray)}",
            unit=flight.id,
            models=stray,
        )
    state.phase = "act"
    if arriving:
        # EVO-GATE-2: coming out of the gate is its movement and its Ready action; the
        # action complete, enemies may react to it (EVO-REA-1).
        open_reactions(ctx, flight, ())
        return
    # EVO-MOV-3: the drift itself never turns a model; facing changes only when a
    # manoeuvre ends (so a drift stopped at the table edge keeps its heading).
    drift(ctx, flight)


def new_leader(ctx: Ctx, flight: Flight) -> None:
    """The model nearest the flight's centre takes over as leader (EVO-CMD-2)."""
    state = ctx.state
    models = state.models_of(flight)
    cx = sum(m.pose.position.x for m in models) / len(models)
    cy = sum(m.pose.position.y for m in models) / len(models)
    centre = Vec2(cx, cy)
    leader = min(models, key=lambda m: (m.pose.position.distance(centre), m.id))
    flight.leader = leader.id
    flight.models = (leader.id, *[m for m in flight.models if m != leader.id])
    cost = " (costs an action)" if ctx.opt("leader_loss_costs_action") else ""
    ctx.emit("EVO-CMD-2", f"{ctx.name(leader)} takes over as leader{cost}", unit=flight.id)


def end_activation(ctx: Ctx, flight: Flight) -> None:
    """The flight is done for this turn; in alternate mode the other side goes next."""
    state = ctx.state
    flight.activated = True
    for model in state.models_of(flight):
        model.start = None
    state.active_unit = ""
    state.phase = "activate"
    if ctx.opt("activation") == "alternate":
        state.turn_side = state.other(flight.side)


def may_manoeuvre(flight: Flight) -> bool:
    """Manoeuvres must all come before any other action (EVO-MOV-2)."""
    return all(a == "manoeuvre" for a in flight.actions) and len(flight.actions) < flight.allowed


def launch_dice(ctx: Ctx, flight: Flight, target: Model) -> list[tuple[Any, Model]]:
    """The (torpedo weapon, firer) pairs a launch at `target` would fire (EVO-TOR-1)."""
    flight.launching = True
    try:
        return firing_dice(ctx, flight, target, reaction=False)[1]
    finally:
        flight.launching = False


def has_lock_on(state: EvoState, flight: Flight) -> bool:
    """True if the flight has a weapon that needs a Ready (EVO-RDY-1)."""
    return any(w.trait("Lock-on") is not None for w in state.unit_type(flight).weapons)


def take_action(ctx: Ctx, flight: Flight, action: Any) -> None:
    """Carry out one of the active flight's actions, then open the reaction window."""
    state = ctx.state
    shot_at: tuple[str, ...] = ()
    if isinstance(action, A.Manoeuvre):
        flight.actions = (*flight.actions, "manoeuvre")
        manoeuvre(ctx, flight, action)
    elif isinstance(action, A.Rotate):
        flight.actions = (*flight.actions, "rotate")
        free = len(flight.actions) == 1
        ctx.emit(
            "EVO-ROT-1",
            f"{ctx.name(flight)} rotates"
            + ("; its next Shoot ignores arcs" if free else " (wasted as a second action)"),
            unit=flight.id,
        )
    elif isinstance(action, A.Ready):
        flight.actions = (*flight.actions, "ready")
        flight.ready_target = action.target_unit
        ctx.emit(
            "EVO-RDY-1",
            f"{ctx.name(flight)} locks on to {ctx.name(action.target_unit)}",
            unit=flight.id,
            target=action.target_unit,
        )
    elif isinstance(action, A.Shoot):
        flight.actions = (*flight.actions, "shoot")
        shot_at = shoot(ctx, flight, state.models[action.target], reaction=False)
    elif isinstance(action, A.LaunchTorpedo):
        flight.actions = (*flight.actions, "ready")
        target = state.models[action.target]
        ctx.emit(
            "EVO-TOR-1",
            f"{ctx.name(flight)} readies and launches torpedoes at {ctx.name(target)}",
            unit=flight.id,
            target=target.id,
        )
        fired = [w for w, _ in launch_dice(ctx, flight, target)]
        flight.launching = True
        try:
            shot_at = shoot(ctx, flight, target, reaction=False)
        finally:
            flight.launching = False
        record_launch(ctx, flight, fired)
    elif isinstance(action, A.JumpOut):
        flight.actions = (*flight.actions, "ready")
        jump_out(ctx, flight, state.gates[action.gate])
    if state.phase == "allocate":
        return  # reactions open once the attacker has allocated (finish_shot)
    if flight.models:
        open_reactions(ctx, flight, shot_at)


def manoeuvre(ctx: Ctx, flight: Flight, action: A.Manoeuvre) -> None:
    """Move each model by its displacement; then the course change (EVO-MOV-2, -MOV-3)."""
    state = ctx.state
    moves = [
        (state.models[m.model], state.models[m.model].pose.position + Vec2(m.dx, m.dy))
        for m in action.moves
        if m.model in state.models
    ]
    moved = move_together(ctx, moves)
    for mid in moved:
        course_change(ctx, state.models[mid])
    ctx.emit(
        "EVO-MOV-2",
        f"{ctx.name(flight)} manoeuvres "
        + ", ".join(
            f"{m} to ({state.models[m].pose.position.x:.1f}, "
            f"{state.models[m].pose.position.y:.1f}) facing "
            f"{state.models[m].pose.heading:.0f}"
            for m in moved
        ),
        unit=flight.id,
        models=moved,
    )


def shoot(ctx: Ctx, flight: Flight, target: Model, *, reaction: bool) -> tuple[str, ...]:
    """Resolve a Shoot (or a reaction's free Shoot); returns the flights in the fire zone.

    Under free_allocation=choose, when dice are left over once every model has one and
    more than one model may take them, the Shoot stops in phase 'allocate' for the firing
    player's Allocate (EVO-SHT-4); `finish_shot` resolves it.
    """
    state = ctx.state
    firers, guns = firing_dice(ctx, flight, target, reaction=reaction)
    dice = sum(w.dice for w, _ in guns)
    names = sorted({w.name for w, _ in guns})
    ctx.emit(
        "EVO-SHT-1",
        f"{ctx.name(flight)}: {len(firers)} model(s) fire {dice} dice "
        f"({', '.join(names)}) at {ctx.name(target)}",
        unit=flight.id,
        target=target.id,
        dice=dice,
    )
    before = {fid: len(f.models) for fid, f in state.flights.items()}
    # EVO-REA-1: every flight with a model in the fire zone has been shot at.
    zone = zone_models(ctx, flight, target)
    shot_at = tuple(sorted({m.unit for m in zone} | {target.unit}))
    # The whole zone is logged before any die, so a model whose die comes up 1 (or that
    # gets none) still shows, and a player sees every flight that may react.
    ctx.emit(
        "EVO-SHT-2",
        f"fire zone round {target.id}: "
        + ", ".join(f"{m.id} ({m.unit})" for m in sorted(zone, key=lambda m: m.id)),
        target=target.id,
        zone=sorted(m.id for m in zone),
        shot_at=list(shot_at),
    )
    found = deal(ctx, flight, target, firers, guns)
    mode = str(ctx.opt("free_allocation"))
    if mode == "choose" and found.rest and len(found.takers) > 1:
        state.shot = PendingShot(
            flight=flight.id,
            target=target.id,
            reaction=reaction,
            firers=tuple(m.id for m in firers),
            given=found.given,
            rest=found.rest,
            takers=tuple(found.takers),
            shot_at=shot_at,
            before=before,
        )
        ctx.emit(
            "EVO-SHT-4",
            f"{flight.side} to allocate {len(found.rest)} "
            f"{'die' if len(found.rest) == 1 else 'dice'} left over "
            f"({', '.join(str(f) for f, _ in found.rest)}) among {', '.join(found.takers)}",
            unit=flight.id,
            rest=[f for f, _ in found.rest],
            takers=list(found.takers),
        )
        state.phase = "allocate"
        return shot_at
    rest = fixed_rest(found, target.id, "spread" if mode == "choose" else mode)
    resolve_shot(ctx, flight, firers, allocations(ctx, found, rest), before)
    return shot_at


def finish_shot(ctx: Ctx, to: tuple[str, ...]) -> None:
    """Resolve a Shoot whose left-over dice the firing player has placed (EVO-SHT-4), then
    go on as after any Shoot: reactions to an action, or back to the reaction window."""
    state = ctx.state
    pending = state.shot
    assert pending is not None
    state.shot = None
    flight = state.flights[pending.flight]
    firers = [state.models[m] for m in pending.firers if m in state.models]
    found = Deal(pending.given, pending.rest, list(pending.takers))
    resolve_shot(ctx, flight, firers, allocations(ctx, found, list(to)), pending.before)
    if pending.reaction:
        state.phase = "react"
        return
    state.phase = "act"
    if flight.models:
        open_reactions(ctx, flight, pending.shot_at)


def resolve_shot(
    ctx: Ctx,
    flight: Flight,
    firers: list[Model],
    allocations: list[Allocation],
    before: dict[str, int],
) -> None:
    """Resolve every die against its model, then suppression (EVO-DMG-*, EVO-SUP-1)."""
    state = ctx.state
    ctx.emit(
        "EVO-SHT-4",
        "dice after the 1s: "
        + (
            "; ".join(
                f"{a.model.id} {sorted((f for f, _ in a.dice), reverse=True)}" for a in allocations
            )
            or "none"
        ),
        allocations={a.model.id: [f for f, _ in a.dice] for a in allocations},
    )
    per_flight: dict[str, int] = {}
    removed_from: set[str] = set()
    for alloc in allocations:
        model = alloc.model
        per_flight[model.unit] = per_flight.get(model.unit, 0) + len(alloc.dice)
        six = on_my_six(ctx, model, unit_models(ctx, flight))
        for face, ap in alloc.dice:
            if model.id not in state.models:
                break
            result = resolve_die(ctx, model, face, ap, firers, six)
            shown = f"{face}{ctx.rules.six_bonus(six):+d}" if six else str(face)
            if result == "kill":
                remove(
                    ctx,
                    model,
                    "EVO-DMG-1",
                    f"is killed outright by a {shown}" + (" (on its six)" if six else ""),
                    destroyed=True,
                    by=flight.side,
                    shooter=flight.id,
                )
                removed_from.add(model.unit)
            elif result == "failed":
                remove(
                    ctx,
                    model,
                    "EVO-DMG-2",
                    f"is hit by a {shown} and fails its save",
                    destroyed=True,
                    by=flight.side,
                    shooter=flight.id,
                )
                removed_from.add(model.unit)
            elif result == "saved":
                ctx.emit(
                    "EVO-DMG-2", f"{ctx.name(model)} is hit by a {shown} and saves", model=model.id
                )
            else:
                ctx.emit("EVO-DMG-2", f"a {shown} misses {ctx.name(model)}", model=model.id)
    suppress(ctx, flight.side, per_flight, before, removed_from)


def check_allocation(state: EvoState, action: A.Allocate) -> None:
    """One model per left-over die, each one that may take it (EVO-SHT-4, EVO-SHT-5)."""
    pending = state.shot
    assert pending is not None
    if len(action.to) != len(pending.rest):
        raise IllegalAction(
            f"name one model for each of the {len(pending.rest)} dice left over, "
            f"not {len(action.to)} (EVO-SHT-4)"
        )
    for mid in action.to:
        if mid not in pending.takers:
            raise IllegalAction(
                f"{mid!r} may not take a left-over die: they go to "
                f"{', '.join(pending.takers)} (EVO-SHT-4, EVO-SHT-5)"
            )


def allocation_choices(state: EvoState) -> list[A.Allocate]:
    """Representative allocations: round the takers nearest first, round them farthest
    first, all on the nominated model, all on each other taker (check accepts any mix)."""
    pending = state.shot
    assert pending is not None
    n = len(pending.rest)
    takers = list(pending.takers)
    out = [A.Allocate(to=tuple(takers[i % len(takers)] for i in range(n)))]
    # Round again from the farthest: the next die to the model holding the lowest one.
    backward = takers[::-1]
    fill = A.Allocate(to=tuple(backward[i % len(backward)] for i in range(n)))
    if fill not in out:
        out.append(fill)
    for mid in sorted(takers, key=lambda m: m != pending.target):
        choice = A.Allocate(to=(mid,) * n)
        if choice not in out:
            out.append(choice)
    return out


def suppress(
    ctx: Ctx,
    firing_side: str,
    per_flight: dict[str, int],
    before: dict[str, int],
    removed_from: set[str],
) -> None:
    """Mark enemy flights suppressed by this Shoot, per the option (EVO-SUP-1).

    Only an enemy Shoot suppresses: the firer's own side, caught in its fire zone,
    takes the dice but is not pinned by them.

    dice: assigned at least as many dice (after the 1s) as it had models when shot at.
    casualty: lost a model to the Shoot.
    """
    mode = str(ctx.opt("suppression"))
    for fid, count in sorted(per_flight.items()):
        flight = ctx.state.flights[fid]
        if flight.side == firing_side or not flight.models or flight.suppressed:
            continue
        if ctx.rules.suppresses(count, before[fid], fid in removed_from, mode):
            flight.suppressed = True
            ctx.emit("EVO-SUP-1", f"{ctx.name(flight)} is suppressed", unit=fid)


def open_reactions(ctx: Ctx, flight: Flight, shot_at: tuple[str, ...]) -> None:
    """After an action, enemy flights within close range or shot at may react (EVO-REA-1)."""
    state = ctx.state
    state.reaction = PendingReaction(trigger=flight.id, shot_at=shot_at)
    if reaction_candidates(ctx):
        state.phase = "react"
    else:
        state.reaction = None


def reaction_candidates(ctx: Ctx) -> list[Flight]:
    """Enemy flights that may react now: triggered, not yet reacted this turn, and able to
    shoot the triggering flight within their printed arcs (EVO-REA-1..3)."""
    state = ctx.state
    pending = state.reaction
    if pending is None:
        return []
    trigger = state.flights[pending.trigger]
    if not trigger.models:
        return []
    close = float(ctx.opt("close_range"))
    triggers = state.models_of(trigger)
    # A flight with no model in this box has none within close range of the trigger.
    box = Reach(triggers, ctx.rules.reach_limit(close))
    # The flights with a model in the box, from the grid (a superset) in one query: any
    # other has no model in it, so none within close range (a walk over every enemy
    # model at every action made a turn's reactions grow with the square of the flights).
    boxed = {m.unit for m in grid_of(state).in_box(box.x0, box.y0, box.x1, box.y1)}
    out = []
    for flight in state.live_flights(state.other(trigger.side)):
        if flight.reacted or flight.id in pending.declined:
            continue
        near = flight.id in pending.shot_at or (
            flight.id in boxed
            and any(
                ctx.rules.within_close(distance(m, t), close)
                for m in state.models_of(flight)
                if box.holds(m)
                for t in triggers
            )
        )
        if not near:
            continue
        if any(reaction_target_ok(ctx, flight, t) for t in state.models_of(trigger)):
            out.append(flight)
    return out


def manoeuvre_choices(ctx: Ctx, flight: Flight) -> list[A.Manoeuvre]:
    """Representative manoeuvres: every model the same way, full Agility, eight ways round
    the flight's facing and straight at the nearest enemy."""
    state = ctx.state
    agility = ctx.rules.movement_budget(state.unit_type(flight).agility)
    acting = [state.models[m] for m in flight.acting if m in state.models]
    if not acting or agility <= 0:
        return []
    leader = acting[0]
    headings = [leader.pose.heading + a for a in range(0, 360, 45)]
    near = nearest_of_side(state, leader.pose.position, state.other(flight.side))
    if near is not None:
        headings.append((near.pose.position - leader.pose.position).angle())
    # `table.contains(position + step)` for every model, asked of the extreme models
    # only: a rounded sum never decreases as a term grows, so the leftmost sum is the
    # sum of the leftmost x, and so on (the same floats as asking each model).
    right, top = state.table.width + EPSILON, state.table.height + EPSILON
    x0 = min(m.pose.position.x for m in acting)
    x1 = max(m.pose.position.x for m in acting)
    y0 = min(m.pose.position.y for m in acting)
    y1 = max(m.pose.position.y for m in acting)
    ids = [m.id for m in acting]
    out = []
    for heading in headings:
        step = Vec2.polar(agility, heading).rounded()
        sx, sy = step.x, step.y
        if not (
            x0 + sx >= -EPSILON and x1 + sx <= right and y0 + sy >= -EPSILON and y1 + sy <= top
        ):
            continue
        out.append(A.Manoeuvre(unit=flight.id, moves=tuple([A.Move(i, sx, sy) for i in ids])))
    return out


# ---- the end of the game -----------------------------------------------------------------


def check_elimination(ctx: Ctx) -> bool:
    """A side with no models left on the table has lost (EVO-WIN-1)."""
    state = ctx.state
    # A side with a flight still to arrive through a jump gate is not gone (EVO-GATE-2).
    beaten = [
        s
        for s in state.sides
        if not any(f.side == s and f.models for f in state.flights.values())
        and not any(f.side == s and in_hyperspace(f) for f in state.flights.values())
    ]
    if not beaten:
        return False  # the usual case: no need to count the points
    return end_by_elimination(
        ctx,
        beaten,
        scores(state),
        "EVO-WIN-1",
        why="has no models left",
        why_both="both sides are gone",
    )


def scores(state: EvoState) -> dict[str, float]:
    """Each side's share of the enemy's starting points it destroyed."""
    out = {}
    for side in state.sides:
        enemy = state.other(side)
        lost = sum(
            state.types[f.type].points * f.destroyed
            for f in state.flights.values()
            if f.side == enemy
        )
        out[side] = round(lost / (state.start_points.get(enemy) or 1), 4)
    return out


def finish_at_turn_limit(ctx: Ctx) -> None:
    """At the turn limit the larger share of enemy points destroyed wins (EVO-WIN-2)."""
    end_at_turn_limit(
        ctx,
        scores(ctx.state),
        "EVO-WIN-2",
        decided=ctx.opt("turn_limit_result") == "points",
        what="destroyed more",
    )
