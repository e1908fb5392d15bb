"""An unchanged subclass of a built-in ruleset, registered under a new name, is that
ruleset in every respect: its data, scenarios, players, hooks, battles, duels and round
robins are the parent's (tests/plugins/acta_variant.py)."""

from __future__ import annotations

import msgspec
import pytest

from dogfight.ai import make_player, player_kinds
from dogfight.core.game import Game
from dogfight.core.registry import find_ruleset
from dogfight.core.ruleset import Ruleset
from dogfight.core.scenario import builtin_scenario_files, builtin_scenarios, load_scenario
from dogfight.core.seat import Seat
from dogfight.sim.balance import round_robin
from dogfight.sim.matchup import Matchup, default_roster, duel_scenario, play_matchups
from dogfight.sim.players import player_rng
from dogfight.sim.runner import play_game, simulate

ACTA_SCENARIOS = [f.stem for f in builtin_scenario_files("acta")]


def test_the_variant_keeps_its_parents_data(variant: Ruleset) -> None:
    """data_name is inherited: the units, the scenarios and the rules text are acta's."""
    parent = find_ruleset("acta")
    assert find_ruleset("acta-variant") is variant and find_ruleset("acta") is parent
    assert all(find_ruleset(alias) is parent for alias in parent.aliases)
    assert variant.data_name == parent.data_name
    assert variant.data_folder() == parent.data_folder()
    assert variant.unit_names() == parent.unit_names()
    assert variant.describe_unit("wasp") == parent.describe_unit("wasp")
    assert variant.rules_text() == parent.rules_text()
    assert builtin_scenario_files("acta-variant") == builtin_scenario_files("acta")
    assert [s.ruleset for s in builtin_scenarios("acta-variant")] == ["acta-variant"] * len(
        ACTA_SCENARIOS
    )
    # Listing everything shows each file once, under the ruleset that ships it.
    assert len(builtin_scenario_files()) == len(set(builtin_scenario_files()))


def test_the_variant_inherits_every_hook(variant: Ruleset) -> None:
    parent = find_ruleset("acta")
    assert player_kinds(variant) == player_kinds(parent)
    for kind in player_kinds(parent):
        assert type(make_player(kind, variant)) is type(make_player(kind, parent))
    assert variant.board() is parent.board()
    assert variant.lab() is parent.lab()
    assert [c.name for c in variant.commands()] == [c.name for c in parent.commands()]
    assert variant.options == parent.options


@pytest.mark.parametrize("name", ACTA_SCENARIOS)
def test_a_scenario_named_with_the_variant_is_played_by_it(variant: Ruleset, name: str) -> None:
    scenario = load_scenario(f"acta-variant/{name}")
    assert scenario.ruleset == scenario.raw["ruleset"] == "acta-variant"
    assert Game(scenario, seed=1).ruleset is variant
    parent = load_scenario(f"acta/{name}")
    assert parent.ruleset == "acta" and Game(parent, seed=1).ruleset is find_ruleset("acta")


def affordable(kind: str) -> str:
    """A kind at a budget a whole battle can afford here: the search player at its
    default budget takes minutes a battle, and plays the same way at any budget."""
    return "search:2" if kind == "search" else kind


@pytest.mark.slow
@pytest.mark.parametrize("name", ACTA_SCENARIOS)
def test_the_variant_plays_the_same_battles_as_acta(variant: Ruleset, name: str) -> None:
    """Same scenario, seed and players: the same events, action for action, and the same
    decisions of every player kind acta offers."""
    for kind in map(affordable, player_kinds("acta")):
        games = []
        for ruleset in ("acta", "acta-variant"):
            game = Game(load_scenario(f"{ruleset}/{name}"), seed=11)
            assert game.ruleset is find_ruleset(ruleset)
            games.append(play_game(game, default=kind))
        ours, theirs = games
        assert theirs.events == ours.events, kind
        assert theirs.actions == ours.actions and theirs.outcome() == ours.outcome()


def test_the_variant_decides_as_acta_does(variant: Ruleset) -> None:
    """At the same position each player of the variant picks what acta's would."""
    for kind in map(affordable, player_kinds("acta")):
        ours = Game(load_scenario("acta/furball"), seed=4)
        theirs = Game(load_scenario("acta-variant/furball"), seed=4)
        picks = [
            make_player(kind, g.ruleset).decide(Seat(g), g.legal_actions(), player_rng(4))
            for g in (ours, theirs)
        ]
        assert picks[0] == picks[1], kind


@pytest.mark.slow
def test_the_variant_runs_the_same_batches_duels_and_round_robins(variant: Ruleset) -> None:
    """sim gives the variant acta's results: batches, duels (its lab set-up) and balance."""
    batch = [
        simulate(load_scenario(f"{r}/furball"), 4, seed=3, jobs=1, players=None)
        for r in ("acta", "acta-variant")
    ]
    assert batch[0] == batch[1]
    assert default_roster("acta-variant") == default_roster("acta")
    ours = duel_scenario("acta", "wasp", "zul", 2, 3)
    theirs = duel_scenario("acta-variant", "wasp", "zul", 2, 3)
    assert theirs.raw["sides"] == ours.raw["sides"] and theirs.raw["ruleset"] == "acta-variant"
    matchups = [Matchup(a="wasp", b="zul", count_a=2, count_b=2)]
    assert play_matchups("acta-variant", matchups, 4, seed=5, jobs=1) == play_matchups(
        "acta", matchups, 4, seed=5, jobs=1
    )
    reports = [
        round_robin(r, ["wasp", "zul", "hornet"], count=1, battles=2, seed=2, jobs=1)
        for r in ("acta", "acta-variant")
    ]
    assert reports[1].ruleset == "acta-variant"
    # The same report but for the ruleset's name (in its field and its messages).
    texts = [msgspec.json.encode(report) for report in reports]
    assert texts[1].replace(b"acta-variant", b"acta") == texts[0]


def test_the_variant_benches_its_own_scenarios(variant: Ruleset) -> None:
    """`dogfight bench --ruleset` plays the variant's scenarios with the variant."""
    from dogfight.sim.bench import benchmark

    rows = benchmark("acta-variant", battles=1)
    assert [r.scenario for r in rows] == ACTA_SCENARIOS
    assert {r.ruleset for r in rows} == {"acta-variant"}
