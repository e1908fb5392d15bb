"""The wheel works on its own: built from this checkout, installed in a fresh virtual
environment outside it (its dependencies from the package index, as a user gets them),
it plays a battle, writes Parquet rows and serves a rule clause's text.

This is the only test that needs the package index (pip fetches the build tools and the
dependencies); it takes a minute or two, most of it pip.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PIP_TIMEOUT = 900


def run(args: list[str | Path], cwd: Path, timeout: float = 300) -> str:
    """Run a command with no trace of the checkout in its environment; its stdout."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `bin/` of a fresh venv with the wheel installed (built from a copy of the
    sources, so that the build leaves nothing in the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = base / "wheels"
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, source],
        base,
        PIP_TIMEOUT,
    )
    [wheel] = wheels.glob("dogfight-*.whl")
    venv.create(base / "venv", with_pip=True)
    bin_dir = base / "venv" / "bin"
    run([bin_dir / "python", "-m", "pip", "install", "-q", wheel], base, PIP_TIMEOUT)
    return bin_dir


@pytest.mark.slow
def test_the_installed_package_runs_from_its_own_files(installed: Path, tmp_path: Path) -> None:
    where = run([installed / "python", "-c", "import dogfight; print(dogfight.__file__)"], tmp_path)
    assert Path(where.strip()).is_relative_to(installed.parent), where
    assert not Path(where.strip()).is_relative_to(ROOT)
    # the tests' tools are not what the package runs on
    missing = run(
        [
            installed / "python",
            "-c",
            "import importlib.util as u; print([m for m in ('scipy', 'icepool')"
            " if u.find_spec(m)])",
        ],
        tmp_path,
    )
    assert missing.strip() == "[]"


@pytest.mark.slow
def test_the_installed_package_plays_and_writes_parquet(installed: Path, tmp_path: Path) -> None:
    battle = run([installed / "dogfight", "battle", "furball", "--seed", "1", "--quiet"], tmp_path)
    assert "Result:" in battle
    rows = run(
        [
            installed / "dogfight",
            "simulate",
            "furball",
            "-n",
            "4",
            "--jobs",
            "1",
            "--out",
            "x.parquet",
        ],
        tmp_path,
    )
    assert "Wrote 4 rows to x.parquet" in rows
    count = run(
        [
            installed / "python",
            "-c",
            "import pyarrow.parquet as pq; print(pq.read_table('x.parquet').num_rows)",
        ],
        tmp_path,
    )
    assert count.strip() == "4"


@pytest.mark.slow
def test_the_installed_server_answers_a_rules_lookup(installed: Path, tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen(
        [installed / "dogfight", "serve", "--port", str(port), "--db", tmp_path / "g.sqlite"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}/api/rules/acta/ACTA-DOG-5"
        deadline = time.monotonic() + 120
        while True:
            try:
                status, body = get(url)
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.5)
        assert status == 200, body
        assert body["clause"] == "ACTA-DOG-5" and body["text"]
        status, body = get(f"http://127.0.0.1:{port}/api/rules/sfa/SFA-TEC-02")
        assert status == 200 and body["title"], body
    finally:
        server.terminate()
        server.wait(timeout=30)
