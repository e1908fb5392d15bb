"""docs/rl.md runs: each python block in a fresh process (its output matching the text
block after it, when there is one), each console command with its output, and the
training example for one short episode (issue 15 item 8)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rl.md"
FENCE = re.compile(r"(<!-- not run: [^\n]*-->\n)?^```(\w+)\n(.*?)^```", re.S | re.M)
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def blocks() -> list[tuple[bool, str, str]]:
    """(run?, language, body) of each fence, in page order."""
    text = PAGE.read_text(encoding="utf-8")
    return [(not skip, lang, body) for skip, lang, body in FENCE.findall(text)]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=300, check=False
    )


def matches(expected: list[str], got: list[str]) -> bool:
    """Expected lines, '...' standing for any number of lines."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0].rstrip() == expected[0].rstrip() and matches(expected[1:], got[1:])


def test_the_python_blocks_run_and_print_what_the_page_says() -> None:
    found = blocks()
    ran = 0
    for k, (live, lang, body) in enumerate(found):
        if lang != "python" or not live:
            continue
        done = run([sys.executable, "-c", body])
        assert done.returncode == 0, done.stderr
        after = found[k + 1] if k + 1 < len(found) else None
        if after is not None and after[1] == "text" and "steps/s" not in after[2]:
            assert done.stdout.splitlines() == after[2].splitlines()
        ran += 1
    assert ran >= 4


def test_the_console_commands_run() -> None:
    commands = 0
    for live, lang, body in blocks():
        if lang != "console" or not live:
            continue
        lines = body.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ "):
                continue
            expected = []
            for rest in lines[i + 1 :]:
                if rest.startswith("$ "):
                    break
                expected.append(rest)
            args = shlex.split(line[2:])
            assert args[0] == "dogfight"
            done = run([sys.executable, "-m", "dogfight", *args[1:]])
            assert done.returncode == 0, done.stderr
            assert matches(expected, done.stdout.splitlines()), done.stdout
            commands += 1
    assert commands >= 1


def test_the_training_example_runs_one_short_episode(tmp_path: Path) -> None:
    plot = tmp_path / "curve.svg"
    done = run(
        [
            sys.executable,
            "examples/rl_train.py",
            "--episodes",
            "1",
            "--eval",
            "1",
            "--plot",
            str(plot),
        ]
    )
    assert done.returncode == 0, done.stderr
    assert "trained on 1 battles" in done.stdout and "won" in done.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
    bad = run([sys.executable, "examples/rl_train.py", "--episodes", "0"])
    assert bad.returncode != 0 and "--episodes" in bad.stderr


def test_bench_rl_refuses_options_it_does_not_take() -> None:
    for extra in (["--units", "acta"], ["--players", "random"], ["--scaling", "furball"]):
        done = run([sys.executable, "-m", "dogfight", "bench", "--rl", *extra])
        assert done.returncode == 1 and "--rl" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
