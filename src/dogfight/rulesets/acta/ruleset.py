"""The `acta` ruleset: fighters for A Call to Arms: Star Fleet (seed 000).

`check` refuses anything the rules forbid with a reason; `apply` carries out a
checked action and then `sequence.advance` runs the automatic steps up to the
next decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

import msgspec

from dogfight.core.context import NoDice
from dogfight.core.errors import IllegalAction
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.core.ruleset import Ruleset, UnitRecord, swap_side_order
from dogfight.core.scenario import Scenario, inline_unit_files
from dogfight.dice import Dice
from dogfight.geometry import EPSILON, Pose, Vec2, normalise_angle
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta import sequence, volley
from dogfight.rulesets.acta.choices import fighter_moves, ship_moves
from dogfight.rulesets.acta.combat import crit_level
from dogfight.rulesets.acta.context import Ctx
from dogfight.rulesets.acta.deployment import apply_deploy, deploy_choices, deploy_problem
from dogfight.rulesets.acta.dogfight import (
    defender_candidates,
    dogfight_enemies,
    may_support,
    pair_key,
    unassigned_engaged,
)
from dogfight.rulesets.acta.movement import (
    carry_supporters,
    fighter_budget,
    free_spot_near,
    move_ship,
    overlapping_fighter,
    ship_path,
    ship_turn_inches,
)
from dogfight.rulesets.acta.options import OPTIONS
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.setup import (
    build_state,
    has_drone_swap,
    loadout_carriers,
    loadout_fighters,
)
from dogfight.rulesets.acta.spatial import FighterGrid
from dogfight.rulesets.acta.special_actions import (
    ALL_POWER,
    DRAIN_PENALTIES,
    HET_MAX_EXTRA,
    HIGH_ENERGY_TURN,
    drain_penalty_problem,
    extra_problem,
)
from dogfight.rulesets.acta.state import ActaState, PendingIntercept, UnitState
from dogfight.rulesets.acta.targets import (
    LAUNCH_DISTANCE,
    SCRAMBLE,
    automatic_support,
    can_launch,
    defensive_fire_candidates,
    fighter_shots,
    interceptors_for,
    launched_count,
    queued_of_type,
    recovery_problem,
    ship_shots,
    shot_problem,
    support_problem,
    weapon_named,
)
from dogfight.rulesets.acta.trait_use import idle_traits, in_use
from dogfight.rulesets.acta.units import catalog, describe, find_unit, load_unit_file

if TYPE_CHECKING:
    from dogfight.core.encoding import Encoding
    from dogfight.core.hooks import Board, Command, LabSetup
    from dogfight.core.play import Player

SPECIAL_ACTIONS: dict[str, int] = {
    "All Power to Engines": 0,
    "Close Blast Doors": 0,
    "Boost Energy to Shields": 0,
    "Intensify Defensive Fire": 8,
    "Take Evasive Action": 8,
    HIGH_ENERGY_TURN: 8,
}
"""Special Actions and the Crew Quality check each needs (0: none) (ACTA-SPA-1)."""
SPECIAL_CLAUSES = {
    "All Power to Engines": "ACTA-SPA-2",
    "Close Blast Doors": "ACTA-SPA-3",
    "Intensify Defensive Fire": "ACTA-SPA-4",
    "Take Evasive Action": "ACTA-SPA-5",
    "Boost Energy to Shields": "ACTA-SPA-6",
    SCRAMBLE: "ACTA-SPA-7",
    HIGH_ENERGY_TURN: "ACTA-SPA-11",
}
SCRAMBLE_CHECK = 7


def special_choices(unit: str, name: str) -> list[A.DeclareSpecial]:
    """The declarations of one Special Action: one per power-drain penalty for All Power
    to Engines (ACTA-SPA-8), else one."""
    if name == ALL_POWER:
        return [A.DeclareSpecial(unit=unit, name=name, drain=d) for d in DRAIN_PENALTIES]
    if name == HIGH_ENERGY_TURN:
        return [
            A.DeclareSpecial(unit=unit, name=name, extra=k) for k in range(1, HET_MAX_EXTRA + 1)
        ]
    return [A.DeclareSpecial(unit=unit, name=name)]


class ActaRuleset(Ruleset[ActaState, A.ActaAction]):
    """Fighters for A Call to Arms: Star Fleet."""

    name = "acta"
    title = "A Call to Arms: Star Fleet, with fan fighter rules (seed 000)"
    phase_names: ClassVar[Mapping[str, str]] = {
        "setup": "Set-up",
        "deploy": "Deployment",
        "turn_start": "Start of turn",
        "launch": "Launching fighters",
        "ship_move": "Ship movement",
        "fighter_order": "Order of fighter movement",
        "fighter_move": "Fighter movement",
        "intercept": "Interception",
        "movement_end": "End of movement",
        "defensive_fire": "Defensive fire",
        "fighter_attack": "Dogfights",
        "ship_fire": "Ship fire",
        "fighter_fire": "Fighter fire",
        "end": "End phase",
    }
    """The phases in people's words (seed 000 and the ACTA:SF turn sequence)."""
    aliases = ("acta-sf", "acta:sf")
    quick_scenario = "furball"
    search_budget = 40
    search_horizon = 2
    options = OPTIONS
    action_type = A.ActaAction
    unit_file_keys = (frozenset({"kind", "speed"}),)
    score_meaning = "share of the enemy's starting Damage destroyed"  # sequence.scores
    rules: ClassVar[ActaRules] = ActaRules()
    """The rule functions the engine, odds, players and board share; a subclass
    overrides one rule by setting `rules = MyRules()`."""
    odds_help: ClassVar[str] = "ACTA: a dogfight, or one weapon's attack."
    """The help line of `dogfight odds acta`."""

    def ctx(self, state: ActaState, log: EventLog | None = None) -> Ctx:
        """A resolution context with this ruleset's rules; without `log`, one for
        questions only (rolling a die in it is a bug)."""
        if log is None:
            log = EventLog(cast(Dice, NoDice()))
        return Ctx(state, state.options, log, self.rules)

    # ---- what the layers above ask (core/hooks.py) ---------------------------------

    def players(self) -> Mapping[str, Callable[[], Player]]:
        """The acta heuristic player and its personas (`heuristic:aggressive`,
        `heuristic:cautious`: weights read from data/acta/personas/, rulesets/acta/personas.py)."""
        from dogfight.rulesets.acta.heuristic import PERSONA_PLAYERS, ActaHeuristic

        return {"heuristic": ActaHeuristic, **PERSONA_PLAYERS}

    def encoding(self, state: ActaState) -> Encoding:
        """The fixed action numbering and observation for learning (docs/rl.md)."""
        from dogfight.rulesets.acta.encoding import ActaEncoding

        return ActaEncoding(state)

    def board(self) -> Board | None:
        """The browser board (rulesets/acta/board.py)."""
        from dogfight.rulesets.acta.board import BOARD

        return BOARD

    def lab(self) -> LabSetup | None:
        """The lab's duel board, default roster and side builder (rulesets/acta/lab.py)."""
        from dogfight.rulesets.acta.lab import LAB

        return LAB

    def commands(self) -> tuple[Command, ...]:
        """`dogfight odds acta dogfight|attack` and `dogfight import acta`."""
        from dogfight.rulesets.acta.commands import commands_of

        return commands_of(self)

    # ---- the Ruleset hooks ---------------------------------------------------------

    def setup(
        self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog
    ) -> ActaState:
        state, _ = build_state(scenario)
        state.options = dict(options)
        # ACTA-TRT-11: each unit keeps only the traits these options use.
        state.types = {k: in_use(t, options) for k, t in state.types.items()}
        ctx = self.ctx(state, log)
        ctx.emit(
            "ACTA-SEQ-1",
            f"{scenario.title}: {state.sides[0]} v {state.sides[1]}, "
            f'{state.turn_limit} turns on a {state.table.width:g}x{state.table.height:g}" '
            "table",
        )
        sequence.advance(ctx)
        return state

    def resolve_scenario(self, scenario: Scenario) -> Scenario:
        return inline_unit_files(scenario)

    def scenario_warnings(
        self, scenario: Scenario, options: Mapping[str, OptionValue]
    ) -> list[str]:
        """Each unit type's traits that do nothing under the options (ACTA-TRT-11)."""
        state, _ = build_state(scenario)
        return [
            f"{scenario.where}: {utype.id} ({utype.name}): trait {trait.label()} does "
            f"nothing here: {why}; it is left out of this game (ACTA-TRT-11)"
            for utype in sorted(state.types.values(), key=lambda t: t.id)
            for trait, why in idle_traits(utype, options)
        ]

    def unit_names(self) -> list[str]:
        return sorted(catalog())

    def describe_unit(self, name: str) -> dict[str, Any]:
        return describe(find_unit(name))

    def check_unit_file(self, path: Path) -> str:
        unit = load_unit_file(path)
        return f"'{unit.id}' ({unit.name}), {unit.kind}"

    def summary(self, state: ActaState) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "phase": state.phase,
            "survivors": {
                side: [
                    {
                        "id": u.id,
                        "type": u.type,
                        "damage": u.damage,
                        **({"aboard": list(u.aboard)} if u.aboard else {}),
                    }
                    for u in sorted(state.on_table(side), key=lambda u: u.id)
                ]
                for side in state.sides
            },
        }

    def actor_of(self, action: A.ActaAction) -> str | None:
        """The unit an action moves, fires, dogfights or launches from; None for the
        side's choices naming no one unit (an order of play, ending movement, its
        interceptors, defensive fire, the defender's supporting fighters)."""
        if isinstance(action, A.Launch):
            return action.ship
        unit = getattr(action, "unit", "")
        return unit if isinstance(unit, str) and unit else None

    def standing(self, state: ActaState) -> dict[str, float]:
        """The turn limit's count (ACTA-WIN-2), for the search player: each side's
        share of the enemy's starting Damage destroyed."""
        return sequence.scores(state)

    def roster(self, state: ActaState) -> list[UnitRecord]:
        """Units on the table, fighters aboard ships (id 'SHIP/aboard-N') and destroyed
        units; strength is Damage points."""
        records = list(state.fallen)
        for unit in state.units.values():
            records.append(
                UnitRecord(
                    id=unit.id,
                    side=unit.side,
                    type=unit.type,
                    strength=float(state.types[unit.type].damage),
                    remaining=float(max(0, unit.damage)),
                )
            )
            for k, (ftype, left) in enumerate(zip(unit.aboard, unit.aboard_damage, strict=True)):
                records.append(
                    UnitRecord(
                        id=f"{unit.id}/aboard-{k + 1}",
                        side=unit.side,
                        type=ftype,
                        strength=float(state.types[ftype].damage),
                        remaining=float(max(0, left)),
                    )
                )
        return sorted(records, key=lambda r: r.id)

    def swap_sides(self, scenario: Scenario) -> Scenario:
        """Side order (which breaks ties) and the fleets' Initiative bonuses (ACTA-INI-1)
        change places; each force keeps its ships, whose Command traits go with them."""
        return swap_side_order(scenario, ("initiative",))

    # ---- legal actions ---------------------------------------------------------------

    def legal_actions(self, state: ActaState) -> list[Any]:
        return self.legal_with(self.ctx(state))

    def legal_with(self, ctx: Ctx) -> list[Any]:
        """The legal actions, with the game's options in `ctx`."""
        state = ctx.state
        side = state.active
        if state.outcome is not None or not side:
            return []
        phase = state.phase
        out: list[Any] = []
        if phase == "deploy":
            out = list(deploy_choices(ctx))
        elif phase == "setup":
            eligible = tuple(sorted(f.id for f in loadout_fighters(state, side)))
            carriers = tuple(sorted(s.id for s in loadout_carriers(state, side)))
            out = [A.ChooseLoadout()]
            if eligible or carriers:
                out.append(A.ChooseLoadout(swap=eligible, swap_aboard=carriers))
            if eligible and carriers:
                out.append(A.ChooseLoadout(swap=eligible))
                out.append(A.ChooseLoadout(swap_aboard=carriers))
        elif phase == "ship_move":
            ships = (
                [state.moving_ship]
                if state.moving_ship
                else list(state.ships_to_move.get(side, ()))
            )
            for sid in ships:
                ship = state.units[sid]
                if not state.moving_ship:
                    for name in self.special_names(ctx):
                        if not self.special_problem(ctx, ship, name):
                            out.extend(special_choices(sid, name))
                out.extend(ship_moves(ctx, ship))
        elif phase == "fighter_order":
            out = [A.FighterOrder(first=s) for s in state.sides]
        elif phase == "fighter_move":
            grid = FighterGrid(state)
            for fighter in sequence.movable_fighters(state, side):
                out.extend(fighter_moves(ctx, fighter, grid))
            out.append(A.EndMovement())
        elif phase == "intercept":
            assert state.intercept is not None
            free = [f.id for f in interceptors_for(state, state.intercept.protected)]
            attacker = state.intercept.attacker
            out = [A.Intercept(attacker=attacker, fighters=())]
            out += [A.Intercept(attacker=attacker, fighters=(f,)) for f in free]
            if len(free) > 1:
                out.append(A.Intercept(attacker=attacker, fighters=tuple(free)))
        elif phase == "defensive_fire":
            free = [f.id for f in defensive_fire_candidates(state, side)]
            out = [A.DefensiveFire(fighters=())]
            out += [A.DefensiveFire(fighters=(f,)) for f in free]
            if len(free) > 1:
                out.append(A.DefensiveFire(fighters=tuple(free)))
        elif phase == "fighter_attack":
            nominating = state.attack_sides[0]
            if side == nominating:
                for fighter in unassigned_engaged(state, side):
                    for enemy in dogfight_enemies(state, fighter):
                        out.append(A.Dogfight(unit=fighter.id, enemy=enemy.id))
                    if may_support(state, fighter):
                        out.append(A.Support(unit=fighter.id))
            else:
                free = [f.id for f in defender_candidates(state, nominating)]
                out = [A.DefenderSupport(fighters=())]
                out += [A.DefenderSupport(fighters=(f,)) for f in free]
                if len(free) > 1:
                    out.append(A.DefenderSupport(fighters=tuple(free)))
        elif phase == "fighter_fire":
            for fighter in state.fighters(side):
                for weapon, target in fighter_shots(ctx, fighter):
                    out.append(A.Fire(unit=fighter.id, weapon=weapon.name, target=target.id))
            out.append(A.EndAttacks())
        elif phase == "ship_fire":
            ships = (
                [state.firing_ship]
                if state.firing_ship
                else list(state.ships_to_fire.get(side, ()))
            )
            for sid in ships:
                for weapon, target in ship_shots(ctx, state.units[sid]):
                    out.append(A.Fire(unit=sid, weapon=weapon.name, target=target.id))
                out.append(A.EndAttacks(unit=sid))
        elif phase == "launch":
            ship = state.units[state.launches_pending[0]]
            out = [A.Launch(ship=ship.id)]
            for ftype in sorted(set(ship.aboard)):
                if ship.aboard.count(ftype) <= queued_of_type(state, ship, ftype):
                    continue  # every copy aboard is already queued (ACTA-SPA-7)
                for bearing in (0.0, 90.0, -90.0, 180.0):
                    spot = self.launch_spot(ctx, ship, ftype, bearing)
                    if spot is not None:
                        out.append(
                            A.Launch(
                                ship=ship.id,
                                fighter=ftype,
                                x=spot.x,
                                y=spot.y,
                                heading=ship.pose.heading,
                            )
                        )
        return out

    # ---- checking ------------------------------------------------------------------

    def check(self, state: ActaState, action: Any) -> None:
        self.check_with(self.ctx(state), action)

    def check_with(self, ctx: Ctx, action: Any) -> None:
        """Raise IllegalAction with the reason if `action` may not be taken now."""
        state = ctx.state
        side = state.active
        if state.outcome is not None:
            raise IllegalAction("the game is over")
        handler = _CHECKS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{type(action).__name__} is not an acta action")
        expected = _PHASE_OF.get(type(action), ())
        if state.phase not in expected:
            raise IllegalAction(
                f"cannot {_VERB.get(type(action), 'do that')} now: it is the "
                f"{state.phase.replace('_', ' ')} step, {side} to decide"
            )
        handler(self, ctx, action)

    def unit_of(self, ctx: Ctx, uid: str, *, side: str | None = None) -> UnitState:
        """A unit on the table by id, optionally required to belong to `side`."""
        unit = ctx.state.units.get(uid)
        if unit is None:
            raise IllegalAction(f"no unit {uid!r} on the table")
        if side is not None and unit.side != side:
            raise IllegalAction(f"{uid} is not one of {side}'s units")
        return unit

    def special_names(self, ctx: Ctx) -> list[str]:
        """Special Actions on offer under the options."""
        names = list(SPECIAL_ACTIONS)
        if ctx.opt("scramble"):
            names.append(SCRAMBLE)
        return names

    def special_problem(self, ctx: Ctx, ship: UnitState, name: str) -> str:
        """Why the ship may not declare this Special Action ('' if it may)."""
        state = ctx.state
        if name not in self.special_names(ctx):
            return f"unknown Special Action {name!r}; known: {', '.join(self.special_names(ctx))}"
        if state.is_fighter(ship):
            return "fighters never take Special Actions (ACTA-SPA-1)"
        if ship.special_attempted:
            return f"{ship.id} has already attempted a Special Action this turn (ACTA-SPA-1)"
        if crit_level(ship, "power", bool(ctx.opt("crit_effects"))):
            return f"{ship.id} has a power critical and may not take Special Actions (ACTA-CRT-2)"
        if name == "Boost Energy to Shields" and state.unit_type(ship).shields <= 0:
            return f"{ship.id} has no shields to boost"
        if name == HIGH_ENERGY_TURN and ship_turn_inches(state, ship, ctx.rules) is None:
            return f"{ship.id} is super-manoeuvrable and turns freely already (ACTA-SPA-11)"
        if name == SCRAMBLE and not ship.aboard:
            return f"{ship.id} has no fighters aboard to scramble"
        return ""

    def _check_loadout(self, ctx: Ctx, action: A.ChooseLoadout) -> None:
        state = ctx.state
        free = {f.id for f in loadout_fighters(state, state.active)}
        for uid in action.swap:
            unit = self.unit_of(ctx, uid, side=state.active)
            if uid not in free:
                why = (
                    "the scenario fixed its loadout"
                    if unit.loadout_fixed
                    else "it has no weapon that may be swapped for dogfight drones"
                )
                raise IllegalAction(f"{uid} may not swap its drone: {why} (ACTA-FTR-9)")
        carriers = {s.id for s in loadout_carriers(state, state.active)}
        for sid in action.swap_aboard:
            self.unit_of(ctx, sid, side=state.active)
            if sid not in carriers:
                raise IllegalAction(f"{sid} carries no fighter that may swap its drone")

    def _check_deploy(self, ctx: Ctx, action: A.Deploy) -> None:
        problem = deploy_problem(ctx, action)
        if problem:
            raise IllegalAction(problem)

    def _apply_deploy(self, ctx: Ctx, action: A.Deploy) -> None:
        apply_deploy(ctx, action)

    def _check_special(self, ctx: Ctx, action: A.DeclareSpecial) -> None:
        state = ctx.state
        ship = self.unit_of(ctx, action.unit, side=state.active)
        if state.moving_ship:
            raise IllegalAction(f"{state.moving_ship} must finish its move first")
        if action.unit not in state.ships_to_move.get(state.active, ()):
            raise IllegalAction(f"{action.unit} has already moved this turn")
        problem = (
            self.special_problem(ctx, ship, action.name)
            or drain_penalty_problem(action.name, action.drain)
            or extra_problem(action.name, action.extra)
        )
        if problem:
            raise IllegalAction(problem)

    def _check_move_ship(self, ctx: Ctx, action: A.MoveShip) -> None:
        state = ctx.state
        ship = self.unit_of(ctx, action.unit, side=state.active)
        if state.moving_ship and state.moving_ship != action.unit:
            raise IllegalAction(f"{state.moving_ship} declared a Special Action and moves now")
        if action.unit not in state.ships_to_move.get(state.active, ()):
            raise IllegalAction(f"{action.unit} is not a ship waiting to move")
        crit = bool(ctx.opt("crit_effects"))
        _, _, problem = ship_path(state, ship, action.legs, crit, ctx.rules)
        if problem:
            raise IllegalAction(f"{action.unit}: {problem}")

    def _check_fighter_order(self, ctx: Ctx, action: A.FighterOrder) -> None:
        if action.first not in ctx.state.sides:
            raise IllegalAction(f"no side {action.first!r}")

    def _movable(self, ctx: Ctx, uid: str) -> UnitState:
        state = ctx.state
        fighter = self.unit_of(ctx, uid, side=state.active)
        if not state.is_fighter(fighter):
            raise IllegalAction(f"{uid} is a ship; ships moved earlier in the phase")
        if fighter.move_done:
            raise IllegalAction(f"{uid} has already moved this turn")
        if state.engaged(fighter):
            raise IllegalAction(f"{uid} is locked in a dogfight and may not move (ACTA-DOG-1)")
        return fighter

    def _check_move_fighter(self, ctx: Ctx, action: A.MoveFighter) -> None:
        state = ctx.state
        fighter = self._movable(ctx, action.unit)
        spot = Vec2(action.x, action.y)
        dist = spot.distance(fighter.pose.position)
        budget = fighter_budget(state, fighter, ctx.rules)
        if dist > budget + EPSILON:
            raise IllegalAction(
                f'{action.unit} may move {budget:g}" more, not {dist:.2f}" (ACTA-FTR-2)'
            )
        if not state.table.contains(spot):
            raise IllegalAction(f"({action.x:g}, {action.y:g}) is off the table")
        # Holding still is always allowed, even where carrying left bases overlapping.
        clash = overlapping_fighter(state, fighter, spot) if dist > EPSILON else None
        if clash is not None:
            raise IllegalAction(
                f"{action.unit} would overlap {clash.id}; fighters may not stack (ACTA-FTR-3)"
            )
        if action.support:
            saved = fighter.pose
            fighter.pose = Pose(spot, saved.heading)
            problem = support_problem(state, fighter, action.support)
            fighter.pose = saved
            if problem:
                raise IllegalAction(problem)

    def _check_recover(self, ctx: Ctx, action: A.Recover) -> None:
        fighter = self._movable(ctx, action.unit)
        ship = self.unit_of(ctx, action.ship)
        problem = recovery_problem(ctx, fighter, ship)
        if problem:
            raise IllegalAction(problem + " (ACTA-LCH-3)")

    def _check_end_movement(self, ctx: Ctx, action: A.EndMovement) -> None:
        return None

    def _check_intercept(self, ctx: Ctx, action: A.Intercept) -> None:
        pending = ctx.state.intercept
        assert pending is not None
        if action.attacker != pending.attacker:
            raise IllegalAction(f"the attacker to intercept is {pending.attacker}")
        free = {f.id for f in interceptors_for(ctx.state, pending.protected)}
        for uid in action.fighters:
            if uid not in free:
                raise IllegalAction(f"{uid} is not a free supporter of {pending.protected}")
        if len(set(action.fighters)) != len(action.fighters):
            raise IllegalAction("a fighter is named twice")

    def _check_defensive_fire(self, ctx: Ctx, action: A.DefensiveFire) -> None:
        free = {f.id for f in defensive_fire_candidates(ctx.state, ctx.state.active)}
        named_twice(action.fighters, "ACTA-SUP-6")
        for uid in action.fighters:
            if uid not in free:
                raise IllegalAction(f"{uid} is not a free fighter supporting a ship (ACTA-SUP-6)")

    def _check_dogfight(self, ctx: Ctx, action: A.Dogfight) -> None:
        state = ctx.state
        if state.active != state.attack_sides[0]:
            raise IllegalAction("the defending side may only choose supporters now")
        fighter = self.unit_of(ctx, action.unit, side=state.active)
        if fighter not in unassigned_engaged(state, state.active):
            raise IllegalAction(f"{action.unit} is not an unassigned fighter in a dogfight")
        enemy = self.unit_of(ctx, action.enemy)
        if enemy not in state.enemy_fighters_touching(fighter):
            raise IllegalAction(
                f"{action.unit} is not in base contact with enemy fighter "
                f"{action.enemy} (ACTA-DOG-9)"
            )
        if enemy.id in fighter.barred:
            raise IllegalAction(
                f"{action.unit} was intercepted and may not attack {action.enemy} this turn "
                "(ACTA-SUP-4)"
            )
        if pair_key(fighter.id, enemy.id) in state.fought_pairs:
            raise IllegalAction(
                f"{action.unit} and {action.enemy} have already rolled their dogfight this "
                "Attack Phase; a tied pair stays locked until the next one (ACTA-DOG-6)"
            )

    def _check_support(self, ctx: Ctx, action: A.Support) -> None:
        state = ctx.state
        if state.active != state.attack_sides[0]:
            raise IllegalAction("the defending side chooses its supporters all at once")
        fighter = self.unit_of(ctx, action.unit, side=state.active)
        if fighter not in unassigned_engaged(state, state.active):
            raise IllegalAction(f"{action.unit} is not an unassigned fighter in a dogfight")
        if not may_support(state, fighter):
            raise IllegalAction(
                f"{action.unit} may support only a dogfight being fought against an enemy "
                "fighter it touches; none is yet (ACTA-DOG-3)"
            )

    def _check_defender_support(self, ctx: Ctx, action: A.DefenderSupport) -> None:
        state = ctx.state
        if state.active == state.attack_sides[0]:
            raise IllegalAction("the nominating side assigns fighters one at a time")
        free = {f.id for f in defender_candidates(state, state.attack_sides[0])}
        named_twice(action.fighters, "ACTA-DOG-4")
        for uid in action.fighters:
            if uid not in free:
                raise IllegalAction(
                    f"{uid} may not support: it is engaged, already used, or "
                    "touches no attacking fighter (ACTA-DOG-4)"
                )

    def _check_fire(self, ctx: Ctx, action: A.Fire) -> None:
        state = ctx.state
        firer = self.unit_of(ctx, action.unit, side=state.active)
        target = self.unit_of(ctx, action.target)
        if state.phase == "fighter_fire":
            if not state.is_fighter(firer):
                raise IllegalAction("ships fire after all fighters (ACTA-FTR-7)")
        else:
            if state.is_fighter(firer):
                raise IllegalAction("fighters fire before ships (ACTA-FTR-7)")
            if state.firing_ship and state.firing_ship != firer.id:
                raise IllegalAction(
                    f"{state.firing_ship} is firing; ships fire one at a time (ACTA-ATK-4)"
                )
            if firer.id not in state.ships_to_fire.get(state.active, ()):
                raise IllegalAction(f"{firer.id} has finished firing this turn")
        weapon = weapon_named(state, firer, action.weapon)
        if weapon is None:
            names = ", ".join(w.name for w in state.unit_type(firer).weapons)
            raise IllegalAction(f"{firer.id} has no weapon {action.weapon!r} (has: {names})")
        problem = shot_problem(ctx, firer, weapon, target)
        if problem:
            raise IllegalAction(problem)

    def _check_end_attacks(self, ctx: Ctx, action: A.EndAttacks) -> None:
        state = ctx.state
        if state.phase == "ship_fire":
            if not action.unit:
                raise IllegalAction("name the ship that stops firing")
            self.unit_of(ctx, action.unit, side=state.active)
            if state.firing_ship and state.firing_ship != action.unit:
                raise IllegalAction(f"{state.firing_ship} is the ship firing now")
            if action.unit not in state.ships_to_fire.get(state.active, ()):
                raise IllegalAction(f"{action.unit} has finished firing this turn")
        elif action.unit:
            raise IllegalAction("fighters end their attacks together; leave out the unit")

    def launch_spot(self, ctx: Ctx, ship: UnitState, ftype: str, bearing: float) -> Vec2 | None:
        """A free spot for a launched fighter at a bearing from the ship, within 3"."""
        state = ctx.state
        radius = state.types[ftype].base_radius
        probe = UnitState(id="?", type=ftype, side=ship.side, pose=ship.pose, damage=1)
        spot = free_spot_near(
            state,
            probe,
            ship.pose.position,
            state.radius(ship) + radius + 0.5,
            ship.pose.heading + bearing,
        )
        if spot is None or self.launch_problem(ctx, ship, ftype, spot):
            return None
        return spot

    def launch_problem(self, ctx: Ctx, ship: UnitState, ftype: str, spot: Vec2) -> str:
        """Why a fighter may not be launched to this spot ('' if it may)."""
        state = ctx.state
        radius = state.types[ftype].base_radius if ftype in state.types else 0.5
        if spot.distance(ship.pose.position) - radius > LAUNCH_DISTANCE + EPSILON:
            return f'a launched fighter is placed within {LAUNCH_DISTANCE:g}" of its ship'
        if not state.table.contains(spot):
            return "the spot is off the table"
        probe = UnitState(id="?", type=ftype, side=ship.side, pose=Pose(spot, 0), damage=1)
        if overlapping_fighter(state, probe, spot) is not None:
            return "the spot overlaps another fighter (ACTA-FTR-3)"
        for entry in state.launch_queue:
            if Vec2(entry[2], entry[3]).distance(spot) < 2 * radius - EPSILON:
                return "the spot overlaps another fighter being launched"
        return ""

    def _check_launch(self, ctx: Ctx, action: A.Launch) -> None:
        state = ctx.state
        if action.ship != state.launches_pending[0]:
            raise IllegalAction(f"{state.launches_pending[0]} decides its launch now")
        ship = self.unit_of(ctx, action.ship, side=state.active)
        if not action.fighter:
            return
        if ship.aboard.count(action.fighter) <= queued_of_type(state, ship, action.fighter):
            raise IllegalAction(f"{ship.id} has no {action.fighter} aboard to launch")
        if not can_launch(ctx, ship):
            raise IllegalAction(
                f"{ship.id} may not launch (a Special Action this turn, or "
                "its launch already made) (ACTA-LCH-1)"
            )
        problem = self.launch_problem(ctx, ship, action.fighter, Vec2(action.x, action.y))
        if problem:
            raise IllegalAction(problem + " (ACTA-LCH-1)")

    # ---- applying ------------------------------------------------------------------

    def apply(self, state: ActaState, action: Any, log: EventLog) -> None:
        self.apply_with(self.ctx(state, log), action)

    def apply_with(self, ctx: Ctx, action: Any) -> None:
        """Carry out a checked action, then run on to the next decision."""
        _APPLIES[type(action)](self, ctx, action)
        sequence.advance(ctx)

    def _apply_loadout(self, ctx: Ctx, action: A.ChooseLoadout) -> None:
        state = ctx.state
        for uid in action.swap:
            state.units[uid].dogfight_drones = True
        for sid in action.swap_aboard:
            ship = state.units[sid]
            ship.aboard_drones = tuple(
                d or has_drone_swap(state, t)
                for t, d in zip(ship.aboard, ship.aboard_drones, strict=True)
            )
        names = ", ".join((*action.swap, *(f"fighters aboard {s}" for s in action.swap_aboard)))
        names = names or "none"
        ctx.emit(
            "ACTA-FTR-9",
            f"{state.active} swaps drones for dogfight drones: {names}",
            swapped=list(action.swap),
        )
        state.loadout_pending = tuple(s for s in state.loadout_pending if s != state.active)

    def _apply_special(self, ctx: Ctx, action: A.DeclareSpecial) -> None:
        state = ctx.state
        ship = state.units[action.unit]
        ship.special_attempted = True
        state.moving_ship = ship.id
        need = SCRAMBLE_CHECK if action.name == SCRAMBLE else SPECIAL_ACTIONS[action.name]
        passed = True
        if need:
            cq = sequence.crew_quality(ctx, ship)
            face = ctx.roll()
            passed = face == 6 or face + cq >= need
            ctx.emit(
                "ACTA-SPA-1",
                f"{ctx.name(ship)} attempts {action.name}: crew check "
                f"{face}+{cq} against {need}: {'passed' if passed else 'failed'}",
                unit=ship.id,
                passed=passed,
            )
        if not passed:
            if action.name == HIGH_ENERGY_TURN:
                # ACTA-SPA-11: the drive takes a critical level per extra segment tried.
                ship.criticals["drive"] = ship.criticals.get("drive", 0) + action.extra
                ctx.emit(
                    "ACTA-SPA-11",
                    f"{ctx.name(ship)} fails its High Energy Turn: drive critical now level "
                    f"{ship.criticals['drive']}",
                    unit=ship.id,
                    system="drive",
                    level=ship.criticals["drive"],
                )
            return
        ship.special = action.name
        ship.special_extra = action.extra
        clause = SPECIAL_CLAUSES[action.name]
        if action.name == "Boost Energy to Shields":
            start = state.unit_type(ship).shields
            dice = max(1, start // 10)
            gain = sum(ctx.roll_many(dice))
            before = ship.shields
            ship.shields = min(start, ship.shields + gain)
            ctx.emit(
                clause, f"{ctx.name(ship)} boosts shields {before} -> {ship.shields}", unit=ship.id
            )
            return
        ctx.emit(clause, f"{ctx.name(ship)} performs {action.name}", unit=ship.id)
        if action.name == ALL_POWER:
            # ACTA-SPA-8: the owner's chosen penalty is in force next turn.
            ship.drain_penalty_next = action.drain or "move"
            ship.drain_next = ship.drain_penalty_next == "move"
            ctx.emit(
                "ACTA-SPA-8",
                f"{ctx.name(ship)} will be drained next turn: "
                f"{DRAIN_PENALTIES[ship.drain_penalty_next]}",
                unit=ship.id,
                drain=ship.drain_penalty_next,
            )

    def _apply_move_ship(self, ctx: Ctx, action: A.MoveShip) -> None:
        state = ctx.state
        ship = state.units[action.unit]
        move_ship(ctx, ship, action.legs)
        side = ship.side
        state.ships_to_move[side] = tuple(s for s in state.ships_to_move[side] if s != ship.id)
        state.moving_ship = ""
        state.active = state.other(side)

    def _apply_fighter_order(self, ctx: Ctx, action: A.FighterOrder) -> None:
        state = ctx.state
        order = (action.first, state.other(action.first))
        state.fighter_sides = tuple(s for s in order if state.fighters(s))
        state.phase = "fighter_move"
        ctx.emit(
            "ACTA-SEQ-3",
            f"{state.initiative} has {action.first} move its fighters first",
            first=action.first,
        )

    def _apply_move_fighter(self, ctx: Ctx, action: A.MoveFighter) -> None:
        state = ctx.state
        fighter = state.units[action.unit]
        start = fighter.pose
        spot = Vec2(action.x, action.y)
        dist = spot.distance(start.position)
        fighter.pose = Pose(spot, normalise_angle(action.heading))
        fighter.move_done = True
        fighter.distance_moved += dist
        fighter.moved = fighter.moved or dist > EPSILON
        # Leaving is the player's choice; ending in contact is support (ACTA-SUP-1).
        held = fighter.supporting
        fighter.supporting = ""
        text = f'{ctx.name(fighter)} moves {dist:.1f}" to ({spot.x:.1f}, {spot.y:.1f})'
        ctx.emit("ACTA-FTR-2", text, unit=fighter.id, distance=round(dist, 3))
        carry_supporters(ctx, fighter, start, [start.position, spot], dist)
        fighter.supporting = held
        fighter.supporting = automatic_support(state, fighter, action.support)
        if fighter.supporting:
            ctx.emit(
                "ACTA-SUP-1",
                f"{ctx.name(fighter)} is supporting {ctx.name(fighter.supporting)}",
                unit=fighter.id,
                support=fighter.supporting,
            )
        for enemy in state.enemy_fighters_touching(fighter):
            ctx.emit(
                "ACTA-DOG-1",
                f"{ctx.name(fighter)} is in base contact with {ctx.name(enemy)}: a dogfight",
                unit=fighter.id,
                enemy=enemy.id,
            )
        if ctx.opt("intercept_on_move"):
            self.offer_intercept(ctx, fighter, None)

    def offer_intercept(self, ctx: Ctx, attacker: UnitState, fire: A.Fire | None) -> bool:
        """If the attacked unit has free supporters, pause for the defender (ACTA-SUP-4)."""
        state = ctx.state
        if fire is not None:
            protected = [state.units[fire.target]]
        else:
            protected = sorted(
                (
                    u
                    for u in state.on_table(state.other(attacker.side))
                    if state.touching(attacker, u) and u.id not in attacker.barred
                ),
                key=lambda u: u.id,
            )
        guarded = [u.id for u in protected if interceptors_for(state, u.id)]
        if not guarded:
            return False
        # Each supported unit touched gets its own offer, one after another.
        state.intercept = PendingIntercept(
            attacker=attacker.id,
            protected=guarded[0],
            fire=fire,
            resume_phase=state.phase,
            remaining=tuple(guarded[1:]),
        )
        state.phase = "intercept"
        return True

    def _apply_recover(self, ctx: Ctx, action: A.Recover) -> None:
        state = ctx.state
        fighter = state.units.pop(action.unit)
        ship = state.units[action.ship]
        ship.take_aboard(fighter.type, fighter.damage, fighter.dogfight_drones)
        for other in state.units.values():
            if other.supporting == fighter.id:
                other.supporting = ""
        ctx.emit(
            "ACTA-LCH-3",
            f"{ctx.name(ship)} recovers {fighter.id} "
            f"({state.unit_type(fighter).name}); {len(ship.aboard)} aboard",
            unit=fighter.id,
            ship=ship.id,
        )

    def _apply_end_movement(self, ctx: Ctx, action: A.EndMovement) -> None:
        state = ctx.state
        for fighter in state.fighters(state.active):
            fighter.move_done = True
        ctx.emit("ACTA-FTR-1", f"{state.active}'s other fighters hold their positions")

    def _apply_intercept(self, ctx: Ctx, action: A.Intercept) -> None:
        state = ctx.state
        pending = state.intercept
        assert pending is not None
        attacker = state.units[pending.attacker]
        state.phase, state.intercept = pending.resume_phase, None
        if not action.fighters:
            ctx.emit(
                "ACTA-SUP-4",
                f"{state.active} does not intercept {ctx.name(attacker)} "
                f"attacking {pending.protected}",
            )
            if pending.fire is not None:
                volley.fighter_shot(ctx, pending.fire)
                return
            nxt = [p for p in pending.remaining if interceptors_for(state, p)]
            if nxt:
                state.intercept = msgspec.structs.replace(
                    pending, protected=nxt[0], remaining=tuple(nxt[1:])
                )
                state.phase = "intercept"
            return
        attacker.barred = (*attacker.barred, pending.protected)
        for uid in action.fighters:
            fighter = state.units[uid]
            spot = free_spot_near(
                state,
                fighter,
                attacker.pose.position,
                state.radius(attacker) + state.radius(fighter),
                (fighter.pose.position - attacker.pose.position).angle(),
            )
            if spot is None:
                ctx.emit("ACTA-SUP-4", f"no room for {ctx.name(fighter)} to reach the attacker")
                continue
            heading = (attacker.pose.position - spot).angle()
            fighter.pose = Pose(spot, round(heading, 3))
            fighter.supporting = ""
            fighter.intercepted_from = pending.protected
            fighter.moved = True
        ctx.emit(
            "ACTA-SUP-4",
            f"{', '.join(action.fighters)} intercept {ctx.name(attacker)}: a dogfight starts and "
            f"it may not attack {pending.protected} this turn",
            attacker=attacker.id,
            fighters=list(action.fighters),
        )
        if pending.fire is not None:
            attacker.attack_done = True
            volley.drop_shots(ctx, attacker.id, pending.protected)

    def _apply_defensive_fire(self, ctx: Ctx, action: A.DefensiveFire) -> None:
        state = ctx.state
        for uid in action.fighters:
            fighter = state.units[uid]
            fighter.on_defensive_fire = True
            fighter.attack_done = True  # on defensive fire for the whole turn
        ctx.emit(
            "ACTA-SUP-6",
            f"{state.active} puts on defensive fire: {', '.join(action.fighters) or 'none'}",
            fighters=list(action.fighters),
        )
        state.defensive_fire_sides = tuple(
            s for s in state.defensive_fire_sides if s != state.active
        )

    def _apply_dogfight(self, ctx: Ctx, action: A.Dogfight) -> None:
        state = ctx.state
        state.dogfights = (*state.dogfights, (action.unit, action.enemy))
        ctx.emit(
            "ACTA-DOG-3",
            f"{action.unit} will dogfight {action.enemy}",
            unit=action.unit,
            enemy=action.enemy,
        )

    def _apply_support(self, ctx: Ctx, action: A.Support) -> None:
        state = ctx.state
        state.supporters = (*state.supporters, action.unit)
        ctx.emit("ACTA-DOG-3", f"{action.unit} supports its side's dogfights", unit=action.unit)

    def _apply_defender_support(self, ctx: Ctx, action: A.DefenderSupport) -> None:
        state = ctx.state
        state.defender_supporters = tuple(action.fighters)
        ctx.emit(
            "ACTA-DOG-4",
            f"{state.active} supports with: {', '.join(action.fighters) or 'none'}",
            fighters=list(action.fighters),
        )

    def _apply_fire(self, ctx: Ctx, action: A.Fire) -> None:
        state = ctx.state
        firer = state.units[action.unit]
        firer.fired = (*firer.fired, action.weapon)
        if state.is_fighter(firer):
            firer.fighter_target = action.target
            if self.offer_intercept(ctx, firer, action):
                return
            volley.fighter_shot(ctx, action)
            return
        state.firing_ship = firer.id
        volley.resolve_shot(ctx, action)

    def _apply_end_attacks(self, ctx: Ctx, action: A.EndAttacks) -> None:
        state = ctx.state
        if state.phase == "ship_fire":
            ctx.emit("ACTA-ATK-4", f"{action.unit} ceases fire", unit=action.unit)
            sequence.end_ship_fire(state, action.unit)
        else:
            ctx.emit("ACTA-FTR-7", f"{state.active}'s fighters end their attacks")
            volley.resolve_volley(ctx)
            sequence.end_fighter_attacks(state, state.active)

    def _apply_launch(self, ctx: Ctx, action: A.Launch) -> None:
        state = ctx.state
        ship = state.units[action.ship]
        if not action.fighter:
            state.launches_pending = state.launches_pending[1:]
            return
        state.launch_queue = (
            *state.launch_queue,
            (
                ship.id,
                action.fighter,
                round(action.x, 3),
                round(action.y, 3),
                normalise_angle(action.heading),
            ),
        )
        ctx.emit(
            "ACTA-LCH-1",
            f"{ctx.name(ship)} prepares to launch a {action.fighter}",
            ship=ship.id,
            fighter=action.fighter,
        )
        if launched_count(state, ship) >= 1 and not can_launch(ctx, ship):
            state.launches_pending = state.launches_pending[1:]


def named_twice(fighters: tuple[str, ...], clause: str) -> None:
    """Refuse a declaration that names one fighter more than once: each fighter adds
    its help once, however often it is named."""
    seen: set[str] = set()
    for uid in fighters:
        if uid in seen:
            raise IllegalAction(f"{uid} is named twice; each fighter counts once ({clause})")
        seen.add(uid)


_CHECKS: dict[type, Any] = {
    A.ChooseLoadout: ActaRuleset._check_loadout,
    A.Deploy: ActaRuleset._check_deploy,
    A.DeclareSpecial: ActaRuleset._check_special,
    A.MoveShip: ActaRuleset._check_move_ship,
    A.FighterOrder: ActaRuleset._check_fighter_order,
    A.MoveFighter: ActaRuleset._check_move_fighter,
    A.Recover: ActaRuleset._check_recover,
    A.EndMovement: ActaRuleset._check_end_movement,
    A.Intercept: ActaRuleset._check_intercept,
    A.DefensiveFire: ActaRuleset._check_defensive_fire,
    A.Dogfight: ActaRuleset._check_dogfight,
    A.Support: ActaRuleset._check_support,
    A.DefenderSupport: ActaRuleset._check_defender_support,
    A.Fire: ActaRuleset._check_fire,
    A.EndAttacks: ActaRuleset._check_end_attacks,
    A.Launch: ActaRuleset._check_launch,
}
_APPLIES: dict[type, Any] = {
    A.ChooseLoadout: ActaRuleset._apply_loadout,
    A.Deploy: ActaRuleset._apply_deploy,
    A.DeclareSpecial: ActaRuleset._apply_special,
    A.MoveShip: ActaRuleset._apply_move_ship,
    A.FighterOrder: ActaRuleset._apply_fighter_order,
    A.MoveFighter: ActaRuleset._apply_move_fighter,
    A.Recover: ActaRuleset._apply_recover,
    A.EndMovement: ActaRuleset._apply_end_movement,
    A.Intercept: ActaRuleset._apply_intercept,
    A.DefensiveFire: ActaRuleset._apply_defensive_fire,
    A.Dogfight: ActaRuleset._apply_dogfight,
    A.Support: ActaRuleset._apply_support,
    A.DefenderSupport: ActaRuleset._apply_defender_support,
    A.Fire: ActaRuleset._apply_fire,
    A.EndAttacks: ActaRuleset._apply_end_attacks,
    A.Launch: ActaRuleset._apply_launch,
}
_PHASE_OF: dict[type, tuple[str, ...]] = {
    A.ChooseLoadout: ("setup",),
    A.Deploy: ("deploy",),
    A.DeclareSpecial: ("ship_move",),
    A.MoveShip: ("ship_move",),
    A.FighterOrder: ("fighter_order",),
    A.MoveFighter: ("fighter_move",),
    A.Recover: ("fighter_move",),
    A.EndMovement: ("fighter_move",),
    A.Intercept: ("intercept",),
    A.DefensiveFire: ("defensive_fire",),
    A.Dogfight: ("fighter_attack",),
    A.Support: ("fighter_attack",),
    A.DefenderSupport: ("fighter_attack",),
    A.Fire: ("fighter_fire", "ship_fire"),
    A.EndAttacks: ("fighter_fire", "ship_fire"),
    A.Launch: ("launch",),
}
_VERB: dict[type, str] = {
    A.ChooseLoadout: "choose loadouts",
    A.Deploy: "deploy a unit",
    A.DeclareSpecial: "declare a Special Action",
    A.MoveShip: "move a ship",
    A.FighterOrder: "choose who moves fighters first",
    A.MoveFighter: "move a fighter",
    A.Recover: "recover a fighter",
    A.EndMovement: "end fighter movement",
    A.Intercept: "intercept",
    A.DefensiveFire: "declare defensive fire",
    A.Dogfight: "assign a dogfight",
    A.Support: "assign a supporter",
    A.DefenderSupport: "choose defending supporters",
    A.Fire: "fire",
    A.EndAttacks: "end attacks",
    A.Launch: "launch fighters",
}
