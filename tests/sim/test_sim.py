"""Batch simulation: seeds, parallel runs, players' generators, statistics, bench."""

from __future__ import annotations

import copy
import itertools
import json
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import dogfight.sim.bench as bench_module
from dogfight.core import DataError, DogfightError, Game, Scenario, UnknownName, load_scenario
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import builtin_scenarios, scenario_from_raw
from dogfight.dice import derive_seed
from dogfight.sim import (
    BattleResult,
    BattleTask,
    SummaryBuilder,
    UnitStats,
    benchmark,
    parse_ai_args,
    play_battle,
    run_battle,
    run_tasks,
    side_names,
    simulate,
    summarize,
    wilson,
)
from dogfight.sim.bench import bench_kind, scaling
from dogfight.sim.runner import CHUNKS_PER_WORKER, chunk_size, chunks_of, in_order
from dogfight.sim.stats import counted_median

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
    assert {r.scenario for r in rows} == {s.name for s in builtin_scenarios("acta")}
    assert {"carrier-strike", "escort-mission", "furball"} <= {r.scenario for r in rows}
    for row in rows:
        assert row.players == "random"
        assert row.battles == 1
        assert row.actions > 0
        assert row.seconds > 0 and row.battles_per_s > 0 and row.actions_per_s > 0


# ---- the task runner ----------------------------------------------------------------


def test_run_tasks_yields_in_task_order_for_any_jobs(furball: Scenario) -> None:
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


# ---- swapping sides -----------------------------------------------------------------


def _edited(name: str, edit: Callable[[dict[str, Any]], None]) -> Scenario:
    raw = copy.deepcopy(load_scenario(name).raw)
    edit(raw)
    return scenario_from_raw(raw, f"test:{name}")


def _past_setup(game: Game) -> Game:
    """Take the first legal choice until the acta loadout step is over."""
    while game.state.phase == "setup":
        game.apply(game.legal_actions()[0])
    return game


def test_acta_swap_hands_over_the_initiative_bonus() -> None:
    def bonus(raw: dict[str, Any]) -> None:
        raw["sides"][0]["initiative"] = 6  # Empire always wins ACTA-INI-1 (d6+6 v d6)

    scenario = _edited("furball", bonus)
    swapped = find_ruleset("acta").swap_sides(scenario)
    assert [s["name"] for s in swapped.raw["sides"]] == ["Klingon", "Empire"]
    assert [s["initiative"] for s in swapped.raw["sides"]] == [6, 0]
    # The units stay with their force.
    assert swapped.raw["sides"][1]["units"] == scenario.raw["sides"][0]["units"]
    for seed in range(4):
        assert _past_setup(Game(scenario, seed=seed)).state.initiative == "Empire"
        assert _past_setup(Game(swapped, seed=seed)).state.initiative == "Klingon"


def test_evo_swap_hands_over_the_first_turn() -> None:
    def first(raw: dict[str, Any]) -> None:
        raw["first"] = "Earth Alliance"

    scenario = _edited("evo/skirmish", first)
    swapped = find_ruleset("evo").swap_sides(scenario)
    assert swapped.raw["first"] == "Narn Regime"
    assert Game(scenario, seed=1).current_player() == "Earth Alliance"
    assert Game(swapped, seed=1).current_player() == "Narn Regime"
    # Without `first` the roll-off decides: the side order (who rolls which die) flips.
    plain = load_scenario("evo/skirmish")
    flipped = find_ruleset("evo").swap_sides(plain)
    assert "first" not in flipped.raw
    assert Game(flipped, seed=1).sides() == tuple(reversed(Game(plain, seed=1).sides()))


def test_sfa_swap_hands_over_the_first_choice_and_ties() -> None:
    scenario = load_scenario("fighter-duel")
    swapped = find_ruleset("sfa").swap_sides(scenario)
    game, other = Game(scenario, seed=1), Game(swapped, seed=1)
    assert game.sides() == ("Rebels", "Aliens") and other.sides() == ("Aliens", "Rebels")
    # Side order breaks Speed ties (SFA-SEQ-3) and sets who chooses first.
    assert game.current_player() == "Rebels"
    assert other.current_player() == "Aliens"


