"""Batch simulation: seeds, parallel runs, players' generators, statistics, bench."""

from __future__ import annotations

import random

import pytest

import dogfight.sim.bench as bench_module
from dogfight.core import DogfightError, Game, Scenario, UnknownName, load_scenario
from dogfight.dice import derive_seed
from dogfight.sim import (
    BattleResult,
    benchmark,
    parse_ai_args,
    play_battle,
    run_battle,
    side_names,
    simulate,
    summarize,
    wilson,
)
from dogfight.sim.bench import bench_kind

RANDOM = {"Empire": "random", "Klingon": "random"}


@pytest.fixture(scope="module")
def furball() -> Scenario:
    return load_scenario("furball")


# ---- Wilson interval ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    got_low, got_high = wilson(k, n)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_is_symmetric_and_bounded() -> None:
    for n in (1, 7, 50):
        for k in range(n + 1):
            low, high = wilson(k, n)
            mirror_low, mirror_high = wilson(n - k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0
            assert low == pytest.approx(1 - mirror_high)
            assert high == pytest.approx(1 - mirror_low)
    assert wilson(5, 5)[1] == 1.0


def test_wilson_edge_cases() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)


def _result(game: int, winner: str | None, turns: int) -> BattleResult:
    return BattleResult(
        game=game,
        seed=game,
        winner=winner,
        turns=turns,
        reason="test",
        actions=10,
        events=20,
        survivors={"A": 1, "B": 0},
    )


def test_summarize_counts_rates_and_turns() -> None:
    results = [
        _result(0, "A", 3),
        _result(1, "A", 5),
        _result(2, "B", 8),
        _result(3, None, 8),
    ]
    summary = summarize(results, ["A", "B"])
    assert summary.battles == 4
    by_side = {s.side: s.wins for s in summary.sides}
    assert (by_side["A"].count, by_side["A"].rate) == (2, 0.5)
    assert (by_side["B"].count, by_side["B"].rate) == (1, 0.25)
    assert (by_side["A"].low, by_side["A"].high) == wilson(2, 4)
    assert (summary.draws.count, summary.draws.rate) == (1, 0.25)
    assert summary.mean_turns == 6.0
    assert summary.median_turns == 6.5
    assert summary.mean_actions == 10.0


def test_summarize_side_without_wins_and_empty_batch() -> None:
    summary = summarize([_result(0, "A", 2)], ["A", "B"])
    assert [s.side for s in summary.sides] == ["A", "B"]
    assert summary.sides[1].wins.count == 0
    empty = summarize([], ["A", "B"])
    assert empty.battles == 0
    assert empty.mean_turns == 0.0
    assert empty.draws.low == 0.0 and empty.draws.high == 1.0


# ---- battles and batches ------------------------------------------------------------


def test_run_battle_is_reproducible(furball: Scenario) -> None:
    first = run_battle(furball, 7, RANDOM)
    again = run_battle(furball, 7, RANDOM)
    assert first == again
    assert first.seed == 7
    assert first.winner in (None, "Empire", "Klingon")
    assert first.turns >= 1
    assert first.actions > 0 and first.events > first.actions
    assert set(first.survivors) == {"Empire", "Klingon"}


def test_players_never_touch_the_global_random(furball: Scenario) -> None:
    random.seed(12345)
    state = random.getstate()
    game = play_battle(furball, 3, RANDOM)
    assert game.is_over()
    assert random.getstate() == state


def test_simulate_same_results_for_any_jobs(furball: Scenario) -> None:
    serial = simulate(furball, 6, seed=11, jobs=1, players=RANDOM)
    parallel = simulate(furball, 6, seed=11, jobs=2, players=RANDOM)
    assert serial == parallel
    assert [r.game for r in serial] == list(range(6))
    assert [r.seed for r in serial] == [derive_seed(11, i) for i in range(6)]


def test_simulate_game_i_is_run_battle_with_derived_seed(furball: Scenario) -> None:
    results = simulate(furball, 3, seed=5, jobs=1, players=RANDOM)
    assert results[2] == run_battle(furball, derive_seed(5, 2), RANDOM, index=2)


