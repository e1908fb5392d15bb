"""Issue 13: the quicker ways legal_actions finds the moves on offer give what the plain
way gives, over whole seeded random games: each move traced afresh from its start hex,
and each hex looked up among all the craft (SFA-MOV-1 to SFA-MOV-4, SFA-MOV-6,
SFA-COL-1). No timing here: speed is measured with `dogfight bench`."""

from __future__ import annotations

import random

import pytest

from dogfight.core import Game, load_scenario
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actors import split_key
from dogfight.rulesets.sfa.choices import (
    charging,
    impact_key,
    least_hexes,
    move_budget,
    move_choices,
    visible_occupant,
)
from dogfight.rulesets.sfa.collisions import ram_choices, ram_victim
from dogfight.rulesets.sfa.craft import STARFIGHTER, STARSHIP
from dogfight.rulesets.sfa.maneuvers import _trace, candidate_steps, trace
from dogfight.rulesets.sfa.state import CraftState, Selection, SfaState


def plain_moves(state: SfaState, craft: CraftState, selection: Selection) -> list[str]:
    """The moves on offer worked out the plain way: every candidate traced from where
    the craft is, every hex of it looked up among all the craft."""
    if charging(craft, selection):
        return [""]
    budget = move_budget(state, craft, selection)
    least = least_hexes(state, craft, selection)
    move = state.type_of(craft).move
    boosted = budget > move and selection.kind == "equipment"
    candidates = list(
        dict.fromkeys(s for n in range(1, budget + 1) for s in candidate_steps(n))
        if budget > 0
        else candidate_steps(budget)
    )
    if boosted:
        tails = [
            s + "F" * k
            for n in range(1, move + 1)
            for s in candidate_steps(n)
            for k in range(T.BOOST_HEXES + 1)
        ]
        candidates = list(dict.fromkeys(tails + ["F" * n for n in range(1, budget + 1)]))
    paths = {s: _trace(craft.hex, craft.facing, s, budget, min_hexes=least) for s in candidates}
    legal = [
        s
        for s in candidates
        if not paths[s].problem and not (boosted and T.booster_problem(s, move))
    ]
    if (selection.kind, selection.item) == ("equipment", "hyper_ram"):
        return legal
    crowded = bool(state.options.get("collide_on_entry", False))
    safe = [
        s
        for s in legal
        if all(
            state.map.contains(h) and not (crowded and visible_occupant(state, craft, h))
            for h in paths[s].hexes
        )
    ]
    if not safe:
        return legal
    ends: dict[tuple[object, ...], str] = {}
    for s in legal:
        key = impact_key(state, craft, s, budget, least, paths[s])
        if key is not None and key not in ends:
            ends[key] = s
    chosen = set(safe) | set(ends.values())
    return [s for s in legal if s in chosen]


def check_moves(state: SfaState, craft: CraftState, sel: Selection) -> None:
    """The moves and rams on offer now are the plain way's; traced paths are fresh ones."""
    offered = move_choices(state, craft, sel)
    assert offered == plain_moves(state, craft, sel)
    budget = move_budget(state, craft, sel)
    least = least_hexes(state, craft, sel)
    paths = {s: _trace(craft.hex, craft.facing, s, budget, min_hexes=least) for s in offered}
    rams = [s for s in offered if s and ram_victim(state, craft, paths[s])]
    may_ram = not (craft.ramming or state.options.get("collide_on_entry", False))
    if may_ram and (sel.kind, sel.item) != ("equipment", "hyper_ram"):
        assert ram_choices(state, craft, sel) == rams
    for s in offered:
        assert trace(craft.hex, craft.facing, s, budget, min_hexes=least) == paths[s]


@pytest.mark.parametrize("name", ["fighter-duel", "tech-melee", "asteroid-field"])
def test_moves_on_offer_as_the_plain_way_finds_them(name: str) -> None:
    """SFA-MOV-6, SFA-COL-1: at every move of a few seeded random games, the moves and
    rams offered are the plain way's, and a traced path is the path traced afresh."""
    checked = 0
    for seed in range(3):
        game = Game(load_scenario(f"sfa/{name}"), seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            state: SfaState = game.state
            if state.step == "move" and state.temporal is None and not state.abort_offer:
                craft = state.craft[split_key(state.acting)[0]]
                if not craft.held_by and not state.is_person(craft):
                    check_moves(state, craft, state.selections[state.acting])
                    checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 10


def test_starbase_assault_is_built_in_with_the_issues_forces() -> None:
    """Issue 13: the large sfa scenario is built in: a station (Starship + 1), at least
    two Starship-scale craft and at least 16 Starfighters on the map."""
    game = Game(load_scenario("starbase-assault"), seed=1)
    state = game.state
    assert isinstance(state, SfaState)
    scales = [state.type_of(c).scale for c in state.craft.values()]
    assert scales.count(STARSHIP + 1) == 1  # the station
    assert scales.count(STARSHIP) >= 2
    assert scales.count(STARFIGHTER) >= 16
