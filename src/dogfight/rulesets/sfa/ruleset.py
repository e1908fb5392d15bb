"""The `sfa` ruleset: Space Fighter Alpha on a hex map (seed 003).

A turn: every pilot and gunner secretly picks an action; Speeds are revealed; the
slowest acts first, each craft moving and then resolving, while faster actors may
interrupt before a move or a resolution. Missiles fly first, at Speed 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.context import NoDice
from dogfight.core.data import read_yaml
from dogfight.core.ending import end_at_turn_limit, end_by_elimination
from dogfight.core.errors import IllegalAction
from dogfight.core.events import PRIVATE_TO, EventLog
from dogfight.core.options import Option, OptionValue
from dogfight.core.ruleset import Outcome, Ruleset, UnitRecord
from dogfight.core.scenario import Scenario, inline_unit_files
from dogfight.geometry.hex import Hex, hex_linedraw, hex_to_offset
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.combat import (
    bears,
    collide,
    cross_obstacle,
    damage_craft,
    defending_scale,
    missile_attack,
    name,
    roll_attack,
    soak_against,
)
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import (
    STARSHIP,
    TECHNOLOGIES,
    Weapon,
    catalog,
    describe,
    find_craft,
    load_craft_file,
)
from dogfight.rulesets.sfa.maneuvers import candidate_steps, trace
from dogfight.rulesets.sfa.person import load_fighter_file
from dogfight.rulesets.sfa.setup import build_state
from dogfight.rulesets.sfa.state import CraftState, Decoy, Missile, Selection, SfaState

EXTRA_MOVE = 3
"""Hexes added by the 'move up to 3 more hexes' action, which is also its Speed bonus."""
STARSHIP_TURN = 5
"""Starfighter turns in one Starship turn (seed, "Interscale Combat")."""
MISSILE_MOVE = 5
MISSILE_SOAK = 10

OPTIONS: tuple[Option, ...] = (
    Option(
        name="zero_destroys",
        default=False,
        clause="SFA-STR-1",
        doc="false: a craft at 0 Structure is disabled and destroyed only at minus its starting "
        "Structure. true: destroyed at 0 (the seed's Damage section).",
    ),
    Option(
        name="willpower_once_per_turn",
        default=True,
        clause="SFA-SEQ-6",
        doc="true: a pilot spends at most one Willpower point a turn (SF:TSG). false: no limit.",
    ),
    Option(
        name="collision_soak",
        default=True,
        clause="SFA-COL-1",
        doc="true: collision damage is reduced by the victim's craft Soak (PROPOSAL). false: "
        "the seed's example taken literally, no Soak.",
    ),
    Option(
        name="turn_limit_result",
        default="damage",
        choices=("damage", "draw"),
        clause="SFA-WIN-2",
        doc="At the turn limit: damage: the side that took the smaller share of its starting "
        "Structure wins. draw: a draw.",
    ),
    Option(
        name="starship_time",
        default=True,
        clause="SFA-SCL-2",
        doc="true: in a battle of Starship-scale craft with smaller units, a turn is a "
        "Starfighter turn and Starship-scale craft act on turns 1, 6, 11... only. false: "
        "every craft acts every turn.",
    ),
    Option(
        name="superpowered_street_fighters",
        default=False,
        clause="SFA-SF-7",
        doc="true: Street Fighters count one scale higher (as Starfighters) for interscale "
        "combat (the seed's optional rule). false: Street Fighter scale.",
    ),
)


def time_note(state: SfaState) -> str:
    """What the opening line says about scale and time (SFA-SCL-2, SFA-SF-3)."""
    if state.map_scale == 0:
        return " at Street Fighter scale"
    if state.mixed_time and state.options.get("starship_time", True):
        return f"; Starfighter turns, Starship-scale craft acting every {STARSHIP_TURN}th"
    return ""


def actor_key(craft: str, station: int) -> str:
    """'R1#0' for R1's pilot, 'R1#1' for its first gunner."""
    return f"{craft}#{station}"


def split_key(key: str) -> tuple[str, int]:
    """The craft id and station of an actor key."""
    craft, _, station = key.rpartition("#")
    return craft, int(station)