def test_simulate_reports_progress(furball: Scenario) -> None:
    calls: list[tuple[int, int]] = []
    simulate(furball, 3, seed=1, jobs=1, players=RANDOM, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    calls.clear()
    simulate(furball, 4, seed=1, jobs=2, players=RANDOM, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (4, 4)


def test_simulate_passes_rule_options(furball: Scenario) -> None:
    default = simulate(furball, 12, seed=2, jobs=1, players=RANDOM)
    changed = simulate(
        furball, 12, seed=2, jobs=1, players=RANDOM, rules={"turn_limit_result": "draw"}
    )
    # Random players rarely finish a furball: at the turn limit the option makes a draw.
    at_limit = [i for i, r in enumerate(changed) if "turn limit" in r.reason]
    assert at_limit
    assert all(changed[i].winner is None for i in at_limit)
    assert any(default[i].winner is not None for i in at_limit)


def test_simulate_zero_battles(furball: Scenario) -> None:
    assert simulate(furball, 0, seed=1, jobs=4, players=RANDOM) == []


# ---- players ------------------------------------------------------------------------


def test_parse_ai_args(furball: Scenario) -> None:
    sides = side_names(Game(furball, seed=0))
    assert sides == ["Empire", "Klingon"]
    assert parse_ai_args([], sides) == {"Empire": "heuristic", "Klingon": "heuristic"}
    assert parse_ai_args(["klingon=RANDOM"], sides) == {
        "Empire": "heuristic",
        "Klingon": "random",
    }


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("Romulan=random", "no side 'Romulan'"),
        ("Empire=genius", "no player kind 'genius'"),
        ("Empire", "SIDE=KIND"),
        ("=random", "SIDE=KIND"),
    ],
)
def test_parse_ai_args_errors(arg: str, message: str) -> None:
    with pytest.raises(DogfightError, match=message):
        parse_ai_args([arg], ["Empire", "Klingon"])


# ---- bench --------------------------------------------------------------------------


def test_bench_kind_falls_back_to_random_only_for_unknown_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_heuristic(kind: str, ruleset: str) -> object:
        raise UnknownName(f"no heuristic player for ruleset '{ruleset}' yet")

    monkeypatch.setattr(bench_module, "new_player", no_heuristic)
    assert bench_kind("acta") == "random"

    def broken(kind: str, ruleset: str) -> object:
        raise DogfightError("something else")

    monkeypatch.setattr(bench_module, "new_player", broken)
    with pytest.raises(DogfightError):
        bench_kind("acta")


def test_bench_covers_every_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    # Random players keep this fast; speed itself is never asserted.
    monkeypatch.setattr(bench_module, "bench_kind", lambda ruleset: "random")
    rows = benchmark("acta", battles=1, seed=3)
    assert {r.scenario for r in rows} == {"carrier-strike", "escort-mission", "furball"}
    for row in rows:
        assert row.players == "random"
        assert row.battles == 1
        assert row.actions > 0
        assert row.seconds > 0 and row.battles_per_s > 0 and row.actions_per_s > 0


# ---- the task runner ----------------------------------------------------------------


def test_run_tasks_yields_in_task_order_for_any_jobs(furball: Scenario) -> None:
    from dogfight.sim import BattleTask, run_tasks

    evo = load_scenario("evo/skirmish")
    # Two groups interleaved, as a round robin would send them.
    tasks = [
        BattleTask(
            key=name,
            index=i,
            scenario=scenario,
            seed=derive_seed(9, i),
            players=None if name == "evo" else RANDOM,
        )
        for i in range(5)
        for name, scenario in (("acta", furball), ("evo", evo))
    ]
    serial = list(run_tasks(tasks, jobs=1))
    parallel = list(run_tasks(iter(tasks), jobs=2, total=len(tasks)))
    assert [t for t, _ in serial] == tasks
    assert serial == parallel
    for task, result in serial:
        assert result == run_battle(
            task.scenario, task.seed, task.players, task.rules, index=task.index
        )
