"""The `## evo` section of docs/players.md: its console examples print what it shows (a
line holding only `...` stands for any number of lines)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "players.md"
FENCE = re.compile(r"^```console\n(.*?)^```", re.S | re.M)


def section(title: str) -> str:
    """The text of one `## ` section of the page."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def examples(text: str) -> list[tuple[str, list[str]]]:
    """(command, expected lines) for each `$ ` line of the console fences."""
    out: list[tuple[str, list[str]]] = []
    for block in FENCE.findall(text):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether `got` reads as `expected`, each `...` line standing for any lines."""
    if not expected:
        return not got
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0] == head and matches(rest, got[1:])


def test_the_evo_section_examples_print_what_they_show() -> None:
    found = examples(section("evo"))
    assert found
    for command, expected in found:
        args = shlex.split(command)
        assert args[0] == "dogfight"
        done = subprocess.run(
            [sys.executable, "-m", "dogfight", *args[1:]],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin", "COLUMNS": "100"},
        )
        assert done.returncode == 0, done.stderr
        assert matches(expected, done.stdout.splitlines()), done.stdout
