"""`dogfight bench --units` (issue 13): each ruleset's crowds of N units a side, the
ms a turn at each size and the exponent fitted to them. Structure only: speed is
measured by the benchmark, never asserted here."""

from __future__ import annotations

import itertools
import json
import math
import re

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.hooks import DuelBoard
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.sim.bench import bench_units, crowd_scenario, fitted_exponent

runner = CliRunner()
LABS = [r.name for r in all_rulesets() if r.lab() is not None]


def survivors(game: Game) -> dict[str, list[dict[str, object]]]:
    summary: dict[str, list[dict[str, object]]] = game.ruleset.summary(game.state)["survivors"]
    return summary


# ---- the fit --------------------------------------------------------------------------


def test_the_fitted_exponent_is_the_log_log_slope() -> None:
    assert fitted_exponent([(10, 3.0), (20, 12.0), (40, 48.0)]) == pytest.approx(2.0)
    assert fitted_exponent([(5, 7.0), (50, 70.0)]) == pytest.approx(1.0)
    # Least squares, not the end points (whose slope is 1): the middle points pull it.
    assert fitted_exponent([(1, 1.0), (2, 8.0), (4, 8.0), (8, 8.0)]) == pytest.approx(0.9)


def test_no_exponent_from_one_size() -> None:
    assert fitted_exponent([(10, 3.0)]) is None
    assert fitted_exponent([(10, 3.0), (10, 4.0), (20, 0.0)]) is None


# ---- the crowds -----------------------------------------------------------------------


def test_every_built_in_ruleset_builds_crowds() -> None:
    assert {"acta", "evo", "sfa"} <= set(LABS)


@pytest.mark.parametrize("ruleset", LABS)
@pytest.mark.parametrize("count", [1, 3, 7])
def test_a_crowd_sets_up_with_the_asked_number_a_side(ruleset: str, count: int) -> None:
    game = Game(crowd_scenario(ruleset, count), seed=1)
    assert len(game.sides()) == 2
    for units in survivors(game).values():
        assert len(units) == count


@pytest.mark.parametrize("ruleset", LABS)
def test_the_default_sizes_grow_and_the_largest_sets_up(ruleset: str) -> None:
    lab = find_ruleset(ruleset).lab()
    assert lab is not None
    sizes = lab.crowd_sizes()
    assert len(sizes) >= 3 and list(sizes) == sorted(set(sizes))
    game = Game(crowd_scenario(ruleset, sizes[-1]), seed=1)
    assert all(len(units) >= sizes[-1] for units in survivors(game).values())


def test_acta_crowds_are_seed_fighters_with_a_carrier_for_every_twenty() -> None:
    rules = find_ruleset("acta")
    game = Game(crowd_scenario("acta", 40), seed=1)
    for units in survivors(game).values():
        kinds = [rules.describe_unit(str(u["type"])) for u in units]
        fighters = [k for k in kinds if k["kind"] == "fighter"]
        assert len(fighters) == 40 and all(k["origin"] == "seed" for k in fighters)
        assert sum(1 for k in kinds if k["kind"] == "ship") == 2


def test_evo_crowds_are_flights_of_four() -> None:
    game = Game(crowd_scenario("evo", 5), seed=1)
    for flights in survivors(game).values():
        assert [f["models"] for f in flights] == [4] * 5


@pytest.mark.parametrize("ruleset", LABS)
def test_the_table_grows_to_keep_the_density(ruleset: str) -> None:
    def area(count: int) -> float:
        raw = crowd_scenario(ruleset, count).raw
        board = raw.get("table") or raw["map"]
        return float(board["width"]) * float(board["height"])

    lab = find_ruleset(ruleset).lab()
    assert lab is not None
    small, large = lab.crowd_sizes()[0], lab.crowd_sizes()[-1]
    # Rounded up to whole inches or hexes: the area per unit stays within a fifth.
    assert area(large) / large == pytest.approx(area(small) / small, rel=0.2)


def test_a_grown_board_keeps_the_front_lines_and_the_gap() -> None:
    board = DuelBoard(
        width=36, height=36, edge=11, low=2, high=34, gap=4, spacing=2, rank=3, margin=1,
        turn_limit=8,
    )  # fmt: skip
    assert board.grown(1) == board and board.grown(0.5) == board
    big = board.grown(2)
    assert (big.width, big.height) == (72, 72)
    # The front lines stay 14" apart about the middle.
    assert big.width - 2 * big.edge == board.width - 2 * board.edge
    assert big.high - big.low == 68 and big.spacing == board.gap
    # 40 units need two ranks of the full 4" gap, where the original squeezes 17 into
    # its first rank 2" apart.
    firsts = [a for d, a in big.slots(40) if d == 0]
    assert len(firsts) == 18
    assert min(b - a for a, b in itertools.pairwise(firsts)) == pytest.approx(4)


