"""The `sfa` ruleset: Space Fighter Alpha on a hex map (seed 003).

A turn: every pilot and gunner secretly picks an action; Speeds are revealed; the
slowest acts first, each craft moving and then resolving, while faster actors may
interrupt before a move or a resolution. Missiles fly first, at Speed 0.

`SfaRuleset` holds the hooks; `choices`, `legal` and `checks` answer what may be done,
`sequence`, `acting` and `missiles` carry the turn on, and `observe` hides what a side
may not see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from dogfight.core.data import read_yaml
from dogfight.core.events import Event, EventLog
from dogfight.core.options import OptionValue
from dogfight.core.ruleset import Outcome, Ruleset, UnitRecord
from dogfight.core.scenario import Scenario, inline_unit_files
from dogfight.geometry.hexmap import OPEN
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import checks, legal
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.acting import do_abort, do_move, resolve
from dogfight.rulesets.sfa.actors import speed_of, split_key
from dogfight.rulesets.sfa.choices import selections_for
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import catalog, describe, find_craft, load_craft_file
from dogfight.rulesets.sfa.names import action_real, veil
from dogfight.rulesets.sfa.observe import event_view, observe
from dogfight.rulesets.sfa.options import OPTIONS
from dogfight.rulesets.sfa.person import load_fighter_file
from dogfight.rulesets.sfa.rules import SfaRules
from dogfight.rulesets.sfa.sequence import advance, interrupt, scores, time_note
from dogfight.rulesets.sfa.setup import build_state
from dogfight.rulesets.sfa.state import Selection, SfaState
from dogfight.rulesets.sfa.temporal import apply_action

if TYPE_CHECKING:
    from dogfight.core.encoding import Encoding
    from dogfight.core.hooks import Board, Command, LabSetup
    from dogfight.core.play import Player


class SfaRuleset(Ruleset[SfaState, A.SfaAction]):
    """Space Fighter Alpha for Street Fighter: The Storytelling Game."""

    name = "sfa"
    title = "Space Fighter Alpha on a hex map (seed 003)"
    phase_names: ClassVar[Mapping[str, str]] = {
        "turn_start": "Start of turn",
        "select": "Secret selection",
        "act": "Actions in Speed order",
    }
    """The phases in people's words (seed 003's turn sequence)."""
    aliases = ("space-fighter-alpha",)
    quick_scenario = "street-brawl"
    search_budget = 12
    search_horizon = 0
    options = OPTIONS
    action_type = A.SfaAction
    score_meaning = "share of the enemy's starting Structure knocked out"  # sequence.scores
    unit_file_keys = (
        frozenset({"handling", "structure", "move"}),
        frozenset({"strength", "stamina", "athletics"}),
    )
    odds_help: ClassVar[str] = "SFA: one dice pool."
    """The help line of `dogfight odds sfa` (the group of this ruleset's odds kinds)."""
    data_name: ClassVar[str] = "sfa"
    """The name this ruleset's data, rules text and commands go by: a subclass registered
    under another name inherits it, and with it the craft, scenarios and commands."""
    rules: ClassVar[SfaRules] = SfaRules()
    """The rule functions the engine, odds, heuristic and board all call; a subclass
    varies a rule with `rules = MyRules()`."""

    # ---- hooks ------------------------------------------------------------------------

    def resolve_scenario(self, scenario: Scenario) -> Scenario:
        return inline_unit_files(scenario)

    def setup(
        self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog
    ) -> SfaState:
        state = build_state(scenario)
        state.options = dict(options)
        veil(state)  # aliases for the pieces of a side that can project decoys (SFA-TEC-16)
        ctx = Ctx(state, state.options, log, self.rules)
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

    def event_view(self, state: SfaState, event: Event, player: str | None) -> Event | None:
        return event_view(state, event, player)

    # ---- what players may know ------------------------------------------------------------

    def known_state(self, state: SfaState, side: str) -> SfaState:
        """The state as `side` may know it, read back from its observation: without the
        other side's secret selections (SFA-SEQ-1, SFA-SEQ-2), its cloaked craft
        (SFA-TEC-25), and with its decoys shown as the craft they pretend to be
        (SFA-TEC-13, SFA-TEC-16). The designs come from the scenario, which both sides
        know. A fresh copy at every call."""
        seen = observe(state, side)
        seen["types"] = {}
        try:
            known = msgspec.convert(seen, SfaState)
        except (msgspec.ValidationError, TypeError):
            # An observation that does not read back as a state: the state without
            # the craft and selections the observation leaves out.
            known = state.clone()
            shown = seen.get("selections", {})
            known.selections = {k: v for k, v in state.selections.items() if k in shown}
            known.craft = {k: c for k, c in known.craft.items() if k in seen["craft"]}
        known.types = dict(state.types)
        return known

    def sample_state(self, state: SfaState, side: str, rng: random.Random) -> SfaState:
        """An independent state in which the other side's secret selections are drawn at
        random (with `rng`) from those legal for each actor, and, once Speeds are
        revealed, from those giving the Speed it showed (SFA-SEQ-2); and each of its
        cloaked craft that `side` cannot see put on a free open hex, facing any way, drawn
        at random (SFA-TEC-25). Everything else is the real state's: what the side sees
        (its decoys, which `side` sees as craft, included)."""
        sampled = state.clone()
        sampled.selections = dict(state.selections)
        for key in secret_selections(state, side):
            options = selections_for(state, key)
            if state.phase == "act" and key in state.speeds:
                options = [s for s in options if speed_of(state, key, s) == state.speeds[key]]
            if options:
                sampled.selections[key] = options[rng.randrange(len(options))]
        for craft_id in sorted(state.craft):
            if T.side_sees(state, side, state.craft[craft_id]):
                continue
            hidden = sampled.craft[craft_id]
            free = [
                h
                for h in state.map
                if state.map.terrain_at(h).kind == OPEN.kind
                and sampled.occupant(h, ignore=craft_id) is None
            ]
            if free:
                hidden.hex = free[rng.randrange(len(free))]
                hidden.facing = rng.randrange(6)
        return sampled

    # ---- what the layers above ask of the ruleset ------------------------------------------

    def players(self) -> Mapping[str, Callable[[], Player]]:
        from dogfight.rulesets.sfa.heuristic import SfaHeuristic, persona_player

        # The personas' weights are read (and checked) when a player is made.
        return {
            "heuristic": SfaHeuristic,
            "heuristic:aggressive": persona_player("aggressive"),
            "heuristic:cautious": persona_player("cautious"),
        }

    def encoding(self, state: SfaState) -> Encoding:
        """The fixed action numbering and observation for learning (docs/rl.md)."""
        from dogfight.rulesets.sfa.encoding import SfaEncoding

        return SfaEncoding(state)

    def board(self) -> Board | None:
        from dogfight.rulesets.sfa.board import BOARD

        return BOARD

    def lab(self) -> LabSetup | None:
        from dogfight.rulesets.sfa.lab import LAB

        return LAB

    def commands(self) -> tuple[Command, ...]:
        from dogfight.rulesets.sfa.commands import commands

        return commands(self.rules, self.name)

    def rules_text(self) -> tuple[str, ...]:
        return ("rules.md", "technologies.md")

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

    def actor_of(self, action: A.SfaAction) -> str | None:
        """The actor (a craft's station) an action selects, resolves or aborts for, or
        the craft it flies; None for a pass."""
        who = getattr(action, "actor", "") or getattr(action, "craft", "")
        return who if isinstance(who, str) and who else None

    def standing(self, state: SfaState) -> dict[str, float]:
        """The turn limit's count (SFA-WIN-2), for the search player: each side's
        share of the enemy's starting Structure knocked out."""
        return scores(state)

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
        return checks.question_ctx(state, self.rules)

    def legal_actions(self, state: SfaState) -> list[Any]:
        return legal.legal_actions(state, self.rules)

    def check(self, state: SfaState, action: Any) -> None:
        checks.check(state, action, self.rules)

    def move_problem(self, ctx: Ctx, action: A.Move) -> str:
        """Why a move is illegal ('' if it is legal)."""
        return checks.move_problem(ctx, action)

    # ---- applying ---------------------------------------------------------------------

    def apply(self, state: SfaState, action: Any, log: EventLog) -> None:
        if isinstance(action, A.Hologram):
            # No action: the same side decides again, each decoy switched once (SFA-TEC-16).
            ctx = Ctx(state, state.options, log, self.rules)
            T.switch(ctx, state.craft[action.craft], action.on)
            return
        state.switched = ()
        action = action_real(state, action)
        # A roll met on the way may wait on a Temporal Displacement answer (SFA-TEC-28).
        apply_action(state, action, log, self._apply)

    def _apply(self, state: SfaState, action: Any, log: EventLog) -> None:
        ctx = Ctx(state, state.options, log, self.rules)
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


def secret_selections(state: SfaState, side: str) -> list[str]:
    """Actor keys of the other side whose selection `side` may not see now: all made so
    far while selecting (SFA-SEQ-1), those still to act once Speeds are revealed
    (SFA-SEQ-2). The same rule as `observe.observe`."""
    pending = set(state.order) if state.phase == "act" else set(state.selections)
    out = []
    for key in sorted(state.selections):
        craft = state.craft.get(split_key(key)[0])
        if key in pending and (craft is None or craft.side != side):
            out.append(key)
    return out
