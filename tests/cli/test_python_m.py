"""`python -m dogfight` is the `dogfight` command (issue 18 item 3), run as a new process
from a folder outside the checkout, as an installed package would be."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dogfight

PACKAGE_ROOT = Path(dogfight.__file__).resolve().parent.parent


def python_m(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT), "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "dogfight", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_python_m_dogfight_runs_the_command_line(tmp_path: Path) -> None:
    done = python_m(tmp_path, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dogfight ")
    done = python_m(tmp_path, "show", "acta", "Zaresh")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].strip() == "Zaresh Superiority Fighter"


def test_python_m_dogfight_errors_are_one_line(tmp_path: Path) -> None:
    done = python_m(tmp_path, "show", "acta", "zaresj")
    assert done.returncode != 0
    assert done.stderr.startswith("error: no acta unit 'zaresj' (did you mean 'zaresh'?)")
    assert "Traceback" not in done.stderr
