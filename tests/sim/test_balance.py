"""Balance statistics on made-up results (fits, points, dominance) and a small real run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dogfight.core.errors import UnknownName
from dogfight.sim.balance import (
    ASSUMED_EXPONENT,
    ELO_BASE,
    ELO_PER_LOGIT,
    ForceFit,
    WinMatrix,
    bradley_terry,
    dominated,
    equal_point_counts,
    fit_forces,
    round_robin,
    suggested_points,
    win_matrix,
)
from dogfight.sim.matchup import Matchup, MatchupResult


def synthetic_matrix(theta: list[float], games: int, seed: int) -> WinMatrix:
    """Results drawn from a Bradley-Terry model with known strengths."""
    rng = np.random.default_rng(seed)
    size = len(theta)
    score = [[0.0] * size for _ in range(size)]
    battles = [[0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1, size):
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            wins = int(rng.binomial(games, p))
            score[i][j], score[j][i] = wins, games - wins
            battles[i][j] = battles[j][i] = games
    return WinMatrix(names=[f"u{i}" for i in range(size)], score=score, battles=battles)


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = [-1.0, -0.4, 0.0, 0.3, 1.1]
    centred = np.array(truth) - np.mean(truth)
    fit = bradley_terry(synthetic_matrix(truth, games=4000, seed=11))
    for s, expected in zip(fit, centred, strict=True):
        assert abs(s.theta - expected) < 0.06
        assert abs(s.theta - expected) < 4 * s.se
        assert 0.005 < s.se < 0.05
        assert s.rating == pytest.approx(ELO_BASE + ELO_PER_LOGIT * s.theta)
        assert s.rating_se == pytest.approx(ELO_PER_LOGIT * s.se)
    assert sum(s.theta for s in fit) == pytest.approx(0, abs=1e-9)


def test_standard_errors_match_the_spread_of_repeated_fits() -> None:
    """The observed-information errors agree with the scatter over many data sets."""
    truth = [-0.5, 0.0, 0.5]
    fits = [bradley_terry(synthetic_matrix(truth, games=400, seed=s)) for s in range(200)]
    spread = np.std([f[0].theta for f in fits])
    reported = np.mean([f[0].se for f in fits])
    assert reported == pytest.approx(spread, rel=0.2)


def test_draws_count_half_and_an_even_record_fits_equal() -> None:
    even = WinMatrix(names=["a", "b"], score=[[0, 50], [50, 0]], battles=[[0, 100], [100, 0]])
    a, b = bradley_terry(even)
    assert a.theta == pytest.approx(0) and b.theta == pytest.approx(0)


def test_a_clean_sweep_gets_a_finite_strength() -> None:
    sweep = WinMatrix(
        names=["a", "b", "c"],
        score=[[0, 100, 100], [0, 0, 60], [0, 40, 0]],
        battles=[[0, 100, 100], [100, 0, 100], [100, 100, 0]],
    )
    a, b, c = bradley_terry(sweep)
    assert math.isfinite(a.theta) and math.isfinite(a.se)
    assert a.theta > b.theta > c.theta


def test_win_matrix_counts_draws_half_from_both_sides() -> None:
    m = Matchup(a="x", b="y", count_a=2, count_b=2)
    result = MatchupResult(
        matchup=m,
        battles=10,
        wins_a=6,
        wins_b=2,
        draws=2,
        turns=[1] * 10,
        a_first_wins=3,
        b_first_wins=1,
    )
    matrix = win_matrix(["y", "x"], [result])
    assert matrix.rate(1, 0) == pytest.approx(0.7)
    assert matrix.rate(0, 1) == pytest.approx(0.3)
    assert matrix.rate(0, 0) is None


def _matrix(names: list[str], rates: dict[tuple[str, str], float]) -> WinMatrix:
    size = len(names)
    score = [[0.0] * size for _ in range(size)]
    battles = [[0] * size for _ in range(size)]
    for (x, y), rate in rates.items():
        i, j = names.index(x), names.index(y)
        score[i][j], score[j][i] = 100 * rate, 100 * (1 - rate)
        battles[i][j] = battles[j][i] = 100
    return WinMatrix(names=names, score=score, battles=battles)


def test_dominance_needs_head_to_head_everywhere_else_and_cost() -> None:
    names = ["x", "y", "z", "w"]
    rates = {
        ("y", "x"): 0.7,
        ("y", "z"): 0.6,
        ("x", "z"): 0.5,
        ("y", "w"): 0.4,
        ("x", "w"): 0.4,
        ("z", "w"): 0.7,
    }
    matrix = _matrix(names, rates)
    found = dominated(matrix, {"x": 20, "y": 20, "z": 20, "w": 20})
    assert [(d.unit, d.by) for d in found] == [("x", "y")]
    (d,) = found
    assert d.head_to_head == pytest.approx(0.7)
    assert d.against == {"z": pytest.approx((0.6, 0.5)), "w": pytest.approx((0.4, 0.4))}
    # Dearer: not dominated.
    assert dominated(matrix, {"x": 20, "y": 25, "z": 20, "w": 20}) == []
    # Neither priced: judged on results alone; one priced and one not: not comparable.
    assert [(d.unit, d.by) for d in dominated(matrix, {})] == [("x", "y")]
    assert dominated(matrix, {"y": 10}) == []
    # A narrow head-to-head edge (52 of 100) is not enough.
    assert dominated(_matrix(names, {**rates, ("y", "x"): 0.52}), {}) == []
    # Worse against one other type: not dominated.
    worse = _matrix(names, {**rates, ("y", "w"): 0.3})
    assert dominated(worse, {}) == []


def _force_results(
    theta: dict[str, float], k: float, counts: list[tuple[str, int, str, int]], games: int
) -> list[MatchupResult]:
    rng = np.random.default_rng(5)
    results = []
    for a, ca, b, cb in counts:
        p = 1 / (1 + math.exp(-(theta[a] + k * math.log(ca) - theta[b] - k * math.log(cb))))
        wins = int(rng.binomial(games, p))
        results.append(
            MatchupResult(
                matchup=Matchup(a=a, b=b, count_a=ca, count_b=cb),
                battles=games,
                wins_a=wins,
                wins_b=games - wins,
                draws=0,
                turns=[],
                a_first_wins=0,
                b_first_wins=0,
            )
        )
    return results


def test_fit_forces_measures_how_strength_grows_with_numbers() -> None:
    theta = {"a": -0.6, "b": 0.1, "c": 0.5}
    plan = [
        ("a", 4, "b", 4),
        ("a", 4, "c", 4),
        ("b", 4, "c", 4),
        ("a", 6, "b", 4),
        ("a", 6, "c", 3),
        ("b", 4, "c", 3),
    ]
    fit = fit_forces(["a", "b", "c"], _force_results(theta, 3.0, plan, 5000))
    assert fit.measured and fit.exponent_se is not None
    assert fit.exponent == pytest.approx(3.0, abs=4 * fit.exponent_se)
    assert fit.exponent == pytest.approx(3.0, abs=0.3)
    mean = sum(theta.values()) / 3
    for unit, value in theta.items():
        assert fit.theta[unit] == pytest.approx(value - mean, abs=0.1)


def test_with_equal_numbers_only_the_exponent_is_assumed() -> None:
    theta = {"a": -0.5, "b": 0.5}
    fit = fit_forces(["a", "b"], _force_results(theta, 2.0, [("a", 4, "b", 4)], 4000))
    assert not fit.measured and fit.exponent == ASSUMED_EXPONENT and fit.exponent_se is None
    assert fit.theta["b"] - fit.theta["a"] == pytest.approx(1.0, abs=0.1)


def test_when_the_measured_exponent_is_too_small_strengths_fit_the_assumed_one() -> None:
    # Numbers barely matter in these results (k about 0): k = 2 is assumed for pricing,
    # so the strengths must be the best fit *with k = 2*, not those fitted beside k = 0.
    theta = {"a": 0.0, "b": 0.0}
    plan = [("a", 4, "b", 4), ("a", 6, "b", 3)]
    results = _force_results(theta, 0.0, plan, 2000)
    fit = fit_forces(["a", "b"], results)
    assert not fit.measured and fit.exponent == ASSUMED_EXPONENT
    # The score equation of the Bradley-Terry likelihood (virtual draws included)
    # holds at the returned strengths with the assumed exponent.
    gradient = 0.0
    for r in results:
        m = r.matchup
        x = fit.theta[m.a] - fit.theta[m.b] + ASSUMED_EXPONENT * math.log(m.count_a / m.count_b)
        gradient += (r.score_a + 0.5) - (r.battles + 1) / (1 + math.exp(-x))
    assert gradient == pytest.approx(0.0, abs=1e-6)
    # With k = 2 the 6 v 3 results make a weaker than b, by about half of 2 ln 2.
    assert fit.theta["b"] - fit.theta["a"] == pytest.approx(math.log(2), abs=0.1)


def test_suggested_points_make_equal_points_forces_equal() -> None:
    fit = ForceFit(
        theta={"a": 0.0, "b": 2 * math.log(1.5)},
        exponent=2.0,
        exponent_se=0.1,
        measured=True,
        note="",
    )
    # b is 1.5 times a's worth per unit: a budget that buys 3 b's buys 4.5 a's.
    suggested = {s.unit: s for s in suggested_points(fit, {"a": 20, "b": 20})}
    assert suggested["b"].suggested / suggested["a"].suggested == pytest.approx(1.5, rel=0.03)
    assert (suggested["a"].suggested + suggested["b"].suggested) / 2 == pytest.approx(20, abs=1)
    assert suggested["a"].change == pytest.approx(16 / 20 - 1)
    even = ForceFit(
        theta={"a": 0.0, "b": 0.0}, exponent=3.0, exponent_se=None, measured=False, note=""
    )
    assert [s.suggested for s in suggested_points(even, {"a": 10, "b": 30})] == [20, 20]
    bare = suggested_points(fit, {})
    assert sum(s.suggested for s in bare) / 2 == pytest.approx(100, abs=1)
    assert all(s.change is None and s.points is None for s in bare)


def test_equal_point_counts_and_what_is_left_out() -> None:
    counts, skipped = equal_point_counts({"a": 20, "b": 30, "c": None, "d": 200}, 100)
    assert counts == {"a": 5, "b": 3}
    assert len(skipped) == 2
    assert skipped[0].startswith("c: no points value")
    assert skipped[1].startswith("d: 200 points")


def test_small_real_round_robin_evo_has_both_sections() -> None:
    report = round_robin(
        "evo",
        ["frazi", "razik", "starfury-nova"],
        count=1,
        battles=2,
        seed=3,
        jobs=1,
        ai="random",
    )
    assert report.units == ["frazi", "razik", "starfury-nova"]
    m = report.equal_numbers.matrix
    for i in range(3):
        for j in range(3):
            if i != j:
                assert m.battles[i][j] == 2
                assert m.score[i][j] + m.score[j][i] == pytest.approx(2)
    assert report.equal_points is not None
    assert report.budget == 4 * 20
    assert report.equal_points.counts == {"frazi": 4, "razik": 5, "starfury-nova": 4}
    assert report.forces.measured == (report.forces.exponent_se is not None)
    assert {s.unit for s in report.suggestions} == set(report.units)


def test_acta_fighters_have_no_points_so_equal_points_is_skipped() -> None:
    report = round_robin("acta", ["wasp", "zul"], count=1, battles=2, jobs=1, ai="random")
    assert report.equal_points is None
    assert report.budget is None
    assert any("no acta unit type here has points" in line for line in report.skipped)
    assert not report.forces.measured and report.forces.exponent == ASSUMED_EXPONENT
    assert sum(s.suggested for s in report.suggestions) / 2 == pytest.approx(100, abs=1)


def test_unknown_unit_is_refused_before_any_battle() -> None:
    with pytest.raises(UnknownName, match=r"known: .*wasp"):
        round_robin("acta", ["wasp", "nope"], battles=1)
