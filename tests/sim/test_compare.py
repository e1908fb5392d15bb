"""Comparing a scenario without and with house rules: the paired test and the verdict."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from dogfight.core.errors import DogfightError, OptionError
from dogfight.core.scenario import load_scenario
from dogfight.sim.compare import compare, judge, mcnemar_exact, p_text, paired_change
from dogfight.sim.runner import BattleResult


@pytest.mark.parametrize(("gained", "lost"), [(10, 0), (5, 5), (3, 9), (40, 61), (120, 80)])
def test_mcnemar_exact_is_the_two_sided_binomial_test(gained: int, lost: int) -> None:
    expected = binomtest(min(gained, lost), gained + lost, 0.5).pvalue
    assert mcnemar_exact(gained, lost) == pytest.approx(expected, rel=1e-9)


def test_mcnemar_with_no_discordant_seed_is_one() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(10, 0) == pytest.approx(2 / 1024)


def test_paired_change_counts_seeds_won_only_in_one_arm() -> None:
    without = ["A", "A", "B", None, "B", "A"]
    with_rules = ["A", "B", "A", "A", "A", None]
    change = paired_change("A", without, with_rules)
    assert (change.gained, change.lost) == (3, 2)
    assert change.without.count == 3 and change.with_rules.count == 4
    assert change.difference == pytest.approx(1 / 6)
    assert change.low < change.difference < change.high


def _results(winners: list[str | None], turns: int = 4) -> list[BattleResult]:
    return [
        BattleResult(
            game=i, seed=i, winner=w, turns=turns, reason="", actions=1, events=1, survivors={}
        )
        for i, w in enumerate(winners)
    ]


def test_a_large_shift_is_called_a_move() -> None:
    without = _results(["Empire"] * 30 + ["Klingon"] * 70)
    with_rules = _results(["Empire"] * 60 + ["Klingon"] * 40)
    result = judge(
        "furball", {"dogfight_tie": "reroll"}, 1, ["Empire", "Klingon"], without, with_rules
    )
    assert result.significant
    assert result.verdict.startswith(
        "With dogfight_tie=reroll, Empire wins 30.0 points more often ("
    )
    assert result.verdict.endswith("): the rule moves the balance.")
    klingon = result.sides[1]
    assert klingon.difference == pytest.approx(-0.3)


def test_a_small_shift_is_no_significant_change() -> None:
    without = _results(["Empire", "Klingon"] * 50)
    flipped = ["Empire", "Klingon"] * 50
    flipped[1] = "Empire"  # one seed changes hands
    result = judge(
        "furball", {"scramble": "true"}, 1, ["Empire", "Klingon"], without, _results(flipped)
    )
    assert not result.significant
    assert result.verdict == (
        "With scramble=true, no significant change: Empire wins 1.0 points more often "
        "(p = 1); the rule does not measurably move the balance."
    )


def test_fewer_wins_read_as_less_often() -> None:
    without = _results(["Empire"] * 80 + ["Klingon"] * 20)
    with_rules = _results(["Empire"] * 20 + ["Klingon"] * 80)
    result = judge("x", {"k": "v"}, 1, ["Empire", "Klingon"], without, with_rules)
    # Both sides moved as much, equally surely: the first side is named.
    assert "Empire wins 60.0 points less often (p < 0.001)" in result.verdict
    assert p_text(0.0412) == "p = 0.0412" and p_text(1e-5) == "p < 0.001"


def test_compare_plays_both_arms_on_the_same_seeds() -> None:
    scenario = load_scenario("furball")
    players = {"Empire": "random", "Klingon": "random"}
    result = compare(scenario, {"dogfight_tie": "reroll"}, 3, seed=4, players=players, jobs=1)
    assert result.battles == 3
    assert [s.side for s in result.sides] == ["Empire", "Klingon"]
    assert result.sides[0].without.n == 3 and result.sides[0].with_rules.n == 3


def test_a_bad_rule_fails_before_any_battle() -> None:
    scenario = load_scenario("furball")
    with pytest.raises(OptionError, match="unknown rule option 'nope'"):
        compare(scenario, {"nope": "1"}, 1000)
    with pytest.raises(DogfightError, match="at least one --rule"):
        compare(scenario, {}, 10)
