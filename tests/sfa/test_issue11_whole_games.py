"""Issue 11 over whole random games: legal_actions() offers every kind of choice check()
accepts (SFA-SEQ-2, SFA-COL-1, SFA-MOV-6, SFA-TEC-16, SFA-TEC-27), and the other seat is
never shown a secret selection or a cloaked craft before the rules reveal it (SFA-SEQ-1,
SFA-SEQ-2, SFA-TEC-25, SFA-TEC-16).

Games are played by random legal choices from seeded generators; the dice come from
the game's own seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.events import PRIVATE_TO, visible_to
from dogfight.core.scenario import scenario_from_raw
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.checks import MAX_SPEED_DICE
from dogfight.rulesets.sfa.choices import choices_for, impact_key, least_hexes, move_budget
from dogfight.rulesets.sfa.maneuvers import candidate_steps, trace
from dogfight.rulesets.sfa.state import Selection, SfaState

from .builders import craft, design, scenario_raw, weapon

GADGETS = design(
    "gadget",
    weapon("light_laser"),
    weapon("medium_laser", turret=True),
    power=10,
    move=3,
    technologies=["teleport", "holo_projector", "force_field", "stealth", "boosters"],
)
PLAIN = design("plain", weapon("light_laser"), weapon("heavy_laser"), move=4)


def gadget_game(seed: int) -> Game:
    """Two technology craft against two plain ones, close together on a small map."""
    raw = scenario_raw(
        craft(0, "gadget", (3, 7), 0, id="B1"),
        craft(0, "gadget", (5, 8), 0, id="B2"),
        craft(1, "plain", (3, 3), 3, id="R1"),
        craft(1, "plain", (5, 2), 3, id="R2"),
        designs=[GADGETS, PLAIN],
        size=(9, 10),
        turn_limit=6,
    )
    return Game(scenario_from_raw(raw, "test"), seed=seed)


def games() -> list[tuple[str, Game]]:
    out = [(f"gadgets-{s}", gadget_game(s)) for s in range(4)]
    for name in ("sfa/fighter-duel", "sfa/tech-melee", "sfa/asteroid-field"):
        out += [(f"{name}-{s}", Game(load_scenario(name), seed=s)) for s in range(2)]
    return out


# ---- every accepted candidate is equivalent to an offered action ------------------


def move_effect(state: SfaState, action: A.Move) -> tuple[Any, ...]:
    """What a move does: where a Teleport lands, or the path, cut short where it rams a
    seen craft or leaves the map."""
    if action.dest is not None or action.steps == "":
        return (action.abort, action.dest, action.steps)
    craft = state.craft[action.craft]
    selection = state.selections[state.acting]
    if action.abort:
        selection = (
            Selection(kind="extra_move")
            if action.abort == "extra_move"
            else Selection(kind="equipment", item=action.abort)
        )
    budget = move_budget(state, craft, selection)
    least = least_hexes(state, craft, selection)
    cut = impact_key(state, craft, action.steps, budget, least)
    if cut is not None:
        return (action.abort, cut)
    path = trace(craft.hex, craft.facing, action.steps, budget, min_hexes=least)
    return (action.abort, path.hexes, path.facing, path.soak, path.handling)


def candidates(game: Game) -> list[Any]:
    """A broad sample of actions of the kinds item 14 names, legal or not."""
    state: SfaState = game.state
    out: list[Any] = []
    if state.phase == "select":
        key = state.to_select[0]
        for kind, item in choices_for(state, key):
            out += [
                A.Select(actor=key, kind=kind, item=item, speed_dice=n)
                for n in range(MAX_SPEED_DICE + 2)
            ]
    elif state.step == "move" and not state.abort_offer and state.temporal is None:
        craft = state.craft[split_key(state.acting)[0]]
        if state.is_person(craft) or craft.held_by:
            return out
        budget = state.type_of(craft).move + 5
        steps = candidate_steps(budget)
        for abort in ("", "extra_move", "boosters", "teleport"):
            out += [A.Move(craft=craft.id, steps=s, abort=abort) for s in steps]
            out += [
                A.Move(craft=craft.id, dest=h, abort=abort)
                for h in craft.hex.spiral(min(craft.power, 11) + 1)
            ]
    elif state.step == "resolve" and not state.abort_offer and state.temporal is None:
        craft = state.craft[split_key(state.acting)[0]]
        out += [A.Resolve(actor=state.acting, at=h) for h in craft.hex.spiral(6)]
    return out


@pytest.mark.parametrize("label,game", games(), ids=[n for n, _ in games()])
def test_every_accepted_candidate_is_offered(label: str, game: Game) -> None:
    """SFA-SEQ-2, SFA-COL-1, SFA-MOV-6, SFA-TEC-16, SFA-TEC-27: over a whole random game,
    every sampled action check() accepts is one legal_actions() offers, or (a move)
    does what an offered move does."""
    rng = random.Random(label)
    checked = 0
    for _ in range(400):
        if game.is_over():
            break
        legal = game.legal_actions()
        offered = set(legal)
        effects = {move_effect(game.state, a) for a in legal if isinstance(a, A.Move)}
        for action in candidates(game):
            if not game.is_legal(action):
                continue
            checked += 1
            if isinstance(action, A.Move):
                assert move_effect(game.state, action) in effects, (label, action)
            else:
                assert action in offered, (label, action)
        game.apply(rng.choice(legal))
    assert checked > 0


# ---- the other seat sees no secret --------------------------------------------------


def secrets_kept(game: Game, new_events: list[Any]) -> None:
    """What each seat is shown of the other side's hidden information."""
    state: SfaState = game.state
    for seat in state.sides:
        other = state.other(seat)
        seen = game.observation(seat)
        pending = set(state.order) if state.phase == "act" else set(state.selections)
        for key in state.selections:
            craft = state.craft.get(split_key(key)[0])
            if craft is not None and craft.side == other and key in pending:
                assert key not in seen["selections"], (seat, key)
        for unit in state.craft.values():
            if unit.side == other and not T.side_sees(state, seat, unit):
                assert unit.id not in seen["craft"], (seat, unit.id)
        for decoy in state.decoys.values():
            if state.owner.get(decoy.owner) == other:
                assert decoy.id not in seen["decoys"]
                shown = seen["craft"][decoy.id]
                assert set(shown) == set(seen["craft"].get(decoy.owner, shown))
        for event in new_events:
            if not visible_to(event, seat):
                continue
            if event.clause in ("SFA-SEQ-1", "SFA-SEQ-2") and event.data.get(PRIVATE_TO) != seat:
                # Choosing and revealing say who chose and how fast, never what.
                assert "fires" not in event.text and " uses " not in event.text, event.text
            unit = state.craft.get(str(event.data.get("unit", "")))
            if unit is not None and unit.side == other and unit.cloaked:
                assert event.clause not in ("SFA-MOV-1", "SFA-OBS-1"), event.text


@pytest.mark.parametrize("label,game", games(), ids=[n for n, _ in games()])
def test_the_other_seat_never_sees_a_secret(label: str, game: Game) -> None:
    """SFA-SEQ-1, SFA-SEQ-2, SFA-TEC-25, SFA-TEC-16: through a whole random game, no seat's
    observation or log shows the other side's selections before they resolve, nor its
    cloaked craft, nor which of its pieces is a decoy."""
    rng = random.Random(label)
    for _ in range(3000):
        if game.is_over():
            break
        before = len(game.events)
        game.apply(rng.choice(game.legal_actions()))
        secrets_kept(game, game.events[before:])
