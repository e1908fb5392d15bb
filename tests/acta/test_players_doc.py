"""The `## acta` section of docs/players.md runs as written: its console commands print
what the page shows (a line `...` stands for any lines: the machine's timing), and its
Python snippet runs. The other sections belong to other rulesets' tests."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "players.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
ENV = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin", "COLUMNS": "100"}


def section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("\n## acta\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def fences(lang: str) -> list[str]:
    return [body for kind, body in FENCE.findall(section()) if kind == lang]


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected lines) of each `$ ` line in the section's console fences."""
    out: list[tuple[str, list[str]]] = []
    for body in fences("console"):
        for line in body.splitlines():
            if line.startswith("$ "):
                out.append((line.removeprefix("$ "), []))
            elif out:
                out[-1][1].append(line)
    return out


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether `got` reads as `expected`, a `...` line standing for any lines."""
    if not expected:
        return not got
    head, *rest = expected
    if head == "...":
        return any(matches(rest, got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0].rstrip() == head.rstrip() and matches(rest, got[1:])


def test_the_section_has_a_command_and_a_snippet() -> None:
    assert examples() and fences("python")


@pytest.mark.slow
@pytest.mark.parametrize(("command", "expected"), examples())
def test_the_command_prints_what_the_page_shows(command: str, expected: list[str]) -> None:
    program, *args = shlex.split(command)
    assert program == "dogfight"
    done = subprocess.run(
        [sys.executable, "-m", "dogfight", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert matches(expected, done.stdout.splitlines()), done.stdout


@pytest.mark.parametrize("code", fences("python"))
def test_the_snippet_runs(code: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