class SfaRuleset(Ruleset):
    """Space Fighter Alpha for Street Fighter: The Storytelling Game."""

    name = "sfa"
    title = "Space Fighter Alpha on a hex map (seed 003)"
    aliases = ("space-fighter-alpha",)
    options = OPTIONS
    action_type = A.SfaAction
    unit_file_keys = (
        frozenset({"handling", "structure", "move"}),
        frozenset({"strength", "stamina", "athletics"}),
    )

    # ---- hooks ------------------------------------------------------------------------

    def resolve_scenario(self, scenario: Scenario) -> Scenario:
        return inline_unit_files(scenario)

    def setup(
        self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog
    ) -> SfaState:
        state = build_state(scenario)
        state.options = dict(options)
        ctx = Ctx(state, state.options, log)
        ctx.emit(
            "SFA-SEQ-1",
            f"{scenario.title}: {state.sides[0]} v {state.sides[1]}, "
            f"{state.turn_limit} turns on a {state.map.width}x{state.map.height} hex map"
            + time_note(state),
        )
        advance(ctx)
        return state

    def current_player(self, state: SfaState) -> str | None:
        return None if state.outcome is not None else state.active

    def outcome(self, state: SfaState) -> Outcome | None:
        return state.outcome

    def observation(self, state: SfaState, player: str | None) -> dict[str, Any]:
        data = msgspec.to_builtins(state)
        data.pop("types", None)
        if state.phase == "select":
            # SFA-SEQ-1: selections stay secret until Speeds are revealed.
            data["selections"] = {
                key: sel
                for key, sel in data["selections"].items()
                if state.craft.get(split_key(key)[0]) is not None
                and state.craft[split_key(key)[0]].side == player
            }
        hide_from(state, player, data)
        return dict(data)

    def unit_names(self) -> list[str]:
        return sorted(catalog())

    def describe_unit(self, name: str) -> dict[str, Any]:
        return describe(find_craft(name))

    def check_unit_file(self, path: Path) -> str:
        raw = read_yaml(path)
        if isinstance(raw, dict) and "athletics" in raw:
            person = load_fighter_file(path)
            return f"'{person.id}' ({person.name}), Street Fighter"
        craft = load_craft_file(path)
        return f"'{craft.id}' ({craft.name}), {craft.scale_label}"

    def summary(self, state: SfaState) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "phase": state.phase,
            "survivors": {
                side: [
                    {
                        "id": c.id,
                        "type": c.type,
                        "structure": c.structure,
                        **({"disabled": True} if c.disabled else {}),
                    }
                    for c in sorted(state.craft.values(), key=lambda c: c.id)
                    if c.side == side
                ]
                for side in state.sides
            },
        }

    def roster(self, state: SfaState) -> list[UnitRecord]:
        """Every craft and person, gone ones included; strength is starting Structure
        (Health). A craft out of action counts as destroyed, by the craft whose damage
        first put it out; one that left the map is removed, not destroyed. Side order
        breaks Speed ties (SFA-SEQ-3), so the default `swap_sides` hands that over."""
        records = [*state.gone, *(state.record(c) for c in state.craft.values())]
        return sorted(records, key=lambda r: r.id)

    # ---- legal actions ------------------------------------------------------------------

    def ctx(self, state: SfaState) -> Ctx:
        """A question-only context."""
        return Ctx(state, state.options, EventLog(NoDice()))  # type: ignore[arg-type]

    def legal_actions(self, state: SfaState) -> list[Any]:
        if state.outcome is not None or not state.active:
            return []
        ctx = self.ctx(state)
        out: list[Any] = []
        if state.phase == "select":
            key = state.to_select[0]
            for kind, item in choices_for(state, key):
                out.append(A.Select(actor=key, kind=kind, item=item))
                if trades_dice(state, key, kind, item):
                    out.append(A.Select(actor=key, kind=kind, item=item, speed_dice=2))
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
            for steps in move_choices(state, craft, sel):
                out.append(A.Move(craft=craft_id, steps=steps))
            if (sel.kind, sel.item) == ("equipment", "teleport"):
                out += [A.Move(craft=craft_id, dest=d) for d in T.teleport_choices(state, craft)]
            for kind in abort_kinds(state, craft, sel):
                if kind == "teleport":
                    out += [
                        A.Move(craft=craft_id, dest=d, abort=kind)
                        for d in T.teleport_choices(state, craft)
                    ]
                    continue
                item = "" if kind == "extra_move" else kind
                mode = Selection(kind="equipment" if item else kind, item=item)
                # Offered like ordinary moves: on the map and clear of other craft first.
                for steps in move_choices(state, craft, mode):
                    action = A.Move(craft=craft_id, steps=steps, abort=kind)
                    if self.move_problem(ctx, action) == "":
                        out.append(action)
        elif state.step == "resolve":
            out = [A.Resolve(actor=state.acting)]
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
                if ctype.has("temporal_displacement") and craft.power >= T.power_needed(
                    "temporal_displacement"
                ):
                    out.append(A.Resolve(actor=state.acting, target=target, reroll=True))
        return out

    # ---- checking ---------------------------------------------------------------------

    def check(self, state: SfaState, action: Any) -> None:
        ctx = self.ctx(state)
        if state.outcome is not None:
            raise IllegalAction("the game is over")
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
            if not 0 <= action.speed_dice <= 10:
                raise IllegalAction("trade 0 to 10 dice for Speed (SFA-SEQ-2)")
            return
        if state.phase != "act":
            raise IllegalAction(f"not now: the game is in its {state.phase} step")
        if isinstance(action, A.Pass):
            if not state.step.startswith("window"):
                raise IllegalAction("there is no interrupt to pass on now")
            return
        if isinstance(action, A.Interrupt):
            if not state.step.startswith("window"):
                raise IllegalAction("there is nothing to interrupt now")
            if action.actor not in interrupters(state, state.active):
                raise IllegalAction(
                    f"{action.actor} is not a faster actor of {state.active} "
                    f"still to act (SFA-SEQ-4)"
                )
            return
        if isinstance(action, A.Move):
            if state.step != "move" or split_key(state.acting)[0] != action.craft:
                raise IllegalAction(f"{action.craft} is not the craft moving now")
            problem = self.move_problem(ctx, action)
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
                raise IllegalAction(
                    f"{action.actor} fires a weapon: give a target only (SFA-ATK-1)"
                )
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

    def move_problem(self, ctx: Ctx, action: A.Move) -> str:
        """Why a move is illegal ('' if it is legal)."""
        state = ctx.state
        craft = state.craft[action.craft]
        selection = state.selections[state.acting]
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
        if action.abort:
            if action.abort != "extra_move" and action.abort not in T.ABORT_TECHS:
                offered = ", ".join(["extra_move", *sorted(T.ABORT_TECHS)])
                return f"the abort actions on offer are: {offered} (SFA-SEQ-5)"
            if action.abort == "extra_move":
                if not may_abort(state, craft):
                    return f"{craft.id}'s pilot has no Willpower left for an abort (SFA-SEQ-5)"
                selection = Selection(kind="extra_move")
            else:
                if not may_spend_willpower(state, craft):
                    return f"{craft.id}'s pilot has no Willpower left for an abort (SFA-SEQ-5)"
                problem = T.equipment_problem(state, craft, action.abort)
                if problem:
                    return problem
                selection = Selection(kind="equipment", item=action.abort)
        if action.dest is not None:
            if (selection.kind, selection.item) != ("equipment", "teleport"):
                return "only a Teleport moves to a chosen hex (SFA-TEC-27)"
            if action.steps:
                return "a Teleport replaces the move: give no steps (SFA-TEC-27)"
            return T.teleport_problem(state, craft, action.dest)
        budget = move_budget(state, craft, selection)
        least = least_hexes(state, craft, selection)
        path = trace(craft.hex, craft.facing, action.steps, budget, min_hexes=least)
        if state.type_of(craft).move == 0 and path.maneuvers:
            return "a craft with Move 0 may not maneuver (SFA-MOV-2)"
        if least == 0 and path.hexes and charging(craft, selection):
            return f"{craft.id} must hold still to charge its {T.label(selection.item)}"
        move = state.type_of(craft).move
        if not path.problem and selection.kind == "equipment" and budget > move:
            return T.booster_problem(action.steps, move)
        return path.problem

    # ---- applying ---------------------------------------------------------------------

    def apply(self, state: SfaState, action: Any, log: EventLog) -> None:
        ctx = Ctx(state, state.options, log)
        if isinstance(action, A.Select):
            state.selections[action.actor] = Selection(
                kind=action.kind, item=action.item, speed_dice=action.speed_dice
            )
            state.to_select = state.to_select[1:]
            ctx.emit(
                "SFA-SEQ-1",
                f"{state.active} selects an action for {action.actor} (kept secret)",
                actor=action.actor,
            )
        elif isinstance(action, A.Pass):
            state.window_sides = state.window_sides[1:]
        elif isinstance(action, A.Interrupt):
            ctx.emit(
                "SFA-SEQ-4",
                f"{action.actor} (Speed {state.speeds[action.actor]}) interrupts {state.acting}",
                actor=action.actor,
                interrupts=state.acting,
            )
            state.interrupted = (*state.interrupted, f"{state.acting}|{state.step}")
            begin_actor(ctx, action.actor)
        elif isinstance(action, A.Move):
            do_move(ctx, action)
        elif isinstance(action, A.Resolve):
            resolve(ctx, action)
        advance(ctx)


