"""The `sfa` ruleset: Space Fighter Alpha on a hex map (seed 003).

A turn: every pilot and gunner secretly picks an action; Speeds are revealed; the
slowest acts first, each craft moving and then resolving, while faster actors may
interrupt before a move or a resolution. Missiles fly first, at Speed 0.

`SfaRuleset` holds the hooks; `choices`, `legal` and `checks` answer what may be done,
`sequence`, `acting` and `missiles` carry the turn on, and `observe` hides what a side
may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dogfight.core.data import read_yaml
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.core.ruleset import Outcome, Ruleset, UnitRecord
from dogfight.core.scenario import Scenario, inline_unit_files
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import checks, legal
from dogfight.rulesets.sfa.acting import do_abort, do_move, resolve
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import catalog, describe, find_craft, load_craft_file
from dogfight.rulesets.sfa.observe import observe
from dogfight.rulesets.sfa.options import OPTIONS
from dogfight.rulesets.sfa.person import load_fighter_file
from dogfight.rulesets.sfa.sequence import advance, interrupt, time_note
from dogfight.rulesets.sfa.setup import build_state
from dogfight.rulesets.sfa.state import Selection, SfaState
from dogfight.rulesets.sfa.temporal import apply_action


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
        return observe(state, player)

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

    # ---- legal actions and checking ------------------------------------------------------

    def ctx(self, state: SfaState) -> Ctx:
        """A question-only context."""
        return checks.question_ctx(state)

    def legal_actions(self, state: SfaState) -> list[Any]:
        return legal.legal_actions(state)

    def check(self, state: SfaState, action: Any) -> None:
        checks.check(state, action)

    def move_problem(self, ctx: Ctx, action: A.Move) -> str:
        """Why a move is illegal ('' if it is legal)."""
        return checks.move_problem(ctx, action)

    # ---- applying ---------------------------------------------------------------------

    def apply(self, state: SfaState, action: Any, log: EventLog) -> None:
        # A roll met on the way may wait on a Temporal Displacement answer (SFA-TEC-28).
        apply_action(state, action, log, self._apply)

    def _apply(self, state: SfaState, action: Any, log: EventLog) -> None:
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
            if state.abort_offer:
                state.abort_offer = ""
            else:
                state.window_sides = state.window_sides[1:]
        elif isinstance(action, A.Interrupt):
            interrupt(ctx, action.actor)
        elif isinstance(action, A.Abort):
            do_abort(ctx, action)
        elif isinstance(action, A.Move):
            do_move(ctx, action)
        elif isinstance(action, A.Resolve):
            resolve(ctx, action)
        advance(ctx)