def test_swap_sides_leaves_bad_scenarios_to_setup() -> None:
    ruleset = find_ruleset("acta")
    lone = _edited("furball", lambda raw: raw["sides"].pop())
    assert ruleset.swap_sides(lone) == lone
    with pytest.raises(DataError, match="exactly two sides"):
        Game(ruleset.swap_sides(lone))


def test_swapped_run_counts_wins_for_the_force(furball: Scenario) -> None:
    results = simulate(furball, 6, seed=4, jobs=1, players=RANDOM, swap=True)
    assert [r.swapped for r in results] == [False, True] * 3
    ruleset = find_ruleset("acta")
    for result in results:
        scenario = ruleset.swap_sides(furball) if result.swapped else furball
        game = play_battle(scenario, result.seed, RANDOM)
        outcome = game.outcome()
        assert outcome is not None
        assert result.winner == outcome.winner  # a side name, whatever its place
        # Keys follow the scenario's own side order even when swapped.
        assert list(result.survivors) == ["Empire", "Klingon"]
        assert list(result.damage_taken) == ["Empire", "Klingon"]
    unswapped = simulate(furball, 6, seed=4, jobs=1, players=RANDOM)
    assert [r for r in results if not r.swapped] == [r for r in unswapped if r.game % 2 == 0]
    assert summarize(results, ["Empire", "Klingon"]).swapped == 3


# ---- streaming ----------------------------------------------------------------------


class _Done:
    """A finished future for the ordering test."""

    def __init__(self, value: list[BattleResult]) -> None:
        self.value = value

    def result(self) -> list[BattleResult]:
        return self.value


def test_in_order_bounds_chunks_in_flight_and_yields_in_order() -> None:
    tasks = [
        BattleTask(key="k", index=i, scenario=load_scenario("furball"), seed=i) for i in range(50)
    ]
    pulled: list[int] = []

    def chunk_source() -> Iterator[list[BattleTask]]:
        for chunk in chunks_of(tasks, 5):
            pulled.append(chunk[0].index)
            yield chunk

    outstanding: set[_Done] = set()
    most = 0

    def submit(chunk: list[BattleTask]) -> _Done:
        nonlocal most
        future = _Done([_result(t.index, None, 1) for t in chunk])
        outstanding.add(future)
        most = max(most, len(outstanding))
        return future

    def wait_first(pending: set[Any]) -> tuple[set[Any], set[Any]]:
        # Finish the NEWEST chunk first: the worst case for the reorder buffer.
        newest = max(pending, key=lambda f: f.value[0].game)
        outstanding.discard(newest)
        return {newest}, pending - {newest}

    seen = []
    stream = in_order(chunk_source(), submit, wait_first, 3, None, 50)
    first = next(stream)
    # Nothing is read ahead beyond the window of 3 chunks.
    assert len(pulled) <= 3
    seen.append(first)
    seen.extend(stream)
    assert [t.index for t, _ in seen] == list(range(50))
    assert all(t.index == r.game for t, r in seen)
    assert most <= 3


@pytest.mark.parametrize("jobs", [1, 2])
def test_run_tasks_reads_tasks_lazily(furball: Scenario, jobs: int) -> None:
    pulled = 0

    def endless() -> Iterator[BattleTask]:
        nonlocal pulled
        for i in itertools.count():
            pulled += 1
            yield BattleTask(key="f", index=i, scenario=furball, seed=i, players=RANDOM)

    stream = run_tasks(endless(), jobs=jobs, total=1000)
    task, result = next(stream)
    assert (task.index, result.game) == (0, 0)
    # One task at a time in-process; else at most the window of chunks.
    limit = 1 if jobs == 1 else jobs * CHUNKS_PER_WORKER * chunk_size(1000, jobs)
    assert pulled <= limit
    del stream