# ---- choices ----------------------------------------------------------------------------


def station_weapons(state: SfaState, craft: CraftState, station: int) -> list[Weapon]:
    """Weapons a station fires: the pilot the forward ones (all with Auto-Turrets), a
    gunner the turreted ones (SFA-ATK-1)."""
    ctype = state.type_of(craft)
    if station == 0:
        auto = ctype.has("auto_turrets")
        manned = len(craft.gunners) > 0
        return [w for w in ctype.weapons if not w.turret or auto or not manned]
    return [w for w in ctype.weapons if w.turret]


def choices_for(state: SfaState, key: str) -> list[tuple[str, str]]:
    """(kind, item) pairs an actor may select (SFA-SEQ-1)."""
    craft_id, station = split_key(key)
    craft = state.craft.get(craft_id)
    if craft is None:
        return []
    out = [("none", "")]
    if state.is_person(craft):
        # A Street Fighter picks one of its maneuvers, or moves 3 more hexes where it
        # can move at all; it carries no equipment (SFA-SF-2).
        out += [("attack", w.name) for w in state.type_of(craft).weapons]
        if state.map_scale == 0:
            out.append(("extra_move", ""))
        return out
    out += [
        ("attack", w.name)
        for w in station_weapons(state, craft, station)
        if not expendable(w) or craft.expended.get(w.name, 0) < w.count
    ]
    if station == 0 and state.type_of(craft).move > 0:
        out.append(("extra_move", ""))
        out += [
            ("equipment", tech)
            for tech in TECHNOLOGIES
            if tech in T.ACTION_TECHS and not T.equipment_problem(state, craft, tech)
        ]
    return out


