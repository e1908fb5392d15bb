"""Standard duel boards: valid for every ruleset, symmetric, and played from both sides."""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.game import Game
from dogfight.sim.matchup import (
    Matchup,
    default_roster,
    duel_scenario,
    matchup_seed,
    parse_count,
    play_matchups,
    tally,
)
from dogfight.sim.runner import BattleResult

PAIRS = {
    "acta": ("wasp", "zul"),
    "evo": ("frazi", "starfury-aurora"),
    "sfa": ("rebel-fighter", "alien-disk-fighter"),
}


@pytest.mark.parametrize(
    ("text", "expected"), [("4v4", (4, 4)), ("2v3", (2, 3)), ("4", (4, 4)), (" 1 V 5 ", (1, 5))]
)
def test_parse_count(text: str, expected: tuple[int, int]) -> None:
    assert parse_count(text) == expected


@pytest.mark.parametrize("text", ["", "4x", "v4", "4v", "0v2", "-1", "a v b"])
def test_parse_count_refuses_bad_text(text: str) -> None:
    with pytest.raises(DogfightError, match="--count"):
        parse_count(text)


def test_default_rosters() -> None:
    assert set(default_roster("acta")) == {
        "dragonfly",
        "hornet",
        "hummingbird",
        "wasp",
        "zaresh",
        "zketh",
        "zul",
    }
    assert set(default_roster("sfa")) == {"rebel-fighter", "alien-disk-fighter"}
    assert "thunderbolt" in default_roster("evo") and len(default_roster("evo")) >= 7


def _positions(scenario: Any, side: int) -> list[Any]:
    raw = scenario.raw["sides"][side]
    return [u["at"] for u in raw.get("units", raw.get("craft", []))]


@pytest.mark.parametrize("ruleset", sorted(PAIRS))
@pytest.mark.parametrize(("count_a", "count_b"), [(1, 1), (4, 4), (2, 3)])
def test_duel_scenario_is_valid_and_symmetric(ruleset: str, count_a: int, count_b: int) -> None:
    a, b = PAIRS[ruleset]
    scenario = duel_scenario(ruleset, a, b, count_a, count_b)
    game = Game(scenario, seed=5)
    assert game.sides() == (a, b)
    left, right = _positions(scenario, 0), _positions(scenario, 1)
    assert (len(left), len(right)) == (count_a, count_b)
    width = scenario.raw["map"]["width"] - 1 if ruleset == "sfa" else scenario.raw["table"]["width"]
    if count_a == count_b:
        # Mirror images across the middle of the board.
        assert sorted(tuple(p) for p in left) == sorted((width - x, y) for x, y in right)
    assert {x for x, _ in left}.isdisjoint({x for x, _ in right})


@pytest.mark.parametrize("ruleset", sorted(PAIRS))
def test_a_large_force_stands_in_ranks(ruleset: str) -> None:
    a, b = PAIRS[ruleset]
    scenario = duel_scenario(ruleset, a, b, 20, 20)
    Game(scenario, seed=0)
    assert len({x for x, _ in _positions(scenario, 0)}) >= 2


def test_mirror_match_sides_get_different_names() -> None:
    scenario = duel_scenario("acta", "wasp", "wasp", 2, 2)
    assert Game(scenario, seed=0).sides() == ("wasp 1", "wasp 2")


def test_unknown_unit_lists_the_known_ones() -> None:
    with pytest.raises(UnknownName, match=r"no acta unit type 'zorg'; known: .*zul"):
        duel_scenario("acta", "wasp", "zorg", 1, 1)


def _result(game: int, winner: str | None) -> BattleResult:
    return BattleResult(
        game=game, seed=game, winner=winner, turns=3, reason="", actions=1, events=1, survivors={}
    )


def test_tally_maps_winners_back_to_types_in_both_arms() -> None:
    m = Matchup(a="wasp", b="zul", count_a=2, count_b=2)
    a_first = [_result(0, "wasp"), _result(1, "zul"), _result(2, None)]
    b_first = [_result(0, "wasp"), _result(1, "wasp")]
    r = tally(m, a_first, b_first)
    assert (r.battles, r.wins_a, r.wins_b, r.draws) == (5, 3, 1, 1)
    assert (r.a_first_wins, r.b_first_wins) == (1, 0)
    assert r.rate_a == pytest.approx(3.5 / 5)
    mirror = Matchup(a="wasp", b="wasp", count_a=1, count_b=1)
    r = tally(mirror, [_result(0, "wasp 1")], [_result(0, "wasp 1")])
    # In the second arm the first side ("wasp 1") is type B.
    assert (r.wins_a, r.wins_b) == (1, 1)


@pytest.mark.parametrize("ruleset", sorted(PAIRS))
def test_a_few_battles_play_to_the_end_from_both_sides(ruleset: str) -> None:
    a, b = PAIRS[ruleset]
    m = Matchup(a=a, b=b, count_a=1, count_b=1)
    (r,) = play_matchups(ruleset, [m], 3, seed=2, jobs=1, ai="random")
    assert r.battles == 3 and r.wins_a + r.wins_b + r.draws == 3
    assert len(r.turns) == 3 and all(t >= 1 for t in r.turns)


def test_results_do_not_depend_on_jobs_or_on_the_other_matchups() -> None:
    m1 = Matchup(a="wasp", b="zul", count_a=1, count_b=1)
    m2 = Matchup(a="zaresh", b="zul", count_a=1, count_b=1)
    alone = play_matchups("acta", [m1], 4, seed=9, jobs=1, ai="random")
    together = play_matchups("acta", [m2, m1], 4, seed=9, jobs=2, ai="random")
    assert together[1] == alone[0]
    assert matchup_seed(9, m1) != matchup_seed(9, m2)
