"""`dogfight bench --steps` and `--memory` (issue 13 items 4 and 5): what they count and
report. Structure only: speed and sizes are measured by the benchmark, never asserted."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.game import Game
from dogfight.core.scenario import builtin_scenarios
from dogfight.dice import derive_seed
from dogfight.sim.bench import (
    StepsRow,
    battles_memory,
    bench_memory,
    bench_steps,
    held_memory,
    random_steps,
    steps_per_ruleset,
)
from dogfight.sim.players import player_rng
from dogfight.sim.runner import play_battle

runner = CliRunner()


def test_random_steps_plays_the_game_to_its_end_as_the_random_player_would() -> None:
    scenario = builtin_scenarios("evo")[0]
    game = Game(scenario, seed=5)
    steps, seconds = random_steps(game, player_rng(5))
    assert game.is_over() and steps == len(game.actions) and seconds >= 0
    # The same game as the lab's random battle of that seed.
    assert play_battle(scenario, 5, default="random").actions == game.actions


def test_bench_steps_has_a_row_for_each_built_in_scenario_of_the_ruleset() -> None:
    rows = bench_steps("sfa", games=1, seed=2)
    assert [r.scenario for r in rows] == [s.name for s in builtin_scenarios("sfa")]
    for row, scenario in zip(rows, builtin_scenarios("sfa"), strict=True):
        game = Game(scenario, seed=derive_seed(2, 0))
        steps, _ = random_steps(game, player_rng(derive_seed(2, 0)))
        assert row.steps == steps and row.games == 1


def test_the_ruleset_figure_is_total_steps_over_total_seconds() -> None:
    rows = [
        StepsRow(ruleset="x", scenario="a", games=1, steps=100, seconds=1.0, steps_per_s=100),
        StepsRow(ruleset="x", scenario="b", games=1, steps=900, seconds=1.0, steps_per_s=900),
        StepsRow(ruleset="y", scenario="c", games=1, steps=10, seconds=2.0, steps_per_s=5),
    ]
    assert steps_per_ruleset(rows) == {"x": pytest.approx(500.0), "y": pytest.approx(5.0)}


def test_held_memory_grows_with_the_units_on_the_table() -> None:
    from dogfight.sim.bench import crowd_scenario

    small = held_memory(crowd_scenario("evo", 2), "random", 1)
    large = held_memory(crowd_scenario("evo", 12), "random", 1)
    assert 0 < small[0] < large[0]
    for setup, held, peak in (small, large):
        assert setup <= held <= peak


def test_battles_memory_reports_after_each_tenth() -> None:
    rows = battles_memory("acta", "random", 20, seed=3)
    assert [r.battles for r in rows] == list(range(2, 21, 2))
    assert all(r.peak_rss_mb > 0 for r in rows)


def test_bench_memory_cli_prints_the_held_size_and_the_battles() -> None:
    done = runner.invoke(app, ["bench", "--memory", "evo", "--sizes", "2", "--battles", "3"])
    assert done.exit_code == 0, done.output
    assert "evo crowd of 2 a side" in done.output and "MB held once set up" in done.output
    done = runner.invoke(
        app, ["bench", "--memory", "evo", "--sizes", "2", "--battles", "2", "--json"]
    )
    data = json.loads(done.output)
    assert data["units"] == 2 and [r["battles"] for r in data["rows"]] == [1, 2]
    assert bench_memory("evo", "random", 2, 1, 1).rows[0].battles == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench", "--memory", "evo", "--sizes", "2,4"], "one size"),
        (["bench", "acta", "--memory", "evo"], "--memory takes its own RULESET"),
        (["bench", "--steps", "--players", "random"], "drop --scaling and --players"),
    ],
)
def test_bench_refuses_mixed_up_options(args: list[str], message: str) -> None:
    done = runner.invoke(app, args)
    assert done.exit_code != 0 and message in done.output


def test_bench_steps_cli_prints_a_figure_for_the_ruleset() -> None:
    done = runner.invoke(app, ["bench", "evo", "--steps", "--battles", "1"])
    assert done.exit_code == 0, done.output
    assert "evo: " in done.output and "steps a second over its built-in scenarios" in done.output