def trades_dice(state: SfaState, key: str, kind: str, item: str) -> bool:
    """Whether a selection rolls the actor's own attack pool, so dice can be traded for
    Speed: not a missile (its pool is its own), nor a move or equipment (SFA-SEQ-2)."""
    if kind != "attack":
        return False
    craft = state.craft.get(split_key(key)[0])
    if craft is None:
        return False
    weapon = next((w for w in state.type_of(craft).weapons if w.name == item), None)
    return weapon is not None and not weapon.guided


def expendable(weapon: Weapon) -> bool:
    """Missiles and rocket salvos are bought one at a time and used up (SFA-ATK-6)."""
    return weapon.guided or weapon.damage_checks > 1


def move_budget(state: SfaState, craft: CraftState, selection: Selection) -> int:
    """Hexes the craft may fly this turn: Move, plus 3 for the extra-move action, plus
    5 (straight) for Boosters it can pay for (SFA-TEC-04). A Street Fighter: Athletics
    + the maneuver's Move modifier (+ 3 for the extra move) on a Street Fighter-scale
    map, nothing on a Starfighter-scale one (SFA-SF-3)."""
    if state.is_person(craft):
        return person_budget(state, craft, selection)
    move = state.type_of(craft).move
    if selection.kind == "extra_move":
        return move + EXTRA_MOVE
    if (
        (selection.kind, selection.item) == ("equipment", "boosters")
        and move > 0
        and craft.power >= T.power_needed("boosters")
    ):
        return move + T.BOOST_HEXES
    return move


def charging(craft: CraftState, selection: Selection) -> bool:
    """The craft charges a Death Blossom or Pi-Tac Cannon this turn (SFA-TEC-06/19)."""
    return (
        selection.kind == "equipment"
        and selection.item in T.DOOMSDAY
        and not T.firing(craft, selection.item)
    )


def least_hexes(state: SfaState, craft: CraftState, selection: Selection) -> int:
    """Every craft must fly 1 hex, except a Move 0 craft and one charging a doomsday
    device, which must hold still (SFA-MOV-2, SFA-TEC-06, SFA-TEC-19)."""
    return 0 if state.type_of(craft).move == 0 or charging(craft, selection) else 1


def move_choices(state: SfaState, craft: CraftState, selection: Selection) -> list[str]:
    """Step strings on offer: legal, on the map and not into another craft (a craft
    with its Hyper-Ram on may choose to ram)."""
    if charging(craft, selection):
        return [""]
    budget = move_budget(state, craft, selection)
    least = least_hexes(state, craft, selection)
    move = state.type_of(craft).move
    candidates = candidate_steps(budget)
    if budget > move and selection.kind == "equipment":
        candidates = [s + "F" * T.BOOST_HEXES for s in candidate_steps(move)] + [
            "F" * n for n in range(1, budget + 1)
        ]
    legal = [
        steps
        for steps in candidates
        if not trace(craft.hex, craft.facing, steps, budget, min_hexes=least).problem
        and not (budget > move and selection.kind == "equipment" and T.booster_problem(steps, move))
    ]
    if (selection.kind, selection.item) == ("equipment", "hyper_ram"):
        return legal
    safe = [
        steps
        for steps in legal
        if all(
            state.map.contains(h) and not visible_occupant(state, craft, h)
            for h in trace(craft.hex, craft.facing, steps, budget, min_hexes=least).hexes
        )
    ]
    # Boxed in, a craft still has to fly: then the moves that collide or leave are offered.
    return safe or legal


def visible_occupant(state: SfaState, craft: CraftState, where: Hex) -> bool:
    """A craft the mover can see is in the hex (a cloaked enemy is not seen: SFA-TEC-25)."""
    other = state.occupant(where, ignore=craft.id)
    return other is not None and T.sees(state, craft, other)