def test_run_tasks_progress_counts_battles(furball: Scenario) -> None:
    calls: list[tuple[int, int]] = []
    tasks = [
        BattleTask(key="f", index=i, scenario=furball, seed=i, players=RANDOM) for i in range(7)
    ]
    list(run_tasks(tasks, jobs=2, progress=lambda d, t: calls.append((d, t))))
    assert calls[-1] == (7, 7)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


# ---- the summary accumulator --------------------------------------------------------


def test_counted_median_equals_the_median() -> None:
    rng = random.Random(3)
    for size in range(1, 40):
        values = [rng.randint(1, 9) for _ in range(size)]
        assert counted_median(Counter(values)) == statistics.median(values)
    assert counted_median({}) == 0.0


def _full(game: int, winner: str | None, swapped: bool = False) -> BattleResult:
    return BattleResult(
        game=game,
        seed=game,
        winner=winner,
        turns=game + 1,
        reason="test",
        actions=10,
        events=20,
        survivors={"A": 2, "B": 1},
        swapped=swapped,
        damage_dealt={"A": 3.0, "B": 1.0},
        damage_taken={"A": 1.0, "B": 3.0},
        units=[
            UnitStats(side="A", type="wasp", fielded=2, lost=0, kills=1, damage_taken=1.0),
            UnitStats(side="B", type="zul", fielded=4, lost=1, kills=0, damage_taken=3.0),
        ],
    )


def test_summary_builder_totals_and_rates() -> None:
    builder = SummaryBuilder(["A", "B"])
    for i, winner in enumerate(["A", "A", None, "B"]):
        builder.add(_full(i, winner, swapped=i % 2 == 1))
    summary = builder.summary()
    assert summary.battles == 4 and summary.swapped == 2
    a, b = summary.sides
    assert (a.wins.count, b.wins.count, summary.draws.count) == (2, 1, 1)
    assert (a.mean_survivors, a.mean_damage_dealt, a.mean_damage_taken) == (2.0, 3.0, 1.0)
    assert (b.mean_survivors, b.mean_damage_dealt, b.mean_damage_taken) == (1.0, 1.0, 3.0)
    assert (summary.mean_turns, summary.median_turns) == (2.5, 2.5)
    wasp, zul = summary.units
    assert (wasp.side, wasp.type, wasp.fielded, wasp.lost, wasp.kills) == ("A", "wasp", 8, 0, 4)
    assert (wasp.loss_rate, wasp.kills_per_unit) == (0.0, 0.5)
    assert (zul.fielded, zul.lost, zul.loss_rate, zul.damage_taken) == (16, 4, 0.25, 12.0)
    assert summarize([_full(i, "A") for i in range(3)], ["A", "B"]).units[0].kills == 3


def test_bench_scaling_runs_both_and_compares_results(furball: Scenario) -> None:
    # Only the bookkeeping is checked: speed is never asserted in tests.
    result = scaling(furball, battles=6, seed=2, jobs=(1, 2), kind="random")
    assert [r.jobs for r in result.runs] == [1, 2]
    assert result.same_results
    assert result.players == "random" and result.battles == 6
    assert all(r.seconds > 0 and r.cpu_seconds >= 0 for r in result.runs)
    assert result.speedup == pytest.approx(result.runs[0].seconds / result.runs[1].seconds)


def test_bench_scaling_cli() -> None:
    from typer.testing import CliRunner

    from dogfight.cli.main import app

    runner = CliRunner()
    args = ["bench", "--scaling", "furball", "--battles", "4", "--players", "random"]
    done = runner.invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["same_results"] is True and [r["jobs"] for r in data["runs"]] == [1, 2]
    wrong = runner.invoke(app, ["bench", "acta", "--players", "random"])
    assert wrong.exit_code == 1 and "--players goes with --scaling" in wrong.stderr
    bad = runner.invoke(app, [*args[:6], "genius"])
    assert bad.exit_code == 1 and "no player kind 'genius'" in bad.stderr
