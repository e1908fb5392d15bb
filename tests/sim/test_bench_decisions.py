"""`dogfight bench --decisions` (issue 14 item 2: the search's default budget decides in
about half a second): which decisions it times, in which battles, and what it prints.
Structure only: how long a decision takes is measured by the benchmark, never asserted."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.game import Game
from dogfight.core.play import play
from dogfight.core.scenario import load_scenario
from dogfight.core.seat import Seat
from dogfight.dice import derive_seed
from dogfight.sim.bench import _quantiles, bench_decisions
from dogfight.sim.players import new_player, player_rng, side_names
from dogfight.sim.runner import play_battle
from dogfight.sim.stats import nearest_rank

runner = CliRunner()


class Counting:
    """The random player, counting the decisions that had a choice to make."""

    def __init__(self, ruleset: Any) -> None:
        self.inner = new_player("random", ruleset)
        self.choices = 0

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        self.choices += len(legal) > 1
        return self.inner.decide(seat, legal, rng)


def test_it_times_the_first_sides_decisions_that_have_a_choice_in_the_labs_battles() -> None:
    scenario = load_scenario("street-brawl")
    found = bench_decisions(scenario, "random", battles=2, seed=3)
    assert found.kind == "random" and found.opponent == "heuristic"
    assert [r.seed for r in found.rows] == [derive_seed(3, 0), derive_seed(3, 1)]
    for row in found.rows:
        game = Game(scenario, seed=row.seed)
        first, second = side_names(game)
        assert found.side == first
        counting = Counting(game.ruleset)
        play(
            game,
            {first: counting, second: new_player("heuristic", game.ruleset)},
            player_rng(row.seed),
        )
        assert row.decisions == counting.choices > 0
        # the same battle `simulate` plays with that seed and those kinds
        lab = play_battle(scenario, row.seed, {first: "random", second: "heuristic"})
        outcome = lab.outcome()
        assert row.winner == (outcome.winner if outcome else None)
        assert 0 < row.median_s <= row.p90_s
    assert found.decisions == sum(r.decisions for r in found.rows)


def test_the_median_and_the_90th_percentile_by_nearest_rank() -> None:
    assert _quantiles([float(n) for n in range(10, 0, -1)]) == (5.5, 9.0)
    assert _quantiles([2.0]) == (2.0, 2.0)
    assert _quantiles([]) == (0.0, 0.0)


def test_every_bench_percentile_is_by_nearest_rank() -> None:
    """sim/stats.py `nearest_rank`, which bench --decisions and bench --web both use:
    the smallest value with at least that share of the values at or below it."""
    hundred = [float(n) for n in range(100, 0, -1)]
    assert nearest_rank(hundred, 0.99) == 99.0
    assert nearest_rank(hundred, 0.5) == 50.0
    assert nearest_rank(hundred, 1.0) == 100.0
    assert nearest_rank([3.0, 1.0, 2.0], 0.5) == 2.0
    assert nearest_rank([7.0], 0.01) == 7.0
    assert nearest_rank([], 0.9) == 0.0


def test_the_cli_prints_each_battle_and_all_decisions() -> None:
    done = runner.invoke(
        app, ["bench", "--decisions", "street-brawl", "--players", "random", "--battles", "1"]
    )
    assert done.exit_code == 0, done.output
    assert "random on " in done.output and "against heuristic, 1 battle(s)" in done.output
    assert "median s" in done.output and "p90 s" in done.output
    assert "All " in done.output and "decisions with a choice: median " in done.output
    done = runner.invoke(
        app,
        [
            "bench",
            "--decisions",
            "street-brawl",
            "--players",
            "search:4",
            "--battles",
            "1",
            "--json",
        ],
    )
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["kind"] == "search:4" and len(data["rows"]) == 1
    assert data["decisions"] == data["rows"][0]["decisions"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench", "--decisions", "furball", "--steps"], "--decisions takes its own SCENARIO"),
        (["bench", "acta", "--decisions", "furball"], "drop the RULESET argument"),
        (["bench", "--decisions", "furball", "--web"], "--decisions takes its own SCENARIO"),
        (["bench", "--decisions", "no-such-battle"], "no-such-battle"),
        (["bench", "--decisions", "furball", "--players", "clever"], "clever"),
    ],
)
def test_bench_decisions_refuses_bad_arguments(args: list[str], message: str) -> None:
    done = runner.invoke(app, args)
    assert done.exit_code != 0 and message in done.output
    assert "Traceback" not in done.output