def abort_kinds(state: SfaState, craft: CraftState, selection: Selection) -> list[str]:
    """What the craft may abort to now for 1 Willpower: the 3 extra hexes, or an abort
    technology it carries and can pay for (SFA-SEQ-5). A Street Fighter has no abort
    (the engine has no Block or Jump: SFA-SF-2)."""
    if state.is_person(craft):
        return []
    # Aborting to what the craft already chose would only spend Willpower.
    out = ["extra_move"] if may_abort(state, craft) and selection.kind != "extra_move" else []
    if not may_spend_willpower(state, craft):
        return out
    for tech in TECHNOLOGIES:
        if (
            tech in T.ABORT_TECHS
            and (selection.kind, selection.item) != ("equipment", tech)
            and not T.equipment_problem(state, craft, tech)
        ):
            out.append(tech)
    return out


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
        if not ctype.has("temporal_displacement"):
            return f"{craft.id} has no Temporal Displacement Device (SFA-TEC-28)"
        if craft.power < T.power_needed("temporal_displacement"):
            return f"{craft.id} lacks the 5 Power for Temporal Displacement (SFA-TEC-28)"
        if craft.power - action.power < T.power_needed("temporal_displacement"):
            return "not enough Power for both the Targeting Computer and a re-roll (SFA-TEC-28)"
    return ""


def hide_from(state: SfaState, player: str | None, data: dict[str, Any]) -> None:
    """What the other side may not see: cloaked craft (unless it has Enhanced Sensors),
    and which 'craft' are really decoys (SFA-TEC-25, SFA-TEC-13, SFA-TEC-16). A
    spectator (None) sees only what every side sees."""
    crafts: dict[str, Any] = data["craft"]
    for craft in state.craft.values():
        if not T.side_sees(state, player, craft):
            crafts.pop(craft.id, None)
    mine: dict[str, Any] = {}
    for decoy in state.decoys.values():
        owner = state.craft.get(decoy.owner)
        if owner is None:
            continue
        if owner.side == player:
            mine[decoy.id] = data["decoys"][decoy.id]
            continue
        fake = msgspec.to_builtins(owner)
        fake.update(id=decoy.id, hex=[decoy.hex.q, decoy.hex.r], facing=decoy.facing)
        fake["cloaked"] = False
        crafts[decoy.id] = fake
        data["owner"][decoy.id] = owner.side
        data["start_structure"][decoy.id] = state.start_structure.get(owner.id, 0)
    data["craft"] = dict(sorted(crafts.items()))
    data["decoys"] = mine


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


def targets_for(ctx: Ctx, key: str) -> list[str]:
    """Enemy craft and missiles the actor's selected weapon can reach now."""
    state = ctx.state
    craft_id, _ = split_key(key)
    craft = state.craft.get(craft_id)
    selection = state.selections.get(key)
    if craft is None or selection is None or selection.kind != "attack":
        return []
    if craft.cloaked or craft.force_field:
        return []  # no firing while cloaked or behind a Force Field (SFA-TEC-25, SFA-TEC-14)
    weapon = next((w for w in state.type_of(craft).weapons if w.name == selection.item), None)
    if weapon is None:
        return []
    person = state.is_person(craft)
    aims: list[tuple[str, Hex]] = [
        (other.id, other.hex)
        for other in state.craft.values()
        if other.side != craft.side and T.sees(state, craft, other)
    ]
    aims += [(d.id, d.hex) for d in state.decoys.values() if state.owner.get(d.owner) != craft.side]
    out = [uid for uid, where in sorted(aims) if not bears(state, craft, weapon, where)]
    if not weapon.guided and not person:
        for missile in sorted(state.missiles.values(), key=lambda m: m.id):
            if missile.side != craft.side and not bears(state, craft, weapon, missile.hex):
                out.append(missile.id)
    return out


# ---- the turn sequence -------------------------------------------------------------------


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


def person_budget(state: SfaState, craft: CraftState, selection: Selection) -> int:
    """Hexes a Street Fighter may move this turn (SFA-SF-3): Athletics + the chosen
    maneuver's Move modifier (+ 3 for the extra move), at least 0, on a Street
    Fighter-scale map; none on a Starfighter-scale map, where one hex is 500 of its own."""
    if state.map_scale >= 1:
        return 0
    design = state.type_of(craft)
    athletics = design.fighter.athletics if design.fighter is not None else design.move
    modifier = 0
    if selection.kind == "attack":
        weapon = next((w for w in design.weapons if w.name == selection.item), None)
        modifier = weapon.move if weapon is not None else 0
    elif selection.kind == "extra_move":
        modifier = EXTRA_MOVE
    return max(0, athletics + modifier)


def person_moves(state: SfaState, craft: CraftState, selection: Selection) -> list[Hex]:
    """Hexes a Street Fighter may move to: on the map, within its budget, and empty."""
    budget = person_budget(state, craft, selection)
    return [
        h
        for h in sorted(craft.hex.spiral(budget), key=lambda h: (h.q, h.r))
        if h != craft.hex and state.map.contains(h) and state.occupant(h, ignore=craft.id) is None
    ]


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


