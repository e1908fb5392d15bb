"""Battles on a Dask cluster give the same results as on this machine.

A local Dask cluster (two worker processes) is started for the module. Its workers
import `dogfight` as this process does (installed editable, or on PYTHONPATH).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core import DogfightError, load_scenario
from dogfight.sim import simulate
from dogfight.sim.cluster import connect

distributed = pytest.importorskip("distributed")

RANDOM = {"Earth Alliance": "random", "Narn Regime": "random"}
SRC = str(Path(__file__).resolve().parents[2] / "src")

runner = CliRunner()


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    # Workers are new processes: make sure they import this tree's `dogfight`.
    path = os.environ.get("PYTHONPATH", "")
    if SRC not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, path) if p)
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=40,
    ) as local:
        yield str(local.scheduler_address)
    if path:
        os.environ["PYTHONPATH"] = path
    else:
        os.environ.pop("PYTHONPATH", None)


def test_cluster_results_equal_the_local_run(cluster: str) -> None:
    scenario = load_scenario("evo/skirmish")
    progress: list[tuple[int, int]] = []
    remote = simulate(
        scenario,
        40,
        seed=21,
        players=RANDOM,
        cluster=cluster,
        swap=True,
        progress=lambda d, t: progress.append((d, t)),
    )
    local = simulate(scenario, 40, seed=21, jobs=1, players=RANDOM, swap=True)
    assert remote == local
    assert [r.game for r in remote] == list(range(40))
    assert progress[-1] == (40, 40)


def test_cli_on_the_cluster(cluster: str) -> None:
    ai = ["--ai", "Earth Alliance=random", "--ai", "Narn Regime=random"]
    base = ["simulate", "evo/skirmish", "-n", "12", "--seed", "5", *ai, "--json"]
    remote = runner.invoke(app, [*base, "--cluster", cluster])
    local = runner.invoke(app, [*base, "--jobs", "1"])
    assert remote.exit_code == 0, remote.output
    assert local.exit_code == 0, local.output
    remote_report, local_report = json.loads(remote.stdout), json.loads(local.stdout)
    assert remote_report.pop("cluster") == cluster
    assert local_report.pop("cluster") is None
    assert remote_report == local_report


def test_the_search_player_and_its_budget_travel_to_the_cluster(cluster: str) -> None:
    """Every kind, `search:N` included, plays on the cluster as it does here."""
    players = {"Earth Alliance": "search:8", "Narn Regime": "random"}
    scenario = load_scenario("evo/skirmish")
    remote = simulate(scenario, 2, seed=3, players=players, cluster=cluster)
    assert remote == simulate(scenario, 2, seed=3, jobs=1, players=players)


def test_unreachable_scheduler_is_one_line() -> None:
    # Port 9 (discard) on this machine: nothing listens there.
    result = runner.invoke(
        app,
        [
            "simulate",
            "evo/skirmish",
            "-n",
            "2",
            "--ai",
            "Earth Alliance=random",
            "--cluster",
            "tcp://127.0.0.1:9",
        ],
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "--cluster tcp://127.0.0.1:9: cannot reach a Dask scheduler" in lines[0]


def test_address_without_a_scheme() -> None:
    with pytest.raises(DogfightError, match="tcp://HOST:8786"):
        connect("localhost")


def test_missing_distributed_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    with pytest.raises(DogfightError, match=r"pip install 'dogfight\[cluster\]'"):
        connect("tcp://127.0.0.1:9")


def test_a_report_on_the_cluster_equals_the_local_one(cluster: str) -> None:
    """Issue 19 item 3: the report's sweep runs on the cluster like simulate."""
    import msgspec

    from dogfight.sim.report import make_plan, run_report

    plan = make_plan(
        "sfa",
        players="random",
        battles=2,
        scenarios=["fighter-duel"],
        sections=["scenarios", "rules"],
    )
    plan = msgspec.structs.replace(plan, arms=plan.arms[:2])
    remote = run_report(plan, cluster=cluster)
    local = run_report(plan, jobs=1)
    assert remote.scenarios == local.scenarios
    assert remote.rules == local.rules
