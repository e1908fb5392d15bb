"""A subclass of the sfa ruleset under a new name (issue 12): it inherits everything
found through the ruleset (craft, scenarios, commands, lab, players, board, rules text),
an unchanged one plays exactly the same battles, and one rule function overridden in
its `rules` changes the engine, the exact odds, the board's preview and the heuristic's
estimate together."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.registry import _RULESETS, find_ruleset, register
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.dice import scripted
from dogfight.rulesets.sfa import actions as A
from dogfight.rulesets.sfa.board import BOARD, attack_case
from dogfight.rulesets.sfa.heuristic import SfaHeuristic, flights
from dogfight.rulesets.sfa.odds import sfa_pool
from dogfight.rulesets.sfa.rules import SfaRules
from dogfight.rulesets.sfa.ruleset import SfaRuleset

from .builders import (
    MISS,
    at,
    attack,
    craft,
    design,
    events,
    fire,
    pilot,
    run_until,
    scenario_raw,
    script,
    select,
    weapon,
)


class SpinRules(SfaRules):
    """A Spin gives +5 Soak instead of the seed's +2 (SFA-MOV-4)."""

    def maneuver(self, step: str) -> tuple[str, int, int] | None:
        found = super().maneuver(step)
        if found is not None and found[0] == "Spin":
            return (found[0], 5, found[2])
        return found


class PoolRules(SfaRules):
    """Attacks roll 2 dice more (SFA-ATK-1), and 1s cancel nothing (SFA-ATK-3)."""

    def attack_pool(self, *args: Any, **kwargs: Any) -> int:
        return super().attack_pool(*args, **kwargs) + 2

    def judge(self, successes: int, ones: int, willpower: bool) -> tuple[int, bool]:
        return super().judge(successes, 0, willpower)


class SoakRules(SfaRules):
    """A craft's total Soak counts its shields twice (SFA-SOAK-1 varied)."""

    def total_soak(
        self,
        dexterity: int,
        piloting: int,
        armor: int,
        shields: int,
        handling: int,
        maneuver_soak: int = 0,
    ) -> int:
        return super().total_soak(dexterity, piloting, armor, 2 * shields, handling, maneuver_soak)


class SoakVariant(SfaRuleset):
    name = "sfa-variant-soak"
    title = "sfa whose shields count twice in Soak"
    aliases = ()
    rules = SoakRules()


class SameVariant(SfaRuleset):
    name = "sfa-same"
    title = "sfa, unchanged, under another name"
    aliases = ()


class SpinVariant(SfaRuleset):
    name = "sfa-variant"
    title = "sfa with a stronger Spin"
    aliases = ()
    rules = SpinRules()


class PoolVariant(SfaRuleset):
    name = "sfa-variant-pool"
    title = "sfa with bigger pools whose 1s cancel nothing"
    aliases = ()
    rules = PoolRules()


@pytest.fixture(autouse=True)
def variants() -> Iterator[None]:
    find_ruleset("sfa")  # the built-in rulesets first, so that these come on top
    added = [register(cls()) for cls in (SameVariant, SpinVariant, PoolVariant, SoakVariant)]
    yield
    for ruleset in added:
        _RULESETS.pop(ruleset.name, None)


def as_variant(name: str, ruleset: str, seed: int = 5) -> Game:
    """A built-in sfa scenario played under another ruleset."""
    scenario = load_scenario(name)
    raw = {**scenario.raw, "ruleset": ruleset}
    return Game(msgspec.structs.replace(scenario, ruleset=ruleset, raw=raw), seed=seed)


def play(game: Game, actions: int) -> list[str]:
    """Heuristic v heuristic for up to `actions` actions; the log's lines."""
    players = {side: SfaHeuristic() for side in game.state.sides}
    rng = random.Random(1)
    for _ in range(actions):
        side = game.current_player()
        if side is None:
            break
        game.apply(players[side].decide(Seat.of(game, side), game.legal_actions(), rng))
    return [e.text for e in game.events]


# ---- inherited ------------------------------------------------------------------------


def test_a_subclass_inherits_everything_found_through_the_ruleset() -> None:
    sfa, same = find_ruleset("sfa"), find_ruleset("sfa-same")
    assert same.unit_names() == sfa.unit_names()
    assert same.rules_text() == ("rules.md", "technologies.md")
    assert same.data_folder() == sfa.data_folder()
    assert dict(same.players()) == dict(sfa.players())
    assert same.board() is sfa.board()
    lab = same.lab()
    assert lab is not None
    assert lab.default_roster(same) == lab.default_roster(sfa)
    assert [(c.group, c.name) for c in same.commands()] == [
        (c.group, c.name) for c in sfa.commands()
    ]


def test_an_unchanged_subclass_plays_the_same_battle() -> None:
    assert play(as_variant("sfa/fighter-duel", "sfa-same"), 250) == play(
        as_variant("sfa/fighter-duel", "sfa"), 250
    )


# ---- a maneuver's Soak: engine, board, heuristic ------------------------------------------


def spun_target(ruleset: str) -> Game:
    """SFA-SOAK-1's position: R1 flies a Spin (FSF), then B1 is about to fire its Heavy
    Laser at it."""
    target = design("target", move=3, handling=1)
    del target["soak"]
    target.update(armor=2, shields=1)
    raw = scenario_raw(
        craft(0, "gun", (5, 9), 0, id="B1", pilot=pilot(5, 4)),
        craft(1, "target", (5, 3), 3, id="R1", pilot=pilot(4, 3)),
        designs=[design("gun", weapon("heavy_laser"), move=0), target],
    )
    raw["ruleset"] = ruleset
    game = Game(scenario_from_raw(raw, "test"), seed=0, dice=scripted())
    select(game, {"B1#0": attack("B1#0", "Heavy Laser", speed_dice=1)})
    run_until(game, "B1#0", "resolve", moves={"R1": "FSF", "B1": ""})
    assert game.state.craft["R1"].hex == at(5, 5)
    return game