def person_move(ctx: Ctx, craft: CraftState, dest: Hex | None, budget: int) -> None:
    """A Street Fighter moves straight to a hex within its reach (SFA-SF-3)."""
    if dest is None or dest == craft.hex:
        if budget:
            ctx.emit("SFA-SF-3", f"{name(ctx, craft.id)} stands its ground", unit=craft.id)
        return
    hexes = craft.hex.distance(dest)
    craft.hex = dest
    craft.hexes_moved = hexes
    place = hex_to_offset(dest)
    ctx.emit(
        "SFA-SF-3",
        f"{name(ctx, craft.id)} moves {hexes} hex{'es' if hexes != 1 else ''} "
        f"to [{place.col}, {place.row}]",
        unit=craft.id,
    )


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
    text = "; ".join(
        f"{k} {describe_selection(state.selections[k], state.craft.get(split_key(k)[0]))} "
        f"Speed {state.speeds[k]}"
        for k in ranked
    )
    ctx.emit("SFA-SEQ-2", f"actions revealed, slowest first: {text}", speeds=dict(state.speeds))
    state.phase = "act"


def wits_of(state: SfaState, key: str) -> int:
    """The actor's Wits: on equal Speed the higher Wits is faster (SFA-SEQ-3, PROPOSAL)."""
    craft_id, station = split_key(key)
    craft = state.craft[craft_id]
    return craft.pilot.wits if station == 0 else craft.gunners[station - 1].wits


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


def decide_next(ctx: Ctx) -> bool:
    """Move the act phase on to its next decision; False when the turn has ended."""
    state = ctx.state
    if not state.acting:
        state.order = tuple(
            k
            for k in state.order
            if split_key(k)[0] in state.craft and not state.craft[split_key(k)[0]].disabled
        )
        if not state.order:
            end_turn(ctx)
            return False
        begin_actor(ctx, state.order[0])
        return False
    craft_id, _ = split_key(state.acting)
    craft = state.craft.get(craft_id)
    if craft is None or craft.disabled:
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


def begin_actor(ctx: Ctx, key: str) -> None:
    """An actor's slot opens: faster actors may interrupt before its move (SFA-SEQ-4)."""
    state = ctx.state
    state.acting = key
    _, station = split_key(key)
    state.step = "window_move" if station == 0 else "window_resolve"
    side = state.craft[split_key(key)[0]].side
    state.window_sides = (state.other(side), side)


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


def do_move(ctx: Ctx, action: A.Move) -> None:
    """Fly the move hex by hex: obstacles, collisions and the map edge (SFA-MOV-*)."""
    state = ctx.state
    craft = state.craft[action.craft]
    key = state.acting
    selection = state.selections[key]
    if action.abort:
        spend_willpower(craft)
        if action.abort == "extra_move":
            selection = Selection(kind=action.abort)
        else:
            selection = Selection(kind="equipment", item=action.abort)
        state.selections[key] = selection
        ctx.emit(
            "SFA-SEQ-5",
            f"{craft.id} aborts to "
            f"{describe_selection(selection) if not selection.item else T.label(action.abort)}"
            " for 1 "
            f"Willpower ({craft.willpower} left)",
            unit=craft.id,
        )
    budget = move_budget(state, craft, selection)
    least = least_hexes(state, craft, selection)
    if selection.kind == "equipment":
        T.start_move_equipment(ctx, craft, selection.item)
    if craft.held_by:
        T.drag(ctx, craft, action.dest)
        T.check_decoys(ctx)
        open_window(state, "window_resolve")
        return
    if state.is_person(craft):
        person_move(ctx, craft, action.dest, budget)
        open_window(state, "window_resolve")
        return
    if action.dest is not None:
        T.teleport(ctx, craft, action.dest)
        T.check_decoys(ctx)
        open_window(state, "window_resolve")
        return
    path = trace(craft.hex, craft.facing, action.steps, budget, min_hexes=least)
    craft.maneuver_soak += path.soak
    craft.maneuver_handling += path.handling
    face = path.facing
    if craft.cloaked:
        first = len(ctx.log.events)
        fly_path(ctx, craft, action, path, face)
        # SFA-TEC-25: where a cloaked craft flies, and what it meets on the way, is logged
        # for its own side only; damage it takes (which decloaks it) stays public.
        for i in range(first, len(ctx.log.events)):
            event = ctx.log.events[i]
            if event.clause in PRIVATE_MOVE_CLAUSES:
                ctx.log.events[i] = msgspec.structs.replace(
                    event, data={**event.data, PRIVATE_TO: craft.side}
                )
        return
    fly_path(ctx, craft, action, path, face)


PRIVATE_MOVE_CLAUSES = frozenset({"SFA-MOV-1", "SFA-MOV-6", "SFA-OBS-1", "SFA-TEC-25"})
"""Clauses of the events a cloaked craft's move keeps from the other side."""


