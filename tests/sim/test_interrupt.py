"""Interrupted simulations keep their work, and no worker outlives its parent (issue 17).

These run `python -m dogfight simulate` as a real process group, as a terminal does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for child pids")

LONG_RUN = [
    "simulate",
    "furball",
    "-n",
    "10000000",
    "--jobs",
    "2",
    "--ai",
    "Empire=random",
    "--ai",
    "Klingon=random",
]


def start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "dogfight", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives it
    )


def children(pid: int) -> set[int]:
    """The pids of `pid`'s child processes."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(p) for p in text)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def wait_for_workers(proc: subprocess.Popen[str], count: int = 2) -> set[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        kids = children(proc.pid)
        if len(kids) >= count:
            return kids
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("the workers never started")


def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    proc = start(tmp_path, *LONG_RUN, "--out", "rows.parquet")
    workers = wait_for_workers(proc)
    time.sleep(1)  # battles under way
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers)
    # The rows file had no name yet: nothing, hidden or not, is left behind.
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_keeps_the_battles_played(tmp_path: Path) -> None:
    proc = start(tmp_path, *LONG_RUN, "--out", "rows.parquet", "--out", "rows.csv")
    workers = wait_for_workers(proc)
    time.sleep(4)  # several chunks of battles finished
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted after" in err.splitlines()[-1]
    finished = int(err.split("interrupted after ")[1].split()[0])
    assert finished > 0
    assert f"{finished} battles" in out  # the summary of what was played
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rows.partial.csv",
        "rows.partial.parquet",
    ]
    assert pq.read_table(tmp_path / "rows.partial.parquet").num_rows == finished
    assert len((tmp_path / "rows.partial.csv").read_text().splitlines()) == finished + 1
    assert not any(alive(w) for w in workers)


@pytest.mark.parametrize("group", [False, True], ids=["the parent", "the whole group"])
def test_sigterm_is_handled_as_ctrl_c(tmp_path: Path, group: bool) -> None:
    """SIGTERM to the parent (`kill PID`) or to the whole group (`timeout`, a CI
    cancel): the battles played are kept, and no process prints a traceback."""
    proc = start(tmp_path, *LONG_RUN, "--json")
    workers = wait_for_workers(proc)
    time.sleep(2)
    if group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        os.kill(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert '"interrupted": true' in out
    assert "Traceback" not in err
    assert not any(alive(w) for w in workers)
