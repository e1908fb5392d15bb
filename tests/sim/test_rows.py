"""Rows files: one row per battle to Parquet, CSV or JSON lines, read back as written."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core import DogfightError, Scenario, load_scenario
from dogfight.sim import BattleResult, simulate
from dogfight.sim.rows import RowWriter, columns, flat_row, read_rows, side_columns

RANDOM = {"Earth Alliance": "random", "Narn Regime": "random"}
AI = ["--ai", "Earth Alliance=random", "--ai", "Narn Regime=random"]
SIDES = ["Earth Alliance", "Narn Regime"]

runner = CliRunner()


@pytest.fixture(scope="module")
def skirmish() -> Scenario:
    return load_scenario("evo/skirmish")


@pytest.fixture(scope="module")
def results(skirmish: Scenario) -> list[BattleResult]:
    return simulate(skirmish, 7, seed=3, jobs=1, players=RANDOM, swap=True)


def _write(path: Path, results: list[BattleResult], group: int = 3) -> None:
    with RowWriter(path, SIDES, group=group) as writer:
        for result in results:
            writer.write(result)


def test_side_columns_are_plain_names() -> None:
    assert side_columns(SIDES) == {"Earth Alliance": "Earth_Alliance", "Narn Regime": "Narn_Regime"}
    assert side_columns(["A-B", "A B"]) == {"A-B": "side1", "A B": "side2"}
    assert side_columns(["Empire", "empire"]) == {"Empire": "side1", "empire": "side2"}
    assert columns(["Empire", "Klingon"])[8:11] == [
        "survivors_Empire",
        "damage_dealt_Empire",
        "damage_taken_Empire",
    ]


def test_parquet_rows_read_back_with_pyarrow(tmp_path: Path, results: list[BattleResult]) -> None:
    path = tmp_path / "runs.parquet"
    _write(path, results, group=3)
    assert pq.ParquetFile(str(path)).num_row_groups == 3  # 7 rows in groups of 3
    rows = read_rows(path)
    assert rows == [flat_row(r, SIDES) for r in results]
    for row, result in zip(rows, results, strict=True):
        assert row["game"] == result.game and row["seed"] == result.seed
        assert row["winner"] == result.winner and row["swapped"] == result.swapped
        assert row["survivors_Narn_Regime"] == result.survivors["Narn Regime"]
        assert row["damage_dealt_Earth_Alliance"] == result.damage_dealt["Earth Alliance"]
        assert row["units"] == msgspec.to_builtins(result.units)
    assert list(pq.read_schema(str(path)).names) == columns(SIDES)
    assert not list(tmp_path.glob(".*.tmp"))


def _query(sql: str) -> list[Any]:
    relation = duckdb.sql(sql)
    assert relation is not None
    return list(relation.fetchall())


def test_parquet_rows_query_in_duckdb(tmp_path: Path, results: list[BattleResult]) -> None:
    path = tmp_path / "runs.parquet"
    _write(path, results)
    wins = _query(f"select winner, count(*) from '{path}' where winner is not null group by winner")
    expected: dict[str, int] = {}
    for r in results:
        if r.winner is not None:
            expected[r.winner] = expected.get(r.winner, 0) + 1
    assert dict(wins) == expected
    turns = _query(f"select game, turns, swapped from '{path}' order by game")
    assert turns == [(r.game, r.turns, r.swapped) for r in results]
    kills = _query(
        f"select u.side, u.type, sum(u.kills), sum(u.lost), sum(u.fielded) "
        f"from (select unnest(units) as u from '{path}') group by all order by all"
    )
    totals: dict[tuple[str, str], list[int]] = {}
    for r in results:
        for u in r.units:
            row = totals.setdefault((u.side, u.type), [0, 0, 0])
            row[0] += u.kills
            row[1] += u.lost
            row[2] += u.fielded
    assert [(s, t, int(k), int(lost), int(f)) for s, t, k, lost, f in kills] == [
        (s, t, *v) for (s, t), v in sorted(totals.items())
    ]


def test_csv_rows_are_the_same_rows_flattened(tmp_path: Path, results: list[BattleResult]) -> None:
    path = tmp_path / "runs.csv"
    _write(path, results)
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == columns(SIDES)
    for row, result in zip(rows, results, strict=True):
        flat = flat_row(result, SIDES)
        assert int(row["game"]) == flat["game"] and int(row["turns"]) == flat["turns"]
        assert row["winner"] == (flat["winner"] or "")
        assert float(row["damage_taken_Narn_Regime"]) == flat["damage_taken_Narn_Regime"]
        assert json.loads(row["units"]) == flat["units"]


def test_jsonl_rows_decode_to_the_results(tmp_path: Path, results: list[BattleResult]) -> None:
    path = tmp_path / "runs.jsonl"
    _write(path, results)
    lines = path.read_text().splitlines()
    assert [msgspec.json.decode(line, type=BattleResult) for line in lines] == results


def test_a_failed_run_leaves_no_file(tmp_path: Path, results: list[BattleResult]) -> None:
    path = tmp_path / "runs.parquet"
    path.write_text("old")
    with pytest.raises(RuntimeError), RowWriter(path, SIDES) as writer:
        writer.write(results[0])
        raise RuntimeError("interrupted")
    assert path.read_text() == "old"  # the old file is untouched, no temporary left
    assert [p.name for p in tmp_path.iterdir()] == ["runs.parquet"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("runs.txt", "must end in .parquet, .csv, .jsonl"),
        ("runs", "must end in"),
        ("missing/runs.parquet", "no such folder"),
    ],
)
def test_bad_out_paths(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(DogfightError, match=message):
        RowWriter(tmp_path / name, SIDES)


# ---- the command line -------------------------------------------------------------------


def _ok(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return str(result.stdout)


def _fails(*args: str | Path) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_cli_writes_parquet_and_csv(tmp_path: Path, results: list[BattleResult]) -> None:
    parquet, table = tmp_path / "runs.parquet", tmp_path / "runs.csv"
    base = ("simulate", "evo/skirmish", "-n", "7", "--seed", "3", "--jobs", "1", *AI)
    out = _ok(*base, "--swap-sides", "--out", parquet, "--out", table)
    assert f"Wrote 7 rows to {parquet}" in out and f"Wrote 7 rows to {table}" in out
    assert read_rows(parquet) == [flat_row(r, SIDES) for r in results]
    with table.open(newline="") as handle:
        assert [int(r["game"]) for r in csv.DictReader(handle)] == list(range(7))


def test_cli_summary_shows_units_and_damage() -> None:
    base = ("simulate", "evo/skirmish", "-n", "6", "--seed", "3", "--jobs", "1", *AI)
    out = _ok(*base, "--swap-sides")
    assert "6 battles, 3 with sides swapped" in out
    assert "damage dealt" in out and "kills per unit" in out and "frazi" in out
    data: dict[str, Any] = json.loads(_ok(*base, "--swap-sides", "--json"))
    assert data["swap_sides"] is True and data["swapped"] == 3
    narn = data["sides"]["Narn Regime"]
    assert {"mean_survivors", "mean_damage_dealt", "mean_damage_taken"} <= set(narn)
    units = {(u["side"], u["type"]): u for u in data["units"]}
    assert units["Narn Regime", "frazi"]["fielded"] == 6 * 3  # three flights a battle
    lost = sum(u["lost"] for u in data["units"] if u["side"] == "Narn Regime")
    kills = sum(u["kills"] for u in data["units"] if u["side"] == "Earth Alliance")
    assert kills <= lost


def test_cli_plot_draws_the_turns_of_the_run(tmp_path: Path) -> None:
    plot = tmp_path / "turns.svg"
    base = ("simulate", "evo/skirmish", "-n", "7", "--seed", "3", "--jobs", "1", *AI)
    data: dict[str, Any] = json.loads(_ok(*base, "--swap-sides", "--plot", plot, "--json"))
    assert data["plot"] == str(plot)
    svg = plot.read_text()
    assert "7 battles, run seed 3" in svg
    assert "who wins" in svg and "turn each battle ended" in svg
    # Each side's rate with its 95% interval is written beside its bar.
    for wins in data["sides"].values():
        text = f"{100 * wins['rate']:.1f}% ({100 * wins['low']:.1f}-{100 * wins['high']:.1f})"
        assert text in svg


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--out", "runs.xlsx"], "must end in .parquet, .csv, .jsonl"),
        (["--out", "no/such/dir/runs.parquet"], "no such folder"),
        (["--jobs", "2", "--cluster", "tcp://127.0.0.1:9"], "--jobs and --cluster together"),
        (["--plot", "turns.gif"], ".png or .svg"),
    ],
)
def test_cli_bad_out_and_options(extra: list[str], message: str) -> None:
    line = _fails("simulate", "evo/skirmish", "-n", "2", *AI, *extra)
    assert message in line