def fly_path(ctx: Ctx, craft: CraftState, action: A.Move, path: Any, face: int) -> None:
    """Fly a traced path hex by hex: obstacles, collisions and the map edge."""
    state = ctx.state
    if craft.cloaked:
        # Stealth: the other side is not told where the craft goes (SFA-TEC-25).
        ctx.emit("SFA-TEC-25", f"{craft.id} moves, cloaked", unit=craft.id)
    else:
        ctx.emit(
            "SFA-MOV-1",
            f"{name(ctx, craft.id)} flies {action.steps or 'nowhere'}"
            + (
                f" ({', '.join(path.maneuvers)}: Soak {path.soak:+d}, Handling {path.handling:+d})"
                if path.maneuvers
                else ""
            ),
            unit=craft.id,
            steps=action.steps,
        )
    for where in path.hexes:
        if not state.map.contains(where):
            state.disengaged[craft.id] = max(0, craft.structure)
            state.remove_craft(craft, destroyed=False)
            ctx.emit(
                "SFA-MOV-6", f"{name(ctx, craft.id)} leaves the map and disengages", unit=craft.id
            )
            open_window(state, "window_resolve")
            return
        other = state.occupant(where, ignore=craft.id)
        craft.hexes_moved += 1
        if other is not None:
            collide(ctx, craft, other)
            break
        craft.hex = where
        if not T.on_enter(ctx, craft, where):
            break
        if not cross_obstacle(ctx, craft, where):
            break
    if craft.id in state.craft:
        craft.facing = face
        T.follow_decoys(ctx, craft, action.steps)
    open_window(state, "window_resolve")


def resolve(ctx: Ctx, action: A.Resolve) -> None:
    """Resolve an attack: a pool per weapon and damage check (SFA-ATK-*)."""
    state = ctx.state
    craft_id, station = split_key(action.actor)
    craft = state.craft[craft_id]
    selection = state.selections[action.actor]
    if selection.kind == "equipment":
        if action.target or action.at is not None or action.form or action.use:
            T.use_equipment(
                ctx,
                craft,
                selection.item,
                target=action.target,
                at=action.at,
                form=action.form,
                power=action.power,
            )
        else:
            ctx.emit(
                T.CLAUSE[selection.item],
                f"{craft.id} does not use its {T.label(selection.item)}",
                unit=craft.id,
            )
        finish_actor(ctx)
        return
    if not action.target:
        ctx.emit("SFA-ATK-2", f"{action.actor} does not fire", actor=action.actor)
        finish_actor(ctx)
        return
    weapon = next(w for w in state.type_of(craft).weapons if w.name == selection.item)
    if action.willpower:
        spend_willpower(craft)
    if expendable(weapon):
        craft.expended[weapon.name] = craft.expended.get(weapon.name, 0) + 1
    if weapon.guided:
        launch(ctx, craft, weapon, action.target)
        finish_actor(ctx)
        return
    if action.target in state.decoys:
        # A decoy cannot dodge: any weapon fired at it shows it up (SFA-TEC-16).
        T.vanish(ctx, action.target, f"{action.actor}'s {weapon.name} passes through a hologram")
        finish_actor(ctx)
        return
    ctype = state.type_of(craft)
    if action.power:
        craft.power -= action.power
        ctx.emit(
            "SFA-TEC-26",
            f"{craft.id}'s Targeting Computer locks on for {action.power} Power "
            f"({craft.power} left)",
            unit=craft.id,
        )
    shots = weapon.count if weapon.fire_linked and not expendable(weapon) else 1
    # SFA-ATK-5: the Willpower point buys one success, on the first roll of the action.
    bought = action.willpower
    for _ in range(shots):
        for _check in range(weapon.damage_checks):
            if action.target in state.missiles:
                shoot_missile(
                    ctx,
                    craft,
                    station,
                    weapon,
                    state.missiles[action.target],
                    selection,
                    bought,
                )
                bought = False
                break
            target = state.craft.get(action.target)
            if target is None:
                break
            soak = soak_against(state, target, ctype, action.power)
            damage, botch, size = roll_attack(
                ctx,
                craft,
                station,
                weapon,
                soak,
                defending_scale(state, target, ctype),
                speed_dice=selection.speed_dice,
                willpower=bought,
                reroll=action.reroll,
            )
            ctx.emit(
                "SFA-ATK-1",
                f"{action.actor} fires {weapon.name} at {name(ctx, target.id)}:"
                f" {size} dice against Soak {soak}: {damage} damage"
                + (" (Willpower success)" if bought else "")
                + (", a botch" if botch else ""),
                actor=action.actor,
                target=target.id,
                dice=size,
                damage=damage,
            )
            bought = False
            if botch:
                craft.botched = True
                ctx.emit("SFA-ATK-4", f"{craft.id} botched: -2 Speed next turn", unit=craft.id)
            damage_craft(ctx, target, damage, "SFA-ATK-1", weapon.name, source=ctype, by=craft.id)
    finish_actor(ctx)


