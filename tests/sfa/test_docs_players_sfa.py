"""The `## sfa` section of docs/players.md runs: each `$ dogfight ...` line of its console
blocks prints what the page shows (a line `...` stands for any number of lines), and
each python block runs on its own."""

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
    """The text of the page's `## sfa` section."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("\n## sfa\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def blocks(lang: str) -> list[str]:
    return [body for kind, body in FENCE.findall(section()) if kind == lang]


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected lines) of each `$ ` line of the console blocks."""
    out: list[tuple[str, list[str]]] = []
    for body in blocks("console"):
        for line in body.splitlines():
            if line.startswith("$ "):
                out.append((line.removeprefix("$ "), []))
            elif out:
                out[-1][1].append(line)
    return out


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether `got` is `expected` with each `...` line standing for any lines."""
    if not expected:
        return not got
    head, *rest = expected
    if head == "...":
        return any(matches(rest, got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0].rstrip() == head.rstrip() and matches(rest, got[1:])


def test_the_section_shows_the_tactics_command() -> None:
    assert any(c.startswith("dogfight tactics sfa") for c, _ in examples())


@pytest.mark.parametrize(("command", "expected"), examples(), ids=lambda v: str(v)[:40])
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


@pytest.mark.parametrize("code", blocks("python"), ids=lambda v: v.splitlines()[0][:40])
def test_the_python_runs(code: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=300
    )
    assert done.returncode == 0, done.stderr