# ---- the benchmark --------------------------------------------------------------------


def test_bench_units_times_each_size_and_fits_them() -> None:
    result = bench_units(LABS[0], "random", [3, 1, 2], turns=1, seed=3)
    assert [r.units for r in result.rows] == [1, 2, 3]
    for row in result.rows:
        assert row.turns == 1 and row.actions > 0 and row.seconds > 0
        assert row.ms_per_turn == pytest.approx(row.seconds * 1000 / row.turns)
        assert row.peak_mb > 0
    assert result.exponent == pytest.approx(
        fitted_exponent([(r.units, r.ms_per_turn) for r in result.rows])
    )


def test_bench_units_reports_progress_turn_by_turn() -> None:
    seen: list[tuple[int, int, int]] = []
    bench_units(LABS[0], "random", [1, 2], turns=2, progress=lambda *a: seen.append(a))
    assert seen == [(1, 0, 2), (1, 1, 2), (1, 2, 2), (2, 0, 2), (2, 1, 2), (2, 2, 2)]


@pytest.mark.parametrize("ruleset", LABS)
def test_the_command_prints_each_size_and_the_exponent(ruleset: str) -> None:
    result = runner.invoke(
        app, ["bench", "--units", ruleset, "--sizes", "2,1", "--turns", "1", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{ruleset} crowds: players random v random, 1 turn a size")
    pattern = re.compile(r"^(\d+) a side: ([\d.]+) ms a turn \(1 turns, \d+ actions, [\d.]+ s\);")
    rows = [pattern.match(line) for line in lines[1:3]]
    assert all(rows), lines
    points = [(int(m[1]), float(m[2])) for m in rows if m]
    assert [units for units, _ in points] == [1, 2]
    fitted = re.fullmatch(r"Fitted exponent: (-?[\d.]+) \(.*\)", lines[3])
    assert fitted, lines[3]
    # The exponent printed is the fit of the figures printed (to their rounding).
    expected = fitted_exponent(points)
    assert expected is not None
    # Printed to 2 decimals below 100 ms, else whole: each figure is off by at most half
    # its last place, which moves the slope by at most the sum of the log errors.
    error = sum(math.log1p((0.005 if ms < 100 else 0.5) / max(ms, 0.006)) for _, ms in points)
    slack = 0.0051 + error / math.log(2)  # and the exponent is printed to 2 decimals
    assert float(fitted[1]) == pytest.approx(expected, abs=slack)


def test_the_command_prints_json() -> None:
    result = runner.invoke(
        app, ["bench", "--units", LABS[0], "--sizes", "1,2", "--turns", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == LABS[0] and data["players"] == "random" and data["turns"] == 1
    assert [r["units"] for r in data["rows"]] == [1, 2]
    assert data["exponent"] == pytest.approx(
        fitted_exponent([(r["units"], r["ms_per_turn"]) for r in data["rows"]])
    )


def test_heuristic_players_can_be_benched() -> None:
    result = bench_units(LABS[0], "heuristic", [1], turns=1)
    assert result.players == "heuristic" and result.exponent is None
    assert result.rows[0].actions > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--units", "nope"], "no ruleset 'nope'"),
        (["--units", "acta", "--sizes", "ten"], "--sizes takes whole numbers"),
        (["--units", "acta", "--sizes", "0,4"], "at least 1 unit a side"),
        (["--units", "acta", "--sizes", ","], "at least 1 unit a side"),
        (["--units", "acta", "--sizes", "5000"], "at most 1000 units a side"),
        (["--units", "acta", "--players", "wizard"], "wizard"),
        (["--units", "acta", "--turns", "0"], "--turns"),
        (["--units", "acta", "--battles", "3"], "use --turns, not --battles"),
        (["acta", "--units", "acta"], "drop the RULESET argument"),
        (["--sizes", "4,8"], "--sizes and --turns go with --units"),
        (["acta", "--turns", "2"], "--sizes and --turns go with --units"),
        (["acta", "--players", "random"], "--players goes with --scaling or --units"),
    ],
)
def test_bad_arguments_give_one_clear_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["bench", *args])
    assert result.exit_code != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_a_ruleset_without_a_lab_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = find_ruleset(LABS[0])
    monkeypatch.setattr(type(rules), "lab", lambda self: None)
    with pytest.raises(DogfightError, match="no lab set-up"):
        bench_units(rules.name, "random", [1], turns=1)