def launch(ctx: Ctx, craft: CraftState, weapon: Weapon, target: str) -> None:
    """A missile leaves the launcher as its own counter (SFA-MSL-1)."""
    state = ctx.state
    state.serial += 1
    mid = f"M{state.serial}"
    state.missiles[mid] = Missile(
        id=mid,
        side=craft.side,
        target=target,
        hex=craft.hex,
        pool=weapon.attack,
        owner=craft.id,
        owner_type=craft.type,
        life=weapon.range,
    )
    ctx.emit(
        "SFA-MSL-1",
        f"{craft.id} launches {weapon.name} {mid} at {name(ctx, target)}",
        unit=craft.id,
        missile=mid,
        target=target,
    )


def shoot_missile(
    ctx: Ctx,
    craft: CraftState,
    station: int,
    weapon: Weapon,
    missile: Missile,
    selection: Selection,
    willpower: bool,
) -> None:
    """Missiles can be shot down: Soak 10, Structure 2 (SFA-MSL-3)."""
    state = ctx.state
    damage, botch, size = roll_attack(
        ctx,
        craft,
        station,
        weapon,
        MISSILE_SOAK,
        1,
        speed_dice=selection.speed_dice,
        willpower=willpower,
    )
    missile.structure -= damage
    gone = missile.structure <= 0
    if gone:
        del state.missiles[missile.id]
    ctx.emit(
        "SFA-MSL-3",
        f"{craft.id} fires at {missile.id}: {size} dice, {damage} damage"
        + ("; it is shot down" if gone else ""),
        unit=craft.id,
        missile=missile.id,
    )
    if botch:
        craft.botched = True
        ctx.emit("SFA-ATK-4", f"{craft.id} botched: -2 Speed next turn", unit=craft.id)


def fly_missiles(ctx: Ctx) -> None:
    """Missiles act first each turn: up to 5 hexes at their target, attacking when they
    reach it; they self-destruct after 20 hexes (SFA-MSL-1, SFA-MSL-2). A Plasma Missile
    detonates instead of attacking (SFA-TEC-21); a Remote Laser shoots from range
    (SFA-TEC-24); a cloaked target breaks every lock (SFA-TEC-25)."""
    state = ctx.state
    for mid in sorted(state.missiles):
        missile = state.missiles.get(mid)
        if missile is None:
            continue  # caught in an earlier blast
        target: CraftState | Decoy | None = state.craft.get(missile.target) or state.decoys.get(
            missile.target
        )
        if isinstance(target, CraftState) and target.cloaked:
            owner_type = state.types.get(missile.owner_type)
            if owner_type is None or not owner_type.has("enhanced_sensors"):
                ctx.emit("SFA-TEC-25", f"{mid} loses its cloaked target", missile=mid)
                target = None
        if target is None:
            if missile.kind == "plasma":
                T.detonate(ctx, missile)
                continue
            del state.missiles[mid]
            ctx.emit("SFA-MSL-1", f"{mid} loses its target and self-destructs", missile=mid)
            continue
        if missile.kind == "remote_laser":
            T.remote_laser_turn(ctx, missile, target)
            if mid in state.missiles and missile.moved >= missile.life:
                del state.missiles[mid]
                ctx.emit("SFA-TEC-24", f"{mid} has used up its range and self-destructs")
            continue
        path = hex_linedraw(missile.hex, target.hex)[1:]
        flown = 0
        for where in path[:MISSILE_MOVE]:
            missile.hex = where
            missile.moved += 1
            flown += 1
            if where == target.hex or missile.moved >= missile.life:
                break
        ctx.emit(
            "SFA-MSL-1",
            f"{mid} flies {flown} hexes at {name(ctx, target.id)} "
            f"({missile.moved} of {missile.life})",
            missile=mid,
            hexes=flown,
        )
        if missile.hex == target.hex:
            if missile.kind == "plasma":
                T.detonate(ctx, missile)
                continue
            if isinstance(target, Decoy):
                T.vanish(ctx, target.id, f"{mid} flies through a hologram")
                del state.missiles[mid]
                continue
            if missile_attack(ctx, missile, target):
                del state.missiles[mid]
                continue
        if missile.moved >= missile.life:
            if missile.kind == "plasma":
                T.detonate(ctx, missile)
                continue
            del state.missiles[mid]
            ctx.emit(
                "SFA-MSL-1", f"{mid} has flown {missile.life} hexes and self-destructs", missile=mid
            )


def end_turn(ctx: Ctx) -> None:
    """The turn ends: Tractor Beam contests, and charged devices become ready."""
    T.end_of_turn(ctx)
    ctx.state.phase = "turn_start"


# ---- the end of the game -------------------------------------------------------------------


def check_end(ctx: Ctx) -> bool:
    """A side with no craft still fighting has lost (SFA-WIN-1)."""
    state = ctx.state
    if state.phase == "turn_start" and state.turn == 0:
        return False
    beaten = [s for s in state.sides if not state.operational(s)]
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