def test_engine_follows_the_subclass_maneuver_rule() -> None:
    """SFA-MOV-4 / SFA-SOAK-1: the Spin's Soak is the ruleset's; total Soak 4 + 3 + 3 +
    1 + Spin, and the pool 5 + 4 + 15 - Soak - 1 (scripted dice)."""
    for ruleset, spin in (("sfa", 2), ("sfa-variant", 5)):
        game = spun_target(ruleset)
        assert game.state.craft["R1"].maneuver_soak == spin
        script(game, *[MISS] * 10)
        fire(game, "B1#0", "R1")
        (shot,) = [e for e in events(game, "SFA-ATK-1") if "dice" in e.data]
        assert f"against Soak {11 + spin}" in shot.text
        assert shot.data["dice"] == 5 + 4 + 0 + 15 - (11 + spin) - 1


def test_board_preview_follows_the_subclass_maneuver_rule() -> None:
    """The browser's odds before Commit use the Soak the engine will use."""
    for ruleset, soak in (("sfa", 13), ("sfa-variant", 16)):
        game = spun_target(ruleset)
        action = A.Resolve(actor="B1#0", target="R1")
        view = BOARD.describe(game, action)
        assert f"against Soak {soak}" in view["odds"]["title"]


def test_heuristic_follows_the_subclass_maneuver_rule() -> None:
    """The heuristic's moves carry the ruleset's maneuver Soak."""
    game = as_variant("sfa/fighter-duel", "sfa-variant")
    player = SfaHeuristic()
    player.decide(Seat.of(game), game.legal_actions(), random.Random(0))
    assert isinstance(player.rules, SpinRules)
    start = game.state.craft[sorted(game.state.craft)[0]]
    spins = {
        steps: path.soak
        for steps, path in flights(start.hex, start.facing, 3, 1, rules=player.rules)
        if "S" in steps
    }
    assert spins and set(spins.values()) == {5}
    base = {s: p.soak for s, p in flights(start.hex, start.facing, 3, 1) if "S" in s}
    assert set(base.values()) == {2}


# ---- the attack pool and how a roll counts: odds, board, heuristic (engine at merge) -----


def test_odds_follow_the_subclass_pool_rule() -> None:
    """SFA-ATK-3 varied: with 1s cancelling nothing, a pool never botches, and
    `dogfight odds sfa-variant-pool pool` counts it that way."""
    odds = sfa_pool(5, rules=PoolRules())
    assert odds.botch == 0
    assert odds.net != sfa_pool(5).net
    (pool,) = [c for c in find_ruleset("sfa-variant-pool").commands() if c.name == "pool"]
    options = {o.name: o.default for o in find_ruleset("sfa-variant-pool").options}
    report = pool.run({"dice": 5, "willpower": False, "difficulty": 6}, options)
    assert report.json["botch"] == 0.0
    assert report.json["ruleset"] == "sfa-variant-pool"
    assert report.json["net_successes"] == {str(k): float(p) for k, p in odds.net.items()}


def test_board_preview_follows_the_subclass_pool_rule() -> None:
    base, varied = spun_target("sfa"), spun_target("sfa-variant-pool")
    action = A.Resolve(actor="B1#0", target="R1")
    cases = [attack_case(g, action, g.observation("Blue")) for g in (base, varied)]
    assert cases[0] is not None and cases[1] is not None
    assert cases[1]["dice"] == cases[0]["dice"] + 2
    assert BOARD.describe(varied, action)["odds"]["facts"]["botch per roll"] == "0.0%"


def test_heuristic_estimate_follows_the_subclass_pool_rule() -> None:
    worths = []
    for ruleset in ("sfa", "sfa-variant-pool"):
        game = spun_target(ruleset)
        player = SfaHeuristic()
        player.decide(Seat.of(game), game.legal_actions(), random.Random(0))
        state = player.state
        me, target = state.craft["B1"], state.craft["R1"]
        gun = state.type_of(me).weapons[0]
        worths.append(player.shot(me, 0, gun, target, speed_dice=1))
    assert worths[1] > worths[0]


def test_engine_follows_the_subclass_pool_rule() -> None:
    """SFA-ATK-1 varied: the engine rolls the ruleset's attack pool (scripted dice)."""
    dice = []
    for ruleset in ("sfa", "sfa-variant-pool"):
        game = spun_target(ruleset)
        script(game, *[MISS] * 12)
        fire(game, "B1#0", "R1")
        (shot,) = [e for e in events(game, "SFA-ATK-1") if "dice" in e.data]
        dice.append(shot.data["dice"])
    assert dice[1] == dice[0] + 2


# ---- total Soak: engine and board -------------------------------------------------------


def test_engine_and_board_follow_the_subclass_soak_rule() -> None:
    """SFA-SOAK-1 varied: the Soak the engine rolls against, and the one the browser's
    odds preview shows, are the ruleset's `total_soak` (R1's shields, 1, count twice)."""
    for ruleset, soak in (("sfa", 13), ("sfa-variant-soak", 14)):
        game = spun_target(ruleset)
        view = BOARD.describe(game, A.Resolve(actor="B1#0", target="R1"))
        assert f"against Soak {soak}" in view["odds"]["title"]
        script(game, *[MISS] * 10)
        fire(game, "B1#0", "R1")
        (shot,) = [e for e in events(game, "SFA-ATK-1") if "dice" in e.data]
        assert f"against Soak {soak}" in shot.text
